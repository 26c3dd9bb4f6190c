r"""zhang2025 App. C.5, C.6 (Fig. 7b-d): the equivalence outside small learning rate and small init.

Claims: App. C.5 (learning rate 0.6: collapse persists; beyond the stability threshold
:math:`2/\lambda_{\max}` it breaks) and App. C.6 (large Gaussian initialisation: relative weight
errors below 3%).  The paired GD runs are in ``paired_runs.py``.
"""

from __future__ import annotations

import numpy as np

from numeric.backend import Array, Backend, Rng, to_numpy
from numeric.data.datasets import Dataset, gaussian_teacher
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow
from verify.claim import claim
from verify.context import Context, Series
from verify.hypotheses import Hypothesis
from verify.papers.zhang2025.hypotheses import CONDITION_3, SQUARE, STABLE_LR
from verify.papers.zhang2025.paired_runs import (
    PairedRun,
    Pairing,
    Setup,
    check_gd_equivalence,
    gd_pair,
    make_setup,
    max_curvature,
    paired_gd,
    two_layer,
)
from verify.papers.zhang2025.regimes import record_symmetric

# ------------------------------------------------------------ App. C.5, C.6 (Fig. 7b-d)


def sharpness(
    be: Backend,
    flow: GradientFlow,
    ds: Dataset,
    y: np.ndarray,
    rng: np.random.Generator,
    alpha: float = 1.0,
    iters: int = 60,
) -> float:
    r"""Top Hessian eigenvalue :math:`\lambda_{\max}` of the loss at the flat state ``y`` ``(N,)``.

    Power iteration on central-difference Hessian-vector products of the gradient field
    (step ``1e-5 |y|``, relative error ~1e-10 for this smooth, piecewise-polynomial loss).
    GD with learning rate above :math:`2/\lambda_{\max}` cannot settle at this minimum.
    """
    args = flow.args(be, ds.X, ds.y, alpha=alpha)
    v = rng.normal(size=(1, y.size))
    v /= np.linalg.norm(v)
    t = be.asarray(np.zeros(1))
    h = 1e-5 * max(np.linalg.norm(y), 1.0)
    lam = 0.0
    for _ in range(iters):
        plus = to_numpy(flow(t, be.asarray(y[None] + h * v), args))
        minus = to_numpy(flow(t, be.asarray(y[None] - h * v), args))
        hv = -(plus - minus) / (2 * h)
        lam = float((hv * v).sum())
        v = hv / np.linalg.norm(hv)
    return lam


def pytorch_default(net: BiasFreeNet, rng: Rng, B: int) -> list[Array]:
    r"""PyTorch's default ``nn.Linear(bias=False)`` weights: i.i.d. :math:`\mathcal U(\pm1/\sqrt{N_{l-1}})`.

    ``kaiming_uniform_(a=sqrt 5)`` has bound :math:`\sqrt{6/((1+5)\,\text{fan\_in})}=1/\sqrt{\text{fan\_in}}`,
    so :math:`\|W_1\|_F\approx\sqrt{H/3}` (13 at :math:`H=500`) and :math:`\|W_2\|_F\approx1/\sqrt3`.
    """
    return [rng.backend.asarray(rng.host.uniform(-1, 1, size=(B, r, c)) / np.sqrt(c)) for r, c in net.shapes]


