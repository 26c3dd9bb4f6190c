r"""min2024 Theorem 1: alignment by :math:`t_1` (part 1) and final convergence (part 2).

Every run integrates the balanced log-polar flow (:mod:`numeric.models.balanced_relu`), exact
gradient flow under balancedness.  The literal hypothesis "eps small enough" (eq. (28))
asks for :math:`\epsilon\approx e^{-10^3}\ldots e^{-10^7}`; in log-polar form
:math:`\rho(0)=\log\epsilon` is an ordinary float64 number and :math:`f=\sum s_je^{2\rho_j}\ldots`
underflows to 0.  That is *not* an extrapolation: in exact arithmetic
:math:`|-\ell'(y,f)-y|\le2|f|\le e^{-2000}` (Lemma 2), a relative change of the field far
below float64's rounding unit, so the float64 field at such :math:`\epsilon` is the
correctly rounded field of the literal flow.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import brentq
from scipy.special import logsumexp

from numeric.backend import get_backend
from numeric.data.separated_data import (
    MINUS,
    PLUS,
    activation,
    aggregates,
    allowed,
    planar,
    regions,
    separation,
)
from numeric.models.activation import RELU
from verify.claim import claim
from verify.context import Context, Series
from verify.evidence import fit_order, slope_shift
from verify.hypotheses import Hypothesis
from verify.order_tolerance import next_order_tolerance
from verify.papers.min2024.common import (
    REDUCED_LOG_EPS,
    Problem,
    cone_problem,
    constants,
    directions,
    events,
    explicit_t1,
    family_problem,
    log_eps_threshold,
    log_norms,
    run,
)
from verify.papers.min2024.hypotheses import ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28, SMALL_INIT
from verify.papers.min2024.instances import (
    DATA,
    DIM,
    INIT,
    PROBE,
    SHAPE,
    H,
    N,
    cone_instance,
    cone_starts,
    near_x_minus,
    separated_problem,
    starts,
)
from verify.papers.min2024.proof import cone_family
from verify.papers.min2024.regimes import log10_max_output, record

GRID_POINTS = 160
EPS_F = float(np.finfo(np.float64).eps)
T_CAP = 20.0  # runs stop at min(explicit t1, T_CAP / mu); beyond, Lemma 12 (trapping) carries the labels


def _grid(t_end: float, t_start: float = 1e-3) -> np.ndarray:
    """Output times: 0, then geometric up to ``t_end`` (relative resolution ~ (t_end/t_start)^(1/160))."""
    return np.concatenate([[0.0], np.geomspace(t_start, t_end, GRID_POINTS)])


def _alignment_run(ctx: Context, p: Problem, rtol: float) -> dict:
    """Run every member to its own explicit t1 (all on one grid) and collect the Theorem 1.1 facts."""
    bounds = np.array([explicit_t1(p, b) for b in range(p.B)])
    horizon = np.minimum(bounds, T_CAP / separation(p.X, p.y))
    ts = np.unique(np.concatenate([_grid(horizon.max()), horizon]))
    traj = run(ctx.backend, p, ts, rtol=rtol)
    U = directions(traj, p.h)
    ev = events(p, U)
    k_bound = np.searchsorted(ts, horizon)
    at_bound = allowed(ev.codes[np.arange(p.B), k_bound], p.s).all(axis=-1)
    t1_emp = np.where(ev.t1_index < len(ts), ts[np.minimum(ev.t1_index, len(ts) - 1)], np.inf)
    act0 = activation(p.W0, p.X)
    pos_start = np.where(p.s > 0, (act0 & (p.y > 0)).any(-1), (act0 & (p.y < 0)).any(-1))
    target = np.where(p.s > 0, PLUS, 2)
    codes_t1 = ev.codes[np.arange(p.B), np.minimum(ev.t1_index, len(ts) - 1)]
    missed = (pos_start & (codes_t1 != target)).sum(axis=-1)
    return {
        "ts": ts,
        "U": U,
        "ev": ev,
        "bounds": bounds,
        "horizon": horizon,
        "at_bound": at_bound,
        "t1": t1_emp,
        "missed": missed,
        "ok": traj.ok,
    }


T1_POINTS = 60  # output times of a search instance's run (geometric from 1e-3 to its horizon)


def _t1_instance(theta: np.ndarray) -> Problem:
    """:func:`instances.separated_problem` of ``theta`` at log eps = (28)'s threshold - 1."""
    q = separated_problem(theta, (0.0, 0.0))
    return q.with_log_eps(log_eps_threshold(q, 0) - 1.0)


def _theorem11_violation(theta: np.ndarray) -> float:
    r"""Theorem 1.1 as a ratio on one instance: empirical / explicit :math:`t_1`, or :math:`1+` (the fraction
    of neurons outside their allowed region at min(explicit :math:`t_1`, 20/mu), plus the fraction that
    had own-class activation at 0 but is not in its cone at the empirical :math:`t_1`): the main check's
    rule (from the empirical :math:`t_1` on, the labels are carried by Lemma 12). The run is tried on
    horizons growing 4x up to min(explicit :math:`t_1`, 20/mu) and stops at the first that reaches
    :math:`t_1` (each from t = 0, so the last decides). NaN if a run fails."""
    q = _t1_instance(theta)
    bound = explicit_t1(q, 0)
    horizon = min(bound, T_CAP / separation(q.X, q.y))
    for end in horizon / 4.0 ** np.arange(min(8, max(0, int(np.log(horizon) / np.log(4)))), -1, -1):
        ts = np.concatenate([[0.0], np.geomspace(min(1e-3, end / 2), end, T1_POINTS)])
        traj = run(get_backend("numpy"), q, ts, rtol=1e-7)
        if not bool(traj.ok.all()):
            return float("nan")
        ev = events(q, directions(traj, q.h))
        if ev.t1_index[0] < len(ts):
            break
    k1 = min(int(ev.t1_index[0]), len(ts) - 1)
    codes = ev.codes[0, k1]
    act0 = activation(q.W0, q.X)[0]
    own = np.where(q.s[0] > 0, (act0 & (q.y > 0)).any(-1), (act0 & (q.y < 0)).any(-1))
    missed = own & (codes != np.where(q.s[0] > 0, PLUS, MINUS))
    bad = int((~allowed(codes[None], q.s)[0]).sum() + missed.sum())
    return float(1.0 + bad / q.h) if bad else float(ts[k1] / bound)


def _t1_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """The three data families of :func:`instances.starts`; and a V+ neuron 1e-3 from x_- (zeta_2 -> 0,
    the edge of Assumption 2, where the explicit t1 grows without bound)."""
    edge = near_x_minus(rng, "clustered generators (coefficients near single generators)", 0.0)
    return starts(rng, INIT, ("a V+ neuron 1e-3 from x_- (zeta_2 near 0)", *edge))


