r"""kumar2025 Sec. 5.2: Neuron Pursuit on the paper's other targets (Figs. 7b, 8, 9, 10, 11).

* ``figure-7-f2`` -- :math:`f_2=f_1+5\sum_{i=1}^2 i\,\sigma(\sigma(2x_{4i+1}+x_{4i+2})
  -\sigma(x_{4i+3}-x_{4i+4}))` (6 + 3 ReLU neurons) on :math:`\sqrt d\,\mathbb S^{d-1}`,
  3-layer ReLU net (Fig. 7, right).
* ``figure-8`` -- parities :math:`g_1=x_1x_2-x_1x_2x_3x_4`, :math:`g_2=x_1x_2x_3x_4` on :math:`\{\pm1\}^d`,
  3-layer leaky ReLU :math:`\max(x,0.5x)` (Fig. 8).
* ``figure-9`` / ``figure-9-h2`` -- max-functions :math:`h_1=\max(2x_1,x_2)` and
  :math:`h_2=\max(x_1,2x_2)+\max(x_3,2x_4)-\max(x_1+x_3,-x_2,-x_4)` on :math:`\mathcal N(0,I_d)`,
  4-layer leaky ReLU (Fig. 9).
* ``figure-10`` -- modular addition, two-layer :math:`x^2` net with vector outputs (Remark 3,
  ``numeric.training.vector_pursuit``); ``quick`` uses the modulus 23 instead of 59 and 76% of the pairs
  instead of 43% (its fit is a strict bound; test error and DFT structure straddle their thresholds at
  P = 23).
* ``figure-11`` -- pointer-value retrieval :math:`f(\mathbf p,x)=x_px_{p+1}`, 3-layer ReLU with
  rebalancing after every iteration (Sec. 5.2.2, App. C.2.2); ``quick`` uses ``m = 4`` bits of ``x``
  instead of 16 and App. C.2.2's learning-rate halving from a larger step; NP reaches the tolerance there,
  so its checks are strict bounds.

The paper's outcome for each: NP fits the training data (relative error below its stopping
tolerance within 31 or 42 iterations) and reaches near-zero test error once ``n`` is large; with few
samples the test error stays large.  Every figure runs the ``seeds`` data seeds declared by the
profile (4 at quick, 3 for ``figure-10``; the paper averages 20 runs, App. C.2.1 repeats 3) and its
verdict uses all of them.  At full the paper's scale costs hours to days per figure on one core, so each
but ``figure-7-f2`` (its 4 seeds, ~35 min) runs 1 seed (:class:`FullBudget`: figures 8, 9, 9-h2;
``figure-10``, ``figure-11`` their own) and fewer NP iterations (``figure-10`` 10000 GD steps per
iteration instead of 100000, ``figure-11`` n = 10000 and 20000 steps), labelled reduced scale with the
measured or estimated cost of the paper's scale; below the paper's cap a run at the cap is undecided.  NP
must
reach its tolerance within the cap in every seed (the tolerance alone is NP's stopping rule and could
not fail), and the mean test error over the seeds must be near zero.  ``quick`` is scaled down
(smaller ``d``, ``n``, far fewer GD steps per iteration than the paper's 70000-500000, a larger step on
the mean loss), chosen so that NP reached the paper's stopping rule there in exploration: its checks
are then decided, as in ``full`` at the paper's cap, and a failure at quick is a reduced-scale
failure (INCONCLUSIVE).  Where no affordable scale reaches it (``figure-9-h2``) a quick run stopped at
``max_iter`` neither confirms nor refutes the paper: its checks are undecided (INCONCLUSIVE) and the
measured errors are recorded.  Lemma 12's descent at iteration 1 is checked in every profile; later insertions
(Lemma 13 excludes p = 1) are only counted in the notes: with ReLU some raise the loss even after
the 10 shrinks of the delta rule.

Conventions: ``numeric.models.homogeneous_nets`` (ReLU's derivative at 0 is the Clarke choice
:math:`\min(1,\alpha)`), loss eq. 1 with the 1/2 (summed), so the step is ``lr_mean / n``; float64.
``figure-10``'s rate ``lr_mse`` is on PyTorch's default ``nn.MSELoss`` (the mean over the ``n P`` output
entries, no 1/2), the reading under which App. C.2.1's lr 10 stays below the stability limit 2 / sharpness
(diagnosis in the claim's notes): the step is ``2 lr_mse / (n P)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from numeric.backend import to_numpy
from numeric.training.neuron_pursuit import PursuitConfig, PursuitResult
from numeric.training.vector_pursuit import predict as vector_predict
from numeric.training.vector_pursuit import vector_pursuit
from verify.claim import claim
from verify.context import Context
from verify.papers.kumar2025.experiments import (
    Draw,
    Run,
    Target,
    _f1,
    _fit,
    _hypercube,
    _np_run,
    _outcome,
    _small_n_control,
    _sphere,
    pursue,
)
from verify.papers.kumar2025.hypotheses import LABEL_IS_FUNCTION, MODULAR_LABELS, N_LARGE


def _relu_block(X: np.ndarray, i: int) -> np.ndarray:
    r""":math:`\sigma(\sigma(2x_{4i+1}+x_{4i+2})-\sigma(x_{4i+3}-x_{4i+4}))` (1-based coordinates)."""
    return _f1(X[:, 4 * i : 4 * i + 4])


def _f2(X: np.ndarray) -> np.ndarray:
    r""":math:`f_2=f_1+5\sum_{i=1}^2 i\,\sigma(\sigma(2x_{4i+1}+x_{4i+2})-\sigma(x_{4i+3}-x_{4i+4}))`."""
    return _f1(X) + 5 * (_relu_block(X, 1) + 2 * _relu_block(X, 2))


def _g1(X: np.ndarray) -> np.ndarray:
    return X[:, 0] * X[:, 1] - X[:, 0] * X[:, 1] * X[:, 2] * X[:, 3]


def _g2(X: np.ndarray) -> np.ndarray:
    return X[:, 0] * X[:, 1] * X[:, 2] * X[:, 3]


def _h1(X: np.ndarray) -> np.ndarray:
    return np.maximum(2 * X[:, 0], X[:, 1])


def _h2(X: np.ndarray) -> np.ndarray:
    x1, x2, x3, x4 = X[:, :4].T
    return np.maximum(x1, 2 * x2) + np.maximum(x3, 2 * x4) - np.maximum.reduce([x1 + x3, -x2, -x4])


def _gaussian(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    return rng.normal(size=(n, d))


def _pursue(
    ctx: Context, key: str, f: Target, draw: Draw, n: int, d: int, cfg: PursuitConfig, lr_mean: float
) -> Run:
    """:func:`experiments._np_run` with this module's test-sample count."""
    n_test = ctx.param("n_test", tiny=2000, quick=20_000, full=100_000)
    return _np_run(ctx, key, f, draw, n, d, cfg, lr_mean, n_test)


