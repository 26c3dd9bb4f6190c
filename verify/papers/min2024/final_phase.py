r"""min2024 App. C.2 eq. (29) and App. D.2's explicit intermediate results.

* eq. (29) -- :math:`\max_i|f|\le\frac{\min\{\mu,\zeta,\xi\}\sqrt\mu X_{\min}}{4nX_{\max}}` on
  :math:`[0,T]`, :math:`T=\frac1{4nX_{\max}}\log\frac1{\sqrt h\epsilon}`, measured at the largest
  :math:`\epsilon` that (29) uses (the first term of (28), with the catalog's 8), where
  :math:`f` is a normal float64 number;
* eqs. (33)-(35) -- :math:`\sum_{j\in\tilde{\mathcal V}_\pm}\|w_j\|^2\ge\frac1{4X_{\max}}` after
  :math:`t_2^\pm`;
* eqs. (37)-(38) -- refined alignment :math:`\cos(w_j,x_\pm)\ge\frac14` on
  :math:`[t_1+\frac{6}{\sqrt\mu n_\pm X_{\min}},t_2^\pm]`;
* eq. (40) -- on :math:`[t_1,t_2^\pm]`: :math:`\frac12\le-\ell'\le\frac32`,
  :math:`\cos(x_\pm,\tilde x_a)\ge\frac13`, :math:`\|\tilde x_a\|\ge\sqrt\mu n_\pm X_{\min}/2`.

Here :math:`x_\pm=\sum_{i\in\mathcal I_\pm}x_i`, :math:`\tilde x_a=\sum_{i\in\mathcal I_\pm}
-\ell'(y_i,f_\pm(x_i))x_i` (up to the sign :math:`y_i`), :math:`\tilde{\mathcal V}_\pm` the
neurons in :math:`S_\pm` at :math:`t_1`, :math:`t_2^\pm` the first time
:math:`\max_{i\in\mathcal I_\pm}|f_\pm(x_i)|>\frac14`.
Runs: balanced log-polar flow (ReLU, :math:`\sigma'(0)=0`, exponential loss summed), at the
literal :math:`\epsilon` of eq. (28) (:math:`\rho(0)=\log\epsilon` is an ordinary number).  The
intervals start at the smaller of the empirical :math:`t_1` (first output time with every neuron
allowed) and Theorem 1's explicit :math:`t_1`, so every interval checked contains the paper's.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from numeric.backend import get_backend, to_numpy
from numeric.data.separated_data import MINUS, PLUS, regions, separation
from numeric.engine.integrators.control import AdaptiveStep
from numeric.engine.integrators.methods import DOPRI5
from numeric.engine.solve import solve
from numeric.models.activation import RELU
from numeric.models.balanced_relu import LogPolarFlow, PlainFlow, join, split
from verify.claim import claim
from verify.context import Context
from verify.papers.min2024.common import (
    Problem,
    constants,
    directions,
    events,
    explicit_t1,
    family_problem,
    log_eps_first_term,
    log_eps_threshold,
    log_norms,
    run,
)
from verify.papers.min2024.hypotheses import ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28, EPS_29
from verify.papers.min2024.instances import (
    DATA,
    DIM,
    INIT,
    PROBE,
    SEARCH_CONE,
    H,
    N,
    cone_instance,
    cone_starts,
    near_x_minus,
    separated_problem,
    starts,
)
from verify.papers.min2024.proof import cone_family
from verify.papers.min2024.regimes import record
from verify.search import squash

RTOL = 1e-8
POINTS = 200
# Horizon factors of the D.2 runs, tried in turn until every member reaches t2+- of both classes: the
# first is enough for ~98% of the full profile's runs (at 1.5 one of 64 rows, a cone at n = 32, stopped
# before t2-); a longer grid with the same POINTS is coarser, so it is used only where it is needed.
HORIZONS = (1.5, 3.0, 6.0)
AFTER_T1 = r"$t\ge t_1$ (the neurons of $\tilde{\mathcal V}_\pm$ are in $S_\pm$)"
HYPS = [ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28, "exponential loss (sum)"]


def _sizes(ctx: Context) -> list[tuple[int, float]]:
    """The (n, mu) points of the trajectory claims."""
    return ctx.param(
        "runs",
        tiny=((4, 0.5),),
        quick=((4, 0.5), (6, 0.5), (8, 0.9)),
        full=((4, 0.5), (6, 0.2), (8, 0.9), (8, 0.5), (12, 0.5)),
    )


def _outputs(U: np.ndarray, rho: np.ndarray, s: np.ndarray, X: np.ndarray, keep: np.ndarray) -> np.ndarray:
    r""":math:`\sum_{j\in keep}s_je^{2\rho_j}\sigma(\langle u_j,x_i\rangle)`, ``(B, T, n)``."""
    w = (s * keep)[:, None, :, None] * np.exp(2 * rho)[..., None]
    return (w * RELU.value(np.einsum("bthd,nd->bthn", U, X))).sum(2)


def _t2_index(f: np.ndarray) -> int:
    """First output index with max_i |f_+-(x_i)| > 1/4 (len if never)."""
    hit = np.abs(f).max(-1) > 0.25
    return int(hit.argmax()) if hit.any() else len(f)


def _d2_setup(p: Problem, horizon: float) -> tuple[Problem, np.ndarray]:
    """D.2's runs: signs alternate (h/2 per class), eps at (28)'s threshold / e, and the output grid to
    ``horizon`` |log eps| / min |x_+-| + 50 (the growth rate of log|w|^2 is 2|x_+-| after t1)."""
    s = np.broadcast_to(np.where(np.arange(p.h) % 2 == 0, 1.0, -1.0), p.s.shape)
    p = Problem(p.X, p.y, p.W0, s.copy(), p.log_eps)
    p = p.with_log_eps([log_eps_threshold(p, b) - 1.0 for b in range(p.B)])
    xa = min(np.linalg.norm(p.X[p.y > 0].sum(0)), np.linalg.norm(p.X[p.y < 0].sum(0)))
    t_end = horizon * (-p.log_eps.min()) / xa + 50
    return p, np.concatenate([[0.0], np.geomspace(1e-3, t_end, POINTS)])


def _groups(p: Problem, ts: np.ndarray, backend) -> tuple:
    """One run on ``ts``: directions, log-norms, empirical t1 indices, success flags, host states."""
    traj = run(backend, p, ts, rtol=RTOL)
    U = directions(traj, p.h)
    return U, log_norms(traj, p.h), events(p, U).t1_index, np.asarray(traj.ok), to_numpy(traj.ys)


def _class_rows(p: Problem, ts: np.ndarray, U, rho, t1_index, b: int) -> list[dict]:
    """The D.2 quantities of member ``b``, one row per class (group at the empirical t1)."""
    k1 = int(t1_index[b])
    codes = regions(U[b, min(k1, len(ts) - 1)], p.X, p.y)
    c = constants(p, b)
    rows = []
    for label, cls in ((PLUS, 1.0), (MINUS, -1.0)):
        keep, own = codes == label, p.y == cls
        f = _outputs(U[b : b + 1], rho[b : b + 1], p.s[b : b + 1], p.X, keep[None])[0][:, own]
        xpm = p.X[own].sum(0)
        wts = np.exp(-cls * f)  # -l'(y_i, f_pm(x_i)) y_i for the exponential loss
        xt = wts @ p.X[own]  # (T, D): x~_a up to the sign y_i
        rows.append(
            {
                "class": int(cls),
                "keep": keep,
                "ts": ts,
                "k1": k1,
                "k2": _t2_index(f),
                "t1_explicit": explicit_t1(p, b),
                "neurons": int(keep.sum()),
                "norm_sum": np.exp(2 * rho[b][:, keep]).sum(-1),
                "weights": wts,
                "cos_xa": xt @ xpm / (np.linalg.norm(xt, axis=-1) * np.linalg.norm(xpm)),
                "xa_norm": np.linalg.norm(xt, axis=-1),
                "cos_w": (U[b][:, keep] @ xpm / np.linalg.norm(xpm)).min(-1, initial=np.inf),
                "rate": np.sqrt(separation(p.X, p.y)) * own.sum() * c["Xmin"],
                "Xmax": c["Xmax"],
                "log_eps": float(p.log_eps[b]),
            }
        )
    return rows


def _refine(backend, p: Problem, b: int, row: dict, y0: np.ndarray, levels: int = 4) -> dict:
    r"""Locate :math:`t_2^\pm` inside its output cell by ``levels`` nested 33-point restarts.

    Returns (35)'s ratio :math:`4X_{\max}\sum_j\|w_j\|^2` at the last fine point before
    :math:`t_2` (a lower bound of its value at :math:`t_2`: the sum is nondecreasing after
    :math:`t_1`, Lemma 14) and at the first point after (an upper bound), and the extreme
    weights :math:`-\ell'` on the fine points before :math:`t_2`.
    """
    own = p.y == row["class"]
    args = LogPolarFlow.args(backend, p.X, p.y, s=p.s[b : b + 1])
    control = AdaptiveStep(rtol=RTOL, atol=RTOL * 1e-2)
    a, z, lo, hi = row["ts"][row["k2"] - 1], row["ts"][row["k2"]], np.inf, 0.0
    for _ in range(levels):
        ts = np.linspace(a, z, 33)
        traj = solve(LogPolarFlow(), backend.asarray(y0[None]), ts, method=DOPRI5, control=control, args=args)
        U, rho = directions(traj, p.h), log_norms(traj, p.h)
        f = _outputs(U, rho, p.s[b : b + 1], p.X, row["keep"][None])[0][:, own]
        k = _t2_index(f)
        wts = np.exp(-row["class"] * f)
        lo, hi = min(lo, wts[:k].min(initial=np.inf)), max(hi, wts[:k].max(initial=0.0))
        y0, a, z = to_numpy(traj.ys)[0, k - 1], ts[k - 1], ts[k]
    sums = 4 * row["Xmax"] * np.exp(2 * rho[0, k - 1 : k + 1][:, row["keep"]]).sum(-1)
    return {"t2_lower": sums[0], "t2_upper": sums[1], "fine_lo": lo, "fine_hi": hi}


def _d2_run(problem: Problem, backend) -> tuple:
    r"""One D.2 data set: ``(p, ts, rows per member, ok, ys, horizon)``, re-run on the next of
    :data:`HORIZONS` while a member has not reached :math:`t_2^\pm`; a member's rows are None when a
    group is empty at :math:`t_1` (outside part 2 of Theorem 1)."""
    for horizon in HORIZONS:
        p, ts = _d2_setup(problem, horizon)
        U, rho, t1_index, ok, ys = _groups(p, ts, backend)
        members = [_class_rows(p, ts, U, rho, t1_index, b) for b in range(p.B)]
        members = [rows if min(r["neurons"] for r in rows) > 0 else None for rows in members]
        if all(r["k2"] < len(ts) for rows in members for r in rows or ()):
            break
    return p, ts, members, ok, ys, horizon


def d2_runs(ctx: Context, seeds: int) -> tuple[list[dict], int]:
    r"""Per (n, mu, member, class) the D.2 quantities, and the number of members skipped.

    One run per data set on a geometric grid (:func:`_d2_run`); each :math:`t_2^\pm` is then located
    by :func:`_refine`
    (the norms grow like :math:`e^{2\|x_\pm\|t}`, so a coarse cell would measure (35) far above
    its value at :math:`t_2`).  Signs alternate (h/2 per class); members with an empty group
    at :math:`t_1` are outside part 2 of Theorem 1 and are skipped (counted).
    """
    rng = ctx.rng("d2").host
    sizes, h = _sizes(ctx), ctx.param("H", tiny=8, quick=8, full=16)
    # two structurally different data families: family F (every pair at the same correlation mu, balanced
    # classes) and two random cones in R^4 (proof.cone_family)
    cones = cone_family(ctx, "d2", h, seeds, tiny=(6,), quick=(6, 24), full=(8, 16, 32))  # reads cone_n first
    setups = [(n, mu, family_problem(rng, n, mu, h, seeds)) for n, mu in sizes] + cones
    out, skipped, problems = [], 0, []
    for n, mu, problem in setups:
        p, ts, members, ok, ys, horizon = _d2_run(problem, ctx.backend)
        problems.append(p)
        skipped += members.count(None)
        for b, rows in enumerate(members):
            for r in rows or ():
                fine = _refine(ctx.backend, p, b, r, ys[b, r["k2"] - 1]) if 0 < r["k2"] < len(ts) else {}
                out.append(
                    {"n": n, "mu": mu, "member": b, "ok": bool(ok[b]), "horizon": horizon, **r, **fine}
                )
    record(ctx, problems, ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28)
    return out, skipped


@lru_cache(maxsize=512)
def _d2_instance(key: bytes) -> tuple[dict, ...] | None:
    """The D.2 rows (both classes, refined t2) of the search instance ``np.frombuffer(key)``
    (:func:`instances.separated_problem`, then :func:`_d2_run`); None when a group is empty at t1
    (outside part 2 of Theorem 1); rows with ``"ok": False`` when the run fails or misses t1 < t2.
    Cached: the three D.2 claims' searches start from the same instances (one seed)."""
    backend = get_backend("numpy")
    p, ts, (rows,), ok, ys, _ = _d2_run(separated_problem(np.frombuffer(key), (0.0, 0.0)), backend)
    if rows is None:
        return None
    out = []
    for r in rows:
        good = bool(ok[0]) and r["k1"] < r["k2"] < len(ts)
        out.append({**r, "ok": good, **(_refine(backend, p, 0, r, ys[0, r["k2"] - 1]) if good else {})})
    return tuple(out)