@claim(
    "min2024:theorem-1.1",
    title="Directional convergence: every neuron is in S+, S- or S_dead by t1",
    source="Theorem 1 part 1; App. C.2 (eq. (28), t1 = 16 log n / (min{zeta,xi} sqrt(mu) X_min))",
    statement=(
        r"Under Assumptions 1-2, balanced init (3) and $\epsilon$ as in (28): at "
        r"$t_1=\frac{16\log n}{\min\{\zeta,\xi\}\sqrt\mu X_{\min}}$ every $j\in\mathcal V_+$ has "
        r"$w_j\in S_+\cup S_{dead}$ (in $S_+$ if $\max_{i\in\mathcal I_+}\langle w_j(0),x_i\rangle>0$), "
        r"mirror for $\mathcal V_-$; and the gap to the reduced dynamics (4) vanishes as $\epsilon\to0$"
    ),
    hypotheses=[ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28, "exponential loss (sum)", SMALL_INIT],
)
def theorem_1_1(ctx: Context) -> None:
    ns = ctx.param("n", tiny=(4,), quick=(4, 8), full=(4, 8, 16))
    mus = ctx.param("mu", tiny=(0.5, 0.2), quick=(0.9, 0.5, 0.2), full=(0.9, 0.5, 0.2, 0.05))
    h = ctx.param("H", tiny=8, quick=12, full=20)
    seeds = ctx.param("seeds", tiny=2, quick=3, full=8)
    limit_rtol = ctx.param("rtol", tiny=1e-10, quick=1e-10)  # gaps down to ~1e-8 at eps = 1e-4
    ns, mus = (ns,) if isinstance(ns, int) else ns, (mus,) if isinstance(mus, float) else mus
    cone_ns = ctx.param("cone_n", tiny=(8,), quick=(8, 24), full=(8, 24, 64))
    budget = ctx.param("budget", tiny=2, quick=5, full=100)
    rng = ctx.rng("data").host
    worst_ratio, rows, ran = 0.0, [], []
    # two structurally different data families: family F (n + 1 dimensions, every pair at the same
    # correlation, balanced classes) and two random cones in R^4 (n > D, spread correlations, 2:1 classes)
    problems = [(n, family_problem(rng, n, mu, h, seeds)) for n in ns for mu in mus]
    problems += [(n, cone_problem(rng, n, 0.5, h, seeds)) for n in cone_ns]
    for n, p in problems:
        mu = separation(p.X, p.y)
        p = p.with_log_eps([log_eps_threshold(p, b) - 1.0 for b in range(p.B)])
        ran.append(p)
        r = _alignment_run(ctx, p, rtol=1e-7)
        ratio = r["t1"] / r["bounds"]
        worst_ratio = max(worst_ratio, float(ratio.max()))
        rows.append(
            {
                "n": n,
                "mu": mu,
                "log_eps": p.log_eps.tolist(),
                "threshold": [log_eps_threshold(p, b) for b in range(p.B)],
                "t1": r["t1"].tolist(),
                "bound": r["bounds"].tolist(),
                "at_bound": r["at_bound"].tolist(),
                "missed": r["missed"].tolist(),
                "monotone": r["ev"].monotone_violations.tolist(),
                "trap": r["ev"].trap_violations.tolist(),
                "solved": r["ok"].tolist(),
            }
        )
    flat = {
        k: np.concatenate([np.atleast_1d(np.asarray(row[k], float)) for row in rows])
        for k in ("t1", "bound", "at_bound", "missed", "monotone", "solved", "trap")
    }
    ctx.holds(
        "every run integrated to min(its explicit t1, 20/mu)",
        bool(flat["solved"].all()),
        measured=int(flat["solved"].sum()),
        expected=len(flat["solved"]),
        why="DOPRI5 status SUCCESS for every member",
    )
    # eps is set to (28)'s threshold / e, so this is the run's regime, not a conclusion (it was a check
    # that could not fail); the log-polar state represents log eps exactly
    record(ctx, ran, ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28)
    ctx.bound(
        "empirical t1 / explicit t1",
        flat["t1"] / flat["bound"],
        1.0,
        why="Theorem 1 gives t1 as an upper bound; empirical t1 is the first output time with every neuron "
        "allowed (rounded UP to the grid, so conservative). Slack (the paper's): the explicit t1 has "
        "min{zeta, xi} <= mu^2 in its denominator, loose by ~mu^-2 against the measured t1, so an error in "
        "its constant below the printed slack is not caught; the scaling in mu is in 't1 against mu' and "
        "min2024:constants-t1",
        details={"runs": rows},
    )
    ctx.holds(
        "every neuron allowed at min(explicit t1, 20/mu), labels constant after empirical t1",
        bool(flat["at_bound"].all() and np.all(flat["trap"] == 0)),
        measured=f"{int(flat['at_bound'].sum())} allowed, {int(flat['trap'].sum())} label changes",
        expected=f"{len(flat['at_bound'])} allowed, 0 label changes",
        why="regions from sign(X w) with ties |<x,w>| <= 1e-12 |x||w| counted inactive; exact integer facts. "
        "Runs stop at min(t1, 20/mu) (the reduced flow to t1 ~ 1e5 costs 1e5 steps); from there to t1 the "
        "labels are carried by Lemma 12 (trapping, checked in min2024:theorem-1.2)",
    )
    ctx.holds(
        "initial own-class activation => S+ (S-) at t1",
        bool(np.all(flat["missed"] == 0)),
        measured=int(flat["missed"].sum()),
        expected=0,
        why="count of violating neurons; exact",
    )
    ctx.holds(
        "activation monotonicity (eq. (46)): no own-class activation lost, none of the other gained",
        bool(np.all(flat["monotone"] == 0)),
        measured=int(flat["monotone"].sum()),
        expected=0,
        why="count over all output times; exact",
    )
    ctx.search(
        "search: worst empirical t1 / explicit t1 (> 1: a neuron outside its region at the explicit t1)",
        _theorem11_violation,
        _t1_starts(ctx.rng("search").host),
        budget=budget,
        why=f"Nelder-Mead over {N} data in R^{DIM} (mu > 0 by construction), {H} neurons and signs, eps = "
        f"(28)'s threshold / e, each run to min(its explicit t1, 20/mu) as in the sweep ({T1_POINTS} "
        "geometric outputs, rtol 1e-7); empirical t1 rounded up to the grid; the two conclusions of part 1 "
        "(allowed region; own-class activation => own cone) both raise the ratio above 1; "
        f"{PROBE}",
    )
    ctx.note(
        f"worst empirical t1 / explicit t1 over the sweep: {worst_ratio:.3g}. The bound is very loose: "
        "min{zeta, xi} <= xi = mu^2 (largest xi), so the explicit t1 >= 16 log n / (mu^(5/2) X_min): "
        "not the headline O(log n / sqrt(mu)); zeta_2 (from W0) can make it steeper. See 't1 against mu'."
    )
    _scaling_figures(ctx, rows)
    _epsilon_limit(ctx, limit_rtol)
    _controls(ctx, h)


