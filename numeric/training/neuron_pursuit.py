r"""Neuron Pursuit (kumar2025, Algorithm 1): grow a deep homogeneous net one neuron at a time.

Iteration 1 (escape from the origin): with one neuron per layer, maximize the NCF
:math:`y^\top\mathcal H(X;W)` on :math:`\sum_l\|W_l\|_F^2=1` (eq. 7) by projected gradient
ascent from ``restarts`` random unit points, start gradient descent at :math:`\delta\hat W`.

Iterations 2.. (escape from a saddle): with residual :math:`\bar y=y-\mathcal H(X;\bar W)`,
maximize every hidden layer's single-neuron NCF
:math:`\bar y^\top\mathcal H_{1,l}(X;b,a)` on :math:`\|a\|^2+\|b\|^2=1` (eq. 21, Sec. 3.3),
append the best :math:`(\hat a,\hat b)` scaled by :math:`\delta` as a new neuron of the best
layer (new row of :math:`W_l`, new column of :math:`W_{l+1}`), retrain by gradient descent.

The :math:`\delta` rules are App. C.1.1: first :math:`\delta_1` (0.25), shrunk by 0.8 up to
4 times until the loss is below the loss at the origin; later :math:`\delta=0.01\|w\|`,
shrunk by 0.8 up to 10 times until the loss is below the previous iteration's.  The
insertion-descent check of Lemmas 12/13 (``loss_inserted < loss_before``) is recorded at
every iteration.  A non-positive NCF maximum (degenerate NCF, footnote 1) stops the run:
NP's selection rule is then meaningless.

Loss convention: eq. 1, :math:`\tfrac12\|\mathcal H-y\|^2` (Algorithm 1 omits the 1/2, which
only doubles the effective step size).  Runs on NumPy or CuPy (the backend of ``X``): a gradient
evaluation makes no sync; the syncs are explicit reads (:func:`_read`) of the scalars that steer the
algorithm -- the NCF values of the restarts (one per candidate layer), the losses of the δ rule, the
loss after GD and the norm for δ, one per rebalancing sweep -- plus the engine's GD (a finiteness
check every 64 steps).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.engine.descent import gradient_descent as engine_gd
from numeric.engine.trajectory import Status
from numeric.models.homogeneous_nets import (
    layer_candidates,
    loss_and_grad,
    ncf_and_grad,
    output,
    pack,
    projected_gradient_ascent,
    unpack,
)
from numeric.models.protocol import pack_blocks, unpack_blocks


@dataclass(frozen=True)
class PursuitConfig:
    """Hyper-parameters of Algorithm 1 (defaults: App. C.1.1)."""

    depth: int = 3
    alpha: float = 0.0
    p: int = 1
    restarts: int = 10
    ncf_step: float = 0.2
    ncf_iters: int = 2500
    delta_first: float = 0.25
    delta_rel: float = 0.01
    shrink: float = 0.8
    shrink_first: int = 4
    shrink_later: int = 10
    lr: float = 0.005
    gd_steps: int = 70_000
    max_iter: int = 31
    tol: float = 1e-3
    rebalance: bool = False  # PVR only (App. C.1.1): rebalance the neurons after every iteration
    gd_steps_late: int = 0  # App. C.1.3: GD steps once the mean loss is below late_loss (0: off)
    late_loss: float = 0.05
    lr_check: int = 0  # App. C.2.2: halve lr on a loss increase, checked every lr_check steps (0: off)
    lr_halvings: int = 4
    ncf_step_later: float = 0.0  # App. C.2.2: PGA step from iteration 2 on (0: ncf_step)
    ncf_iters_later: int = 0  # App. C.2.2: PGA iterations from iteration 2 on (0: ncf_iters)

    def __post_init__(self) -> None:
        if self.depth < 2 or self.p < 1 or self.restarts < 1 or self.max_iter < 1:
            raise ValueError("need depth >= 2, p >= 1, restarts >= 1, max_iter >= 1")
        if not (self.lr > 0 and self.delta_first > 0 and self.delta_rel > 0 and 0 < self.shrink < 1):
            raise ValueError("need lr, delta_first, delta_rel > 0 and shrink in (0, 1)")
        if not (self.ncf_step > 0 and self.ncf_iters >= 1 and self.gd_steps >= 0 and self.tol > 0):
            raise ValueError("need ncf_step > 0, ncf_iters >= 1, gd_steps >= 0 and tol > 0")
        if not abs(self.alpha) < float("inf"):
            raise ValueError("alpha must be a finite number")
        if min(self.gd_steps_late, self.lr_check, self.lr_halvings) < 0 or not self.late_loss > 0:
            raise ValueError("need gd_steps_late, lr_check, lr_halvings >= 0 and late_loss > 0")
        if not (self.ncf_step_later >= 0 and self.ncf_iters_later >= 0):
            raise ValueError("need ncf_step_later, ncf_iters_later >= 0")

    def pga(self, first: bool) -> tuple[float, int]:
        """``(step, iters)`` of the NCF's projected gradient ascent in iteration 1 (``first``) or later.

        App. C.2.2 (PVR): step 0.25 for 6000 iterations first, then 0.5 for 5000; the ``*_later``
        fields default to 0, i.e. the first iteration's values throughout (App. C.1)."""
        if first:
            return self.ncf_step, self.ncf_iters
        return self.ncf_step_later or self.ncf_step, self.ncf_iters_later or self.ncf_iters

    def steps_for(self, mean_loss: float) -> int:
        r"""GD steps of an iteration that starts at mean loss :math:`\tfrac1{2n}\|\mathcal H-y\|^2`.

        App. C.1.3: 100000 steps, raised to 300000 once "the training loss gets less than 0.05"
        (``gd_steps``, ``gd_steps_late``, ``late_loss``).  The paper's loss is read as the mean loss of
        its learning rates (the scale of ``lr_mean`` in kumar2025's claims), taken when the iteration's
        GD starts (after the insertion); ``gd_steps_late = 0`` keeps ``gd_steps`` throughout."""
        return self.gd_steps_late if self.gd_steps_late and mean_loss < self.late_loss else self.gd_steps