def _d2_search_params(ctx: Context) -> tuple[int, int]:
    """(data families, evaluations per start) of :func:`_d2_search`; read at the top of the claim body."""
    return ctx.param("search_families", tiny=0, quick=2, full=3), ctx.param(
        "budget", tiny=2, quick=2, full=10
    )


# The D.2 search's scope: instances whose eps of (28) has |log eps| <= D2_SCOPE. The run to t2 lasts
# ~1.5 |log eps| / |x_+-| (:func:`_d2_setup`) and DOPRI5's stable step on the aligned directions is
# O(1 / |x|), so an instance costs ~|log eps|: measured 1.4e-4 s per unit (0.95 s at 5.0e3, clustered
# start; 4.9 s at 3.5e4, spread start), so 1e5 costs ~14 s. (28)'s second term grows like
# mu^(-5/2) X_max / X_min (xi = mu^2), so the nearly orthogonal start (mu = 0.034, X_max / X_min = 11)
# needs |log eps| = 1.9e7: a run of ~4e6 time units, beyond any budget (it never reached t2). Half the
# scope buys mu ~ 0.14 at X_max = X_min (64 n log n / mu^(5/2) = 5e4 at n = 4), 0.385 at the start's 11.
D2_SCOPE = 1e5
TANGENT = N * (DIM - 1)  # the generators' components orthogonal to e_1 lead theta (instances.cone_instance)
RADII = slice(TANGENT, DATA)  # then their log radii