def _scaling_figures(ctx: Context, rows: list[dict]) -> None:
    """Explicit and measured t1 against mu, one line per n (log-log), with fitted slopes in a note."""
    series, slopes = [], []
    for n in sorted({row["n"] for row in rows}):
        sel = [row for row in rows if row["n"] == n]
        mu = np.array([row["mu"] for row in sel])
        emp = np.array([max(row["t1"]) for row in sel])
        bnd = np.array([max(row["bound"]) for row in sel])
        series += [Series(f"explicit t1, n={n}", mu, bnd, "--"), Series(f"measured t1, n={n}", mu, emp, "o")]
        if len(mu) > 1:
            slopes.append(
                f"n={n}: explicit {np.polyfit(np.log(mu), np.log(bnd), 1)[0]:.2f}, "
                f"measured {np.polyfit(np.log(mu), np.log(emp), 1)[0]:.2f}"
            )
    ctx.figure("t1 against mu", xlabel="mu", ylabel="t1", logx=True, logy=True, series=series)
    if slopes:
        ctx.note("log-log slopes of t1 against mu (worst seed): " + "; ".join(slopes))


def _epsilon_limit(ctx: Context, rtol: float) -> None:
    r"""Order of the gap between the flow at :math:`\epsilon` and the reduced dynamics (solver ``rtol``)."""
    rng = ctx.rng("limit").host
    p = family_problem(rng, 4, 0.5, 8, 1)
    # 1e-2..1e-4: the order is asymptotic (f = O(eps^2) small on the whole ladder). On one drawn problem
    # (--seed 2) the ladder 1e-1..10^-2.5 had max|f| = 10^-1.93 at its smallest member (above the regime's
    # 1%) and local slopes 1.33, 1.73, 1.96 from 1e-1 down (the gap saturates at O(1) eps)
    ladder = 10.0 ** -np.arange(2.0, 4.01, 0.5)
    q = p.repeat(len(ladder) + 1).with_log_eps(np.concatenate([[REDUCED_LOG_EPS], np.log(ladder)]))
    ts = np.linspace(0.0, 1.5, 31)
    traj = run(ctx.backend, q, ts, rtol=rtol)
    U = directions(traj, q.h)
    # "as eps -> 0": the ladder must reach the small-|f| regime at its smallest eps; its larger members are
    # the fit's range (their O(eps^4) curvature is in the order's tolerance)
    last = [q.B - 1]
    ctx.regime(SMALL_INIT, log10_max_f=log10_max_output(q.take(last), U[last], log_norms(traj, q.h)[last]))
    U_tight = directions(run(ctx.backend, q.take([0]), ts, rtol=rtol / 100), q.h)
    integ = float(np.abs(U[0] - U_tight[0]).max())
    gap = np.abs(U[1:] - U[:1]).max(axis=(1, 2, 3))
    ctx.bound(
        "integrator error << smallest gap",
        integ,
        gap.min() / 100,
        why="reduced run re-solved at rtol/100; the order fit needs the measured gaps 100x above it",
    )
    fit = fit_order(ladder, gap)
    ctx.order(
        "direction gap to the reduced dynamics vs eps",
        ladder,
        gap,
        expected=2.0,
        tol=(fit.hi - fit.lo) / 2
        + next_order_tolerance(ladder, gap, 2.0, 4.0)
        + slope_shift(ladder, integ / gap),
        why="at fixed t, |w_j|^2 = eps^2 |W0_j|^2 e^{O(t)}, so f = O(eps^2) and (Lemma 2) the field differs "
        "from the reduced one by O(eps^2); Groenwall (crossings included, they are transversal under "
        "Assumption 1) keeps the direction gap O(eps^2), with a relative O(eps^2) next term. Tolerance: the "
        "fit's 95% half-width + that term's slope shift (coefficient fitted from the same points, "
        "order_tolerance.next_order_tolerance) + the shift by the reduced run's integrator error (rtol vs "
        "rtol/100, relative integ/gap per point)",
        xlabel="eps",
        ylabel="max_j,t |u_j(eps) - u_j(0)|",
    )


def _controls(ctx: Context, h: int) -> None:
    """mu = 0 (orthogonal), XOR (mu = -1), large init: the conclusions visibly fail."""
    rng = ctx.rng("controls").host
    # x3 = -(e1 + e2)/sqrt(2), label -1: y3 x3 makes 45 degrees with x1 and x2, so mu = <x1, x2> = 0 still,
    # and x_- = x3 != 0 (Assumption 2 is defined; the V+ neurons, at angles -0.3..1.9 rad, are >= 2 rad from
    # x_-'s 3.93, zeta_2 > 0). (28) fails with Assumption 1 here, unavoidably: its right side carries
    # sqrt(mu) (first term) and 1/sqrt(mu) in an exponent (second), so it is 0 at mu = 0
    ortho = Problem(
        planar(np.array([0.0, np.pi / 2, 5 * np.pi / 4])),
        np.array([1.0, 1.0, -1.0]),
        planar(np.linspace(-0.3, 1.9, h)).reshape(1, h, 2),
        np.ones((1, h)),
        np.array([REDUCED_LOG_EPS]),
    )
    ts = _grid(10.0)
    with ctx.control(
        "orthogonal data x1=e1, x2=e2 (+1), x3=-(e1+e2)/sqrt(2) (-1) (mu = 0; (28)'s right side is then 0, "
        "so eps > 0 breaks (28) too), reduced dynamics to t=10",
        breaks=r"Assumption 1: $\mu>0$",
        must_break=["every neuron allowed at *"],
    ):
        U = directions(run(ctx.backend, ortho, ts, rtol=1e-9), h)
        ok = allowed(regions(U[:, -1], ortho.X, ortho.y), ortho.s).all()
        ctx.holds(
            "every neuron allowed at t=10",
            bool(ok),
            measured=bool(ok),
            expected=True,
            why="a V+ neuron active on x1 only (never on x3) approaches the x2-hyperplane like e^{-t} but "
            "never crosses it (at t=10 its angle is ~1e-5, far above the integrator's 1e-9 absolute error)",
        )
    X_xor, y_xor = planar(np.array([0.0, np.pi, np.pi / 2, -np.pi / 2])), np.array([1.0, 1.0, -1.0, -1.0])
    with ctx.control(
        "XOR data (mu = -1)", breaks=r"Assumption 1: $\mu>0$", must_break=["initial * activation => S+*"]
    ):
        # No integration: with mu < 0 the flow slides along hyperplanes (Filippov) and RK chatters.  The
        # conclusion fails for EVERY state, because S+ is empty: 4096 random directions, none in S+.
        W = rng.normal(size=(4096, 2))
        codes = regions(W, X_xor, y_xor)
        pos_active = (activation(W, X_xor) & (y_xor > 0)).any(-1)
        missed = int((pos_active & (codes != PLUS)).sum())
        ctx.holds(
            "initial positive activation => S+",
            missed == 0,
            measured=missed,
            expected=0,
            why="S+ = {z: <z,e1> > 0 and <z,-e1> > 0, ...} is empty; every positively activated "
            "direction misses it",
        )
    p = family_problem(rng, 4, 0.5, h, 2).with_log_eps(0.0)
    with ctx.control(
        "large initialization eps = 1",
        breaks=EPS_28,
        must_break=["every neuron allowed at *"],
    ):
        r = _alignment_run(ctx, p, rtol=1e-7)
        ctx.holds(
            "every neuron allowed at min(explicit t1, 20/mu)",
            bool(r["at_bound"].all()),
            measured=int(r["at_bound"].sum()),
            expected=p.B,
            why="at eps = 1 the loss is fitted before the directions align; neurons freeze outside the cones",
        )
        codes = r["ev"].codes[:, -1]
        ctx.figure(
            "large init: final region counts",
            series=[
                Series(f"member {b}", np.arange(4), np.bincount(codes[b], minlength=4), "o")
                for b in range(p.B)
            ],
            xlabel="region (0 other, 1 S+, 2 S-, 3 dead)",
            ylabel="neurons",
        )