SEEDS = 4  # data seeds per figure at quick and (unless a figure's cost forbids it) full
PAPER_ITERATIONS = 31  # Sec. 5.2.1: NP's cap on the function-learning targets (Figs. 7-9)


@dataclass(frozen=True)
class FullBudget:
    """What ``full`` runs of a figure whose paper-scale cost does not fit one claim's time on one loaded
    core (about 15 min): ``seeds`` data seeds and at most ``max_iter`` NP iterations (also the small-n
    control's cap), and ``cost``, the measured or estimated cost of the paper's scale that forces it
    (the reduced-scale label).  The defaults are the paper's protocol as run here."""

    seeds: int = SEEDS
    max_iter: int = PAPER_ITERATIONS
    cost: str = ""

    def label(self) -> str:
        """The reduced-scale label of a run below :data:`SEEDS` seeds or the paper's iteration cap."""
        cap = (
            ""
            if self.max_iter >= PAPER_ITERATIONS
            else f", NP capped at {self.max_iter} iterations instead of {PAPER_ITERATIONS}"
        )
        return (
            f"{self.seeds} data seed(s) instead of {SEEDS} (quick) and the paper's 20 averaged runs{cap}: "
            + self.cost
        )


def _seeds(ctx: Context, full: int = SEEDS) -> int:
    """How many data seeds every figure runs, declared before any run (rule 7: the verdict uses all)."""
    return ctx.param("seeds", tiny=1, quick=SEEDS, full=full)


FIT_WHY = (
    "Sec. 5.2.1: NP runs to relative training error < 1e-3 and 31 iterations are 'sufficient ... when "
    "learning with more or less samples' (only near the sample-size transition do many runs miss)"
)


def _checked(ctx: Context, label: str, runs: list[Run], cfg: PursuitConfig, strict: bool, paper: str) -> None:
    """:func:`experiments._outcome` (fit within the cap, mean test error; ``paper``: the paper's NP
    budget), then Lemma 12's descent at iteration 1 in every seed."""
    _outcome(ctx, label, runs, cfg, strict, FIT_WHY, paper=paper)
    firsts = [res.steps[0] for res, *_ in runs if res.steps]
    if not firsts:
        ctx.undecided(
            f"{label}: first-insertion descent", "NP stopped at a degenerate first NCF (no insertion)"
        )
        return
    ctx.holds(
        f"{label}: iteration 1, delta W hat lowers the loss below the origin's (Lemma 12), every seed",
        all(s.descent for s in firsts),
        measured=[s.loss_before - s.loss_inserted for s in firsts],
        expected="> 0",
        why="Lemma 12 needs no smoothness (any p): L(delta W) <= L(0) - delta^D zeta once delta^D < "
        "zeta/|H|^2; the delta rule (0.8 shrinks, up to 4) must reach that threshold",
    )


def _later_insertions(res: PursuitResult) -> str:
    """How many insertions after the first raised the loss (Lemma 13 does not cover p = 1)."""
    later = res.steps[1:]
    raised = sum(not s.descent for s in later)
    return f"{raised} of {len(later)} later insertions raised the loss"


def _summary(label: str, res: PursuitResult, train: float, test: float) -> str:
    widths = res.steps[-1].widths if res.steps else []
    return (
        f"{label}: {len(res.steps)} iterations ({res.reason}), widths {widths}, "
        f"train {train:.3g}, test {test:.3g}, {_later_insertions(res)}"
    )


def _run_targets(
    ctx: Context,
    targets: dict[str, Target],
    draw: Draw,
    cfgs: dict[str, PursuitConfig],
    lrs,
    ns,
    weights: Callable[[int], int],
    budget: FullBudget,
    paper: str,
    strict_quick: bool = True,
):
    """Large-``n`` runs over every declared seed with checks, then the small-``n`` control on the same
    seeds of every target.

    The checks are decided in full at the paper's iteration cap and, when ``strict_quick`` (its
    scaled-down run reaches NP's stopping rule), in quick; otherwise a run stopped at ``max_iter`` is
    undecided (a reduced cap, not NP, may be why).  ``weights(d)``: the count ``k`` of N_LARGE's necessary
    condition ``n >= k`` for the targets' nets.  ``budget``: what full runs where the paper's scale does
    not fit (the ``cfgs`` read their full cap from it); ``paper``: the paper's NP budget (iterations, GD
    steps), named where a run stopped at a reduced cap is undecided."""
    strict = ctx.param(
        "strict_bounds", tiny=False, quick=strict_quick, full=budget.max_iter >= PAPER_ITERATIONS
    )
    seeds = _seeds(ctx, budget.seeds)
    d = ctx.param("d", **ns["d"])
    n_large = ctx.param("n_large", **ns["n_large"])
    n_small = ctx.param("n_small", **ns["n_small"])
    cap = ctx.param("max_iter_small", tiny=3, quick=ns.get("cap_small", 8), full=budget.max_iter)
    ctx.regime(N_LARGE, n=n_large, k=weights(d))
    if (d, n_large) != (ns["d"]["full"], ns["n_large"]["full"]):
        ctx.reduced_scale(
            f"d = {d}, n = {n_large} and a smaller GD budget per iteration instead of the paper's "
            f"d = {ns['d']['full']}, n = {ns['n_large']['full']} (see the notes)"
        )
    elif seeds < SEEDS or max(c.max_iter for c in cfgs.values()) < PAPER_ITERATIONS:
        ran = replace(budget, seeds=seeds, max_iter=min(c.max_iter for c in cfgs.values()))
        ctx.reduced_scale(ran.label())
    notes, small = [], {}
    for name, f in targets.items():
        runs, small[name] = [], []
        for s in range(seeds):
            runs.append(_pursue(ctx, f"{name}-large-{s}", f, draw, n_large, d, cfgs[name], lrs[name]))
            notes.append(_summary(f"{name}, n = {n_large}, seed {s}", *runs[-1]))
            small_cfg = replace(cfgs[name], max_iter=cap)
            small[name].append(_pursue(ctx, f"{name}-small-{s}", f, draw, n_small, d, small_cfg, lrs[name]))
            notes.append(_summary(f"{name}, n = {n_small}, seed {s}", *small[name][-1]))
        _checked(ctx, f"{name}, n = {n_large}", runs, cfgs[name], strict, paper)
    ctx.note(
        f"d = {d}; {seeds} data seeds, declared before the runs; lr on the mean loss {lrs}. "
        + "; ".join(notes)
        + "."
    )
    _small_n_control(ctx, n_small, {f"{name}, ": runs for name, runs in small.items()}, cap)