def _d2_log_eps(theta: np.ndarray) -> float:
    """log eps of the D.2 instance of ``theta``: (28)'s threshold - 1 (:func:`_d2_setup`)."""
    return log_eps_threshold(separated_problem(theta, (0.0, 0.0)), 0) - 1.0


def _into_scope(theta: np.ndarray) -> tuple[np.ndarray, str]:
    """``theta`` unchanged if its instance's |log eps| <= D2_SCOPE / 2; otherwise the same data family
    brought in at the least correlation the scope affords, spending it on mu and not on the radii: the
    generators' log radii r_i set to their mean (|x_i| = r sqrt(1 + |p_i|^2), so X_max / X_min < sqrt 2:
    1.03 for the nearly orthogonal start, was 11; (28)'s second term is proportional to it), then, if still
    beyond, the tangential block scaled by the largest 2^-c, c in [0, 30] bisected to 2^-20, with
    |log eps| <= D2_SCOPE / 2 (mu and zeta_1 grow as the block shrinks; halving it at the start's radii
    left that start at mu 0.385, now 0.140 at the same cost). Returns the start and what was done to it
    ('' if nothing)."""
    theta = np.array(theta, float)
    if _d2_log_eps(theta) >= -D2_SCOPE / 2:
        return theta, ""
    theta[RADII] = theta[RADII].mean()
    if _d2_log_eps(theta) >= -D2_SCOPE / 2:
        return theta, "radii equalised"
    inside, beyond = -30.0, 0.0  # log2 of the tangential scale: in scope at 2^-30 (generators ~ e_1)
    for _ in range(20):
        mid = (inside + beyond) / 2
        trial = theta.copy()
        trial[:TANGENT] *= 2.0**mid
        inside, beyond = (mid, beyond) if _d2_log_eps(trial) >= -D2_SCOPE / 2 else (inside, mid)
    theta[:TANGENT] *= 2.0**inside
    return theta, f"radii equalised, tangential block x {2.0**inside:.3g}"


def _d2_search(ctx: Context, name: str, ratio, why: str, families: int, budget: int) -> None:
    """``ctx.search`` of ``ratio(rows)`` over the D.2 instances (NaN if a run fails or misses t2; 0 when
    a group is empty at t1, outside the statement), over the ``families`` cheapest data families of
    :func:`instances.starts`, every start brought into the scope |log eps| <= D2_SCOPE by
    :func:`_into_scope` (the nearly orthogonal start at mu 0.140, equal radii). One instance costs
    ~1.4e-4 s per unit of |log eps| (0.6-1 s clustered, 3.5-5 s spread, ~11 s for the nearly orthogonal
    start drawn into the scope): quick searches the first two
    (cached: the three D.2 claims share the instances), full all three (282 s for eq. (35), the first of
    the three in one run; 139 s and 73 s for the others); tiny records a note. An instance beyond the
    scope (a Nelder-Mead step that lowers mu or zeta) scores 0 and is counted in a note: it is inside the
    hypotheses but not evaluated."""
    if not families:
        ctx.note(f"{name}: run at quick and full (one D.2 instance costs 0.6-14 s at the literal eps)")
        return
    beyond: list[float] = []

    def violation(theta: np.ndarray) -> float:
        log_eps = _d2_log_eps(theta)
        if log_eps < -D2_SCOPE:
            beyond.append(log_eps)
            return 0.0
        rows = _d2_instance(np.asarray(theta, float).tobytes())
        if rows is None:
            return 0.0
        return float(ratio(rows)) if all(r["ok"] for r in rows) else float("nan")

    pool = starts(np.random.default_rng(D2_SEED), INIT)
    order = sorted(pool, key=lambda k: ("clustered" not in k, "orthogonal" in k))[:families]  # cheapest first
    scoped, labels = {}, []
    for k in order:
        moved = [_into_scope(theta) for theta in pool[k]]
        draws = sorted({draw for _, draw in moved if draw})
        label = f"{k}, drawn in ({'; '.join(draws)})" if draws else k
        scoped[label] = [theta for theta, _ in moved]
        mu = min(separation(q.X, q.y) for q in (separated_problem(t, (0.0, 0.0)) for t in scoped[label]))
        labels.append(f"{label} (mu {mu:.3f})")
    ctx.search(
        name,
        violation,
        scoped,
        budget=budget,
        why=f"{why}; Nelder-Mead over {N} data in R^{DIM} (mu > 0 by construction; the {families} cheapest "
        f"data families: {', '.join(labels)}), {H} neurons with free signs (an empty group at t1 counts 0), "
        f"eps at (28)'s threshold / e, t2 refined as in the sweep (rtol {RTOL:g}); scope |log eps| <= "
        f"{D2_SCOPE:.0e} (the run's cost grows like |log eps|; instances beyond it score 0, counted in a "
        f"note); {PROBE}",
    )
    if beyond:
        ctx.note(
            f"{name}: {len(beyond)} evaluated instances lie beyond the scope |log eps| <= {D2_SCOPE:.0e} "
            f"(log eps down to {min(beyond):.3g}): inside the hypotheses, not integrated, scored 0"
        )