def _final_grid(t_end: float) -> np.ndarray:
    """Output times of a final-phase run: 0, then geometric from 1e-3 to ``t_end``."""
    return np.concatenate([[0.0], np.geomspace(1e-3, t_end, GRID_POINTS)])


DOPRI5_REAL_STABILITY = 3.3  # |R(z)| <= 1 for real z in [-3.3065, 0] (R: DOPRI5's stability function)


def _step_budget(p: Problem) -> int:
    r"""Per-member DOPRI5 step budget (accepted + rejected) of a plain run through the growth phase.

    While a group is unfitted (:math:`f\approx0`) its neurons follow the reduced flow in their cone,
    :math:`\dot u=P_ux_\pm`, which pulls the direction onto :math:`x_\pm/|x_\pm|` at rate :math:`|x_\pm|`
    (eigenvalue :math:`-|x_\pm|` of the linearization), for the time :math:`|\log\epsilon|/|x_\pm|` that
    :math:`\rho` needs to climb from :math:`\log\epsilon` to O(1): the explicit method is held at
    :math:`h\le3.3/|x_\pm|` by stability (not by the ReLU kinks: ~10^2 switching events per run, nor by
    ``rtol``), i.e. <= :math:`|\log\epsilon|/3.3` accepted steps per group, :math:`2|\log\epsilon|/3.3`
    for both (measured at n = 16, mu = 0.2, log eps = -4.3e5: 168606 accepted, against
    :math:`|\log\epsilon|(2-|x|_{\min}/|x|_{\max})/3.3=1.69\cdot10^5`, and 16% rejected at the stability
    edge). Budget: twice that (rejections up to one per accepted step), plus :func:`common.run`'s 200000
    (its default) for the stretches that are not stability-bound (up to t1, after the fit). It is a safety
    stop only."""
    return 200_000 + int(2 * 2 * float(np.max(-p.log_eps)) / DOPRI5_REAL_STABILITY)


def _final_phase(backend, p: Problem, t_end: float) -> dict:
    """One run per member to ``t_end`` (:func:`common.run`, rtol 1e-7, the step budget of
    :func:`_step_budget`); the Theorem 1.2 quantities on the host."""
    ts = _final_grid(t_end)
    traj = run(backend, p, ts, rtol=1e-7, max_steps=_step_budget(p))
    return _final_quantities(p, ts, directions(traj, p.h), log_norms(traj, p.h), traj.ok)


def _final_quantities(p: Problem, ts: np.ndarray, U: np.ndarray, rho: np.ndarray, ok: np.ndarray) -> dict:
    """The Theorem 1.2 quantities of directions ``U`` (B, T, h, D), log-norms ``rho`` (B, T, h) at ``ts``."""
    ev = events(p, U)
    t1 = ev.t1_index
    k = np.arange(p.B)
    codes_t1 = ev.codes[k, np.minimum(t1, len(ts) - 1)]  # (B, h)
    Z = np.einsum("bthd,nd->bthn", U, p.X)  # pre-activations of unit directions
    contrib = p.s[:, None, :, None] * np.exp(2 * rho)[..., None] * RELU.value(Z)  # (B, T, h, n)
    f_plus = (contrib * (codes_t1 == PLUS)[:, None, :, None]).sum(2)
    f_minus = (contrib * (codes_t1 == 2)[:, None, :, None]).sum(2)
    f = contrib.sum(2)
    loss = np.exp(-p.y * f).sum(-1)
    hit_p = np.abs(f_plus[..., p.y > 0]).max(-1) > 0.25
    hit_m = np.abs(f_minus[..., p.y < 0]).max(-1) > 0.25
    t2_index = np.maximum(
        np.where(hit_p.any(1), hit_p.argmax(1), len(ts)), np.where(hit_m.any(1), hit_m.argmax(1), len(ts))
    )
    top = rho.max(-1, keepdims=True)  # scale out the common norm: no underflow at eps = e^-1000
    M = np.exp(rho - top)[..., None] * U
    finite = np.isfinite(M).all(axis=(-2, -1))  # a member stopped early (step cap) is NaN after its stop
    sv = np.full((*M.shape[:-2], min(M.shape[-2:])), np.nan)
    sv[finite] = np.linalg.svd(M[finite], compute_uv=False)
    return {
        "ts": ts,
        "ev": ev,
        "loss": loss,
        "t2_index": t2_index,
        "fro2": (sv**2).sum(-1),  # of W e^{-max rho}
        "spec2": sv[..., 0] ** 2,
        "log_scale2": 2 * top[..., 0],
        "groups": ((codes_t1 == PLUS).any(-1)) & ((codes_t1 == 2).any(-1)),
        "ok": ok,
    }


def _t2_bound(p: Problem, b: int) -> float:
    """eq. (39) with Theorem 1's explicit t1, the larger of the + and - versions."""
    c = constants(p, b)
    t1 = explicit_t1(p, b)
    out = []
    for npm in ((p.y > 0).sum(), (p.y < 0).sum()):
        a = np.sqrt(c["mu"]) * npm * c["Xmin"]
        out.append(
            t1
            + 6 / a
            + 4
            / a
            * (
                np.log(2 / (np.sqrt(c["mu"]) * c["Xmin"] * c["Wmin"] ** 2))
                - 2 * p.log_eps[b]
                + 4 * p.n * c["Xmax"] * t1
            )
        )
    return max(out)