def _config(ctx: Context, depth: int, alpha: float, **kw) -> PursuitConfig:
    """Algorithm 1 with App. C.1's H = 10, PGA step 0.2; GD steps, PGA iterations, cap per profile."""
    return PursuitConfig(
        depth=depth,
        alpha=alpha,
        p=1,
        restarts=10,
        ncf_iters=ctx.param("ncf_iters", tiny=150, quick=500, full=2500),
        **kw,
    )


# full runs the 4 declared seeds (an independent reading: one seed decided a PASS where quick's 4 seeds
# had 2 stop at the cap); measured: one seed costs ~500 s at full on one CPU core (504 s at 77c1c7a: n = 6400
# stopped at the tolerance after 10 NP iterations of 70000 GD steps, n = 200 after 7), so ~35 min


@claim(
    "kumar2025:figure-7-f2",
    title="NP on f_2 over the sphere (6 + 3 neurons): fits the data, near-zero test error for large n",
    source="Sec. 5.2.1, Fig. 7 (f_2 panel), App. C.1.1",
    statement=r"For $f_2$ on $\sqrt d\,\mathbb S^{d-1}$ (3-layer ReLU), NP reaches relative training error "
    r"$<10^{-3}$ within 31 iterations and near-zero test error for large $n$",
    hypotheses=[N_LARGE, "Algorithm 1, H = 10"],
)
def figure_7_f2(ctx: Context) -> None:
    cfg = _config(
        ctx,
        3,
        0.0,
        gd_steps=ctx.param("gd_steps", tiny=300, quick=8000, full=70_000),
        max_iter=ctx.param("max_iter", tiny=3, quick=31, full=31),
    )
    lr = ctx.param("lr_mean", tiny=0.01, quick=0.012, full=0.002)  # paper {0.002, 0.001}
    ctx.note(
        "quick is Fig. 7 (f2) scaled down: d = 12 (the least d: f2 reads x_1..x_12) instead of 50, n = 800 "
        "instead of up to 6400, 8000 GD steps at lr 0.012 on the mean loss per iteration (GD time 96; paper "
        "70000 x 0.002 = 140); the paper's cap of 31 iterations and stopping rule are kept. Exploration "
        "outside this claim (d = 12, lr 0.012): n = 300 with 4000 steps reached the tolerance for 1 of 4 "
        "data seeds (others 0.0036-0.048 after 25 iterations) and with 10000 steps fitted to 0.0016 with "
        "test error 0.04 (too few samples); n = 600 with 8000 steps reached it for 4 of 4 seeds in 11-23 "
        "iterations, test error 1.1e-3 to 8.3e-3; lr 0.02 stalls at 0.06-0.11."
    )
    _run_targets(
        ctx,
        {"f2": _f2},
        _sphere,
        {"f2": cfg},
        {"f2": lr},
        {
            "d": {"tiny": 12, "quick": 12, "full": 50},
            "n_large": {"tiny": 60, "quick": 800, "full": 6400},
            "n_small": {"tiny": 20, "quick": 30, "full": 200},
            "cap_small": 5,
        },
        weights=lambda d: 6 * d + 12,  # f_2: widths 6, 3: 6d + 18 + 3 weights, 9 rescalings
        budget=FullBudget(),
        paper="31 iterations of 70000 GD steps, App. C.1.1",
    )


# measured on this loaded machine (scratch script, one thread, KUMAR21): a GD step at d = 50 costs 0.52 /
# 1.45 ms of CPU at n = 6400 with 1 + 1 / 8 + 8 neurons and 0.07-0.10 ms at n = 200; NCF ascent 13 s (first,
# 2500 iterations x 10 restarts) and 5 s (later) at n = 6400
F8_BUDGET = FullBudget(
    seeds=1,
    max_iter=4,
    cost="the paper's scale is estimated from the measured cost of its parts on one core (d = 50): a GD "
    "step costs 0.52 / 1.45 ms of CPU at n = 6400 with 1 + 1 / 8 + 8 neurons, so one NP iteration of "
    "70000 steps costs 36-100 s plus 5-13 s of NCF ascent; one seed of one target stopping after ~10 "
    "iterations (f2's measured count) costs ~10-15 CPU-min and up to ~50 at the cap of 31, the 4 declared "
    "seeds of g1 and g2 ~1.5-6.5 CPU-h. full runs 1 seed of each target, 4 iterations at n = 6400 and at "
    "n = 200: estimated 2 x (4 x 60 s + 30 s) ~ 9 CPU-min; measured: 482 CPU-s (10.6 min wall at load ~5 "
    "on the 2 cores), g1 at n = 6400 reached the tolerance in 4 iterations, g2 ended at 0.994",
)


@claim(
    "kumar2025:figure-8",
    title="NP on the parities g_1, g_2 over the hypercube: fits the data, near-zero test error for large n",
    source="Sec. 5.2.1, Fig. 8, App. C.1.2",
    statement=r"For $g_1=x_1x_2-x_1x_2x_3x_4$ and $g_2=x_1x_2x_3x_4$ on $\{\pm1\}^d$ (3-layer "
    r"$\max(x,0.5x)$), NP reaches relative training error $<10^{-3}$ and near-zero test error for large $n$",
    hypotheses=[N_LARGE, "leaky ReLU (footnote 1: with ReLU the NCF of g_1 degenerates)"],
)
def figure_8(ctx: Context) -> None:
    gd = ctx.param("gd_steps", tiny=300, quick=7500, full=70_000)
    cap = ctx.param("max_iter", tiny=3, quick=31, full=F8_BUDGET.max_iter)
    cfg = _config(ctx, 3, 0.5, gd_steps=gd, max_iter=cap)
    lrs = {
        "g1": ctx.param("lr_g1", tiny=0.02, quick=0.02, full=0.005),  # paper {0.005, 0.002}
        "g2": ctx.param("lr_g2", tiny=0.01, quick=0.02, full=0.002),  # paper {0.002, 0.001}
    }
    ctx.note(
        "quick is Fig. 8 scaled down: d = 10 instead of 50 (1024 inputs, n = 300 draws see about 25% of "
        "them), n = 300 instead of up to 6400, 7500 GD steps at lr 0.02 on the mean loss per iteration "
        "(GD time 150, the paper's g2 budget 70000 x 0.002 = 140) instead of 70000 steps; the paper's cap "
        "of 31 iterations and stopping rule are kept. Exploration outside this claim (d = 10, n = 300, "
        "these settings, 4 data seeds): g2 stopped at the tolerance after 7-19 iterations, test error "
        "2e-4 to 1.3e-3. Larger steps (lr 0.05, 0.1 at d = 12) make the loss jump between iterations "
        "(edge of stability) and NP does not reach the tolerance. Why a capped run says nothing on g2 "
        "(exploration outside this claim, quick's settings, 4 other data seeds): g2's training error stays "
        "at 0.92-0.98 through iteration 3 and is 0.64-0.82 after iteration 4 (NP still escaping the "
        "saddle), it drops in iterations 5-8 and NP stopped at the tolerance after 8-14 "
        "iterations; full's cap of 4 (F8_BUDGET) ends g2 at n = 6400, d = 50 inside that first phase."
    )
    _run_targets(
        ctx,
        {"g1": _g1, "g2": _g2},
        _hypercube,
        {"g1": cfg, "g2": cfg},
        lrs,
        {
            "d": {"tiny": 6, "quick": 10, "full": 50},
            "n_large": {"tiny": 60, "quick": 300, "full": 6400},
            "n_small": {"tiny": 20, "quick": 40, "full": 200},
            "cap_small": 6,
        },
        weights=lambda d: 2 * d,  # first layer >= 2 neurons (g_1, g_2 even, taking both signs: see N_LARGE)
        budget=F8_BUDGET,
        paper="31 iterations of 70000 GD steps, App. C.1.2",
    )


