r"""Nearly orthogonal training data, described by its Gram matrix (kou2023 Secs. 4, 6).

Gradient descent on the fixed-readout net (:mod:`numeric.models.fixed_readout`) sees the data only
through :math:`G=XX^\top` and the labels (see :mod:`numeric.training.reduced_gd`), so most
generators here return Gram matrices and never form ``X``; that makes any input dimension
``d`` affordable.  Data quantities of the paper (Sec. 4):

* :math:`R_{\min}=\min_i\|x_i\|`, :math:`R_{\max}=\max_i\|x_i\|`, :math:`R=R_{\max}/R_{\min}`;
* :math:`p=\max_{i\ne k}|\langle x_i,x_k\rangle|`;
* :math:`\kappa=np/R_{\min}^2` (near orthogonality :math:`R_{\min}^2\ge Cnp` is :math:`\kappa\le1/C`).

Generators:

* :func:`orthogonal_gram` -- exactly orthogonal data :math:`x_i=s_ie_i`;
* :func:`controlled_gram` -- :math:`G=R_0^2I+pS` with :math:`S_{ik}=\pm1`: sets :math:`\kappa` exactly;
* :func:`gaussian_points` / :func:`gaussian_gram` -- :math:`x_i\sim N(0,I_d/d)` (explicit
  points, or their exact Wishart Gram matrix drawn by the Bartlett decomposition);
* :func:`gaussian_mixture` -- the Figure-1 data :math:`x=y\mu+\xi`;
* :func:`with_flipped_duplicate` -- a non-separable copy (a point repeated with the other label);
* :func:`gram_sqrt_points` -- explicit points with a given Gram matrix, in any ``d >= rank G``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GramData:
    r"""Labels ``y`` ``(n,)`` in :math:`\{\pm1\}` and Gram matrix ``G`` ``(n, n)`` of the inputs, in
    dimension ``d``."""

    G: np.ndarray
    y: np.ndarray
    d: int
    name: str

    @property
    def n(self) -> int:
        return int(self.y.size)

    @property
    def norms2(self) -> np.ndarray:
        r""":math:`\|x_i\|^2`."""
        return np.diag(self.G).copy()

    @property
    def R_min(self) -> float:
        return float(np.sqrt(self.norms2.min()))

    @property
    def R_max(self) -> float:
        return float(np.sqrt(self.norms2.max()))

    @property
    def p(self) -> float:
        r""":math:`\max_{i\ne k}|\langle x_i,x_k\rangle|` (0 for one point)."""
        off = np.abs(self.G - np.diag(np.diag(self.G)))
        return float(off.max()) if self.n > 1 else 0.0

    @property
    def kappa(self) -> float:
        r""":math:`\kappa=np/R_{\min}^2`."""
        return self.n * self.p / self.R_min**2

    @property
    def rank(self) -> int:
        return int(np.linalg.matrix_rank(self.G))


def alternating_labels(n: int) -> np.ndarray:
    r"""Balanced labels :math:`y=(+1,-1,+1,\dots)`."""
    return np.where(np.arange(n) % 2 == 0, 1.0, -1.0)


def block_labels(n: int) -> np.ndarray:
    r"""Lemma F.3 labels: :math:`y_i=+1` for :math:`i\le n/2`, :math:`-1` otherwise."""
    return np.where(np.arange(n) < n // 2, 1.0, -1.0)


def orthogonal_gram(norms: np.ndarray, y: np.ndarray, d: int | None = None) -> GramData:
    r"""Exactly orthogonal data :math:`x_i=s_ie_i`: :math:`G=\mathrm{diag}(s_i^2)`, :math:`p=0`."""
    norms = np.asarray(norms, float)
    return GramData(np.diag(norms**2), np.asarray(y, float), d or norms.size, "orthogonal")


def controlled_gram(
    rng: np.random.Generator,
    y: np.ndarray,
    kappa: float,
    *,
    R0: float = 1.0,
    d: int | None = None,
    adversarial: bool = False,
) -> GramData:
    r""":math:`G=R_0^2I+pS` with :math:`p=\kappa R_0^2/n`, so :math:`np/R_{\min}^2=\kappa` exactly.

    :math:`S` is symmetric with zero diagonal and off-diagonal entries :math:`\pm1`: random
    signs, or (``adversarial``) :math:`S_{ik}=-y_iy_k`, which makes every opposite-label pair
    positively and every same-label pair negatively correlated (the hardest case for the
    margins).  Raises if :math:`G` is not positive definite.
    """
    y = np.asarray(y, float)
    n = y.size
    if adversarial:
        S = -np.outer(y, y)
    else:
        U = np.triu(rng.choice([-1.0, 1.0], size=(n, n)), 1)
        S = U + U.T
    np.fill_diagonal(S, 0.0)
    p = kappa * R0**2 / n
    G = R0**2 * np.eye(n) + p * S
    lam = np.linalg.eigvalsh(G).min()
    if lam <= 1e-12 * R0**2:
        raise ValueError(
            f"controlled Gram matrix with kappa={kappa} is not positive definite (lambda_min={lam:.3g})"
        )
    return GramData(G, y, d or n, f"controlled Gram, kappa={kappa:g}")


def gaussian_points(rng: np.random.Generator, n: int, d: int, norm_range: tuple[float, float] = (1.0, 1.0)):
    r"""Explicit points :math:`x_i\sim N(0,I_d/d)`, each rescaled by a factor uniform in ``norm_range``."""
    X = rng.normal(size=(n, d)) / np.sqrt(d)
    return X * rng.uniform(*norm_range, size=(n, 1))


def bartlett_wishart(rng: np.random.Generator, k: int, dof: int, size: int = 1) -> np.ndarray:
    r"""Exact draws of :math:`\mathrm{Wishart}_k(\mathrm{dof}, I)` by the Bartlett decomposition, ``(size, k,
    k)``.

    :math:`A=LL^\top` with :math:`L` lower triangular, :math:`L_{ii}^2\sim\chi^2_{\mathrm{dof}-i}`
    (:math:`i=0..k-1`) and :math:`L_{il}\sim N(0,1)` below the diagonal; valid for
    :math:`\mathrm{dof}\ge k`.  For :math:`\mathrm{dof}<k` it sums ``dof`` outer products.
    Cost :math:`O(k^3)`, independent of ``dof``.
    """
    if dof < k:
        g = rng.normal(size=(size, k, dof))
        return g @ np.swapaxes(g, 1, 2)
    L = np.tril(rng.normal(size=(size, k, k)), -1)
    diag = np.sqrt(rng.chisquare(dof - np.arange(k), size=(size, k)))
    idx = np.arange(k)
    L[:, idx, idx] = diag
    return L @ np.swapaxes(L, 1, 2)


def gaussian_gram(rng: np.random.Generator, y: np.ndarray, d: int) -> GramData:
    r"""The exact Gram matrix of :math:`x_i\sim N(0,I_d/d)`: :math:`G\sim\mathrm{Wishart}_n(d,I)/d`."""
    y = np.asarray(y, float)
    G = bartlett_wishart(rng, y.size, d)[0] / d
    return GramData(G, y, d, f"Gaussian, d={d}")


def gaussian_mixture(rng: np.random.Generator, n: int, d: int, mu_var: float = 1e-4, sigma_p: float = 1.0):
    r"""Figure-1 data: :math:`y` Rademacher, :math:`x=y\mu+\xi`, :math:`\mu\sim N(0,\text{mu\_var}\,I_d)`
    once,
    :math:`\xi\sim N(0,\sigma_p^2I_d)`.  Returns ``(X, y)``."""
    mu = rng.normal(scale=np.sqrt(mu_var), size=d)
    y = rng.choice([-1.0, 1.0], size=n)
    return y[:, None] * mu[None, :] + rng.normal(scale=sigma_p, size=(n, d)), y


def with_flipped_duplicate(data: GramData, i: int = 0) -> GramData:
    r"""Non-separable data: point ``i`` appended again with the opposite label (G becomes singular)."""
    idx = np.concatenate([np.arange(data.n), [i]])
    y = np.concatenate([data.y, [-data.y[i]]])
    return GramData(data.G[np.ix_(idx, idx)], y, data.d, data.name + " + flipped duplicate")


def gram_of(X: np.ndarray, y: np.ndarray, name: str) -> GramData:
    """The :class:`GramData` of explicit points ``X`` ``(n, d)``."""
    return GramData(X @ X.T, np.asarray(y, float), X.shape[1], name)


def gram_sqrt_points(G: np.ndarray, d: int) -> np.ndarray:
    r"""Points ``X`` ``(n, d)`` with :math:`XX^\top=G` (symmetric square root, padded with zeros)."""
    lam, U = np.linalg.eigh(G)
    root = (U * np.sqrt(np.clip(lam, 0.0, None))) @ U.T
    n = G.shape[0]
    if d < n:
        raise ValueError(f"need d >= n = {n} to embed the points, got d={d}")
    return np.concatenate([root, np.zeros((n, d - n))], axis=1)