@dataclass
class PursuitStep:
    """What one NP iteration did (``layer`` = 0 for iteration 1, else the hidden layer 1..L-1)."""

    iteration: int
    layer: int
    ncf_max: float
    delta: float
    loss_before: float
    loss_inserted: float
    loss_after: float
    rel_error: float
    widths: list[int]

    @property
    def descent(self) -> bool:
        """Lemmas 12/13: inserting the scaled KKT point strictly lowered the loss."""
        return self.loss_inserted < self.loss_before


@dataclass
class PursuitResult:
    """Trained weights (unbatched, ``(k_{l+1}, k_l)`` each), the iteration log and why it stopped."""

    weights: list[Array]
    steps: list[PursuitStep] = field(default_factory=list)
    reason: str = ""

    @property
    def converged(self) -> bool:
        return self.reason == "tolerance"

    def predict(self, X: Array, config: PursuitConfig) -> Array:
        return output([W[None] for W in self.weights], X, config.alpha, config.p)[0]

    def on_host(self) -> PursuitResult:
        """This result with its weights copied to the host (one sync per layer on a device)."""
        return PursuitResult([to_numpy(W) for W in self.weights], self.steps, self.reason)


def _read(x: Array) -> float:
    """The 0-d (or one-element) array ``x`` as a host float: one explicit sync on a device."""
    return float(to_numpy(x))


def _loss(Ws: list[Array], X: Array, y: Array, cfg: PursuitConfig) -> float:
    """Eq. 1's loss of the batched weights ``Ws`` (B = 1), read on the host (one sync)."""
    return _read(loss_and_grad(Ws, X, y, cfg.alpha, cfg.p)[0][0])