# measured on this loaded machine (scratch script, one thread, KUMAR21): a 4-layer GD step at d = 50 costs
# 0.58 / 1.42 / 2.44 ms of CPU at n = 6400 with 1 / 6 / 12 neurons per layer and ~0.1 ms at n = 200; NCF
# ascent 10 s (first) and 6 s (later) at n = 6400
MAX_BUDGET = FullBudget(
    seeds=1,
    max_iter=3,
    cost="the paper's scale is estimated from the measured cost of its parts on one core (d = 50, 4 "
    "layers): a GD step costs 0.58 / 1.42 / 2.44 ms of CPU at n = 6400 with 1 / 6 / 12 neurons per layer, "
    "so one NP iteration costs 1-4 CPU-min (100000 steps) and 3-12 CPU-min once the mean loss is below "
    "0.05 (300000 steps), plus 6-10 s of NCF ascent; one seed of up to 31 iterations costs ~1.5-6 CPU-h, "
    "the 4 declared seeds ~6-24 CPU-h. full runs 1 seed, 3 iterations at n = 6400 and at n = 200: "
    "estimated 5-8 CPU-min (up to ~15 if two iterations run the late 300000 steps); measured for h1: "
    "310 CPU-s (7.7 min wall at load ~5 on the 2 cores), no late steps, training error 0.154 after 3",
)


MAX_PAPER = "31 iterations of 100000 GD steps, 300000 once the mean loss is below 0.05, App. C.1.3"


def _max_config(ctx: Context, gd: int, late: int, cap: int) -> PursuitConfig:
    """App. C.1.3: 4-layer max(x, 0.5x), first delta 0.5; ``gd`` GD steps per iteration, ``late`` once the
    mean loss is below 0.05 (paper 100000 and 300000), at most ``cap`` iterations (full:
    :data:`MAX_BUDGET`'s)."""
    return _config(
        ctx,
        4,
        0.5,
        delta_first=0.5,
        gd_steps=ctx.param("gd_steps", tiny=300, quick=gd, full=100_000),
        gd_steps_late=ctx.param("gd_steps_late", tiny=0, quick=late, full=300_000),
        max_iter=ctx.param("max_iter", tiny=3, quick=cap, full=MAX_BUDGET.max_iter),
    )


@claim(
    "kumar2025:figure-9",
    title="NP on the max-function h_1 = max(2x_1, x_2) (Gaussian inputs, 4 layers): fits, small test error",
    source="Sec. 5.2.1, Fig. 9 (h_1 panel), App. C.1.3",
    statement=r"For $h_1=\max(2x_1,x_2)$ on $\mathcal N(0,I_d)$ (4-layer $\max(x,0.5x)$), NP reaches "
    r"relative training error $<10^{-3}$ within 31 iterations and small test error for large $n$",
    hypotheses=[N_LARGE, "Algorithm 1 with first delta = 0.5 (App. C.1.3)"],
)
def figure_9(ctx: Context) -> None:
    cfg = _max_config(ctx, 2500, 10_000, 31)
    lr = ctx.param("lr_mean", tiny=0.05, quick=0.05, full=0.005)  # paper {0.005, 0.002}
    ctx.note(
        "quick is Fig. 9 (h1) scaled down: d = 4 instead of 50, n = 300 instead of up to 6400, lr 0.05 on "
        "the mean loss with 2500 GD steps per iteration and 10000 once the mean loss is below 0.05 (GD time "
        "125 and 500; paper 100000 and 300000 steps at 0.005, GD time 500 and 1500); the paper's cap of 31 "
        "iterations and stopping rule are kept. NP's late progress on h1 is GD convergence: the error "
        "shrinks by ~5-15% per iteration once below 0.01. Exploration outside this claim (d = 4): with these "
        "settings n = 300 stopped at the tolerance for 6 of 6 data seeds after 9-24 iterations (test error "
        "0.9e-3 to 1.6e-3); n = 150 did for 3 data seeds (17-22 iterations) but this claim at seed 4 ended "
        "31 iterations at 2.1e-3 with test error 0.013 (30 first-layer neurons); n = 150 with a fixed 5000 "
        "steps: 2 of 4 seeds ended at 31 iterations (1.2e-3, 8e-3); lr 0.1 and 0.2 (5000 steps) ended 20 "
        "iterations at 1.2e-3 to 8e-3, the loss jumping up between iterations (edge of stability)."
    )
    _run_targets(
        ctx,
        {"h1": _h1},
        _gaussian,
        {"h1": cfg},
        {"h1": lr},
        {
            "d": {"tiny": 6, "quick": 4, "full": 50},
            "n_large": {"tiny": 60, "quick": 300, "full": 6400},
            "n_small": {"tiny": 20, "quick": 20, "full": 200},
            "cap_small": 4,
        },
        weights=lambda d: 2 * d,  # first layer >= 2 neurons: h_1's gradients (2, 0), (0, 1) span 2 dimensions
        budget=MAX_BUDGET,
        paper=MAX_PAPER,
    )


