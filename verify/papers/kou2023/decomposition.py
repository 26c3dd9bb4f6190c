r"""kou2023 Section 5.1 / Appendix A: the data-correlated decomposition (Definition 5.1) and its
coefficient recursions (Lemma 5.2 = Lemma A.3, closed forms (A.1)/(A.2)).

The coefficients are computed two ways on the same gradient-descent trajectories:

* *accumulated*: the exact GD map in coefficient form (:mod:`numeric.training.reduced_gd`), which adds
  the increments (5.4)/(5.5) at every step;
* *projected*: full GD on explicit weights ``W`` (:class:`numeric.models.fixed_readout.FixedReadoutNet`
  through :func:`numeric.engine.descent.gradient_descent`) and, at every step,
  :math:`P=(W^{(t)}-W^{(0)})X^\top G^{-1}D` (the unique solution of (5.1) for independent inputs).

Rounding model of the projected coefficients: every GD step rounds :math:`w\leftarrow w+\eta F`
once per entry, so after ``t`` steps :math:`\|\delta w_r\|\le 2t\epsilon\max_s\|w_r^{(s)}\|`; the
projection multiplies by at most :math:`\max_i\|X^\top G^{-1}De_i\|`.  The accumulated coefficients
carry at most ``t`` roundings of :math:`|\rho|`.  The tolerance of every comparison is the sum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.backend import to_numpy
from numeric.data.near_orthogonal import GramData, alternating_labels, gaussian_points
from numeric.engine.descent import gradient_descent
from numeric.models.fixed_readout import FixedReadoutNet, activation, class_of_rows
from numeric.models.losses import sigmoid
from numeric.training.reduced_gd import ReducedGD, initial_from_weights
from symbolic.data_correlated import gd_step_residuals, projection_identity_residual
from verify.claim import claim
from verify.context import Context, Series
from verify.papers.kou2023.common import EPS
from verify.papers.kou2023.hypotheses import LIN_INDEP


@dataclass
class Twin:
    r"""Coefficients of the same GD runs computed two ways, every step ``0..T``.

    ``proj`` / ``acc`` ``(B, T+1, 2m, n)``; ``formula`` ``(B, T, 2m, n)`` the increments
    (5.4)+(5.5) evaluated on the full-GD state; ``span`` ``(B, T+1)`` relative norm of the part
    of :math:`W-W^{(0)}` outside :math:`\mathrm{span}\{x_i\}`; ``tol`` ``(B, T+1)`` the rounding
    tolerance (module docstring); ``sign`` ``(2m, n)`` :math:`jy_i`.
    """

    proj: np.ndarray
    acc: np.ndarray
    formula: np.ndarray
    span: np.ndarray
    tol: np.ndarray
    sign: np.ndarray
    label: str


def twin_runs(
    ctx: Context,
    key: str,
    X: np.ndarray,
    y: np.ndarray,
    m: int,
    gammas,
    seeds: int,
    steps: int,
    *,
    ascent: bool = False,
    decay: float = 0.0,
) -> Twin:
    """Full GD (projected coefficients) and coefficient-form GD (accumulated) from the same ``W0``.

    ``decay`` > 0 (a control, not GD): every full-GD step also pulls ``W`` towards a fixed random anchor
    ``A`` (entries N(0, 1e-4), in general position), ``W <- W - eta F - decay (W - A)``: weight decay
    towards ``A``, an update that is not a gradient of a loss of the inner products ``<w_j, x_i>`` and
    leaves ``span{x_i}``; the accumulated coefficients ignore it."""
    rng = ctx.rng(key).host
    n, d = X.shape
    gamma = np.repeat(np.asarray(gammas, float), seeds)
    B = gamma.size
    eta = 0.05 * n * m / float((X * X).sum(axis=1).max())
    W0 = 1e-2 * rng.normal(size=(B, 2 * m, d))
    net = FixedReadoutNet(m, d)
    be = ctx.backend
    args = net.args(be, X, y, gamma=gamma)
    field = net
    if decay:
        args["anchor"] = be.asarray(1e-2 * rng.normal(size=(B, 2 * m * d)))

        def field(t, yflat, a):  # lr * field = eta F - decay (W - A)
            return net(t, yflat, a) - (decay / eta) * (yflat - a["anchor"])

    G = X @ X.T
    D = np.diag(G)
    proj_map = X.T @ np.linalg.pinv(G) * D  # (d, n): P = (W - W0) proj_map
    args["W0"] = be.asarray(W0)
    args["proj"] = be.asarray(proj_map[None])
    args["D"] = be.asarray(D[None])
    XT = be.asarray(X.T)

    def observe(t, yflat, a):
        (W,) = net.unpack(yflat)
        V = W - a["W0"]
        P = V @ a["proj"]
        back = (P / a["D"][:, None, :]) @ a["X"]
        xp = ctx.backend.xp
        res = xp.sqrt(((V - back) ** 2).sum(axis=(1, 2)) / xp.maximum((V * V).sum(axis=(1, 2)), 1e-300))
        Z = W @ XT
        q = net.margins(yflat, a)
        sp = activation(a["gamma"]).slope(Z)
        j = xp.asarray(class_of_rows(m))[None, :, None]
        inc = (eta / (n * m)) * sp * j * (a["y"] * sigmoid(-q) * a["D"])[:, None, :]
        norms = xp.sqrt((W * W).sum(axis=2)).max(axis=1)
        return {"P": P, "span": res, "inc": inc, "wmax": norms}

    lr = -eta if ascent else eta
    traj = gradient_descent(
        field,
        be.asarray(W0.reshape(B, -1)),
        lr=lr,
        steps=steps,
        record=np.arange(steps + 1),
        args=args,
        observe=observe,
        save_state=False,
    )
    obs = {k: to_numpy(v) for k, v in traj.observed.items()}
    model = ReducedGD(be, _gram_data(G, y, d), m, gamma, -eta if ascent else eta, initial_from_weights(W0, X))
    red = model.run(steps, np.arange(steps + 1), accelerate=False)
    amp = float(np.abs(proj_map).sum(axis=0).max())
    t = np.arange(steps + 1)
    wmax = np.maximum.accumulate(obs["wmax"], axis=1)
    tol = 2 * t[None] * EPS * wmax * amp + t[None] * EPS * np.abs(red.P).max(axis=(2, 3))
    sign = class_of_rows(m)[:, None] * y[None, :]
    label = (
        f"n={n}, d={d}, m={m}, gammas={tuple(gammas)}, {seeds} seeds, {steps} steps"
        + (" (ascent)" if ascent else "")
        + (f" (+ decay {decay:g} towards a random anchor)" if decay else "")
    )
    return Twin(obs["P"], red.P, obs["inc"][:, :-1], obs["span"], tol, sign, label)


def _gram_data(G: np.ndarray, y: np.ndarray, d: int) -> GramData:
    return GramData(G, np.asarray(y, float), d, "explicit points")


def _data(ctx: Context, key: str, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    rng = ctx.rng(key).host
    return gaussian_points(rng, n, d, (1.0, 1.3)), alternating_labels(n)


def _sizes(ctx: Context) -> tuple[int, int, int, int, int]:
    n = ctx.param("n", tiny=6, quick=10, full=20)
    d = ctx.param("d", tiny=40, quick=200, full=2000)
    m = ctx.param("m", tiny=4, quick=10, full=50)
    steps = ctx.param("steps", tiny=150, quick=400, full=3000)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=4)
    ctx.require(d >= n, f"Definition 5.1 needs linearly independent inputs: d >= n, got d={d}, n={n}")
    return n, d, m, steps, seeds


def check_cross(ctx: Context, tw: Twin, what: str = "") -> None:
    """Accumulated and projected coefficients agree at every step (within the rounding tolerance)."""
    dev = np.abs(tw.proj - tw.acc).max(axis=(2, 3))
    ratio = dev / (tw.tol + 1e-300)
    ratio[:, 0] = dev[:, 0] / EPS  # W = W0 exactly at t = 0
    ctx.bound(
        f"rho computed two ways agree at every step: max_t |projected - accumulated| / tolerance "
        f"[{tw.label}]{what}",
        float(ratio.max()),
        1.0,
        why="rounding of T GD steps in W and of T additions of the coefficients (module docstring)",
        details={"max deviation": float(dev.max()), "max tolerance": float(tw.tol.max())},
    )


@claim(
    "kou2023:definition-5.1",
    title="Data-correlated decomposition: unique coefficients with w = w0 + sum_i rho_i x_i/||x_i||^2",
    source="Definition 5.1, eqs. (5.1)-(5.2)",
    statement=r"There exist unique $\rho^{(t)}_{j,r,i}$ with "
    r"$w^{(t)}_{j,r}=w^{(0)}_{j,r}+\sum_i\rho^{(t)}_{j,r,i}"
    r"\|x_i\|^{-2}x_i$, "
    r"$=w^{(0)}+\sum_i\overline\rho\,\|x_i\|^{-2}x_i+\sum_i\underline\rho\,\|x_i\|^{-2}x_i$.",
    hypotheses=[
        "GD (3.2) on the fixed-readout net",
        LIN_INDEP,
    ],
)
def definition_5_1(ctx: Context) -> None:
    n, d, m, steps, seeds = _sizes(ctx)
    res = gd_step_residuals()
    ctx.zero(
        "one GD step stays in w0 + span{x_i}: (I - X^T G^-1 X) Delta w = 0 (symbolic n=2, d=3)",
        res["span"],
        why="exact: generic symbolic inputs, loss derivatives and slopes",
    )
    ctx.zero(
        "the projection P = (W - W0) X^T G^-1 D inverts (5.1) exactly (symbolic)",
        projection_identity_residual(),
        why="exact matrix identity for independent inputs",
    )
    X, y = _data(ctx, "data", n, d)
    lam_rel = float(np.linalg.eigvalsh(X @ X.T).min() / (X * X).sum(axis=1).max())
    ctx.regime(LIN_INDEP, lam_rel=lam_rel)
    ctx.bound(
        "inputs linearly independent: lambda_min(G) / R_max^2",
        lam_rel,
        0.0,
        side=">=",
        why="uniqueness of the coefficients needs lambda_min(G) > 0 (Gershgorin: >= R_min^2 - (n-1) p)",
    )
    check_margin_bracket(ctx, X, lam_rel)
    tw = twin_runs(ctx, "gd", X, y, m, (0.0, 0.5), seeds, steps)
    check_span(ctx, tw, d, steps)
    check_cross(ctx, tw)
    split = np.abs(tw.acc - (np.maximum(tw.acc, 0) + np.minimum(tw.acc, 0))).max()
    ctx.zero(
        "(5.2): rho = rho_bar + rho_under exactly",
        float(split),
        why="rho 1(rho >= 0) + rho 1(rho <= 0) = rho",
    )
    with ctx.control(
        "linearly dependent inputs (d < n)",
        breaks="linearly independent inputs (implied by near orthogonality)",
        must_break=["rho computed two ways agree*"],
    ):
        Xd, yd = _data(ctx, "dependent", n, max(n // 2, 1))
        check_cross(ctx, twin_runs(ctx, "gd-dependent", Xd, yd, m, (0.5,), 1, steps), " (d < n)")
    with ctx.control(
        f"GD plus weight decay {SPAN_DECAY:g} per step towards a fixed random anchor (out of span)",
        breaks="GD (3.2) on the fixed-readout net",
        must_break=["(5.1) holds along GD*"],
    ):
        check_span(ctx, twin_runs(ctx, "gd-decay", X, y, m, (0.5,), 1, steps, decay=SPAN_DECAY), d, steps)


def check_margin_bracket(ctx: Context, X: np.ndarray, lam_rel: float) -> None:
    r"""The independence margin :math:`\lambda_{\min}(G)/R_{\max}^2`, :math:`G=XX^\top`, between its two
    elementary bounds: Gershgorin's :math:`\lambda_{\min}\ge R_{\min}^2-(n-1)\max_{i\ne k}|\langle x_i,x_k
    \rangle|` and the Rayleigh quotient at :math:`e_i`, :math:`\lambda_{\min}\le\min_iG_{ii}=R_{\min}^2`.

    Rounding, relative to :math:`R_{\max}^2`: eigvalsh is backward stable, :math:`|\hat\lambda-\lambda|\le
    c\,n\epsilon\|G\|_2` with :math:`\|G\|_2\le\operatorname{tr}G\le nR_{\max}^2` (c = 4 for LAPACK's
    modest p(n)); each entry of G rounds by :math:`d\epsilon R_iR_k`, which moves an eigenvalue by at most
    :math:`\|E\|_F\le nd\epsilon R_{\max}^2` (Weyl): :math:`4(n+d)n\epsilon` in all."""
    n, d = X.shape
    G = X @ X.T
    R2 = np.diag(G)
    p = float(np.abs(G - np.diag(R2)).max())
    lower, upper = (R2.min() - (n - 1) * p) / R2.max(), R2.min() / R2.max()
    ctx.bound(
        "independence margin bracketed: (R_min^2 - (n-1) p) / R_max^2 <= lambda_min(G) / R_max^2 <= "
        "R_min^2 / R_max^2, worst side",
        min(lam_rel - lower, upper - lam_rel),
        -4 * (n + d) * n * EPS,
        side=">=",
        why="Gershgorin below, the Rayleigh quotient at a unit vector e_i above (p = max_i!=k |<x_i, x_k>|); "
        "rounding 4 (n + d) n eps of R_max^2 (check_margin_bracket)",
        details={"lower": float(lower), "margin": lam_rel, "upper": float(upper)},
        resolution="a margin outside the bracket by more than the rounding: a wrong normalisation (by "
        "R_max^2) or a wrong eigenvalue, which the regime's sign test (> 0) cannot see",
    )


SPAN_DECAY = 1e-3
"""Per-step pull towards the anchor in the (5.1) control: the part of ``W - W0`` it moves out of
span{x_i} reads 5.6e-3 of ``||W - W0||`` at tiny (150 steps; the GD displacement in span dominates), against
the check's rounding allowance ``64 eps sqrt(d) T`` = 1.3e-11 there: the control breaks by ~4e8."""


def check_span(ctx: Context, tw: Twin, d: int, steps: int) -> None:
    """(5.1): ``W - W0`` stays in ``span{x_i}`` at every step, to rounding."""
    allowance = float(64 * EPS * np.sqrt(d) * steps)
    ctx.bound(
        f"(5.1) holds along GD: max_t ||(W - W0) - P D^-1 X||_F / ||W - W0||_F [{tw.label}]",
        float(tw.span[:, 1:].max()),
        allowance,
        why="exact in exact arithmetic; the residual is rounding of T steps and of one projection (64 eps "
        "sqrt(d) T)",
        resolution=f"a part of W - W0 outside span{{x_i}} above {allowance:.2g} of its norm (the decay "
        "control's drift reads ~5e-3, SPAN_DECAY)",
    )


def check_recursions(ctx: Context, tw: Twin, what: str = "") -> None:
    """(5.3)-(5.5) along GD: zero start, exact increments, sign structure and monotonicity at every step."""
    dP = np.diff(tw.proj, axis=1)
    inc_tol = tw.tol[:, 1:, None, None] + tw.tol[:, :-1, None, None]
    ctx.bound(
        f"(5.4)/(5.5): projected increments = formula at every step, max_t |difference| / tolerance "
        f"[{tw.label}]{what}",
        float((np.abs(dP - tw.formula) / inc_tol).max()),
        1.0,
        why="the increment of projected coefficients carries the rounding of both ends (module docstring)",
    )
    signed = tw.sign[None, None] * dP
    ctx.bound(
        f"rho_bar nondecreasing and rho_under nonincreasing at every step: min_t j y_i Delta rho / tolerance "
        f"[{tw.label}]{what}",
        float((signed / inc_tol).min()),
        -1.0,
        side=">=",
        why="(5.4)/(5.5) with l' < 0 and sigma' >= 0: j y_i Delta rho >= 0; rounding tolerance as above",
    )
    wrong = np.maximum(-tw.sign[None, None] * tw.proj, 0) / (tw.tol[:, :, None, None] + 1e-300)
    ctx.bound(
        f"rho_bar = 0 for j = -y_i and rho_under = 0 for j = y_i at every step (projected, over the "
        f"tolerance) [{tw.label}]{what}",
        float(wrong[:, 1:].max()),
        1.0,
        why="(5.3) starts at 0 and every increment has the sign j y_i; checked on the coefficients projected "
        "from full GD (the accumulated ones have that sign by construction of the coefficient-form map), "
        "rounding tolerance of the projection (module docstring)",
    )


@claim(
    "kou2023:lemma-5.2",
    title="Coefficient recursions (5.3)-(5.5): rho_bar grows, rho_under falls, each in its own class",
    source="Lemma 5.2, eqs. (5.3)-(5.5) (= Lemma A.3)",
    statement=r"$\overline\rho^{(0)}=\underline\rho^{(0)}=0$; "
    r"$\overline\rho^{(t+1)}_{j,r,i}=\overline\rho^{(t)}_{j,r,i}-\frac{\eta}{nm}\ell_i'^{(t)}\sigma'(\langle "
    r"w_{j,r}^{(t)},x_i\rangle)"
    r"\|x_i\|^2\mathbb 1(y_i=j)$; "
    r"$\underline\rho^{(t+1)}_{j,r,i}=\underline\rho^{(t)}_{j,r,i}+\frac{\eta}{nm}\ell_i'^{(t)}"
    r"\sigma'(\cdot)\|x_i\|^2\mathbb 1(y_i=-j)$.",
    hypotheses=["GD (3.2) with the logistic loss, $\\ell'<0$", "Definition 5.1"],
)
def lemma_5_2(ctx: Context) -> None:
    n, d, m, steps, seeds = _sizes(ctx)
    res = gd_step_residuals()
    ctx.zero(
        "Delta rho by projection = -eta/(nm) l'_i sigma'_i ||x_i||^2 j y_i (symbolic, from (3.2))",
        res["increment"],
        why="exact: coefficients of x_i in the GD update (3.2)",
    )
    ctx.zero("j = y_i: the increment is (5.4)", res["(5.4)"], why="exact substitution j = y_i, y_i^2 = 1")
    ctx.zero("j = -y_i: the increment is (5.5)", res["(5.5)"], why="exact substitution j = -y_i, y_i^2 = 1")
    X, y = _data(ctx, "data", n, d)
    tw = twin_runs(ctx, "gd", X, y, m, (0.0, 0.5), seeds, steps)
    # (5.3)'s rho(0) = 0 is W(0) - W(0) = 0, true by construction (no check); its content is the sign
    # structure of every later step, checked on the projected coefficients in check_recursions.
    check_recursions(ctx, tw)
    _figure(ctx, tw)
    with ctx.control(
        "gradient ascent on L_S (the update's sign flipped)",
        breaks="GD (3.2) with the logistic loss, $\\ell'<0$",
        must_break=["rho_bar nondecreasing and rho_under nonincreasing*"],
    ):
        check_recursions(
            ctx, twin_runs(ctx, "gd-ascent", X, y, m, (0.5,), 1, steps, ascent=True), " (ascent)"
        )


def _figure(ctx: Context, tw: Twin) -> None:
    t = np.arange(tw.proj.shape[1])
    m2 = tw.proj.shape[2]
    picks = [(0, 0), (0, 1), (m2 - 1, 0), (m2 - 1, 1)]
    ctx.figure(
        "coefficients rho_jri(t) of member 0 (projected: lines; accumulated: dots)",
        series=[Series(f"r={r}, i={i}, j y_i={tw.sign[r, i]:+.0f}", t, tw.proj[0, :, r, i]) for r, i in picks]
        + [Series(f"accumulated r={r}, i={i}", t[::10], tw.acc[0, ::10, r, i], "o") for r, i in picks],
        xlabel="step t",
        ylabel="rho",
    )


@claim(
    "kou2023:lemma-A.3",
    title="Closed forms (A.1)/(A.2): rho_bar and rho_under are sums of the step increments",
    source="Lemma A.3, eqs. (A.1)-(A.2) (= Lemma 5.2)",
    statement=r"$\overline\rho^{(t)}_{j,r,i}=-\frac{\eta}{nm}\sum_{s<t}\ell_i'^{(s)}\sigma'(\langle "
    r"w^{(s)}_{j,r},x_i\rangle)"
    r"\|x_i\|^2\mathbb 1(y_i=j)$, "
    r"$\underline\rho^{(t)}_{j,r,i}=\frac{\eta}{nm}\sum_{s<t}\ell_i'^{(s)}\sigma'(\cdot)"
    r"\|x_i\|^2\mathbb 1(y_i=-j)$.",
    hypotheses=["GD (3.2) with the logistic loss", "Definition 5.1"],
)
def lemma_A_3(ctx: Context) -> None:
    n, d, m, steps, seeds = _sizes(ctx)
    X, y = _data(ctx, "data", n, d)

    def check(tw: Twin, what: str = "") -> None:
        closed = np.concatenate([np.zeros_like(tw.formula[:, :1]), np.cumsum(tw.formula, axis=1)], axis=1)
        bar = np.where(tw.sign > 0, tw.proj, 0.0)
        under = np.where(tw.sign < 0, tw.proj, 0.0)
        for name, part, mask in (
            ("(A.1) rho_bar", bar, tw.sign > 0),
            ("(A.2) rho_under", under, tw.sign < 0),
        ):
            dev = np.abs(part - np.where(mask, closed, 0.0)).max(axis=(2, 3))
            ctx.bound(
                f"{name}(t) = closed-form sum, max_t |difference| / tolerance [{tw.label}]{what}",
                float((dev / (2 * tw.tol + 1e-300))[:, 1:].max()),
                1.0,
                why="projected coefficients vs the cumulative sum of the formula increments: rounding of "
                "both "
                "(module docstring), doubled for the T-term sum",
            )

    check(twin_runs(ctx, "gd", X, y, m, (0.0, 0.5), seeds, steps))
    with ctx.control(
        "gradient ascent on L_S (the update's sign flipped)",
        breaks="GD (3.2) with the logistic loss",
        must_break=["(A.1)*", "(A.2)*"],
    ):
        check(twin_runs(ctx, "gd-ascent", X, y, m, (0.5,), 1, steps, ascent=True), " (ascent)")