def scheduled_descent(
    params: list[Array],
    grad: Callable[[list[Array]], list[Array]],
    loss: Callable[[list[Array]], float],
    steps: int,
    cfg: PursuitConfig,
) -> tuple[list[Array], Status]:
    r"""``steps`` steps :math:`W\leftarrow W-\eta\nabla\mathcal L(W)` from :math:`\eta=` ``cfg.lr``.

    The steps are the engine's GD map (:class:`numeric.engine.gd_map.GradientDescent`) on one member
    whose state is every parameter, flattened and concatenated, with the field
    :math:`-\nabla\mathcal L` (bit for bit :math:`W-\eta g`: :math:`W+\eta(-g)` rounds the same).
    With ``cfg.lr_check = c > 0``, App. C.2.2's rule: the loss is computed every ``c`` steps; if it
    is above the loss at the previous check (or not finite), :math:`\eta` is halved and the weights
    are reset to that check, at most ``cfg.lr_halvings`` times per call (later increases are kept).
    A rejected segment is repeated, so ``steps`` counts accepted steps; each call (one NP iteration)
    starts again from ``cfg.lr``.  With ``c = 0`` (default) this is plain GD with a fixed step.

    Returns the parameters and the engine's status: ``SUCCESS``, or ``NONFINITE`` when an accepted
    segment diverged (the parameters are then its last finite iterate).  A diverging segment that can
    still be rejected is an increase of the loss (reset and halve)."""
    shapes = [W.shape for W in params]

    def unpack_row(y: Array) -> list[Array]:
        return [W[0] for W in unpack_blocks(y, shapes)]

    def field(t: Array, y: Array, args: dict) -> Array:
        return -pack_blocks([g[None] for g in grad(unpack_row(y))])

    lr, halvings, done = cfg.lr, 0, 0
    seg = cfg.lr_check or max(steps, 1)
    last = loss(params) if cfg.lr_check else 0.0
    state = pack_blocks([W[None] for W in params])
    while done < steps:
        k = min(seg, steps - done)
        run = engine_gd(field, state, lr=lr, steps=k, record=[k], save_state=False)
        diverged = run.status[0] != Status.SUCCESS
        if cfg.lr_check:
            with np.errstate(over="ignore", invalid="ignore"):  # a growing segment is expected (and rejected)
                now = np.nan if diverged else loss(unpack_row(run.y_stop))
            if not now <= last and halvings < cfg.lr_halvings:
                lr, halvings = lr / 2, halvings + 1
                continue
            last = now
        state, done = run.y_stop, done + k
        if diverged:
            return unpack_row(state), Status.NONFINITE
    return unpack_row(state), Status.SUCCESS


def gradient_descent(
    Ws: list[Array], X: Array, y: Array, cfg: PursuitConfig, steps: int | None = None
) -> tuple[list[Array], Status]:
    r"""GD on eq. 1 (batched weights, B = 1): ``steps`` (default ``cfg.gd_steps``) steps of
    :func:`scheduled_descent`, with its status."""
    return scheduled_descent(
        Ws,
        lambda V: loss_and_grad(V, X, y, cfg.alpha, cfg.p)[1],
        lambda V: _loss(V, X, y, cfg),
        cfg.gd_steps if steps is None else steps,
        cfg,
    )


def first_direction(
    X: Array, y: Array, cfg: PursuitConfig, rng: np.random.Generator
) -> tuple[list[Array], float]:
    """Dominant KKT point of eq. 7 for the one-neuron-per-layer net, and its NCF value."""
    xp = array_namespace(X)
    shapes = [(1, X.shape[1])] + [(1, 1)] * (cfg.depth - 1)
    n_params = sum(r * c for r, c in shapes)

    def value_and_grad(u: Array) -> tuple[Array, Array]:
        value, grads = ncf_and_grad(unpack(u, shapes), X, y, cfg.alpha, cfg.p)
        return value, pack(grads)

    u0 = xp.asarray(rng.normal(size=(cfg.restarts, n_params)))
    step, iters = cfg.pga(first=True)
    u, values = projected_gradient_ascent(value_and_grad, u0, step=step, iters=iters)
    values = to_numpy(values)
    best = int(np.argmax(values))
    return unpack(u[best : best + 1], shapes), float(values[best])