@claim(
    "kumar2025:figure-9-h2",
    title="NP on the max-function h_2 (Gaussian inputs, 4 layers): fits the data, small test error",
    source="Sec. 5.2.1, Fig. 9 (h_2 panel), App. C.1.3",
    statement=r"For $h_2=\max(x_1,2x_2)+\max(x_3,2x_4)-\max(x_1+x_3,-x_2,-x_4)$ on $\mathcal N(0,I_d)$ "
    r"(4-layer $\max(x,0.5x)$), NP reaches relative training error $<10^{-3}$ and small test error for "
    r"large $n$ (the paper: often not within 31 iterations at n = 1600 and 3200)",
    hypotheses=[N_LARGE, "Algorithm 1 with first delta = 0.5 (App. C.1.3)"],
)
def figure_9_h2(ctx: Context) -> None:
    cfg = _max_config(ctx, 2500, 0, 6)
    lr = ctx.param("lr_mean", tiny=0.05, quick=0.05, full=0.005)  # paper {0.005, 0.002}
    ctx.note(
        "Not decidable in quick: h2 needs the paper's budget. Exploration outside this claim (d = 4, "
        "lr 0.05 on the mean loss): n = 150 with 5000 GD steps per iteration ended 20 iterations at "
        "training error 0.076 and 0.056 (two seeds; still adding layer-3 neurons); n = 300 with 5000 "
        "steps, 20000 once the mean loss is below 0.05, ended 31 iterations at training error 0.018 (test "
        "0.029). The paper "
        "itself reports that NP often fails to fit h2 within 31 iterations of 100000-300000 steps at n = "
        "1600 and 3200. quick therefore runs a short capped NP (d = 4, n = 150, 6 iterations of 2500 "
        "steps) only to record the errors, and the small-n control; full (paper budget) is strict."
    )
    _run_targets(
        ctx,
        {"h2": _h2},
        _gaussian,
        {"h2": cfg},
        {"h2": lr},
        {
            "d": {"tiny": 6, "quick": 4, "full": 50},
            "n_large": {"tiny": 60, "quick": 150, "full": 6400},
            "n_small": {"tiny": 20, "quick": 20, "full": 200},
            "cap_small": 4,
        },
        weights=lambda d: 4 * d,  # first layer >= 4 neurons: h_2's gradients span x_1..x_4
        strict_quick=False,
        budget=MAX_BUDGET,
        paper=MAX_PAPER,
    )


# ---------------------------------------------------------------- PVR (Sec. 5.2.2, App. C.2.2)


def _pvr_bits(m: int) -> int:
    return int(np.ceil(np.log2(m - 1)))


