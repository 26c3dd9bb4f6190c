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
:math:`\min(1,\alpha)` (:func:`numeric.models.homogeneous_nets.homogeneous`).  Runs on NumPy or CuPy (the
backend of ``X``): a gradient evaluation makes no sync; the syncs are explicit scalar reads of the
losses, NCF values and norms that steer the algorithm, a few per iteration.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.engine.trajectory import Status
from numeric.models.homogeneous_nets import NeuronNCF, homogeneous, projected_gradient_ascent
from numeric.models.losses import Loss
from numeric.training.neuron_pursuit import PursuitConfig, PursuitResult, PursuitStep, scheduled_descent

_SQUARE_SUM = Loss("square", "sum")  # on (K, n) outputs: per output over the samples, then summed


def predict(W1: Array, W2: Array, X: Array, cfg: PursuitConfig) -> Array:
    r""":math:`\mathcal H(X)`, shape (n, K)."""
    return (W2 @ homogeneous(cfg.alpha, cfg.p).value(W1 @ X.T)).T


def loss_and_grad(W1: Array, W2: Array, X: Array, Y: Array, cfg: PursuitConfig) -> tuple[Array, Array, Array]:
    r""":math:`\tfrac12\|W_2\sigma(W_1X^\top)-Y^\top\|_F^2` (a 0-d array, on the device) and its gradients
    w.r.t. ``W1``, ``W2``."""
    S = W1 @ X.T
    sigma = homogeneous(cfg.alpha, cfg.p)
    G = sigma.value(S)
    F = W2 @ G
    R = _SQUARE_SUM.dvalue(F, Y.T)  # H - Y (the factor c = 1 is exact)
    g1 = ((W2.T @ R) * sigma.slope(S)) @ X
    return _SQUARE_SUM.value(F, Y.T).sum(), g1, R @ G.T


def _loss(W1: Array, W2: Array, X: Array, Y: Array, cfg: PursuitConfig) -> float:
    """The loss of :func:`loss_and_grad` read on the host (one explicit sync)."""
    return float(to_numpy(loss_and_grad(W1, W2, X, Y, cfg)[0]))


def _best_neuron(X: Array, R: Array, cfg: PursuitConfig, rng: np.random.Generator, first: bool):
    """Dominant KKT point ``(a, b, value)`` of the candidate NCF over ``cfg.restarts`` PGA starts
    (``cfg.pga(first)``'s step and iterations); the starts are drawn on the host."""
    ncf = NeuronNCF(X.T[None], R.T[None], cfg.alpha, cfg.p)
    u0 = array_namespace(X).asarray(rng.normal(size=(1, cfg.restarts, X.shape[1] + R.shape[1])))
    step, iters = cfg.pga(first)
    u, values = projected_gradient_ascent(ncf.value_and_grad, u0, step=step, iters=iters)
    values = to_numpy(values[0])
    j = int(np.argmax(values))
    return u[0, j, : X.shape[1]], u[0, j, X.shape[1] :], float(values[j])


def vector_pursuit(
    X: Array,
    Y: Array,
    cfg: PursuitConfig,
    rng: np.random.Generator,
    stop: Callable[[Array, Array], bool] | None = None,
) -> PursuitResult:
    r"""Algorithm 1 for the two-layer net on ``X`` (n, d), ``Y`` (n, K) (``cfg.depth``, ``rebalance`` unused;
    GD by :func:`numeric.training.neuron_pursuit.scheduled_descent` with ``cfg.steps_for`` steps).

    Stops at relative training error :math:`\|\mathcal H-Y\|_F/\|Y\|_F<` ``cfg.tol`` or when
    ``stop(W1, W2)`` holds (reason ``"tolerance"``), after ``cfg.max_iter`` iterations, or at a
    non-positive NCF maximum (``"degenerate NCF"``), or when gradient descent diverged (``"diverged"``, the
    last finite weights).  ``weights`` = ``[W1, W2]``, on the backend of ``X`` and ``Y``."""
    xp = array_namespace(X, Y)
    d, K = X.shape[1], Y.shape[1]
    W1, W2 = xp.zeros((0, d)), xp.zeros((K, 0))
    norm_y = float(to_numpy(xp.linalg.norm(Y)))
    loss_before = 0.5 * norm_y**2
    result = PursuitResult([W1, W2])
    for iteration in range(1, cfg.max_iter + 1):
        a, b, ncf = _best_neuron(X, Y - predict(W1, W2, X, cfg), cfg, rng, iteration == 1)
        if not ncf > 0:
            result.reason = "degenerate NCF"
            return result
        first = iteration == 1
        norm_w = to_numpy(xp.sqrt((W1**2).sum() + (W2**2).sum()))
        delta = cfg.delta_first if first else cfg.delta_rel * float(norm_w)
        for k in range(1 + (cfg.shrink_first if first else cfg.shrink_later)):
            delta *= cfg.shrink if k else 1.0
            V1, V2 = xp.concatenate([W1, delta * a[None]]), xp.concatenate([W2, delta * b[:, None]], axis=1)
            loss_ins = _loss(V1, V2, X, Y, cfg)
            if loss_ins < loss_before:
                break
        (W1, W2), status = scheduled_descent(
            [V1, V2],
            lambda W: list(loss_and_grad(*W, X, Y, cfg)[1:]),
            lambda W: _loss(*W, X, Y, cfg),
            cfg.steps_for(loss_ins / len(X)),
            cfg,
        )
        if status != Status.SUCCESS:
            result.weights, result.reason = [W1, W2], "diverged"
            return result
        loss_after = _loss(W1, W2, X, Y, cfg)
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