def _part2(q: Problem, r: dict, b: int, alpha: float) -> tuple[float, float, float, float]:
    """Member ``b`` of a :func:`_final_phase` run ``r`` (both groups populated, t2 reached): max loss /
    bound for t > t2 (at t2 the ratio is 1 by definition of the bound; 0 if t2 is the last output), max of
    stable rank - 2 - 4 sqrt(h) eps W_max^2 / ||W||_2^2 - 16 eps64 stable rank for t >= empirical t1, the
    final stable rank, and max loss / bound where the bound has at least halved, t >= t2 + 1/(alpha L(t2))
    (NaN if the run ends before)."""
    ts, k2, k1 = r["ts"], int(r["t2_index"][b]), int(r["ev"].t1_index[b])
    L2, later = r["loss"][b, k2], slice(k2 + 1, None)
    ratio = r["loss"][b, later] / (L2 / (L2 * alpha * (ts[later] - ts[k2]) + 1))
    loss = float(np.max(ratio, initial=0.0))
    halved = ts[later] >= ts[k2] + 1 / (alpha * L2)
    late = float(ratio[halved].max()) if halved.any() else float("nan")
    # ||W||_F^2 <= 2||W||_2^2 + slack  <=>  stable rank <= 2 + slack / ||W||_2^2 (in scaled form)
    log_slack = np.log(4 * np.sqrt(q.h)) + q.log_eps[b] + 2 * np.log(np.linalg.norm(q.W0[b], axis=1).max())
    rel = np.exp(np.minimum(log_slack - r["log_scale2"][b, k1:], 700.0)) / r["spec2"][b, k1:]
    srank = r["fro2"][b, k1:] / r["spec2"][b, k1:]
    return loss, float(np.max(srank - 2 - rel - 16 * EPS_F * srank)), float(srank[-1]), late


LATE_TRIES = 4  # re-runs of _late_ratio: each ends at its own t2 + 2/(alpha L(t2)), so one usually does


def _late_ratio(q: Problem, t2: float, L2: float, alpha: float) -> float:
    """Max loss / bound where the bound has at least halved, for a one-member problem whose first run
    ended before t2 + 1/(alpha L(t2)) (eps inside (28): the fit is a jump between output times, so L(t2) is
    already small and 1/(alpha L(t2)) ~ 1e5): the member re-run by :func:`_jump_phase` (the flow to past
    t1, the closed form of the reduced flow while the float64 field is the reduced one, then integrated;
    its cost does not grow with |log eps|) to t2 + 2/(alpha L(t2)). The re-run reads t2 on its own output
    grid, which may round it up to a later output where L has dropped further, and the bound need not halve
    by its end: it is then re-run to its own t2 + 2/(alpha L(t2)), at most ``LATE_TRIES`` runs. NaN if a
    run fails or the bound has not halved by the last run's end."""
    for _ in range(LATE_TRIES):
        r = _jump_phase(q, t_end=t2 + 2 / (alpha * L2))
        k2 = int(r["t2_index"][0])
        if not (bool(r["ok"].all()) and r["groups"][0] and k2 < len(r["ts"])):
            return float("nan")
        late = _part2(q, r, 0, alpha)[3]
        if np.isfinite(late):
            return late
        t2, L2 = float(r["ts"][k2]), float(r["loss"][0, k2])
    return float("nan")


JUMP_LOG_F = -70 * np.log(
    2.0
)  # a group's closed-form stretch ends where X_max sum_j e^{2 rho_j} reaches 2^-70