def best_candidate(
    Ws: list[Array], X: Array, resid: Array, cfg: PursuitConfig, rng: np.random.Generator
) -> tuple[int, Array, Array, float]:
    """``(layer, a, b, value)``: the dominant single-neuron KKT point over all hidden layers."""
    xp = array_namespace(X)
    best = (0, None, None, -np.inf)
    for layer, ncf in enumerate(layer_candidates(Ws, X, resid[None], cfg.alpha, cfg.p), start=1):
        k = ncf.G.shape[1] + ncf.Q.shape[1]
        u0 = xp.asarray(rng.normal(size=(1, cfg.restarts, k)))
        step, iters = cfg.pga(first=False)
        u, values = projected_gradient_ascent(ncf.value_and_grad, u0, step=step, iters=iters)
        values = to_numpy(values[0])
        j = int(np.argmax(values))
        if float(values[j]) > best[3]:
            best = (layer, u[0, j, : ncf.k_in], u[0, j, ncf.k_in :], float(values[j]))
    return best


def insert_neuron(Ws: list[Array], layer: int, a: Array, b: Array) -> list[Array]:
    """Append neuron ``(a, b)`` to hidden layer ``layer`` (1-based): a row of W_l, a column of W_{l+1}."""
    xp = array_namespace(a)
    out = list(Ws)
    out[layer - 1] = xp.concatenate([Ws[layer - 1], a[None, None, :]], axis=1)
    out[layer] = xp.concatenate([Ws[layer], b[None, :, None]], axis=2)
    return out


def _shrink_until_descent(
    make: Callable[[float], list[Array]],
    delta: float,
    reference: float,
    times: int,
    X: Array,
    y: Array,
    cfg: PursuitConfig,
) -> tuple[list[Array], float, float]:
    """The δ rule: shrink δ by ``cfg.shrink`` up to ``times`` times until the loss is below ``reference``."""
    Ws = make(delta)
    loss = _loss(Ws, X, y, cfg)
    for _ in range(times):
        if loss < reference:
            break
        delta *= cfg.shrink
        Ws = make(delta)
        loss = _loss(Ws, X, y, cfg)
    return Ws, delta, loss


