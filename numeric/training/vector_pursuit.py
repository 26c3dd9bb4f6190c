r"""Neuron Pursuit for two-layer nets with vector outputs (kumar2025 Remark 3, Sec. 5.2.2).

The net is :math:`\mathcal H(x)=W_2\sigma(W_1x)\in\mathbb R^K` with :math:`W_1\in\mathbb R^{k\times d}`,
:math:`W_2\in\mathbb R^{K\times k}`, :math:`\sigma(x)=\max(x,\alpha x)^p`, loss
:math:`\tfrac12\|\mathcal H(X)-Y\|_F^2` (eq. 1 summed over outputs).  With residual
:math:`R=Y-\mathcal H(X)` a new hidden neuron :math:`(a,b)`, :math:`b\in\mathbb R^K`, changes the output
by exactly :math:`b\,\sigma(a^\top x)`, so its NCF is :math:`h(a,b)=\sum_i r_i^\top b\,\sigma(a^\top x_i)`:
:class:`numeric.models.homogeneous_nets.NeuronNCF` with :math:`G=X^\top`, :math:`Q=R^\top` (Remark 3: the
vector case only replaces :math:`\bar y_i` by the vector :math:`r_i`).  Iteration 1 of Algorithm 1
(one neuron, eq. 7) is the same problem with :math:`R=Y`.  Each iteration inserts the dominant KKT
point scaled by :math:`\delta` (App. C.1.1's rule, :func:`numeric.training.neuron_pursuit` conventions) and
retrains by gradient descent.  For ``p = 1`` the derivative at 0 is the Clarke choice
:math:`\min(1,\alpha)` (:func:`numeric.models.homogeneous_nets.homogeneous`).  NumPy only.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numeric.engine.trajectory import Status
from numeric.models.homogeneous_nets import NeuronNCF, homogeneous, projected_gradient_ascent
from numeric.models.losses import Loss
from numeric.training.neuron_pursuit import PursuitConfig, PursuitResult, PursuitStep, scheduled_descent

_SQUARE_SUM = Loss("square", "sum")  # on (K, n) outputs: per output over the samples, then summed


def predict(W1: np.ndarray, W2: np.ndarray, X: np.ndarray, cfg: PursuitConfig) -> np.ndarray:
    r""":math:`\mathcal H(X)`, shape (n, K)."""
    return (W2 @ homogeneous(cfg.alpha, cfg.p).value(W1 @ X.T)).T


def loss_and_grad(
    W1: np.ndarray, W2: np.ndarray, X: np.ndarray, Y: np.ndarray, cfg: PursuitConfig
) -> tuple[float, np.ndarray, np.ndarray]:
    r""":math:`\tfrac12\|W_2\sigma(W_1X^\top)-Y^\top\|_F^2` and its gradients w.r.t. ``W1``, ``W2``."""
    S = W1 @ X.T
    sigma = homogeneous(cfg.alpha, cfg.p)
    G = sigma.value(S)
    F = W2 @ G
    R = _SQUARE_SUM.dvalue(F, Y.T)  # H - Y (the factor c = 1 is exact)
    g1 = ((W2.T @ R) * sigma.slope(S)) @ X
    return float(_SQUARE_SUM.value(F, Y.T).sum()), g1, R @ G.T


def _best_neuron(X: np.ndarray, R: np.ndarray, cfg: PursuitConfig, rng: np.random.Generator, first: bool):
    """Dominant KKT point ``(a, b, value)`` of the candidate NCF over ``cfg.restarts`` PGA starts
    (``cfg.pga(first)``'s step and iterations)."""
    ncf = NeuronNCF(X.T[None], R.T[None], cfg.alpha, cfg.p)
    u0 = rng.normal(size=(1, cfg.restarts, X.shape[1] + R.shape[1]))
    step, iters = cfg.pga(first)
    u, values = projected_gradient_ascent(ncf.value_and_grad, u0, step=step, iters=iters)
    j = int(np.argmax(values[0]))
    return u[0, j, : X.shape[1]], u[0, j, X.shape[1] :], float(values[0, j])


def vector_pursuit(
    X: np.ndarray,
    Y: np.ndarray,
    cfg: PursuitConfig,
    rng: np.random.Generator,
    stop: Callable[[np.ndarray, np.ndarray], bool] | None = None,
) -> PursuitResult:
    r"""Algorithm 1 for the two-layer net on ``X`` (n, d), ``Y`` (n, K) (``cfg.depth``, ``rebalance`` unused;
    GD by :func:`numeric.training.neuron_pursuit.scheduled_descent` with ``cfg.steps_for`` steps).

    Stops at relative training error :math:`\|\mathcal H-Y\|_F/\|Y\|_F<` ``cfg.tol`` or when
    ``stop(W1, W2)`` holds (reason ``"tolerance"``), after ``cfg.max_iter`` iterations, or at a
    non-positive NCF maximum (``"degenerate NCF"``), or when gradient descent diverged (``"diverged"``, the
    last finite weights).  ``weights`` = ``[W1, W2]``."""
    d, K = X.shape[1], Y.shape[1]
    W1, W2 = np.zeros((0, d)), np.zeros((K, 0))
    norm_y = float(np.linalg.norm(Y))
    loss_before = 0.5 * norm_y**2
    result = PursuitResult([W1, W2])
    for iteration in range(1, cfg.max_iter + 1):
        a, b, ncf = _best_neuron(X, Y - predict(W1, W2, X, cfg), cfg, rng, iteration == 1)
        if not ncf > 0:
            result.reason = "degenerate NCF"
            return result
        first = iteration == 1
        delta = cfg.delta_first if first else cfg.delta_rel * float(np.sqrt((W1**2).sum() + (W2**2).sum()))
        for k in range(1 + (cfg.shrink_first if first else cfg.shrink_later)):
            delta *= cfg.shrink if k else 1.0
            V1, V2 = np.vstack([W1, delta * a]), np.hstack([W2, delta * b[:, None]])
            loss_ins = loss_and_grad(V1, V2, X, Y, cfg)[0]
            if loss_ins < loss_before:
                break
        (W1, W2), status = scheduled_descent(
            [V1, V2],
            lambda W: list(loss_and_grad(*W, X, Y, cfg)[1:]),
            lambda W: loss_and_grad(*W, X, Y, cfg)[0],
            cfg.steps_for(loss_ins / len(X)),
            cfg,
        )
        if status != Status.SUCCESS:
            result.weights, result.reason = [W1, W2], "diverged"
            return result
        loss_after = loss_and_grad(W1, W2, X, Y, cfg)[0]
        rel = float(np.sqrt(2 * loss_after)) / norm_y
        step = PursuitStep(iteration, 1, ncf, delta, loss_before, loss_ins, loss_after, rel, [W1.shape[0]])
        result.steps.append(step)
        result.weights = [W1, W2]
        if rel < cfg.tol or (stop is not None and stop(W1, W2)):
            result.reason = "tolerance"
            return result
        loss_before = loss_after
    result.reason = "max_iter"
    return result