def _cone_flow(
    U: np.ndarray, rho: np.ndarray, x: np.ndarray, tau: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    r"""Closed form of the reduced flow (4) of a group trapped in its cone, at times ``tau`` (T,) after
    the state (``U`` (h, D) unit, ``rho`` (h,)): ``(U (T, h, D), rho (T, h))``.

    A neuron of :math:`\mathcal V_+` in :math:`S_+` is active on exactly :math:`\mathcal I_+`, so with
    :math:`r_i=y_i` (:math:`f=0`) :math:`g_j=x_+` and :math:`\dot u=P_ux_+`,
    :math:`\dot\rho=\langle u,x_+\rangle` (:math:`\mathcal V_-` in :math:`S_-`: :math:`s_jg_j=x_-`, the
    same with ``x`` = :math:`x_-`). With
    :math:`c=\|x\|` and :math:`\theta` the angle to :math:`x`: :math:`\dot\theta=-c\sin\theta`, so
    :math:`\tan\frac\theta2=A e^{-c\tau}`, :math:`A=\tan\frac{\theta_0}2`, and :math:`\dot\rho=c\cos\theta=
    c+\frac{d}{d\tau}\log(1+A^2e^{-2c\tau})`: :math:`\rho=\rho_0+c\tau+\log\frac{1+A^2e^{-2c\tau}}{1+A^2}`.
    The path is the great circle from :math:`u_0` to :math:`x/c`, inside the convex cone (stays trapped)."""
    c = float(np.linalg.norm(x))
    a = x / c
    cos0 = U @ a
    perp = U - cos0[:, None] * a
    sin0 = np.linalg.norm(perp, axis=1)
    perp = perp / np.where(sin0 > 0, sin0, 1.0)[:, None]
    A = sin0 / (1.0 + cos0)  # tan(theta_0 / 2)
    k2 = (A[None, :] * np.exp(-c * tau[:, None])) ** 2
    cos, sin = (1 - k2) / (1 + k2), 2 * np.sqrt(k2) / (1 + k2)
    U_t = cos[..., None] * a + sin[..., None] * perp[None]
    return U_t, rho[None, :] + c * tau[:, None] + np.log1p(k2) - np.log1p(A**2)[None, :]


def _jump_ready(q: Problem, U: np.ndarray, rho: np.ndarray) -> bool:
    """Whether one member's state (``U`` (h, D), ``rho`` (h,)) admits :func:`_cone_flow`: every neuron
    strictly in its allowed cone (V+ active on exactly I+, V- on exactly I-, or no datum with
    <u, x_i> > 0: dead, static under sigma'(0) = 0) and X_max sum_j e^{2 rho_j} <= 2^-70."""
    Z = U @ q.X.T
    own = np.where(q.s[0][:, None] > 0, q.y[None] > 0, q.y[None] < 0)
    cone = np.all(np.where(own, Z > 0, Z < 0), axis=1)
    dead = np.all(Z <= 0, axis=1)
    log_f = np.log(np.linalg.norm(q.X, axis=1).max()) + logsumexp(2 * rho)
    return bool(np.all(cone | dead) and log_f <= JUMP_LOG_F)


def _jump_phase(q: Problem, t_end: float) -> dict:
    r""":func:`_final_phase` of a one-member problem at (28)'s :math:`\epsilon` (:math:`\log\epsilon` down to
    :math:`-10^7`, where the growth phase would cost ~|log eps| / 3.3 explicit steps): the flow is
    integrated on horizons growing 4x until its last output is past the empirical :math:`t_1` with
    :func:`_jump_ready`; from there the group in :math:`S_+` and the group in :math:`S_-` (decoupled:
    each sees only its own class, on which the other is inactive) follow :func:`_cone_flow` until their
    own :math:`X_{\max}\sum_je^{2\rho_j}` reaches :math:`2^{-70}` (there :math:`|-\ell'-y|\le2|f|\le2^{-69}`
    relative to the field: the closed form is the float64 flow), then each group is integrated alone to
    ``t_end``; dead neurons stay. Outputs on :func:`_final_grid`'s times; without a ready state by
    ``t_end`` the last integration is the run."""
    backend, ts = get_backend("numpy"), _final_grid(t_end)
    for k in np.unique(np.searchsorted(ts, 4.0 ** np.arange(1, 40)).clip(1, len(ts) - 1)):
        traj = run(backend, q, ts[: k + 1], rtol=1e-7)
        U, rho = directions(traj, q.h), log_norms(traj, q.h)
        reached = int(events(q, U).t1_index[0]) <= k
        if not bool(traj.ok.all()) or k == len(ts) - 1:
            return _final_quantities(q, ts[: k + 1], U, rho, traj.ok)
        if reached and _jump_ready(q, U[0, -1], rho[0, -1]):
            break
    rest = len(ts) - k - 1  # later outputs: dead neurons keep their state, each live group is filled in
    U, rho = (np.concatenate([a[0], np.repeat(a[0, -1:], rest, 0)]) for a in (U, rho))
    ok, tau, xmax = True, ts[k + 1 :] - ts[k], np.linalg.norm(q.X, axis=1).max()
    for x, sign in zip(aggregates(q.X, q.y), (1.0, -1.0), strict=True):
        idx = np.flatnonzero((q.s[0] == sign) & np.any(U[k] @ q.X.T > 0, axis=1))
        if not idx.size:
            continue
        U0, rho0 = U[k, idx], rho[k, idx]

        def excess(t: float, U0=U0, rho0=rho0, x=x) -> float:
            return float(np.log(xmax) + logsumexp(2 * _cone_flow(U0, rho0, x, np.array([t]))[1]) - JUMP_LOG_F)

        tb = tau[-1] if excess(tau[-1]) <= 0 else brentq(excess, 0.0, tau[-1], xtol=1e-12, rtol=1e-14)
        U[k + 1 :, idx], rho[k + 1 :, idx] = _cone_flow(U0, rho0, x, tau)
        after = k + 1 + np.flatnonzero(tau > tb)
        if not after.size:
            continue
        Ub, rb = (a[0] for a in _cone_flow(U0, rho0, x, np.array([tb])))
        top = float(rb.max())
        group = Problem(q.X, q.y, (Ub * np.exp(rb - top)[:, None])[None], q.s[:, idx], np.array([top]))
        traj = run(backend, group, np.concatenate([[0.0], ts[after] - ts[k] - tb]), rtol=1e-7)
        ok = ok and bool(traj.ok.all())
        U[np.ix_(after, idx)] = directions(traj, idx.size)[0, 1:]
        rho[np.ix_(after, idx)] = log_norms(traj, idx.size)[0, 1:]
    return _final_quantities(q, ts, U[None], rho[None], np.array([ok]))


PART2_H = 4  # neurons of Theorem 1.2's search instances (stable rank <= 2 is void for h <= 2)
# Theorem 1.2's eps ladder: log eps = c x log (28) - 1 for these c >= 1, so every rung is inside (28) (its
# threshold is negative: ~ -4e3 .. -7e4 on the quick setups). The span, half the threshold, moves t2 by
# ~ |log (28)| / (2 |x_+-|), many output steps (the geometric grid's relative step is <= 14% here), so the
# slope of t2 against log(1/eps) is resolved; the run's cost grows with |log eps| (~ |log eps| / 3.3
# steps), so the deepest rung, 1.5 x the threshold, costs 1.5 x the literal one.
LADDER_28 = np.array([1.0, 1.25, 1.5])


def _theorem12_violation(theta: np.ndarray) -> float:
    r"""Theorem 1.2 on one instance: the largest of loss / bound (over :math:`1+10^{-5}`, the sweep's
    tolerance) after t2 and where the bound has halved, 1 + the stable-rank excess, 1 + the label changes
    after :math:`t_1`; 0 when a group is empty at :math:`t_1` or t2 is not reached (outside the loss and
    rank conclusions; the label changes, unconditional, still count); NaN if the main run fails (the
    halved-bound ratio alone is left unread when only its continuation fails).

    ``theta`` = (:func:`instances.cone_instance` data (4 points in R^3, :math:`\mu>0`), :math:`W_0`
    (4, 3), 4 sign logits); eps = (28)'s threshold / e, inside (28) (log eps ~ -4e3 .. -1e7 on these
    instances), run by :func:`_jump_phase`; where the bound has not halved by the run's end the member
    is continued by :func:`_late_ratio` (at most ``LATE_TRIES`` runs, as the main run's members)."""
    X, y, _ = cone_instance(theta[:DATA], 0, SHAPE)
    W0 = theta[DATA : DATA + PART2_H * DIM].reshape(1, PART2_H, DIM)
    s = np.where(theta[DATA + PART2_H * DIM :] >= 0, 1.0, -1.0)[None]
    q = Problem(X, y, W0, s, np.zeros(1))
    q = q.with_log_eps(log_eps_threshold(q, 0) - 1.0)
    xa = min(np.linalg.norm(X[y > 0].sum(0)), np.linalg.norm(X[y < 0].sum(0)))
    r = _jump_phase(q, t_end=1.5 * (-q.log_eps[0]) / xa + 50)
    if not bool(r["ok"].all()):
        return float("nan")
    trap = int(r["ev"].trap_violations[0])
    trapped = 1.0 + trap if trap else 0.0
    k2 = int(r["t2_index"][0])
    if not r["groups"][0] or k2 >= len(r["ts"]):
        return trapped
    norms = np.linalg.norm(X, axis=1)
    alpha = (separation(X, y) * norms.min()) ** 2 / (32 * norms.max())
    loss, rank, _, late = _part2(q, r, 0, alpha)
    if not np.isfinite(late):  # continued past the halving as the main run's members are
        late = _late_ratio(q, r["ts"][k2], float(r["loss"][0, k2]), alpha)
        # a continuation the flow cannot follow to its end (step cap), or whose bound has not halved after
        # LATE_TRIES runs, leaves this one ratio unread, not a violation
        late = late if np.isfinite(late) else -np.inf
    return float(max(loss / (1 + 1e-5), late / (1 + 1e-5), 1.0 + rank, trapped))


def _t12_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """The three data families of :func:`instances.cone_starts`, Gaussian shapes, alternating signs."""
    signs = 1.0 - 2.0 * (np.arange(PART2_H) % 2)
    return {
        f"{name}, Gaussian init": [np.concatenate([ts[0][:DATA], rng.normal(size=PART2_H * DIM), signs])]
        for name, ts in cone_starts(rng, 0, SHAPE).items()
    }


PART2_PREMISE = Hypothesis(
    "S+ and S- both hold a neuron at t1",
    wording=r"both $S_+$ and $S_-$ contain at least one neuron at time $t_1$ (the premise of Theorem 1 "
    r"part 2's loss and low-rank conclusions)",
    condition="each data family keeps a setup whose members all have a neuron in S+ and one in S- at the "
    "empirical t1 (members without are outside those conclusions: left out of them and listed in a note)",
)


@claim(
    "min2024:theorem-1.2",
    title="Final phase: trapping after t1, O(1/t) loss bound with explicit alpha, stable rank <= 2",
    source="Theorem 1 part 2; App. D (Lemmas 12-15, eqs. (39), (41)-(43))",
    statement=(
        r"After $t_1$ each neuron stays in its region; if $S_\pm$ both hold a neuron at $t_1$, then for "
        r"$t\ge t_2=O(\frac1n\log\frac1\epsilon)$ (eq. (39)) "
        r"$\mathcal L(t)\le\mathcal L(t_2)/(\mathcal L(t_2)\alpha(t-t_2)+1)$, "
        r"$\alpha=(\mu X_{\min})^2/(32X_{\max})$, "
        r"and $\|W\|_F^2\le2\|W\|_2^2+4\sqrt h\epsilon W_{\max}^2$"
    ),
    hypotheses=[ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28, "exponential loss (sum)", PART2_PREMISE],
)
def theorem_1_2(ctx: Context) -> None:
    ns = ctx.param("n", tiny=(4,), quick=(4, 6), full=(4, 8, 16))
    mus = ctx.param("mu", tiny=(0.5,), quick=(0.5,), full=(0.5, 0.2))
    h = ctx.param("H", tiny=8, quick=12, full=20)
    budget = ctx.param("budget", tiny=1, quick=1, full=40)
    ns, mus = (ns,) if isinstance(ns, int) else ns, (mus,) if isinstance(mus, float) else mus
    # two structurally different data families (as min2024:theorem-1.1): family F (every pair at the same
    # correlation mu, balanced classes) and two random cones in R^4 (proof.cone_family, which reads the
    # parameter cone_n: before the first draw)
    cones = cone_family(ctx, "final", h, 1, tiny=(6,), quick=(6, 24), full=(8, 16, 32))
    rng = ctx.rng("final").host
    setups = [("F", n, mu, family_problem(rng, n, mu, h, 1)) for n in ns for mu in mus]
    setups += [("cones", n, mu, p) for n, mu, p in cones]
    rows, loss_gap, loss_late, rank_gap, slopes, final_srank, ran = [], [], [], [], [], [], []
    t2_pairs, premise = [], {"F": False, "cones": False}  # (t2 or its lower bound, (39), reached); per family
    for family, n, mu, p in setups:
        ladder = LADDER_28 * log_eps_threshold(p, 0) - 1.0  # every rung inside (28): see LADDER_28
        q = p.repeat(len(ladder)).with_log_eps(ladder)
        ran.append(q)
        xa = min(np.linalg.norm(p.X[p.y > 0].sum(0)), np.linalg.norm(p.X[p.y < 0].sum(0)))
        r = _final_phase(ctx.backend, q, t_end=1.5 * (-ladder.min()) / xa + 50)
        ts = r["ts"]
        alpha = (mu * np.linalg.norm(p.X, axis=1).min()) ** 2 / (32 * np.linalg.norm(p.X, axis=1).max())
        t2s, bounds39 = [], [_t2_bound(q, b) for b in range(q.B)]
        premise[family] |= bool(r["groups"].all())
        for b in range(q.B):
            k2 = int(r["t2_index"][b])
            t2s.append(ts[min(k2, len(ts) - 1)])  # not reached: the run's end, a lower bound of t2
            if not r["groups"][b]:  # outside part 2's premise: no t2, loss or rank conclusion
                continue
            t2_pairs.append((t2s[-1], bounds39[b], k2 < len(ts)))
            if k2 >= len(ts):
                continue
            loss, rank, last, late = _part2(q, r, b, alpha)
            if not np.isfinite(late):  # the bound halves after the run's end: continue this member there
                late = _late_ratio(q.take([b]), ts[k2], float(r["loss"][b, k2]), alpha)
            loss_late.append(late)
            loss_gap.append(loss)
            rank_gap.append(rank)
            final_srank.append(last)
        t2s = np.array(t2s)
        if r["groups"].all() and (r["t2_index"] < len(ts)).all():  # the slope needs every rung's t2
            slope = np.polyfit(-ladder, t2s, 1)[0]
            n_small = min((p.y > 0).sum(), (p.y < 0).sum())  # (39) is the larger of its + and - versions
            slope_bound = 8 / (np.sqrt(mu) * n_small * np.linalg.norm(p.X, axis=1).min())
            slopes.append((slope, slope_bound, 1 / xa))
        rows.append(
            {
                "n": n,
                "mu": mu,
                "log_eps": ladder.tolist(),
                "t1": ts[np.minimum(r["ev"].t1_index, len(ts) - 1)].tolist(),
                "t2": t2s.tolist(),
                "t2_reached": (r["t2_index"] < len(ts)).tolist(),
                "t2_bound_39": bounds39,
                "t1_reached": (r["ev"].t1_index < len(ts)).tolist(),
                "trap": r["ev"].trap_violations.tolist(),
                "groups": r["groups"].tolist(),
                "solved": r["ok"].tolist(),
            }
        )
        ctx.figure(
            f"loss, n={n}, mu={mu:.3g}",
            xlabel="t",
            ylabel="loss",
            logx=True,
            logy=True,
            series=[Series(f"log eps = {le:.4g}", ts[1:], r["loss"][b, 1:]) for b, le in enumerate(ladder)],
        )
    # every member counted in a conclusion is one of these (the whole ladder of every setup)
    record(ctx, ran, ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28)
    groups = [g for row in rows for g in row["groups"]]
    ctx.regime(
        PART2_PREMISE,
        reached=all(premise.values()),
        members_with_both_groups=sum(groups),
        members=len(groups),
        families_with_a_full_setup=sum(premise.values()),
    )
    if not all(groups):
        ctx.note(
            "outside part 2's premise (no neuron in S+ or in S- at t1; left out of the t2, loss and rank "
            "conclusions): "
            + "; ".join(f"n = {row['n']}, mu = {row['mu']:.3g}" for row in rows if not all(row["groups"]))
        )
    # A member the integrator did not follow to its end (DOPRI5 status not SUCCESS: its step cap) has no
    # flow past that point: its label changes and t2 are not the flow's, so it is left out of the trapping
    # check and makes the run undecided; it is evidence neither for nor against the theorem.
    solved = np.concatenate([row["solved"] for row in rows])
    traps = np.concatenate([row["trap"] for row in rows])
    unsolved = [
        f"n = {row['n']}, mu = {row['mu']:.3g}, log eps = {row['log_eps'][k]:.4g}"
        for row in rows
        for k, ok in enumerate(row["solved"])
        if not ok
    ]
    if unsolved:
        ctx.undecided(
            "every run integrated",
            f"{len(unsolved)} of {solved.size} members not integrated to their end (DOPRI5 status not "
            f"SUCCESS): {'; '.join(unsolved)}; left out of the trapping check (their unfinished paths "
            f"counted {int(traps[~solved].sum())} label changes)",
        )
    else:
        ctx.note(f"every run integrated: DOPRI5 status SUCCESS on all {solved.size} members")
    _trapping(
        ctx,
        np.concatenate([row["t1_reached"] for row in rows])[solved],
        int(traps[solved].sum()),
        "exact integer facts over all output times up to the end of the fitting phase, every integrated "
        "member (all inside (28), where part 1 gives t1): t1 reached (every neuron in S+, S- or S_dead at "
        "some output time) and no label change after it",
    )
    t2, bound39, reached = (np.array(v) for v in zip(*t2_pairs, strict=True)) if t2_pairs else ([],) * 3
    name = "t2 <= eq. (39)"
    if len(t2) and (reached.all() or np.any(t2[~reached] > bound39[~reached])):
        ctx.bound(
            name,
            t2,
            bound39,
            why="(39) with the explicit t1; measured t2 = first output time with max|f_+-| > 1/4 (rounded "
            "up), over the members with both groups at t1; a member whose run ends before t2 enters with the "
            "run's end, a lower bound of its t2 (decisive only above (39))",
        )
    else:
        ctx.undecided(
            name,
            f"{int((~reached).sum()) if len(t2) else 0} of {len(t2)} members with both groups never reach "
            "max|f_+-| > 1/4 within their runs, which end before their (39)",
        )
    ctx.bound(
        "loss / bound for t > t2 (alpha = (mu X_min)^2 / (32 X_max))",
        np.array(loss_gap),
        1.0 + 1e-5,
        why="DOPRI5 at rtol 1e-7: the relative error of the loss, a sum of n exponentials of f, is "
        "<= 1e-5 over the run (f = O(10), error in f <= 1e-6). The largest ratio sits just after t2, where "
        "the bound has hardly left L(t2) and the ratio is ~L(t)/L(t2) <= 1 by descent: the resolution is in "
        "the check where the bound has halved",
    )
    late, name = (
        np.array(loss_late),
        "loss / bound where the bound has at least halved (t >= t2 + 1/(alpha L(t2)))",
    )
    if np.isfinite(late).any():
        ctx.bound(
            name,
            late[np.isfinite(late)],
            1.0 + 1e-5,
            why="tolerance as above; there the bound decays like 1/(alpha t), so a loss decaying more slowly "
            "than the paper's rate would exceed it. Members whose first run ends before (eps inside (28): "
            "the fit is a jump between output times, L(t2) small, 1/(alpha L(t2)) ~ 1e5) are re-run to "
            "t2 + 2/(alpha L(t2)) by _jump_phase (_late_ratio; it agrees with the plain integration to 3e-7 "
            "in loss, within the tolerance); t2 is the first output time past max|f_+-| = 1/4: the bound "
            "integrates L' <= -alpha L^2, which holds from t2 on, so it holds from any later start too; "
            f"members left out (a failed re-run, or the bound not halved within {LATE_TRIES} re-runs): "
            f"{int((~np.isfinite(late)).sum())} of {len(late)}",
        )
    else:
        ctx.undecided(name, "no run reaches t2 + 1/(alpha L(t2)) (the bound never halves within the runs)")
    ctx.bound(
        "stable rank - 2 - 4 sqrt(h) eps W_max^2 / ||W||_2^2 for t >= empirical t1 (eqs. (41)-(43))",
        np.array(rank_gap),
        0.0,
        why="the bound divided by ||W||_2^2, computed on W e^{-max rho} (no underflow at eps = e^-1000); "
        "16 eps x stable rank allowed for the SVD's rounding (included in the measured value)",
        details={"final_stable_rank": final_srank},
    )
    s = np.array(slopes)
    name = "slope of t2 against log(1/eps) <= 8/(sqrt(mu) min(n_+, n_-) X_min) (t2 = O(log(1/eps)/n))"
    if len(s):
        ctx.bound(
            name,
            s[:, 0],
            s[:, 1],
            why="least-squares slope over the eps ladder (inside (28): log eps = (1, 1.25, 1.5) x its "
            "threshold - 1), compared with the dominant term of (39). Resolution: each t2 is rounded up by "
            "at most one output step (relative <= 14% here) while the rungs span half the threshold, so the "
            "fitted slope is within 0.14 x t2_max / span <= 0.14 x 3 = 0.42 x itself of the flow's; "
            f"setups with every rung's t2 reached ({len(s)} of {len(setups)}): measured slopes "
            f"{np.round(s[:, 0], 3).tolist()} against 1/|x_+-| = {np.round(s[:, 2], 3).tolist()}",
        )
    else:
        ctx.undecided(name, "no setup has both groups and a reached t2 on every rung of its eps ladder")
    ctx.search(
        "search: worst of loss / bound, 1 + stable-rank excess and 1 + label changes after t1",
        _theorem12_violation,
        _t12_starts(ctx.rng("search").host),
        budget=budget,
        why=f"Nelder-Mead over {N} data in R^{DIM} (mu > 0 by construction, three families), {PART2_H} "
        "neurons and signs, eps = (28)'s threshold / e (inside (28): log eps ~ -4e3 .. -1e7), each run to "
        "1.5 |log eps| / min|x_+-| + 50 by _jump_phase (the flow to past t1, then each cone group in closed "
        "form while X_max sum e^{2 rho} <= 2^-70, where the float64 field is the reduced one, then "
        "integrated; agrees with the plain integration to 3e-7 in loss and stable rank at log eps ~ -4e3); "
        "loss / bound also where it has halved (re-run to t2 + 2/(alpha L(t2))); instances with an empty "
        f"group at t1 (outside part 2) count 0; {DATA + PART2_H * DIM + PART2_H} parameters: at tiny and "
        "quick the search probes the starts only",
    )
    ctx.note("The explicit alpha = (mu X_min)^2 / (32 X_max) is very loose; the loss figures show the decay.")
    big = family_problem(rng, 4, 0.5, h, 2).with_log_eps(0.0)
    with ctx.control("large initialization eps = 1", breaks=EPS_28, must_break=["trapping: *"]):
        r = _final_phase(ctx.backend, big, t_end=30.0)
        _trapping(
            ctx,
            r["ev"].t1_index < len(r["ts"]),
            int(r["ev"].trap_violations.sum()),
            "as above; at eps = 1 the data are fitted before the directions align and neurons freeze outside "
            "the cones: no t1, so no trapping phase",
        )


def _trapping(ctx: Context, t1_reached: np.ndarray, changes: int, why: str) -> None:
    """Part 2's first conclusion: every member reaches t1 (every neuron in S+, S- or S_dead) and no label
    changes after it (Lemma 12)."""
    ctx.holds(
        "trapping: every run reaches t1 and no region label changes after it (Lemma 12)",
        bool(np.all(t1_reached)) and changes == 0,
        measured=f"{int(np.sum(t1_reached))} of {len(t1_reached)} reach t1, {changes} label changes",
        expected=f"{len(t1_reached)} of {len(t1_reached)} reach t1, 0 label changes",
        why=why,
    )