def gaussian_pairs(
    ctx: Context,
    key: str,
    size: tuple[int, int, int],
    n_seeds: int,
    w_init: float | None,
    *,
    symmetric: bool = True,
) -> Setup:
    """Fig. 3 data (not whitened, as in the paper) and App. H Gaussian linear initial states of scale
    ``w_init`` (``None``: :func:`pytorch_default`); the data depend on ``key`` and ``size`` only."""
    from numeric.data.initializations import gaussian

    D, H, P = size
    rng = ctx.rng(f"{key}/{D}x{H}x{P}")
    data = []
    for _ in range(n_seeds):
        ds = gaussian_teacher(rng.host, P // 2 if symmetric else P, D, symmetric=symmetric)
        data.append(ds)
    net = two_layer(D, H)
    Ws = pytorch_default(net, rng, n_seeds) if w_init is None else gaussian(net, rng, n_seeds, w_init)
    y0 = to_numpy(net.pack(Ws))
    scale = init_scale(net, y0) if w_init is None else w_init
    sym = "" if symmetric else ", NOT symmetric"
    return Setup(net, GradientFlow(net, Loss("square")), data, y0, scale, f"square, D={D}, H={H}, P={P}{sym}")


def init_scale(net: BiasFreeNet, y0: np.ndarray) -> float:
    r"""The paper's :math:`w_{\rm init}=\max(\|W_1(0)\|,\|W_2(0)\|)` (Lemma 6), least over states ``y0``."""
    return float(np.min(np.max([np.linalg.norm(W, axis=(1, 2)) for W in net.unpack(y0)], axis=0)))


def gd_errors(run: PairedRun) -> tuple[np.ndarray, np.ndarray]:
    r"""Max over steps of the relative weight error (Fig. 3b's) and of the relative loss gap, ``(S, K)``."""
    loss_gap = np.abs(run.loss_relu - run.loss_lin[:, None]) / run.loss_lin[:, None]
    return run.relative_deviation.max(-1), loss_gap.max(-1)


def _fig7_sizes(ctx: Context) -> tuple[tuple[int, int, int], int]:
    D = ctx.param("D", tiny=4, quick=10, full=20)
    H = ctx.param("H", tiny=16, quick=50, full=500)
    P = ctx.param("P", tiny=40, quick=160, full=2000)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=3)
    ctx.require(P >= 2 * D, f"need P >= 2 D, got P={P}, D={D}")
    return (D, H, P), seeds


SMALL_LR = 0.1  # the reference learning rate of the large-lr comparison (Fig. 3 used 0.004)


FIG3_LR = 0.004  # Fig. 3's learning rate, the paper's reference for "small differences"


# Learning rates of the O(lr) fit (they include SMALL_LR): lr lambda_max <= 0.3 x 2.05 = 0.62 at quick and
# 0.3 x 2.58 = 0.77 at full (lambda_max of the linear net at its solution, measured), below 1, where the GD
# map of every mode is a small-step perturbation of the flow's.
C5_LADDER = (0.05, SMALL_LR, 0.2, 0.3)


# The reading of App. C.5's "the differences between weight matrices are small" (qualitative in the paper):
# the large learning rate at most doubles the weight error of the small-lr run (_relative_to_baseline).
C5_READING = 2.0


C5_ALPHAS = (0.0, 0.5)


def lr_term(errors: dict[float, np.ndarray], lr: float) -> dict:
    r"""The measured :math:`O(\eta)` change of the weight error between the paper's two learning rates.

    GD with step :math:`\eta` follows the modified flow
    :math:`\dot W=-\nabla\mathcal L-\frac\eta2\nabla(\frac12|\nabla\mathcal L|^2)+O(\eta^2)` (backward error
    analysis; for the ReLU net with its step :math:`2\eta/(\alpha+1)` in its own time, the same order in
    linear time), so each member's max relative weight error is :math:`E(\eta)=E(0)+b\eta+O(\eta^2)`.  Per
    member (``errors[eta]`` ``(S, K)`` over :data:`C5_LADDER`): least-squares :math:`a+b\eta`, the predicted
    change :math:`b(\eta^*-0.004)` from Fig. 3's learning rate to ``lr`` with its 95% half-width
    (:math:`t_{0.975,n-2}` x the standard error of :math:`b` x :math:`(\eta^*-0.004)`), against the measured
    :math:`E(\eta^*)-(a+0.004b)`; relative to :math:`a+0.004b`.  Returns the member with the largest predicted
    relative change.
    """
    from scipy.stats import t as student_t

    x = np.asarray(C5_LADDER)
    E = np.stack([errors[eta] for eta in C5_LADDER])  # (n, S, K)
    n = len(x)
    xc = x - x.mean()
    b = np.tensordot(xc, E, axes=1) / (xc @ xc)
    a = E.mean(0) - b * x.mean()
    resid = E - a - b * x[:, None, None]
    se_b = np.sqrt((resid**2).sum(0) / (n - 2) / (xc @ xc))
    at_fig3 = a + b * FIG3_LR
    span = lr - FIG3_LR
    pred, half = b * span / at_fig3, student_t.ppf(0.975, n - 2) * se_b * span / at_fig3
    s, k = np.unravel_index(int(np.argmax(np.abs(pred))), pred.shape)
    return {
        "seed": int(s),
        "alpha": C5_ALPHAS[k],
        "predicted relative change": float(pred[s, k]),
        "its 95% half-width": float(half[s, k]),
        "measured relative change": float(errors[lr][s, k] / at_fig3[s, k] - 1),
        "error at lr 0.004 (fit)": float(at_fig3[s, k]),
    }


