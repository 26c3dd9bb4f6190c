r"""kou2023 Section 5.1 / Appendix A: the data-correlated decomposition (Definition 5.1) and its
coefficient recursions (Lemma 5.2 = Lemma A.3, closed forms (A.1)/(A.2)).

The coefficients are computed two ways on the same gradient-descent trajectories:

* *accumulated*: the exact GD map in coefficient form (:mod:`numeric.training.reduced_gd`), which adds
  the increments (5.4)/(5.5) at every step;
* *projected*: full GD on explicit weights ``W`` (:class:`numeric.models.fixed_readout.FixedReadoutNet`
  through :func:`numeric.engine.descent.gradient_descent`) and, at every step,
  :math:`P=(W^{(t)}-W^{(0)})X^\top G^{-1}D` (the unique solution of (5.1) for independent inputs).

Conventions: float64; ReLU/leaky ReLU :math:`\sigma(z)=\max(\gamma z,z)` with the paper's
:math:`\sigma'(0)=1` (Sec. 3; :func:`numeric.models.fixed_readout.activation`); logistic loss,
:math:`\ell'(q)=-1/(1+e^q)<0`.

Rounding model of the projected coefficients: every GD step rounds :math:`w\leftarrow w+\eta F`
once per entry, so after ``t`` steps :math:`\|\delta w_r\|\le 2t\epsilon\max_s\|w_r^{(s)}\|`; the
projection multiplies by at most :math:`\max_i\|X^\top G^{-1}De_i\|_1`.  The projection map itself is
computed in 40-digit arithmetic (:func:`projection_map`) and rounded once, so its error is
:math:`\epsilon` of each entry with no :math:`\kappa(G)` factor (a float64 ``pinv`` of a Gram matrix with
:math:`\kappa\approx6\cdot10^4` put 3.7x the tolerance into the first steps); the float64 product
:math:`(W-W^{(0)})X^\top G^{-1}D` adds :math:`\gamma_d\sum_k|v_{rk}||m_{ki}|\le d\epsilon\|v_r\|
\|m_i\|` (Cauchy-Schwarz), and the rounded map :math:`\epsilon\|v_r\|\|m_i\|`: :math:`(d+1)\epsilon
\max_r\|w_r-w_r^{(0)}\|\max_i\|m_i\|` at each step.  The accumulated coefficients carry at most ``t``
roundings of :math:`|\rho|`.  The tolerance of every comparison is the sum; a control's checks use the
main run's tolerance (its largest over members, per step), never one of their own.

The statements hold along GD for *any* independent inputs, initialization and step size; every numeric
check runs on three structurally different families (:func:`_families`: near-orthogonal Gaussian points,
alternating labels, small init and step; one label against the rest, spread norms, init 1, step 0.5;
and strongly correlated directions, :math:`\kappa(G)\sim10^3`-:math:`10^4`).  The symbolic checks
differentiate the loss (3.1) with SymPy
(:func:`autodiff_step`), independently of the numeric field and of the paper's formulas.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import mpmath
import numpy as np

from numeric.backend import to_numpy
from numeric.data.near_orthogonal import GramData, alternating_labels, gaussian_points
from numeric.engine.descent import gradient_descent
from numeric.models.fixed_readout import FixedReadoutNet, activation, class_of_rows
from numeric.models.losses import sigmoid
from numeric.training.reduced_gd import ReducedGD, initial_from_weights
from symbolic.data_correlated import autodiff_step, projection_identity_residual
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
    scale: float = 1e-2,
    step: float = 0.05,
    ascent: bool = False,
    decay: float = 0.0,
) -> Twin:
    r"""Full GD (projected coefficients) and coefficient-form GD (accumulated) from the same ``W0``.

    ``W0`` has i.i.d. N(0, ``scale``^2) entries; the step is :math:`\eta=` ``step`` :math:`nm/R_{\max}^2`
    (every coefficient then moves by at most ``step`` per step).

    ``decay`` > 0 (a control, not GD): every full-GD step also pulls ``W`` towards a fixed random anchor
    ``A`` (entries N(0, 1e-4), in general position), ``W <- W - eta F - decay (W - A)``: weight decay
    towards ``A``, an update that is not a gradient of a loss of the inner products ``<w_j, x_i>`` and
    leaves ``span{x_i}``; the accumulated coefficients ignore it."""
    rng = ctx.rng(key).host
    n, d = X.shape
    gamma = np.repeat(np.asarray(gammas, float), seeds)
    B = gamma.size
    eta = step * n * m / float((X * X).sum(axis=1).max())
    W0 = scale * rng.normal(size=(B, 2 * m, d))
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
    proj_map = projection_map(X)  # (d, n): P = (W - W0) proj_map
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
        vmax = xp.sqrt((V * V).sum(axis=2)).max(axis=1)
        return {"P": P, "span": res, "inc": inc, "wmax": norms, "vmax": vmax}

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
    amp2 = float(np.linalg.norm(proj_map, axis=0).max())
    t = np.arange(steps + 1)
    wmax = np.maximum.accumulate(obs["wmax"], axis=1)
    tol = (
        2 * t[None] * EPS * wmax * amp
        + (d + 1) * EPS * obs["vmax"] * amp2
        + t[None] * EPS * np.abs(red.P).max(axis=(2, 3))
    )
    sign = class_of_rows(m)[:, None] * y[None, :]
    label = (
        f"n={n}, d={d}, m={m}, gammas={tuple(gammas)}, {seeds} seeds, {steps} steps, init {scale:g}, "
        f"step {step:g}"
        + (" (ascent)" if ascent else "")
        + (f" (+ decay {decay:g} towards a random anchor)" if decay else "")
    )
    return Twin(obs["P"], red.P, obs["inc"][:, :-1], obs["span"], tol, sign, label)


def projection_map(X: np.ndarray) -> np.ndarray:
    r""":math:`X^\top G^{-1}D` ``(d, n)``, :math:`G=XX^\top`, :math:`D=\mathrm{diag}(G)`: the map taking
    :math:`W-W^{(0)}` to the coefficients of (5.1), computed in 40-digit arithmetic from the float64 inputs
    and rounded once (float64 ``pinv`` and products would carry :math:`\kappa(G)\epsilon` and the
    cancellation of :math:`|X^\top||G^{-1}|` into it).  Dependent inputs (d < n, the controls): the
    float64 pseudo-inverse's map, whose coefficients are one solution of (5.1) among many."""
    n, d = X.shape
    if d < n:
        return X.T @ np.linalg.pinv(X @ X.T) * (X * X).sum(axis=1)
    with mpmath.workdps(40):
        Xm = mpmath.matrix(X.tolist())
        G = Xm * Xm.T
        M = G**-1 * mpmath.diag([G[i, i] for i in range(G.rows)])
        return np.array((Xm.T * M).tolist(), dtype=float)


