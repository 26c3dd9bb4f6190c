r"""kou2023 Appendices E-F (ReLU): cross-class coefficients become negligible (E.2, E.3) and the stable-rank
bound (F.1); and the main-text heuristics (5.8), (5.9), (5.11), (5.12) as measured relative errors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import numpy as np

from numeric.data.near_orthogonal import alternating_labels, controlled_gram, gaussian_gram
from numeric.training.reduced_gd import log_grid
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.evidence import fit_order, slope_shift
from verify.papers.kou2023.common import (
    EPS,
    Ens,
    Setup,
    eta_for,
    record_regime,
    regime_dimension,
    regime_kappa,
    run,
)
from verify.papers.kou2023.explicit import (
    class_means,
    coefficients,
    explicit_gd,
    forward,
    loss_derivative,
    points,
)
from verify.papers.kou2023.hypotheses import MARGINS_NONNEG, THEOREM_4_1, THEOREM_4_3
from verify.papers.kou2023.instances import Probe, Region, budget, instance, kappa_cap, search
from verify.papers.kou2023.patterns import note_a2_width
from verify.papers.kou2023.theorems import LARGE_INIT_NOTE
from verify.search import squash

BIG_INIT = r"$\sigma_0\le(CR_{\max}\sqrt{\log(mn/\delta)})^{-1}$"
BIG_STEP = r"$\eta\le nm/(CR_{\max}^2)$"


def _sizes(ctx: Context) -> tuple[int, int, int, int, int]:
    n = ctx.param("n", tiny=6, quick=10, full=20)
    m = ctx.param("m", tiny=8, quick=20, full=50)
    d = ctx.param("d", tiny=2000, quick=20000, full=200000)
    steps = ctx.param("steps", tiny=3_000, quick=20_000, full=500_000)
    seeds = ctx.param("seeds", tiny=2, quick=3, full=8)
    ctx.require(d >= n, f"need d >= n, got d={d}, n={n}")
    return n, m, d, steps, seeds


def _cross_parts(ens: Ens) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    r"""``under`` ``(B, R)``: :math:`\max|\underline\rho_{y_i,r,i'}|` over :math:`y_{i'}=-y_i`, all r;
    ``bar`` ``(B, R)``: :math:`\min_i\min_{r\in S_i^{(0)}}\overline\rho_{y_i,r,i}`; :math:`\kappa`; ``c1``
    ``(B,)``."""
    m, y = ens.setup.m, ens.setup.data.y
    P = ens.run.P
    j = np.repeat([1.0, -1.0], m)
    cross = (j[:, None] * y[None, :]) < 0
    under = np.abs(np.where(cross[None, None], P, 0.0)).max(axis=(2, 3))
    own = np.where(y[None, None, None] > 0, P[:, :, :m], P[:, :, m:])
    bar = np.nanmin(np.where(ens.own_class_active()[:, None], own, np.nan), axis=(2, 3))
    return under, bar, ens.setup.data.kappa, ens.balance_constant()


def _e2_checks(ctx: Context, ens: Ens, label: str) -> None:
    r"""The induction invariant (E.24) of Lemma E.2's proof at every record, a supporting check:
    :math:`|\underline\rho^{(t)}_{y_i,r,i'}|\le\beta+1+R_{\min}^{-2}pn\,\overline\rho^{(t)}_{y_i,r',i}/c_1`
    (:math:`c_1` the member's measured E.1 balance constant). Its slack is the proof's unit (the largest
    one-step move): it catches a step that moves a cross-class coefficient by more than 1, or an
    inactive neuron that moves, not the lemma's :math:`O(R_{\min}^{-2}pn)` content
    (:func:`_e2_conclusion`)."""
    under, bar, kappa, c1 = _cross_parts(ens)
    beta = np.abs(ens.run.model.init.Z0).max(axis=(1, 2))
    inv = (under - beta[:, None] - 1 - kappa * bar / c1[:, None]).max()
    ctx.bound(
        f"(E.24) |rho_under_(y_i,r,i')| <= beta + 1 + R^-2 p n rho_bar/c1 at every record (max excess) "
        f"[{label}]",
        float(inv),
        0.0,
        why="the induction invariant of the proof, c1 = measured E.1 balance constant; exact inequality "
        "(coefficients O(10), rounding ~1e-14)",
        resolution="a cross-class coefficient that exceeds the invariant, i.e. moves by more than the "
        "proof's one unit beyond beta + R^-2 p n rho_bar/c1 (a per-step change eta R^2/(nm) |l'| above 1, "
        f"or an inactive neuron that still moves); measured max |rho_under| = {float(under.max()):.3g}, so "
        "the invariant's unit slack is far from binding: the lemma's O(R^-2 p n) bound is the conclusion "
        "check's",
    )


E2_NAME = (
    "Lemma E.2 from T_2 on, c = 2/c1: max over the last decade [T/10, T] of |rho_under|/((2/c1) R^-2 p n "
    "rho_bar)"
)


def _e2_conclusion(ctx: Context, ens: Ens, label: str) -> None:
    r"""Lemma E.2's conclusion :math:`|\underline\rho^{(t)}_{y_i,r,i'}|\le cR_{\min}^{-2}pn\,
    \overline\rho^{(t)}_{y_i,r',i}` for :math:`t\ge T_2`, read on the last decade :math:`[T/10,T]` with the
    proof's constant :math:`c=2/c_1` (its last display: :math:`\beta+1+\kappa\overline\rho/c_1\le
    2\kappa\overline\rho/c_1` once :math:`\overline\rho\ge c_1(\beta+1)/\kappa`, which defines its
    :math:`T_2`; :math:`c_1` the member's measured E.1 balance constant).

    Where the run reaches the proof's :math:`T_2` a violation refutes the proof's :math:`(T_2,c)` and
    FAILs. Before it (every family here: :math:`\overline\rho\approx7`-:math:`10` of the
    :math:`20`-:math:`45` needed at quick) the lemma allows a later :math:`T_2`, so a violation there is
    undecided, not a FAIL; a PASS says that the measured :math:`T_2` (first record from which the bound
    holds at every later one, :func:`_e3_window`) is at most :math:`T/10`, with :math:`c` independent of
    :math:`\kappa`: a cross-class coefficient that is not :math:`O(R_{\min}^{-2}pn)\overline\rho`
    (one that stays at the invariant's unit level, or grows with :math:`\overline\rho` at a rate
    above :math:`(2/c_1)\kappa`) is over the bound."""
    under, bar, kappa, c1 = _cross_parts(ens)
    beta = np.abs(ens.run.model.init.Z0).max(axis=(1, 2))
    w = ens.t >= ens.t[-1] / 10
    ratio = under[:, w] / (2 / c1[:, None] * kappa * bar[:, w])
    past_t2 = bar[:, w] >= (c1 * (beta + 1) / kappa)[:, None]
    window = _e3_window(ens)
    measured_t2 = [float(ens.t[np.argmax(row)]) if row.any() else None for row in window]
    details = {
        "ratio at T": ratio[:, -1],
        "rho_bar(T)": bar[:, -1],
        "proof's T_2 needs rho_bar >=": c1 * (beta + 1) / kappa,
        "measured T_2 (c = 2/c1)": measured_t2,
        "c1": c1,
    }
    name = f"{E2_NAME} [{label}]"
    if ratio.max() > 1 and not (past_t2 & (ratio > 1)).any():
        ctx.undecided(
            name,
            "violated only before the proof's T_2 (rho_bar < c1 (beta + 1)/(R^-2 p n)): the lemma allows a "
            f"later T_2 (max ratio {ratio.max():.3g})",
            measured=float(ratio.max()),
        )
        return
    ctx.bound(
        name,
        float(ratio.max()),
        1.0,
        why="the lemma's inequality with the proof's c = 2/c1, at every record of the last decade and every "
        "member (c1 measured per member); exact inequality of measured coefficients",
        resolution="a cross-class coefficient above (2/c1) R^-2 p n rho_bar on [T/10, T] (kappa = "
        f"{kappa:.3g}, rho_bar(T) {bar[:, -1].min():.3g}-{bar[:, -1].max():.3g}: a bound of "
        f"{(2 / c1 * kappa * bar[:, -1]).min():.3g}, against the (E.24) level beta + 1 ~ 1); a FAIL only "
        "past the proof's T_2 (here "
        + ("reached" if past_t2.any() else "past the horizon: a violation would read undecided")
        + ")",
        details=details,
    )


def _e24_search(ctx: Context, kappa: float, evals: int) -> None:
    """Instance search of the invariant (E.24) (:func:`_e2_checks`), the proof's induction step; the
    lemma's conclusion is not searched: 1000-step instances are far before any T_2
    (:func:`_e2_conclusion`)."""
    search(
        ctx,
        "search: worst (E.24) excess over nearly orthogonal data and init",
        Region((0.0, 0.0), kappa, m=3, steps=1000),
        lambda probe, e: _e2_checks(probe, e, "instance"),
        ["(E.24)*"],
        budget=evals,
        why="every record, c1 the instance's measured E.1 balance constant; the excess scores 1 + excess "
        "(coefficient units); the conclusion itself needs t >= T_2, past 1000 steps, and is not searched; "
        "instances have m = 3 and R^2 kappa <= 0.1, not always Lemma E.1's measured premise, which (E.24)'s "
        "induction does not use (its E.1 step holds with the measured c1 by definition)",
    )


def _e2_families(ctx: Context) -> None:
    """Lemma E.2 / Corollary E.3 (one statement, one body): the invariant (E.24) on two nearly orthogonal
    families inside the measured regime (Gaussian data, exact Wishart Gram; controlled Gram): the lemma's
    conclusion on the last decade with the proof's c = 2/c1 (:func:`_e2_conclusion`), the invariant (E.24)
    as a supporting check (:func:`_e2_checks`) and its search, and the large-step control.

    No kappa-scaling check: inside the measured premise 2 c' kappa/c1 <= 1/2 the families span a factor ~4
    in kappa above the floor where one step's overshoot (eta R^2/(nm)/2 = 0.025) dominates |rho_under|, and
    3-point fits of |rho_under|/rho_bar against kappa there (controlled Gram, quick) gave orders 0.95-1.28
    with 95% intervals about [-1, 3.4]: order 1 is not separated from 0 or 2."""
    n, m, d, steps, seeds = _sizes(ctx)
    evals = budget(ctx)
    rng = ctx.rng("data").host
    y = alternating_labels(n)
    # a quarter of the regime's largest kappa (R^2 kappa <= 0.1), where Lemma E.1's premise 2 c' kappa/c1
    # <= 1/2 holds with the measured constants (0.23, 0.30 at quick); at 0.9 of it (the former
    # families, chosen so that T_2 falls in the horizon) it read 0.85-1.6: regime not reached. The proof's
    # T_2 is past the horizon here, so the conclusion reads undecided where violated (_e2_conclusion).
    # Gaussian: sigma0^2 D kept at 1e-6 d
    D = regime_dimension(n, d, 0.0, fraction=0.25)
    gauss = run(
        ctx, "gauss", Setup(gaussian_gram(rng, y, D), m, (0.0,), seeds, 0.05, 1e-3 * np.sqrt(d / D), steps)
    )
    data = controlled_gram(rng, y, regime_kappa(0.0, fraction=0.25), d=d)
    gram = run(ctx, "gram", Setup(data, m, (0.0,), seeds, 0.05, 1e-3, steps))
    record_regime(ctx, gauss, gram)
    note_a2_width(
        ctx,
        [gauss, gram],
        "Lemma E.1's premise 2 c' kappa/c1 <= 1/2 (the near-orthogonality reading) only: the (E.24) "
        "invariant reads the measured balance constant c1, no width constant",
    )
    for ens in (gauss, gram):
        _e2_conclusion(ctx, ens, ens.setup.describe())
        _e2_checks(ctx, ens, ens.setup.describe())
    _e24_search(ctx, 0.3, evals)
    under, bar, kappa, _ = _cross_parts(gram)
    ctx.figure(
        "cross-class |rho_under| vs R^-2 p n rho_bar (controlled Gram, first member)",
        series=[
            Series("max |rho_under|", gram.t[1:], under[0, 1:]),
            Series("kappa min rho_bar", gram.t[1:], kappa * bar[0, 1:]),
        ],
        xlabel="step t",
        logx=True,
    )
    with ctx.control(
        "step far above the stability condition, eta R^2/(nm) = 20",
        breaks=BIG_STEP,
        must_break=["(E.24)*"],
    ):
        e = run(ctx, "big", Setup(gram.setup.data, m, (0.0,), seeds, 20.0, 1e-3, steps // 10))
        _e2_checks(ctx, e, e.setup.describe())


@claim(
    "kou2023:lemma-E.2",
    title="ReLU: after T_2 the cross-class coefficients are O(R^-2 p n) times the own-class ones",
    source="Lemma E.2 (induction invariant (E.24))",
    statement=r"There are $T_2$, $c$ with $|\underline\rho^{(t)}_{y_i,r,i'}|\le "
    r"cR_{\min}^{-2}pn\,\overline\rho^{(t)}_{y_i,r',i}$ "
    r"for $t\ge T_2$, $r\in[m]$, $r'\in S_i^{(0)}$, $y_{i'}=-y_i$.",
    hypotheses=[*THEOREM_4_3],
)
def lemma_E_2(ctx: Context) -> None:
    _e2_families(ctx)


@claim(
    "kou2023:corollary-E.3",
    title="ReLU: there are T_2 and c with |rho_under| <= c R^-2 p n rho_bar for t >= T_2 (restating E.2)",
    source="Corollary E.3",
    statement=r"There exist $T_2$ and $c$ such that for $t\ge T_2$: $|\underline\rho^{(t)}_{y_i,r,i'}|\le "
    r"cR_{\min}^{-2}pn"
    r"\,\overline\rho^{(t)}_{y_i,r',i}$.",
    hypotheses=[*THEOREM_4_3],
)
def corollary_E_3(ctx: Context) -> None:
    """The paper obtains it "directly" from Lemma E.2 and prints the same inequality: it adds nothing to
    check, so it runs the lemma's body (the two verdicts cannot differ). Its use is in Lemma F.1's proof,
    which reads the window where it holds (:func:`_e3_window`, kou2023:lemma-F.1)."""
    _e2_families(ctx)


def _e3_window(ens: Ens) -> np.ndarray:
    r"""``(B, R)``: records from which Corollary E.3 holds at every later record, with the proof's
    :math:`c=2/c_1` (:math:`c_1` the member's measured E.1 balance constant): the "for t >= T" of the
    F.1 proof, measured rather than taken from (E.24)'s sufficient :math:`T_2` (which needs
    :math:`\overline\rho\ge c_1(\beta+1)/\kappa`, beyond every affordable horizon at :math:`\kappa=0.05`)."""
    under, bar, kappa, c1 = _cross_parts(ens)
    holds = under <= 2 / c1[:, None] * kappa * bar
    holds[:, 0] = False  # t = 0: every coefficient is 0, nothing to hold
    return np.flip(np.logical_and.accumulate(np.flip(holds, axis=1), axis=1), axis=1)


def _f2_ratios(ens: Ens) -> tuple[np.ndarray, np.ndarray]:
    r"""The two GD-specific steps of (F.2), per member, record and class ``(B, R, 2)``:

    ``cancel``: :math:`\sum_r\sum_i\rho_{j,r,i}\|x_i\|^{-2}` over
    :math:`\tfrac12R_{\max}^{-2}\sum_{i\in S_j}\sum_{r\in S_i^{(0)}}\overline\rho_{j,r,i}` (the paper's
    second inequality: by Corollary E.3 the cross-class coefficients :math:`\underline\rho\le0` cancel at
    most half of the own-class mass; an arbitrary coefficient matrix has no such floor);

    ``growth``: the (F.2) lower bound
    :math:`\frac1{2\sqrt m}R_{\max}^{-2}\sum_{i\in S_j}|S_i^{(0)}|\,c_2\log(1+\frac{\eta|S_i^{(0)}|
    \|x_i\|^2e^{-\beta}}{2nm^2}t)` over :math:`\|A_j\mathbf 1\|_2` (Cauchy-Schwarz, the step above and
    Lemma E.1's second bullet with :math:`c_2=1/(c'(1+\kappa/c_1))`, :math:`c'=m/\min_i|S_i^{(0)}|`, as in
    lemma-E.1): :math:`\|A_j\mathbf 1\|` must grow like :math:`\log t`.
    """
    m, data, setup = ens.setup.m, ens.setup.data, ens.setup
    P = ens.run.P / data.norms2  # rho_(j,r,i) ||x_i||^-2
    S0 = ens.own_class_active()  # (B, m, n)
    beta = np.abs(ens.run.model.init.Z0).max(axis=(1, 2))
    _, _, kappa, c1 = _cross_parts(ens)
    c2 = 1 / (ens.cprime() * (1 + kappa / c1))  # (B,)
    t = ens.t[None, :, None]
    cancel, growth = [], []
    for rows, cls in ((slice(0, m), data.y > 0), (slice(m, 2 * m), data.y < 0)):
        own = (ens.run.P[:, :, rows][..., cls] * S0[:, None][..., cls]).sum(axis=(2, 3))
        with np.errstate(invalid="ignore", divide="ignore"):
            cancel.append(P[:, :, rows].sum(axis=(2, 3)) / (0.5 * own / data.R_max**2))
            S = S0[..., cls].sum(axis=1)[:, None, :]  # |S_i(0)|, (B, 1, n_j)
            rate = setup.eta * S * data.norms2[cls] * np.exp(-beta)[:, None, None] / (2 * data.n * m**2)
            low = (S * c2[:, None, None] * np.log1p(rate * t)).sum(axis=-1) / (2 * np.sqrt(m) * data.R_max**2)
            growth.append(low / np.linalg.norm(P[:, :, rows].sum(axis=-1), axis=-1))
    return np.stack(cancel, -1), np.stack(growth, -1)


def _f2_premise(ens: Ens) -> np.ndarray:
    r"""``(B, 2)``, per member and class :math:`j` (``+1`` first): the premise of (F.2)'s second
    inequality, :math:`q_j=m|S_{-j}|\,c\,R^2\kappa/(|S_j|\min_{i\in S_j}|S_i^{(0)}|)\le\tfrac12` with the
    proof's :math:`c=2/c_1` (:math:`c_1` the member's measured E.1 balance constant,
    :math:`R^2\kappa=R_{\max}^2pn/R_{\min}^4`). In the Corollary E.3 window the cross-class coefficients
    cancel at most the fraction :math:`q_j` of :math:`R_{\max}^{-2}` times the own-class mass on
    :math:`S_i^{(0)}`, so the ratio of :func:`_f2_ratios`' ``cancel`` is at least :math:`2(1-q_j)`; the paper
    reaches :math:`q_j\le\tfrac12` by taking the near-orthogonality constant C large enough, which the
    claims' C = 10 (Lemma E.1's with :math:`c'=2.5`, :math:`c_1=R^{-2}`) does not ensure when the measured
    :math:`c_1` or :math:`c'` is worse. ``inf`` where a point of class j has :math:`S_i^{(0)}` empty."""
    m, data = ens.setup.m, ens.setup.data
    S0 = ens.own_class_active()
    _, _, kappa, c1 = _cross_parts(ens)
    R2kappa = (data.R_max / data.R_min) ** 2 * kappa
    q = []
    for cls in (data.y > 0, data.y < 0):
        smallest = S0[..., cls].sum(axis=1).min(axis=1)  # min_(i in S_j) |S_i(0)|, (B,)
        with np.errstate(divide="ignore"):
            q.append(m * np.sum(~cls) * (2 / c1) * R2kappa / (np.sum(cls) * smallest))
    return np.stack(q, -1)


def _step1_reading(ens: Ens) -> str:
    r"""The first (F.2) step, recorded rather than checked: the minimum over the Corollary E.3 window of
    :func:`_f2_ratios`' ``cancel`` next to :math:`2(1-q_j)` (:func:`_f2_premise`), per member-class.

    Inside the premise :math:`q_j\le\tfrac12` the step cannot fail: in the E.3 window the cross-class
    coefficients cancel at most the fraction :math:`q_j` of the own-class mass over :math:`R_{\max}^2`, so
    ratio :math:`\ge2(1-q_j)\ge1` for every coefficient matrix the window admits; a check there would test
    the window, which ``_e3_window`` already measures. Outside it the ratio can go negative."""
    window = _e3_window(ens)
    q = _f2_premise(ens)
    cancel, _ = _f2_ratios(ens)
    low = np.where(window[:, :, None], cancel, np.inf).min(axis=1)
    pairs = ", ".join(f"{r:.3g} (q = {v:.3g})" for r, v in zip(low.ravel(), q.ravel(), strict=True))
    return f"min ratio over the E.3 window per member-class: {pairs}"


def _f1_checks(ctx: Context, ens: Ens, label: str) -> None:
    r"""What Lemma F.1's proof states about the GD iterates that a run can break, for :math:`t` in the
    Corollary E.3 window (:func:`_e3_window`): the (F.2) lower bound on :math:`\|A_j\mathbf 1\|`
    (:func:`_f2_ratios`' ``growth``). The conclusion :math:`\mathrm{sr}(W_j(T))` against the proof's bound is
    recorded, not checked (:func:`_sr_reading`).

    The growth step is checked on the member-classes inside the premise :math:`q_j\le\tfrac12` of (F.2)'s
    cancellation step (:func:`_f2_premise`), on which it rests; outside it the step is not implied (the near
    orthogonality is not enough for it) and is not scored. More than half of the member-classes outside:
    undecided. The cancellation step itself cannot fail inside the premise and is recorded, not checked
    (:func:`_step1_reading`)."""
    name = f"(F.2) steps in the Corollary E.3 window [{label}]"
    window = _e3_window(ens)
    q = _f2_premise(ens)
    inside = q <= 0.5
    outside = int(np.sum(~inside))
    if 2 * outside > inside.size:
        ctx.undecided(
            name,
            "the step's premise q_j = m |S_-j| c R^2 kappa/(|S_j| min|S_i(0)|) <= 1/2 (c = 2/c1; the "
            f"paper's 'C large enough') fails on {outside} of {inside.size} member-classes "
            f"(q up to {q.max():.3g})",
        )
    elif not window[:, -1][inside.any(axis=1)].all():
        ctx.undecided(
            name,
            "Corollary E.3 (c = 2/c1) does not hold at the horizon for some member: no t >= T to check",
        )
    else:
        cancel, growth = _f2_ratios(ens)
        checked = window[:, :, None] & inside[:, None, :]
        scope = (
            f"{outside} of {inside.size} member-classes outside the premise q_j <= 1/2, not checked; "
            if outside
            else ""
        )
        ctx.bound(
            "(F.2) ||A_j 1|| >= (1/(2 sqrt m)) R_max^-2 sum_(i in S_j) |S_i(0)| c2 log(1 + eta |S_i(0)| "
            f"||x_i||^2 e^-beta t/(2 n m^2)) for t >= T: max bound/||A_j 1|| [{label}]",
            float(np.max(growth[checked])),
            1.0,
            why=f"{scope}the proof's lower bound with its constants instantiated as in lemma-E.1 (c', c1 "
            "measured, c2 = 1/(c'(1 + kappa/c1))); it fails if ||A_j 1|| (the dominant direction's weight) "
            "stops growing like log t. Its slack (c' ~ 2, the 1/2 of the cancellation step, Cauchy-Schwarz) "
            "is a factor ~6-20: a wrong constant below that goes unnoticed. T = the first record from which "
            "E.3 holds (c = 2/c1) at every later record",
            details={
                "bound/||A_j 1|| at T": growth[:, -1],
                "T (E.3 window) per member": ens.t[np.argmax(window, axis=1)],
                "q_j": q,
                "cancellation ratio at T (recorded: >= 2 (1 - q_j) >= 1 inside the premise)": cancel[:, -1],
            },
        )


def _sr_reading(ens: Ens) -> str:
    r"""Lemma F.1's conclusion at the horizon, recorded: :math:`\mathrm{sr}(W_j(T))` over the proof's bound
    :math:`\|A_jX\|_F^2\,\mathbf 1^\top G^{-1}\mathbf 1/\|A_j\mathbf 1\|^2`.

    Not a check: :math:`\mathrm{sr}(W_j-W_j^{(0)})\le` that bound holds for every matrix
    (:math:`W_j-W_j^{(0)}=A_jX` and :math:`(W_j-W_j^{(0)})X^\top G^{-1}\mathbf 1=A_j\mathbf 1`), so the ratio
    can exceed 1 only through the share of :math:`W_j^{(0)}` in :math:`W_j(T)`, which the small-init regime
    makes negligible; what a run can break is the (F.2) growth step (:func:`_f1_checks`) that keeps the bound
    O(1)."""
    m, data = ens.setup.m, ens.setup.data
    q = float(np.ones(data.n) @ np.linalg.solve(data.G, np.ones(data.n)))
    dK = ens.run.increment_gram()[:, -1]
    PD = ens.run.P[:, -1] / data.norms2
    full = ens.stable_rank()[:, -1]
    bound = np.stack(
        [
            np.einsum("bii->b", dK[:, sl, sl]) * q / (PD[:, sl].sum(axis=-1) ** 2).sum(axis=-1)
            for sl in (slice(0, m), slice(m, 2 * m))
        ],
        -1,
    )
    worst = float((full / bound).max())
    return (
        f"sr(W_j(T)) / the instantiated F.1 bound at T = {ens.t[-1]:g}: max {worst:.3g} "
        f"(sr(W_j(T)) {', '.join(f'{v:.3g}' for v in full.ravel())}; bound "
        f"{', '.join(f'{v:.3g}' for v in bound.ravel())})"
    )


@claim(
    "kou2023:lemma-F.1",
    title="ReLU stable rank bounded: limsup ||W_j||_F^2/||W_j||_2^2 <= C (the F.1 chain instantiated)",
    source="Lemma F.1 (first bullet of Theorem 4.3), eq. (F.2)",
    statement=r"$\limsup_t\|W^{(t)}_j\|_F^2/\|W^{(t)}_j\|_2^2\le C=O(1)$; proof: $W_j-W_j^{(0)}=A_jX$, "
    r"$\|W_j-W_j^{(0)}\|_2\ge\|A_j\mathbf 1\|/\|X^\top(XX^\top)^{-1}\mathbf 1\|$, "
    r"$\|A_j\mathbf 1\|\ge C'R_{\max}^{-2}\sqrt m\,n\log t$ (F.2), "
    r"$\lambda_{\min}(XX^\top)\ge R_{\min}^2-np$.",
    hypotheses=[*THEOREM_4_3],
)
def lemma_F_1(ctx: Context) -> None:
    n, m, d, steps, seeds = _sizes(ctx)
    evals = budget(ctx)
    rng = ctx.rng("data").host
    y = alternating_labels(n)
    # a quarter of the regime's largest kappa (R^2 kappa <= 0.1): (F.2)'s premise q_j <= 1/2 (_f2_premise)
    # carries m/min|S_i(0)| ~ 2.5-3 and the measured 2/c1 ~ 4-5, so at half of it (kappa = 0.05) it failed on
    # 4 of 6 member-classes at quick (q up to 0.74); at kappa = 0.025 q <= 0.38 at quick and full
    data = controlled_gram(rng, y, regime_kappa(0.0, fraction=0.25), d=d)
    ens = run(ctx, "gram", Setup(data, m, (0.0,), seeds, 0.05, 1e-3, steps))
    record_regime(ctx, ens)
    note_a2_width(
        ctx,
        [ens],
        "c2 = 1/(c'(1 + kappa/c1)) of the (F.2) growth step, its premise q_j (min_(i in S_j) |S_i(0)| "
        "measured) and Lemma E.1's premise 2 c' kappa/c1 <= 1/2 (the near-orthogonality reading)",
    )
    _f1_checks(ctx, ens, ens.setup.describe())
    # the proof's two data steps are theorems about any Gram matrix (Gershgorin; 1^T G^-1 1 <= n/lambda_min
    # with lambda_min >= R_min^2/2 once R_min^2 >= 2 n p, implied by the regime): recorded, not checked
    ctx.note(
        f"Data steps of the proof (theorems, recorded): lambda_min(G) = "
        f"{float(np.linalg.eigvalsh(data.G).min()):.4g} >= R_min^2 - (n-1) p = "
        f"{data.R_min**2 - (data.n - 1) * data.p:.4g} (Gershgorin); ||X^T G^-1 1||^2 = 1^T G^-1 1 = "
        f"{float(np.ones(n) @ np.linalg.solve(data.G, np.ones(n))):.4g} <= 2n/R_min^2 = "
        f"{2 * n / data.R_min**2:.4g}"
    )
    ctx.note(f"Lemma F.1's conclusion at the horizon (recorded, _sr_reading): {_sr_reading(ens)}.")
    search(
        ctx,
        "search: worst (F.2) growth-step ratio over nearly orthogonal data and init (E.3 window)",
        Region((0.0, 0.0), data.kappa, m=3, steps=1000),  # the main run's kappa: (F.2)'s premise (above)
        lambda probe, e: _f1_checks(probe, e, "instance"),
        ["(F.2)*"],
        budget=evals,
        why="the (F.2) growth step on every record of the instance's Corollary E.3 window (the limsup of "
        "sr(W_j) needs a long horizon: not searched)",
    )
    ctx.note(
        f"The (F.2) growth step is checked at kappa = {data.kappa:.3g} (a quarter of the C = 10 regime's "
        "0.1/R^2 at R = 1; the search at kappa <= that, R <= 1.3): its premise q_j = m |S_-j| (2/c1) "
        "R^2 kappa/(|S_j| min|S_i(0)|) <= 1/2 (the paper's 'C large enough') fails at the C = 10 edge "
        "with the measured c1 ~ 0.4-0.6 and c' = m/min|S_i(0)| ~ 3 (q = 1.05 on the full profile's old "
        "search instance at kappa = 0.082, where the cancellation sum went negative at t = 3): outside the "
        "premise the step is undecided and counted, not a violation."
    )
    ctx.note(
        "Lemma F.1's proof bounds the stable rank of W_j - W_j(0), while the statement (and Theorem 4.3) is "
        "about W_j; "
        "the gap closes only when ||W_j(0)|| << ||W_j - W_j(0)|| (small init, t large). No control: no "
        "declared hypothesis breaks the (F.2) growth step in a run (measured at quick on this data: its "
        "ratio is 0.096, 0.097, 0.096 at eta R^2/(nm) = 0.05, 1, 2; at 20 Corollary E.3 fails at the horizon "
        "and the step is undecided; outside near orthogonality its premise fails and it is not scored)."
    )
    ctx.note(LARGE_INIT_NOTE)
    ctx.note(
        "(F.2)'s cancellation step, sum_r sum_i rho_(j,r,i)/||x_i||^2 >= (1/2) R_max^-2 sum_(i in S_j) "
        "sum_(r in S_i(0)) rho_bar for t >= T, is recorded, not checked: inside its premise q_j <= 1/2 the "
        "Corollary E.3 window gives ratio >= 2 (1 - q_j) >= 1 for any coefficients, so it cannot fail. "
        f"Main run: {_step1_reading(ens)}."
    )
    corr = controlled_gram(rng, y, 0.9, d=d, adversarial=True)
    e = run(ctx, "correlated", Setup(corr, m, (0.0,), seeds, 0.05, 1e-3, steps))
    ctx.note(
        "Without near orthogonality (adversarial controlled Gram, opposite labels correlated, kappa = 0.9; "
        "a measurement, not a control: neither (F.2) growth nor the F.1 bound is shown to break there) the "
        f"premise fails and the cancellation ratio reads: {_step1_reading(e)}."
    )


# ------------------------------------------------------------------------------------ heuristics


def _eq58_violation(theta: np.ndarray) -> float:
    r"""Worst of :math:`r=|\ell'|e^q` and :math:`\tfrac12/r` (:math:`|\ell'|=1/(1+e^q)`), over 1 + 4 eps.

    :math:`q=700\tanh^2\theta\in[0,700)` maps every ``theta`` to a margin :math:`q\ge0` with
    :math:`e^q` finite in float64. 4 ulps: r is one exp, one addition and two divisions; the lower
    side is attained exactly at q = 0 (r = 1/2), so its rounding needs the same allowance.
    """
    q = 700.0 * np.tanh(theta[0]) ** 2
    r = (1 / (1 + np.exp(q))) / np.exp(-q)
    return float(max(r, 0.5 / r) / (1 + 4 * EPS))


@claim(
    "kou2023:equation-5.8",
    title="Heuristic (5.8): |l'_i| = Theta(exp(-y_i f(W, x_i))), with e^-q/2 <= |l'| <= e^-q for q >= 0",
    source="eq. (5.8), Sec. 5.1",
    statement=r"$|\ell_i'^{(t)}|=\Theta(e^{-y_if(W^{(t)},x_i)})$; precisely $e^{-q}/2\le1/(1+e^q)\le e^{-q}$ "
    r"for $q\ge0$.",
    hypotheses=[MARGINS_NONNEG],
)
def equation_5_8(ctx: Context) -> None:
    n, m, d, steps, seeds = _sizes(ctx)
    budget = ctx.param("budget", tiny=40, quick=200, full=1000)
    gamma = 0.5
    data = gaussian_gram(ctx.rng("data").host, alternating_labels(n), d)
    X = points(data.G, 2 * n)
    eta = eta_for(data, m, 0.05)
    grid = log_grid(max(steps // 10, 200) - 1)
    record = np.unique(np.concatenate([grid, grid + 1]))  # pairs (t, t + 1): |l'(t)| from the step
    W = explicit_gd(ctx, "gd", X, data.y, m, gamma, 1e-3, eta, record, seeds)
    k = np.flatnonzero(np.isin(record + 1, record))
    ell, rel = loss_derivative(W[:, k], W[:, k + 1], X, gamma, eta)
    _, F = forward(W[:, k], X, gamma, m)
    q = data.y * (F[..., 0, :] - F[..., 1, :])
    # rounding of e^q: each F is a mean of sigma(<w, x_i>), d-term dot products, so
    # |dq| <= (d + 2m) eps sum_(j,r) |w_jr| |x_i| / m; e^q adds one rounding
    dq = EPS * (2 * n + 2 * m) * (np.abs(W[:, k]) @ np.abs(X).T).sum(-2) / m
    tol = rel + dq + 2 * EPS
    ratio = ell * np.exp(q)  # |l'_i| e^(y_i f(W, x_i)), both read from the explicit run

    def check(mask: np.ndarray, label: str) -> None:
        ctx.bound(
            f"|l'| e^q <= 1, |l'| from the GD step, q = y f(W, x) [{label}]",
            float((ratio / (1 + tol))[mask].max()),
            1.0,
            why="(5.8) upper side e^-q; tolerance: the measured |l'| and e^q to their derived rounding "
            "(explicit.loss_derivative; (d + 2m) eps in q)",
        )
        ctx.bound(
            f"|l'| e^q >= 1/2, |l'| from the GD step, q = y f(W, x) [{label}]",
            float((ratio * (1 + tol))[mask].min()),
            0.5,
            side=">=",
            why="(5.8) lower side e^-q/2, attained as q -> 0: the run's smallest nonnegative margins put "
            "the measured ratio within (min ratio - 1/2) of it",
        )

    nonneg = q >= 0
    ctx.regime(MARGINS_NONNEG, q_min=float(q[nonneg].min()))
    check(
        nonneg,
        f"explicit full-batch GD, gamma = {gamma:g}, n={n}, m={m}, every step pair t <= {record[-1]}, q >= 0",
    )
    ctx.search(
        "search: worst of |l'| e^q and 1/(2 |l'| e^q) over margins q >= 0",
        _eq58_violation,
        {
            "q near 0": [np.array([1e-4]), np.array([-1e-2])],
            "q ~ 1-10": [np.array([0.05]), np.array([-0.1])],
            "q large (e^q near overflow)": [np.array([2.0]), np.array([-3.0])],
        },
        budget=budget,
        why="both sides of e^-q/2 <= |l'| <= e^-q as ratios (4 ulps of rounding on each), "
        "Nelder-Mead over q = 700 tanh^2(theta); the lower side is 1/2 exactly at q = 0",
    )
    ctx.note(
        f"(5.8) on the GD run: |l'| e^q in [{ratio[nonneg].min():.6g}, {ratio[nonneg].max():.6g}] over "
        f"margins q in [{q[nonneg].min():.3g}, {q[nonneg].max():.3g}]"
    )
    with ctx.control(
        "the run's negative margins (points not yet fitted, t <= a few steps)",
        breaks="margins $q\\ge0$",
        must_break=["|l'| e^q >= 1/2*"],
    ):
        if not (~nonneg).any():
            ctx.undecided("|l'| e^q >= 1/2 (negative margins)", "the run has no negative margin")
        else:
            check(~nonneg, "records with q < 0")


SEARCH_59 = (4, 5)  # (n, d) of (5.9)'s instance search


def _eq59_violation(theta: np.ndarray) -> float:
    r"""(5.9)'s worst ratio over i: :math:`|\langle w,x_i\rangle-\rho_i|` less rounding, over
    :math:`\sum_{i'\ne i}|\rho_{i'}|p/R_{\min}^2+\beta`.

    ``theta`` = (data ``X`` (n, d), coefficients :math:`\rho` (n), initial weight :math:`w^{(0)}`
    (d)); every value is an instance (any data, any coefficients): :math:`w=w^{(0)}+\sum_{i'}\rho_{i'}
    x_{i'}/\|x_{i'}\|^2`, :math:`p=\max_{i\ne k}|\langle x_i,x_k\rangle|`,
    :math:`\beta=\max_i|\langle w^{(0)},x_i\rangle|`. Rounding: w is a sum of n + 1 vectors and
    :math:`\langle w,x_i\rangle` a d-term dot product, so :math:`2(n+d+2)\epsilon` times the sum of
    the magnitudes of the terms of :math:`\langle w,x_i\rangle-\rho_i`.
    """
    n, d = SEARCH_59
    X = theta[: n * d].reshape(n, d)
    rho, w0 = theta[n * d : n * d + n], theta[n * d + n :]
    norms = np.linalg.norm(X, axis=1)
    w = w0 + (rho / norms**2) @ X
    G = X @ X.T
    p = np.abs(G[~np.eye(n, dtype=bool)]).max()
    beta = np.abs(X @ w0).max()
    rhs = (np.abs(rho).sum() - np.abs(rho)) * p / norms.min() ** 2 + beta
    terms = np.linalg.norm(w0) * norms + norms * (np.abs(rho) / norms).sum() + np.abs(rho)
    lhs = np.abs(X @ w - rho) - 2 * (n + d + 2) * EPS * terms
    return float((lhs / rhs).max())


def _eq59_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Three families: Gaussian data with small initialisation, nearly orthogonal data (p -> 0),
    and strongly correlated data with one dominant coefficient."""
    n, d = SEARCH_59

    def theta(X, rho, w0):
        return np.concatenate([X.ravel(), rho, w0])

    ortho = np.eye(n, d)
    dominant = np.array([10.0, 0.1, -0.1, 0.1])
    return {
        "Gaussian data, small init": [
            theta(rng.normal(size=(n, d)), rng.normal(size=n), 1e-3 * rng.normal(size=d)) for _ in range(2)
        ],
        "nearly orthogonal data": [
            theta(ortho + 1e-3 * rng.normal(size=(n, d)), rng.normal(size=n), 1e-2 * rng.normal(size=d))
            for _ in range(2)
        ],
        "correlated data, one dominant rho": [
            theta(1.0 + 0.3 * rng.normal(size=(n, d)), dominant, 1e-2 * rng.normal(size=d)) for _ in range(2)
        ],
    }


def _eq59_checks(
    ctx: Context, W: np.ndarray, X: np.ndarray, gamma: float, p: float, label: str, *, attained: bool
) -> None:
    r"""(5.9) on explicit weights ``W`` ``(B, R, 2m, d)``: :math:`F_j(W_j,x_i)` between
    :math:`\frac1m\sum_r\sigma(\rho_{j,r,i}\mp e_{j,r,i})`,
    :math:`e=\sum_{i'\ne i}|\rho_{j,r,i'}|p/R_{\min}^2+\beta`, with :math:`\rho` by (5.1) and
    :math:`F_j` by the forward pass; ``attained``: the cross term is reached (adversarial data).

    Rounding (per entry): :math:`\langle w,x_i\rangle` is a d-term dot product,
    :math:`(d+1)\epsilon|W||X|^\top`; :math:`\rho` by (5.1) :math:`(d+2n+2)\epsilon(|W|+|W^{(0)}|)
    |X^\top G^{-1}|\|x_i\|^2`; :math:`e` a sum of n terms, :math:`(n+2)\epsilon e`; :math:`\sigma` is
    1-Lipschitz, so :math:`F` and the two sides move by at most the mean of these over r.
    """
    n, d = X.shape
    m = W.shape[-2] // 2
    W0 = W[:, :1]
    G = X @ X.T
    rho = coefficients(W, W0, X)
    Z, F = forward(W, X, gamma, m)
    beta = np.abs(Z[:, :1]).max(axis=(2, 3), keepdims=True)
    R2 = np.diag(G).min()
    cross = (np.abs(rho).sum(-1, keepdims=True) - np.abs(rho)) * p / R2
    e = cross + beta
    M = np.abs(X.T @ np.linalg.inv(G)) * np.diag(G)
    err = EPS * (
        (d + 1) * np.abs(W) @ np.abs(X).T + (d + 2 * n + 2) * (np.abs(W) + np.abs(W0)) @ M + (n + 2) * e
    )
    lo, mid, hi = (class_means(rho + k * e, gamma, m) for k in (-1, 0, 1))
    tol = 2 * class_means(err, 1.0, m)  # the mean over r of the entries' error, both sides

    def used(dev: np.ndarray, band: np.ndarray) -> float:
        """Largest share of the band a deviation uses (rounding removed); where the band is empty (every
        neuron off on both sides, ReLU) a deviation beyond rounding scores 1 + dev/tol (> 1: a violation)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            r = np.where(band > 0, (dev - tol) / band, np.where(dev > tol, 1 + dev / tol, 0.0))
        return float(r.max())

    ctx.bound(
        f"(5.9) F_j(W_j, x_i) <= (1/m) sum_r sigma(rho_jri + e_jri), e = sum_(i' != i) |rho_jri'| p/R_min^2 "
        f"+ beta: max (F - F(rho))/(upper - F(rho)) [{label}]",
        used(F - mid, hi - mid),
        1.0,
        why="rho by (5.1) from the weights, F by the forward pass (explicit.py), F(rho) = (1/m) sum_r "
        "sigma(rho_jri); the share of the printed band F uses, less the derived rounding (_eq59_checks)",
    )
    ctx.bound(
        f"(5.9) F_j(W_j, x_i) >= (1/m) sum_r sigma(rho_jri - e_jri): max (F(rho) - F)/(F(rho) - lower) "
        f"[{label}]",
        used(mid - F, mid - lo),
        1.0,
        why="as above",
    )
    if attained:
        with np.errstate(divide="ignore", invalid="ignore"):
            reach = np.where(cross > 0, (np.abs(Z - rho) + beta + err) / cross, np.inf)
        ctx.bound(
            "(5.9) cross term attained: |<w_jr, x_i> - rho_jri| >= sum_(i' != i) |rho_jri'| p/R_min^2 "
            f"- beta: min (|<w, x_i> - rho| + beta)/cross [{label}]",
            float(reach.min()),
            1.0,
            side=">=",
            why="on S = -y y^T data with equal norms, <x_i', x_i> = -p y_i y_i' and every GD increment of "
            "rho_jri' has the sign j y_i' (3.2), so the cross sum is -j y_i p sum|rho_jri'|/R_min^2 "
            "exactly: |<w, x_i> - rho| = cross +- |<w0, x_i>|. A printed cross term larger by a factor k "
            "puts this ratio near 1/k",
            resolution="a cross term of (5.9) weaker than printed (a larger constant, p/R_min instead of "
            "p/R_min^2 at R_min = 1.5) or stronger (a smaller one, beta dropped: the two sides above)",
        )


@claim(
    "kou2023:equation-5.9",
    title="Heuristic (5.9): F_j(W_j, x_i) = (1/m) sum_r sigma(rho_jri +- sum_i' |rho_jri'| p/R_min^2 +- "
    "beta)",
    source="eq. (5.9), Sec. 5.1",
    statement=r"$F_j(W_j^{(t)},x_i)=\frac1m\sum_r\sigma\big(\rho^{(t)}_{j,r,i}\pm O(\sum_{i'\ne "
    r"i}|\rho^{(t)}_{j,r,i'}|R_{\min}^{-2}p)\pm\beta\big)$.",
    hypotheses=["any data; the O(.) is with constant 1", "p = max_(i != k) |<x_i, x_k>|"],
)
def equation_5_9(ctx: Context) -> None:
    n, m, d, steps, seeds = _sizes(ctx)
    budget = ctx.param("budget", tiny=40, quick=300, full=2000)
    rng = ctx.rng("data").host
    y = alternating_labels(n)
    record = log_grid(max(steps // 10, 200))
    runs = []
    # norms R0 = 1.5 != 1, so a wrong power of R_min (or of ||x_i|| in (5.1)) changes the numbers;
    # S = -y y^T (adversarial): the cross term is attained; random signs: it partly cancels
    for name, g in (("adversarial", 0.0), ("adversarial", 0.5), ("random signs", 0.0)):
        data = controlled_gram(rng, y, 0.2, R0=1.5, d=d, adversarial=name == "adversarial")
        X = points(data.G, 2 * n)
        W = explicit_gd(ctx, f"{name}/{g}", X, y, m, g, 1e-3, eta_for(data, m, 0.05), record, seeds)
        label = (
            f"explicit GD, {name} Gram, kappa=0.2, R_min=1.5, gamma={g:g}, n={n}, m={m}, t <= {record[-1]}"
        )
        _eq59_checks(ctx, W, X, g, data.p, label, attained=name == "adversarial")
        runs.append((W, X, g, data.p, label))
    ctx.search(
        "search: worst |<w, x_i> - rho_i| / (sum_(i' != i) |rho_i'| p / R_min^2 + beta) over data, rho, w(0)",
        _eq59_violation,
        _eq59_starts(ctx.rng("search").host),
        budget=budget,
        why="the decomposition's bound with constant 1, rounding of <w, x_i> subtracted, Nelder-Mead over "
        f"(X, rho, w(0)), (n, d) = {SEARCH_59}: any data and coefficients are an instance",
    )
    # sensitivity probe, not a control: (5.9) holds for any data, so no hypothesis can be broken to make it
    # false; p := 0 plugs a wrong p into the bound (the data are the main run's) and shows how much of the
    # band the cross term carries. The checks' own power comes from the adversarial runs, where the cross
    # term is attained ("cross term attained": a printed term k times too large reads ~1/k there).
    W, X, g, _, label = runs[0]
    probes = {side: Probe([f"(5.9) F_j(W_j, x_i) {side} *"]) for side in ("<=", ">=")}
    for probe in probes.values():
        _eq59_checks(probe, W, X, g, 0.0, label, attained=False)
    upper, lower = probes["<="].worst(), probes[">="].worst()
    ctx.note(
        f"Sensitivity probe (not a control) [{label}]: with p taken as 0 (the data treated as orthogonal) "
        f"the two band checks read {upper:.3g} (upper side) and {lower:.3g} (lower side) of the band, "
        "against at most 1 with the true p: the band is carried by the cross term sum_(i' != i) |rho_jri'| "
        "p/R_min^2. "
        "No negative control: (5.9) is a consequence of the decomposition (5.1) and the triangle "
        "inequality for any data and any weights (its hypotheses are 'any data' and the definition of p), so "
        "no hypothesis can be broken to make it fail; its checks are shown able to fail by the 'cross term "
        "attained' check (adversarial data: a cross term k times too large reads ~1/k) and by the weak-spot "
        "tests (a cross term half as large fails both sides)."
    )


def _rel_error_vs_kappa(
    ctx: Context,
    key: str,
    sigma0: float,
    kappas,
    sizes,
    *,
    current_set: bool = False,
    regime: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Late-time relative error of the ReLU margin approximation per kappa (worst member and point), and
    the init term's share of it: (5.12),
    :math:`q_i\approx\frac1m\sum_{r\in S}\overline\rho_{y_i,r,i}` with :math:`S=S_i^{(0)}` (printed) or the
    current active set :math:`S_i^{(T)}` (``current_set``). ``regime``: record the regime of the run at the
    smallest kappa (the claim's own sweep, not a control's): the order is a kappa -> 0 statement read at the
    sweep's low end, and the larger kappas are the fit's range (as min2024:remark-4's eps ladder).
    Every kappa has the same sign pattern :math:`S` of the controlled Gram
    (only kappa varies: fresh signs per kappa made the cross sums, hence error/kappa, scatter 0.19-0.40).

    The approximation leaves out the initialization: :math:`|\langle w^{(0)}_{j,r},x_i\rangle|\le\beta`
    per neuron moves :math:`y_if` by at most :math:`2\beta` (own class minus the other, each an average
    over :math:`m`), so the second array is the largest :math:`2\beta/|\text{approx}|` per kappa.
    """
    n, m, d, steps, seeds = sizes
    signs = int(ctx.rng(key).host.integers(2**62))
    y = alternating_labels(n)
    errs, floors = [], []
    for k in kappas:
        data = controlled_gram(np.random.default_rng(signs), y, k, d=d)
        ens = run(ctx, f"{key}/{k}", Setup(data, m, (0.0,), seeds, 0.05, sigma0, steps))
        if regime and k == min(kappas):
            record_regime(ctx, ens)
        err, floor = _margin_error(ens, 0.0, current_set=current_set)
        errs.append(err)
        floors.append(floor)
    return np.array(errs), np.array(floors)


def _margin_error(ens: Ens, gamma: float, *, current_set: bool = False) -> tuple[float, float]:
    """The late-time relative error of the margin approximation on one run (worst member and point) and
    its init term 2 beta/approx (:func:`_rel_error_vs_kappa`); NaN, NaN where no point has one."""
    y, m = ens.setup.data.y, ens.setup.m
    q = ens.run.q[:, -1]
    P = ens.run.P[:, -1]
    own = np.where(y[None, None] > 0, P[:, :m], P[:, m:])
    if gamma > 0:
        approx = (1 + gamma**2) * own.mean(axis=1)  # frozen pattern: F_y - F_-y
    else:
        Z = ens.run.Z()[:, -1]
        active = (
            np.where(y[None, None] > 0, Z[:, :m], Z[:, m:]) >= 0 if current_set else ens.own_class_active()
        )
        approx = np.where(active, own, 0).sum(axis=1) / m
    # a point with no own-class neuron in the set (|S_i| = 0, possible only at widths far below
    # Lemma A.2's m >= 50 log(2n/delta)) has no approximation to compare: it is left out
    defined = approx != 0
    if not defined.any():
        return float("nan"), float("nan")
    beta = np.abs(np.asarray(ens.run.model.init.Z0)).max(axis=(1, 2))
    err = float(np.abs(q[defined] / approx[defined] - 1).max())
    floor = float((2 * np.broadcast_to(beta[:, None], approx.shape)[defined] / np.abs(approx[defined])).max())
    return err, floor


SIGMA_DIV = 1000  # the search's sigma0 is the claim's / this (_heuristic_search)
SWEEP = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0)  # the heuristics' kappa sweep, fractions of its top


def _heuristic_search(
    ctx: Context,
    name: str,
    what: str,
    error: Callable[[Ens], tuple[float, float]],
    gammas: tuple[float, float],
    top: float,
    sigma0: float,
    evals: int,
    tol: float,
) -> None:
    """Instance search of a heuristic's order check (the claim's own :func:`_order_check` at the
    claim's resolution: its tolerance is the larger of the instance's own init share and the main sweep's
    ``tol``): an instance is a :mod:`instances` data set, init and slope in ``gammas`` ((0, 0): ReLU)
    run at the claim's kappa fractions :data:`SWEEP` of its own top kappa (one correlation pattern, norms
    and init projections: only p changes), sigma0 scaled with that top as the claim's. ``error`` gives a
    run's relative error and its init term (:func:`_margin_error`, :func:`_eq511_error`); ``what`` names
    that error in the search's name.

    sigma0 is 1/1000 of the claim's (times the search's own 10^(-2 sigmoid) factor): the claim's keeps
    the init term 2 beta/approx <= 0.25 of its error at the smallest kappa, but where the first-order
    cross terms cancel (S = -y y^T, the hypothesis-edge family) the error is ~100x smaller (error/kappa
    ~0.0015 against ~0.2): at the claim's sigma0 6 of that family's 8 quick instances were undecided
    (init term above the error), at 1/100 of it 6 (a share too large to separate order 1 from 1/2), at
    1/1000 2. A smaller sigma0 costs no resolution: the main sweep's tolerance floors the instance's.
    Measured cost (quick, 2 shared cores): ~0.3 s an instance (6 runs of 2000 steps), +7 s on the
    claim's quick (24 instances), +5 s on tiny (12); full (600) ~3-5 min (est.).

    The check reads the order at the sweep's low end (:func:`_order_check`): over the whole sweep it
    failed on instances where O(kappa) holds (ratio 1.018 with 40 evaluations a start: error/kappa flat
    to 1e-4 below 1/4 of the top kappa, 8% lower at the top), a failure of the reading, not of the
    statement."""

    def sweep(c: Context, theta: np.ndarray, region: Region) -> list[Ens]:
        R = region.R ** squash(theta[3])  # the instance's R_max/R_min (its norms span R^u, u in [0, 1])
        own_top = kappa_cap(region, squash(theta[7], *region.gammas), R) * squash(theta[1])
        scaled = replace(region, sigma0=region.sigma0 * own_top / top)
        return [instance(c, theta, scaled, kappa_fraction=f) for f in SWEEP]

    worst: list = [-np.inf, None]  # the worst decided instance's ratio and its (kappas, errors, tol)

    def checks(probe, runs: list[Ens]) -> None:
        k = np.array([e.setup.data.kappa for e in runs])
        err, floor = np.array([error(e) for e in runs]).T
        own = max(_init_tol(k, err, floor), tol)
        _order_check(probe, name, k, err, own, "instance")
        r = probe.ratios.get(name, -np.inf)
        if r > worst[0]:
            worst[:] = [r, (k, err, own)]

    region = Region(gammas, top, sigma0=sigma0 / SIGMA_DIV, m=3)
    search(
        ctx,
        f"search: worst fitted order of {what} in kappa over nearly orthogonal data and init",
        region,
        checks,
        [name],
        budget=evals,
        build=sweep,
        why=f"each instance: its data and init at the claim's {len(SWEEP)} kappa fractions "
        f"{SWEEP[0]:g}-{SWEEP[-1]:g} of its own top kappa (<= the claim's {top:g} and the regime's "
        f"{'0.1' if region.relu else '0.1 gamma^4'}/R^2), sigma0 <= "
        f"{region.sigma0:.2g} x top/{top:g} (the claim's scaling, 1/{SIGMA_DIV} of its size: the init term "
        "must stay below errors whose first order cancels), the claim's check with tolerance tol = the "
        f"larger of the instance's own init share and the main sweep's {tol:.2g} (the claim's resolution: "
        "finer deviations, ~1e-5 in the order on instances whose error/kappa is flat to 4 digits, are not "
        "what the statement is about); ratio (1 - tol - share)/order at its low end. Resolution: an "
        "instance whose error falls slower than kappa^(1 - tol - share) over its three smallest kappa "
        f"({SWEEP[0]:g}-{SWEEP[2]:g} of its top) scores > 1 (an error floor, O(sqrt(kappa)), O(1)); a "
        "next-order term within its share is not a violation (the statement leaves it free), a large "
        "constant c is not caught (c is unspecified), nor an order change below the sweep's smallest "
        f"kappa ({SWEEP[0]:g} top)",
    )
    if worst[1] is not None:
        k, err, own = worst[1]
        ctx.note(
            f"{name}, the search's worst instance (ratio {worst[0]:.5g}, tol {own:.2g}): error/kappa "
            + ", ".join(f"{e / kk:.4g} at kappa={kk:.3g}" for kk, e in zip(k, err, strict=True))
        )


LOW_END = 3  # the order is read on the sweep's three smallest kappa (a 4x span)


def _init_tol(kappas: np.ndarray, errs: np.ndarray, floors: np.ndarray) -> float:
    """The order check's tolerance: the change of the low-end slope (:data:`LOW_END` smallest kappa) the
    init term 2 beta/approx (``floors``) can cause, as a relative share f/(e - f) of each error's kappa
    part (infinite where it reaches the error)."""
    e, f = errs[:LOW_END], floors[:LOW_END]
    share = np.divide(f, e - f, out=np.full_like(e, np.inf), where=e > f)
    return slope_shift(kappas[:LOW_END], share)


def next_order_share(kappas: np.ndarray, errs: np.ndarray) -> float:
    r"""The most a next-order term can lower the low-end slope of ``errs``: with
    :math:`e=c\kappa(1+b\kappa)`, :math:`\ln(e/\kappa)` changes by :math:`\Delta\approx b(\kappa_{\max}
    -\kappa_{\min})` over the sweep and its slope in :math:`\ln\kappa` at the low end is
    :math:`\approx b\bar\kappa_{\rm low}`, so the share is :math:`|\Delta|\,\bar\kappa_{\rm low}/
    (\kappa_{\max}-\kappa_{\min})` (~0.06 |Delta| on the heuristics' sweep). A higher-order term
    (:math:`b\kappa^2`, ...) bends the low end less for the same :math:`\Delta`. A violation
    :math:`e\propto\kappa^q` has :math:`\Delta=(q-1)\ln(\kappa_{\max}/\kappa_{\min})`, so the share takes
    ~0.22 of its 1 - q on a 40x sweep: it is still caught when 1 - q > tol/0.78."""
    ratio = np.log(errs[-1] / kappas[-1]) - np.log(errs[0] / kappas[0])
    return float(abs(ratio) * kappas[:LOW_END].mean() / (kappas[-1] - kappas[0]))


def _order_name(eq: str) -> str:
    return (
        f"{eq}: relative error of the margin approximation at T is O(kappa): its order at the sweep's low "
        "end >= 1 - tol"
    )


def _order_check(ctx: Context, name: str, kappas: np.ndarray, e: np.ndarray, tol: float, why: str) -> None:
    """The heuristic's conclusion, one-sided: the fitted order of the relative errors ``e`` over the
    :data:`LOW_END` smallest ``kappas`` is at least 1 - tol - :func:`next_order_share` (a faster fall is
    allowed: the statement bounds the error).

    Why the low end with that share, not a power law over the sweep: "1 +- c kappa" states the first
    order, as kappa -> 0; its next order bends a sweep-wide slope by an amount the statement leaves free
    (an instance whose error/kappa is flat to 1e-4 below 1/4 of its top kappa and 8% lower at the top
    fitted 0.98 against 1 - tol = 0.9995), while a violation (an error floor, O(sqrt(kappa)), the printed
    (5.12)'s O(1)) shows most where kappa is smallest (a floor 6% of the error at the smallest kappa fits
    0.965 there). Undecided where the init term leaves no slope bound, and a pass within a tolerance
    that cannot separate order 1 from 1/2 (>= 1/4, as :meth:`verify.context.Context.order`)."""
    if not np.isfinite(tol):
        ctx.undecided(name, "the init term 2 beta/approx reaches the error at some kappa: no slope bound")
        return
    fit, sweep = fit_order(kappas[:LOW_END], e[:LOW_END]), fit_order(kappas, e)
    share = next_order_share(kappas, e)
    low = kappas[:LOW_END]
    if fit.slope >= 1.0 - tol - share and tol + share >= 0.25:
        ctx.undecided(name, f"tolerance {tol:.2g} + {share:.2g} cannot separate order 1 from 1/2")
        return
    ctx.bound(
        name,
        fit.slope,
        1.0 - tol - share,
        side=">=",
        why=f"{why}; next-order share {share:.2g} (next_order_share: the sweep's error/kappa changes by "
        f"{np.exp(np.log(e[-1] / kappas[-1]) - np.log(e[0] / kappas[0])):.3g}x)",
        resolution=f"an error falling slower than kappa^{1 - tol - share:.3g} over kappa {low[0]:.3g}-"
        f"{low[-1]:.3g} (error/kappa growing toward small kappa by more than "
        f"{(low[-1] / low[0]) ** (tol + share):.3g}x there): an error floor, O(sqrt(kappa)) or O(1); "
        "one-sided: the statement bounds the error, a faster fall is allowed",
        details={
            "95% interval": (fit.lo, fit.hi),
            "order over the whole sweep (95% interval)": (sweep.slope, sweep.lo, sweep.hi),
            "errors": e,
            "error / kappa": e / kappas,
        },
    )


def _error_record(
    ctx: Context,
    eq: str,
    what: str,
    init: str,
    kappas: np.ndarray,
    errs: np.ndarray,
    floors: np.ndarray,
    factor_name: str,
    factor: float,
) -> None:
    """A heuristic's figure (relative error of ``what`` and its init term ``init`` vs kappa) and the note
    with the errors and the lower bound ``factor`` x max error/kappa on the statement's unspecified c."""
    ctx.figure(
        f"{eq}: relative error of {what} at T vs kappa",
        series=[Series("relative error", kappas, errs), Series(f"init term {init}", kappas, floors)],
        xlabel="kappa",
        ylabel="relative error",
        logx=True,
        logy=True,
    )
    ctx.note(
        f"{eq} relative errors at T: "
        + ", ".join(f"kappa={k:.3g}: {e:.3g}" for k, e in zip(kappas, errs, strict=True))
        + f"; the statement's constant c (unspecified) is at least {factor_name}max error/kappa = "
        + f"{factor * (errs / kappas).max():.3g}"
    )


def _heuristic(ctx: Context, eq: str, *, current_set: bool = False, searched: bool = False) -> None:
    """The ReLU margin heuristic (5.12) (active set at init, or the current one with ``current_set``):
    order in kappa of its relative error, the instance search (``searched``) and the large-init control."""
    n, m, d, steps, seeds = _sizes(ctx)
    evals = budget(ctx) if searched else None  # every parameter read before any computation
    sizes = (n, m, d, max(steps // 4, 1000), seeds)  # every step exact (chattering)
    # 1.6 decades (the fit must separate orders 0, 1, 2), ending at 0.9 of R^2 kappa <= 0.1 (the fit's
    # range; Lemma E.1's premise with measured constants holds only at the low end, where the regime is
    # recorded: 2 c' kappa/c1 = 0.85 at the top, quick), sigma0 scaled with it (1e-4 at kappa = 0.2: the
    # init term 2 beta/approx is then <= 0.25 of the error at the smallest kappa, so its bound on the
    # slope is finite)
    top = regime_kappa(0.0, fraction=0.9)
    kappas = np.array([top * f for f in SWEEP])
    sigma0 = 1e-4 * top / 0.2
    errs, floors = _rel_error_vs_kappa(ctx, "k", sigma0, kappas, sizes, current_set=current_set, regime=True)
    tol = _init_tol(kappas, errs, floors)
    name = _order_name(eq)

    def order_check(e: np.ndarray, why: str) -> None:
        _order_check(ctx, name, kappas, e, tol, why)

    order_check(
        errs,
        "the heuristic's 1 +- c kappa (c unspecified) bounds the error by O(kappa): its order as kappa -> 0 "
        "is at least 1, read at the sweep's low end less the init term's share and a next-order term's "
        f"(_order_check); the init share (tol {tol:.3g}) derived: the init term moves each error by at most "
        "2 beta/approx (the statement's O(beta/log t); largest over members and points: "
        f"{', '.join(f'{f:.2g}' for f in floors)}), a relative share f/(e - f) of its kappa part, which "
        "bends the slope by at most slope_shift",
    )
    _error_record(ctx, eq, "the margin approximation", "2 beta/approx", kappas, errs, floors, "", 1.0)
    if evals is not None:
        _heuristic_search(
            ctx,
            name,
            "the margin approximation's relative error",
            partial(_margin_error, gamma=0.0, current_set=current_set),
            (0.0, 0.0),
            top,
            sigma0,
            evals,
            tol,
        )
    big = (*sizes[:3], max(sizes[3] // 4, 500), sizes[4])
    with ctx.control(
        "large initialization sigma0 = 3",
        breaks=BIG_INIT,
        must_break=["*relative error of the margin approximation*"],
    ):
        errs_big, _ = _rel_error_vs_kappa(ctx, "big", 3.0, kappas, big, current_set=current_set)
        order_check(errs_big, "as above, with the main sweep's tolerance")


GAMMA_511 = 0.5  # the slope of (5.11)'s sweep
SIGMA_511 = 1e-6  # its sigma0 (equation_5_11)
STEP_DIV = 4  # the margin reading's smaller step (_eq511_margin_note)


def _eq511_error(ens: Ens) -> tuple[float, float]:
    r"""(5.11)'s relative error on one run at its last record, worst over members, :math:`j` and points:
    :math:`|F_j(W_j,x_i)/A_{j,i}-1|` with :math:`A_{j,i}=\frac1m\sum_r\sigma(\rho_{j,r,i})`,
    :math:`\sigma(z)=\max(\gamma z,z)`, and its init term :math:`\beta/|A_{j,i}|`; NaN, NaN where some
    :math:`A_{j,i}=0`.

    By (5.1) :math:`\langle w_{j,r},x_i\rangle=\langle w^{(0)}_{j,r},x_i\rangle+\rho_{j,r,i}+\sum_{i'\ne i}
    \rho_{j,r,i'}\langle x_{i'},x_i\rangle/\|x_{i'}\|^2` exactly and :math:`\sigma` is 1-Lipschitz, so
    the init moves :math:`F_j` by at most :math:`\beta` (the :math:`\pm\beta` of (5.9)) and the rest of the
    error is the cross sum, which (5.11) states is at most :math:`c\gamma^{-2}\kappa|A_{j,i}|` (Lemma 5.4's
    balance keeps :math:`|\rho_{j,r,i'}|/|\rho_{j,r,i}|` bounded)."""
    m = ens.setup.m
    gamma = ens.setup.gamma[:, None, None]

    def per_class(V: np.ndarray) -> np.ndarray:  # (B, 2m, n) -> (B, 2, n): (1/m) sum_r sigma, j = +1 first
        act = np.maximum(gamma * V, V)
        return np.stack([act[:, :m].mean(axis=1), act[:, m:].mean(axis=1)], axis=1)

    out, approx = per_class(ens.run.Z()[:, -1]), per_class(ens.run.P[:, -1])
    if not np.all(approx != 0):
        return float("nan"), float("nan")
    beta = np.abs(np.asarray(ens.run.model.init.Z0)).max(axis=(1, 2))
    return float(np.abs(out / approx - 1).max()), float((beta[:, None, None] / np.abs(approx)).max())


def _eq511_sweep(ctx: Context, key: str, sigma0: float, kappas: np.ndarray, sizes) -> list[Ens]:
    """One leaky run (slope :data:`GAMMA_511`, step scale 0.05) per kappa on one sign pattern of the
    controlled Gram (only kappa varies, as :func:`_rel_error_vs_kappa`)."""
    n, m, d, steps, seeds = sizes
    signs = int(ctx.rng(key).host.integers(2**62))
    y = alternating_labels(n)
    return [
        run(
            ctx,
            f"{key}/{k}",
            Setup(
                controlled_gram(np.random.default_rng(signs), y, k, d=d),
                m,
                (GAMMA_511,),
                seeds,
                0.05,
                sigma0,
                steps,
            ),
        )
        for k in kappas
    ]


def _eq511_margin_note(ctx: Context, runs: list[Ens], kappas: np.ndarray, sizes) -> None:
    r"""Record (a note, no check) the catalog's reading of (5.11) "after freezing
    :math:`y_if\approx\frac{1+\gamma^2}m\sum_r\overline\rho_{y_i,r,i}`, relative error
    :math:`O(\kappa)+O(\beta/\log t)`", which the paper does not print: it also replaces
    :math:`|\underline\rho_{-y_i,r,i}|` by :math:`\gamma\overline\rho_{y_i,r,i}`, exact only for the
    increments after the pattern froze, so its error has an :math:`O(\eta R^2/(nm)/\log t)` term from the
    steps before (it shrinks with the step at fixed :math:`\eta t` and as :math:`t\to\infty`). Measured:
    the error at each kappa, and at the smallest kappa again with the step scale / :data:`STEP_DIV` and
    :data:`STEP_DIV` x the steps (same :math:`\eta t`)."""
    steps = sizes[3]
    errs = [_margin_error(e, GAMMA_511)[0] for e in runs]
    small = runs[0].setup
    fine = run(ctx, "step", replace(small, scale=small.scale / STEP_DIV, steps=STEP_DIV * steps))
    ctx.note(
        "(5.11) read as the catalog's margin form y_i f ~ (1 + gamma^2)/m sum_r rho_bar_(y_i,r,i) (not "
        "printed in the paper; not checked): relative errors at T "
        + ", ".join(f"kappa={k:.3g}: {e:.3g}" for k, e in zip(kappas, errs, strict=True))
        + f"; at kappa={kappas[0]:.3g} with step scale {small.scale / STEP_DIV:g} and {STEP_DIV * steps} "
        f"steps (same eta t): {_margin_error(fine, GAMMA_511)[0]:.3g}. Its floor at small kappa is the "
        "|rho_under| = gamma rho_bar substitution's pre-freezing steps, O(step/log t): it vanishes as t -> "
        "infinity and with the step, and is absent from the printed (5.11) (checked above)"
    )


@claim(
    "kou2023:equation-5.11",
    title="Heuristic (5.11): leaky ReLU F_j ~ (1 +- c gamma^-2 kappa)/m sum_r sigma(rho_jri)",
    source="eq. (5.11), Sec. 5.1",
    statement=r"$F_j(W_j^{(t)},x_i)\approx\frac{1\pm "
    r"c\gamma^{-2}R_{\min}^{-2}pn}m\sum_r\sigma(\rho^{(t)}_{j,r,i})$: relative error "
    r"$O(\gamma^{-2}\kappa)$, $\kappa=R_{\min}^{-2}pn$, beside the init's $\pm\beta$ of (5.9).",
    hypotheses=[*THEOREM_4_1],
)
def equation_5_11(ctx: Context) -> None:
    r"""(5.11): the relative error of :math:`F_j(W_j^{(T)},x_i)` against
    :math:`\frac1m\sum_r\sigma(\rho^{(T)}_{j,r,i})` (:func:`_eq511_error`) is :math:`O(\kappa)`: its order
    in kappa over a sweep inside the leaky regime :math:`\gamma^{-4}R^2\kappa\le0.1` (every point; the
    regime is recorded on all of them), an instance search over data, init and slope, and the large-init
    control. The catalog's margin form is a note (:func:`_eq511_margin_note`)."""
    n, m, d, steps, seeds = _sizes(ctx)
    evals = budget(ctx)  # every parameter read before any computation
    sizes = (n, m, d, steps, seeds)
    # 1.6 decades (SWEEP) ending at 0.9 of the regime's kappa <= 0.1 gamma^4 (0.0056 at gamma = 0.5), so
    # every point is inside it. sigma0 = 1e-6 (beta ~ 3.5e-6) is fixed over the sweep (a sigma0 growing
    # with kappa would give the init term a kappa order of its own) and keeps the init term
    # beta/|A| (~2.5e-6 at quick) below 1/40 of the error at the smallest kappa (~1.1e-4)
    top = regime_kappa(GAMMA_511, fraction=0.9)
    kappas = top * np.array(SWEEP)
    runs = _eq511_sweep(ctx, "k", SIGMA_511, kappas, sizes)
    record_regime(ctx, *runs)
    errs, floors = np.array([_eq511_error(e) for e in runs]).T
    tol = _init_tol(kappas, errs, floors)
    name = (
        "(5.11): relative error of F_j(W_j, x_i) against (1/m) sum_r sigma(rho_(j,r,i)) at T is O(kappa): "
        "its order at the sweep's low end >= 1 - tol"
    )
    _order_check(
        ctx,
        name,
        kappas,
        errs,
        tol,
        "(5.11)'s 1 +- c gamma^-2 kappa (c unspecified) bounds the error by O(kappa): its order as kappa "
        "-> 0 is at least 1, read at the sweep's low end less the init term's share and a next-order term's "
        f"(_order_check), every kappa inside the regime; the init share (tol {tol:.3g}) derived: the init "
        "moves F_j by at most beta (sigma 1-Lipschitz; largest beta/|A| over members, j and points: "
        f"{', '.join(f'{f:.2g}' for f in floors)}), a relative share f/(e - f) of the cross-sum part, which "
        "bends the slope by at most slope_shift",
    )
    _error_record(
        ctx,
        "(5.11)",
        "F_j against (1/m) sum_r sigma(rho_jri)",
        "beta/|A|",
        kappas,
        errs,
        floors,
        "gamma^2 ",
        GAMMA_511**2,
    )
    _eq511_margin_note(ctx, runs, kappas, sizes)
    _heuristic_search(
        ctx,
        name,
        "the relative error of F_j against (1/m) sum_r sigma(rho_jri)",
        _eq511_error,
        (0.25, 0.9),
        top,
        SIGMA_511,
        evals,
        tol,
    )
    big = (n, m, d, max(steps // 4, 500), seeds)
    with ctx.control("large initialization sigma0 = 3", breaks=BIG_INIT, must_break=["(5.11): *"]):
        errs_big = np.array([_eq511_error(e)[0] for e in _eq511_sweep(ctx, "big", 3.0, kappas, big)])
        _order_check(ctx, name, kappas, errs_big, tol, "as above, with the main sweep's tolerance")


@claim(
    "kou2023:equation-5.12",
    title="Heuristic (5.12): ReLU margin ~ (1 +- c kappa)/m sum_(r in S_i(0)) rho_bar",
    source="eq. (5.12), Sec. 5.1",
    statement=r"$y_if(W^{(t)},x_i)\approx\frac{1\pm cR_{\min}^{-2}pn}m\sum_{r\in "
    r"S_i^{(0)}}\overline\rho^{(t)}_{y_i,r,i}$.",
    hypotheses=[*THEOREM_4_3],
    erratum=Erratum(
        "only the lower side holds: neurons r not in S_i(0) are pushed across zero by the cross terms (of "
        "size kappa "
        "log t, far above beta for small init), join S_i(t) and then grow like log t too, so y_i f exceeds "
        "the sum "
        "over S_i(0) by a factor up to |S_i(T)|/|S_i(0)|, not 1 + O(kappa). Corrected: the sum over the "
        "current "
        "active set S_i(t) (equation-5.12-corrected); the lower bound over S_i(0) is (G.1).",
        via="numeric: relative error ~1.4 already at kappa = 0.02 (|S_i| grows from 8 to 20 of m = 20)",
        shown_by=("(5.12):*",),
    ),
)
def equation_5_12(ctx: Context) -> None:
    _heuristic(ctx, "(5.12)")


@claim(
    "kou2023:equation-5.12-corrected",
    title="Heuristic (5.12) corrected: ReLU margin ~ (1 +- c kappa)/m sum over the current active set S_i(t)",
    source="eq. (5.12), corrected (see equation-5.12)",
    statement=r"$y_if(W^{(t)},x_i)\approx\frac{1\pm cR_{\min}^{-2}pn}m\sum_{r\in "
    r"S_i^{(t)}}\overline\rho^{(t)}_{y_i,r,i}$ "
    r"(and $\ge\frac{1-c\kappa}m\sum_{r\in S_i^{(0)}}\overline\rho^{(t)}_{y_i,r,i}-2\beta$, (G.1)).",
    hypotheses=[*THEOREM_4_3],
)
def equation_5_12_corrected(ctx: Context) -> None:
    _heuristic(ctx, "(5.12) with S_i(t)", current_set=True, searched=True)