def _below(bound: float, value: float) -> float:
    """``value >= bound > 0`` as the ratio bound / value (> 1 iff violated; 2 + |value| when value <= 0)."""
    return bound / value if value > 0 else 2.0 + abs(value)


D2_SEED = 20240607  # the D.2 searches' starts (fixed before looking; shared so the runs are cached)


def _premises(ctx: Context) -> list[dict]:
    """The runs, and the premises of D.2: every run solved, t1 and t2 reached, few members skipped."""
    rows, skipped = d2_runs(ctx, ctx.param("seeds", tiny=1, quick=1, full=4))
    ok = len(rows) > 0 and all(
        r["ok"] and r["neurons"] > 0 and r["k1"] < r["k2"] < len(r["ts"]) for r in rows
    )
    ctx.holds(
        "runs solved; S+ and S- populated at t1; t1 < t2+- inside the run",
        ok,
        measured=[(r["n"], r["mu"], r["class"], r["neurons"], r["k1"], r["k2"]) for r in rows],
        expected="all",
        why="DOPRI5 status SUCCESS; output indices of empirical t1 and t2+- (rounded up to the grid)",
        details={
            "skipped_members_with_an_empty_group": skipped,
            "runs_on_a_longer_horizon": sorted(
                {(r["n"], r["mu"], r["horizon"]) for r in rows if r["horizon"] > HORIZONS[0]}
            ),
        },
    )
    return rows


def _rho_tol(rows: list[dict]) -> float:
    r"""Relative tolerance on :math:`\sum e^{2\rho}`: :math:`2\delta\rho`, :math:`\delta\rho\le10\,
    \mathrm{rtol}\max|\rho|` (DOPRI5's global error, :math:`|\rho|\le|\log\epsilon|`)."""
    return 20 * RTOL * max(-r["log_eps"] for r in rows)


def _eq35_value(r: dict, at_t2: str = "t2_lower") -> float:
    """4 X_max min_{t >= t2} sum_{j in V+-} |w_j|^2 of one class row, its value at t2 taken from the last
    fine point before t2 (``"t2_lower"``, a lower bound) or the first after (``"t2_upper"``)."""
    return float(min(r[at_t2], 4 * r["Xmax"] * r["norm_sum"][r["k2"] :].min()))


@claim(
    "min2024:equation-35",
    title="After t2, the neurons of each group carry norm sum >= 1/(4 X_max) (eqs. (33)-(35))",
    source="App. D.2, eqs. (33)-(35) (Lemma 14)",
    statement=(
        r"For $t\ge t_2$: $\sum_{j\in\tilde{\mathcal V}_+}\|w_j\|^2\ge\frac1{4X_{\max}}$ and "
        r"$\sum_{j\in\tilde{\mathcal V}_-}\|w_j\|^2\ge\frac1{4X_{\max}}$"
    ),
    hypotheses=HYPS,
)
def equation_35(ctx: Context) -> None:
    families, budget = _d2_search_params(ctx)
    rows = _premises(ctx)
    ratio = np.array([_eq35_value(r) for r in rows])
    gap = max(r["t2_upper"] / r["t2_lower"] - 1 for r in rows)
    tol = _rho_tol(rows)
    ctx.bound(
        "4 X_max min_{t >= t2+-} sum_{j in V+-} |w_j|^2 (checked from t2+- on, which implies t >= t2)",
        ratio,
        1.0 - tol,
        side=">=",
        why=f"(33): 1/4 < f_+-(x_i1) <= sum |w_j|^2 |x_i1| at t2+-, then Lemma 14; measured at the last "
        f"fine point before t2 (a lower bound; the first point after is at most {gap:.1e} higher); tolerance "
        f"{tol:.1e} = 2 x (10 rtol max|rho|), the integrator's error on log|w|^2",
        details={"ratios": ratio.tolist()},
    )
    _d2_search(
        ctx,
        "search: worst (1 - tol) / (4 X_max min_{t >= t2+-} sum |w_j|^2) over data and init",
        lambda rows: max(_below(1.0 - _rho_tol(rows), _eq35_value(r, "t2_upper")) for r in rows),
        "the check above as a ratio, on one instance per evaluation, with the first fine point after t2 "
        "(an upper bound of the value at t2, so that a ratio > 1 is conclusive near the equality case)",
        families,
        budget,
    )
    ctx.note(
        f"measured/bound at t2+-: {np.round(ratio, 2).tolist()}: the bound is tight to a factor "
        "X_max/|x_i1| times the cosine slack of (33)"
    )
    with ctx.control(
        "unbalanced init v_j(0) = 4 s_j, W(0) = 1e-3 W0 (plain flow)",
        breaks="balanced initialization (3)",
        must_break=["4 X_max *|w_j|^2*"],
    ):
        ctx.bound(
            "4 X_max sum_{s_j = +-1} |w_j|^2 at the first output time with max_{I+-} |f_+-| > 1/4",
            _unbalanced_ratio(ctx),
            1.0,
            side=">=",
            why="v^2 - |w|^2 is conserved, so |v| >= 4 and f = v |w| <u, x> reaches 1/4 at |w| ~ 1/(16 X); "
            "measured at the first output after the crossing (an overestimate, so a failure is conclusive)",
        )