def _relative_to_baseline(
    ctx: Context,
    name: str,
    big: np.ndarray,
    base: np.ndarray,
    lr: float,
    label: str,
    term: dict,
    lr_lambda: float,
) -> None:
    """The C.5 reading: worst ratio of each member's max relative weight error at ``lr`` to that at
    :data:`SMALL_LR` <= :data:`C5_READING`; ``term`` (:func:`lr_term`) and ``lr_lambda`` (lr x the linear
    net's top Hessian eigenvalue at its solution) are reported."""
    ratio = big / base
    s, k = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    ctx.bound(
        f"{name} at lr {lr:g} / same at lr {SMALL_LR:g} [{label}]",
        float(ratio.max()),
        C5_READING,
        why="a reading of App. C.5's qualitative 'the differences between weight matrices are small' (no "
        "number is printed): the large learning rate at most doubles the small-lr run's weight error. It is "
        "not an O(lr) bound: the O(lr) change of the GD path is measured (fit over learning rates "
        f"{list(C5_LADDER)}; the predicted change from lr {FIG3_LR:g} to lr {lr:g} and the measured one are "
        f"in the details), and at lr {lr:g} lr lambda_max = {lr_lambda:.2g}; above 1 the modified-equation "
        "expansion no longer controls the stiffest mode "
        "(the GD factor 1 - lr lambda < 0 against the flow's exp(-lr lambda) > 0). The absolute level is "
        "the lr-independent one of the small-lr run (Fig. 3b's Gaussian-init imbalance error, the erratum of "
        "zhang2025:figure-3), so the reading compares with it and not with a printed number",
        resolution=f"a learning-rate effect that enlarges some member's weight error {C5_READING:g}-fold (as "
        "the oscillating GD of the control does), not the measured O(lr) change",
        details={
            "seed": int(s),
            "alpha": C5_ALPHAS[k],
            "at lr": float(big[s, k]),
            f"at lr {SMALL_LR:g}": float(base[s, k]),
            f"O(lr) change from lr {FIG3_LR:g} to {lr:g} (fit)": term,
            "lr lambda_max": lr_lambda,
        },
    )


