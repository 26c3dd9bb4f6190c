r"""kou2023 on explicit weights: GD (3.2) on :math:`W\in\mathbb R^{2m\times d}` and explicit points, for the
checks of the main-text relations (5.8), (5.9) that must not read the coefficient-form run's own formulas.

The reduced run (:mod:`numeric.training.reduced_gd`) carries :math:`\rho` and computes
:math:`\langle w_{j,r},x_i\rangle=\langle w^{(0)}_{j,r},x_i\rangle+\sum_{i'}\rho_{j,r,i'}\langle x_{i'},x_i
\rangle/\|x_{i'}\|^2` and :math:`|\ell'|=1/(1+e^q)` by construction; a check of (5.8) or (5.9) on it
re-verifies those formulas.  Here the weights are trained by the generic full-batch GD of the fixed-readout
net (:class:`numeric.models.fixed_readout.FixedReadoutNet` on :func:`numeric.engine.descent.gradient_descent`)
and every quantity of the paper is read from them by its definition:

* :math:`\rho` by (5.1): :math:`W-W^{(0)}=\sum_i\rho_{\cdot,i}x_i^\top/\|x_i\|^2`, i.e.
  :math:`\rho_{j,r,i}=\|x_i\|^2[(W-W^{(0)})X^\top G^{-1}]_{jr,i}` (:func:`coefficients`);
* :math:`|\ell_i'^{(t)}|` from one GD step (3.2): :math:`W^{(t+1)}-W^{(t)}=CX` with
  :math:`C_{jr,i}=\frac{\eta}{nm}|\ell_i'|\sigma'(\langle w_{j,r},x_i\rangle)jy_i`, so
  :math:`|\ell_i'|=\frac{nm}\eta\sum_{j,r}|C_{jr,i}|/\sum_{j,r}\sigma'` (:func:`loss_derivative`);
* margins :math:`y_if(W,x_i)` and :math:`F_j(W_j,x_i)=\frac1m\sum_r\sigma(\langle w_{j,r},x_i\rangle)` by
  the forward pass (3.1).
"""

from __future__ import annotations

import numpy as np

from numeric.backend import to_numpy
from numeric.engine.descent import gradient_descent
from numeric.models.fixed_readout import FixedReadoutNet, activation
from numeric.training.fixed_readout_sgd import gaussian_weights
from verify.context import Context
from verify.papers.kou2023.common import EPS


def points(G: np.ndarray, d: int) -> np.ndarray:
    r"""Explicit points ``(n, d)`` with Gram matrix ``G`` (Cholesky factor, zero-padded to ``d >= n``)."""
    L = np.linalg.cholesky(G)
    return np.hstack([L, np.zeros((G.shape[0], d - G.shape[0]))])


def explicit_gd(
    ctx: Context,
    key: str,
    X: np.ndarray,
    y: np.ndarray,
    m: int,
    gamma: float,
    sigma0: float,
    eta: float,
    record: np.ndarray,
    seeds: int,
) -> np.ndarray:
    """Weights ``(B, R, 2m, d)`` at the steps ``record`` of full-batch GD (3.2) from i.i.d.
    :math:`N(0,\\sigma_0^2)` weights (seeded by ``key``), ``seeds`` members of slope ``gamma``."""
    d = X.shape[1]
    net = FixedReadoutNet(m, d)
    W0 = gaussian_weights(ctx.rng(key).host, m, d, np.full(seeds, sigma0))
    traj = gradient_descent(
        net,
        ctx.backend.asarray(net.pack((W0,))),
        lr=eta,
        steps=int(record[-1]),
        record=record,
        args=net.args(ctx.backend, X, y.astype(float), gamma=np.full(seeds, gamma)),
    )
    return to_numpy(traj.ys).reshape(seeds, len(record), 2 * m, d)


def coefficients(W: np.ndarray, W0: np.ndarray, X: np.ndarray) -> np.ndarray:
    r""":math:`\rho` ``(..., 2m, n)`` of weights ``W`` ``(..., 2m, d)`` by (5.1) (module docstring)."""
    G = X @ X.T
    return ((W - W0) @ X.T) @ np.linalg.inv(G) * np.diag(G)


def class_means(Z: np.ndarray, gamma: float, m: int) -> np.ndarray:
    r""":math:`\frac1m\sum_r\sigma(Z_{j,r,i})` per class ``(..., 2, n)`` (``j=+1`` first) of ``Z``
    ``(..., 2m, n)``."""
    s = activation(gamma).value(Z)
    return np.stack([s[..., :m, :].mean(-2), s[..., m:, :].mean(-2)], axis=-2)


def forward(W: np.ndarray, X: np.ndarray, gamma: float, m: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Pre-activations :math:`Z=WX^\top` ``(..., 2m, n)`` and :math:`F_j(W_j,x_i)` ``(..., 2, n)``."""
    Z = W @ X.T
    return Z, class_means(Z, gamma, m)


def loss_derivative(
    W: np.ndarray, W1: np.ndarray, X: np.ndarray, gamma: float, eta: float
) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`|\ell_i'|` ``(..., n)`` read off the GD step ``W -> W1`` (module docstring), and its relative
    rounding error.

    :math:`\Delta W=W_1-W` is exact up to :math:`\epsilon(|W|+|W_1|)` per entry (the step's rounding and
    the subtraction) and :math:`C=\Delta W\,X^\top G^{-1}` adds :math:`(d+n)\epsilon|\Delta W|` per term,
    so :math:`|\delta C|\le\epsilon(|W|+|W_1|+(d+n)|\Delta W|)\,|X^\top G^{-1}|`; the error of
    :math:`\sum_{j,r}|C_{jr,i}|` relative to it is returned.
    """
    n, d = X.shape
    two_m = W.shape[-2]
    M = X.T @ np.linalg.inv(X @ X.T)
    dW = W1 - W
    C = dW @ M
    err = EPS * (np.abs(W) + np.abs(W1) + (d + n) * np.abs(dW)) @ np.abs(M)
    slope = activation(gamma).slope(W @ X.T)
    size = np.abs(C).sum(-2)
    ell = n * (two_m // 2) / eta * size / slope.sum(-2)
    return ell, err.sum(-2) / size