def _unbalanced_ratio(ctx: Context) -> np.ndarray:
    """(35)'s measured/bound for both classes of an unbalanced run of the plain flow (h = 8, n = 4)."""
    p = family_problem(ctx.rng("unbalanced").host, 4, 0.5, 8, 1)
    s = np.where(np.arange(p.h) % 2 == 0, 1.0, -1.0)
    state = join(1e-3 * p.W0, 4.0 * s[None])
    ts = np.linspace(0.0, 1.0, 401)
    control = AdaptiveStep(rtol=RTOL, atol=RTOL * 1e-2)
    args = LogPolarFlow.args(ctx.backend, p.X, p.y, s=s)
    traj = solve(PlainFlow(), ctx.backend.asarray(state), ts, method=DOPRI5, control=control, args=args)
    W, v = split(to_numpy(traj.ys)[0], p.h)
    out = []
    for cls in (1.0, -1.0):
        own, keep = p.y == cls, s == cls
        f = (v[:, keep, None] * RELU.value(W[:, keep] @ p.X[own].T)).sum(1)
        k = _t2_index(f)
        out.append(4 * np.linalg.norm(p.X, axis=1).max() * (W[k, keep] ** 2).sum())
    return np.array(out)


def _refined_cos(r: dict) -> float:
    """min_j min_t cos(w_j, x_+-) over [min(empirical, explicit t1) + 6/(sqrt(mu) n X_min), t2+-] of one
    class row (inf if the interval holds no output time)."""
    ts = r["ts"]
    start = min(ts[r["k1"]], r["t1_explicit"]) + 6 / r["rate"]
    return float(r["cos_w"][(ts >= start) & (np.arange(len(ts)) <= r["k2"])].min(initial=np.inf))


@claim(
    "min2024:section-D.2-refined-alignment",
    title="Refined alignment: cos(w_j, x_+-) >= 1/4 on [t1 + 6/(sqrt(mu) n_+- X_min), t2+-] (eqs. (37)-(38))",
    source="App. D.2, eqs. (36)-(38)",
    statement=(
        r"For every $j\in\tilde{\mathcal V}_+$, $\cos(w_j,x_+)\ge\frac14$ for all "
        r"$t\in[t_1+\frac{6}{\sqrt\mu n_+X_{\min}},t_2^+]$ (mirror for $\tilde{\mathcal V}_-$)"
    ),
    hypotheses=[*HYPS, AFTER_T1],
)
def refined_alignment(ctx: Context) -> None:
    families, budget = _d2_search_params(ctx)
    rows = _premises(ctx)
    worst, at_t1, explicit_pts = [], [], 0
    for r in rows:
        ts = r["ts"]
        worst.append(_refined_cos(r))
        at_t1.append(r["cos_w"][r["k1"]])
        explicit_pts += int(
            ((ts >= r["t1_explicit"] + 6 / r["rate"]) & (np.arange(len(ts)) <= r["k2"])).sum()
        )
    worst = np.array(worst)
    ctx.holds(
        "[min(empirical, explicit t1) + 6/(sqrt(mu) n X_min), t2+-] holds output times in every run",
        bool(np.all(np.isfinite(worst))),
        measured=int(np.isfinite(worst).sum()),
        expected=len(worst),
        why="otherwise the check is vacuous; the explicit-t1 interval holds "
        f"{explicit_pts} output times over all runs (a sub-interval of the empirical one)",
    )
    ctx.bound(
        "min_j min_t cos(w_j, x_+-) over the interval",
        worst,
        0.25 - 1e-6,
        side=">=",
        why="directions carry the integrator's error ~10 rtol = 1e-7; 1e-6 allowed",
        details={"at_empirical_t1": np.round(at_t1, 4).tolist()},
    )
    _d2_search(
        ctx,
        "search: worst (1/4 - 1e-6) / min_j min_t cos(w_j, x_+-) over data and init",
        lambda rows: max(_below(0.25 - 1e-6, _refined_cos(r)) for r in rows),
        "the check above as a ratio (an empty interval counts 0), on one instance per evaluation",
        families,
        budget,
    )
    needed = sum(c < 0.25 for c in at_t1)
    ctx.note(
        f"worst cosine on the interval {worst.min():.3f} against 1/4 (the bound is loose: neurons end "
        f"near x_+-'s direction); at the empirical t1 the worst is {min(at_t1):.3f}, below 1/4 in "
        f"{needed} of {len(at_t1)} runs: there the 6/(sqrt(mu) n X_min) delay is used"
    )
    r = min(rows, key=lambda r: r["cos_w"][1])
    with ctx.control(
        "same runs, cosine at t = 1e-3 (before t1: neurons not yet in S+-)",
        breaks=AFTER_T1,
        must_break=["min_j*cos(w_j, x_+-)*"],
    ):
        ctx.bound(
            "min_j cos(w_j, x_+-) at the first output time",
            min(row["cos_w"][1] for row in rows),
            0.25,
            side=">=",
            why="random Gaussian directions: some neuron of the group starts at a small cosine",
            details={"run": (r["n"], r["mu"], r["class"])},
        )


def _eq40_values(r: dict) -> tuple[float, float, float, float]:
    """On [min(empirical, explicit t1), t2+-) of one class row: min and max -l' (the fine points before t2
    included), min cos(x_+-, x~_a) and min |x~_a| / (sqrt(mu) n X_min / 2)."""
    k1 = min(r["k1"], int(np.searchsorted(r["ts"], r["t1_explicit"])))
    sl = slice(k1, r["k2"])  # |f_+-| <= 1/4 at every output time here
    return (
        float(min(r["weights"][sl].min(), r["fine_lo"])),
        float(max(r["weights"][sl].max(), r["fine_hi"])),
        float(r["cos_xa"][sl].min()),
        float((r["xa_norm"][sl] / (r["rate"] / 2)).min()),
    )