@claim(
    "zhang2025:section-C.5",
    title="Large learning rate (0.6): collapse and small weight differences persist; beyond it, "
    "oscillation breaks them",
    source="App. C.5, Fig. 7b",
    statement=r"With learning rate 0.6 (150 x Fig. 3's) and the time rescaled by inversely rescaling the "
    r"ReLU learning "
    r"rate, the loss curves of all $\alpha$ collapse and the weight differences are small; for larger "
    r"learning rates "
    r"the loss oscillates and the equivalence of Theorem 8 no longer holds.",
    hypotheses=[
        "Fig. 3 setting: symmetric Gaussian data, square loss, App. H Gaussian init (small)",
        r"GD, ReLU learning rate $2\eta/(\alpha+1)$ vs linear $\eta$",
        STABLE_LR,
    ],
)
def section_c5(ctx: Context) -> None:
    size, seeds = _fig7_sizes(ctx)
    lr = ctx.param("lr", tiny=0.6, quick=0.6, full=0.6)
    w_init = ctx.param("w_init", tiny=1e-4, quick=1e-8, full=1e-8)
    if (size, w_init) != ((20, 500, 2000), 1e-8):
        ctx.reduced_scale(
            f"D, H, P = {size}, w_init = {w_init:g} for Fig. 3's (20, 500, 2000), 1e-8 (full profile); the "
            "linear net's sharpness is smaller here, so lr 0.6 sits further below the stability threshold "
            "than in the paper (lr lambda_max in the regime record; 1.55 of 2 measured at the paper's scale)"
        )
    exact = make_setup(ctx, "c5-a7", size, 1, "square", w_init, white=False)
    paired = gd_pair(ctx, exact, C5_ALPHAS, lr)
    args = exact.flow.args(ctx.backend, exact.data[0].X, exact.data[0].y, alpha=1.0)
    eta_h = lr * float(np.max(max_curvature(ctx.backend, exact.flow, args, paired.lin[0])))  # NaN propagates
    check_gd_equivalence(ctx, exact, paired, lr, eta_h=eta_h)
    setup = gaussian_pairs(ctx, "c5", size, seeds, w_init)
    ladder = {eta: gd_pair(ctx, setup, C5_ALPHAS, eta) for eta in C5_LADDER}
    errors = {eta: gd_errors(run)[0] for eta, run in ladder.items()}
    base = ladder[SMALL_LR]
    big = gd_pair(ctx, setup, C5_ALPHAS, lr)
    base_w, base_L = gd_errors(base)
    big_w, big_L = gd_errors(big)
    rng = ctx.rng("sharpness").host
    lam = max(sharpness(ctx.backend, setup.flow, ds, base.lin[s, -1], rng) for s, ds in enumerate(setup.data))
    term = lr_term({**errors, lr: big_w}, lr)
    _relative_to_baseline(ctx, "max relative weight error", big_w, base_w, lr, setup.label, term, lr * lam)
    ctx.regime(STABLE_LR, lr_lambda=float(np.max([lr * lam, eta_h])))  # both runs (NaN propagates)
    ctx.note(
        f"Measured (Gaussian init, {setup.label}, {seeds} seeds, alphas {list(C5_ALPHAS)}): max relative "
        f"weight error {big_w.max():.3g} at lr {lr:g} vs {base_w.max():.3g} at lr {SMALL_LR:g}; max "
        f"relative loss gap |L_a - L_lin|/L_lin {big_L.max():.3g} vs {base_L.max():.3g} (the loss curves "
        "collapse to the same degree; the gap near the drop grows by an O(lr) factor, the 'less smooth' "
        "curves of the paper, which is why the check is on the weights). The O(lr) change of the weight "
        f"error (fit over lrs {list(C5_LADDER)}, lr lambda_max <= {max(C5_LADDER) * lam:.2f}), largest at "
        f"seed {term['seed']}, alpha {term['alpha']:g}: predicted "
        f"{term['predicted relative change']:+.2%} +- {term['its 95% half-width']:.2%} relative from lr "
        f"{FIG3_LR:g} (Fig. 3) to lr {lr:g}, measured {term['measured relative change']:+.2%}; the reading "
        f"allows {C5_READING - 1:+.0%}. 'Small' here is read against the small-lr run, not against a "
        f"printed number: the error is {base_w.max():.3g} already at lr {SMALL_LR:g} (Fig. 3b's "
        "Gaussian-init imbalance error, above the printed 0.3% at H = 500: zhang2025:figure-3's erratum). "
        "App. C.6's printed '< 3%' (for large init, whose errors the paper calls larger than the small-init "
        "ones) bounds that absolute level, which section-C.6 checks as printed; by it the error here would "
        "not be 'small' at either learning rate, a property of the Gaussian init (the figure-3 erratum), not "
        "of the learning rate. So the two sections read 'small' for different quantities (C.5: what the "
        "large learning rate adds; C.6: the level itself). Stability threshold of the "
        f"linear net at its solution: 2/lambda_max = {2 / lam:.3g} (lambda_max = {lam:.3g}), so lr {lr:g} "
        f"is {lr * lam / 2:.2f} x the threshold"
        + (
            " (measured at the paper's size)."
            if size == (20, 500, 2000)
            else ". At the paper's size (D=20, P=2000) the full profile measured lambda_max = 2.58, i.e. lr "
            "0.6 at 0.77 x the threshold, closer to the edge of stability."
        )
    )
    ctx.figure(
        "loss: lr-rescaled GD at the large lr",
        xlabel="linear time eta k",
        ylabel="loss",
        logy=True,
        series=[
            *(
                Series(f"ReLU alpha = {a:g}, lr 2 eta/(a+1)", big.t, big.loss_relu[0, k])
                for k, a in enumerate(C5_ALPHAS)
            ),
            Series(f"linear, lr {lr:g}", big.t, big.loss_lin[0], "--"),
        ],
    )
    beyond = 1.5 * 2 / lam
    with ctx.control(
        f"lr = 1.5 x 2/lambda_max = {beyond:.3g} (beyond the stability threshold)",
        breaks=STABLE_LR,
        must_break=["max relative weight error at lr * / same at lr *"],
    ):
        over = gd_pair(ctx, setup, C5_ALPHAS, beyond)
        over_w, over_L = gd_errors(over)
        _relative_to_baseline(
            ctx,
            "max relative weight error",
            over_w,
            base_w,
            beyond,
            setup.label,
            lr_term({**errors, beyond: over_w}, beyond),
            beyond * lam,
        )
        ctx.note(
            f"Beyond the threshold (lr {beyond:.3g}): max relative weight error {over_w.max():.3g}, max "
            f"relative loss gap {over_L.max():.3g}, final linear loss {over.loss_lin[:, -1].max():.4g} vs "
            f"{base.loss_lin[:, -1].max():.4g} at lr {SMALL_LR:g} (GD cannot settle: the loss oscillates)."
        )
        ctx.figure(
            "control: loss beyond the stability threshold",
            xlabel="linear time eta k",
            ylabel="loss",
            logy=True,
            series=[
                *(
                    Series(f"ReLU alpha = {a:g}", over.t, over.loss_relu[0, k])
                    for k, a in enumerate(C5_ALPHAS)
                ),
                Series("linear", over.t, over.loss_lin[0], "--"),
            ],
        )


