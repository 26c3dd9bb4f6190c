r"""min2024 Sec. 4 and App. A: the digit experiments (Figs. 5, 10, 11), the two-phase diagnostic
(Figs. 12, 13) and the 2-D toy example (Fig. 6).

Setting of the paper (Sec. 4): h = 50, *unbalanced* init :math:`W_{ij},v_j\sim\mathcal N(0,\alpha^2)`,
:math:`\alpha=10^{-6}`, full-batch GD on both layers, :math:`\eta=2\times10^{-3}`.  Not stated
by the paper: the loss and its normalisation.  We use the exponential loss *averaged* over the
samples (a sum would make the GD step :math:`n\eta` in flow time, far too coarse for n = 360);
the paper's iteration counts (~2000 to align, ~3000 to fit on MNIST) are therefore compared as
an ordering, not as numbers.  MNIST is replaced by scikit-learn's 8x8 digits
(:mod:`numeric.data.digits`), centred by the global mean; Figs. 12-13 used SGD with batch 2000 on
MNIST, here full-batch GD on the digits (the diagnostic is the same full-batch quantity).
Subgradient :math:`\sigma'(0)=0`.  Outside Theorem 1 (GD, unbalanced), so
:math:`\mathcal V_\pm(t)=\{j:\pm v_j(t)>0\}` is re-read at every record.

The GD map runs on the engine (:func:`numeric.engine.descent.gradient_descent`) as a fused step of
its own, :class:`_DigitStep`, rather than with :class:`numeric.models.balanced_relu.PlainFlow`: the
digit runs need ``B*h`` neurons in ONE contiguous BLAS product per step; the generic field's batched
transposed-view matmul is ~100x slower at these sizes (``shared/NOTES-numerics.md``).
:func:`figure_6` cross-checks it against ``gradient_descent(PlainFlow)`` (sum loss, step
:math:`\eta/n`).  It gives the same bits as the loop it replaced (tests/verify/test_min2024_gd_engine.py);
its per-step Python cost is a little higher (the engine's call, the strided state): 0.98-1.07x the
loop's time on the digits (B = 1 to 16), 1.07-1.13x on the 2-D toy data (B = 1, 2), 1.01-1.13x per
claim at quick (Figs. 5, 6, 12, 13; best of 3, ``verify`` with
:func:`numeric.engine.allocator.keep_freed_memory`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from numeric.backend import to_numpy
from numeric.data.digits import digit_pair, gram_sign_agreement
from numeric.data.separated_data import (
    DEAD,
    MINUS,
    OTHER,
    PLUS,
    aggregates,
    allowed,
    planar,
    regions,
    separation,
)
from numeric.engine.descent import gradient_descent
from numeric.models.activation import RELU
from numeric.models.balanced_relu import PlainFlow, join
from numeric.models.losses import Loss
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.papers.min2024.hypotheses import ASSUMPTION_1, SMALL_INIT_GD
from verify.papers.min2024.seed_interval import SeedInterval, seed_interval, spread_note

LR = 2e-3
INIT = 1e-6
H = 50
_EXP_SUM = Loss("exponential", "sum")  # divided by n: the mean (bit for bit np.mean's sum / n)
# Why MNIST is not used, and what the paper's d = 784 run would cost here (estimated, not run).  MNIST is
# not on this machine (searched 2026-11-27: no copy in the project, /work/shared or the file system; a
# Fashion-MNIST package in the apt cache holds other images) and runs download nothing.  Cost: the GD
# map of :func:`gd` timed at MNIST's shape on random data (d = 784, n = 12665 = the 0/1 training pair,
# h = 50, best of 3 x 20 steps) on this project's 2-core CPU while other runs loaded it (load ~6):
# 0.87 s per step for B = 4 members, i.e. SEED_STEP_S per member-step and image; one batch-2000 step
# (B = 1) 0.17 s, one full-gradient step (B = 1, n = 12665) 0.57 s.  Linear in n (one (Bh, d) @ (d, n)
# product and its transpose per step).
SEED_STEP_S = 0.87 / 4 / 12665
BATCH_STEP_S, FULL_GRADIENT_S = 0.17, 0.57
MNIST_TRAIN = {0: 5923, 1: 6742, 3: 6131, 7: 6265, 8: 5851}  # images per digit in MNIST's training set
NO_MNIST = "MNIST is not on this machine and runs download nothing"
FAIL_NOTE = "a failure here is not a failure of the paper's MNIST figure"


def digit_stand_in(pair: tuple[int, int], per_class: int | None, seeds: int = 4) -> str:
    """The stand-in label of Figs. 5, 10, 11, with the estimated cost of the paper's run."""
    n = MNIST_TRAIN[pair[0]] + MNIST_TRAIN[pair[1]]
    hours = SEED_STEP_S * n * 15_000 * seeds / 3600
    return (
        f"scikit-learn's 8x8 digits (d = 64, {per_class or 'all'} images per class) for MNIST "
        f"digits {pair[0]}/{pair[1]} (d = 784), because {NO_MNIST}; the paper's run (full-batch GD, h = 50, "
        f"15000 steps; n not stated, the whole training pair has {n} images) is estimated at {hours:.1f} h "
        f"for {seeds} seeds in one batch on this 2-core CPU (GD steps timed at that shape on random data, "
        "scaled up); " + FAIL_NOTE
    )


def diagnostic_stand_in(per_class: int | None, steps: int) -> str:
    """The stand-in label of Figs. 12, 13 (the paper: SGD with batch 2000 on MNIST 0/1)."""
    n = MNIST_TRAIN[0] + MNIST_TRAIN[1]
    minutes = (steps * BATCH_STEP_S + steps * 2000 / n * FULL_GRADIENT_S) / 60
    return (
        f"scikit-learn's 8x8 digits (d = 64, {per_class or 'all'} images per class) for MNIST "
        f"digits 0/1 (d = 784), because {NO_MNIST}, and full-batch GD for the paper's SGD with batch 2000 "
        "(the diagnostic is the same full-batch gradient: once per epoch in the paper, every 50 steps here); "
        f"the paper's run for this claim's {steps} steps (n = {n}, a full-gradient diagnostic per epoch) is "
        f"estimated at {minutes:.0f} min on this 2-core CPU (steps timed at d = 784 on random data, scaled "
        "up); " + FAIL_NOTE
    )


@dataclass(frozen=True)
class Run:
    """Records of one batched GD run: ``W`` (B, T, h, D), ``v`` (B, T, h), diagnostics (B, T)."""

    steps: np.ndarray
    W: np.ndarray
    v: np.ndarray
    loss: np.ndarray
    norm_change: np.ndarray
    direction_change: np.ndarray