EPS = float(np.finfo(float).eps)
EQ40_WEIGHTS = (0.5, 1.5)  # the range of -l'(y_i, f_+-(x_i)) that (40) grants on [t1, t2+-]
PREMISE_F = np.linspace(-0.25, 0.25, 101)  # y f over (40)'s premise |f_+-| <= 1/4 (ends included)


def _premise_weights() -> tuple[np.ndarray, np.ndarray]:
    r""":math:`-y\ell'(y,f)` over :math:`|f|\le\frac14` (:data:`PREMISE_F` as :math:`yf`) for Theorem 1's two
    losses: :math:`e^{-yf}` (exponential) and :math:`\frac2{1+e^{yf}}` (:math:`2\log(1+e^{-yf})`, App. B)."""
    return np.exp(-PREMISE_F), 2 / (1 + np.exp(PREMISE_F))


def _eq40_state(theta: np.ndarray) -> list[tuple[float, float]]:
    r"""Both closing claims of (40) at one admissible state, per class: ``(cos(x_pm, x~_a), |x~_a| /
    (sqrt(mu) n_pm X_min / 2))``.

    ``theta`` = (the data block of :func:`instances.cone_instance` at ``SEARCH_CONE``: any data with
    :math:`\mu>0`, alternating labels, log radii clipped to [-20, 20]; ``n`` weight logits squashed into
    [1/2, 3/2]): the states the premise :math:`\frac12\le-\ell'\le\frac32` allows, whatever the flow
    (a superset of those met on :math:`[t_1,t_2^\pm]`). :math:`\tilde x_a=\sum_{i\in\mathcal I_\pm}a_ix_i`,
    :math:`x_\pm=\sum_{i\in\mathcal I_\pm}x_i`; :math:`\mu` and :math:`X_{\min}` of the whole data set.
    """
    n, D = SEARCH_CONE
    data = np.array(theta[: n * D], float)
    data[n * (D - 1) :] = np.clip(data[n * (D - 1) :], -20.0, 20.0)  # log radii: both claims are scale-free
    X, y, _ = cone_instance(data, 0)
    a = np.array([squash(z, *EQ40_WEIGHTS) for z in theta[n * D : n * D + n]])
    mu, x_min = separation(X, y), float(np.linalg.norm(X, axis=1).min())
    out = []
    for cls in (1.0, -1.0):
        own = y == cls
        xt, xpm = a[own] @ X[own], X[own].sum(0)
        norm = float(np.linalg.norm(xt))
        out.append(
            (float(xt @ xpm) / (norm * np.linalg.norm(xpm)), norm / (np.sqrt(mu) * own.sum() * x_min / 2))
        )
    return out


def _eq40_state_searches(ctx: Context, budget: int) -> None:
    """Instance searches of (40)'s two closing claims over data with mu > 0 and weights in [1/2, 3/2]."""
    rng = ctx.rng("eq40-states").host
    pool = cone_starts(rng, 1)
    n, D = SEARCH_CONE  # the equality case of the norm claim: colinear generators, equal radii, weights 1/2
    edge = np.concatenate([np.zeros(n * D), np.full(n, -8.0)])
    pool["edge: generators 1e-3 from e_1, equal radii, weights near 1/2"] = [
        edge + np.concatenate([1e-3 * rng.normal(size=n * (D - 1)), np.zeros(2 * n)]) for _ in range(2)
    ]
    scope = (
        f"Nelder-Mead over data with mu > 0 (generators, radii; (n, D) = {SEARCH_CONE}, alternating labels) "
        "and weights a_i = -l'_i in [1/2, 3/2] (the premise of the 'hence', not a flow: a superset of the "
        "states met on [t1, t2+-])"
    )
    ctx.search(
        "search: worst (1/3) / cos(x_+-, x~_a) over data with mu > 0 and weights in [1/2, 3/2]",
        lambda th: max(1 / 3 / (c + 8 * EPS) for c, _ in _eq40_state(th)),
        pool,
        budget=budget,
        why=f"{scope}; 8 ulps added to the cosine. Resolution: the infimum is 2 sqrt(3)/4 = 0.866 (weights "
        "1/2 and 3/2 on orthogonal generators, the edge mu -> 0), so the paper's 1/3 holds with a factor 2.6 "
        "to spare and only a cosine error below 1/3 would be caught",
    )
    ctx.search(
        "search: worst (sqrt(mu) n X_min / 2) / |x~_a| over data with mu > 0 and weights in [1/2, 3/2]",
        lambda th: max((1 - 16 * EPS) / r for _, r in _eq40_state(th)),
        pool,
        budget=budget,
        why=f"{scope}; 16 eps relative allowed (|x~_a|: <= 3 terms in R^3, ~7 roundings; sqrt(mu): ~5; "
        "X_min: ~3; doubled). Resolution: |x~_a|^2 >= (1/4)(n X_min^2 + n(n-1) mu X_min^2) "
        ">= mu n^2 X_min^2 / 4 is an equality at mu = 1 with equal radii and every weight 1/2, so the ratio "
        "reaches 1 and the constant 1/2 is sharp: a bound larger by any factor would fail",
    )