def _pvr_inputs(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    r"""Rows :math:`[\mathbf p,1,x]`: pointer :math:`p` uniform on :math:`\{1..m-1\}` coded in
    :math:`\lceil\log_2(m-1)\rceil` bits :math:`\pm1` (:math:`p=1\mapsto(-1,..,-1)`,
    :math:`p=2\mapsto(-1,..,-1,1)`),
    :math:`x` uniform on :math:`\{\pm1\}^m` (paper: m = 16, 4 bits, input dimension 21)."""
    b = _pvr_bits(m)
    p = rng.integers(1, m, size=n)
    code = 2.0 * (((p[:, None] - 1) >> np.arange(b - 1, -1, -1)) & 1) - 1.0
    return np.hstack([code, np.ones((n, 1)), _hypercube(rng, n, m)])


def _pvr_target(m: int) -> Target:
    r""":math:`f(\mathbf p,x)=x_px_{p+1}` read off the rows of :func:`_pvr_inputs`."""
    b = _pvr_bits(m)

    def f(X: np.ndarray) -> np.ndarray:
        p = 1 + ((X[:, :b] > 0) @ (1 << np.arange(b - 1, -1, -1)))
        x = X[:, b + 1 :]
        rows = np.arange(len(X))
        return x[rows, p - 1] * x[rows, p]

    return f


def _conditional_mean_floor(keys: np.ndarray, y: np.ndarray) -> float:
    r""":math:`\|y-\mathbb E[y\,|\,\text{key}]\|/\|y\|` over the sample: the least relative training error of
    any function of the key (samples with the same key must get the same output)."""
    _, inverse = np.unique(keys, axis=0, return_inverse=True)
    means = np.bincount(inverse, weights=y) / np.bincount(inverse)
    return float(np.linalg.norm(y - means[inverse]) / np.linalg.norm(y))


# App. C.2.2: m, n, GD steps per iteration, NP's iteration cap
PAPER_PVR = (16, 100_000, 500_000, 42)
# measured on this loaded machine (scratch script, one thread, KUMAR21) at m = 16 (d = 21), n = 100000: a GD
# step costs 4.5 / 55 / 92 ms of CPU with 1 + 1 / 17 + 5 / 34 + 9 neurons; the first NCF ascent (6000 PGA
# iterations x 10 restarts) 460 s, a later one 179 s at 6000 iterations
PVR_COST = (
    "the paper's scale is estimated from the measured cost of its parts on one core (m = 16, n = 100000): a "
    "GD step costs 4.5 / 55 / 92 ms of CPU with 1 + 1 / 17 + 5 / 34 + 9 neurons, so one NP iteration of "
    "500000 steps costs 0.6-13 CPU-h, one seed of 42 iterations (to the paper's 34 + 9 neurons) over 100 "
    "CPU-h; the first NCF ascent alone (6000 PGA iterations x 10 restarts) costs 460 s and a later one "
    "~330 s (6000 + 5000 iterations). full keeps m = 16 and runs 1 seed at n = 10000, 20000 steps per "
    "iteration from the paper's lr, at most 6 iterations, the control at most 3: estimated 5-9 CPU-min "
    "(the n = 100000 costs scaled by n / 10: GD 0.5-2 ms per step at up to 6 neurons, NCF 46 s first, "
    "~30 s later; up to 4 halvings repeat 2000 steps each); measured: 208 CPU-s (3.8 min wall at load ~5 on "
    "the 2 cores), training error 0.989 after 6 iterations (widths 5 + 2): far from the paper's GD time"
)


@claim(
    "kumar2025:figure-11",
    title="NP with rebalancing learns pointer-value retrieval to relative training error < 0.005",
    source="Sec. 5.2.2, Fig. 11, App. C.2.2",
    statement=r"For $f(\mathbf p,x)=x_px_{p+1}$ with input $[\mathbf p,1,x]$ (3-layer ReLU, neurons "
    r"rebalanced after every iteration, Saul 2023), NP reaches relative training error $<0.005$ within 42 "
    r"iterations (paper, m = 16: 34 + 9 neurons) with small test error",
    hypotheses=[
        LABEL_IS_FUNCTION,
        "Algorithm 1 with rebalancing, first delta = 0.5",
    ],
)
def figure_11(ctx: Context) -> None:
    m = ctx.param("m", tiny=3, quick=4, full=16)
    n = ctx.param("n", tiny=100, quick=400, full=10_000)
    gd = ctx.param("gd_steps", tiny=300, quick=10_000, full=20_000)
    cap_np = ctx.param("max_iter", tiny=3, quick=25, full=6)
    # quick reaches the tolerance; full decides at the paper's cap (below it a run at the cap is undecided)
    strict = ctx.param("strict_bounds", tiny=False, quick=True, full=cap_np >= PAPER_PVR[3])
    seeds = _seeds(ctx, 1)
    if (m, n, gd, cap_np) != PAPER_PVR or seeds < SEEDS:
        ctx.reduced_scale(
            f"m = {m}, n = {n}, {gd} GD steps per iteration, at most {cap_np} iterations, {seeds} data "
            f"seed(s) instead of the paper's m = 16, n = 100000, 500000 steps, 42 iterations and {SEEDS} "
            f"seeds (quick); {PVR_COST}"
        )
    cfg = PursuitConfig(
        depth=3,
        alpha=0.0,
        p=1,
        restarts=10,
        ncf_step=0.25,  # App. C.2.2: PGA step 0.25 for 6000 iterations first, then 0.5 for 5000
        ncf_iters=ctx.param("ncf_iters", tiny=300, quick=1000, full=6000),
        ncf_step_later=ctx.param("ncf_step_later", tiny=0.0, quick=0.0, full=0.5),
        ncf_iters_later=ctx.param("ncf_iters_later", tiny=0, quick=0, full=5000),
        delta_first=0.5,
        gd_steps=gd,
        max_iter=cap_np,
        tol=0.005,
        rebalance=True,
        lr_check=gd // 10,  # App. C.2.2: loss checked every 50000 of 500000 steps, lr halved on increase
        lr_halvings=4,
    )
    lr = ctx.param("lr_mean", tiny=0.05, quick=0.4, full=0.005)  # paper: starts at 0.005
    cap = ctx.param("max_iter_control", tiny=2, quick=3, full=3)
    f, n_inputs = _pvr_target(m), (m - 1) * 2**m
    runs = [
        _pursue(ctx, f"pvr-{s}", f, lambda rng, k, d: _pvr_inputs(rng, k, d), n, m, cfg, lr)
        for s in range(seeds)
    ]
    _checked(
        ctx,
        f"m = {m}, n = {n}",
        runs,
        cfg,
        strict,
        f"{PAPER_PVR[3]} iterations of {PAPER_PVR[2]} GD steps at n = {PAPER_PVR[1]}, App. C.2.2",
    )
    ctx.note(
        "; ".join(_summary(f"m = {m}, n = {n}, seed {s}", *run) for s, run in enumerate(runs))
        + f" ({seeds} data seeds, declared before the runs). GD: {gd} steps per iteration from lr {lr} on "
        "the mean loss, halved (weights reset) when "
        f"the loss rose over {cfg.lr_check} steps, at most {cfg.lr_halvings} times (App. C.2.2: 500000 "
        "steps from 0.005, checked every 50000). quick is the paper's experiment scaled down: m = 4 "
        "(pointers 1..3 in 2 bits, input dimension 7) instead of 16, n = 400 instead of 100000, 10000 GD "
        "steps from lr 0.4 instead of 500000 from 0.005, at most 25 iterations instead of 42, PGA 1000 "
        "iterations at step 0.25 throughout instead of 6000 at 0.25, then 5000 at 0.5. There are "
        f"{n_inputs} distinct inputs and {n} draws leave about {n_inputs * (1 - 1 / n_inputs) ** n:.3g} "
        "of them unseen: with m = 4 the test error repeats the training error, generalization to unseen "
        "inputs is tested only at m = 16 (full). The paper's final widths 34 + 9 are not checked."
    )
    with ctx.control(
        "pointer code removed from the input",
        breaks=LABEL_IS_FUNCTION,
        must_break=["m = *: NP reaches the training tolerance within*"],
    ):
        X = _pvr_inputs(ctx.rng("pvr-control").host, n, m)
        y = f(X)
        Xc = X[:, _pvr_bits(m) :]
        floor = _conditional_mean_floor(Xc, y)
        res_c = pursue(ctx, Xc, y, replace(cfg, lr=lr / n, max_iter=cap), ctx.rng("pvr-control-np").host)
        train_c = res_c.steps[-1].rel_error if res_c.steps else 1.0
        _fit(
            ctx,
            f"m = {m}, n = {n}, pointer code removed",
            [(res_c, train_c, float("nan"))],
            replace(cfg, max_iter=cap),
            f"as above (one seed); no function of [1, x] gets below the conditional-mean floor {floor:.3g} "
            f"> {cfg.tol} (samples with equal x and different pointers disagree), so NP cannot reach the "
            f"tolerance in any number of iterations, not only within the {cap} it is capped at here",
        )


# ---------------------------------------------------------------- modular addition (Sec. 5.2.2, App. C.2.1)


# App. C.2.1: modulus, training pairs, GD steps per iteration, lr on the MSE, no halving
PAPER_MODULAR = (59, 1500, 100_000, 10.0, 0)
MODULAR_COST = (
    "the paper's schedule measured on one core of this machine (NumPy, float64): a GD step costs 0.44 / "
    "0.67 / 2.3 / 3.1 ms of CPU at 1 / 10 / 35 / 60 hidden neurons (P = 59, 1500 pairs), so 100000 steps "
    "take 44 s to 5 min per iteration, the paper's 35 iterations about 75 CPU-min (NCF ascent: 3 s per "
    "iteration) and the random-label control at 60 iterations about 3 CPU-hours more, far above the 20 min a "
    "claim gets at full here; full's reduced schedule (seed 0: 38 iterations, control 10) took 650 CPU-s "
    "(28 min wall on the shared 2-core machine at load 9-12), so App. C.2.1's 3 seeds would take ~30 CPU-min "
    "(estimated: 3 x the measured seed): full runs seed 0 only"
)

MODULAR_LR = (
    "Loss normalisation. App. C.2.1 gives 'square loss' and lr 10 (100000 steps per iteration); eq. 1 is "
    "1/2 sum_i |H(x_i) - y_i|^2 and the experiments are PyTorch (App. C). lr 10 is read on PyTorch's "
    "default nn.MSELoss, the mean of (H - y)^2 over the n P output entries = 2 / (nP) times eq. 1's loss: a "
    "step of 2.26e-4 on eq. 1 at P = 59, n = 1500. Diagnosis at that size, outside this claim (seed 0; "
    "sharpness = the largest Hessian eigenvalue of eq. 1's loss, power iteration on central-difference "
    "Hessian-vector products): read on the per-sample mean of eq. 1 (the step 10 / n = 6.7e-3 this claim "
    "used before, P / 2 = 29.5x the MSE step), the sharpness after NP iteration 1 / 2 is 150 / 247 with "
    "100000 steps (step x sharpness 1.00 / 1.64; 69 / 173 / 274 after iterations 1-3 with 2000 steps), it "
    "passes 2 / step = 300 in iteration 3's descent and gradient descent diverges there (the ERROR this "
    "claim ended in); eq. 1 read literally (step 10) is 750x past the limit in iteration 1 (10 x 150 / 2). "
    "Read on the MSE, with 10000 steps per iteration: sharpness 491 / 916 / 1622 / 1238 / 5532 after "
    "iterations 1 / 3 / 5 / 8 / 10 (step x sharpness 0.11-1.25), then 8830-9070 = 2 / step from iteration "
    "11 on: gradient descent runs at the edge of stability (step x sharpness 2.00-2.05) without diverging "
    "through iteration 21, where the training classification error is 0.21 (test 0.43-0.50). The paper's "
    "lr 10 is thus usable only on a mean over the nP entries (or a smaller normalisation), and there it "
    "reaches the stability limit from iteration 11 on."
)


def _modular_data(P: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""All :math:`P^2` pairs: inputs :math:`[\mathbf 1_a,\mathbf 1_b,1]\in\mathbb R^{2P+1}`, one-hot targets
    :math:`\mathbf 1_c` and classes :math:`c=(a+b)\bmod P`."""
    a, b = np.divmod(np.arange(P * P), P)
    c = (a + b) % P
    eye = np.eye(P)
    return np.hstack([eye[a], eye[b], np.ones((P * P, 1))]), eye[c], c


def _class_error(res: PursuitResult, X: np.ndarray, c: np.ndarray, cfg: PursuitConfig) -> float:
    """Fraction of rows whose largest output coordinate is not the class ``c``."""
    W1, W2 = res.weights
    return float(np.mean(np.argmax(vector_predict(W1, W2, X, cfg), axis=1) != c))


def _fourier_concentration(W1: np.ndarray, W2: np.ndarray, P: int) -> np.ndarray:
    r"""Per hidden neuron and part (weights on :math:`\mathbf 1_a`, on :math:`\mathbf 1_b`, outgoing
    column): the share of the non-constant DFT energy in the strongest frequency pair :math:`\pm k`
    (1 for a pure sinusoid :math:`\cos(2\pi ka/P+\phi)`, about :math:`2/(P-1)` for white noise)."""
    parts = np.concatenate([W1[:, :P], W1[:, P : 2 * P], W2.T])
    F = np.abs(np.fft.fft(parts, axis=1)) ** 2
    F[:, 0] = 0.0
    k = np.argmax(F, axis=1)
    rows = np.arange(len(F))
    return (F[rows, k] + F[rows, (P - k) % P]) / F.sum(axis=1)


def _modular_run(ctx: Context, key: str, P: int, n_train: int, cfg: PursuitConfig, labels: np.ndarray):
    """NP until zero training classification error, on ``ctx.backend``: (result with host weights, train
    error, test error)."""
    rng = ctx.rng(key).host
    X, _, _ = _modular_data(P)
    perm = rng.permutation(P * P)
    tr, te = perm[:n_train], perm[n_train:]
    Y = np.eye(P)[labels]
    X_tr = ctx.backend.asarray(X[tr])

    def fitted(W1, W2) -> bool:
        return bool(np.all(np.argmax(to_numpy(vector_predict(W1, W2, X_tr, cfg)), axis=1) == labels[tr]))

    res = vector_pursuit(X_tr, ctx.backend.asarray(Y[tr]), cfg, rng, stop=fitted)
    res.weights = [to_numpy(W) for W in res.weights]
    return res, _class_error(res, X[tr], labels[tr], cfg), _class_error(res, X[te], labels[te], cfg)


@claim(
    "kumar2025:figure-10",
    title="NP on modular addition (two-layer x^2 net, vector outputs): zero training error, small test error",
    source="Sec. 5.2.2, Fig. 10, App. C.2.1, Remark 3",
    statement=r"For $(a,b)\mapsto(a+b)\bmod P$ with one-hot inputs $[\mathbf 1_a,\mathbf 1_b,1]$ and targets "
    r"$\mathbf 1_c$, square loss, $\sigma=x^2$ and 1500 of the $59^2$ pairs for training, NP reaches zero "
    r"training classification error (in 35 iterations) with small test classification error",
    hypotheses=[
        MODULAR_LABELS,
        "Algorithm 1 for vector outputs (Remark 3), PGA step 2, later delta = 0.05 |w|",
    ],
)
def figure_10(ctx: Context) -> None:
    P = ctx.param("modulus", tiny=7, quick=23, full=59)
    n_train = ctx.param("n_train", tiny=25, quick=400, full=1500)  # paper: 1500/3481 = 43%
    fit_strict = ctx.param("strict_bounds", tiny=False, quick=True, full=True)
    strict = ctx.param("paper_budget", tiny=False, quick=False, full=True)
    gd = ctx.param("gd_steps", tiny=200, quick=5000, full=10_000)
    lr_mse = ctx.param("lr_mse", tiny=1.75, quick=57.5, full=10.0)  # App. C.2.1: 10 on the MSE
    lr_check = ctx.param("lr_check", tiny=0, quick=gd // 10, full=0)
    cap = ctx.param("max_iter_control", tiny=3, quick=4, full=10)
    # App. C.2.1 repeats the experiment 3 times; full runs 1 (MODULAR_COST)
    seeds = ctx.param("seeds", tiny=1, quick=3, full=1)
    if (P, n_train, gd, lr_mse, lr_check) != PAPER_MODULAR or seeds < 3:
        ctx.reduced_scale(
            f"P = {P}, {n_train} training pairs, {gd} GD steps per iteration at lr {lr_mse:g} on the MSE"
            f"{' with halving' if lr_check else ''}, {seeds} seed(s) instead of the paper's P = 59, 1500 "
            f"pairs, 100000 steps at lr 10, 3 runs (App. C.2.1), random-label control capped at {cap} "
            f"iterations; {MODULAR_COST}"
        )
    cfg = PursuitConfig(
        depth=2,
        alpha=1.0,
        p=2,
        restarts=10,
        ncf_step=2.0,
        ncf_iters=ctx.param("ncf_iters", tiny=100, quick=300, full=5000),
        delta_rel=0.05,
        gd_steps=gd,
        max_iter=ctx.param("max_iter", tiny=5, quick=60, full=40),
        lr=lr_mse * 2 / (n_train * P),  # the MSE is (2 / nP) times eq. 1's loss
        tol=1e-12,  # the stopping rule is zero training classification error
        # not in App. C.2.1 (fixed lr): quick borrows App. C.2.2's halving, a fixed step diverged there
        lr_check=lr_check,
    )
    _, _, c = _modular_data(P)
    runs = [_modular_run(ctx, f"modular-{s}", P, n_train, cfg, c) for s in range(seeds)]
    trains, tests = [tr for _, tr, _ in runs], [t for *_, t in runs]
    chance = 1 - 1 / P
    label = f"P = {P}, {n_train} training pairs"
    diverged = [s for s, (res, *_) in enumerate(runs) if res.reason == "diverged"]
    blowup = (
        f"gradient descent diverged in NP (seeds {diverged}) at lr {lr_mse:g} on the MSE (the step is past "
        "2 / the loss's sharpness there): a diverged run says nothing about NP"
    )
    fit = f"{label}: NP reaches zero training classification error within {cfg.max_iter} iterations"
    if diverged:
        ctx.undecided(fit, blowup, measured=trains)
    elif all(res.converged for res, *_ in runs) or fit_strict:
        ctx.holds(
            f"{fit} ({seeds} of {seeds} seeds)",
            all(res.converged for res, *_ in runs),
            measured=[
                {"iterations": len(r.steps), "reason": r.reason, "train error": tr} for r, tr, _ in runs
            ],
            expected="NP stops at zero training classification error (App. C.2.1; the paper: 35 iterations)",
            why="zero training error is NP's stopping rule (App. C.2.1), so it alone cannot fail once NP "
            f"stopped there; what can fail is NP reaching the cap of {cfg.max_iter} iterations first",
            resolution="one seed that needs more iterations than the cap",
        )
        ctx.bound(
            f"{label}: test classification error, necessary part (far below chance {chance:.3f}), every seed",
            tests,
            0.5,
            why="'small test error' implies at most half the held-out pairs wrong; chance is 1 - 1/P; the "
            "paper shows all three of its runs (Figs. 10, 12) with small test error",
        )
    else:
        ctx.undecided(fit, "stopped at max_iter", measured=trains)
    if strict and not diverged:
        ctx.bound(
            f"{label}: test classification error, every seed",
            tests,
            0.05,
            why="'small test error' read as < 5%",
        )
    else:
        ctx.undecided(
            f"{label}: test classification error small (< 5%), every seed",
            blowup
            if diverged
            else f"P = {P} instead of 59: at this scale the held-out error lands on both sides of 5% over "
            "seeds and GD budgets (exploration in the notes), so the scaled-down run cannot decide the "
            "paper's P = 59 claim (full)",
            measured=tests,
        )
    concs = [_fourier_concentration(*res.weights, P) for res, *_ in runs]
    least = [float(conc.min()) for conc in concs]
    name = f"{label}: least DFT concentration over neurons (Fig. 10b: one frequency each), every seed"
    why = "'concentrates around a certain frequency' read as >= half the non-constant energy in one pair +-k"
    if strict and not diverged:
        ctx.bound(name, least, 0.5, side=">=", why=why)
    else:
        ctx.undecided(
            name,
            blowup
            if diverged
            else f"P = {P} instead of 59: the least concentration lands on both sides of 0.5 over seeds "
            "and GD budgets (exploration in the notes; the median is near 1): the scaled-down run cannot "
            "decide it",
            measured=least,
        )
    halving = f", halved on a loss increase over {cfg.lr_check} steps (App. C.2.2)" if cfg.lr_check else ""
    ctx.note(
        "; ".join(
            f"{label}, seed {s}: {len(res.steps)} iterations ({res.reason}), "
            f"{res.steps[-1].widths[0] if res.steps else 0} hidden neurons, train / test classification "
            f"error {tr:.3g} / {t:.3g} (chance {chance:.3f}), DFT concentration min / median "
            f"{conc.min():.2f} / {np.median(conc):.2f}, {_later_insertions(res)}"
            for s, ((res, tr, t), conc) in enumerate(zip(runs, concs, strict=True))
        )
        + f" ({seeds} seeds, declared before the runs). GD: {gd} steps per iteration at lr {lr_mse:g} on the "
        f"MSE (= {cfg.lr * n_train:g} on the per-sample mean of eq. 1's loss){halving}. quick is the paper's "
        "experiment scaled down: P = 23 instead of 59, 400 of the 529 pairs (76%) instead of 1500 of 3481 "
        "(43%), 5000 GD steps from lr 57.5 on the MSE (5 on the per-sample mean) with halving instead of "
        "100000 at lr 10. Exploration outside this claim, lr on the per-sample mean of eq. 1's loss "
        "(P = 23, seeds 0/1/2 of a separate stream): with 43-50% of the pairs (228-264) NP fits the "
        "training pairs but the test error is 0.15-0.31 (1000-20000 steps), so a smaller modulus needs a "
        "larger fraction; with 400 pairs, 10000 steps from lr 5 with halving: test errors 0 / 0.039 / "
        "0.047, least DFT concentration 0.42 / 0.32 / 0.51 (medians 0.96-0.99); fixed lr 2.5: test 0.054 / "
        "0.039 (20000 steps: 0.054), least concentration 0.43 / 0.70 (20000 steps: 0.61), seed 2 diverged; "
        "5000 steps from lr 5 with halving (seed 0): test error 0, least concentration 0.51. "
        "This claim's one-seed quick runs at --seed 0 / 1 / 2 (before it ran 3 seeds): test error 0.047 / 0 "
        "/ 0.031, least concentration 0.39 / 0.50 / 0.35. The two scale-dependent checks sit at their "
        "thresholds (the concentration mostly below, it reached 0.61-0.79 with 20000 steps), so they stay "
        "undecided here. numeric.training.vector_pursuit implements NP for two-layer nets only."
    )
    ctx.note(MODULAR_LR)
    with ctx.control(
        "labels from a random table",
        breaks=MODULAR_LABELS,
        must_break=["P = *: test classification error*", "P = *: least DFT concentration over neurons*"],
    ):
        table = ctx.rng("modular-table").host.integers(0, P, size=P * P)
        res_r, _, test_r = _modular_run(ctx, "modular-random", P, n_train, replace(cfg, max_iter=cap), table)
        ctx.bound(
            f"{label}, random labels: test classification error",
            test_r,
            0.5,
            why=f"as above; held-out labels are independent of the training pairs, so any rule errs with "
            f"probability {chance:.3f} on them (NP capped at {cap} iterations here)",
        )
        ctx.bound(
            f"{label}, random labels: least DFT concentration over neurons",
            float(_fourier_concentration(*res_r.weights, P).min()),
            0.5,
            side=">=",
            why="as above",
        )