@dataclass(frozen=True, eq=False)
class _DigitStep:
    r"""The GD map of :func:`gd` as a fused step of the engine, all ``B`` members in one product.

    State of a member: ``(W.ravel(), v)``, ``h D + h`` entries.  Gradients at :math:`(W,v)`, with
    :math:`Z=WX^\top`, :math:`f_i=\sum_jv_j\sigma(Z_{ji})`, :math:`r_i=y_ie^{-y_if_i}/n`:
    :math:`-\nabla_{w_j}=\sum_i\mathbb 1_{Z_{ji}>0}r_iv_jx_i`, :math:`-\nabla_{v_j}=\sum_ir_i\sigma(Z_{ji})`.
    The ``B`` weight blocks are a strided slice of the states ``(B, hD + h)``: they are copied into one
    contiguous ``(B h, D)`` matrix, so the step is one BLAS product ``(B h, D) @ (D, n)``.
    """

    X: np.ndarray  # (n, D)
    XT: np.ndarray  # (D, n), contiguous
    y: np.ndarray  # (n,)
    h: int
    train_v: bool

    def _gradient(self, state: np.ndarray) -> tuple[np.ndarray, ...]:
        """``(W (B h, D), v (B, h), A = sigma(Z) (B h, n), f (B, n), r repeated h times (B h, n),
        -grad_W (B h, D))``, with ``r`` the residual weights :math:`r_i` of every member."""
        (n, D), h = self.X.shape, self.h
        W = state[:, : h * D].reshape(-1, D)  # a contiguous copy of the strided blocks (a view at B = 1)
        v = np.ascontiguousarray(state[:, h * D :])
        Z = W @ self.XT
        A = RELU.value(Z)
        f = np.einsum("bh,bhn->bn", v, A.reshape(-1, h, n))
        rh = np.repeat(-_EXP_SUM.dvalue(f, self.y) / n, h, axis=0)  # y e^{-y f} / n
        return W, v, A, f, rh, (v.reshape(-1, 1) * RELU.backprop(Z, rh)) @ self.X

    def descend(self, t: np.ndarray, state: np.ndarray, lr: float, args: dict) -> None:
        """One GD step in place: ``W += lr (-grad_W)``, ``v += lr (-grad_v)`` (if ``train_v``)."""
        _, v, A, _, rh, dW = self._gradient(state)
        hD = dW.size // v.shape[0]
        if self.train_v:
            state[:, hD:] += lr * (A * rh).sum(1).reshape(v.shape)
        dW *= lr
        state[:, :hD] += dW.reshape(-1, hD)

    def observe(self, t: np.ndarray, state: np.ndarray, args: dict) -> dict[str, np.ndarray]:
        """The loss and App. A.5's norm and direction changes of every member, ``(B,)`` each."""
        W, _, _, f, _, dW = self._gradient(state)
        B = state.shape[0]
        wn = np.linalg.norm(W, axis=1)
        radial = (dW * W).sum(1) / wn
        tang = np.sqrt(np.maximum((dW * dW).sum(1) - radial**2, 0.0)) / wn
        return {
            "loss": _EXP_SUM.value(f, self.y) / len(self.y),
            "norm": np.abs(radial).reshape(B, self.h).sum(1),
            "dir": tang.reshape(B, self.h).sum(1),
        }


def gd(X, y, W0, v0, *, steps: int, every: int, train_v: bool = True, lr: float = LR) -> Run:
    r"""GD on :math:`\frac1n\sum_ie^{-y_if(x_i)}` for B networks at once (``W0`` (B, h, D), ``v0`` (B, h)),
    on the engine (:class:`_DigitStep`), recorded every ``every`` steps from step 0.

    At every record (App. A.5): norm change :math:`\sum_j|\langle-\nabla_{w_j},\hat w_j\rangle|` and
    direction change :math:`\sum_j\|P_{w_j}(-\nabla_{w_j})\|/\|w_j\|`.  A member whose iterates stop being
    finite has NaN records from then on (the engine's status policy).
    """
    B, h, D = W0.shape
    step = _DigitStep(X, np.ascontiguousarray(X.T), y, h, train_v)
    traj = gradient_descent(
        step,
        np.concatenate([W0.reshape(B, h * D), v0], axis=1),
        lr=float(lr),
        steps=steps,
        record=np.arange(0, steps + 1, every),
        observe=step.observe,
    )
    ys = to_numpy(traj.ys)
    obs = {k: to_numpy(val) for k, val in traj.observed.items()}
    T = ys.shape[1]
    return Run(
        traj.ts.astype(np.int64),
        ys[..., : h * D].reshape(B, T, h, D),
        ys[..., h * D :],
        obs["loss"],
        obs["norm"],
        obs["dir"],
    )