@claim(
    "min2024:equation-40",
    title="On [t1, t2+-]: 1/2 <= -l' <= 3/2, cos(x_+-, x~_a) >= 1/3, |x~_a| >= sqrt(mu) n X_min/2 (eq. (40))",
    source="App. D.2, eq. (40) and the two closing claims",
    statement=(
        r"For $t\in[t_1,t_2^+]$ and $i\in\mathcal I_+$: $\frac12\le-\nabla\ell(y_i,f_+(x_i))\le\frac32$; "
        r"hence $\cos(x_+,\tilde x_a)\ge\frac13$ and $\|\tilde x_a\|\ge\sqrt\mu n_+X_{\min}/2$ "
        r"(mirror for $-$)"
    ),
    hypotheses=HYPS,
)
def equation_40(ctx: Context) -> None:
    families, budget = _d2_search_params(ctx)
    state_budget = ctx.param("state_budget", tiny=60, quick=300, full=2000)
    rows = _premises(ctx)
    lo, hi, cosm, norm_ratio = (list(v) for v in zip(*(_eq40_values(r) for r in rows), strict=True))
    # (40)'s first part is Lemma 2 at the premise |f_+-| <= 1/4, which holds on [t1, t2+-) by the definition
    # of t2+-: the runs' -l' can only land in [e^{-1/4}, 1], so the checks evaluate the losses over the
    # whole premise instead (the runs' ranges are in the note)
    ctx.bound(
        "min -l' over |f| <= 1/4",
        np.array([w.min() for w in _premise_weights()]),
        EQ40_WEIGHTS[0],
        side=">=",
        why="-y l'(y, f) = e^{-yf} (exponential loss) and 2 / (1 + e^{yf}) (App. B's logistic loss with its "
        "factor 2), on 101 points of |f| <= 1/4 (both ends included; both are monotone in yf, so the ends "
        "are the extremes); exact up to rounding (1e-16)",
        resolution="a lower constant of (40) above e^{-1/4} = 0.779 (or a loss whose -l' drops below 1/2 at "
        "|f| <= 1/4: the plain logistic control)",
    )
    ctx.bound(
        "max -l' over |f| <= 1/4",
        np.array([w.max() for w in _premise_weights()]),
        EQ40_WEIGHTS[1],
        why="as for the minimum: the largest value e^{1/4} = 1.28 is reached at yf = -1/4",
        resolution="an upper constant of (40) below e^{1/4} = 1.284",
    )
    ctx.bound(
        "min cos(x_+-, x~_a)",
        np.array(cosm),
        1 / 3,
        side=">=",
        why="weights in [1/2, 3/2] and <x_i, x_j> >= 0 within a class; float rounding ~1e-15",
    )
    ctx.bound(
        "min |x~_a| / (sqrt(mu) n X_min / 2)",
        np.array(norm_ratio),
        1.0,
        side=">=",
        why="weights >= 1/2 and Lemma 11; float rounding ~1e-15",
    )
    _d2_search(
        ctx,
        "search: worst (sqrt(mu) n X_min / 2) / min |x~_a| on the runs' [t1, t2+-) over data and init",
        lambda rows: max(_below(1.0, nr) for *_, nr in map(_eq40_values, rows)),
        "the norm check above as a ratio, on one instance per evaluation; the other ratios of (40) would "
        "flatten the search: at t1 f ~ 0, so every instance has -l' = 1 (max -l' / (3/2) = 2/3) and "
        "cos(x_+-, x~_a) = 1 (ratio 1/3), while the norm ratio is 1/2 at the edge (mu = 1, equal radii) and "
        "varies with the data; the cosine claim's own search is over the admissible states below",
        families,
        budget,
    )
    _eq40_state_searches(ctx, state_budget)
    ctx.note(
        f"measured ranges on the runs' [t1, t2+-): -l' in [{min(lo):.3f}, {max(hi):.3f}] (bound [1/2, 3/2]; "
        "[e^{-1/4}, 1] by the definition of t2+-, y f_+- >= 0 on its own class, so not a check); "
        f"cos >= {min(cosm):.3f} (bound 1/3); |x~_a| >= {min(norm_ratio):.2f} x the bound"
    )
    _controls_40(ctx)


def _controls_40(ctx: Context) -> None:
    """Plain logistic loss (no factor 2) and a class with obtuse pairs: (40) visibly fails."""
    with ctx.control(
        "plain logistic loss log(1+e^{-yf}), |f| <= 1/4",
        breaks="exponential loss (sum)",
        must_break=["min -l' *", "min |x~_a| *"],
    ):
        a = 1 / (1 + np.exp(PREMISE_F))
        ctx.bound(
            "min -l' over |f| <= 1/4",
            float(a.min()),
            EQ40_WEIGHTS[0],
            side=">=",
            why="-l'(+1, f) = 1/(1+e^f) = 0.44 at f = 1/4: App. B's factor 2 is what keeps it >= 1/2",
        )
        X, y = np.array([[1.0, 0.0]] * 3 + [[-1.0, 0.0]] * 3), np.array([1.0] * 3 + [-1.0] * 3)
        xt = a.min() * X[y > 0].sum(0)  # every f_+ = 1/4, as at t2+
        ctx.bound(
            "min |x~_a| / (sqrt(mu) n X_min / 2)",
            float(np.linalg.norm(xt) / (np.sqrt(separation(X, y)) * 3 * 1.0 / 2)),
            1.0,
            side=">=",
            why="the norm claim's equality state: a class of 3 equal unit points (mu = 1), every f_+ = 1/4 "
            "as at t2+: |x~_a| = 3 min(-l'), the ratio 2 min(-l') = 0.88; the main run's bound 1, exact",
        )
    X = np.array([[1.0, 0.0], [-0.9, 0.1]])  # one class with <x_1, x_2> < 0
    with ctx.control(
        "class {e1, (-0.9, 0.1)}, weights (1/2, 3/2)",
        breaks=r"Assumption 1: $\mu>0$",
        must_break=["*cos(x_+*, x~_a)*"],
    ):
        xt, xp = np.array([0.5, 1.5]) @ X, X.sum(0)
        ctx.bound(
            "cos(x_+, x~_a)",
            float(xt @ xp / (np.linalg.norm(xt) * np.linalg.norm(xp))),
            1 / 3,
            side=">=",
            why="x~_a = (-0.85, 0.15), x_+ = (0.1, 0.1): obtuse; exact",
        )


def _eq29_violation(theta: np.ndarray) -> float:
    """(29)'s ratio for :func:`instances.separated_problem` of ``theta``, eps = e^squash times the first term
    of (28), squash in [-20, 0]."""
    q = separated_problem(theta, (-20.0, 0.0))
    return float(
        _eq29_ratios(get_backend("numpy"), q.with_log_eps(q.log_eps + log_eps_first_term(q, 0)), 13)[0]
    )


def _eq29_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """The three data families of :func:`instances.starts`; a V+ neuron 1e-3 from x_- at the largest eps.

    Every start has its eps logit at 5 (eps = e^-0.13 x the first term of (28)): (29)'s ratio grows like
    eps (Lemma 3's |f| <= 2 eps sqrt(h) X_max W_max^2 on [0, T]), so the worst instances sit at the largest
    eps (29) uses; a Gaussian logit would start at ~e^-10 of it, where a probe cannot come near the sweep."""
    edge = near_x_minus(rng, "spread generators (dense coefficients)", 10.0)
    pool = starts(rng, INIT, ("a V+ neuron 1e-3 from x_-, eps at the first term of (28)", *edge))
    for thetas in pool.values():
        for theta in thetas:
            theta[-1] = max(theta[-1], 5.0)
    return pool


