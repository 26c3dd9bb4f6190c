r"""dana2025 Section 3 and App. A.1-A.2: global convergence on weakly correlated data.

Claims: Theorem 1 (convergence with probability over the initialization, the curvature
lower bound (6)), Lemma 7 (two-sided curvature bounds; printed and corrected), Lemma 5
(the event I; printed and corrected), Lemma 3 and Corollary 1 (random high-dimensional
data).  Lemma 6 (bounded initial loss) is in :mod:`.initial_loss`.

Probabilities are frequencies over many seeds of one batched ensemble, compared with
bounds through exact (Clopper-Pearson) binomial intervals at 99% confidence.

The initialization of Theorem 1 and Corollary 1 is App. B's law with a half-normal excess
(:func:`~numeric.data.weakly_correlated.appendix_b_init_reduced`, ``excess="halfnormal"``): App. B's own
:math:`|a_j|-\|w_j\|\sim\mathrm{Exp}(1)` is not
sub-Gaussian, and the width's :math:`C_{a,w}` (a :math:`\psi_1` norm of :math:`a\langle w|\bar x\rangle_+`)
is infinite for it (:func:`c_aw`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import product

import numpy as np
from scipy import optimize
from scipy.sparse import csr_matrix
from scipy.special import expit, logit

from numeric.backend import to_numpy
from numeric.data.weakly_correlated import (
    appendix_b_init_reduced,
    appendix_b_labels,
    appendix_b_norms,
    assumption2_limit,
    event_I,
    offdiag_norm,
    prob_event_I_orthogonal,
    scale_gram,
    sphere_gram,
)
from numeric.measures.statistics import clopper_pearson
from numeric.models.activation import RELU
from numeric.models.losses import Loss
from numeric.models.shallow_relu import ShallowReLU
from symbolic import shallow_meanfield as sym
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.evidence import detectable, rejected_counts
from verify.papers.dana2025.common import (
    EPS,
    Data,
    Run,
    certified,
    ensemble,
    init_gap,
    make_data,
    order_at_most,
    p_theorem1,
    run_gd,
    theorem1_constant,
)
from verify.papers.dana2025.hypotheses import (
    ASSUMPTION_1,
    ASSUMPTION_2,
    D_LEMMA3,
    FEW_NEURONS,
    LAW,
    NONZERO_LABELS,
    ORTHOGONAL,
    P_FLOW,
    WIDTH_C1_LAW,
    WIDTH_T1_LAW,
    app_b_outside,
    law_statistics,
)
from verify.papers.dana2025.initial_loss import PSI1_MAX_D, psi1_norm
from verify.papers.dana2025.instances import (
    Instance,
    assemble,
    corollary1_instance,
    feasible,
    lemma7_instance,
    theorem1_instance,
)
from verify.regimes import Reading, record_worst
from verify.search import softplus, squash

CONF = 0.99  # confidence of every binomial interval


# ------------------------------------------------------- the law of the initialization and C_{a,w}

# Bernstein's constant for the psi_1 norm ||X||_psi1 = inf{K: E e^{|X|/K} <= 2} (Vershynin's Theorem 2.9.1,
# whose c the paper leaves unspecified): E e^{|X|/K} <= 2 gives E|X|^k <= k! K^k = (k!/2) (2K^2) K^(k-2),
# Bernstein's moment condition with sigma^2 = 2K^2, b = K, so a centred mean of p i.i.d. copies has
# P(|mean| > t) <= 2 exp(-p t^2 / (2 (2K^2 + K t))) <= 2 exp(-(p/6) min(t^2/K^2, t/K))
BERNSTEIN_C = 1 / 6


def psi1_upper(d: int) -> float:
    r"""An upper bound on :math:`\kappa_d=\|a\langle w|\bar x\rangle_+\|_{\psi_1}` of
    the half-normal-excess law's, for any d >= 2 (where the quadrature does not reach).

    With :math:`g=\sqrt d\langle w|\bar x\rangle`: :math:`X=0` on :math:`g\le0`, and on :math:`g>0`
    :math:`\sqrt dX=(\|w\|+|G|)g\le\|w\|^2+G^2+g^2/2` (AM-GM), :math:`d\|w\|^2=g^2+\chi^2_{d-1}` with
    :math:`g,\chi^2_{d-1},G` independent; the chi-square MGFs give, for :math:`s=1/(t\sqrt d)`,
    :math:`\mathbb Ee^{X/t}\le\frac12+\frac12(1-s(1+\frac2d))^{-1/2}(1-\frac{2s}d)^{-\frac{d-1}2}
    (1-2s)^{-1/2}`, equal to 2 at a root :math:`s^*`, so :math:`\kappa_d\le1/(s^*\sqrt d)`: 2.98 / sqrt(d)
    at d = 160, 1.55x the quadrature's 1.92 / sqrt(d) (1.32-1.56x over d = 2..640), 2.975 / sqrt(d) as
    d -> infinity."""

    def log_excess(s: float) -> float:
        return float(
            -0.5 * np.log1p(-s * (1 + 2 / d)) - 0.5 * (d - 1) * np.log1p(-2 * s / d) - 0.5 * np.log1p(-2 * s)
        ) - np.log(3.0)

    s = optimize.brentq(log_excess, 1e-9, 0.5 * (1 - 1e-12), xtol=1e-14)
    return float(1 / (s * np.sqrt(d)))


def c_aw(d: int) -> float:
    r""":math:`C_{a,w}=\kappa_d/(2\sqrt c)` of the half-normal-excess law's in dimension d, with
    Bernstein's :math:`c=1/6` (:data:`BERNSTEIN_C`): the value with which the width of Theorem 1,
    :math:`4\log\frac{4n}\varepsilon(1+(C_{a,w}K_x)^2)` with :math:`K_x=C_x^+/C_y^+`, meets both steps of its
    proof at :math:`\varepsilon/2` each (App. A.1, end): Lemma 5's :math:`4\log\frac{2n}{\varepsilon/2}`, and
    Lemma 6's :math:`\frac1c\log\frac4\varepsilon\max(K^2,K)`, :math:`K=\kappa_dK_x`, since
    :math:`4(1+\frac{K^2}{4c})\ge\frac1c\max(K^2,K)` (:math:`1+K^2/(4c)\ge K/\sqrt c`); Corollary 1
    likewise at :math:`\varepsilon/3`. :math:`\kappa_d` by the quadrature of
    :func:`~verify.papers.dana2025.initial_loss.psi1_norm` where it holds (d <= :data:`PSI1_MAX_D`), above by
    :func:`psi1_upper` (a larger :math:`C_{a,w}`: a wider network, still inside the width hypothesis).
    App. B's :math:`\mathrm{Exp}(1)` excess has :math:`\kappa_d=\infty` (tails
    :math:`e^{-\Theta(u^{2/3})}`)."""
    kappa = psi1_norm(d) if d <= PSI1_MAX_D else psi1_upper(d)
    return kappa / (2 * np.sqrt(BERNSTEIN_C))


def law_width(k: int, n: int, eps: float, caw: float, ratio: float) -> float:
    r"""The width of Theorem 1 (k = 4) or Corollary 1 (k = 6), before rounding up:
    :math:`4\log\frac{kn}\varepsilon(1+(C_{a,w}\,C_x^+/C_y^+)^2)`, ``ratio`` :math:`=C_x^+/C_y^+`."""
    return 4 * np.log(k * n / eps) * (1 + (caw * ratio) ** 2)


LAW_NOTE = (
    "Law: App. B draws |a_j| - ||w_j|| ~ Exp(1), which is not sub-Gaussian (Section 2's Initialization "
    "paragraph assumes sub-Gaussian marginals); a<w|xbar>_+ then has tails exp(-Theta(u^(2/3))) (an Exp(1) "
    "times a Gaussian), infinite psi_1 norm, C_aw = infinity, and no finite width meets the statement (the "
    "proof's Lemma 6, (21), uses that norm). The runs use App. B's law with a half-normal excess, "
    "a_j = +-(||w_j|| + |g_j|) (Assumption 1 kept; as dana2025:lemma-6). Observation about the paper, not an "
    "erratum of the statement: App. B's experiments (Section 5) use the Exp(1) law, outside the hypotheses "
    "of Theorem 1 and Corollary 1."
)


# -------------------------------------------------------------------------- Theorem 1


def _train(ctx: Context, data: Data, B: int, p: int, key: str, T: float, lr: float = 0.1, scale: float = 1.0):
    """B networks of the half-normal-excess law's on ``data`` trained on [0, T]: (run, event I,
    initial-loss event, Assumption 1's margin min_j |a_j(0)| - ||w_j(0)|| over the members, :data:`LAW`'s
    statistics of the initial state). ``scale`` s: the pair (a, w) -> (s a, s w) (the law's statistics
    then read the scaled law, not LAW's scale-1 one)."""
    V, a, wperp2 = appendix_b_init_reduced(
        ctx.rng(key).host, data.G, data.d, B, p, scale, excess="halfnormal"
    )
    model = ShallowReLU(p, data.n, "gram")
    args = model.args(ctx.backend, data.G, data.y, wperp2=wperp2)
    y0 = ctx.backend.asarray(model.pack((V, a)))
    run = run_gd(model, y0, args, lr=lr, T=T, every=10)
    I = event_I(V, a, data.y)
    small_L0 = run.loss[:, 0] <= 2 * data.cy[1] ** 2
    law = law_statistics(model, y0, args, data.G, wperp2, data.d)
    return run, I, small_L0, init_gap(model, y0, args), law


# The design scale of Theorem 1 and Corollary 1 (the paper runs no experiment for either): n = 400 (p = 39-41,
# p << n), T = 500 (5000 GD steps of 0.1); Theorem 1 on 5 data sets x 400 initializations, Corollary 1 on 400
# members. Measured on this project's loaded 2-core machine (load 4-6, one thread, NumPy, float64, Gram
# coordinates, n = 400, p = 39, 400 members): 0.35 s per GD step and 0.35 s per record (one per 10 steps),
# i.e. 0.96 ms per member and step.
DESIGN_N, DESIGN_T, DESIGN_LR = 400, 500.0, 0.1
STEP_COST_S = 0.96e-3


def _below_design(ctx: Context, name: str, n: int, members: int, T: float, design_members: int) -> None:
    """Label the run reduced scale where it is below the design scale, with that scale's estimated cost."""
    if n >= DESIGN_N and members >= design_members and T >= DESIGN_T:
        return
    steps = DESIGN_T / DESIGN_LR
    ctx.reduced_scale(
        f"{name} states no sample size (the paper runs no experiment for it); its design scale here is n = "
        f"{DESIGN_N}, {design_members} networks, T = {DESIGN_T:g} ({steps:.0f} GD steps): estimated "
        f"{design_members * steps * STEP_COST_S / 3600:.1f} CPU-h (members x steps x {STEP_COST_S * 1e3:.2f} "
        f"ms, measured at n = {DESIGN_N}, p = 39, 400 members on one loaded core; the p = 3 control and the "
        f"searches not counted); this run: n = {n}, {members} networks, T = {T:g}"
    )


def _rate_windows(run: Run) -> tuple[np.ndarray, np.ndarray]:
    """Measured decay rate -d log L/dt on each record window, and the smaller min|1-r/y| of its ends."""
    dt = np.diff(run.t)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = -np.diff(np.log(run.loss), axis=1) / dt
    return rate, np.minimum(run.minf[:, 1:], run.minf[:, :-1])


def _check_theorem1(ctx: Context, data: Data, run: Run, I, small_L0, lr: float, label: str) -> np.ndarray:
    """Record the checks of Theorem 1 on one ensemble; returns which members converged (certificate)."""
    n = data.n
    bound = data.C / n
    # resolved states: residuals >= 1e6 x their rounding (eps |y|), so L, mu and log-ratios are accurate
    live = run.loss > (1e6 * EPS * data.cy[1]) ** 2
    lower = bound * run.minf
    informative_lower_bound(
        ctx,
        f"(6) with mu from the state (C2): mu(t) >= (C/n) min_i|1 - r_i/y_i| at every resolved state "
        f"[{label}]",
        run.mu[live],
        lower[live],
        lower[live] > 0,
        why="state inequality: exact formula; states with residuals below 1e6 x rounding are excluded",
        details={"C": data.C, "states": int(live.sum())},
    )
    rate, minf = _rate_windows(run)
    ok = live[:, 1:] & live[:, :-1]
    slack = 1 - lr * float(np.max(run.mu[live]))
    informative_lower_bound(
        ctx,
        f"(6) with mu = -dL/dt / L measured on record windows: rate >= slack x (C/n) min|1-r/y| [{label}]",
        rate[ok],
        slack * bound * minf[ok],
        minf[ok] > 0,
        why=f"the GD map decays like the flow up to a relative O(lr mu): slack = 1 - lr max mu = {slack:.3g}",
        details={"min ratio": _min_ratio(rate[ok], bound * minf[ok])},
    )
    rises = (np.diff(run.loss, axis=1) > 0) & live[:, 1:]
    ctx.holds(
        f"GD tracks the flow: the loss never increases between resolved records [{label}]",
        not rises.any(),
        measured=f"{int(rises.any(axis=1).sum())} of {rises.shape[0]} members with an increase",
        expected="0",
        why="the flow decreases L (dL/dt = -mu L <= 0); a GD step that raises it is past the stability "
        "edge of its step, where the checks here would test GD's oscillation instead of the flow (see the "
        "note on Assumption 2)",
    )
    cert = certified(run, data)
    good = I & small_L0
    ctx.holds(
        f"every run with event I and L(0) <= 2 (C_y^+)^2 converges (certificate L < (C_y^-)^2/(2n) by "
        f"T={run.t[-1]:g}) [{label}]",
        bool(np.all(cert[good])),
        measured=f"{int(cert[good].sum())}/{int(good.sum())}",
        expected=f"{int(good.sum())}/{int(good.sum())}",
        why="Theorem 1 proof, steps (i)-(ii): deterministic given I and the initial-loss event",
    )
    _asymptotic_rate(ctx, run, live, np.full(len(cert), bound), slack, cert, label)
    return cert


def _asymptotic_rate(
    ctx: Context, run: Run, live: np.ndarray, bound: np.ndarray, slack: float, cert: np.ndarray, label: str
) -> None:
    r"""The rate conclusion :math:`\langle\mu_\infty\rangle\ge C/n` (42): on each converged member's last
    resolved record window, :math:`-d\log L/dt\ge` slack x ``bound`` :math:`\min_i|1-r_i/y_i|`
    (``bound`` = C/n per member; at the end :math:`\min_i|1-r_i/y_i|\to1`)."""
    rate, minf = _rate_windows(run)
    ok = live[:, 1:] & live[:, :-1]
    idx = np.where(ok, np.arange(ok.shape[1]), -1).max(axis=1)  # last resolved window per member
    rows = np.flatnonzero(cert & (idx >= 0))
    if not rows.size:
        return
    late, late_bound = rate[rows, idx[rows]], bound[rows] * minf[rows, idx[rows]]
    informative_lower_bound(
        ctx,
        f"asymptotic rate: -dlogL/dt on the last resolved window >= slack x (C/n) min|1-r/y|, converged "
        f"runs [{label}]",
        late,
        slack * late_bound,
        late_bound > 0,
        why=f"<mu_inf> >= C/n (42); at the end min|1-r/y| -> 1; slack = 1 - lr max mu = {slack:.3g} (GD "
        "against the flow)",
        details={"n <mu_inf> / C (median)": float(np.median(late / bound[rows]))},
    )


def _probability_of_convergence(ctx: Context, converged: np.ndarray, eps: float, label: str) -> None:
    """P(convergence) >= 1 - eps over the initialization, pooled over data sets (each must satisfy it,
    so a pooled rejection rejects at least one of them); the violation to catch: failures twice as
    frequent as allowed (P = 1 - 2 eps), which 240 pooled members reject with 80% power."""
    ctx.probability(
        f"P(convergence) >= 1 - eps = {1 - eps:g} [{label}]",
        int(converged.sum()),
        converged.size,
        at_least=1 - eps,
        detect=1 - 2 * eps,
        conf=CONF,
        why="exact binomial test: rejected only if the whole interval lies below 1 - eps",
    )


def informative_lower_bound(
    ctx: Context,
    name: str,
    measured: np.ndarray,
    lower: np.ndarray,
    informative: np.ndarray,
    *,
    why: str,
    details: dict | None = None,
) -> None:
    r"""``measured >= lower`` on the entries where the statement's right-hand side is positive.

    A curvature lower bound whose right-hand side vanishes (an example with :math:`h(x_i)=0`,
    so :math:`\min_i|1-r_i/y_i|=0`, or with no active neuron in Lemma 7) reads
    :math:`\mu\ge0`, true of every state since :math:`M` is PSD: such an entry cannot fail.
    Kept in the comparison it would also be the recorded worst (the smallest margin, ~0 - 0)
    and hide the slack of the entries that test the statement; so only ``informative`` entries
    are compared and the vacuous ones counted. None informative: the check is undecided.
    """
    m, b = np.asarray(measured)[informative], np.asarray(lower)[informative]
    vacuous = int(np.size(informative) - np.count_nonzero(informative))
    if m.size == 0:
        ctx.undecided(name, f"{why}; all {vacuous} entries have a right-hand side 0: mu >= 0 cannot fail")
        return
    ctx.bound(name, m, b, side=">=", why=why, details={**(details or {}), "vacuous entries (rhs 0)": vacuous})


def _min_ratio(m: np.ndarray, b: np.ndarray) -> float | None:
    """Smallest m/b over entries with b > 0 (for the report), or None."""
    pos = b > 0
    return float((m[pos] / b[pos]).min()) if pos.any() else None


T1_DATA = ("boundary", "label-opposed")  # Theorem 1's data families, in turn over its data sets
A2_RHO = 0.99  # the Assumption-2 control's input correlation (Theorem 1)
STATE_SHAPE, GD_SHAPE = (3, 3), (4, 2)  # (n, p) searched: p = n allows equality in (6); p < n competition


def t1_state_ratio(theta: np.ndarray, shape: tuple[int, int] = STATE_SHAPE) -> float:
    r"""(6) on one state: :math:`\frac Cn\min_i|1-r_i/y_i|/\mu` (Assumption-2 data, Assumption-1 state).

    (6) is a state inequality: Lemma 7's lower bound, (32) and :math:`a_j\langle w_j|x_i\rangle_+\le
    a_j^2C_x^+1_{j,i}` (from :math:`|a_j|\ge\|w_j\|`); the flow only keeps the state in that set."""
    return _state_ratio(theorem1_instance(theta, *shape))


def t1_unbalanced_ratio(theta: np.ndarray, shape: tuple[int, int] = STATE_SHAPE) -> float:
    r"""(6)'s ratio on Assumption-2 data and a state with :math:`|a_j|<\|w_j\|`: theta read as by
    :func:`t1_state_ratio`, with :math:`a_j=s_j\|w_j\|e^{-\mathrm{softplus}(t_j)}` in place of
    Assumption 1's :math:`s_j\sqrt{\|w_j\|^2+\mathrm{softplus}(t_j)}` (Theorem 1's Assumption-1 control)."""
    n, p = shape
    inst = theorem1_instance(theta, n, p)
    gap = softplus(theta[-2 * p : -p])
    a = np.sign(inst.a) * np.linalg.norm(inst.W, axis=1) * np.exp(-gap)
    return _state_ratio(Instance(inst.X, inst.y, inst.W, a))


def t1_correlated_ratio(theta: np.ndarray, Gbar: np.ndarray, p: int) -> float:
    """(6)'s ratio on data with unit-direction Gram ``Gbar`` (any norms and labels; Assumption 2 not
    imposed) and an Assumption-1 state: Theorem 1's Assumption-2 control."""
    return _state_ratio(corollary1_instance(theta, Gbar, p))


def _state_ratio(inst: Instance) -> float:
    model, y0, args = inst.model()
    r = model.residual(y0, args)[0]
    mu = float(model.curvature(y0, args)[0])
    C = theorem1_constant(inst.norms, inst.y)
    return C / inst.n * float(np.abs(1 - r / inst.y).min()) / max(mu, 1e-300)


def _correct_margin(inst: Instance, W: np.ndarray, a: np.ndarray) -> np.ndarray:
    r"""Per example, :math:`\max_{j:\,a_jy_i>0}\langle w_j|x_i\rangle` (:math:`-\infty` if no such j)."""
    pre = W @ inst.X.T
    return np.where(a[:, None] * inst.y[None, :] > 0, pre, -np.inf).max(axis=0)


def t1_hypotheses(inst: Instance) -> bool:
    """Assumption 2, event I and Lemma 6's event L(0) <= 2 (C_y^+)^2 (the deterministic part of Theorem 1)."""
    h = inst.a @ RELU.value(inst.W @ inst.X.T) / inst.p
    L0 = float(Loss("square").value(h, inst.y))
    a2 = inst.off < float(assumption2_limit(inst.norms, inst.y))
    covered = bool(np.all(_correct_margin(inst, inst.W, inst.a) > 0))
    return a2 and covered and L0 <= 2 * float(np.abs(inst.y).max()) ** 2


def t1_trajectory_ratio(theta: np.ndarray, steps: int, build: Callable[[np.ndarray], Instance]) -> float:
    r"""Step (ii) of Theorem 1 along GD: :math:`\max_{i,t}(1-g_i(t)/g_i(0))`,
    :math:`g_i=\max_{j:\,a_jy_i>0}\langle w_j|x_i\rangle`; <= 1 iff a correctly signed neuron stays active on
    every example. ``build`` maps theta to the instance; outside the hypotheses (:func:`t1_hypotheses`): -inf
    (not an instance).

    GD step 0.05 / lambda, lambda = max((1/p) sum_j (||w_j||^2 + a_j^2), 2 C_y^+ / C_x^-)
    lambda_max(X^T X) / n (the largest rate of (15) at t = 0 and at a fit by one neuron), until the
    certificate L < (C_y^-)^2/(2n) (after it every h(x_i) has the sign of y_i, which needs a correctly
    signed active neuron) or ``steps``."""
    inst = build(theta)
    n, p = inst.n, inst.p
    if not t1_hypotheses(inst):
        return -np.inf
    model, y, args = inst.model()
    g0 = _correct_margin(inst, inst.W, inst.a)
    G = inst.X @ inst.X.T
    w2a2 = float((inst.W**2).sum() + (inst.a**2).sum())
    fit = 2 * float(np.abs(inst.y).max()) / float(inst.norms.min())  # a^2 of one neuron fitting y alone
    lam = max(w2a2 / p, fit) / n * float(np.linalg.eigvalsh(G).max())
    lr, cert, worst = 0.05 / lam, float(np.abs(inst.y).min()) ** 2 / (2 * n), 0.0
    for _ in range(steps):
        y = y + lr * model(None, y, args)
        W, a = (v[0] for v in model.unpack(y))
        g = np.maximum(_correct_margin(inst, W, a), -g0)
        worst = max(worst, float((1 - g / g0).max()))
        if float(model.loss_value(y, args)[0]) < cert:
            break
    return worst


def t1_starts(
    rng: np.random.Generator, shape: tuple[int, int], per: int, hypotheses: bool
) -> dict[str, list[np.ndarray]]:
    """Start families for the Theorem 1 searches (blocks of theta in the order of :func:`weak_data` and
    :func:`balanced_state`: off-diagonal direction,
    logit of ||E||/limit, log-norms, labels, W, log-gaps a^2 - ||w||^2, signs of a). With ``hypotheses``,
    starts are redrawn until event I and L(0) <= 2 (C_y^+)^2 hold."""
    n, p = shape
    m, k = n * (n - 1) // 2, p * (n + 1)
    families = {
        "App. B-like (||x||, |y| in [1, 2], ||E|| = limit/2)": [
            (m, 0, 1),
            (1, 0, 0.3),
            (n, 0.35, 0.2),
            (n, 0, 1.5),
            (k, 0, 0.45),
            (p, 0.5, 1),
            (p, 0, 1),
        ],
        "ill-conditioned (norms, labels, weights over decades)": [
            (m, 0, 3),
            (1, 2, 1),
            (n, 0, 2),
            (n, 0, 4),
            (k, 0, 2),
            (p, -2, 2),
            (p, 0, 1),
        ],
        "edge: ||E|| -> limit (4), |a_j| -> ||w_j||, large weights": [
            (m, 0, 1),
            (1, 8, 0.5),
            (n, 0.35, 0.2),
            (n, 0, 1.5),
            (k, 0, 2),
            (p, -12, 1),
            (p, 0, 1),
        ],
        "small initialization (h ~ 0: min|1 - r/y| -> 0)": [
            (m, 0, 1),
            (1, 3, 1),
            (n, 0.35, 0.2),
            (n, 0, 1.5),
            (k, 0, 0.02),
            (p, -8, 1),
            (p, 0, 1),
        ],
    }
    if n == p:  # near equality in (6): orthogonal data, w_j ~ 0.5 x_j / ||x_j||, |a_j| = ||w_j||, y = 1
        aligned = np.hstack([0.55 * np.eye(n) - 0.05, np.zeros((n, 1))]).ravel()  # inactive elsewhere
        for norm in (1.0, 4.0):  # the ratio is 3/10 at every common norm; C's powers of C_x^+- are not
            name = f"near equality: one aligned neuron per example, |a_j| = ||w_j||, y = 1, ||x|| = {norm:g}"
            families[name] = [
                (m, 0, 1),
                (1, -12, 0.1),
                (n, np.log(norm), 0.01),
                (n, 1, 0.01),
                (k, aligned, 0.01),
                (p, -12, 0.1),
                (p, 1, 0.01),
            ]

    def ok(theta: np.ndarray) -> bool:
        return t1_hypotheses(theorem1_instance(theta, n, p)) if hypotheses else True

    return {
        name: [feasible(lambda b=blocks: assemble(rng, b), ok) for _ in range(per)]
        for name, blocks in families.items()
    }


@claim(
    "dana2025:theorem-1",
    title="Theorem 1: log n neurons give global convergence w.h.p. on weakly correlated data, rate >= C/n",
    source="Theorem 1 (Section 3.2), eq. (6); proof App. A.1, (31)-(42)",
    statement=r"Let $p\ge4\log(\frac{4n}\varepsilon)(1+(C_{a,w}\frac{C_x^+}{C_y^+})^2)$, Assumption 1, and "
    r"fixed data "
    r"satisfying Assumption 2. With probability $\ge1-\varepsilon$ over the initialization $L(\theta_t)\to0$ "
    r"and "
    r"$\langle\mu_\infty\rangle\ge\frac Cn$, $C=\frac65\frac{(C_x^-)^2}{C_x^+}C_y^-$; and for all $t$, "
    r"$\mu(t)\ge\frac Cn\min_i|1-\frac{r_i(t)}{y_i}|$ ($C_{a,w}$ depends only on the law of $(a,w)$, "
    r"i.i.d., centred, rotation invariant and sub-Gaussian by Section 2).",
    hypotheses=[ASSUMPTION_1, ASSUMPTION_2, LAW, WIDTH_T1_LAW, FEW_NEURONS],
)
def theorem_1(ctx: Context) -> None:
    # p = ceil(4 log(4n/eps)) <= n/4 needs n >= 150: quick reaches "p << n" at n = 160 (p = 37 with the
    # factor of C_aw, 1.035 at d = n = 160; 36 without);
    # the certificate is reached by t ~ 60-75 there (measured), so T = 200 covers it. At n = 400 (p = 39)
    # it is reached at t = 105-149 (16 members on boundary data, measured): T = 400 covers it 2.7 times.
    # Quick and full pool 4 x 60 = 240 members (two data sets of each structure): the binomial test then
    # rejects P <= 0.823 with 80% power, and P = 0.8 (twice the allowed failures) with power 0.96; at
    # 2 x 60 it caught only P <= 0.789. P = 0.85 would need ~510 members (~2x this claim's quick wall).
    n = ctx.param("n", tiny=6, quick=160, full=400)
    B = ctx.param("B", tiny=12, quick=60, full=60)
    datasets = ctx.param("seeds", tiny=1, quick=4, full=4)
    T = ctx.param("T", tiny=60.0, quick=200.0, full=400.0)
    # "for any initialization scale" (Section 1, after Theorem 1): one more ensemble of B members at scale
    # s on the first data set; at n = 160, p = 37, s = 0.05 the certificate is reached by t ~ 100 (24
    # members, measured), so T covers it at quick; at full (n = 400) its time is not measured here: T_small
    # = 2 T there
    s_small = ctx.param("small_scale", tiny=0.05, quick=0.05, full=0.05)
    T_small = ctx.param("T_small", tiny=60.0, quick=200.0, full=800.0)
    _below_design(ctx, "Theorem 1", n, datasets * B, T, 5 * 400)
    budget = ctx.param("budget", tiny=40, quick=200, full=3000)
    budget_gd = ctx.param("budget_gd", tiny=15, quick=40, full=400)
    consts = sym.theorem1_constants()
    ctx.holds(
        "(32): 1 - 1/(2 sqrt 2) >= 3/5",
        consts["(32): 1 - 1/(2 sqrt 2) >= 3/5"],
        measured="True",
        expected="True",
        why="exact",
        kind="symbolic",
    )
    ctx.zero("(39): 2 x 3/5 = 6/5", consts["(39): 2 * 3/5 = 6/5"], why="exact")
    eps, lr = 0.1, 0.1
    rng = ctx.rng("data").host
    # "fixed data satisfying Assumption 2": two structures of E = X^T X - D_X at 0.99 x the limit (4),
    # alternating -- spread over the spectrum (random symmetric) and tied to the labels (one direction,
    # same-label examples anti-correlated, the sign that works against step (ii))
    sets = [make_data(rng, n, T1_DATA[s % len(T1_DATA)], frac=0.99) for s in range(datasets)]
    caw = c_aw(sets[0].d)  # every data set lives in d = n
    # the statement's width for each fixed data set (its C_x^+/C_y^+), rounded up: the smallest it allows
    required = [law_width(4, n, eps, caw, data.cx[1] / data.cy[1]) for data in sets]
    widths = [int(np.ceil(w)) for w in required]
    ctx.regime(FEW_NEURONS, p=max(widths), n=n)
    runs, converged, laws = [], [], []
    for s, (data, p, req) in enumerate(zip(sets, widths, required, strict=True)):
        ctx.regime(WIDTH_T1_LAW, p=p, required=req, C_aw=caw, ratio=data.cx[1] / data.cy[1])
        ctx.regime(ASSUMPTION_2, ratio=offdiag_norm(data.G) / assumption2_limit(data.norms, data.y))
        run, I, small_L0, gap, law = _train(ctx, data, B, p, f"t1-{s}", T, lr)
        ctx.regime(ASSUMPTION_1, gap=gap)
        law = {**law, "tests": 4 * datasets}  # 4 statistics per data set, familywise over the run
        laws.append({LAW.name: Reading(app_b_outside(law), law)})
        label = f"data {s}: {data.name}, n={n}, p={p}"
        converged.append(_check_theorem1(ctx, data, run, I, small_L0, lr, label))
        runs.append(run)
    record_worst(ctx, laws, [LAW])
    # the small-scale ensemble: (a, w) -> s (a, w) keeps Assumption 1; a <w|x>_+ scales by s^2, so
    # C_aw -> s^2 C_aw and the scale-1 width exceeds the statement's width at s (recorded in the regime);
    # LAW's statistics test the scale-1 law, so they are not read here (this law is LAW's scaled by s)
    data, p = sets[0], widths[0]
    ratio = data.cx[1] / data.cy[1]
    req = law_width(4, n, eps, caw * s_small**2, ratio)
    ctx.regime(WIDTH_T1_LAW, p=p, required=req, C_aw=caw * s_small**2, ratio=ratio)
    run, I, small_L0, gap, _ = _train(ctx, data, B, p, "t1-small-scale", T_small, lr, scale=s_small)
    ctx.regime(ASSUMPTION_1, gap=gap)
    label = f"data 0: {data.name}, n={n}, p={p}, initialization scale {s_small:g}"
    converged.append(_check_theorem1(ctx, data, run, I, small_L0, lr, label))
    ctx.note(
        f"Initialization scale (Section 1: the result holds 'for any initialization scale'): {B} members at "
        f"scale {s_small:g} on data set 0 (T = {T_small:g}): event I {int(I.sum())}/{B}, L(0) <= 2 "
        f"(C_y^+)^2 {int(small_L0.sum())}/{B}, converged {int(converged[-1].sum())}/{B}; pooled into the "
        "probability check (each scale and data set must satisfy it)."
    )
    pw = f"p={min(widths)}" + (f"-{max(widths)}" if max(widths) > min(widths) else "")
    _probability_of_convergence(
        ctx, np.concatenate(converged), eps, f"{datasets} data sets + scale {s_small:g}, n={n}, {pw}"
    )
    ctx.search(
        "search: (6) mu >= (C/n) min_i|1 - r_i/y_i| over Assumption-2 data and Assumption-1 states",
        t1_state_ratio,
        t1_starts(ctx.rng("search-state").host, STATE_SHAPE, 2, hypotheses=False),
        budget=budget,
        why=f"(C/n) min|1 - r/y| / mu at one state, exact mu; Nelder-Mead over the data (||E|| < limit (4) "
        f"by a sigmoid, any direction of E, norms and labels over e^-3..e^3) and the state "
        f"(|a_j| >= ||w_j||), (n, p) = {STATE_SHAPE}, d = n + 1. Resolution: the proof's chain drops the "
        "(w_j^T X P_j R)^2 term of (24) (equal to the a_j^2 term for a neuron aligned with its example) "
        "and uses 3/5 for 1 - ||E||/(C_x^-)^2: the ratio is exactly 3/10 for orthonormal inputs, one "
        "aligned neuron per example, |a_j| = ||w_j||, at every common norm c of the inputs (measured at "
        "c = 1, 2, 4), and the search finds no worse; a constant C too large by more than ~10/3 is caught, "
        "and so is one with other powers of C_x^+- (C x (C_x^+)^2 reads 1.2 at c = 2, 4.8 at c = 4)",
    )
    ctx.search(
        "search: step (ii), a correctly signed neuron stays active on every example along GD",
        partial(
            t1_trajectory_ratio, steps=400, build=partial(theorem1_instance, n=GD_SHAPE[0], p=GD_SHAPE[1])
        ),
        t1_starts(ctx.rng("search-gd").host, GD_SHAPE, 1, hypotheses=True),
        budget=budget_gd,
        why=f"max_i,t (1 - g_i(t)/g_i(0)), g_i = max over a_j y_i > 0 of <w_j|x_i>, along GD (step 0.05 / "
        f"the largest rate of (15), up to 400 steps or the certificate); instances with event I, L(0) <= 2 "
        f"(C_y^+)^2, Assumptions 1 and 2, (n, p) = {GD_SHAPE}",
    )
    ctx.figure(
        "loss of the first ensemble (Assumption-2 data at 0.99 of the limit)",
        xlabel="t",
        ylabel="L",
        logy=True,
        series=[
            Series(f"member {b}", runs[0].t, np.maximum(runs[0].loss[b], 1e-300)) for b in range(min(8, B))
        ],
    )
    ctx.note(LAW_NOTE)
    ctx.note(
        f"Width: C_aw = kappa_d / (2 sqrt c) = {caw:.4g} (kappa_d = psi_1 norm of a<w|xbar>_+ at d = n = "
        f"{sets[0].d} by quadrature, c = 1/6), p = ceil(4 log(4n/eps) (1 + (C_aw C_x^+/C_y^+)^2)) = {widths} "
        f"per data set (unrounded {np.round(required, 3).tolist()}; ceil(4 log(4n/eps)) = "
        f"{p_theorem1(n, eps)} without the factor). The flow is integrated by GD steps lr = 0.1 (the paper's "
        "own experiments use GD with lr = 1)."
    )
    _assumption1_control(ctx, budget)
    with ctx.control("p = 3 neurons", breaks=WIDTH_T1_LAW, must_break=["P(convergence) >= 1 - eps*"]):
        data = make_data(rng, n, "boundary", frac=0.99)
        run, I, small_L0, _, _ = _train(ctx, data, B, 3, "t1-small-p", T, lr)
        cert = _check_theorem1(ctx, data, run, I, small_L0, lr, f"n={n}, p=3")
        _probability_of_convergence(ctx, cert, eps, f"n={n}, p=3")
    n_s, p_s = STATE_SHAPE
    Gbar = (1 - A2_RHO) * np.eye(n_s) + A2_RHO * np.ones((n_s, n_s))
    with ctx.control(
        f"equicorrelated inputs, rho = {A2_RHO} (||X^T X - D_X|| ~ 200x the limit (4)), single states",
        breaks=ASSUMPTION_2,
        must_break=["search: (6)*"],
    ):
        k = p_s * (n_s + 1)
        rng_c = ctx.rng("search-correlated").host
        ctx.search(
            "search: (6) mu >= (C/n) min_i|1 - r_i/y_i| over Assumption-2 data and Assumption-1 states",
            partial(t1_correlated_ratio, Gbar=Gbar, p=p_s),
            {
                "mixed labels, norms ~ 1": [
                    assemble(rng_c, [(n_s, 0, 0.2), (n_s, 0, 1.5), (k, 0, 0.45), (p_s, 0.5, 1), (p_s, 0, 1)])
                ],
                "labels over e^2": [
                    assemble(rng_c, [(n_s, 0, 0.5), (n_s, 0, 2), (k, 0, 1), (p_s, 0, 2), (p_s, 0, 1)])
                ],
            },
            budget=budget,
            why="as above, on equicorrelated unit directions (any norms and labels): (6) is a state "
            "inequality, so no GD step is involved (an earlier GD control at this rho broke only where GD "
            "had left its stability region). Measured before: random states reach ratio 4.8 at rho = 0.99, "
            "0.16 at rho = 0.5 (17x the limit): Assumption 2 is sufficient, and (6) fails once the inputs "
            "are strongly correlated",
        )


def _assumption1_control(ctx: Context, budget: int) -> None:
    """Theorem 1's Assumption-1 control: the (6) search on states with |a_j| < ||w_j||."""
    starts = t1_starts(ctx.rng("search-unbalanced").host, STATE_SHAPE, 2, hypotheses=False)
    p = STATE_SHAPE[1]
    far = [np.concatenate([th[: -2 * p], 3 + th[-2 * p : -p], th[-p:]]) for th in starts[next(iter(starts))]]
    starts["App. B-like data, |a_j| ~ e^-3 ||w_j||"] = far
    with ctx.control(
        "states with |a_j| = e^-softplus(t) ||w_j|| < ||w_j||, Assumption-2 data",
        breaks=ASSUMPTION_1,
        must_break=["search: (6)*"],
    ):
        ctx.search(
            "search: (6) mu >= (C/n) min_i|1 - r_i/y_i| over Assumption-2 data and Assumption-1 states",
            t1_unbalanced_ratio,
            starts,
            budget=budget,
            why="as above, with a_j = s_j ||w_j|| e^-softplus(t_j) (t1_unbalanced_ratio): the proof's step "
            "a_j <w_j|x_i>_+ <= a_j^2 C_x^+ needs |a_j| >= ||w_j||, which the flow keeps from Assumption 1 "
            "on (Lemma 1); the starts of the (6) search, and App. B-like ones at |a_j| ~ e^-3 ||w_j||",
        )


# ---------------------------------------------------------------------------- Lemma 5


def _mc_event_I(rng: np.random.Generator, G: np.ndarray, y: np.ndarray, p: int, trials: int) -> int:
    """Number of draws (App. B init, batched) in which the event I holds on inputs with Gram ``G``."""
    n = len(y)
    L = np.linalg.cholesky(G + 1e-12 * np.eye(n) * np.trace(G) / n)
    pre = rng.normal(size=(trials, p, n)) @ L.T
    a = rng.choice([-1.0, 1.0], size=(trials, p))
    return int(event_I(pre, a, y).sum())


def _necessity_grid(eps: float, ns) -> tuple[int, int, tuple]:
    """Exact orthogonal check of 'p <= 3 log(n/eps) - 2 => P(I) <= 1 - eps' over n and label splits.

    Returns (violations, cases, worst (n, n_pos, p, P(I)))."""
    bad, total, worst, gap = 0, 0, None, -np.inf
    for n in ns:
        for n_pos in sorted({0, n // 2, n}):
            for p in range(1, int(np.floor(3 * np.log(n / eps) - 2)) + 1):
                total += 1
                P = prob_event_I_orthogonal(n_pos, n - n_pos, p)
                if P > 1 - eps:
                    bad += 1
                if P - (1 - eps) > gap:
                    gap, worst = P - (1 - eps), (n, n_pos, p, P)
    return bad, total, worst


NS = [*range(1, 60), 100, 300, 1000, 3000, 10**4, 10**5, 10**6]
# (n, eps) of Theorem 1's proof step at its width: theorem-1's own n at tiny, quick, full (6, 160, 400;
# eps = 0.1) and a grid around them
T1_WIDTH_CASES = [(n, eps) for n in (1, 6, 160, 400, 10**3, 10**6) for eps in (0.01, 0.1, 0.5)]


def theorem1_width_failure() -> tuple[float, float, dict]:
    r"""Theorem 1's proof step (Lemma 5 at :func:`p_theorem1`): the largest ratio to :math:`\varepsilon`,
    over :data:`T1_WIDTH_CASES`, of the union bound :math:`n(3/4)^p` (any data, (17)) and of the exact
    :math:`1-\mathbb P(\mathcal I)` (C8) on orthogonal inputs, worst of labels all +, balanced, all -.
    Returns (union ratio, exact ratio, per-case rows)."""
    rows = {}
    for n, eps in T1_WIDTH_CASES:
        p = p_theorem1(n, eps)
        exact = max(1 - prob_event_I_orthogonal(k, n - k, p) for k in sorted({0, n // 2, n}))
        rows[f"n={n}, eps={eps}, p={p}"] = (n * 0.75**p / eps, exact / eps)
    union, orth = np.array(list(rows.values())).max(axis=0)
    return float(union), float(orth), rows


@claim(
    "dana2025:lemma-5",
    title="Lemma 5 as printed: p >= 4 log(n/eps) suffices and p <= 3 log(n/eps) - 2 is too few, for all eps",
    source="Lemma 5, App. A.1, eqs. (17)-(18)",
    statement=r"Suppose $y_i\ne0$. For all $\varepsilon>0$: if $p\ge4\log(\frac n\varepsilon)$ then "
    r"$\mathbb P(\mathcal I)\ge1-\varepsilon$; if $p\le3\log(\frac n\varepsilon)-2$ then "
    r"$\mathbb P(\mathcal I)\le1-\varepsilon$.",
    hypotheses=[
        r"$y_i\neq0$: every check is the exact formula (C8) over label-sign patterns (only the signs enter), "
        "so there is nothing to measure",
        "App. B initialization",
        "any data",
    ],
    erratum=Erratum(
        r"the necessity bullet is false for large $\varepsilon$ (orthogonal data, $\varepsilon=0.9$, "
        r"$n=10^3$, "
        r"$p=19$, labels of one sign: $\mathbb P(\mathcal I)=0.334>0.1$) and for correlated data (identical "
        r"inputs: $\mathbb P(\mathcal I)=1-(3/4)^p$, independent of $n$); its proof uses independence across "
        r"examples (orthogonality) and the step $(1-4(\varepsilon/n)^{3\log2})^n\le(1-4\varepsilon/n)^n$, "
        r"which needs $3\log2\le1$",
        via="catalog Lemma 5 [ERROR?][CHECKED]; reproduced with the exact formula (C8)",
        shown_by=("(18):*", "necessity*"),
    ),
)
def lemma_5(ctx: Context) -> None:
    ctx.holds(
        "(18): (eps/n)^(3 log 2) >= eps/n, i.e. 3 log 2 <= 1",
        sym.lemma5_constants()["(18) needs 3 log 2 <= 1"],
        measured=f"3 log 2 = {3 * np.log(2):.4f}",
        expected="<= 1",
        why="exact",
        kind="symbolic",
    )
    for eps in (0.5, 0.9):
        bad, total, worst = _necessity_grid(eps, NS)
        ctx.holds(
            f"necessity, orthogonal inputs, eps = {eps}: P(I) <= 1 - eps whenever p <= 3 log(n/eps) - 2 "
            f"({total} cases, n up to 1e6, labels all +, balanced, all -)",
            bad == 0,
            measured=f"{bad} violations; worst (n, n+, p, P(I)) = {worst}",
            expected="0 violations",
            why="exact formula (C8)",
        )
    p = 12
    P_ident = 1 - 0.75**p
    n = int(np.ceil(np.exp((p + 2) / 3) * 0.1))  # p <= 3 log(n/0.1) - 2
    ctx.holds(
        f"necessity, identical inputs (all labels +), eps = 0.1, n = {n}, p = {p}: P(I) <= 0.9",
        P_ident <= 0.9,
        measured=P_ident,
        expected="<= 0.9",
        why="identical inputs: I = {some neuron with a > 0 is active}, P = 1 - (3/4)^p for every n",
    )


def _orthant(A: np.ndarray, T: list[int]) -> float:
    r""":math:`\Pr(\langle w|x_i\rangle\le0\ \forall i\in T)` for rotation-invariant w and unit inputs,
    ``A`` the arcsines of their correlations, :math:`|T|\le3` (Sheppard): 1, 1/2,
    :math:`\frac14+\frac{\arcsin\rho}{2\pi}`, :math:`\frac18+\frac{\sum_{k<l}\arcsin\rho_{kl}}{4\pi}`."""
    off = sum(A[k, m] for k in T for m in T if k < m)
    return (1.0, 0.5, 0.25 + off / (2 * np.pi), 0.125 + off / (4 * np.pi))[len(T)]


def prob_not_I(R: np.ndarray, signs: np.ndarray, p: int) -> float:
    r"""Exact :math:`\Pr(\mathcal I^c)` for n <= 3 unit inputs with Gram ``R`` and label signs, any law of
    :math:`(a,w)` with w rotation-invariant and sign(a) a fair coin independent of w (App. B).

    Inclusion-exclusion over the examples left uncovered, neurons i.i.d.:
    :math:`\Pr(\cap_{i\in S}A_i)=q_S^p`, :math:`q_S=\frac12\Phi(S_+)+\frac12\Phi(S_-)` with
    :math:`S_\pm=\{i\in S:\pm y_i>0\}` and :math:`\Phi` the orthant probability of :func:`_orthant`."""
    A, n, total = np.arcsin(np.clip(R, -1.0, 1.0)), len(signs), 0.0
    for mask in range(1, 2**n):
        S = [i for i in range(n) if mask >> i & 1]
        q = 0.5 * _orthant(A, [i for i in S if signs[i] > 0]) + 0.5 * _orthant(
            A, [i for i in S if signs[i] < 0]
        )
        total += (-1) ** (len(S) + 1) * q**p
    return total


def l5_union_ratio(theta: np.ndarray) -> float:
    r"""Worst over the 8 label-sign patterns of :math:`\Pr(\mathcal I^c)/(n(3/4)^p)` for 3 inputs (theta[:9]:
    directions, normalised) and :math:`p=\mathrm{round}(e^{t})`, t = theta[9] clipped to [0, 4]."""
    X = theta[:9].reshape(3, 3)
    X = X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-300)
    p = round(float(np.exp(np.clip(theta[9], 0.0, 4.0))))
    signs = [np.array([1.0 if m >> i & 1 else -1.0 for i in range(3)]) for m in range(8)]
    return max(prob_not_I(X @ X.T, s, p) for s in signs) / (3 * 0.75**p)


def l5_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Direction families and the width they start at."""
    u = rng.normal(size=3)
    families = {
        "orthogonal, p = 30 (the union bound's near-equality case)": (np.eye(3).ravel(), 30),
        "Gaussian directions, p = 8": (rng.normal(size=9), 8),
        "near-identical inputs, p = 2": (np.tile(u, 3), 2),
        "antipodal pair (x_2 ~ -x_1) and a third input, p = 30": (
            np.concatenate([u, -u, rng.normal(size=3)]),
            30,
        ),
    }
    return {
        name: [np.concatenate([X0 + 0.05 * rng.normal(size=9), [np.log(p)]])]
        for name, (X0, p) in families.items()
    }


@claim(
    "dana2025:lemma-5-corrected",
    title="Lemma 5 corrected: P(I) >= 1 - n(3/4)^p for any data; necessity for orthogonal data, eps <= 1/2",
    source="Lemma 5, App. A.1, eqs. (17)-(18); catalog (C8)",
    statement=r"For any inputs, $\mathbb P(\mathcal I)\ge1-n(3/4)^p$, so $p\ge4\log(n/\varepsilon)$ gives "
    r"$\mathbb P(\mathcal I)\ge1-\varepsilon$. For orthogonal inputs $\mathbb P(\mathcal I)$ is (C8), and "
    r"for "
    r"$\varepsilon\le\frac12$, $p\le3\log(n/\varepsilon)-2$ implies $\mathbb P(\mathcal I)\le1-\varepsilon$: "
    r"the "
    r"width needed for $\mathbb P(\mathcal I)=1-\varepsilon$ lies in $[3\log\frac n\varepsilon-2,4\log\frac "
    r"n\varepsilon]$.",
    hypotheses=[
        NONZERO_LABELS,
        "App. B initialization",
        ORTHOGONAL,
        r"$\varepsilon\le1/2$ (the necessity part)",
    ],
)
def lemma_5_corrected(ctx: Context) -> None:
    trials = ctx.param("trials", tiny=400, quick=4000, full=40000)
    n = ctx.param("n", tiny=20, quick=60, full=200)
    budget = ctx.param("budget", tiny=30, quick=200, full=1000)
    ctx.holds(
        "4 log(4/3) > 1 (so n (3/4)^(4 log(n/eps)) <= eps)",
        sym.lemma5_constants()["4 log(4/3) > 1"],
        measured=f"{4 * np.log(4 / 3):.4f}",
        expected="> 1",
        why="exact",
        kind="symbolic",
    )
    rng = ctx.rng("mc").host
    y = rng.choice([-1.0, 1.0], n) * rng.uniform(1, 2, n)
    grams = {
        "orthogonal": np.eye(n),
        "sphere, d = 4n": make_data(rng, n, "sphere", d=4 * n, unit=True).G,
        "equicorrelated rho = 0.5": make_data(rng, n, "equicorrelated", rho=0.5, unit=True).G,
    }
    ctx.regime(ORTHOGONAL, off_ratio=float(offdiag_norm(grams["orthogonal"])))  # unit norms: max ||x_i|| = 1
    ctx.regime(NONZERO_LABELS, cy_min=float(np.abs(y).min()))
    ps = [
        int(v)
        for v in np.unique(np.linspace(np.log(n) / np.log(4 / 3) - 4, 4 * np.log(n / 0.05), 5).astype(int))
    ]
    series, exact = [], [prob_event_I_orthogonal(int((y > 0).sum()), int((y < 0).sum()), p) for p in ps]
    for name, G in grams.items():
        k = np.array([_mc_event_I(rng, G, y, p, trials) for p in ps])
        lo, hi = clopper_pearson(k, trials, CONF)
        union = 1 - n * 0.75 ** np.array(ps, float)
        live = union >= 0.5  # below, the bound is near-vacuous: a check there could not fail
        ctx.probability(
            f"P(I) >= 1 - n (3/4)^p, {name} (n={n}, {trials} draws per p, p = {np.array(ps)[live].tolist()})",
            k[live],
            trials,
            at_least=union[live],
            detect=2 * union[live] - 1,
            conf=CONF,
            why="union bound (17); the violation to catch: failure probability twice the bound's n (3/4)^p",
        )
        if name == "orthogonal":
            ctx.holds(
                f"exact (C8) inside the {CONF:.0%} interval of the Monte Carlo frequency at every p "
                f"(orthogonal)",
                bool(np.all((lo <= exact) & (exact <= hi))),
                measured=list(np.round(k / trials, 4)),
                expected=list(np.round(exact, 4)),
                why=f"two-sided Clopper-Pearson interval per p (the event-I sampler against the exact (C8)); "
                f"resolution: a gap between them above the interval half-width, at most "
                f"{float((hi - lo).max()) / 2:.3g} at {trials} draws, is caught; {len(ps)} intervals at "
                f"{CONF:.0%}, so a false alarm has probability <= {len(ps) * (1 - CONF):.2g}",
            )
        series.append(Series(f"Monte Carlo, {name}", ps, k / trials, "o"))
    ctx.figure(
        f"P(I) vs width p (n = {n})",
        xlabel="p",
        ylabel="P(I)",
        series=[
            *series,
            Series("exact (C8), orthogonal", ps, exact, "-"),
            Series("1 - n (3/4)^p", ps, np.maximum(1 - n * 0.75 ** np.array(ps, float), 0), "--"),
        ],
    )
    for eps in (0.01, 0.1, 0.5):
        bad, total, worst = _necessity_grid(eps, NS)
        ctx.holds(
            f"necessity, orthogonal inputs, eps = {eps}: P(I) <= 1 - eps whenever p <= 3 log(n/eps) - 2 "
            f"({total} cases, n up to 1e6)",
            bad == 0,
            measured=f"{bad} violations; closest (n, n+, p, P(I)) = {worst}",
            expected="0 violations",
            why="exact formula (C8)",
        )
    rows = []
    for nn in (100, 1000, 10**4, 10**6):
        pmin = next(p for p in range(1, 200) if prob_event_I_orthogonal(nn // 2, nn - nn // 2, p) >= 0.95)
        rows.append((nn, pmin, pmin / np.log(nn / 0.05)))
    ctx.bound(
        "minimal p with P(I) >= 0.95 (orthogonal, balanced) in [3 log(n/eps) - 2, 4 log(n/eps)], n = "
        "1e2..1e6",
        np.array([r[1] for r in rows]),
        np.array([4 * np.log(r[0] / 0.05) for r in rows]),
        why="Lemma 5's conclusion; measured p_min / log(n/eps) -> 1/log(4/3) = 3.476",
        details={"(n, p_min, p_min / log(n/eps))": rows},
    )
    ctx.bound(
        "minimal p (lower end)",
        np.array([r[1] for r in rows]),
        np.array([3 * np.log(r[0] / 0.05) - 2 for r in rows]),
        side=">=",
        why="as above",
    )
    union, orth, rows = theorem1_width_failure()
    why_t1 = (
        "the proof of Theorem 1 (App. A.1): at its width p = ceil(4 log(4n/eps)) >= log(n/eps)/log(4/3) "
        "the event I has probability >= 1 - eps; measured: max over (n, eps) = "
        f"{sorted({n for n, _ in T1_WIDTH_CASES})} x {sorted({e for _, e in T1_WIDTH_CASES})} of the failure "
        "probability over eps. Resolution: a width formula too small by a factor ~2 (e.g. log(n/eps) "
        "in place of 4 log(4n/eps)) gives ratios > 1"
    )
    ctx.bound(
        "Theorem 1's width: n (3/4)^p <= eps at p = ceil(4 log(4n/eps)) (union bound (17), any data)",
        union,
        1.0,
        why=why_t1,
        details={"(union, exact orthogonal) / eps": rows},
    )
    ctx.bound(
        "Theorem 1's width: 1 - P(I) <= eps at p = ceil(4 log(4n/eps)) (orthogonal, exact (C8))",
        orth,
        1.0,
        why=why_t1,
    )
    ctx.search(
        "search: P(not I) / (n (3/4)^p) over 3 inputs, every label-sign pattern, p = 1..55",
        l5_union_ratio,
        l5_starts(ctx.rng("search").host),
        budget=budget,
        why="exact P(not I) by inclusion-exclusion and Sheppard's orthant formulas (any 3 inputs, any "
        "rotation-invariant w, fair sign of a); Nelder-Mead over the directions and log p. The ratio tends "
        "to 1 as p grows (orthogonal and antipodal inputs); p <= 55 keeps 1 - ratio >= (2/3)^p / 3 ~ 7e-11 "
        "(pairs have q_ij >= 1/2) far above the rounding of the sum (~1e-16)",
    )
    with ctx.control("identical inputs, labels of one sign", breaks=ORTHOGONAL, must_break=["necessity*"]):
        p = 12
        nn = int(np.ceil(np.exp((p + 2) / 3) * 0.1))
        k = _mc_event_I(rng, np.ones((nn, nn)), np.ones(nn), p, trials)
        ctx.probability(
            f"necessity, eps = 0.1, n = {nn}, p = {p} <= 3 log(n/eps) - 2: P(I) <= 1 - eps",
            k,
            trials,
            at_most=0.9,
            detect=0.95,
            conf=CONF,
            why=f"exact binomial test (the exact value here is 1 - (3/4)^p = {1 - 0.75**p:.4f})",
        )


# ------------------------------------------------------------------ Lemma 3, Corollary 1


def _a2_frequency(rng: np.random.Generator, n: int, d: int, trials: int, unit: bool) -> int:
    """Draws (out of ``trials``, batched) of i.i.d. data in dimension d satisfying Assumption 2.

    Directions uniform on the sphere (exact Gram by Bartlett); ``unit``: unit norms and labels
    +-1, else App. B norms U[1, 2] and labels +-U[1, 2]."""
    Gbar = sphere_gram(rng, trials, n, d)
    if unit:
        return int((offdiag_norm(Gbar) < 1 / (2 * np.sqrt(n))).sum())
    norms, y = appendix_b_norms(rng, (trials, n)), appendix_b_labels(rng, (trials, n))
    return int((offdiag_norm(scale_gram(Gbar, norms)) < assumption2_limit(norms, y)).sum())


def _rademacher_gram(rng: np.random.Generator, B: int, n: int, d: int) -> np.ndarray:
    r"""``(B, n, n)`` Gram matrices of ``n`` i.i.d. Rademacher directions :math:`x=\varepsilon/\sqrt d`,
    :math:`\varepsilon\in\{\pm1\}^d` uniform, exactly in law and at a cost independent of d.

    Coordinate k contributes :math:`\varepsilon_k\varepsilon_k^\top/d`, :math:`\varepsilon_k\in\{\pm1\}^n` its
    sign pattern over the n vectors, uniform over the :math:`2^{n-1}` patterns up to a global sign; the counts
    of the patterns over the d coordinates are multinomial. Meant for small n (``2^{n-1}`` patterns)."""
    P = np.array([(1.0, *signs) for signs in product((1.0, -1.0), repeat=n - 1)])
    counts = rng.multinomial(d, np.full(len(P), 1 / len(P)), size=B)
    return np.einsum("bk,ki,kj->bij", counts / d, P, P)


def _sparse_gram(rng: np.random.Generator, B: int, n: int, d: int, s: int) -> np.ndarray:
    r"""``(B, n, n)`` Gram matrices of ``n`` i.i.d. sparse unit vectors of :math:`\mathbb R^d`: s coordinates
    drawn uniformly with replacement, S their distinct set, :math:`x=\sum_{k\in S}\pm e_k/\sqrt{|S|}`
    (independent fair signs).

    The law is invariant under coordinate permutations and sign flips, so :math:`\mathbb E[x]=0` and
    :math:`\mathbb E[xx^\top]=\frac1dI_d` (whitened, Lemma 3's hypotheses) with :math:`\|x\|=1`; its
    coordinates reach :math:`\pm1/\sqrt{|S|}`, so :math:`\sqrt dx` has sub-Gaussian norm of order
    :math:`\sqrt{d/(s\log(d/s))}`, unbounded in d at fixed s (s = 1: signed coordinate vectors). Only shared
    coordinates contribute off the diagonal: a sparse product over the B n vectors, cost independent of d."""
    idx = np.sort(rng.integers(0, d, size=(B, n, s)), axis=-1)
    signs = rng.choice([-1.0, 1.0], size=(B, n, s))
    keep = np.ones(idx.shape, bool)
    keep[..., 1:] = idx[..., 1:] != idx[..., :-1]
    val = signs / np.sqrt(keep.sum(axis=-1, keepdims=True))
    row = np.broadcast_to(np.arange(B * n).reshape(B, n, 1), idx.shape)
    _, col = np.unique((idx + d * np.arange(B).reshape(B, 1, 1))[keep], return_inverse=True)
    M = csr_matrix((val[keep], (row[keep], col)), shape=(B * n, col.max() + 1))
    P = (M @ M.T).tocoo()
    G = np.zeros((B, n, n))
    G[P.row // n, P.row % n, P.col % n] = P.data
    return G


L3_GRAMS = {
    "uniform": lambda rng, B, n, d, s: sphere_gram(rng, B, n, d),
    "Rademacher": lambda rng, B, n, d, s: _rademacher_gram(rng, B, n, d),
    "sparse": _sparse_gram,
}
L3_R_MAX = 3.0  # support ratios C^+/C^- of the norms and of |y| searched in [1, L3_R_MAX]
L3_S_MAX = 64  # sparsity searched in [1, L3_S_MAX]


def _edge_profile(u: np.ndarray, zR: float, zk: float, m: float) -> np.ndarray:
    r"""Values :math:`1+(R-1)\,\mathrm{sigmoid}(\kappa\,\mathrm{logit}(u)+m)` of the uniforms ``u``: a law
    whose support is :math:`[1,R]`, :math:`R=1+(R_{max}-1)\,\mathrm{sigmoid}(z_R)`; :math:`\kappa=e^{[-2,4]}`
    large puts the mass at the two edges (weights set by m), small concentrates it at one level."""
    R = squash(zR, 1.0, L3_R_MAX)
    kappa = np.exp(squash(zk, -2.0, 4.0))
    return 1 + (R - 1) * expit(kappa * logit(u) + m)


def l3_instance(theta: np.ndarray, ns: tuple[int, int]) -> tuple[float, float, int, int]:
    """(R_x, R_y, n, s) of a search parameter: the support ratios of the norms and |labels|, the number of
    points in [ns[0], ns[1]] and (sparse laws, ``theta[7]``) the sparsity in [1, L3_S_MAX]."""
    n = round(squash(theta[6], *ns))
    s = round(np.exp(squash(theta[7], 0.0, np.log(L3_S_MAX)))) if len(theta) > 7 else 0
    return squash(theta[0], 1.0, L3_R_MAX), squash(theta[3], 1.0, L3_R_MAX), n, s


def l3_ratio(
    theta: np.ndarray,
    kind: str,
    ns: tuple[int, int],
    trials: int,
    seed: int,
    eps: float,
    C: float,
    level: float,
    dim: Callable[[int, float], int],
) -> float:
    r"""Violation ratio of Lemma 3 for one law and n: :math:`q_{lo}/\varepsilon`, :math:`q_{lo}` the one-sided
    level-``level`` Clopper-Pearson lower bound of P(Assumption 2 fails) from ``trials`` draws of n points,
    > 1 exactly when the draws reject :math:`P\ge1-\varepsilon`.

    The law (inside Lemma 3's hypotheses): directions of ``kind`` (:data:`L3_GRAMS`), independent of the
    norms :math:`\|x\|` and of :math:`|y|`, both with :func:`_edge_profile` laws on :math:`[1,R_x]`,
    :math:`[1,R_y]` (``theta[0:3]``, ``theta[3:6]``; the signs of y do not enter (4)); independent norms keep
    :math:`\mathbb E[xx^\top]=\frac{\mathbb E\|x\|^2}dI_d`. n, s: :func:`l3_instance`. The dimension is
    ``dim(n, C_law)``, :math:`C_{law}=C\,R_x^4R_y^2`: the constant of (46) for the law's support ratios
    :math:`C^\pm_{x,y}`. Every instance starts from the same generator state (``seed``): a deterministic
    ratio. Minus :math:`10^{-6}(1-\text{mean}\min(\|X^\top X-D_X\|/\text{limit},1))`: a guide where no draw
    fails, never above the Clopper-Pearson ratio."""
    Rx, Ry, n, s = l3_instance(theta, ns)
    rng = np.random.default_rng(seed)
    norms = _edge_profile(rng.uniform(size=(trials, n)), *theta[0:3])
    y = _edge_profile(rng.uniform(size=(trials, n)), *theta[3:6])
    Gbar = L3_GRAMS[kind](rng, trials, n, dim(n, C * Rx**4 * Ry**2), s)
    r = offdiag_norm(scale_gram(Gbar, norms)) / assumption2_limit(norms, y)
    lo = float(clopper_pearson(int((r >= 1).sum()), trials, 1 - 2 * level)[0])
    return lo / eps - 1e-6 * (1 - float(np.minimum(r, 1).mean()))


def l3_starts(kind: str, ns: tuple[int, int]) -> dict[str, list[np.ndarray]]:
    """Structurally different laws of one direction ``kind``, at the smallest and the largest n: norms and
    |labels| split between the edges of [1, 2.8], both concentrated at one level of a wide support, or unit
    (R -> 1); sparse laws start at s = 1 (signed coordinate vectors), s ~ 2 sqrt(n) - 1 (one shared
    coordinate breaks (4)) and s = 64."""
    edges, level, unit = (
        [2.0, 3.0, 0.0, 2.0, 3.0, 0.0],
        [2.0, -3.0, 1.0, 2.0, -3.0, -1.0],
        [-6.0, 0, 0, -6.0, 0, 0],
    )
    lo, hi = -3.0, 3.0  # n near ns[0], near ns[1]
    if kind != "sparse":
        return {
            f"{kind} directions, norms and |labels| at the support edges": [np.array([*edges, lo])],
            f"{kind} directions, norms and |labels| at one level": [np.array([*level, hi])],
            f"{kind} directions, unit norms and |labels|": [np.array([*unit, hi])],
        }
    n = squash(hi, *ns)
    z_mid = float(logit(np.log(2 * np.sqrt(n) - 1) / np.log(L3_S_MAX)))
    return {
        "sparse directions, s = 1": [np.array([*unit, lo, -8.0])],
        "sparse directions, s ~ 2 sqrt(n) - 1": [np.array([*unit, hi, z_mid])],
        "sparse directions, s = 64, norms and |labels| at the support edges": [np.array([*edges, hi, 8.0])],
    }


def _a2_edge_frequency(rng: np.random.Generator, n: int, d: int, trials: int) -> int:
    """Draws (out of ``trials``) satisfying Assumption 2 with uniform directions and norms and |labels| at
    the edges 1, 2 of App. B's supports (each 1 or 2 with probability 1/2, independently)."""
    Gbar = sphere_gram(rng, trials, n, d)
    norms, y = 1.0 + (rng.uniform(size=(2, trials, n)) < 0.5)
    return int((offdiag_norm(scale_gram(Gbar, norms)) < assumption2_limit(norms, y)).sum())


def _l3_dim(eps: float) -> Callable[[int, float], int]:
    """Lemma 3's dimension d = C (n^2 + n log(1/eps)) as a function of (n, C)."""
    return lambda n, C: int(C * (n * n + n * np.log(1 / eps)))


L3_SHOWN = {  # a search's kind of direction, as its check's name says it
    "uniform": "uniform",
    "Rademacher": "Rademacher/sqrt(d) coordinate",
    "sparse": "s-sparse whitened",
}
L3_NORMS = (
    "norms and |labels| with compact support away from 0: App. B's, unit, at the support edges, up to "
    "C^+/C^- = 3"
)
L3_SUBGAUSSIAN = (
    "sqrt(d) x/||x|| sub-Gaussian with a norm bounded in d (the proof's (43) needs it; uniform and "
    "Rademacher directions: bounded by an absolute constant)"
)


def _lemma3_search(
    ctx: Context,
    kind: str,
    ns: tuple[int, int],
    trials: int,
    eps: float,
    C: float,
    budget: int,
    level: float,
    dim: Callable[[int, float], int],
    where: str = "",
) -> None:
    """Instance search (:func:`l3_ratio`) over the laws of one direction ``kind`` (:func:`l3_starts`), at the
    familywise ``level`` of the main run's searches; ``where`` labels its note (a control's)."""
    seed = int(ctx.rng(f"l3-search-{kind}").host.integers(2**63))
    seen: list[tuple[float, np.ndarray]] = []

    def violation(theta: np.ndarray) -> float:
        seen.append((l3_ratio(theta, kind, ns, trials, seed, eps, C, level, dim), np.array(theta)))
        return seen[-1][0]

    fails = trials - rejected_counts(trials, 1 - eps, 1 - 2 * level, ">=")
    p80 = detectable(trials, 1 - eps, 1 - 2 * level, ">=")
    shown = L3_SHOWN
    sub = (
        "sqrt(d) x has a sub-Gaussian norm bounded in d, as (43) needs"
        if kind != "sparse"
        else "sqrt(d) x has a sub-Gaussian norm ~ sqrt(d / (s log(d/s))), unbounded in d at fixed s: (43)'s "
        "constant is not bounded by C^+-_{x,y}, which the statement says C depends on alone"
    )
    ctx.search(
        f"search: P(Assumption 2) >= 1 - eps at d = C (C_x^+/C_x^-)^4 (C_y^+/C_y^-)^2 (n^2 + n log(1/eps)) "
        f"over {shown[kind]} directions",
        violation,
        l3_starts(kind, ns),
        budget=budget,
        why=f"Lemma 3 holds for every i.i.d. law with compact support away from 0, zero mean and E[xx^T] = "
        f"lambda/d I_d; here directions {shown[kind]} ({sub}), independent of ||x|| and |y|, which range "
        f"over laws on [1, R_x], [1, R_y], R <= {L3_R_MAX:g} (edges, one level, unit), "
        f"n in [{ns[0]}, {ns[1]}]"
        + (f", s in [1, {L3_S_MAX}]" if kind == "sparse" else "")
        + f"; C = {C:.3g} fixed on unit data (check above) times (46)'s factor for the law's C^+-_{{x,y}} "
        f"(d >= 8 R_y^2 R_x^4 n log(2/eps), the regime's necessary part, at every n >= 2). Ratio = one-sided "
        f"{1 - level:.4%} Clopper-Pearson lower bound of P(Assumption 2 fails) / eps over {trials} draws "
        f"fixed per search (a deterministic ratio): > 1 exactly when the draws reject P >= 1 - eps at the "
        f"main tests' one-sided level 0.005 Bonferroni-divided over the {round((1 - CONF) / 2 / level)} "
        f"instances a search of the main run may evaluate (3 starts x budget); resolution: an instance is "
        f"rejected at {fails} or more failures, a true P(Assumption 2) = "
        + (f"{p80:.3g}" if p80 is not None else "(none)")
        + " with 80% power",
    )
    ratio, theta = max(seen, key=lambda t: t[0])
    Rx, Ry, n, s = l3_instance(theta, ns)
    d = dim(n, C * Rx**4 * Ry**2)
    ctx.note(
        f"Search over {shown[kind]} directions{where}: worst ratio {ratio:.3g} at "
        f"n = {n}, d = {d}, R_x = {Rx:.3g}, R_y = {Ry:.3g}" + (f", s = {s}" if kind == "sparse" else "") + "."
    )


def _mp_threshold(n: np.ndarray) -> np.ndarray:
    r"""Marchenko-Pastur prediction of the d at which unit-norm data meet Assumption 2:
    :math:`\|\bar G-I\|\approx2\sqrt{n/d}+n/d<\frac1{2\sqrt n}` gives :math:`d=n/u^2`,
    :math:`u=\sqrt{1+1/(2\sqrt n)}-1`."""
    u = np.sqrt(1 + 1 / (2 * np.sqrt(n))) - 1
    return n / u**2


@claim(
    "dana2025:lemma-3",
    title="Lemma 3: i.i.d. whitened data satisfy Assumption 2 w.h.p. once d >= C (n^2 + n log(1/eps))",
    source="Lemma 3 (Section 3.2); proof App. A.2, eqs. (43)-(46)",
    statement=r"For i.i.d. $(x_i,y_i)$ with compact support away from 0, $\mathbb E[x]=0$, $\mathbb "
    r"E[xx^\top]=\frac\lambda dI_d$, "
    r"there is $C$ depending on $C^{\pm}_{x,y}$ such that $d\ge C(n^2+n\log\frac1\varepsilon)$ implies "
    r"Assumption 2 with probability $\ge1-\varepsilon$.",
    hypotheses=[
        "i.i.d. directions with zero mean and E[xx^T] = lambda/d I_d, independent of the norms: uniform on "
        "the sphere, Rademacher/sqrt(d) coordinates, s-sparse signed",
        L3_NORMS,
        D_LEMMA3,
    ],
    erratum=Erratum(
        "false for whitened laws whose sqrt(d) x is not sub-Gaussian uniformly in d: s-sparse signed unit "
        "vectors (x = sum_(k in S) +-e_k / sqrt|S|, S of s uniform coordinates: zero mean, E[xx^T] = I/d, "
        "||x|| = 1, C^+- = 1 as on the sphere) with s < 2 sqrt(n) share a coordinate between two of the n "
        "points, an off-diagonal Gram entry +-1/s that breaks (4), with probability ~1 - exp(-n(n-1) s^2 / "
        "(2d)) -> 1 at d = C n^2 and s = 2 sqrt(n), for every fixed C (measured at C = 16.6 / 166 / 1660: "
        "0.99 / 0.56 / 0.077 at n = 64). The proof (App. A.2, after (43)) takes sqrt(d) xbar sub-Gaussian "
        "'since the norm is constant', but (43)'s constant depends on its sub-Gaussian norm, ~ sqrt(d/(s "
        "log(d/s))) here, not bounded by C^+-; corrected: dana2025:lemma-3-corrected",
        via="instance search over s-sparse whitened directions (this toolkit)",
        shown_by=(f"search: * over {L3_SHOWN['sparse']} directions",),
    ),
)
def lemma_3(ctx: Context) -> None:
    _lemma3(ctx, corrected=False)


@claim(
    "dana2025:lemma-3-corrected",
    title="Lemma 3 corrected: i.i.d. whitened data whose sqrt(d) x is sub-Gaussian with a norm bounded in d "
    "satisfy Assumption 2 w.h.p. once d >= C (n^2 + n log(1/eps))",
    source="Lemma 3 (Section 3.2); proof App. A.2, eqs. (43)-(46); correction: this toolkit",
    statement=r"For i.i.d. $(x_i,y_i)$ with compact support away from 0, $\mathbb E[x]=0$, $\mathbb "
    r"E[xx^\top]=\frac\lambda dI_d$ and $\|\sqrt d\,\bar x\|_{\psi_2}\le K$ for every $d$ "
    r"($\bar x=x/\|x\|$), there is $C$ depending on $C^{\pm}_{x,y}$ and $K$ such that "
    r"$d\ge C(n^2+n\log\frac1\varepsilon)$ implies Assumption 2 with probability $\ge1-\varepsilon$.",
    hypotheses=[
        "i.i.d. directions with zero mean and E[xx^T] = lambda/d I_d, independent of the norms: uniform on "
        "the sphere, Rademacher/sqrt(d) coordinates",
        L3_SUBGAUSSIAN,
        L3_NORMS,
        D_LEMMA3,
    ],
)
def lemma_3_corrected(ctx: Context) -> None:
    _lemma3(ctx, corrected=True)


def _lemma3(ctx: Context, corrected: bool) -> None:
    r"""Lemma 3's checks: the order of d*(n), P(Assumption 2) at d = C (n^2 + n log(1/eps)) on four laws,
    and one instance search per kind of direction (:func:`_lemma3_search`). ``corrected``: the s-sparse
    directions, whose :math:`\sqrt d\,\bar x` has a sub-Gaussian norm growing with d, leave the main run
    and become the control that breaks :data:`L3_SUBGAUSSIAN`."""
    trials = ctx.param("trials", tiny=100, quick=300, full=2000)
    ns = np.array(
        ctx.param("n_grid", tiny=[16, 32, 64], quick=[8, 16, 32, 64], full=[8, 16, 32, 64, 128, 256])
    )
    search_trials = ctx.param("search_trials", tiny=100, quick=300, full=1000)
    budget = ctx.param("search_budget", tiny=6, quick=25, full=60)
    ctx.zero(
        "(46) is the squared sufficient condition of (45) at equality", sym.lemma3_squaring(), why="exact"
    )
    eps = 0.1
    rng = ctx.rng("a2").host
    dstar = []
    for n in ns:
        ds = np.unique(np.geomspace(4 * n * n, 60 * n * n, 14).astype(int))
        freq = np.array([_a2_frequency(rng, n, d, trials, True) for d in ds]) / trials
        hit = np.flatnonzero(freq >= 1 - eps)
        if hit.size == 0 or hit[0] == 0:  # d* above or below the grid: not located
            dstar.append(np.nan)
            continue
        k = int(hit[0])
        x0, x1 = np.log(ds[k - 1]), np.log(ds[k])
        dstar.append(np.exp(x0 + (1 - eps - freq[k - 1]) / (freq[k] - freq[k - 1]) * (x1 - x0)))
    dstar = np.array(dstar)
    pair = np.diff(np.log(dstar)) / np.diff(np.log(ns))
    name = (
        f"order of d*(n), the smallest d with P(Assumption 2) = 0.9 (unit norms, labels +-1, {trials} draws "
        "per d), in n"
    )
    if not np.all(np.isfinite(dstar)):
        outside = ns[~np.isfinite(dstar)].tolist()
        ctx.undecided(name, f"d* not located on the grid 4 n^2..60 n^2 at n = {outside}")
    else:
        order_at_most(
            ctx,
            name,
            ns,
            dstar,
            order=2.0,
            tol=0.1,
            why="Lemma 3 is a sufficient dimension, d >= C(n^2 + n log(1/eps)) with C unspecified: it bounds "
            "the growth of d* from above, d* = O(n^2), so it is refuted only by an order above 2 (a smaller "
            "one is allowed; the check was two-sided before). Allowance 0.1: at small n the 90% quantile of "
            "||Gbar - I|| sits below the Marchenko-Pastur edge 2 sqrt(n/d) + n/d < 1/(2 sqrt n) (d* ~ 16 "
            "n^2), so local slopes approach 2 from above (2.42, 2.14, 2.05, 2.03 from n = 4 to 64); 0.1 "
            "covers that excess for n >= 8 and the interpolation of d* on a grid of ratio 1.24; the fit's "
            "95% interval on top",
            xlabel="n",
            ylabel="d*",
        )
    ctx.note(
        f"d*(n)/n^2 = {np.round(dstar / ns**2, 2).tolist()}; pairwise slopes {np.round(pair, 3).tolist()}; "
        f"Marchenko-Pastur d*/n^2 = {np.round(_mp_threshold(ns.astype(float)) / ns**2, 2).tolist()}."
    )

    def frequency_check(label: str, dim, count, why: str, grid=ns) -> None:
        """P(Assumption 2) >= 1 - eps at d = dim(n) for every n of ``grid`` (the conclusion); ``count(n, d)``:
        the draws out of ``trials`` that satisfy it."""
        ctx.probability(
            f"P(Assumption 2) >= 1 - eps at d = {label}, n = {[int(n) for n in grid]}",
            np.array([count(n, dim(n)) for n in grid]),
            trials,
            at_least=1 - eps,
            detect=1 - 2.5 * eps,
            conf=CONF,
            why=why,
        )

    C_app = 1200
    # unit data: C calibrated on the smallest n alone (1.5 d*(n_0) / (n_0^2 + n_0 log(1/eps))), then tested
    # at the larger n, so a d* growing faster than n^2 shows as a rejection there
    C_unit = 1.5 * dstar[0] / (ns[0] ** 2 + ns[0] * np.log(1 / eps))
    # (46) without its unknown constant: 8 (C_y^+/C_y^-)^2 (C_x^+/C_x^-)^4 n log(2/eps); the ratios are 1 for
    # unit data and at most 2 on App. B's supports [1, 2]
    necessary = {True: 8 * ns * np.log(2 / eps), False: 8 * 4 * 16 * ns * np.log(2 / eps)}
    dims = {True: C_unit * (ns * ns + ns * np.log(1 / eps)), False: C_app * (ns * ns + ns * np.log(1 / eps))}
    kinds = (True, False) if np.isfinite(C_unit) else (False,)
    worst = min((float(dims[u][i] / necessary[u][i]), u, i) for u in kinds for i in range(len(ns)))
    ctx.regime(D_LEMMA3, d=dims[worst[1]][worst[2]], necessary=necessary[worst[1]][worst[2]])
    if not np.isfinite(C_unit):
        ctx.undecided(
            "P(Assumption 2) >= 1 - eps at d = C (n^2 + n log(1/eps)), unit norms",
            f"d* not located at n = {ns[0]}, where C is fixed",
        )
    else:
        frequency_check(
            f"{C_unit:.3g} (n^2 + n log(1/eps)), unit norms",
            lambda n: int(C_unit * (n * n + n * np.log(1 / eps))),
            lambda n, d: _a2_frequency(rng, n, d, trials, True),
            f"one constant C for every n (Lemma 3), fixed at n = {ns[0]} alone (1.5 d*/(n^2 + n log(1/eps)) "
            "there) before the larger n are read; exact binomial test at each larger n",
            grid=ns[1:],
        )
    frequency_check(
        f"{C_app} (n^2 + n log(1/eps)), App. B norms and labels",
        lambda n: int(C_app * (n * n + n * np.log(1 / eps))),
        lambda n, d: _a2_frequency(rng, n, d, trials, False),
        "one constant C for every n (Lemma 3): 16 (C_x^+/C_x^-)^4 (C_y^+/C_y^-)^2 = 1024 from the unit-data "
        "constant ~16 and App. B's supports [1, 2] (note), rounded up; exact binomial test at every n",
    )
    frequency_check(
        f"{C_app} (n^2 + n log(1/eps)), norms and |labels| at the edges 1, 2 of App. B's supports",
        lambda n: int(C_app * (n * n + n * np.log(1 / eps))),
        lambda n, d: _a2_edge_frequency(rng, n, d, trials),
        "App. B's C^+-_{x,y} with the mass at the support edges (||x||, |y| = 1 or 2, 1/2 each: the sample "
        "ratios C^+/C^- reach 2, against U[1, 2]'s, which rarely do): the same constant as App. B's law "
        "(C depends on the law through C^+-_{x,y} only); exact binomial test at every n",
    )
    search_ns = (int(ns[0]), int(min(ns[-1], 64)))
    # one-sided level of the exact tests above ((1 - CONF) / 2), Bonferroni-divided over the instances one
    # search may evaluate (3 starts x budget: SciPy's Nelder-Mead stops at maxfev exactly)
    level = (1 - CONF) / 2 / (3 * budget)
    if not np.isfinite(C_unit):
        ctx.undecided(
            "search: P(Assumption 2) >= 1 - eps over laws", f"C not fixed: d* not located at n = {ns[0]}"
        )
    else:
        searched = (("uniform", search_ns), ("Rademacher", (8, 11)))
        for kind, grid in searched if corrected else (*searched, ("sparse", search_ns)):
            _lemma3_search(ctx, kind, grid, search_trials, eps, C_unit, budget, level, _l3_dim(eps))
    ctx.note(
        "With App. B constants (||x|| in [1, 2], |y| in [1, 2]) the constant is ~16 (C_x^+/C_x^-)^4 "
        "(C_y^+/C_y^-)^2 "
        f"= 1024 asymptotically; C = {C_app} is used. The catalog's remark that the text's 'dimension larger "
        f"than the "
        "square root of the number of data points' means n <~ sqrt(d) is consistent with d* ~ 16 n^2 "
        "measured here."
    )
    with ctx.control(
        "linear dimension d = 8 n",
        breaks=D_LEMMA3,
        must_break=["P(Assumption 2) >= 1 - eps at d = *", "search: * uniform directions"],
    ):
        frequency_check(
            "8n, unit norms", lambda n: 8 * n, lambda n, d: _a2_frequency(rng, n, d, trials, True), "as above"
        )
        if np.isfinite(C_unit):
            _lemma3_search(
                ctx,
                "uniform",
                search_ns,
                search_trials,
                eps,
                C_unit,
                2,
                level,
                lambda n, C: 8 * n,
                " (d = 8n)",
            )
    if corrected and np.isfinite(C_unit):
        with ctx.control(
            "s-sparse signed directions (sqrt(d) x's sub-Gaussian norm ~ sqrt(d/(s log(d/s))))",
            breaks=L3_SUBGAUSSIAN,
            must_break=["search: P(Assumption 2) >= 1 - eps at d = C *"],  # the searches' conclusion
        ):
            _lemma3_search(ctx, "sparse", search_ns, search_trials, eps, C_unit, budget, level, _l3_dim(eps))


# ---------------------------------------------------------------------------- Lemma 7


def _lemma7_states(ctx: Context, kind: str, n: int, p: int, B: int, rho: float = 0.9):
    r"""App.-B states at random scales on data of ``kind``, and states along a short GD run.

    Returns (data, mu, active mass (a^2), active mass (a^2 + ||w||^2), mu_a) over all states, where
    :math:`\mu_a=\frac2{np}\sum_j(w_j^\top XP_j\bar R)^2` is the curvature of the flow (3) restricted to
    the second layer (w frozen): the first term of (24), :math:`p\|\nabla_aL\|^2/L`."""
    be = ctx.backend
    rng = ctx.rng(f"l7-{kind}-{rho}").host
    data = make_data(rng, n, kind, rho=rho, d=4 * n)
    model, y0, args, _ = ensemble(be, data, B, p, rng, scale=3.0)
    states = [y0]
    y = y0
    for _ in range(4):
        for _ in range(25):
            y = y + 0.05 * model(None, y, args)
        states.append(y)
    mu, ma, maw, mu_a = [], [], [], []
    for s in states:
        U, a = model.unpack(s)
        act = to_numpy(U > 0)
        a2 = to_numpy(a * a)
        w2 = to_numpy(model.weight_sqnorm(s, args))
        r = to_numpy(model.residual(s, args))
        g = np.einsum("bji,bi->bj", np.maximum(to_numpy(U), 0.0), r)  # w_j^T X P_j R
        mu.append(to_numpy(model.curvature(s, args)))
        mu_a.append(2 * (g * g).sum(axis=1) / (n * p * (r * r).sum(axis=1)))
        ma.append(np.einsum("bj,bji->bi", a2, act).min(axis=1) / p)
        maw.append(np.einsum("bj,bji->bi", a2 + w2, act).max(axis=1) / p)
    return data, *(np.concatenate(v) for v in (mu, ma, maw, mu_a))


KINDS = (("orthogonal", 0.0), ("boundary", 0.0), ("equicorrelated", 0.5), ("equicorrelated", 0.9))


def lemma7_kinds(n: int) -> tuple[tuple[str, float], ...]:
    """:data:`KINDS` and equicorrelated data at rho = 1/(4(n - 1)): ||X^T X - D_X|| is about a
    quarter of the squared norms there, so the corrected lower bound of (23) has a positive
    constant on strongly correlated data (at rho = 0.5, 0.9 it is negative and the bound vacuous)."""
    return (*KINDS, ("equicorrelated", round(0.25 / (n - 1), 4)))


def _lemma7_checks(ctx: Context, states, n: int, p: int, upper_const: str, outer_only: bool = False) -> None:
    """Both sides of (23) on every state of :func:`_lemma7_states`; ``outer_only``: against mu_a, the
    curvature of the flow with the first layer frozen (the control breaking the flow (3))."""
    for (kind, rho), (data, mu_full, ma, maw, mu_a) in zip(lemma7_kinds(n), states, strict=True):
        mu = mu_a if outer_only else mu_full
        label = (
            f"{kind}{'' if kind != 'equicorrelated' else f' rho={rho}'} data (n={n}, p={p}, {len(mu)} states)"
        )
        lam = {"printed": data.cx[1] ** 2, "corrected": data.cx[1] ** 2 + data.off}[upper_const]
        ctx.bound(
            f"upper bound (23) with "
            f"{'(C_x^+)^2' if upper_const == 'printed' else '(C_x^+)^2 + ||X^TX - D_X||'}: "
            f"mu <= (2/n) c max_i (1/p) sum_j (a_j^2 + ||w_j||^2) 1_ji, {label}",
            mu,
            2 / n * lam * maw * (1 + 1e-12),
            why="state inequality; 1e-12 relative for rounding",
        )
        corr = data.cx[0] ** 2 - data.off
        name = (
            "lower bound (23): mu >= (2/n) ((C_x^-)^2 - ||X^TX - D_X||) min_i (1/p) sum_j a_j^2 1_ji, "
            f"{label}"
        )
        if corr <= 0:  # mu >= (a non-positive number): true of every state, not a check
            if not outer_only:  # noted once, on the main run
                ctx.note(f"{name}: not checked, its constant is {corr:.3g} <= 0 so it holds for any state")
            continue
        informative_lower_bound(
            ctx,
            name,
            mu,
            2 / n * corr * ma * (1 - 1e-12),
            ma > 0,
            why="state inequality; 1e-12 relative for rounding; states with an example that no neuron "
            "covers (min_i sum_j a_j^2 1_ji = 0) make it read mu >= 0 and are not compared",
        )


L7_SHAPE = (3, 2)  # (n, p) of the searched Lemma 7 instances (28 parameters)


def l7_ratios(theta: np.ndarray, upper_const: str) -> tuple[float, float]:
    r"""(upper, lower) ratios of (23) at one state of any data: :math:`\mu/\text{upper}` and
    :math:`\text{lower}/\mu` (both <= 1 iff (23) holds); the constants as in :func:`_lemma7_checks`."""
    n, p = L7_SHAPE
    inst = lemma7_instance(theta, n, p)
    model, y0, args = inst.model()
    act = RELU.slope(inst.W @ inst.X.T)  # (p, n): 1_{j,i}
    if not act.any():  # no neuron active anywhere: mu = 0 and both bounds are 0, (23) reads 0 <= 0 <= 0
        return 0.0, 0.0  # and holds with nothing to measure: scored as no violation
    mu = max(float(model.curvature(y0, args)[0]), 1e-300)
    a2, w2 = inst.a**2, (inst.W**2).sum(axis=1)
    c, off = inst.norms, inst.off
    lam = {"printed": c.max() ** 2, "corrected": c.max() ** 2 + off}[upper_const]
    upper = 2 / n * lam * float(((a2 + w2) @ act).max()) / p
    lower = 2 / n * (c.min() ** 2 - off) * float((a2 @ act).min()) / p
    return mu / upper, lower / mu


def l7_starts(rng: np.random.Generator, per: int) -> dict[str, list[np.ndarray]]:
    """Start families (blocks of theta: rows of X before normalisation, log-norms, labels, W, a)."""
    n, p = L7_SHAPE
    d = n + 1
    direction = np.linspace(1.0, 2.0, d)
    common = np.tile(direction, n)  # every row near one direction: correlations ~ 1
    along = np.tile(0.3 * direction, p)  # every neuron active on every example
    ortho = np.hstack([np.eye(n), np.zeros((n, 1))]).ravel()
    small = np.hstack([np.full((p, n), -0.3), np.zeros((p, 1))])
    small[0, :n] = 0.02  # neuron 0 small and active on every example, the others inactive
    families = {
        "Gaussian": [(n * d, 0, 1), (n, 0, 0.3), (n, 0, 1.5), (p * d, 0, 1), (p, 0, 1)],
        "ill-conditioned (norms, labels, weights over decades)": [
            (n * d, 0, 1),
            (n, 0, 2),
            (n, 0, 4),
            (p * d, 0, 3),
            (p, 0, 3),
        ],
        "near-collinear inputs, all neurons active, labels of one sign": [
            (n * d, common, 0.05),
            (n, 0, 0.1),
            (n, 2, 0.1),
            (p * d, along, 0.05),
            (p, 1, 0.3),
        ],
        "near equality of the lower bound: orthonormal inputs, one small neuron active everywhere": [
            (n * d, ortho, 0.01),
            (n, 0, 0.01),
            (n, 1, 0.3),
            (p * d, small.ravel(), 0.01),
            (p, 2, 0.01),
        ],
    }
    return {name: [assemble(rng, b) for _ in range(per)] for name, b in families.items()}


def _lemma7_searches(ctx: Context, budget: int, upper_const: str) -> None:
    """Both sides of (23) maximised over data and parameters (one search per side)."""
    starts = l7_starts(ctx.rng("search").host, 2)
    why = (
        f"Nelder-Mead over any data (norms, labels, directions) and parameters, (n, p) = {L7_SHAPE}, d = n+1"
    )
    ctx.search(
        f"search: upper bound (23) with the {upper_const} constant, mu / bound over data and parameters",
        lambda t: l7_ratios(t, upper_const)[0],
        starts,
        budget=budget,
        why=why,
    )
    ctx.search(
        "search: lower bound (23), bound / mu over data and parameters",
        lambda t: l7_ratios(t, upper_const)[1],
        starts,
        budget=budget,
        why=why,
    )


@claim(
    "dana2025:lemma-7",
    title="Lemma 7 as printed: (2/n)((C_x^-)^2 - ||X^TX-D_X||) min_i A_i <= mu <= (2/n)(C_x^+)^2 max_i B_i",
    source="Lemma 7, App. A.1, eqs. (23)-(30)",
    statement=r"For any parameters, $\mu\le\frac2n(C_x^+)^2\max_i\frac1p\sum_j(|a_j|^2+\|w_j\|^2)1_{j,i}$ "
    r"and "
    r"$\mu\ge\frac2n((C_x^-)^2-\|X^\top X-D_X\|)\min_i\frac1p\sum_j|a_j|^21_{j,i}$.",
    hypotheses=["any parameters", "any data (the lemma states no restriction)"],
    erratum=Erratum(
        r"the upper bound uses $\|XP_j\bar R\|^2\le(C_x^+)^2\|P_j\bar R\|^2$ (27), false for correlated "
        r"inputs: "
        r"the right constant is $\lambda_{\max}(X^\top X)\le(C_x^+)^2+\|X^\top X-D_X\|$ (equal to "
        r"$(C_x^+)^2$ only for "
        r"orthogonal inputs); counterexamples on equicorrelated data. Also (26) writes $D_X-(X^\top X-D_X)$ "
        r"for "
        r"$D_X+(X^\top X-D_X)$ and (30) $\min_i$ for $\max_i$",
        via="found by this verification (the catalog's plan tests correlated inputs); lower bound unaffected",
        shown_by=("upper bound (23) with (C_x^+)^2*", "search: upper bound (23) with the printed constant*"),
    ),
)
def lemma_7(ctx: Context) -> None:
    n = ctx.param("n", tiny=6, quick=12, full=32)
    p = ctx.param("p", tiny=4, quick=8, full=24)
    B = ctx.param("B", tiny=100, quick=500, full=20000)
    budget = ctx.param("budget", tiny=40, quick=150, full=2000)
    states = [_lemma7_states(ctx, kind, n, p, B, rho) for kind, rho in lemma7_kinds(n)]
    _lemma7_checks(ctx, states, n, p, "printed")
    _lemma7_searches(ctx, budget, "printed")


@claim(
    "dana2025:lemma-7-corrected",
    title="Lemma 7 corrected: the upper constant is (C_x^+)^2 + ||X^TX - D_X|| (>= lambda_max(X^TX))",
    source="Lemma 7, App. A.1, eqs. (23)-(30)",
    statement=r"For any parameters and data, $\frac2n((C_x^-)^2-\|X^\top "
    r"X-D_X\|)\min_i\frac1p\sum_j|a_j|^21_{j,i}\le\mu"
    r"\le\frac2n((C_x^+)^2+\|X^\top X-D_X\|)\max_i\frac1p\sum_j(|a_j|^2+\|w_j\|^2)1_{j,i}$.",
    hypotheses=["any parameters and data", P_FLOW],
)
def lemma_7_corrected(ctx: Context) -> None:
    n = ctx.param("n", tiny=6, quick=12, full=32)
    p = ctx.param("p", tiny=4, quick=8, full=24)
    B = ctx.param("B", tiny=100, quick=500, full=20000)
    budget = ctx.param("budget", tiny=40, quick=150, full=2000)
    states = [_lemma7_states(ctx, kind, n, p, B, rho) for kind, rho in lemma7_kinds(n)]
    _lemma7_checks(ctx, states, n, p, "corrected")
    _lemma7_searches(ctx, budget, "corrected")
    # the lower bound's -||X^TX - D_X|| (printed, uncorrected) is needed: without it, the worst ratio
    sharp = []
    for (kind, rho), (data, mu, ma, _, _) in zip(lemma7_kinds(n), states, strict=True):
        keep = ma > 0
        worst = float((mu[keep] / (2 / n * data.cx[0] ** 2 * ma[keep])).min())
        sharp.append(f"{kind} rho={rho}: {worst:.3g}")
    ctx.note(
        "The lower bound's term -||X^TX - D_X|| is needed: min over states of mu / ((2/n) (C_x^-)^2 min_i "
        f"(1/p) sum_j a_j^2 1_ji) = {'; '.join(sharp)} (< 1: that bound would fail; a formula edit, not a "
        "hypothesis, so it is no control)."
    )
    with ctx.control(
        "second layer trained alone (w frozen): mu_a = (2/(np)) sum_j (w_j^T X P_j Rbar)^2",
        breaks=P_FLOW,
        must_break=["lower bound (23)*"],
    ):
        _lemma7_checks(ctx, states, n, p, "corrected", outer_only=True)


@claim(
    "dana2025:corollary-1",
    title="Corollary 1: random data in d >~ n^2 and p >~ log n converge w.h.p. over data and init, rate >~ "
    "1/n",
    source="Corollary 1 (Section 3.2); proof App. A.2",
    statement=r"For i.i.d. data as in Lemma 3, "
    r"$p\ge4\log(\frac{6n}\varepsilon)(1+(C_{a,w}\frac{C_x^+}{C_y^+})^2)$ and "
    r"$d\ge C(n^2+n\log\frac1\varepsilon)$, with probability $\ge1-\varepsilon$ over the initialization and "
    r"the data "
    r"the loss converges to 0 exponentially with rate at least of order $1/n$.",
    hypotheses=[
        "App. B data (sphere directions) in d = 1200 (n^2 + n log(1/eps))",
        ASSUMPTION_1,
        LAW,
        WIDTH_C1_LAW,
        FEW_NEURONS,
    ],
)
def corollary_1(ctx: Context) -> None:
    # p = ceil(4 log(6n/eps)) <= n/4 needs n >= 160 (p = 37 at n = 160; the factor of C_aw is 1 + 2e-6
    # there, d = 3.1e7); the certificate is reached
    # by t ~ 75 there, so T = 200 covers it (as in Theorem 1)
    n = ctx.param("n", tiny=6, quick=160, full=400)
    # quick B = 120: at 60 the binomial test caught only P <= 0.6 (4x the allowed failures) and a true
    # P = 0.8 passed; at 120 it rejects P <= 0.79 with 80% power (as Theorem 1's pooled 120 members)
    # full: as quick, 120 members, at n = 400 (T = 400: Theorem 1's certificate at n = 400: t = 105-149)
    B = ctx.param("B", tiny=16, quick=120, full=120)
    T = ctx.param("T", tiny=60.0, quick=200.0, full=400.0)
    _below_design(ctx, "Corollary 1", n, B, T, 400)
    budget_gd = ctx.param("budget_gd", tiny=10, quick=30, full=400)
    eps, lr = 0.1, 0.1
    d = int(1200 * (n * n + n * np.log(1 / eps)))
    caw = c_aw(d)
    required = law_width(6, n, eps, caw, 2.0)  # C_x^+/C_y^+ <= 2 for every App. B data set
    p = int(np.ceil(required))
    ctx.regime(FEW_NEURONS, p=p, n=n)
    ctx.regime(WIDTH_C1_LAW, p=p, required=required, C_aw=caw)
    law = _corollary_checks(ctx, n, B, p, d, T, lr, eps, "main")
    ctx.regime(ASSUMPTION_1, gap=law["gap"])
    ctx.regime(LAW, **law, tests=4)  # one instance: the B members, each with its own data, pooled
    n_s, p_s = GD_SHAPE
    d_s = int(1200 * (n_s * n_s + n_s * np.log(1 / eps)))
    Gbar = sphere_gram(ctx.rng("search-directions").host, 1, n_s, d_s)[0]
    ctx.search(
        "search: step (ii) along GD on random sphere data, a correctly signed neuron stays active on every "
        "example",
        partial(t1_trajectory_ratio, steps=400, build=partial(corollary1_instance, Gbar=Gbar, p=p_s)),
        c1_starts(ctx.rng("search-gd").host, Gbar, p_s),
        budget=budget_gd,
        why=f"as Theorem 1's search, on data of Lemma 3's class: {n_s} directions uniform on the sphere in "
        f"d = {d_s} (drawn once), norms, labels and the Assumption-1 initialization searched (p = {p_s}); "
        "instances where Assumption 2, event I or L(0) <= 2 (C_y^+)^2 fail are not counted (the "
        "corollary's probability covers them)",
    )
    ctx.note(
        f"d = {d} (Bartlett Gram, exact in law), p = {p}; each member has its own data set and "
        f"initialization. C_aw = kappa_d / (2 sqrt c) <= {caw:.3g} (kappa_d bounded by psi1_upper: d is "
        f"beyond the quadrature; c = 1/6), so the width's factor (1 + (2 C_aw)^2) is "
        f"{required / (4 * np.log(6 * n / eps)):.7f}."
    )
    ctx.note(LAW_NOTE)
    with ctx.control("p = 3 neurons", breaks=WIDTH_C1_LAW, must_break=["P(convergence) >= 1 - eps*"]):
        _corollary_checks(ctx, n, B, 3, d, T, lr, eps, "small-p")


def c1_starts(rng: np.random.Generator, Gbar: np.ndarray, p: int) -> dict[str, list[np.ndarray]]:
    """Start families for the Corollary 1 search (blocks of :func:`sphere_data` + :func:`balanced_state`:
    log-norms, labels, W, log-gaps, signs of a), redrawn until Assumption 2, event I and
    L(0) <= 2 (C_y^+)^2."""
    n = len(Gbar)
    k = p * (n + 1)
    families = {
        "App. B-like (||x||, |y| in [1, 2])": [
            (n, 0.35, 0.2),
            (n, 1.5, 0.3),
            (k, 0, 0.45),
            (p, 0.5, 1),
            (p, 0, 1),
        ],
        "labels over e^2, norms over e^1": [(n, 0.3, 0.5), (n, 0, 2), (k, 0, 1), (p, 0, 2), (p, 0, 1)],
        "edge: |a_j| -> ||w_j||, large weights": [
            (n, 0.35, 0.2),
            (n, 1.5, 0.3),
            (k, 0, 2),
            (p, -12, 1),
            (p, 0, 1),
        ],
        "small initialization": [(n, 0.35, 0.2), (n, 1.5, 0.3), (k, 0, 0.02), (p, -8, 1), (p, 0, 1)],
    }

    def ok(theta: np.ndarray) -> bool:
        return t1_hypotheses(corollary1_instance(theta, Gbar, p))

    return {name: [feasible(lambda b=blocks: assemble(rng, b), ok)] for name, blocks in families.items()}


def _corollary_checks(ctx, n, B, p, d, T, lr, eps, key) -> dict:
    """Corollary 1's checks on B members (own sphere data and initialization of
    the half-normal-excess law's each); returns :data:`LAW`'s statistics of their initial states
    (:func:`law_statistics`)."""
    be = ctx.backend
    rng = ctx.rng(f"c1-{key}").host
    Gbar = sphere_gram(rng, B, n, d)
    norms, y = appendix_b_norms(rng, (B, n)), appendix_b_labels(rng, (B, n))
    G = scale_gram(Gbar, norms)
    a2 = offdiag_norm(G) < assumption2_limit(norms, y)
    V, a, wperp2 = appendix_b_init_reduced(rng, G, d, B, p, excess="halfnormal")
    model = ShallowReLU(p, n, "gram")
    args = model.args(be, G, y, wperp2=wperp2)
    y0 = be.asarray(model.pack((V, a)))
    run = run_gd(model, y0, args, lr=lr, T=T, every=10)
    I = event_I(V, a, y)
    ymin = np.abs(y).min(axis=1)
    cert = run.loss.min(axis=1) < ymin**2 / (2 * n)
    good = a2 & I & (run.loss[:, 0] <= 2 * np.abs(y).max(axis=1) ** 2)
    ctx.holds(
        f"every member with Assumption 2, event I and L(0) <= 2 (C_y^+)^2 converges (n={n}, p={p})",
        bool(np.all(cert[good])),
        measured=f"{int(cert[good].sum())}/{int(good.sum())}",
        expected=f"{int(good.sum())}/{int(good.sum())}",
        why="Theorem 1 applied member by member (deterministic given the three events)",
    )
    ctx.probability(
        f"P(convergence) >= 1 - eps over data and init (p={p})",
        int(cert.sum()),
        B,
        at_least=1 - eps,
        detect=1 - 4 * eps if B < 120 else 1 - 2.5 * eps,
        conf=CONF,
        why="exact binomial test; the violation to catch: failures 4x (2.5x from B = 120 on) as frequent "
        "as allowed; "
        f"P(Assumption 2) = {a2.mean():.3g}, P(I) = {I.mean():.3g} in this sample",
    )
    C = 1.2 * norms.min(axis=1) ** 2 / norms.max(axis=1) * ymin
    live = run.loss > (1e6 * EPS * 2.0) ** 2
    bound = (C / n)[:, None] * run.minf
    informative_lower_bound(
        ctx,
        f"(6) at every resolved state: mu >= (C/n) min_i|1 - r_i/y_i|, C per data set (p={p})",
        run.mu[live & a2[:, None]],
        bound[live & a2[:, None]],
        bound[live & a2[:, None]] > 0,
        why="state inequality of Theorem 1 on the members whose data satisfy Assumption 2",
    )
    slack = 1 - lr * float(np.max(run.mu[live]))
    _asymptotic_rate(ctx, run, live, C / n, slack, cert & a2, f"n={n}, p={p}")
    return law_statistics(model, y0, args, G, wperp2, d)