# App. C.6's "large initialization" has no stated scale (App. H lists none for Fig. 7), so the claim
# declares, before any run, a grid of plausible large inits, each far above Fig. 3's w_init = 1e-8 and the
# small-init regime (w_init <= 1e-2, SMALL_INIT): App. H's Gaussian N(0, w^2/N_l) at w = 0.3 and 1, and
# PyTorch's default nn.Linear init (the authors' framework; ||W_1|| ~ sqrt(H/3) = 13 at H = 500), None below.
# Verdict rule: the statement FAILs only if it fails at every declared init (the failure then persists over
# the plausible scales); if it holds at some and fails at others, the unstated scale decides and the run is
# labelled a stand-in init scale (its failures INCONCLUSIVE); if it holds at all, PASS.
C6_INITS: dict[str, float | None] = {
    "App. H Gaussian, w_init = 0.3": 0.3,
    "App. H Gaussian, w_init = 1": 1.0,
    "PyTorch default nn.Linear init": None,
}
C6_CONTROL_INIT = "App. H Gaussian, w_init = 1"  # the control's init (Condition 3 broken at one scale)


LARGE_INIT = Hypothesis(
    "large init",
    wording=r"large initialisation (App. C.6, scale not stated in the paper): every init of the declared "
    r"grid, App. H Gaussian $w_{\rm init}\in\{0.3,1\}$ and PyTorch's default nn.Linear init",
    condition="w_init = max(||W1(0)||, ||W2(0)||) >= 0.1 at every declared init and seed: ten times the "
    "small-init regime's 1e-2 (SMALL_INIT), below which the early-phase terms O(w_init) are percent level",
    test=lambda w_init: w_init >= 0.1,
)