@claim(
    "min2024:equation-29",
    title="max_i |f| <= min{mu, zeta, xi} sqrt(mu) X_min / (4 n X_max) on [0, T] (eq. (29))",
    source="App. C.2, eq. (29) (Lemma 3 at the first term of eq. (28))",
    statement=(
        r"With $\epsilon$ at most the first term of (28) (the only term the proof of (29) uses), for "
        r"$t\le T=\frac1{4nX_{\max}}\log\frac1{\sqrt h\epsilon}$: "
        r"$\max_i|f(x_i;W,v)|\le\frac{\min\{\mu,\zeta,\xi\}\sqrt\mu X_{\min}}{4nX_{\max}}$"
    ),
    hypotheses=[ASSUMPTION_1, BALANCED, EPS_29, "exponential loss (sum)"],
)
def equation_29(ctx: Context) -> None:
    rng = ctx.rng("eq29").host
    h = ctx.param("H", tiny=8, quick=10, full=16)
    seeds = ctx.param("seeds", tiny=2, quick=4, full=8)
    budget = ctx.param("budget", tiny=3, quick=10, full=200)
    sizes = _sizes(ctx)
    # two structurally different data families: family F (every pair at the same correlation mu, balanced
    # classes) and two random cones in R^4 (proof.cone_family: n > D, spread correlations, 2:1 classes)
    cones = cone_family(ctx, "eq29", h, seeds, tiny=(6,), quick=(24,), full=(16, 48))
    ratios, printed, controls, rows, eps_all, ran = [], [], [], [], [], []
    setups = [(n, mu, family_problem(rng, n, mu, h, seeds)) for n, mu in sizes] + cones
    for n, mu, p in setups:
        first = np.array([log_eps_first_term(p, b) for b in range(p.B)])
        large = np.full(p.B, -np.log(2 * np.sqrt(h)))  # control: eps = 1/(2 sqrt h), T = log 2 / (4 n X_max)
        for log_eps, sink in ((first, ratios), (first + np.log(2.0), printed), (large, controls)):
            sink += list(_eq29_ratios(ctx.backend, p.with_log_eps(log_eps)))
        rows.append({"n": n, "mu": mu, "log_eps": first.tolist()})
        eps_all += first.tolist()
        ran.append(p.with_log_eps(first))
    record(ctx, ran, ASSUMPTION_1, BALANCED, EPS_29)
    ctx.bound(
        "max_{t <= T, i} |f| / (29)'s right-hand side, eps = first term of (28)",
        np.array(ratios),
        1.0,
        why="f is a normal float (eps in the note), so the check is not trivial; relative error of f "
        "~ 10 rtol = 1e-7, far below the margin; Lemma 3 gives <= 1 exactly. Slack: (29) is Lemma 3's "
        "|f| bound at the first term of (28), so it inherits Lemma 3's Groenwall slack (f grows at 2|x_a|, "
        "Lemma 3 allows 4 n X_max); the printed 4 of (28) (a factor 2) is far below this resolution, which "
        "is why min2024:equation-28 checks the erratum on Lemma 3's bound itself",
        details={"runs": rows},
    )
    ctx.search(
        "search: worst max_{t <= T, i} |f| / (29)'s right-hand side over data, init and eps",
        _eq29_violation,
        _eq29_starts(ctx.rng("search").host),
        budget=budget,
        why=f"Nelder-Mead over {N} data in R^{DIM} (mu > 0 by construction), {H} neurons, signs and eps from "
        "the first term of (28) (the largest (29) uses) down to e^-20 of it; 13 outputs on [0, T] "
        f"(rtol {RTOL:g}); the edge family starts near zeta_2 = 0 (a V+ neuron along x_-), where (29)'s "
        "right-hand side vanishes with min{mu, zeta, xi} and the first term of (28) with it; "
        f"{PROBE}",
    )
    ctx.note(
        f"eq. (29) at the corrected eps (log eps in [{min(eps_all):.3g}, {max(eps_all):.3g}]): "
        f"measured/bound <= {max(ratios):.3g}; at the printed eps (4, i.e. 2x): <= {max(printed):.3g} "
        "(Lemma 3 only gives 2): "
        "the printed 4 does not break (29) here. Lemma 3 allows |w|^2 to grow by 1/(sqrt(h) eps) by T; the "
        "flow grows it by at most e^{2|x_a| T}, far less"
    )
    with ctx.control(
        "eps = 1/(2 sqrt h) (T = log 2 / (4 n X_max))",
        breaks=EPS_29,
        must_break=["max_{t <= T, i} |f| / (29)'s right-hand side*"],
    ):
        ctx.bound(
            "max_{t <= T, i} |f| / (29)'s right-hand side",
            np.array(controls),
            1.0,
            why="f(0) = eps^2 sum_j s_j |W0_j|^2 sigma(<u_j, x_i>) = O(1/4), against a right-hand side "
            "O(1e-3)",
        )


def _eq29_ratios(backend, q: Problem, points: int = 81) -> np.ndarray:
    """Per member: max over output times t <= T and samples of |f|, over (29)'s right-hand side."""
    n, Xmax = q.n, np.linalg.norm(q.X, axis=1).max()
    T = -(0.5 * np.log(q.h) + q.log_eps) / (4 * n * Xmax)
    ts = np.unique(np.concatenate([np.linspace(0.0, T.max(), points), T]))
    traj = run(backend, q, ts, rtol=RTOL)
    f = _outputs(directions(traj, q.h), log_norms(traj, q.h), q.s, q.X, np.ones(q.s.shape, bool))
    fmax = np.where(ts[None, :] <= T[:, None], np.abs(f).max(-1), 0.0).max(-1)
    out = []
    for b in range(q.B):
        c = constants(q, b)
        out.append(fmax[b] * 4 * n * Xmax / (min(c["mu"], c["zeta"], c["xi"]) * np.sqrt(c["mu"]) * c["Xmin"]))
    return np.array(out)