def neuron_pursuit(
    X: Array,
    y: Array,
    cfg: PursuitConfig,
    rng: np.random.Generator,
    progress: Callable[[PursuitStep], None] | None = None,
) -> PursuitResult:
    r"""Train a depth-``cfg.depth`` net on ``(X, y)`` (``X`` (n, d), ``y`` (n,)) by Algorithm 1.

    Stops when the relative training error :math:`\|\mathcal H-y\|/\|y\|` is below
    ``cfg.tol`` (reason ``"tolerance"``), after ``cfg.max_iter`` iterations (``"max_iter"``),
    or when the NCF maximum is not positive (``"degenerate NCF"``), or when gradient descent
    diverged (``"diverged"``: ``weights`` are its last finite iterate, no step is logged for that
    iteration).  ``progress`` is called with every :class:`PursuitStep`.
    """
    xp = array_namespace(X, y)
    norm_y = _read(xp.linalg.norm(y))
    direction, ncf = first_direction(X, y, cfg, rng)
    if not ncf > 0:
        return PursuitResult([W[0] for W in direction], reason="degenerate NCF")
    loss0 = 0.5 * norm_y**2
    Ws, delta, loss_ins = _shrink_until_descent(
        lambda d: [d * W for W in direction], cfg.delta_first, loss0, cfg.shrink_first, X, y, cfg
    )
    result = PursuitResult([])
    layer, loss_before = 0, loss0
    for iteration in range(1, cfg.max_iter + 1):
        Ws, status = gradient_descent(Ws, X, y, cfg, cfg.steps_for(loss_ins / X.shape[0]))
        if status != Status.SUCCESS:
            result.weights, result.reason = [W[0] for W in Ws], "diverged"
            return result
        if cfg.rebalance:
            Ws = rebalance(Ws, cfg.p)
        loss_after = _loss(Ws, X, y, cfg)
        rel = float(np.sqrt(2 * loss_after)) / norm_y
        step = PursuitStep(
            iteration,
            layer,
            ncf,
            delta,
            loss_before,
            loss_ins,
            loss_after,
            rel,
            [W.shape[1] for W in Ws[:-1]],
        )
        result.steps.append(step)
        if progress is not None:
            progress(step)
        result.weights = [W[0] for W in Ws]
        if rel < cfg.tol:
            result.reason = "tolerance"
            return result
        if iteration == cfg.max_iter:
            break
        resid = y - output(Ws, X, cfg.alpha, cfg.p)[0]
        layer, a, b, ncf = best_candidate(Ws, X, resid, cfg, rng)
        if not ncf > 0:
            result.reason = "degenerate NCF"
            return result
        scale = cfg.delta_rel * _read(xp.linalg.norm(pack(Ws)))
        loss_before = loss_after
        Ws, delta, loss_ins = _shrink_until_descent(
            lambda d, W0=Ws, la=layer, a=a, b=b: insert_neuron(W0, la, d * a, d * b),
            scale,
            loss_before,
            cfg.shrink_later,
            X,
            y,
            cfg,
        )
    result.reason = "max_iter"
    return result


def rebalance(Ws: list[Array], p: int, *, tol: float = 1e-12, sweeps: int = 1000) -> list[Array]:
    r"""Rescale every hidden neuron, :math:`(a,b)\to(ta,b/t^p)` with :math:`t>0` (output unchanged,
    :math:`\sigma(tz)=t^p\sigma(z)`), to the minimum of :math:`\sum_l\|W_l\|_F^2` on the rescaling orbit.

    Coordinate descent over neurons (Saul 2023, Alg. 1, with :math:`p=q=2` norms): neuron ``(l, j)``
    with incoming :math:`a=W_l[j,:]` and outgoing :math:`b=W_{l+1}[:,j]` minimizes
    :math:`t^2\|a\|^2+t^{-2p}\|b\|^2` at :math:`t^{2p+2}=p\|b\|^2/\|a\|^2`, i.e. Lemma 9's balance
    :math:`\|a\|^2=p\|b\|^2`.  The objective is a sum of exponentials of linear forms in the
    log-scales (convex), so the sweeps converge to a balanced minimizer; neurons with a zero side are
    left alone.  Batched weights ``(B, k_{l+1}, k_l)``; one sync per sweep (its largest
    :math:`|\log t|`, the stopping test).
    """
    xp = array_namespace(Ws[0])
    Ws = list(Ws)
    for _ in range(sweeps):
        moves = []
        for layer in range(len(Ws) - 1):
            a2 = (Ws[layer] ** 2).sum(axis=2)  # (B, k_l)
            b2 = (Ws[layer + 1] ** 2).sum(axis=1)  # (B, k_l)
            live = (a2 > 0) & (b2 > 0)
            t = xp.where(live, (p * b2 / xp.where(live, a2, 1.0)) ** (1.0 / (2 * p + 2)), 1.0)
            Ws[layer] = Ws[layer] * t[:, :, None]
            Ws[layer + 1] = Ws[layer + 1] / t[:, None, :] ** p
            moves.append(xp.abs(xp.log(t)).max())
        if _read(xp.stack(moves).max()) < tol:
            break
    return Ws