def unbalanced_init(rng: np.random.Generator, B: int, D: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The paper's init: every entry of W and v i.i.d. N(0, scale^2)."""
    return rng.normal(0.0, scale, (B, H, D)), rng.normal(0.0, scale, (B, H))


def alignment(run: Run, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`\cos(\bar w_\pm,x_\pm)`, (B, T) each; :math:`\bar w_\pm`: mean over :math:`\pm v_j>0`."""
    out = []
    for sign, x in zip((1.0, -1.0), aggregates(X, y), strict=True):
        sel = (sign * run.v > 0)[..., None]
        wbar = (run.W * sel).sum(2) / np.maximum(sel.sum(2), 1)
        out.append(wbar @ x / (np.linalg.norm(wbar, axis=-1) * np.linalg.norm(x) + 1e-300))
    return out[0], out[1]


def stable_rank(run: Run) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`\|W\|_F^2/\|W\|_2^2` and :math:`\|W\|_2^2`, (B, T) each; NaN at a non-finite record."""
    finite = np.isfinite(run.W).all(axis=(-2, -1))
    sv = np.full((*run.W.shape[:2], min(run.W.shape[-2:])), np.nan)
    sv[finite] = np.linalg.svd(run.W[finite], compute_uv=False)
    return (sv**2).sum(-1) / sv[..., 0] ** 2, sv[..., 0] ** 2


def first(mask: np.ndarray) -> np.ndarray:
    """Index of the first True along the last axis (its length where none)."""
    return np.where(mask.any(-1), mask.argmax(-1), mask.shape[-1])


def plateau_iterations(X: np.ndarray, y: np.ndarray, scale: float, lr: float = LR) -> float:
    r"""GD iterations until the loss leaves its plateau, from the linearised growth of aligned neurons:
    :math:`k^*=\ln(1/\alpha^2)/(2\lambda\eta)`, :math:`\lambda=\max(\|x_+\|,\|x_-\|)/n`.

    On the plateau :math:`f\approx0`, so :math:`r_i=y_i/n`; a neuron in :math:`S_+` with
    :math:`v_j>0` moves by :math:`\dot w_j=v_jx_+/n`, :math:`\dot v_j=\langle w_j,x_+\rangle/n`: both
    grow like :math:`e^{\lambda t}`, so :math:`f=O(\alpha^2e^{2\lambda t})` reaches O(1) at
    :math:`t^*=\ln(1/\alpha^2)/(2\lambda)`, i.e. :math:`t^*/\eta` iterations (the alignment time and
    O(1) factors -- h, :math:`\|x\|` -- are left out).  Digits 3/8, 20 per class, :math:`\alpha=10^{-6}`:
    :math:`k^*=18038`; the loss is down 10% at about 0.8 :math:`k^*`."""
    n = len(y)
    lam = max(np.linalg.norm(X[y > 0].sum(0)), np.linalg.norm(X[y < 0].sum(0))) / n
    return float(np.log(1.0 / scale**2) / (2 * lam * lr))


# The paper's horizon (Sec. 4, Fig. 5; A.4 "exactly the same setting"): the loss decreases after ~3000
# iterations and the plots end at 15000 = 5 plateaus, on MNIST.  The stand-in's plateau is longer (its
# images are 8x8, so lambda is smaller), so full runs 5 x plateau_iterations of its own data (20 per class,
# alpha 1e-6, the claim's image draw), rounded up to the record interval 250: figure 5 (0/1) 5 x 9844,
# figure 10 (3/8) 5 x 18038, figure 11 (1/7) 5 x 12653.  15000 left figure 10 at loss ratio 0.865.
FULL_STEPS = {5: 49_250, 10: 90_250, 11: 63_500}


def _digits(ctx: Context, pair: tuple[int, int], label: Callable[[int | None], str]):
    """The centred digit pair, ``per_class`` images of each digit (drawn by the claim's rng); the run is
    labelled stand-in data with ``label(per_class)``."""
    per_class = ctx.param("per_class", tiny=8, quick=20, full=None)
    ds = digit_pair(*pair, per_class=per_class, rng=ctx.rng("images").host)
    ctx.reduced_scale(label(per_class), kind="stand-in data")
    return ds.X, ds.y


@dataclass(frozen=True)
class Reading:
    """A threshold the paper states in words or shows in a figure, not as a number: the value the check
    uses, the range of readings its resolution allows (``lo``, ``hi``) and where it is read."""

    value: float
    lo: float
    hi: float
    source: str


GRAM = Reading(
    0.75,
    0.70,
    0.80,
    "Sec. 4: a same-label pair is 'very likely' positively correlated, an opposite-label pair negatively "
    "(Fig. 5, first plot: a heatmap with +- blocks); no number: read as three in four pairs with the sign "
    "Assumption 1 asks, half-way between no block structure (1/2: the uncentred control, every entry > 0) "
    "and Assumption 1 (1), resolution 0.05 (the share of wrong-signed cells a heatmap shows by eye)",
)
ALIGNED = Reading(
    0.95,
    0.91,
    0.99,
    "'good alignment' (Sec. 4; Fig. 5, second plot: cos(w+, x+) and cos(w-, x-) end near 1 on an axis "
    "with ticks 0.2 apart; the catalog's 'e.g. > 0.95'); no number: read as cos >= 0.95, resolution 0.04 "
    "(a fifth of a tick)",
)
RANK_EXCESS = Reading(
    0.25,
    0.10,
    0.40,
    "'almost 1' (Sec. 4; Fig. 5, third plot), over the prediction of its own reason, 'cos(x+, x-) ~ -1, so "
    "the two groups are almost co-linear': two co-linear groups of norms a, b at cosine c have stable rank "
    "(a^2 + b^2) / lambda_max <= 2 / (1 + |c|) (equality at a = b; 1 at c = -1); no number: read as within "
    "0.25 of it (a quarter of the way to Theorem 1's 2), resolution 0.15",
)
GROWTH = Reading(
    0.5,
    0.25,
    0.75,
    "'||W||_2^2 starts to grow' (Sec. 4: 'after ~3000 iterations the norm ||W||_2^2 starts to grow and the "
    "loss decreases', after 'good alignment after ~2000'; Theorem 1: the norms stay O(alpha^2) while the "
    "directions align, with a constant e^(O(t1)) the theorem allows); no number: read as ||W||_2^2 leaving "
    "O(alpha^2) towards O(1), ||W||_2^2 >= ||W(0)||_2^2 alpha^(-2 theta) at theta = 1/2 (the geometric "
    "middle: o(1) and not O(alpha^2) as alpha -> 0), resolution 1/4 (half-way to either end); a fixed "
    "factor (100 before) is still O(alpha^2) and is reached a quarter into the plateau, long before the "
    "growth the paper's linear axis shows",
)
SWEEP = 9  # thresholds per declared range in :func:`_reading_sweep`


def _reading_sweep(
    ctx: Context,
    label: str,
    reading: Reading,
    main: Callable[[float], bool],
    control: Callable[[float], bool],
    spread: SeedInterval | None = None,
) -> None:
    r"""Does the verdict of the check ``label`` depend on the threshold read off the paper?  ``main(t)`` /
    ``control(t)``: whether the check passes at threshold ``t`` on the claim's run / under its control.  At
    ``SWEEP`` thresholds over the declared range [lo, hi]: the same verdict everywhere (main passes, control
    fails) is a note; otherwise the claim cannot be decided by this reading (INCONCLUSIVE), with the
    thresholds where each side moves.  ``spread``: the seed mean of the run's measurement and its 95%
    interval (None where the measurement has no seeds, e.g. an exact count); an interval that straddles
    the reading's value is undecided too, with the interval as its reason: the seeds do not place a typical
    run on either side of the threshold."""
    on = f" ({ctx.scale.kind})" if ctx.scale else ""
    if spread is not None and spread.straddles(reading.value):
        ctx.undecided(
            f"seed interval, {label}{on}: the seed mean {spread.text()} straddles the reading "
            f"{reading.value:g}",
            f"Student-t interval over the seeds (seed_interval); reading: {reading.source}",
            measured=spread.details(),
        )
    grid = np.linspace(reading.lo, reading.hi, SWEEP)
    ok, broke = [bool(main(t)) for t in grid], [not control(t) for t in grid]
    seeds = "" if spread is None else f"; the run's seed mean {spread.text()}"
    summary = (
        f"{label}: thresholds {np.round(grid, 4).tolist()} (declared readings [{reading.lo:g}, "
        f"{reading.hi:g}] around {reading.value:g}): the run passes at {sum(ok)} of {SWEEP}, the control "
        f"fails at {sum(broke)} of {SWEEP}{seeds}. Reading: {reading.source}"
    )
    if all(ok) and all(broke):
        ctx.note(summary + ". Same verdict over the whole range: not an artefact of the number chosen")
        return
    sides = (("the run stops passing", ok), ("the control stops failing", broke))
    moved = [side for side, held in sides if not all(held)]
    ctx.undecided(
        f"threshold reading, {label}{on}: the verdict changes inside the declared range "
        f"[{reading.lo:g}, {reading.hi:g}] ({' and '.join(moved)} at some threshold)",
        summary + ". The verdict depends on how the paper's words or figure are read",
        measured={"thresholds": np.round(grid, 4).tolist(), "run passes": ok, "control fails": broke},
    )


def _digit_figure(ctx: Context, pair: tuple[int, int], full_steps: int) -> None:
    """Figs. 5, 10, 11: Gram signs, alignment before growth, loss plateau then drop, stable rank ~ 1."""
    alpha = ctx.param("alpha", tiny=1e-3, quick=INIT)
    steps = ctx.param("steps", tiny=7000, quick=20000, full=full_steps)
    seeds = ctx.param("seeds", tiny=1, quick=4, full=4)
    X, y = _digits(ctx, pair, lambda per_class: digit_stand_in(pair, per_class))
    full = digit_pair(*pair)
    rng = ctx.rng("init").host
    xp, xm = aggregates(X, y)
    colinear = 2 / (1 + abs(float(xp @ xm) / (np.linalg.norm(xp) * np.linalg.norm(xm))))

    def gram(Xg: np.ndarray, why: str) -> float:
        agreement = gram_sign_agreement(Xg, full.y)
        ctx.bound(
            "Gram-sign agreement sign(<x_i, x_j>) = y_i y_j (all pairs of the full digit pair)",
            agreement,
            GRAM.value,
            side=">=",
            why=why,
        )
        return agreement

    def phases(scale: float, steps: int, why: str) -> dict:
        r = gd(X, y, *unbalanced_init(rng, seeds, X.shape[1], scale), steps=steps, every=250)
        cp, cm = alignment(r, X, y)
        srank, spec = stable_rank(r)
        worst = np.minimum(cp, cm)
        drop = first(r.loss <= 0.9 * r.loss[:, :1])  # the plateau ends: loss down 10%
        on_plateau = np.array([worst[b, : max(drop[b], 1)].max() for b in range(seeds)])
        grown = first(spec >= spec[:, :1] * scale ** (-2 * GROWTH.value))  # >= 1 (scale < 1)
        before_growth = np.array([worst[b, : grown[b]].max() for b in range(seeds)])
        aligned = first(worst >= ALIGNED.value)
        at = r.steps[np.minimum(aligned, len(r.steps) - 1)]
        ratio, final_rank = r.loss[:, -1] / r.loss[:, 0], srank[:, -1]
        spreads = {
            "alignment on the plateau": seed_interval(on_plateau),
            "alignment before the growth": seed_interval(before_growth),
            "aligned at (iteration)": seed_interval(at),
            "grown at (iteration)": seed_interval(r.steps[np.minimum(grown, len(r.steps) - 1)]),
            "final loss ratio": seed_interval(ratio),
            "final stable rank": seed_interval(final_rank),
        }
        ctx.bound(
            "alignment min(cos(w+, x+), cos(w-, x-)) reached on the loss plateau",
            on_plateau,
            ALIGNED.value,
            side=">=",
            why=why,
            details={"aligned_at": at.tolist(), **spreads["alignment on the plateau"].details()},
        )
        ctx.holds(
            f"alignment (cos >= {ALIGNED.value:g}) precedes the growth of ||W||_2^2 out of O(alpha^2) "
            f"(x alpha^-{2 * GROWTH.value:g})",
            bool(np.all(aligned < grown)),
            measured=f"aligned at {r.steps[np.minimum(aligned, len(r.steps) - 1)].tolist()}, grown at "
            f"{r.steps[np.minimum(grown, len(r.steps) - 1)].tolist()}",
            expected="aligned first",
            why="record indices every 250 iterations; paper: ~2000 vs ~3000 on MNIST; growth: a reading "
            "(GROWTH, note)",
            details={"alignment before the growth": spreads["alignment before the growth"].details()},
        )
        plateau = plateau_iterations(X, y, scale)
        ctx.bound(
            "final loss / initial loss (the plateau is left and the loss decreases)",
            ratio,
            0.8,
            why="the loss is n^-1 sum e^{-y f} = 1 on the plateau; a 20% decrease marks the fitting phase; "
            f"the horizon is {steps / plateau:.2f} x the predicted plateau ({plateau:.0f} iterations, "
            "plateau_iterations; the paper's: 5)",
            details={
                "predicted plateau (iterations)": plateau,
                "loss down 10% at": [int(r.steps[d]) if d < len(r.steps) else None for d in drop],
                **spreads["final loss ratio"].details(),
            },
        )
        # Theorem 1 part 2: ||W||_F^2 <= 2 ||W||_2^2 + 4 sqrt(h) eps W_max^2, with W(0) = eps W0, eps = scale:
        # eps W_max^2 = max_j |w_j(0)|^2 / scale (the O(eps) term of the stable rank, relative to ||W||_2^2)
        init_term = 4 * np.sqrt(H) * (r.W[:, 0] ** 2).sum(-1).max(-1) / scale / spec[:, -1]
        ctx.bound(
            "final stable rank ||W||_F^2 / ||W||_2^2 below 2 (Theorem 1 part 2 with its O(eps) term)",
            srank[:, -1] - init_term,
            2.0,
            why="||W||_F^2 <= 2 ||W||_2^2 + 4 sqrt(h) eps W_max^2 (Theorem 1), eps = the init scale, "
            f"eps W_max^2 = max_j |w_j(0)|^2 / eps: the term, {float(init_term.max()):.2g} of ||W||_2^2, is "
            "subtracted",
        )
        ctx.bound(
            "final stable rank ||W||_F^2 / ||W||_2^2 almost 1: <= 2 / (1 + |cos(x+, x-)|) + 0.25",
            final_rank,
            colinear + RANK_EXCESS.value,
            why="the paper's reason: groups aligned with x+ and x- at cos(x+, x-) = c are co-linear up to "
            f"c, stable rank <= 2 / (1 + |c|) = {colinear:.4f} on this data (global centring with equal "
            f"class sizes gives c = -1); + {RANK_EXCESS.value:g} for 'almost' (a reading, see the note)",
            details=spreads["final stable rank"].details(),
        )
        if scale == alpha:
            ctx.note(spread_note(spreads))
            ctx.figure(
                f"digits {pair[0]}/{pair[1]}: alignment, stable rank, loss",
                xlabel="GD iteration",
                ylabel="value",
                series=[
                    Series("cos(w+, x+)", r.steps, cp[0]),
                    Series("cos(w-, x-)", r.steps, cm[0]),
                    Series("stable rank / 10", r.steps, srank[0] / 10, "--"),
                    Series("loss", r.steps, r.loss[0], ":"),
                ],
            )
        return {
            "on_plateau": on_plateau,
            "worst": worst,
            "growth": spec / spec[:, :1],
            "scale": scale,
            "srank": final_rank,
            "spreads": spreads,
        }

    ctx.regime(SMALL_INIT_GD, alpha=alpha)
    centred = gram(
        full.X,
        f"exact counts over every pair (no sampling, so no interval); {GRAM.value:g}: a reading of the "
        "paper's words (note), not a derived number; the uncentred images have every Gram entry > 0",
    )
    run = phases(
        alpha,
        steps,
        f"cosines at records every 250 iterations; {ALIGNED.value:g}: a reading of 'good alignment' (note); "
        f"init scale {alpha:g}",
    )
    with ctx.control(
        "uncentred images",
        breaks="centred data (Assumption 1 approximately)",
        must_break=["Gram-sign agreement*"],
    ):
        uncentred = gram(digit_pair(*pair, center=False).X, "as above")
    with ctx.control(
        "large initialization alpha = 0.3",
        breaks=SMALL_INIT_GD,
        must_break=[
            "alignment min(cos(w+, x+), cos(w-, x-)) reach*",
            "alignment (cos >= *) precedes*",
            "final stable rank*almost 1*",
        ],
    ):
        large = phases(0.3, 3000, "as above")

    def precedes(r: dict, cos: float | None = None, theta: float | None = None) -> Callable[[float], bool]:
        """Whether alignment (cos >= ``cos``) precedes growth (x scale^(-2 ``theta``)) in every seed, as a
        function of the one left None (the threshold swept)."""

        def at(t: float) -> bool:
            c, th = (t, GROWTH.value) if cos is None else (cos, t)
            grown = first(r["growth"] >= r["scale"] ** (-2 * th))
            return bool(np.all(first(r["worst"] >= c) < grown))

        return at

    _reading_sweep(ctx, "Gram-sign agreement", GRAM, lambda t: centred >= t, lambda t: uncentred >= t)
    _reading_sweep(
        ctx,
        "alignment on the plateau",
        ALIGNED,
        lambda t: bool(np.all(run["on_plateau"] >= t)),
        lambda t: bool(np.all(large["on_plateau"] >= t)),
        run["spreads"]["alignment on the plateau"],
    )
    _reading_sweep(
        ctx,
        "alignment precedes growth",
        ALIGNED,
        precedes(run),
        precedes(large),
        run["spreads"]["alignment before the growth"],
    )
    _reading_sweep(
        ctx,
        "alignment precedes growth (growth exponent theta)",
        GROWTH,
        precedes(run, cos=ALIGNED.value),
        precedes(large, cos=ALIGNED.value),
    )
    _reading_sweep(
        ctx,
        "stable rank almost 1 (excess over 2 / (1 + |c|))",
        RANK_EXCESS,
        lambda t: bool(np.all(run["srank"] <= colinear + t)),
        lambda t: bool(np.all(large["srank"] <= colinear + t)),
        seed_interval(run["srank"] - colinear),
    )


def _digit_claim(fig: int, pair: tuple[int, int]):
    @claim(
        f"min2024:figure-{fig}",
        title=f"Fig. {fig}: digits {pair[0]} vs {pair[1]} (8x8 stand-in): alignment, then growth, rank ~ 1",
        source=f"Fig. {fig}, Sec. 4" + ("" if fig == 5 else " and App. A.4"),
        statement=r"Centred digit data: Gram matrix approximately block $\pm$; "
        r"$\cos(\bar w_\pm,x_\pm)$ reaches good alignment on the loss plateau, before $\|W\|_2^2$ grows; "
        r"then the loss decreases and "
        r"$\|W\|_F^2/\|W\|_2^2$ falls below 2, almost 1",
        hypotheses=["centred data (Assumption 1 approximately)", SMALL_INIT_GD],
    )
    def check(ctx: Context) -> None:
        _digit_figure(ctx, pair, FULL_STEPS[fig])

    return check


figure_5 = _digit_claim(5, (0, 1))
figure_10 = _digit_claim(10, (3, 8))
figure_11 = _digit_claim(11, (1, 7))


def _two_phase_index(r: Run) -> np.ndarray:
    r"""Norm change at iteration 0 relative to its peak over the run, (B,).

    Both layers from scale :math:`\alpha`: :math:`\sum_j|\langle-\nabla_{w_j},\hat w_j\rangle|\le
    \sum_j|v_j|\|g_j\|=O(h\alpha\|x\|)` at the start while the peak is O(1), so the index is
    :math:`O(\alpha)` (the norms wait for the directions).  First layer only, :math:`|v_j|=1`: the
    norms move at full speed from the start, index O(1).
    """
    return r.norm_change[:, 0] / r.norm_change.max(-1)


def _diagnostic(
    ctx: Context, *, train_v: bool, scale: float, steps: int, claim_steps: int, seeds: int
) -> Run:
    """App. A.5 runs on digits 0/1, ``seeds`` init draws in one batch: both layers from N(0, scale^2), or W
    only with v = +-1 fixed; the stand-in label costs the paper's run for the claim's own ``claim_steps``."""
    X, y = _digits(ctx, (0, 1), lambda per_class: diagnostic_stand_in(per_class, claim_steps))
    rng = ctx.rng(f"diagnostic/{train_v}/{scale}").host
    W0, v0 = unbalanced_init(rng, seeds, X.shape[1], scale)
    if not train_v:
        v0 = rng.choice([-1.0, 1.0], size=v0.shape)
    return gd(X, y, W0, v0, steps=steps, every=50, train_v=train_v)


def _diagnostic_figure(ctx: Context, name: str, r: Run) -> None:
    ctx.figure(
        name,
        xlabel="GD iteration",
        ylabel="value (log scale)",
        logy=True,
        series=[
            Series("changes in neuron norms", r.steps, r.norm_change[0]),
            Series("changes in neuron directions", r.steps, r.direction_change[0]),
            Series("loss", r.steps, r.loss[0], ":"),
        ],
    )


SEEDS_NOTE = (
    "The paper's Fig. {fig} shows one training curve, i.e. one draw of its random init: every one of the "
    "{seeds} init draws here (a fixed list, chosen before looking) is a run of that experiment, and each "
    "check bounds the worst draw; the figure shows draw 0"
)
WHY_INDEX = (
    "norm change N = sum_j |<-grad_wj, w_j/|w_j|>| and direction change sum_j |P(-grad_wj)|/|w_j| "
    "(App. A.5), recorded every 50 iterations"
)


def _at(a: np.ndarray, k: np.ndarray) -> np.ndarray:
    """``a[b, k[b]]`` for every member b: a (B, T) record at a per-member index."""
    return a[np.arange(len(k)), k]


@claim(
    "min2024:figure-12",
    title="Fig. 12: two-phase training (directions first, norms later) under small init, both layers",
    source="Fig. 12, App. A.5",
    statement="Training both layers from small initialization: early on only the neuron directions change "
    "(norm change ~ 0); later the norms grow and the loss decreases",
    hypotheses=[SMALL_INIT_GD, "both layers trained"],
)
def figure_12(ctx: Context) -> None:
    steps = ctx.param("steps", tiny=7000, quick=12000)
    seeds = ctx.param("seeds", tiny=2, quick=4, full=8)

    def two_phase(r: Run, why: str) -> None:
        ctx.bound(
            "two-phase index: norm change at iteration 0 / its peak", _two_phase_index(r), 0.01, why=why
        )

    r = _diagnostic(ctx, train_v=True, scale=INIT, steps=steps, claim_steps=steps, seeds=seeds)
    ctx.regime(SMALL_INIT_GD, alpha=INIT)
    ctx.note(SEEDS_NOTE.format(fig=12, seeds=seeds))
    two_phase(
        r,
        WHY_INDEX
        + "; O(alpha) when both layers start at scale alpha (_two_phase_index), 1e-6 here, against the "
        "O(1) of one-phase training",
    )
    k = r.direction_change.argmax(-1)
    ctx.bound(
        "loss at the peak of the direction change / initial loss (still on the plateau)",
        _at(r.loss, k) / r.loss[:, 0],
        0.99,
        side=">=",
        why="the loss is 1 + O(alpha^2 h |x|) on the plateau; 1% marks leaving it",
    )
    ctx.bound(
        "norm change at the end / at the peak of the direction change (the norms grow in phase 2)",
        r.norm_change[:, -1] / _at(r.norm_change, k),
        10.0,
        side=">=",
        why="after alignment the norms grow like e^{2|x+-| t / n}; a factor 10 marks the second phase",
    )
    _diagnostic_figure(ctx, "both layers, small init", r)
    with ctx.control(
        "large initialization alpha = 0.3",
        breaks=SMALL_INIT_GD,
        must_break=["two-phase index*"],
    ):
        large = _diagnostic(ctx, train_v=True, scale=0.3, steps=steps // 4, claim_steps=steps, seeds=seeds)
        two_phase(large, "as above")


@claim(
    "min2024:figure-13",
    title="Fig. 13: no two-phase training when only the first layer is trained (v = +-1 fixed)",
    source="Fig. 13, App. A.5 (Brutzkus et al. 2018; Wang et al. 2019 scheme)",
    statement="Training only W from small initialization with fixed $v_j\\in\\{\\pm1\\}$: norms and "
    "directions change together from the start (no two-phase behaviour), and the training loss still gets "
    "small",
    hypotheses=["only the first layer trained, $v_j=\\pm1$ fixed", SMALL_INIT_GD],
)
def figure_13(ctx: Context) -> None:
    steps = ctx.param("steps", tiny=2000, quick=4000)
    seeds = ctx.param("seeds", tiny=2, quick=4, full=8)
    alpha = INIT

    def one_phase(r: Run, why: str) -> None:
        ctx.bound(
            "two-phase index: norm change at iteration 0 / its peak",
            _two_phase_index(r),
            0.01,
            side=">=",
            why=why,
        )

    r = _diagnostic(ctx, train_v=False, scale=alpha, steps=steps, claim_steps=steps, seeds=seeds)
    ctx.regime(SMALL_INIT_GD, alpha=alpha)  # after every parameter is read (planning stops here)
    ctx.note(SEEDS_NOTE.format(fig=13, seeds=seeds))
    one_phase(
        r,
        WHY_INDEX + "; with |v_j| = 1 the norms move at O(|x|) from step 0 (index O(1)); 0.01 as in "
        "min2024:figure-12",
    )
    ctx.bound(
        "final loss / initial loss (the loss still gets small)",
        r.loss[:, -1] / r.loss[:, 0],
        0.1,
        why="'small training loss' (Sec. 4, App. A.5; no number): read as 10% of the initial loss, as "
        "'close to zero' in min2024:figure-6",
    )
    _diagnostic_figure(ctx, "first layer only, small init", r)
    with ctx.control(
        "both layers trained (second layer from the same small init)",
        breaks="only the first layer trained, $v_j=\\pm1$ fixed",
        must_break=["two-phase index*"],
    ):
        both = _diagnostic(ctx, train_v=True, scale=alpha, steps=3 * steps, claim_steps=steps, seeds=seeds)
        one_phase(both, "as above")


def _plateau_end(r: Run, X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...]:
    """The last record on the loss plateau (loss above 99% of its start) per member, ``(B,)``, and there
    the neurons' W ``(B, h, D)``, v ``(B, h)`` and region codes ``(B, h)``."""
    B = np.arange(len(r.loss))
    k = np.maximum(first(r.loss <= 0.99 * r.loss[:, :1]) - 1, 0)
    W, v = r.W[B, k], r.v[B, k]
    return k, W, v, regions(W, X, y)


def _transition_start() -> tuple[np.ndarray, np.ndarray]:
    """w_0(0) = alpha (cos 147 deg, sin 147 deg), active on the x- point at 200 deg only, v_0(0) = 0.3795
    alpha > 0: v_0 decreases through 0 at the plateau's end while the neuron is active on part of a class.

    Found by a grid over the angle (3 deg) and v_0(0)/|w_0(0)| (0.19) of one neuron, the other 49 drawn
    once from the paper's init (generator seed 0, fixed: a constructed instance, not a seed of the run):
    1 of 1320 grid starts ended outside S+/S-/S_dead, on a band v_0(0)/alpha ~ 0.30 + 0.027 (angle - 144
    deg) of width ~0.003 (v_0(0)/alpha in [0.378, 0.381] at 147 deg); 0.3795 is its middle."""
    W0, v0 = unbalanced_init(np.random.default_rng(0), 1, 2, INIT)
    W0[0, 0] = INIT * np.array([np.cos(np.deg2rad(147.0)), np.sin(np.deg2rad(147.0))])
    v0[0, 0] = 0.3795 * INIT
    return W0, v0


TOY_ANGLES = np.deg2rad([15.0, 35.0, 55.0, 200.0, 240.0])
TOY_RADII = np.array([4.0, 4.8, 3.6, 4.0, 4.0])
TOY_LABELS = np.array([1.0, 1.0, 1.0, -1.0, -1.0])


@claim(
    "min2024:figure-6",
    title="Fig. 6: 2-D toy data: alignment to S+/S-/S_dead, then growth, two loss drops, low rank",
    source="Fig. 6, App. A.1",
    statement=r"(b) at the end of the alignment phase every neuron is in $S_+$ ($v_j>0$), $S_-$ ($v_j<0$) or "
    r"$S_{dead}$, those in $S_\pm$ aligned with $x_\pm$; (c) then the norms grow, the loss goes to 0 with "
    r"two sharp drops (one per class), and $W$ is approximately low rank",
    hypotheses=[ASSUMPTION_1, SMALL_INIT_GD],
    erratum=Erratum(
        "(b) fails in a few runs of the paper's own unbalanced init (quick: 3 neurons in 64 seeds): a "
        "neuron with |v_j(0)| < |w_j(0)| whose v_j changes sign during alignment, or turns slowly, is active "
        "on part of a class only at the end of the plateau (the mechanism of min2024:figure-7); Theorem 1's "
        "balanced init excludes it. Corrected reading, checked here: every non-dead neuron with |v_j(0)| >= "
        "|w_j(0)| (sign of v_j constant) is in S_sign(v_j(0)). A constructed start, one neuron at 147 deg "
        "with v_0(0) = 0.3795 alpha among 49 drawn ones, is a deterministic instance (its v_0 passes through "
        "0 at the plateau's end, while it is active on one x- point only). The paper shows one run",
        via="measured here over 128 seeds chosen before looking",
        shown_by=("(b) every neuron in S+ (v > 0), S- (v < 0) or S_dead at the end of the plateau*",),
    ),
)
def figure_6(ctx: Context) -> None:
    seeds = ctx.param("seeds", tiny=32, quick=32, full=128)
    steps = ctx.param("steps", tiny=5000, quick=6000)
    X, y = planar(TOY_ANGLES, TOY_RADII), TOY_LABELS
    xp, xm = aggregates(X, y)
    alpha = INIT
    ctx.regime(ASSUMPTION_1, mu=separation(X, y))
    ctx.regime(SMALL_INIT_GD, alpha=alpha)
    rng = ctx.rng("init").host
    ratio = np.linalg.norm(xp) / np.linalg.norm(xm)
    W0, v0 = unbalanced_init(rng, 1, 2, 0.5)
    ref = gradient_descent(
        PlainFlow("exponential"),
        ctx.backend.asarray(join(W0, v0)),
        lr=LR / len(y),
        steps=20,
        record=np.array([20]),
        args=PlainFlow.args(ctx.backend, X, y, s=np.ones((1, H))),
    )
    mine = gd(X, y, W0, v0, steps=20, every=20)
    ctx.close(
        "this module's GD map = gradient_descent(PlainFlow), 20 steps from a scale-0.5 state",
        join(mine.W[:, -1], mine.v[:, -1]),
        to_numpy(ref.ys)[:, -1],
        atol=1e-12,
        why="same map, different summation order: ~20 steps x 1e-15 relative on O(1) entries; 1e-12 is loose",
    )

    def check(scale: float, why: str) -> np.ndarray:
        """The checks at init scale ``scale``; returns each member's alignment at the end of its plateau."""
        W0, v0 = unbalanced_init(rng, seeds, 2, scale)
        r = gd(X, y, W0, v0, steps=steps, every=100)
        finite = np.isfinite(r.W).all(axis=(1, 2, 3)) & np.isfinite(r.v).all(axis=(1, 2))
        if scale != alpha and not finite.all():
            # the control breaks the small init, not the step: a member GD diverges on (an initial loss of
            # e^7 at scale 0.3 against step 2e-3) would fail every check by its NaN, not by the hypothesis
            ctx.note(
                f"{int((~finite).sum())} of {seeds} members at init scale {scale:g} diverged under GD at "
                f"step {LR:g} (initial loss up to {float(r.loss[~finite, 0].max()):.3g}) and are left out "
                "of this control's checks"
            )
            r = Run(
                *(
                    a[finite] if a.ndim > 1 else a
                    for a in (r.steps, r.W, r.v, r.loss, r.norm_change, r.direction_change)
                )
            )
            W0, v0 = W0[finite], v0[finite]
        B = np.arange(len(W0))
        k, W, v, codes = _plateau_end(r, X, y)
        ok = allowed(codes, v)
        balance = np.abs(v0) / np.linalg.norm(W0, axis=-1)  # >= 1: v_j^2 - |w_j|^2 >= 0, conserved
        ctx.holds(
            "(b) every neuron in S+ (v > 0), S- (v < 0) or S_dead at the end of the plateau",
            bool(ok.all()),
            measured=f"{int((~ok).sum())} neurons in {int((~ok).any(1).sum())} of {len(B)} seeds",
            expected=0,
            why="exact region labels; the paper shows one run, so every seed is a run of its experiment "
            f"(seeds chosen before looking); {why}",
            details={"|v_j(0)| / |w_j(0)| of the exceptions": balance[~ok]},
        )
        keeps_sign = balance >= 1
        own = allowed(codes, v0)
        ctx.holds(
            "(b) corrected: every neuron with |v_j(0)| >= |w_j(0)| in S_sign(v_j(0)) or S_dead at the end of "
            "the plateau",
            bool(own[keeps_sign].all()),
            measured=f"{int((~own & keeps_sign).sum())} of {int(keeps_sign.sum())} such neurons outside",
            expected=0,
            why="v_j^2 - |w_j|^2 is conserved by the flow (O(lr^2) per GD step), so these neurons keep the "
            f"sign of v_j and turn at least as fast as a balanced one (min2024:figure-7-corrected); {why}",
        )
        cos = np.where(codes == PLUS, W @ xp / np.linalg.norm(xp), W @ xm / np.linalg.norm(xm))
        cos = cos / np.linalg.norm(W, axis=-1)
        cp, cm = alignment(r, X, y)
        aligned = np.minimum(cp[B, k], cm[B, k])
        ctx.bound(
            "(b) cos(mean neuron of S+-, x+-) at the end of the plateau",
            aligned,
            ALIGNED.value,
            side=">=",
            why="the paper's alignment measure (Sec. 4: mean neuron of V+-); single neurons that enter S+- "
            f"late lag behind (min over neurons in details); {ALIGNED.value:g}: 'well aligned', the reading "
            "of min2024:figure-5 (note); " + why,
            details={
                "min_cos_single_neuron": float(cos[(codes == PLUS) | (codes == MINUS)].min()),
                **seed_interval(aligned).details(),
            },
        )
        f = np.einsum("bth,bthn->btn", r.v, RELU.value(r.W @ X.T))
        drops = [
            r.steps[np.minimum(first(np.exp(-f[..., y == c] * c).mean(-1) <= 0.5), len(r.steps) - 1)]
            for c in (1.0, -1.0)
        ]
        lag = drops[1] / np.maximum(drops[0], 1)
        lag_mean = seed_interval(lag)
        ctx.close(
            "(c) two drops: seed mean of t(S- class halves) / t(S+ class halves) vs |x+| / |x-|",
            np.array([lag_mean.mean if b is None else b for b in (lag_mean.lo, lag_mean.hi)]),
            ratio,
            rtol=0.1,
            why="growth rate of log|w|^2 in S+- is 2|x+-|/n, so each class's loss drops at "
            "t ~ (log(1/alpha^2) + c)/(2|x+-|/n): the ratio is |x+|/|x-| up to c/log(1/alpha^2) ~ 10% "
            "for c ~ 3, where c depends on the run's aligned norms (seed to seed); the figure is one "
            "typical run, so the check is on the seed mean (both ends of its 95% t-interval), the worst "
            "seed in details; drop = record where the class's mean loss halves",
            details={
                **lag_mean.details(),
                "worst seed |ratio / (|x+|/|x-|) - 1|": float(np.abs(lag / ratio - 1).max()),
            },
        )
        srank, _ = stable_rank(r)
        spreads = {
            "alignment": seed_interval(aligned),
            "drop-time ratio": seed_interval(lag),
            "final loss": seed_interval(r.loss[:, -1]),
            "final stable rank": seed_interval(srank[:, -1]),
        }
        ctx.bound(
            "(c) final loss",
            r.loss[:, -1],
            0.1,
            why="'close to zero': 10% of the initial loss",
            details=spreads["final loss"].details(),
        )
        ctx.bound(
            "(c) final stable rank",
            srank[:, -1],
            2.0,
            why="Theorem 1's asymptotic bound",
            details=spreads["final stable rank"].details(),
        )
        if scale == alpha:
            ctx.note(spread_note(spreads) + f" (the drop-time ratio's prediction |x+| / |x-| = {ratio:.4f})")
            ctx.figure(
                "toy data: loss",
                xlabel="GD iteration",
                ylabel="loss",
                logy=True,
                series=[Series(f"seed {b}", r.steps, r.loss[b]) for b in B],
            )
        return aligned

    plateau = plateau_iterations(X, y, alpha)
    ctx.note(
        "The paper's toy setting (App. A.1): h = 50, W_ij, v_j ~ N(0, alpha^2) with alpha = 1e-6 (not "
        "balanced), full-batch GD on W and v with step 2e-3, one run; not stated: the data points (n), the "
        f"loss and the number of iterations. This claim: h = {H}, alpha = {alpha:g}, step {LR:g}; its own "
        f"n = {len(y)} points in R^2 satisfying Assumption 1 (angles "
        f"{np.rad2deg(TOY_ANGLES).round(1).tolist()} degrees, radii {TOY_RADII.tolist()}, labels "
        f"{TOY_LABELS.astype(int).tolist()}; mu = {separation(X, y):.4f}); the exponential loss averaged "
        "over the samples, as in this module's digit runs (GD on the mean with "
        "step 2e-3 is GD on the sum with 2e-3 / n; Figs. 7-9, n = 2, use the sum); "
        f"{steps} iterations, because the paper gives none: the plateau ends near {plateau:.0f} iterations "
        f"(plateau_iterations) and the second class's drop about |x+| / |x-| = {ratio:.2f} times later, so "
        f"the horizon holds both drops and the fit; {seeds} seed(s) at this profile (the paper shows one "
        "run; with several, the checks bound the worst init, except the drop-time ratio: seed mean)"
    )
    aligned = check(alpha, f"init scale {alpha:g}")
    built = gd(X, y, *_transition_start(), steps=steps, every=100)
    k, _, v, codes = _plateau_end(built, X, y)
    ctx.holds(
        "(b) every neuron in S+ (v > 0), S- (v < 0) or S_dead at the end of the plateau, constructed start",
        bool(allowed(codes, v).all()),
        measured=f"neuron 0: region code {int(codes[0, 0])} (S+ {PLUS}, S- {MINUS}, dead {DEAD}, "
        f"other {OTHER}), v = {v[0, 0]:.3g} at iteration {int(built.steps[k[0]])}",
        expected="every neuron in S+, S- or S_dead",
        why="a deterministic instance of the exceptions (_transition_start): a neuron active on one x- point "
        "only with 0 < v_0(0) < |w_0(0)|, whose v_0 passes through 0 at the plateau's end",
    )
    with ctx.control(
        "large initialization alpha = 0.3",
        breaks=SMALL_INIT_GD,
        must_break=["(b) every neuron in S+*", "(b) corrected*", "(b) cos(mean neuron*", "(c) two drops*"],
    ):
        large = check(0.3, "as above")
    _reading_sweep(
        ctx,
        "(b) alignment at the end of the plateau",
        ALIGNED,
        lambda t: bool(np.all(aligned >= t)),
        lambda t: bool(np.all(large >= t)),
        seed_interval(aligned),
    )