def _gram_data(G: np.ndarray, y: np.ndarray, d: int) -> GramData:
    return GramData(G, np.asarray(y, float), d, "explicit points")


def _data(ctx: Context, key: str, n: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    rng = ctx.rng(key).host
    return gaussian_points(rng, n, d, (1.0, 1.3)), alternating_labels(n)


def _sizes(ctx: Context) -> tuple[int, int, int, int, int]:
    """``n, d, m, steps, seeds`` of the main runs."""
    n = ctx.param("n", tiny=6, quick=10, full=20)
    d = ctx.param("d", tiny=40, quick=200, full=2000)
    m = ctx.param("m", tiny=4, quick=10, full=50)
    steps = ctx.param("steps", tiny=150, quick=400, full=3000)
    seeds = ctx.param("seeds", tiny=1, quick=2, full=4)
    ctx.require(d >= n, f"Definition 5.1 needs linearly independent inputs: d >= n, got d={d}, n={n}")
    return n, d, m, steps, seeds


# -- instance families and search -------------------------------------------------------------------


@dataclass(frozen=True)
class Family:
    """One structurally different instance: points ``X`` ``(n, d)``, labels, init scale and step."""

    label: str
    X: np.ndarray
    y: np.ndarray
    scale: float
    step: float


def correlated_points(
    rng: np.random.Generator, n: int, d: int, rho: float, norm_range: tuple[float, float]
) -> np.ndarray:
    r"""Points :math:`\sqrt{1-\rho}\,z_i\pm\sqrt\rho\,c` (:math:`z_i, c\sim N(0,I_d/d)`, random signs),
    rescaled to norms uniform in ``norm_range``: independent for d >= n, with :math:`\kappa(G)` growing like
    :math:`1/(1-\rho)`."""
    Z = rng.normal(size=(n, d)) / np.sqrt(d)
    c = rng.normal(size=d) / np.sqrt(d)
    signs = rng.choice([-1.0, 1.0], size=n)
    return _mixed(Z, c, signs, rho, rng.uniform(*norm_range, size=n))


def _mixed(Z: np.ndarray, c: np.ndarray, signs: np.ndarray, rho: float, norms: np.ndarray) -> np.ndarray:
    r"""Rows :math:`\sqrt{1-\rho}\,z_i+s_i\sqrt\rho\,c` rescaled to ``norms``."""
    X = np.sqrt(1 - rho) * Z + np.sqrt(rho) * c[None, :] * signs[:, None]
    return X * (norms / np.linalg.norm(X, axis=1))[:, None]


def _families(ctx: Context, n: int, d: int) -> list[Family]:
    """The three instance families of the module docstring (the first is the original run's data)."""
    rng = ctx.rng("families").host
    unbalanced = np.ones(n)
    unbalanced[0] = -1.0
    return [
        Family("near-orthogonal Gaussian points", *_data(ctx, "data", n, d), 1e-2, 0.05),
        Family(
            "one label -1, norms in (0.5, 2), init 1, step 0.5",
            gaussian_points(rng, n, d, (0.5, 2.0)),
            unbalanced,
            1.0,
            0.5,
        ),
        Family(
            "correlated directions (rho = 0.999), norms in (0.5, 2)",
            correlated_points(rng, n, d, 0.999, (0.5, 2.0)),
            alternating_labels(n),
            1e-2,
            0.05,
        ),
    ]


SEARCH_SHAPE = (6, 12, 3, 60)  # n, d, m, steps of the instance search's twin runs


def _search_ratio(ctx: Context, base: tuple[np.ndarray, np.ndarray, np.ndarray], theta: np.ndarray) -> float:
    """The cross-check's ratio max_t |projected - accumulated| / tolerance on one instance: ``base`` (Z, c,
    signs) fixes the directions; theta = (logit rho, log-norms (n), log10 init scale, logit of step / 2)."""
    n, _, m, steps = SEARCH_SHAPE
    Z, c, signs = base
    X = _mixed(Z, c, signs, 1 / (1 + np.exp(-theta[0])), np.exp(np.clip(theta[1 : n + 1], -3, 3)))
    scale, step = 10 ** np.clip(theta[n + 1], -4, 1), 2 / (1 + np.exp(-theta[n + 2]))
    tw = twin_runs(ctx, "search", X, alternating_labels(n), m, (0.0, 0.5), 1, steps, scale=scale, step=step)
    return _cross(tw)[0]


def _search(ctx: Context, budget: int) -> None:
    """Instance search of (5.1)'s cross-check over the inputs' correlation and norms, the init scale and
    the step (Definition 5.1 holds along GD for any independent inputs, initialization and step)."""
    n, d, _, _ = SEARCH_SHAPE
    rng = ctx.rng("search-data").host
    base = (rng.normal(size=(n, d)) / np.sqrt(d), rng.normal(size=d) / np.sqrt(d), rng.choice([-1.0, 1.0], n))
    starts = {
        "near-orthogonal, small init": [np.r_[-4.0, np.zeros(n), -2.0, -3.0]],
        "correlated (rho ~ 0.999), norms over e^+-1": [np.r_[7.0, rng.normal(size=n), -2.0, -3.0]],
        "large init and step": [np.r_[0.0, 0.5 * rng.normal(size=n), 0.5, 0.0]],
    }
    ctx.search(
        "search: rho computed two ways agree, max_t |projected - accumulated| / tolerance over instances",
        partial(_search_ratio, ctx, base),
        starts,
        budget=budget,
        why=f"Nelder-Mead over the correlation rho in (0, 1) (kappa(G) up to ~1/(1 - rho)), the norms (e^-3.."
        f"e^3), the init scale (1e-4..10) and the step (0..2 in units of nm/R_max^2); (n, d, m, steps) = "
        f"{SEARCH_SHAPE}; tolerance the module's rounding model",
    )


def _twins(ctx: Context, fams: list[Family], m: int, seeds: int, steps: int) -> list[Twin]:
    """Twin runs on every family, ReLU and slope 0.5: ``seeds`` seeds on the first, one on the others."""
    twins = []
    for k, f in enumerate(fams):
        key, reps = ("gd", seeds) if k == 0 else (f"gd-{k}", 1)
        tw = twin_runs(ctx, key, f.X, f.y, m, (0.0, 0.5), reps, steps, scale=f.scale, step=f.step)
        tw.label = f"{f.label}: {tw.label}"
        twins.append(tw)
    return twins


def _margin_bracket(X: np.ndarray) -> tuple[float, float, float, float]:
    r"""The independence margin :math:`\lambda_{\min}(G)/R_{\max}^2`, :math:`G=XX^\top`, and its two
    elementary bounds: Gershgorin's :math:`\lambda_{\min}\ge R_{\min}^2-(n-1)\max_{i\ne k}|\langle x_i,x_k
    \rangle|` and the Rayleigh quotient at :math:`e_i`, :math:`\lambda_{\min}\le\min_iG_{ii}=R_{\min}^2`;
    with the rounding allowance, relative to :math:`R_{\max}^2`: eigvalsh is backward stable,
    :math:`|\hat\lambda-\lambda|\le c\,n\epsilon\|G\|_2` with :math:`\|G\|_2\le\operatorname{tr}G\le
    nR_{\max}^2` (c = 4 for LAPACK's modest p(n)); each entry of G rounds by :math:`d\epsilon R_iR_k`, which
    moves an eigenvalue by at most :math:`\|E\|_F\le nd\epsilon R_{\max}^2` (Weyl): :math:`4(n+d)n\epsilon` in
    all.

    Returns ``(margin, lower, upper, allowance)``."""
    n, d = X.shape
    G = X @ X.T
    R2 = np.diag(G)
    p = float(np.abs(G - np.diag(R2)).max())
    lam = float(np.linalg.eigvalsh(G).min() / R2.max())
    return lam, float((R2.min() - (n - 1) * p) / R2.max()), float(R2.min() / R2.max()), 4 * (n + d) * n * EPS


def record_independence(ctx: Context, fams: list[Family]) -> None:
    """LIN_INDEP's regime reading, the smallest margin over the families.  A margin outside its
    Gershgorin/Rayleigh bracket (a wrong eigenvalue or
    normalisation) leaves the reading unreliable: undecided, not a failure of the paper."""
    Xs = [f.X for f in fams]
    labels = [f.label for f in fams]
    readings = [_margin_bracket(X) for X in Xs]
    for label, (lam, lower, upper, tol) in zip(labels, readings, strict=True):
        if not lower - tol <= lam <= upper + tol:
            ctx.undecided(
                f"independence margin lambda_min(G) / R_max^2 inside its bracket [{label}]",
                f"the margin {lam:.6g} lies outside [{lower:.6g}, {upper:.6g}] (Gershgorin below, the "
                f"Rayleigh quotient at e_i above, rounding {tol:.2g}): the regime reading is unreliable",
                measured=lam,
            )
    ctx.regime(LIN_INDEP, lam_rel=min(r[0] for r in readings))
    ctx.note(
        "Independence margin lambda_min(G) / R_max^2 per instance, with its Gershgorin lower and Rayleigh "
        "upper bracket: "
        + "; ".join(
            f"{label}: {lam:.3g} in [{lower:.3g}, {upper:.3g}]"
            for label, (lam, lower, upper, _) in zip(labels, readings, strict=True)
        )
        + ". (The catalog's 'independence follows from near orthogonality' is Gershgorin's bound.)"
    )


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


# -- the checks -------------------------------------------------------------------------------------


def _control_tol(tw: Twin) -> np.ndarray:
    """The main run's rounding tolerance per step (largest over its members), for a control's checks."""
    return tw.tol.max(axis=0, keepdims=True)


def _cross(tw: Twin, tol: np.ndarray | None = None) -> tuple[float, float]:
    """max_t |projected - accumulated| / tolerance (t = 0 against eps: W = W0 exactly) and the deviation."""
    tol = tw.tol if tol is None else tol
    dev = np.abs(tw.proj - tw.acc).max(axis=(2, 3))
    ratio = dev / (tol + 1e-300)
    ratio[:, 0] = dev[:, 0] / EPS
    return float(ratio.max()), float(dev.max())


def check_cross(ctx: Context, tw: Twin, what: str = "", tol: np.ndarray | None = None) -> None:
    """Accumulated and projected coefficients agree at every step (within the rounding tolerance)."""
    ratio, dev = _cross(tw, tol)
    ctx.bound(
        f"rho computed two ways agree at every step: max_t |projected - accumulated| / tolerance "
        f"[{tw.label}]{what}",
        ratio,
        1.0,
        why="rounding of T GD steps in W and of T additions of the coefficients (module docstring)"
        + ("; the main run's tolerance" if tol is not None else ""),
        details={"max deviation": dev, "max tolerance": float((tw.tol if tol is None else tol).max())},
    )


SPAN_DECAY = 1e-3
"""Per-step pull towards the anchor in the (5.1) control: the part of ``W - W0`` it moves out of
span{x_i} reads 5.6e-3 of ``||W - W0||`` at tiny (150 steps; the GD displacement in span dominates), against
the check's rounding allowance ``64 eps sqrt(d) T`` = 1.3e-11 there: the control breaks by ~4e8."""


def _span_allowance(d: int, steps: int) -> float:
    """Rounding allowance of the relative span residual: 64 eps sqrt(d) T (T steps, one projection)."""
    return float(64 * EPS * np.sqrt(d) * steps)


def check_span(ctx: Context, tw: Twin, d: int, steps: int) -> None:
    """(5.1): ``W - W0`` stays in ``span{x_i}`` at every step, to rounding."""
    allowance = _span_allowance(d, steps)
    ctx.bound(
        f"(5.1) holds along GD: max_t ||(W - W0) - P D^-1 X||_F / ||W - W0||_F [{tw.label}]",
        float(tw.span[:, 1:].max()),
        allowance,
        why="exact in exact arithmetic; the residual is rounding of T steps and of one projection (64 eps "
        "sqrt(d) T)",
        resolution=f"a part of W - W0 outside span{{x_i}} above {allowance:.2g} of its norm (the decay "
        "control's drift reads ~5e-3, SPAN_DECAY)",
    )


def _recursions(tw: Twin, tol: np.ndarray | None = None) -> tuple[float, float, float]:
    """(increments vs formula, min signed increment, max wrong-sign coefficient), each over its tolerance."""
    tol = tw.tol if tol is None else tol
    dP = np.diff(tw.proj, axis=1)
    inc_tol = tol[:, 1:, None, None] + tol[:, :-1, None, None]
    signed = tw.sign[None, None] * dP
    wrong = np.maximum(-tw.sign[None, None] * tw.proj, 0) / (tol[:, :, None, None] + 1e-300)
    return (
        float((np.abs(dP - tw.formula) / inc_tol).max()),
        float((signed / inc_tol).min()),
        float(wrong[:, 1:].max()),
    )


def check_recursions(ctx: Context, tw: Twin, what: str = "", tol: np.ndarray | None = None) -> None:
    """(5.3)-(5.5) along GD: exact increments, sign structure and monotonicity at every step."""
    inc, mono, wrong = _recursions(tw, tol)
    main = "" if tol is None else "; the main run's tolerance"
    ctx.bound(
        f"(5.4)/(5.5): projected increments = formula at every step, max_t |difference| / tolerance "
        f"[{tw.label}]{what}",
        inc,
        1.0,
        why="the increment of projected coefficients carries the rounding of both ends (module docstring)"
        + main,
    )
    ctx.bound(
        f"rho_bar nondecreasing and rho_under nonincreasing at every step: min_t j y_i Delta rho / tolerance "
        f"[{tw.label}]{what}",
        mono,
        -1.0,
        side=">=",
        why="(5.4)/(5.5) with l' < 0 and sigma' >= 0: j y_i Delta rho >= 0; rounding tolerance as above"
        + main,
    )
    ctx.bound(
        f"rho_bar = 0 for j = -y_i and rho_under = 0 for j = y_i at every step (projected, over the "
        f"tolerance) [{tw.label}]{what}",
        wrong,
        1.0,
        why="(5.3) starts at 0 and every increment has the sign j y_i; checked on the coefficients projected "
        "from full GD (the accumulated ones have that sign by construction of the coefficient-form map), "
        "rounding tolerance of the projection (module docstring)" + main,
    )


def _closed_forms(tw: Twin, tol: np.ndarray | None = None) -> tuple[float, float]:
    """(A.1) and (A.2): max_t |projected - cumulative formula sum| / (2 tolerance), per part."""
    tol = tw.tol if tol is None else tol
    closed = np.concatenate([np.zeros_like(tw.formula[:, :1]), np.cumsum(tw.formula, axis=1)], axis=1)
    out = []
    for mask in (tw.sign > 0, tw.sign < 0):
        part = np.where(mask, tw.proj, 0.0)
        dev = np.abs(part - np.where(mask, closed, 0.0)).max(axis=(2, 3))
        out.append(float((dev / (2 * tol + 1e-300))[:, 1:].max()))
    return out[0], out[1]


def check_closed_forms(ctx: Context, tw: Twin, what: str = "", tol: np.ndarray | None = None) -> None:
    """(A.1)/(A.2): the projected rho_bar, rho_under equal the cumulative sums of the formula increments."""
    for name, ratio in zip(("(A.1) rho_bar", "(A.2) rho_under"), _closed_forms(tw, tol), strict=True):
        ctx.bound(
            f"{name}(t) = closed-form sum, max_t |difference| / tolerance [{tw.label}]{what}",
            ratio,
            1.0,
            why="projected coefficients vs the cumulative sum of the formula increments: rounding of both "
            "(module docstring), doubled for the T-term sum"
            + ("" if tol is None else "; the main run's tolerance"),
        )


# -- the claims -------------------------------------------------------------------------------------


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
    budget = ctx.param("budget", tiny=10, quick=60, full=300)
    ctx.zero(
        "(5.1) existence: one GD step of L_S (3.1), differentiated by SymPy, stays in w + span{x_i} "
        "(symbolic n=2, d=3, both classes j)",
        autodiff_step()["span"],
        why="exact: generic inputs, activation, loss and other neurons; the gradient is taken from the loss, "
        "not written as a combination of the x_i",
    )
    ctx.note(
        "Uniqueness: (5.1) is the linear map P -> P D^-1 X, whose left inverse V -> V X^T G^-1 D exists when "
        "G = X X^T is invertible; the projected coefficients of the numeric checks are computed with it "
        "(SymPy, generic n=2, d=3: residual of the identity "
        f"{'0' if projection_identity_residual().is_zero_matrix else 'NONZERO'}; an identity of linear "
        "algebra, so a note). The numeric content of uniqueness is that these projected coefficients equal "
        "the ones GD accumulates (below), which fails with dependent inputs (the d < n control). "
        "(5.2) splits rho = rho 1(rho >= 0) + rho 1(rho <= 0), a definition that holds for every rho; its "
        "content, that the sign of rho_{j,r,i} is j y_i, is Lemma 5.2's."
    )
    fams = _families(ctx, n, d)
    record_independence(ctx, fams)
    check_margin_bracket(ctx, fams[0].X, _margin_bracket(fams[0].X)[0])
    twins = _twins(ctx, fams, m, seeds, steps)
    for tw in twins:
        check_span(ctx, tw, d, steps)
        check_cross(ctx, tw)
    _search(ctx, budget)
    with ctx.control(
        "linearly dependent inputs (d < n)",
        breaks="linearly independent inputs (implied by near orthogonality)",
        must_break=["rho computed two ways agree*"],
    ):
        Xd, yd = _data(ctx, "dependent", n, max(n // 2, 1))
        check_cross(
            ctx,
            twin_runs(ctx, "gd-dependent", Xd, yd, m, (0.5,), 1, steps),
            " (d < n)",
            _control_tol(twins[0]),
        )
    with ctx.control(
        f"GD plus weight decay {SPAN_DECAY:g} per step towards a fixed random anchor (out of span)",
        breaks="GD (3.2) on the fixed-readout net",
        must_break=["(5.1) holds along GD*"],
    ):
        f = fams[0]
        check_span(ctx, twin_runs(ctx, "gd-decay", f.X, f.y, m, (0.5,), 1, steps, decay=SPAN_DECAY), d, steps)


def _dependent_control(ctx: Context, n: int, m: int, steps: int, tol: np.ndarray, check) -> None:
    """The inputs' independence broken (d = n/2 < n): the pseudo-inverse's coefficients are one of many."""
    Xd, yd = _data(ctx, "dependent", n, max(n // 2, 1))
    check(ctx, twin_runs(ctx, "gd-dependent", Xd, yd, m, (0.5,), 1, steps), " (d < n)", tol)


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
    hypotheses=["GD (3.2) with the logistic loss, $\\ell'<0$", LIN_INDEP],
)
def lemma_5_2(ctx: Context) -> None:
    n, d, m, steps, seeds = _sizes(ctx)
    ctx.zero(
        "(5.4)/(5.5): the coefficients of one GD step of L_S (3.1), differentiated by SymPy and projected by "
        "(5.1), equal -eta/(nm) l'_i sigma'_i ||x_i||^2 1(y_i = j) + eta/(nm) l'_i sigma'_i ||x_i||^2 "
        "1(y_i = -j) (symbolic n=2, d=3, labels (+1, -1), both classes j)",
        autodiff_step()["increment"],
        why="exact: generic inputs, activation, loss and other neurons; the gradient is taken from the loss, "
        "independently of the printed (3.2), (5.4), (5.5)",
    )
    fams = _families(ctx, n, d)
    record_independence(ctx, fams)
    twins = _twins(ctx, fams, m, seeds, steps)
    # (5.3)'s rho(0) = 0 is W(0) - W(0) = 0, true by construction (no check); its content is the sign
    # structure of every later step, checked on the projected coefficients in check_recursions.
    for tw in twins:
        check_recursions(ctx, tw)
    _figure(ctx, twins[0])
    tol = _control_tol(twins[0])
    f = fams[0]
    with ctx.control(
        "gradient ascent on L_S (the update's sign flipped)",
        breaks="GD (3.2) with the logistic loss, $\\ell'<0$",
        must_break=["rho_bar nondecreasing and rho_under nonincreasing*"],
    ):
        check_recursions(
            ctx, twin_runs(ctx, "gd-ascent", f.X, f.y, m, (0.5,), 1, steps, ascent=True), " (ascent)", tol
        )
    with ctx.control(
        "linearly dependent inputs (d < n)",
        breaks=LIN_INDEP,
        must_break=["(5.4)/(5.5): projected increments*"],
    ):
        _dependent_control(ctx, n, m, steps, tol, check_recursions)


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
    hypotheses=["GD (3.2) with the logistic loss", LIN_INDEP],
)
def lemma_A_3(ctx: Context) -> None:
    n, d, m, steps, seeds = _sizes(ctx)
    fams = _families(ctx, n, d)
    record_independence(ctx, fams)
    twins = _twins(ctx, fams, m, seeds, steps)
    for tw in twins:
        check_closed_forms(ctx, tw)
    tol = _control_tol(twins[0])
    f = fams[0]
    with ctx.control(
        "gradient ascent on L_S (the update's sign flipped)",
        breaks="GD (3.2) with the logistic loss",
        must_break=["(A.1)*", "(A.2)*"],
    ):
        check_closed_forms(
            ctx, twin_runs(ctx, "gd-ascent", f.X, f.y, m, (0.5,), 1, steps, ascent=True), " (ascent)", tol
        )
    with ctx.control("linearly dependent inputs (d < n)", breaks=LIN_INDEP, must_break=["(A.1)*", "(A.2)*"]):
        _dependent_control(ctx, n, m, steps, tol, check_closed_forms)