@claim(
    "zhang2025:section-C.6",
    title="Large initialisation: collapse persists, weight errors < 3%",
    source="App. C.6, Fig. 7c",
    statement=r"Under large initialisation the loss curves of all $\alpha$ still collapse after "
    r"rescaling time (inverse learning-rate rescaling) and the relative weight differences "
    r"$\|\sqrt{\frac{\alpha+1}2}W(\frac2{\alpha+1}t)-W^{\rm lin}(t)\|/\|W^{\rm lin}(t)\|$ stay below 3%.",
    hypotheses=[
        CONDITION_3,
        SQUARE,
        LARGE_INIT,
        r"GD, ReLU learning rate $2\eta/(\alpha+1)$ vs linear $\eta$",
    ],
)
def section_c6(ctx: Context) -> None:
    r"""Relative weight error :math:`\max_t\|\sqrt{\frac{\alpha+1}2}W(\frac{2t}{\alpha+1})-W^{\rm lin}(t)\|
    /\|W^{\rm lin}(t)\|<3\%` (App. C.6, Fig. 7c; Fig. 3b's error) at each init of ``C6_INITS`` on the same
    data sets, and the verdict rule written beside ``C6_INITS``."""
    D = ctx.param("D", tiny=4, quick=20, full=20)
    H = ctx.param("H", tiny=16, quick=500, full=500)
    P = ctx.param("P", tiny=40, quick=60, full=2000)
    # full: 2 seeds per declared init (3 inits + the control's seed: ~2.5 CPU-h, 7/4 of the former 3-seed run)
    seeds = ctx.param("seeds", tiny=2, quick=3, full=2)
    # quick: lr 0.01, not 0.2: under the PyTorch-default init (||W1|| ~ 13) GD of the alpha = 0 member (step
    # 2 lr) diverged at lr 0.05 and left a 13% error transient at 0.02 (measured, P = 60); 0.01 is stable
    lr = ctx.param("lr", tiny=0.2, quick=0.01, full=0.004)
    T = ctx.param("T", tiny=30.0, quick=30.0, full=30.0)
    steps = int(np.ceil(T / lr))
    record = np.unique(np.linspace(0, steps, 61).astype(int))

    def measure(setup: Setup, init: str) -> tuple[PairedRun, bool]:
        run = paired_gd(
            ctx.backend,
            setup.flow,
            Pairing(C5_ALPHAS, len(setup.data)),
            setup.data,
            setup.y_lin0,
            lr=lr,
            steps=steps,
            record=record,
        )
        err, gap = gd_errors(run)
        s, k = np.unravel_index(int(np.argmax(err)), err.shape)
        held = ctx.bound(
            f"max_t relative weight error < 3% [{setup.label}, {init}]",
            float(err.max()),
            0.03,
            why="the paper's bound (App. C.6, Fig. 7c); the worst seed and slope are reported",
            details={
                "seed": int(s),
                "alpha": C5_ALPHAS[k],
                "errors (seed x alpha)": err.tolist(),
                "max relative loss gap": float(gap.max()),
                "lr": lr,
                "steps": steps,
            },
        )
        return run, held

    runs, held, scales = {}, {}, []
    for init, w in C6_INITS.items():
        setup = gaussian_pairs(ctx, "c6", (D, H, P), seeds, w)
        scales.append(init_scale(setup.net, setup.y_lin0))
        runs[init], held[init] = measure(setup, init)
    record_symmetric(ctx, setup.data)  # the data sets are the same at every init (same key and size)
    ctx.regime(LARGE_INIT, w_init=min(scales))
    ctx.figure(
        "relative weight error, large init",
        xlabel="linear time eta k",
        ylabel="relative weight error",
        series=[
            Series(f"{init}, seed {s}, alpha = {a:g}", run.t, run.relative_deviation[s, k])
            for init, run in runs.items()
            for s in range(run.pairing.n_seeds)
            for k, a in enumerate(C5_ALPHAS)
        ]
        + [Series("3% (paper's bound)", [0.0, lr * steps], [0.03, 0.03], "--")],
    )
    holds = [init for init, ok in held.items() if ok]
    fails = [init for init, ok in held.items() if not ok]
    reasons, kinds = [], []
    if (P, lr) != (2000, 0.004):
        kinds.append("reduced scale")
        reasons.append(
            f"P = {P}, lr = {lr:g} for Fig. 3's P = 2000, lr = 0.004 (full profile); the weight error of a "
            "random init depends on the data and the path, so a reduced-scale value is not the paper's"
        )
    if holds and fails:
        kinds.append("stand-in init scale")
        reasons.append(
            f"the paper states no large-init scale and the verdict depends on it: the 3% bound holds at "
            f"{', '.join(holds)} and fails at {', '.join(fails)}"
        )
    if reasons:
        ctx.reduced_scale("; ".join(reasons), kind=", ".join(kinds))
    ctx.note(
        f"Declared large inits (the paper states none): {', '.join(C6_INITS)}; w_init = max(||W1(0)||, "
        f"||W2(0)||) = {', '.join(f'{w:.3g}' for w in scales)} (least seed), on the same {seeds} data sets, "
        f"lr {lr:g}. The bound holds at: {', '.join(holds) or 'none'}; fails at: {', '.join(fails) or 'none'}"
        ". "
        "Rule: FAIL only if it fails at every declared init; mixed -> the unstated scale decides "
        "(INCONCLUSIVE); all hold -> PASS. The error comes from the part of the init off the Assumption-7 "
        "manifold (per the catalog it shrinks like H^-1/2); its size depends on the init's family and scale."
    )
    with ctx.control(
        f"data without the mirrored points ({C6_CONTROL_INIT})",
        breaks=CONDITION_3,
        must_break=["max_t relative weight error < 3% *"],
    ):
        asym = gaussian_pairs(ctx, "c6-asym", (D, H, P), 1, C6_INITS[C6_CONTROL_INIT], symmetric=False)
        measure(asym, C6_CONTROL_INIT)
