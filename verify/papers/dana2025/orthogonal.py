r"""dana2025 Section 4 and App. C.1 on orthogonal inputs: extinction, collapse, curvature.

Claims: Proposition 3 (second-layer collapse without Assumption 1, exact final loss), Lemma 4 (CLT of
the initial curvature), Figure 6 (printed: erratum; and corrected) and Conjecture 1 (App. B Experiment 2,
run on the exact active-pair reduction of :mod:`numeric.training.orthogonal_pairs`, cross-checked against the
full GD in R^d), Lemma 8 and Proposition 1.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import sympy as sp
from scipy.special import expit, gammaln
from scipy.stats import kstest, norm

from numeric.backend import array_namespace, to_numpy
from numeric.data.weakly_correlated import (
    appendix_b_init_reduced,
    appendix_b_labels,
    appendix_b_norms,
    event_I,
    prob_event_I_orthogonal,
    sphere_directions,
)
from numeric.measures.statistics import clopper_pearson
from numeric.models.activation import RELU
from numeric.models.losses import Loss
from numeric.models.shallow_relu import ShallowReLU
from numeric.training.orthogonal_pairs import ActivePairs
from symbolic import shallow_meanfield as sym
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.evidence import detectable, rejected_counts
from verify.hypotheses import Hypothesis
from verify.papers.dana2025.common import (
    EPS,
    SizeSweep,
    orthogonal_sweep,
    p_of_n,
    solve_flow,
    t_infinity,
)
from verify.papers.dana2025.hypotheses import (
    APP_B,
    CORRELATED,
    D_LEMMA8,
    DELTA,
    EVENT_I,
    LAW,
    ORTHOGONAL,
    SMALL_A,
    WINDOW_89,
    app_b_outside,
    app_b_statistics,
    law_critical,
    law_statistics,
    off_ratio,
)
from verify.papers.dana2025.instances import HOST, assemble, labels, norms
from verify.regimes import Reading, record_worst
from verify.search import softplus

G0 = np.array([[1.0, 0.95], [0.92, 0.9]])  # <w_j(0)|x_i>, rows j, columns i (catalog's example)


def _prop3_runs(ctx: Context, y1: float, lams, a0s, T: float):
    """d = n = p = 2, x_i = e_i, y = (y1, -lam y1), a(0) = (a0, -a0): one batched DOPRI5 solve."""
    be = ctx.backend
    cases = [(lam, a0) for lam in lams for a0 in a0s]
    B = len(cases)
    model = ShallowReLU(2, 2, "orthogonal")
    V = np.broadcast_to(G0, (B, 2, 2)).copy()
    a = np.array([[a0, -a0] for _, a0 in cases])
    y = np.array([[y1, -lam * y1] for lam, _ in cases])
    args = model.args(be, np.ones(2), y, wperp2=np.zeros((B, 2)))
    ts = np.linspace(0.0, T, 201)
    ys = solve_flow(model, be.asarray(model.pack((V, a))), args, ts, rtol=1e-10, max_steps=200_000)
    V_t = ys[:, :, :4].reshape(B, len(ts), 2, 2)
    a_t = ys[:, :, 4:]
    h = np.einsum("btj,btji->bti", a_t, RELU.value(V_t)) / 2
    L = Loss("square").value(h, y[:, None, :])  # eq. (2), n = 2
    return cases, ts, V_t, a_t, L, y


PROP3_Y1, PROP3_DELTA, PROP3_T = 100.0, 1e-2, 0.3  # y_1 "large", delta / min G0 "small"; extinction horizon
PROP3_T_SIGN = 5.0  # horizon of the collapse (both a_j > 0), as the claim's runs
# L(inf) = y_2^2/4 exactly, read at PROP3_T_SIGN: once the neurons on x_2 are dead r_2 = y_2 exactly
# (sigma'(0) = 0 freezes them), so L/(y_2^2/4) - 1 = r_1^2/y_2^2, and r_1 decays at rate ~ a_j^2 + ||w_j||^2
# (~ y_1) to the solver's floor, |r_1| <~ rtol |y_1| = 1e-4 at rtol 1e-6; lambda y_1 >= sqrt(6 y_1 max G0)
# >= 3.3 in the window (max G0 >= e^-4), so r_1^2/y_2^2 <= 1e-9 (measured <= 3e-10 over 40 random instances)
# and 1e-8 leaves a factor 10. A limit other than y_2^2/4 (x_1 not fitted: |r_1| > 3e-4 lambda y_1) is caught.
PROP3_L_TOL = 1e-8


def prop3_window(G: np.ndarray, y1: float = PROP3_Y1, delta: float = PROP3_DELTA) -> tuple[float, float]:
    r"""The lambda window of Proposition 3 for the first layer ``G`` = :math:`\langle w_j(0)|x_i\rangle`:
    (89) intersected with the proof's explicit reading of 'y_1 large enough' (App. C.1):

    - first phase, both :math:`a_j` turn positive ((92), (94)): :math:`y_1(m-\lambda M)\ge4M^2` with
      :math:`m=\min G_0-2\delta'`, :math:`M=\max G_0+2\delta'`, :math:`\delta'=` ``delta`` :math:`\min G_0`
      the bound on :math:`|a_j(0)|`, i.e. :math:`\lambda\le(m-4M^2/y_1)/M`;
    - second phase, the neurons on :math:`x_2` die ((95)-(96)): :math:`\lambda y_1\ge2N`,
      :math:`N=\max G_0(1+3/\lambda)`, i.e. :math:`y_1\lambda^2-2\max G_0\lambda-6\max G_0\ge0`.

    Without them (y_1 = 100 fixed) the window reaches instances the proof does not cover: at
    :math:`\lambda` within 0.3% of :math:`\min/\max` (G0 = [[0.299, 1], [0.507, 0.735]], lambda = 0.2983,
    needing :math:`y_1\ge4400`) the neuron with the small ratio keeps :math:`a_j<0`, stays alive on
    :math:`x_2` and fits it: L -> 0."""
    gmax, gmin = float(G.max()), float(G.min())
    d = delta * gmin
    m, M = gmin - 2 * d, gmax + 2 * d
    lo = max(np.sqrt(8 * gmax / y1), (gmax + np.sqrt(gmax**2 + 6 * y1 * gmax)) / y1)
    hi = min(gmin / gmax, (m - 4 * M**2 / y1) / M)
    return float(lo), float(hi)


def prop3_instance(theta: np.ndarray) -> tuple[np.ndarray, float, np.ndarray] | None:
    r"""(G0 = <w_j(0)|x_i> (2, 2), lambda, a(0)) inside the hypotheses, or None where the window
    (:func:`prop3_window`) is empty.

    theta: log of the largest entry (clipped to e^-4..e^0), the four entries relative to it (sigmoids,
    normalised so the largest is 1), the position of lambda in the window (sigmoid), and
    :math:`a_j(0)=\delta\min G_0\tanh(t_j)`: the proof needs :math:`\delta` small against
    :math:`\min_{j,i}\langle w_j(0)|x_i\rangle` (:math:`m\ge\min G_0-2\delta>0`, (94))."""
    scale = float(np.exp(np.clip(theta[0], -4.0, 0.0)))
    u = 1 / (1 + np.exp(-theta[1:5]))
    G = scale * (u / u.max()).reshape(2, 2)
    lo, hi = prop3_window(G)
    if lo > hi:
        return None
    lam = lo + (hi - lo) / (1 + np.exp(-theta[5]))
    return G, float(lam), PROP3_DELTA * G.min() * np.tanh(theta[6:8])


def prop3_violation(theta: np.ndarray) -> float:
    r"""Violation ratio of Proposition 3's conclusions on the instance theta (<= 1 iff both hold):
    the extinction time of the neurons on :math:`x_2` over the horizon ``PROP3_T`` (<= 1 iff both
    :math:`\langle w_j|x_2\rangle` reach 0 by then; after that :math:`L\ge y_2^2/4` forever; if not
    reached, :math:`1+\max_j\langle w_j(T)|x_2\rangle/\max_j\langle w_j(0)|x_2\rangle`), and the collapse
    of the second layer, both :math:`a_j(T_a)>0` at ``PROP3_T_SIGN`` (else
    :math:`1+|\min_ja_j(T_a)|/\max_j|a_j(0)|`), and the limit :math:`L(T_a)=y_2^2/4`,
    :math:`|L(T_a)/(y_2^2/4)-1|/` ``PROP3_L_TOL``. -inf outside the hypotheses (empty window)."""
    inst = prop3_instance(theta)
    if inst is None:
        return -np.inf
    G, lam, a0 = inst
    model = ShallowReLU(2, 2, "orthogonal")
    args = model.args(HOST, np.ones(2), np.array([PROP3_Y1, -lam * PROP3_Y1]), wperp2=np.zeros((1, 2)))
    ts = np.concatenate([np.linspace(0.0, PROP3_T, 41), np.linspace(PROP3_T, PROP3_T_SIGN, 21)[1:]])
    ys = solve_flow(model, model.pack((G[None], a0[None])), args, ts, rtol=1e-6, max_steps=100_000)
    on_x2 = ys[0, :41, [1, 3]].max(axis=0)  # max_j <w_j|x_2> on [0, PROP3_T] (U is row-major (j, i))
    dead = np.flatnonzero(on_x2 <= 0)
    extinction = float(ts[dead[0]] / PROP3_T) if dead.size else 1 + float(on_x2[-1] / on_x2[0])
    a_end = float(ys[0, -1, 4:].min())
    collapse = 0.0 if a_end > 0 else 1 + abs(a_end) / float(np.abs(a0).max())
    r = model.residual(ys[:, -1], args)[0]
    limit = abs(float((r**2).sum()) / (lam * PROP3_Y1) ** 2 - 1) / PROP3_L_TOL  # L / (y_2^2/4) - 1, n = 2
    return max(extinction, collapse, limit)


def prop3_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """G0 families (log scale, 4 relative entries, lambda position, a(0))."""
    families = {
        "the catalog's G0 scale (~1), lambda mid-window": [(1, -0.5, 0.3), (4, 3, 0.5), (1, 0, 1), (2, 0, 1)],
        "lambda at the lower edge sqrt(8 max G0 / y_1)": [(1, -1, 0.3), (4, 3, 0.5), (1, -6, 0.5), (2, 0, 1)],
        "lambda at the window's upper edge": [(1, -1, 0.3), (4, 1.5, 0.5), (1, 6, 0.5), (2, 0, 1)],
        "small first layer (max G0 ~ e^-3), a(0) of opposite signs": [
            (1, -3, 0.3),
            (4, 3, 0.5),
            (1, 0, 1),
            (2, np.array([2.0, -2.0]), 0.1),
        ],
    }
    return {name: [assemble(rng, b)] for name, b in families.items()}


@claim(
    "dana2025:proposition-3",
    title="Proposition 3: without Assumption 1 the second layer collapses and L stays at y_2^2/4 > 0",
    source="Proposition 3, App. C.1, eq. (89)",
    statement=r"$d=n=p=2$, $(x_1,x_2)$ the canonical basis, $y_1y_2<0$, $\lambda=|y_2/y_1|$, "
    r"$|a_j(0)|\le\delta$, "
    r"$\min_{j,i}\langle w_j(0)|x_i\rangle>0$. For $\delta$ small, $y_1$ large and "
    r"$\sqrt{8\max_{j,i}\langle w_j(0)|x_i\rangle/y_1}\le\lambda\le\min/\max$ (89), $\lim_tL(\theta_t)>0$; "
    r"both $a_j$ become positive, the neurons on $x_2$ die and $L(\infty)=y_2^2/4$.",
    hypotheses=[SMALL_A, WINDOW_89, ORTHOGONAL],
)
def proposition_3(ctx: Context) -> None:
    budget = ctx.param("budget", tiny=2, quick=8, full=200)
    trials = ctx.param("trials", tiny=3, quick=6, full=20)
    y1 = PROP3_Y1
    a0s = (1e-2, 1e-3)
    # the grid spans (89) intersected with the proof's reading of 'y_1 large enough' (prop3_window) for
    # |a_j(0)| <= max(a0s): (89) alone reaches min/max = 0.9, where y_1 = 100 is not large enough
    lo, hi = prop3_window(G0, y1, max(a0s) / G0.min())
    lams = np.linspace(lo, hi, trials)
    T = PROP3_T_SIGN
    ctx.regime(ORTHOGONAL, off_ratio=off_ratio(np.eye(2)))  # x_i = e_i
    ctx.regime(SMALL_A, ratio=max(a0s) / G0.min())
    ctx.regime(
        WINDOW_89,
        lo_ratio=lams.min() / np.sqrt(8 * G0.max() / y1),
        hi_ratio=lams.max() / (G0.min() / G0.max()),
    )
    cases, ts, V, a, L, y = _prop3_runs(ctx, y1, lams, a0s, T)
    pred = y[:, 1] ** 2 / 4
    ctx.bound(
        f"min over {len(cases)} runs (lambda in [{lo:.3f}, {hi:.3f}]: (89) and y_1 large enough, delta in "
        f"{a0s}) of min_j a_j(T)",
        a[:, -1].min(),
        0.0,
        side=">=",
        why="collapse: both second-layer weights end positive (the sign of y_1)",
    )
    ctx.bound(
        "max over runs of max_j <w_j(T)|x_2> (neurons on x_2 extinct: <= 0 is frozen forever)",
        V[:, -1, :, 1].max(),
        0.0,
        why="orthogonal data, sigma'(0) = 0: a coordinate <= 0 has zero velocity, so r_2 = y_2 from then on "
        "and L >= y_2^2/4 for all later times",
    )
    ctx.close(
        "L(T) / (y_2^2/4) - 1 over runs (the exact final loss)",
        L[:, -1] / pred - 1,
        0.0,
        atol=1e-8,
        why="L(T) - y_2^2/4 = r_1(T)^2/4, and r_1 decays at rate ~ y_1 a^2 (>= 50) over T = 5: below 1e-8 "
        "relative once r_1 is at the solver tolerance 1e-10 x |y_1|",
        details={"lambda, delta": cases, "L(T)": L[:, -1], "y2^2/4": pred},
    )
    ctx.search(
        "search: extinction of the neurons on x_2, collapse of the second layer and L(inf) = y_2^2/4 over "
        "G0, lambda and a(0)",
        prop3_violation,
        prop3_starts(ctx.rng("search").host),
        budget=budget,
        why=f"y_1 = {PROP3_Y1:g} and delta = {PROP3_DELTA:g} min G0 fixed (the statement's 'large' and "
        "'small'; (94) needs delta < min G0 / 2); "
        "Nelder-Mead over the scale and shape of G0 (positive entries), lambda across the window (89) "
        "intersected with the proof's explicit 'y_1 large enough' ((92)/(94): y_1 (m - lambda M) >= 4 M^2; "
        "(95)-(96): lambda y_1 >= 2 max G0 (1 + 3/lambda); prop3_window) and "
        f"|a_j(0)| <= delta, DOPRI5 rtol 1e-6; ratio = max(extinction time of both neurons on x_2 / "
        f"{PROP3_T:g} (the extinction takes ~0.05 here; after it L >= y_2^2/4 forever), both a_j(T) > 0 at "
        f"T = {PROP3_T_SIGN:g} (else 1 + |min a_j| / max |a_j(0)|), |L(T)/(y_2^2/4) - 1| / {PROP3_L_TOL:g} "
        "(r_1^2/y_2^2 once x_2's neurons are dead; the solver's floor <= 1e-9)). Before, only the extinction "
        "was scored and lambda ran over (89) alone, where y_1 = 100 is not 'large enough' near min/max (a "
        "violation there, L -> 0, is outside the statement: prop3_window's docstring)",
    )
    *_, L_out, y_out = _prop3_runs(ctx, y1, (0.05,), (1e-2,), T)
    ctx.note(
        f"Outside the window (89): lambda = 0.05 < {lo:.3f} also collapses, L(T) = {L_out[0, -1]:.6g} vs "
        f"y_2^2/4 = {y_out[0, 1] ** 2 / 4:.6g}; (89) is sufficient, not necessary. The lambda grid ends at "
        f"{hi:.3f}, below (89)'s min/max = {G0.min() / G0.max():.3f}: above it y_1 = {y1:g} is not 'large "
        "enough' by the proof's explicit conditions ((92)/(94), prop3_window), so those lambdas are outside "
        "the statement at this y_1 (the adversarial search reads the same window). The printed (90) has "
        "d a_j/dt = (1/4)(...); with the p-accelerated flow the factor is 1/2 (irrelevant to the limit)."
    )
    ctx.figure(
        "loss, Prop. 3 collapse (first lambda) and the Assumption-1 control",
        xlabel="t",
        ylabel="L",
        logy=True,
        series=[
            Series(f"lambda={cases[0][0]:.3f}, delta={cases[0][1]:g}", ts, L[0]),
            Series("y_2^2/4", ts, np.full_like(ts, pred[0]), "--"),
        ],
    )
    with ctx.control(
        "|a_j(0)| = 2 >= ||w_j(0)|| (Assumption 1 holds)",
        breaks=SMALL_A,
        must_break=["L(T) / (y_2^2/4) - 1*", "min over * of min_j a_j(T)"],
    ):
        cases, ts, V, a, L, y = _prop3_runs(ctx, y1, lams, (2.0,), T)
        ctx.bound("min over runs of min_j a_j(T)", a[:, -1].min(), 0.0, side=">=", why="as above")
        ctx.close(
            "L(T) / (y_2^2/4) - 1 over runs (the exact final loss)",
            L[:, -1] / (y[:, 1] ** 2 / 4) - 1,
            0.0,
            atol=1e-8,
            why="as above",
            details={"L(T)": L[:, -1], "rounding floor": EPS},
        )


# ---------------------------------------------------------------------------- Lemma 4


#: Lemma 4's excess |a_j| - ||w_j||: LAW's |N(0, 1)| (Section 2's class); App. B's is "exponential".
L4_EXCESS = "halfnormal"
# (E e, E e^2) of the excess, exact: |N(0, 1)| and Exp(1) (SymPy-checked in the claim)
L4_EXCESS_MOMENTS = {
    "halfnormal": (sp.sqrt(2 / sp.pi), sp.Integer(1)),
    "exponential": (sp.Integer(1), sp.Integer(2)),
}


def _n_mu0(
    ctx: Context,
    c: np.ndarray,
    y: np.ndarray,
    d: int,
    p: int,
    M: int,
    key: str,
    excess: str = L4_EXCESS,
    cauchy: bool = False,
) -> tuple[np.ndarray, dict]:
    """n mu(0) for M initializations of width p on x_i = c_i e_i (batched, exact in law): w ~ N(0, I/d),
    a_j = s_j (||w_j|| + e_j) with the excess e_j of ``excess`` (:func:`appendix_b_init_reduced`; ``cauchy``
    adds |Cauchy| to it), and the statistics of those initial states for the law's hypothesis
    (:func:`law_statistics` for :data:`LAW`'s half-normal excess, :func:`app_b_statistics` for App. B's)."""
    be = ctx.backend
    rng = ctx.rng(key).host
    n = len(y)
    G = np.diag(c**2)
    V, a, wperp2 = appendix_b_init_reduced(rng, G, d, M, p, excess=excess)
    if cauchy:
        a = np.sign(a) * (np.abs(a) + np.abs(rng.standard_cauchy(a.shape)))
    model = ShallowReLU(p, n, "orthogonal")
    args = model.args(be, c, y, wperp2=wperp2)
    y0 = be.asarray(model.pack((V, a)))
    if excess == L4_EXCESS:
        stats = law_statistics(model, y0, args, G, wperp2, d)
    else:
        stats = app_b_statistics(V, a, G, wperp2, d)
    return n * to_numpy(model.curvature(y0, args)), stats


def law_Ea2(d: int, excess: str = L4_EXCESS) -> float:
    r""":math:`Ea^2=E(\|w\|+e)^2=E\|w\|^2+2E\|w\|\,Ee+Ee^2` for :math:`w\sim\mathcal N(0,I_d/d)`
    (:math:`E\|w\|^2=1`, :math:`E\|w\|=\sqrt{2/d}\,\Gamma(\frac{d+1}2)/\Gamma(\frac d2)`) and an excess
    e independent of w: half-normal (:data:`LAW`, :math:`Ee=\sqrt{2/\pi}`, :math:`Ee^2=1`):
    :math:`2+2\sqrt{2/\pi}E\|w\|`; App. B's Exp(1) (:math:`Ee=1`, :math:`Ee^2=2`): :math:`3+2E\|w\|`."""
    Ew = np.sqrt(2 / d) * np.exp(gammaln((d + 1) / 2) - gammaln(d / 2))
    mean, second = (float(m) for m in L4_EXCESS_MOMENTS[excess])
    return float(1 + 2 * Ew * mean + second)


def beta0_value(c: np.ndarray, y: np.ndarray, d: int, excess: str = L4_EXCESS) -> float:
    """Lemma 4's beta_0 for the law with excess ``excess``: the closed form (C7) (derived in
    symbolic/shallow_meanfield) with s^2 = E||w||^2 = 1 and E a^2 of the law (:func:`law_Ea2`)."""
    cy2, cy = float((c**2 * y**2).sum()), float((c * y).sum())
    return ((law_Ea2(d, excess) + (1 - 1 / np.pi) / d) * cy2 + cy**2 / (np.pi * d)) / float((y**2).sum())


# Lemma 4's mean check: |mean n mu(0) - beta_0| <= L4_Z SE + 2 bias (the derivation: L4_MEAN_WHY)
L4_Z = 4.0
L4_MEAN_WHY = (
    "the sample mean of M i.i.d. initializations is normal up to O(M^-1/2) skewness, so 4 standard errors "
    "(sd / sqrt(M)) is a two-sided level 2 Phi(-4) = 6.3e-5 for its noise; the finite-p bias: n mu(0) = 2 "
    "R^T M R / ||R||^2 with R = Y~ - xi/sqrt(p), M = E[...] + zeta/sqrt(p) ((75)-(76)) has mean beta_0 + "
    "b/p + O(p^-2) (the terms linear in xi, zeta have mean 0), so mean(p/4) - mean(p) = 3b/p + O(p^-2) and "
    "the bias at p is read as |mean(p/4) - mean(p)| / 3 (Richardson over a factor 4 in p), doubled for "
    "the O(p^-2) remainder and the noise of that estimate"
)


# The moment condition the proof of Lemma 4 uses: (75)-(78) apply the Central Limit Theorem to the i.i.d.
# summands of M(0) (|a_j|^2 P_j X^T X P_j, P_j X^T w_j w_j^T X P_j) and of R(0) (a_j P_j X^T w_j), which needs
# their variances finite; Section 2's sub-Gaussian class implies it, App. B's Exp(1) excess meets it too
CLT_MOMENTS = Hypothesis(
    "finite fourth moments of the neurons (the CLT of (75)-(78))",
    wording=r"the summands of (75)-(76) have finite variance: $\mathbb E a^4<\infty$, "
    r"$\mathbb E\|w\|^4<\infty$ (proof of Lemma 4, 'by Central Limit Theorem'; implied by Section 2's "
    r"sub-Gaussian marginals)",
    condition="structural: the half-normal-excess law run here has all moments (a = s(||w|| + |N(0, 1)|), "
    "w ~ N(0, I/d))",
)

# Lemma 4 is stated for any data: its correlated run lies outside Assumption 2 (CORRELATED's wording says
# "inside Assumption 2", which this run is not), so the same test under its own wording
L4_CORRELATED = Hypothesis(
    "correlated inputs, any Gram matrix",
    wording=r"inputs with $\langle x_i|x_k\rangle\ne0$ for some $i\ne k$ (Lemma 4 assumes no Assumption 2; "
    r"the run's equicorrelated directions lie outside it)",
    condition=CORRELATED.condition,
    test=CORRELATED.test,
)


@claim(
    "dana2025:lemma-4",
    title="Lemma 4: sqrt(p)(n mu(0) - beta_0) -> N(0, gamma_0^2) as p -> infinity",
    source="Lemma 4 (Section 4.2); proof App. A.5, eqs. (75)-(79); catalog (C7)",
    statement=r"$\mu(0)$ is random and $\sqrt p(n\mu(0)-\beta_0)\to\mathcal N(0,\gamma_0^2)$ as "
    r"$p\to\infty$, with "
    r"$\beta_0,\gamma_0$ depending only on the data and the law of the neurons; so the early rate is of "
    r"order $1/n$.",
    hypotheses=[
        LAW,  # Section 2's class (sub-Gaussian, rotation invariant); its half-normal-excess member is run
        CLT_MOMENTS,
        "n fixed",
        ORTHOGONAL,  # not the lemma's: the closed form (C7) of beta_0 checked here is for orthogonal inputs
        L4_CORRELATED,  # not the lemma's either: one run on correlated inputs, beta_0 by arc-cosine kernels
    ],
)
def lemma_4(ctx: Context) -> None:
    M = ctx.param("trials", tiny=150, quick=300, full=2000)
    ps = np.array(
        ctx.param("p_grid", tiny=[16, 64, 256], quick=[16, 64, 256, 1024], full=[16, 64, 256, 1024, 4096])
    )
    # the data search: 10 starts x <= budget + 7 instances, each M_s initializations at p_s and p_s / 4 on
    # draws fixed per (n, d); measured at quick (2-core machine shared with other jobs): claim 1.7 -> 39.5 s,
    # ~0.1 s an instance at n = 20; at full ~4x that per instance and twice the budget: est. ~5 min more
    M_s = ctx.param("search_trials", tiny=100, quick=300, full=600)
    p_s = ctx.param("search_p", tiny=256, quick=1024, full=2048)
    budget = ctx.param("search_budget", tiny=3, quick=30, full=60)
    mom = sym.gaussian_moments()
    s = sp.Symbol("sigma", positive=True)
    ctx.zero("E[g_+^2] = sigma^2/2", mom["E[g+^2]"] - s**2 / 2, why="SymPy integral")
    ctx.zero("E[g_+] = sigma/sqrt(2 pi)", mom["E[g+]"] - s / sp.sqrt(2 * sp.pi), why="SymPy integral")
    e = sp.Symbol("e", positive=True)
    densities = {"halfnormal": 2 * sp.exp(-(e**2) / 2) / sp.sqrt(2 * sp.pi), "exponential": sp.exp(-e)}
    for excess, dens in densities.items():
        ctx.zero(
            f"(E e, E e^2) of the {excess} excess = {L4_EXCESS_MOMENTS[excess]} (E a^2 of (C7), law_Ea2)",
            sp.Matrix(
                [
                    sp.integrate(e**k * dens, (e, 0, sp.oo)) - m
                    for k, m in zip((1, 2), L4_EXCESS_MOMENTS[excess], strict=True)
                ]
            ),
            why="SymPy integrals of the excess's density",
        )
    ctx.zero(
        "beta_0 derived from Gaussian integrals = closed form (C7) (n = 3)",
        sym.beta0_catalog_residual(3),
        why="SymPy simplification",
    )
    n, d = 20, 80
    rng = ctx.rng("data").host
    c, y = appendix_b_norms(rng, n), appendix_b_labels(rng, n)
    ctx.regime(ORTHOGONAL, off_ratio=off_ratio(np.diag(c**2)))  # x_i = c_i e_i, every searched instance too
    beta0 = beta0_value(c, y, d)
    runs = [_n_mu0(ctx, c, y, d, int(p), M, f"l4-{p}") for p in ps]
    samples = [mu for mu, _ in runs]
    draws = {shape: lemma4_draws(ctx, *shape, M_s, p_s) for shape in L4_SHAPES}
    # beta_0's closed form (C7) uses the law's E a^2: read LAW on the states sampled (the search's draws
    # included: their statistics do not depend on the data, z = sqrt(d) <w|x_i> / c_i), worst of all
    law = [_draw_statistics(V, a, w2, dd) for (_, dd), ds in draws.items() for V, a, w2 in ds]
    record_law(ctx, LAW, [st for _, st in runs] + law)
    tol = _clt_checks(ctx, ps, samples, beta0, M)
    z = (samples[-1] - samples[-1].mean()) / samples[-1].std()
    ks = float(kstest(z, "norm").statistic)
    ctx.bound(
        f"Kolmogorov-Smirnov distance of the standardized n mu(0) to N(0, 1), p = {ps[-1]}",
        ks,
        1.95 / np.sqrt(M),
        why="KS critical value at level 0.001 (1.95/sqrt(M)); the CLT predicts a normal limit. Power, "
        "simulated with the same standardization by the sample mean and sd (standardized Gamma laws, 400 "
        "samples each at M = 150, 300, 2000): 80% at a KS distance from N(0, 1) of about 2.2/sqrt(M), "
        "0.6 or less below 1.9/sqrt(M)",
        resolution=f"a law at KS distance >= {2.2 / np.sqrt(M):.3g} from the normal (2.2/sqrt(M), 80% power "
        f"at M = {M}); e.g. a standardized exponential (distance 0.16) is rejected with 80% power from M = "
        "190 on",
    )
    _lemma4_search(ctx, draws, budget)
    ctx.note(
        "(75) and (77) omit the normalisation by ||R(0)||^2 (||Y~||^2): beta_0 = 2 E[(w^T X P Y~)^2 + a^2 "
        "||X P Y~||^2] / ||Y~||^2 is what the curvature (5) converges to (checked here); (79) is not "
        "dimensionally "
        f"consistent, so gamma_0 is estimated: sqrt(p) sd = {np.sqrt(ps[-1]) * samples[-1].std():.3g} at p = "
        f"{ps[-1]}."
    )
    _lemma4_app_b(ctx, c, y, d, ps, M, samples[-1].mean(), tol)
    _lemma4_correlated(ctx, c, y, d, ps, M)
    ctx.note(
        "Data: the main run, the search and the App. B observation use orthogonal inputs x_i = c_i e_i "
        "(hypothesis 'orthogonal inputs', not the lemma's: Lemma 4 is stated for any data, and (C7) is "
        "beta_0's closed form on orthogonal inputs); the lemma's generality is checked by one run on "
        "correlated inputs (equicorrelated directions, the checks tagged 'correlated inputs'; there (C7) "
        f"would read beta_0 = {beta0_value(c, y, d):.4f} against (77)'s "
        f"{beta0_general(_l4_gram(c), y, d):.4f}, several tolerances apart, so the check tells the general "
        "beta_0 from the orthogonal one). The control "
        "breaks the finite moments the proof's CLT needs, not sub-Gaussianity itself: App. B's Exp(1) "
        "excess is not sub-Gaussian and meets both conclusions (the App. B note above), so the conclusions "
        "depend on finite moments, which is what the control takes away."
    )
    with ctx.control(
        "Cauchy-tailed second layer |a| = ||w|| + |N(0, 1)| + |Cauchy| (E a^2 = inf: the summands |a_j|^2 "
        "... of (75) have no finite mean, beta_0 = inf)",
        breaks=CLT_MOMENTS,
        must_break=["sd of n mu(0)*", "mean of n mu(0)*"],
    ):
        samples = [_n_mu0(ctx, c, y, d, int(p), M, f"l4c-{p}", cauchy=True)[0] for p in ps]
        _clt_checks(ctx, ps, samples, beta0, M, atol=tol)


L4_RHO = 0.3  # pairwise correlation of the input directions of the correlated-data run


def beta0_general(G: np.ndarray, y: np.ndarray, d: int, excess: str = L4_EXCESS) -> float:
    r"""Lemma 4's :math:`\beta_0=2\,\mathbb E[(w^\top XPY)^2+a^2\|XPY\|^2]/\|Y\|^2` (77) for any Gram
    matrix :math:`G` (:math:`\tilde Y=Y`: the sign of :math:`a` is symmetric and independent of :math:`w`, so
    :math:`\mathbb E[aPX^\top w]=0`). With :math:`u=X^\top w\sim\mathcal N(0,G/d)`,
    :math:`\rho_{ik}=G_{ik}/(c_ic_k)` and the arc-cosine kernels
    :math:`\mathbb E[(u_i)_+(u_k)_+]=\frac{c_ic_k}{2\pi d}(\sqrt{1-\rho^2}+\rho(\pi-\arccos\rho))`,
    :math:`\mathbb E[1_i1_k]=\frac{\pi-\arccos\rho}{2\pi}` and :math:`a^2` independent of the signs of
    :math:`u` (a function of :math:`\|w\|` and the excess): :math:`\beta_0=2(Y^\top K_1Y+\mathbb Ea^2\,
    Y^\top(G\circ K_0)Y)/\|Y\|^2`. At :math:`\rho=0` it is (C7) (:func:`beta0_value`; equal to 1e-15
    measured); on the correlated run's data a Monte Carlo mean over 4e6 neurons reads 7.1678 against
    7.1697 (measured, seed 0 of a scratch draw: 0.03%, inside its noise)."""
    c = np.sqrt(np.diag(G))
    rho = np.clip(G / np.outer(c, c), -1.0, 1.0)
    arc = np.pi - np.arccos(rho)
    K1 = np.outer(c, c) * (np.sqrt(1 - rho**2) + rho * arc) / (2 * np.pi * d)
    K0 = arc / (2 * np.pi)
    return float(2 * (y @ K1 @ y + law_Ea2(d, excess) * y @ (G * K0) @ y) / (y @ y))


def _l4_gram(c: np.ndarray) -> np.ndarray:
    """Gram matrix of inputs of norms ``c`` with pairwise direction correlation :data:`L4_RHO`."""
    return np.outer(c, c) * (L4_RHO + (1 - L4_RHO) * np.eye(len(c)))


def _lemma4_correlated(ctx: Context, c: np.ndarray, y: np.ndarray, d: int, ps: np.ndarray, M: int) -> None:
    r"""Lemma 4 on correlated inputs (the main run's norms and labels, directions of pairwise correlation
    :data:`L4_RHO`): the same CLT checks against :func:`beta0_general`, with :math:`n\mu(0)` from the Gram
    model (:func:`appendix_b_init_reduced` with the Cholesky factor of :math:`G`)."""
    n = len(y)
    G = _l4_gram(c)
    ctx.regime(L4_CORRELATED, off_ratio=off_ratio(G))
    rng = ctx.rng("l4-corr").host
    samples = []
    for p in ps:
        V, a, wperp2 = appendix_b_init_reduced(rng, G, d, M, int(p), excess=L4_EXCESS)
        model = ShallowReLU(int(p), n, "gram")
        args = model.args(ctx.backend, G, y, wperp2=wperp2)
        samples.append(n * to_numpy(model.curvature(ctx.backend.asarray(model.pack((V, a))), args)))
    beta0 = beta0_general(G, y, d)
    _clt_checks(ctx, ps, samples, beta0, M, label=f"correlated inputs, rho = {L4_RHO}, beta_0 by (77)")


def _draw_statistics(V: np.ndarray, a: np.ndarray, wperp2: np.ndarray, d: int) -> dict:
    """:func:`law_statistics` of one sample of :func:`lemma4_draws` (unit orthogonal inputs, G = I)."""
    _, p, n = V.shape
    model = ShallowReLU(p, n, "orthogonal")
    args = model.args(HOST, np.ones(n), np.ones(n), wperp2=wperp2)
    return law_statistics(model, model.pack((V, a)), args, np.eye(n), wperp2, d)


def _clt_tolerance(samples, M: int) -> float:
    """The mean check's tolerance at the largest p, L4_Z SE + 2 bias (:data:`L4_MEAN_WHY`)."""
    means = [s.mean() for s in samples[-2:]]
    return float(L4_Z * samples[-1].std() / np.sqrt(M) + 2 * abs(means[0] - means[1]) / 3)


def _lemma4_app_b(
    ctx: Context, c: np.ndarray, y: np.ndarray, d: int, ps: np.ndarray, M: int, mean: float, tol: float
) -> None:
    """App. B's own law (|a_j| - ||w_j|| ~ Exp(1), Figure 6's) on the main data: an observation, not a check.
    Its excess has ||a||_psi2 = inf, outside Section 2's sub-Gaussian class (LAW), so the statement does not
    cover it (the proof's CLT would: it needs finite moments only). Also how far the main (LAW) mean lies from
    App. B's beta_0, in units of the main tolerance: what the mean check resolves of the law."""
    runs = [_n_mu0(ctx, c, y, d, int(p), M, f"l4-app-b-{p}", excess="exponential") for p in ps]
    samples = [mu for mu, _ in runs]
    beta0 = beta0_value(c, y, d, "exponential")
    slope = float(np.polyfit(np.log(ps), np.log([s.std() for s in samples]), 1)[0])
    tests = 4 * len(runs)
    outside = max(app_b_outside(st | {"tests": tests}) for _, st in runs)
    ctx.note(
        f"App. B's law (|a_j| - ||w_j|| ~ Exp(1), the law of Figure 6 and of App. B's experiments), outside "
        f"Section 2's class (not sub-Gaussian: ||a||_psi2 = inf), so an observation, not a check: on the "
        f"same data, {M} initializations per p, the log-log slope of sd(n mu(0)) vs p is {slope:.3f} (-1/2 "
        f"expected) and at p = {ps[-1]} mean n mu(0) = {samples[-1].mean():.4f} vs its beta_0 = {beta0:.4f} "
        f"(E a^2 = 3 + 2 E||w||), |difference| / (4 SE + 2 bias) = "
        f"{abs(samples[-1].mean() - beta0) / _clt_tolerance(samples, M):.3g}; its App. B statistics "
        f"{outside:.3g} x their critical values ({tests} tests). The constant follows the law: the main "
        f"(half-normal) mean {mean:.4f} against App. B's beta_0 would be {abs(mean - beta0) / tol:.3g} x the "
        f"main tolerance off (E a^2 = 2 + 2 sqrt(2/pi) E||w|| = {law_Ea2(d):.4f} vs "
        f"{law_Ea2(d, 'exponential'):.4f})."
    )


def _clt_checks(
    ctx: Context,
    ps: np.ndarray,
    samples,
    beta0: float,
    M: int,
    atol: float | None = None,
    label: str = "catalog (C7), normalised",
) -> float:
    """The sd's order in p and the mean at the largest p against beta_0, within ``atol`` (a control: the
    main run's) or the tolerance derived from ``samples`` (:data:`L4_MEAN_WHY`); returns the tolerance.
    ``label`` names the data and beta_0's source (the orthogonal checks keep their names)."""
    sd = np.array([s.std() for s in samples])
    tag = "" if label == "catalog (C7), normalised" else f" [{label}]"
    ctx.order(
        f"sd of n mu(0) over {M} initializations vs p (CLT: order -1/2){tag}",
        ps,
        sd,
        expected=-0.5,
        tol=0.1,
        why="the relative error of a sample sd is 1/sqrt(2M) (<= 0.05 here); over a factor >= 16 in p that "
        "moves "
        "the fitted slope by < 0.04; 0.1 also covers the O(1/p) correction of the ratio n mu(0)",
        xlabel="p",
        ylabel="sd(n mu(0))",
    )
    means = np.array([s.mean() for s in samples])
    tol = _clt_tolerance(samples, M) if atol is None else atol
    ctx.close(
        f"mean of n mu(0) at p = {ps[-1]} vs beta_0 = {beta0:.4f} ({label})",
        float(means[-1]),
        beta0,
        atol=tol,
        why=L4_MEAN_WHY if atol is None else "the main run's tolerance (4 SE + 2 bias of the LAW samples)",
        details={"means": means, "p": ps},
    )
    return tol


# Lemma 4's data search: (n, d) -> {family: start}; the starts are parameters of :func:`lemma4_data`
L4_SHAPES: dict[tuple[int, int], dict[str, np.ndarray]] = {
    (20, 80): {  # App. B's (n, d), the main check's
        "App. B-like: norms and |labels| spread over [1, 2], |labels| falling as norms grow, half positive": (
            np.array([0.42, 0.42, -8.0, 0.42, -0.42, 0.0])
        ),
        "equal norms, equal |labels|, half positive: sum_i c_i y_i = 0 (no cross term)": np.array(
            [0.0, 0.0, -8.0, 0.0, 0.0, 0.0]
        ),
        "equal norms, labels of one sign (the cross term (sum c y)^2 / (pi d) largest)": np.array(
            [0.0, 0.0, -8.0, 0.0, 0.0, 8.0]
        ),
        "one dominant input norm (c_1 ~ e^2 c_i), |labels| ~ 1, half positive": np.array(
            [0.0, 0.0, 4.0, 0.0, 0.0, 0.0]
        ),
    },
    (12, 12): {  # d = n: no frozen direction, the 1/d terms of (C7) ~7x App. B's
        "equal norms, labels of one sign": np.array([0.0, 0.0, -8.0, 0.0, 0.0, 8.0]),
        "equal norms, equal |labels|, sum_i c_i y_i = 0": np.array([0.0, 0.0, -8.0, 0.0, 0.0, 0.0]),
        "one dominant input norm, labels of one sign": np.array([0.0, 0.0, 4.0, 0.0, 0.0, 8.0]),
    },
    (4, 4): {  # few examples, d = n: the 1/d terms ~3.5% (1 - 1/pi) and ~6.5% (one sign) of beta_0
        "equal norms, labels of one sign": np.array([0.0, 0.0, -8.0, 0.0, 0.0, 8.0]),
        "norms and |labels| over [e^-1, e], labels of one sign, large norms with small labels": np.array(
            [0.0, 3.0, -8.0, 0.0, -3.0, 8.0]
        ),
        "equal norms, equal |labels|, sum_i c_i y_i = 0": np.array([0.0, 0.0, -8.0, 0.0, 0.0, 0.0]),
    },
}
L4_LOG_NORM, L4_LOG_DOM, L4_LOG_LABEL = 1.0, 2.0, 1.0  # log ranges of the norms, the dominant one, |labels|
L4_NOISE = 0.05  # the largest Var f_i(0) / y_i^2 at p / 4 the searched data allow (the finite-p regime)


def lemma4_data(theta: np.ndarray, n: int, floor: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Lemma 4's searched orthogonal data, norms and labels (n,) from 6 parameters.

    On the grid :math:`u_i` = linspace(-1, 1, n): :math:`\|x_i\|=e^{\ell_c\tanh(\theta_0+\theta_1u_i)}`,
    the first multiplied by :math:`e^{\ell_d\,\mathrm{sigmoid}(\theta_2)}` (one dominant norm),
    :math:`|y_i|=\max(e^{\ell_y\tanh(\theta_3+\theta_4u_i)},\ \mathrm{floor}\,\|x_i\|)`, and
    round(n sigmoid(theta_5)) labels positive, the first in the order of frac(i * golden ratio). The
    floor keeps each label above the initial network's noise on it: :math:`\mathrm{Var}f_i(0)\approx
    E a^2\|x_i\|^2/(2dp)`, so floor = :math:`\sqrt{Ea^2/(2dp'\epsilon)}` keeps it below a fraction
    :math:`\epsilon` of :math:`y_i^2` at the smaller width p' of the bias estimate (:func:`lemma4_eval`):
    Lemma 4 is a limit in p at fixed data, and a finite p is large for the data only there."""
    u = np.linspace(-1.0, 1.0, n)
    c = np.exp(L4_LOG_NORM * np.tanh(theta[0] + theta[1] * u))
    c[0] *= np.exp(L4_LOG_DOM * float(expit(theta[2])))
    size = np.maximum(np.exp(L4_LOG_LABEL * np.tanh(theta[3] + theta[4] * u)), floor * c)
    positive = np.zeros(n, bool)
    positive[np.argsort((np.arange(n) * L8_GOLDEN) % 1.0)[: round(n * float(expit(theta[5])))]] = True
    return c, np.where(positive, size, -size)


def lemma4_draws(ctx: Context, n: int, d: int, M: int, p: int) -> tuple[tuple[np.ndarray, ...], ...]:
    """LAW's initializations (V, a, wperp2) of widths p / 4 and p on unit orthogonal inputs, fixed per
    (n, d) for the whole search: instance c has pre-activations c_i V (the same law as a fresh draw on
    x_i = c_i e_i; :func:`appendix_b_init_reduced` with G = diag(c^2) makes exactly these), so each
    instance's ratio is a deterministic, continuous function of the data."""
    rngs = {q: ctx.rng(f"l4-search-{n}-{d}-{q}").host for q in (p // 4, p)}
    return tuple(appendix_b_init_reduced(r, np.eye(n), d, M, q, excess=L4_EXCESS) for q, r in rngs.items())


def lemma4_eval(theta: np.ndarray, draws, d: int, z: float) -> dict:
    r"""One searched instance (:func:`lemma4_data` on ``draws`` from :func:`lemma4_draws`):
    ``ratio`` = :math:`|\overline{n\mu(0)}-\beta_0|/(z\,SE+2\,\mathrm{bias})` at the larger width, the
    main check's tolerance with ``z`` standard errors (:data:`L4_MEAN_WHY`); with the data, mean, beta_0
    and the noise fraction max_i Var f_i(0)/y_i^2 at the smaller width."""
    (V_lo, a_lo, w_lo), (V, a, wperp2) = draws
    M, _, n = V.shape
    p_lo = V_lo.shape[1]
    floor = np.sqrt(law_Ea2(d) / (2 * d * p_lo * L4_NOISE))
    c, y = lemma4_data(theta, n, floor)
    means, sds = [], []
    for U, s, w2 in ((V_lo, a_lo, w_lo), (V, a, wperp2)):
        model = ShallowReLU(U.shape[1], n, "orthogonal")
        mu = n * model.curvature(model.pack((U * c, s)), model.args(HOST, c, y, wperp2=w2))
        means.append(float(mu.mean()))
        sds.append(float(mu.std()))
    beta0 = beta0_value(c, y, d)
    tol = z * sds[1] / np.sqrt(M) + 2 * abs(means[0] - means[1]) / 3
    noise = float((law_Ea2(d) * c**2 / (2 * d * p_lo * y**2)).max())
    return dict(ratio=abs(means[1] - beta0) / tol, mean=means[1], beta0=beta0, tol=tol, c=c, y=y, noise=noise)


def _lemma4_search(ctx: Context, draws: dict, budget: int) -> None:
    """The mean check of Lemma 4 searched over orthogonal data (:func:`lemma4_data`), one
    :meth:`Context.search` per (n, d) of ``L4_SHAPES``, each family one start. The draws are fixed per
    (n, d), so the search maximises over instances sharing one Monte Carlo sample: the tolerance's z is
    Bonferroni-widened over every instance the searches may evaluate (Nelder-Mead: at most budget + k + 1
    per start, k = 6 parameters), which keeps the familywise level of the main check, 2 Phi(-4), whatever
    the dependence between instances."""
    starts = sum(len(f) for f in L4_SHAPES.values())
    K = starts * (budget + 7)
    zK = float(norm.isf(norm.sf(L4_Z) / K))
    worst: list[tuple[dict, tuple[int, int]]] = []
    resolved: list[str] = []
    for (n, d), families in L4_SHAPES.items():
        M, p = draws[(n, d)][1][0].shape[:2]
        tried: list[dict] = []

        def violation(theta: np.ndarray, ds=draws[(n, d)], dd=d, seen=tried) -> float:
            seen.append(lemma4_eval(theta, ds, dd, zK))
            return seen[-1]["ratio"]

        ctx.search(
            f"search: |mean n mu(0) - beta_0| / (z SE + 2 bias) over orthogonal data, n = {n}, d = {d}",
            violation,
            {name: [theta] for name, theta in families.items()},
            budget=budget,
            why=f"Lemma 4 holds for any data: (C7) on every orthogonal data set x_i = c_i e_i. Nelder-Mead "
            f"over 6 parameters (levels and spreads of the norm and |label| profiles, one dominant norm up "
            f"to e^{L4_LOG_DOM:g}, the fraction of positive labels; norms and |labels| within "
            f"e^+-{L4_LOG_NORM:g}, labels above the initial network's noise, Var f_i(0) <= {L4_NOISE:g} "
            f"y_i^2 at p = {p // 4}), each instance on the same {M} initializations of LAW (half-normal "
            f"excess) at p = {p} and p/4 (fixed per (n, d): a deterministic ratio); tolerance z SE + 2 "
            f"bias derived as the main check's (normal sample mean; Richardson bias over p/4 and p), "
            f"z = {zK:.3g} = the two-sided level 2 Phi(-4) of the main check's 4 SE Bonferroni-divided "
            f"over the {K} instances the {len(L4_SHAPES)} searches may evaluate",
        )
        worst.append((max(tried, key=lambda t: t["ratio"]), (n, d)))
        resolved.append(f"{max(t['tol'] / t['beta0'] for t in tried):.2%} at (n, d) = ({n}, {d})")
    w, (n, d) = max(worst, key=lambda t: t[0]["ratio"])
    c, y = w["c"], w["y"]
    ctx.note(
        f"Data search (Lemma 4): worst instance at n = {n}, d = {d}: ratio {w['ratio']:.3g}, mean n mu(0) "
        f"{w['mean']:.5g} vs beta_0 {w['beta0']:.5g} (tolerance {w['tol']:.3g}), norms in "
        f"[{c.min():.3g}, {c.max():.3g}], |labels| in [{np.abs(y).min():.3g}, {np.abs(y).max():.3g}], "
        f"{int((y > 0).sum())} of {n} labels positive, sum c y / (||c|| ||y||) = "
        f"{float(c @ y) / np.linalg.norm(c) / np.linalg.norm(y):.3g}, initial noise max Var f_i / y_i^2 = "
        f"{w['noise']:.3g} at p/4. Resolution: every instance tried would have caught a beta_0 off by more "
        f"than its tolerance, at most {', '.join(resolved)} of beta_0 (measured at quick, seed 0, with LAW's "
        "draws: beta_0 x 1.02, or (C7) without its cross term (sum c y)^2 / (pi d), fails all three "
        "searches; without its (1 - 1/pi) / d term it fails at n = d = 12 and n = d = 4; the App. B data set "
        "alone catches x 1.02 (ratio 3.7) but neither missing term)."
    )


# ------------------------------------------------------------- Figure 6, Conjecture 1


def _active_pairs(sweep) -> ActivePairs:
    """The padded orthogonal ensemble of ``sweep`` as an active-pair state (on its backend, float64)."""
    V, a = sweep.model.unpack(sweep.y0)
    c = array_namespace(sweep.y0).sqrt(sweep.args["c2"][:, 0, :])
    return ActivePairs.from_dense(V, a, c, sweep.args["y"], sweep.sizes)


def _fig6_measures(ctx: Context, key: str, ns: np.ndarray, seeds: int, d: int) -> dict[str, np.ndarray]:
    """App. B Experiment 2 on orthogonal data: the four curvature measures of Fig. 6 (and the exact mu)
    at each member's t_inf, shape (len(ns), seeds) each.

    GD (step 1 on pL) runs on the exact active-pair reduction (:mod:`numeric.training.orthogonal_pairs`); a
    member's pairs are dropped once its t_inf is reached."""
    sweep = orthogonal_sweep(ctx.backend, ctx.rng(key).host, d, ns, seeds, p_of_n(ns))
    _app_b_regime(ctx, sweep, d)
    return _measures_at_tinf(_active_pairs(sweep), sweep.sizes, sweep.ymin, (len(ns), seeds))


def record_law(ctx: Context, hypothesis: Hypothesis, samples: list[dict]) -> float:
    """Record ``hypothesis`` (APP_B, or LAW: the same tests with a half-normal excess) worst over
    ``samples`` (:func:`app_b_statistics` / :func:`law_statistics` of each instance), four tests each at
    familywise level 0.001 over all of them; returns the critical z of one test."""
    tests = 4 * len(samples)
    record_worst(
        ctx,
        [
            {hypothesis.name: Reading(app_b_outside(s | {"tests": tests}), s | {"tests": tests})}
            for s in samples
        ],
        [hypothesis],
    )
    return law_critical(tests)[0]


def _app_b_regime(ctx: Context, sweep, d: int) -> None:
    """Record APP_B on the state the sweep starts from, read back from its device state and args (what
    the run uses), worst over its sample sizes (each pools its seeds: one instance of the law per (p, n)),
    four tests per sample size at familywise level 0.001 over all of them."""
    V, a = (to_numpy(x) for x in sweep.model.unpack(sweep.y0))
    c = np.sqrt(to_numpy(sweep.args["c2"])[:, 0, :])
    wperp2 = to_numpy(sweep.args["wperp2"])
    groups = np.unique(sweep.sizes.astype(int), axis=0)
    samples, neurons = [], []
    for p, n in groups:
        rows = np.all(sweep.sizes.astype(int) == (p, n), axis=1)
        G = c[rows, :n, None] ** 2 * np.eye(n)  # x_i = c_i e_i
        samples.append(app_b_statistics(V[rows, :p, :n], a[rows, :p], G, wperp2[rows, :p], d))
        neurons.append(int(rows.sum()) * p)
    z = record_law(ctx, APP_B, samples)
    N = min(neurons)
    ctx.note(
        f"App. B law read on the initial state (regime 'App. B init', {4 * len(groups)} tests, critical z = "
        f"{z:.2f}): per sample size >= {N} neurons; with 80% power the tests catch a variance of <w|x>^2 "
        f"off by {(z + 0.84) * np.sqrt(2 / (N * min(sweep.sizes[:, 1]))):.2g} relative and a P(a > 0) off "
        f"1/2 by {(z + 0.84) * 0.5 / np.sqrt(N):.2g} (z + z_0.8 standard errors). Measured on the sweep with "
        "its Gram drawn as diag(c^4) instead of diag(c^2) (a mutation that survived before: variance x E c^2 "
        "= 7/3): Assumption 1 fails (gap ~ -0.15) and z_span ~ 50 at tiny, ~100 at quick."
    )


def _measures_at_tinf(ap: ActivePairs, sizes: np.ndarray, ymin: np.ndarray, shape) -> dict[str, np.ndarray]:
    """Run ``ap`` by GD steps 1 up to each member's floor(t_inf) and evaluate the Fig. 6 measures there."""
    p_b, n_b = sizes[:, 0], sizes[:, 1]
    T = np.floor(t_infinity(n_b, p_b)).astype(int)
    B = len(T)
    L0, L_prev, L_end = np.zeros(B), np.zeros(B), np.zeros(B)
    mu_exact, low, upp = np.zeros(B), np.zeros(B), np.zeros(B)
    for step in range(T.max() + 1):
        if step in T:
            hit = T == step
            r = ap.residual()
            L_end[hit] = to_numpy(ap.loss(r))[hit]
            mu_exact[hit] = to_numpy(ap.curvature(r))[hit]
            mass = to_numpy(ap.active_mass())
            for b in np.flatnonzero(hit):
                m = mass[b, : int(n_b[b])]
                low[b], upp[b] = 2 / n_b[b] * m.min(), 16 / n_b[b] * m.max()
            ap.drop_members(T <= step)
            if step == T.max():
                break
        r = ap.step()  # the residual of the state before this step
        last = T == step + 1
        if step == 0 or last.any():  # its loss is read back only where it is recorded
            L = to_numpy(ap.loss(r))
            if step == 0:
                L0[:] = L
            L_prev[last] = L[last]
    return {
        "mu(t_inf) = log(L(t_inf - 1)/L(t_inf))": np.log(L_prev / L_end).reshape(shape),
        "<mu_inf> = log(L(0)/L(t_inf)) / t_inf": (np.log(L0 / L_end) / T).reshape(shape),
        "mu_low = (2/n) min_i (1/p) sum_j a_j^2 1_ji": low.reshape(shape),
        "mu_upp = (16/n) max_i (1/p) sum_j a_j^2 1_ji": upp.reshape(shape),
        "exact mu(t_inf) (C2)": mu_exact.reshape(shape),
        "converged": (L_end < ymin / (2 * n_b)).reshape(shape),
    }


class _FullGD:
    """GD on a dense flat state of :class:`ShallowReLU` with the stepping interface of
    :class:`ActivePairs` (host arrays out), used to cross-check the reduction."""

    def __init__(self, model: ShallowReLU, y0, args: dict):
        self.model, self.y, self.args = model, y0, args

    def residual(self) -> np.ndarray:
        return to_numpy(self.model.residual(self.y, self.args))

    def loss(self, r: np.ndarray) -> np.ndarray:
        return 0.5 * (r * r).sum(axis=1) / to_numpy(self.args["sizes"])[:, 1]

    def curvature(self, r: np.ndarray) -> np.ndarray:
        return to_numpy(self.model.curvature(self.y, self.args))

    def active_mass(self) -> np.ndarray:
        return to_numpy(self.model.active_mass(self.y, self.args))

    def step(self, lr: float = 1.0) -> np.ndarray:
        r = self.residual()
        self.y = self.y + lr * self.model(None, self.y, self.args)
        return r

    def drop_members(self, done: np.ndarray) -> None:
        """Finished members keep stepping (their measures are already recorded)."""


def _full_coordinates(ctx: Context, sweep, d: int) -> _FullGD:
    """The same networks in R^d: x_i = c_i Q e_i, w_j = Q (v_j / c, w_perp), Q a random rotation of R^d and
    w_perp uniform on the sphere of radius ||w_perp|| in the d - n directions orthogonal to the data."""
    rng = ctx.rng("fig6-xcheck-rot").host
    V, a = sweep.model.unpack(to_numpy(sweep.y0))
    c = np.sqrt(to_numpy(sweep.args["c2"])[:, 0, :])
    wperp = np.sqrt(to_numpy(sweep.args["wperp2"]))
    B, pmax, nmax = V.shape
    X, W = np.zeros((B, nmax, d)), np.zeros((B, pmax, d))
    for b, (p, n) in enumerate(sweep.sizes.astype(int)):
        X[b, np.arange(n), np.arange(n)] = c[b, :n]
        W[b, :p, :n] = V[b, :p, :n] / c[b, :n]
        W[b, :p, n:] = sphere_directions(rng, (p, d - n)) * wperp[b, :p, None]
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    model = ShallowReLU(pmax, d, "full")
    args = model.args(ctx.backend, X @ Q, to_numpy(sweep.args["y"]), sizes=sweep.sizes)
    return _FullGD(model, ctx.backend.asarray(model.pack((W @ Q, a))), args)


class _Jittered:
    """An :class:`ActivePairs` run whose state is multiplied by 1 + delta xi (xi = +-1 at random) after
    every step: a model of the relative rounding of the state, to measure the runs' response to it."""

    def __init__(self, ap: ActivePairs, delta: float, rng: np.random.Generator):
        self.ap, self.delta, self.rng = ap, delta, rng

    def step(self, lr: float = 1.0) -> np.ndarray:
        r = self.ap.step(lr)
        for x in (self.ap.val, self.ap.a):
            x *= self.ap.xp.asarray(1 + self.delta * self.rng.choice([-1.0, 1.0], x.shape))
        return r

    def __getattr__(self, name: str):
        return getattr(self.ap, name)


def _relative_difference(a: np.ndarray, b: np.ndarray) -> float:
    """``max |a / b - 1|`` over the entries; two exact zeros agree (a run with an uncovered example has
    mu_low = 0 in both coordinate systems), a zero against a non-zero differs infinitely."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.where((a == 0) & (b == 0), 0.0, np.abs(a / b - 1)).max())


def _reduction_crosscheck(ctx: Context) -> None:
    """The active-pair reduction against the full d-dimensional GD on a small App.-B sweep."""
    ns, seeds, d = np.array([32, 64]), 3, 128
    sweep = orthogonal_sweep(ctx.backend, ctx.rng("fig6-xcheck").host, d, ns, seeds, p_of_n(ns))
    run = partial(_measures_at_tinf, sizes=sweep.sizes, ymin=sweep.ymin, shape=(len(ns), seeds))
    reduced, full = run(_active_pairs(sweep)), run(_full_coordinates(ctx, sweep, d))
    delta = 1e-10
    jittered = run(_Jittered(_active_pairs(sweep), delta, ctx.rng("fig6-xcheck-jitter").host))
    T = int(np.floor(t_infinity(ns.max(), p_of_n(ns.max()))))
    scale = np.sqrt(T) * d * EPS / delta
    ctx.holds(
        "exact reduction: the same runs converge (L(t_inf) < C_y^-/(2n)) in both coordinate systems",
        bool(np.array_equal(full["converged"], reduced["converged"])),
        measured=reduced["converged"].mean(),
        expected="equal flags",
        why="same GD map",
    )
    for k in reduced:
        if k == "converged":
            continue
        rel, resp = _relative_difference(full[k], reduced[k]), _relative_difference(jittered[k], reduced[k])
        ctx.bound(
            f"exact reduction: {_short(k)} of the active-pair GD vs the full GD in R^{d} "
            f"(n = {ns.tolist()}, {seeds} seeds), max relative difference",
            rel,
            resp * scale,
            why=f"the same GD map in two coordinate systems: they differ by rounding only, <= d eps = "
            f"{d * EPS:.1e} relative per stored coordinate and step (d-term inner products). A random "
            f"relative jitter 1e-10 of the state at each of the T = {T} steps moves this measure by "
            f"{resp:.2g} (linear response); rescaled to d eps and by sqrt(T) for coherent (worst-case) "
            "accumulation",
            details={"full": full[k], "reduced": reduced[k], "jitter response": resp},
        )


def _slopes(ns: np.ndarray, vals: np.ndarray, conv: np.ndarray, rng: np.random.Generator, boots: int = 400):
    """Log-log slope vs n of the mean over converged seeds, and its 99% bootstrap interval.

    Conjecture 1 conditions on convergence (a run with an uncovered example has mu_low = 0); seeds
    are resampled among the converged ones of each n."""
    groups = [vals[i][conv[i]] for i in range(len(ns))]

    def fit(gs):
        return float(np.polyfit(np.log(ns), np.log([g.mean() for g in gs]), 1)[0])

    bs = [fit([g[rng.integers(0, len(g), len(g))] for g in groups]) for _ in range(boots)]
    lo, hi = np.quantile(bs, [0.005, 0.995])
    return fit(groups), float(lo), float(hi)


def _fig6_sizes(ctx: Context, full_seeds: int = 50) -> tuple[np.ndarray, int, int]:
    """The n grid, the seeds per n and d of Figure 6 (orthogonal data: d >= n)."""
    ns = np.array(
        ctx.param("n_grid", tiny=[32, 64, 128], quick=[64, 128, 256], full=list(range(1000, 2001, 100)))
    )
    seeds = ctx.param("seeds", tiny=4, quick=8, full=full_seeds)
    d = ctx.param("d", tiny=128, quick=256, full=2000)
    ctx.require(d >= max(ns), f"orthogonal data need d >= n, got d={d} < n={max(ns)}")
    return ns, seeds, d


def _fig6(ctx: Context, key: str, sizes: tuple[np.ndarray, int, int]):
    ns, seeds, d = sizes
    if not _paper_scale(ns, d):
        ctx.reduced_scale(
            f"Figure 6 is drawn at d = 2000, n = 1000..2000 (25 seeds per n); this run: d = {d}, n = "
            f"{ns.tolist()}, {seeds} seeds per n"
        )
    # x_i = c_i e_i held by the decoupled (orthogonal) model: its Gram matrix is diagonal by representation
    ctx.regime(ORTHOGONAL, off_ratio=0.0)
    meas = _fig6_measures(ctx, key, ns, seeds, d)
    conv = meas["converged"]
    slopes = _converged_slopes(ctx, ns, meas, key, "runs")
    ctx.figure(
        "Figure 6: curvature measures vs n (orthogonal data, log-log)",
        xlabel="n",
        ylabel="measure",
        logx=True,
        logy=True,
        series=[
            Series(f"{k} (slope {s[0]:.2f})", ns, [meas[k][i][conv[i]].mean() for i in range(len(ns))], "o")
            for k, s in slopes.items()
        ],
    )
    return ns, seeds, d, meas, slopes


FIG6 = ("mu(t_inf)", "<mu_inf>", "mu_low", "mu_upp")  # the four measures plotted in Figure 6
EXACT = "exact mu(t_inf) (C2)"


def _short(name: str) -> str:
    return name.split(" =")[0].split(" (")[0]


def _slope_range_checks(ctx: Context, ns: np.ndarray, slopes: dict) -> None:
    """The project's empirical reading of Figure 6: every slope's 99% interval meets [-1, -1/2] (the range
    Theorem 1 and Proposition 1 would give under their hypotheses, which App. B's law does not meet)."""
    for name, (s, lo, hi) in slopes.items():
        ctx.bound(
            f"slope of {name} in [-1, -1/2] (99% bootstrap interval [{lo:.2f}, {hi:.2f}] must meet it)",
            np.array([hi, -lo]),
            np.array([-1.0, 0.5]),
            side=">=",
            why="this project's empirical reading of Figure 6, not a theorem's conclusion: Theorem 1 "
            "(>= C/n) and Proposition 1 (<= C/sqrt n) would bound the asymptotic curvature to this range, "
            "but neither applies to App. B's law (its Exp(1) excess is not sub-Gaussian: C_(a,w) = inf in "
            "Theorem 1's width; min_j a_j^2 - ||w_j||^2 has no bound Delta > 0 as p grows); the interval is "
            "a percentile bootstrap over seeds",
            details={"slope": s, "interval": [lo, hi], "n": ns},
        )


def _paper_scale(ns: np.ndarray, d: int) -> bool:
    """Figure 6's scale: d = 2000 and n spanning 1000..2000 (App. B, Experiment 2)."""
    return d >= 2000 and ns.min() >= 1000 and ns.max() >= 2000


def _at_paper_scale(ctx: Context, name: str, ns: np.ndarray, d: int, slopes: dict) -> bool:
    """True at Figure 6's scale (the full profile); elsewhere records why the check ``name`` is undecided."""
    if _paper_scale(ns, d):
        return True
    ctx.undecided(
        f"{name} at the paper's scale (d = 2000, n = 1000..2000)",
        f"measured at n = {ns.tolist()}, d = {d}: "
        + "; ".join(f"{_short(k)}: {s[0]:.2f} [{s[1]:.2f}, {s[2]:.2f}]" for k, s in slopes.items())
        + "; the paper-scale check runs in the full profile (the slopes drift with the range of n: steeper "
        "at small n, and -0.8..-0.9 over n = 250..4000 in the catalog, so a smaller scale cannot decide it)",
        measured={k: s[0] for k, s in slopes.items()},
    )
    return False


def _converged_slopes(ctx: Context, ns: np.ndarray, meas: dict, key: str, what: str) -> dict:
    """:func:`_slopes` of every measure in ``meas`` over the converged members (bootstrap stream
    ``key``-boot); at least 2 converged ``what`` per n are required."""
    conv = meas["converged"]
    enough = bool(np.all(conv.sum(axis=1) >= 2))
    ctx.require(enough, f"fewer than 2 converged {what} for some n; raise 'seeds'")
    rng = ctx.rng(key + "-boot").host
    return {k: _slopes(ns, v, conv, rng) for k, v in meas.items() if k != "converged"}


def _group_sweep(ctx: Context, key: str, ns: np.ndarray, seeds: int, alpha: float) -> SizeSweep:
    r"""Group initialization (9) of Proposition 2 on App. B's orthogonal data (:math:`x_i=c_ie_i`,
    :math:`c_i\sim\mathcal U[1,2]`, :math:`|y_i|\sim\mathcal U[1,2]`), ``seeds`` members per n: alpha = 1,
    :math:`p=n` groups of :math:`k=1` example; alpha = 1/2, :math:`p=1` group of :math:`k=n` examples
    (:math:`k_n=n^{2(1-\alpha)}`). Neuron j: :math:`\langle w_j|x_i\rangle=c_ig_{ji}/\sqrt k` on its group,
    :math:`g_{ji}\sim\mathcal U[1,2]`, 0 off it, :math:`w_j` in the data's span
    (:math:`\|w_j\|^2=\sum_ig_{ji}^2/k\in[1,4]`, App. B's order; a half-normal :math:`g` leaves some
    neurons near 0, unconverged at :math:`t_\infty`), :math:`a_j=s_j\|w_j\|` with :math:`s_j` its group's
    label sign (one sign per group)."""
    rng = ctx.rng(key).host
    nmax, B = int(ns.max()), len(ns) * seeds
    pmax = nmax if alpha == 1 else 1
    C, Y = np.zeros((B, nmax)), np.zeros((B, nmax))
    V, A, sizes = np.zeros((B, pmax, nmax)), np.zeros((B, pmax)), np.zeros((B, 2))
    for b in range(B):
        n = int(ns[b // seeds])
        p, k = (n, 1) if alpha == 1 else (1, n)
        s = rng.choice([-1.0, 1.0], p)
        group = np.repeat(np.arange(p), k)  # example i belongs to group i // k
        C[b, :n], Y[b, :n] = appendix_b_norms(rng, n), s[group] * rng.uniform(1.0, 2.0, n)
        g = rng.uniform(1.0, 2.0, n) / np.sqrt(k)
        V[b, group, np.arange(n)] = C[b, :n] * g
        A[b, :p] = s * np.sqrt(np.bincount(group, g * g, minlength=p))
        sizes[b] = (p, n)
    model = ShallowReLU(pmax, nmax, "orthogonal")
    ymin = np.abs(np.where(Y != 0, Y, np.inf)).min(axis=1)
    args = model.args(ctx.backend, C, Y, wperp2=np.zeros((B, pmax)), sizes=sizes)
    return SizeSweep(model, ctx.backend.asarray(model.pack((V, A))), args, sizes, ymin)


def _group_slopes(ctx: Context, ns: np.ndarray, seeds: int, alpha: float, key: str) -> dict:
    r"""The slopes (:func:`_slopes`, 99% bootstrap intervals) of the Fig. 6 measures of the group
    initialization (:func:`_group_sweep`), run through the main run's pipeline: GD step 1 on the
    active-pair reduction up to each member's :math:`t_\infty` (:func:`_measures_at_tinf`, App. B's
    formula at the member's own p), measures there, converged seeds only: the control measures what the
    main run measures. Prop. 2 gives the asymptotic order :math:`\mu_\infty\asymp n^{-\alpha}`."""
    parts = []
    for i in range(len(ns)):  # one sweep per n: alpha = 1 pads (seeds, n, n), not (seeds |ns|, n_max, n_max)
        sweep = _group_sweep(ctx, f"{key}-{i}", ns[i : i + 1], seeds, alpha)
        parts.append(_measures_at_tinf(_active_pairs(sweep), sweep.sizes, sweep.ymin, (1, seeds)))
    meas = {k: np.concatenate([m[k] for m in parts]) for k in parts[0]}
    conv = meas["converged"]
    slopes = _converged_slopes(ctx, ns, meas, key, "group runs")
    ctx.note(
        f"control '{key}' (group initialization, alpha = {alpha:g}, n = {ns.tolist()}, {seeds} seeds): "
        f"converged fraction per n {conv.mean(axis=1).round(2).tolist()}; slopes "
        + "; ".join(f"{_short(k)}: {s[0]:.2f} [{s[1]:.2f}, {s[2]:.2f}]" for k, s in slopes.items())
    )
    return slopes


def _steeper_checks(ctx: Context, slopes: dict) -> None:
    """The corrected reading of Figure 6: the 99% intervals of the slopes of mu(t_inf) and <mu_inf> lie
    below -1/2."""
    for name, (s, _, hi) in slopes.items():
        if _short(name) in ("mu(t_inf)", "<mu_inf>"):
            ctx.bound(
                f"upper end of the 99% interval of the slope of {name} (steeper than -1/2)",
                hi,
                -0.5,
                why="percentile bootstrap over seeds; below -1/2 rejects the n^-1/2 law at this scale",
                details={"slope": s},
            )


def _half_slope(ctx: Context, name: str, slope: tuple[float, float, float]) -> None:
    """Figure 6's reading of one measure: its slope is -1/2 within the 99% bootstrap interval."""
    s, lo, hi = slope
    ctx.holds(
        f"slope of {name} = -1/2 within its 99% interval [{lo:.2f}, {hi:.2f}]",
        lo <= -0.5 <= hi,
        measured=s,
        expected=-0.5,
        why="the paper's reading of Figure 6 (each slope close to -1/2)",
    )


@claim(
    "dana2025:figure-6",
    title="Figure 6: four curvature measures vs n on orthogonal data, log-log slopes close to -1/2",
    source="Figure 6, Section 5.2; App. B (Experiment 2)",
    statement=r"On orthogonal data ($d=2000$, $n\in[1000,2000]$, App. B protocol) the log-log plots of "
    r"$\mu(t_\infty)$, "
    r"$\langle\mu_\infty\rangle$, $\mu_{low}$ and $\mu_{upp}$ against $n$ are linear with slope close to "
    r"$-\frac12$.",
    hypotheses=[
        "App. B protocol: GD step 1 on pL for t_inf = 1.5 sqrt(np)/4 log(np), p = "
        "floor(log(n/0.05)/log(4/3))+1",
        APP_B,
        ORTHOGONAL,
    ],
    erratum=Erratum(
        r"at the paper's own scale ($d=2000$, $n=1000..2000$, App. B protocol) the slopes of "
        r"$\mu(t_\infty)$ and $\langle\mu_\infty\rangle$ are steeper than $-\frac12$: about $-0.68$ and "
        r"$-0.61$ here (50 seeds per $n$, 99% bootstrap intervals $[-0.82,-0.55]$ and $[-0.69,-0.53]$), "
        r"$-0.71$ and $-0.62$ pooled over three further 25-seed samples (intervals $[-0.81,-0.60]$, "
        r"$[-0.67,-0.55]$); only the upper bound $\mu_{upp}$ has slope $\approx-0.52$. Per 50-seed sample "
        r"the rejection of $-\frac12$ is a 2-3 standard-error effect (the conjecture-1 sample gives "
        r"$-0.59$ and $-0.55$), and with the paper's 25 seeds the intervals are $\pm0.2$ wide",
        via="catalog Figure 6 reproduction (-0.72/-0.62/-0.60/-0.50); this claim's full profile (50 seeds)",
        shown_by=("slope of * = -1/2 within its 99% interval*",),
    ),
)
def figure_6(ctx: Context) -> None:
    sizes = _fig6_sizes(ctx)
    _reduction_crosscheck(ctx)
    ns, seeds, d, meas, slopes = _fig6(ctx, "fig6", sizes)
    _slope_range_checks(ctx, ns, slopes)
    if _at_paper_scale(ctx, "slopes = -1/2", ns, d, slopes):
        for name, slope in slopes.items():
            if _short(name) in FIG6:
                _half_slope(ctx, name, slope)
    ctx.note(
        f"converged fraction per n: {meas['converged'].mean(axis=1).round(2).tolist()}. App. B's "
        "<mu_inf> = log(L(0)/L(t_inf)) omits the 1/t_inf of Section 5.2 (used here). GD runs on the exact "
        "active-pair reduction of the orthogonal system (a pair with <w_j|x_i> <= 0 is frozen forever, "
        "sigma'(0) = 0), cross-checked above against the full GD in R^d."
    )
    with ctx.control(
        "group initialization, one example per neuron (Prop. 2, alpha = 1), same GD, t_inf and measures",
        breaks=APP_B,
        must_break=["slope of * = -1/2*"],
    ):
        for name, slope in _group_slopes(ctx, ns, seeds, 1.0, "ctl").items():
            if _short(name) in FIG6:
                _half_slope(ctx, name, slope)


@claim(
    "dana2025:figure-6-corrected",
    title="Figure 6 corrected: slopes in [-1, -1/2]; mu(t_inf) and <mu_inf> decay faster than n^-1/2",
    source="Figure 6, Section 5.2; App. B (Experiment 2); Theorem 1, Proposition 1",
    statement=r"On orthogonal data ($d=2000$, $n\in[1000,2000]$, App. B protocol) the log-log slopes of the "
    r"measures of Figure 6 lie in $[-1,-\frac12]$, and those of $\mu(t_\infty)$ and "
    r"$\langle\mu_\infty\rangle$ are below $-\frac12$ (about $-0.71$ and $-0.62$); only the upper bound "
    r"$\mu_{upp}$ has slope $\approx-\frac12$.",
    hypotheses=[
        "App. B protocol: GD step 1 on pL for t_inf = 1.5 sqrt(np)/4 log(np), p = "
        "floor(log(n/0.05)/log(4/3))+1",
        "150 seeds per n (six times the paper's 25): the 99% intervals resolve the slope to about +-0.07; "
        "at 50 the rejection of -1/2 was a 2-3 standard-error effect that another sample could miss (note)",
        APP_B,
        ORTHOGONAL,
    ],
)
def figure_6_corrected(ctx: Context) -> None:
    ns, seeds, d, _, slopes = _fig6(ctx, "fig6c", _fig6_sizes(ctx, full_seeds=150))
    _slope_range_checks(ctx, ns, slopes)
    if _at_paper_scale(ctx, "slopes of mu(t_inf), <mu_inf> < -1/2", ns, d, slopes):
        _steeper_checks(ctx, slopes)
    ctx.note(
        "Sample-to-sample spread at the paper's scale (slopes of mu(t_inf) / <mu_inf>): 25-seed samples "
        "-0.76/-0.65, -0.66/-0.59, -0.71/-0.61; 50-seed samples -0.68/-0.61 (figure-6), -0.59/-0.55 "
        "(conjecture-1, whose intervals contain -1/2); pooled 75 seeds -0.71 [-0.81, -0.60] / -0.62 "
        "[-0.67, -0.55]. At 50 seeds the verdict of this claim could differ with the seed (about one sample "
        "in five); hence 150 seeds per n here."
    )
    with ctx.control(
        "group initialization, one group of k = n examples (Prop. 2, alpha = 1/2: mu_inf ~ n^-1/2), same GD, "
        "t_inf and measures",
        breaks=APP_B,
        must_break=["upper end of the 99% interval of the slope of * (steeper than -1/2)"],
    ):
        _steeper_checks(ctx, _group_slopes(ctx, ns, seeds, 0.5, "ctl-half"))


@claim(
    "dana2025:conjecture-1",
    title="Conjecture 1: w.h.p. the asymptotic curvature is C_2/sqrt(n) on orthogonal data (exploratory)",
    source="Conjecture 1 (Section 4.1), evidence Figure 6 (Section 5.2)",
    statement=r"There are $C_1,C_2$ such that for $p\ge C_1\log(n/\varepsilon)$ and orthogonal examples, "
    r"with "
    r"probability $\ge1-\varepsilon$ the loss converges to 0 and $\langle\mu_\infty\rangle=C_2/\sqrt n$.",
    hypotheses=[
        ORTHOGONAL,
        "p >= C_1 log(n/eps): C_1 is not given; run at the App. B width floor(log(n/0.05)/log(4/3)) + 1",
        APP_B,
    ],
)
def conjecture_1(ctx: Context) -> None:
    ns, seeds, d, _, slopes = _fig6(ctx, "conj1", _fig6_sizes(ctx))
    exact = slopes[EXACT]
    ctx.undecided(
        "<mu_inf> = C_2/sqrt(n): log-log slope of the exact late curvature vs n equals -1/2",
        f"exploratory evidence, not a proof: slope {exact[0]:.3f} (99% bootstrap [{exact[1]:.3f}, "
        f"{exact[2]:.3f}]) "
        f"at n = {ns.tolist()}, d = {d}, {seeds} seeds; other measures: "
        + "; ".join(f"{k.split(' =')[0]}: {s[0]:.2f}" for k, s in slopes.items()),
        measured=exact[0],
    )
    ctx.note(
        "Reported as INCONCLUSIVE by design (a conjecture). The catalog's reproduction at d = 2000 found "
        "slopes -0.72 "
        "(mu(t_inf)), -0.62 (<mu_inf>), -0.60 (mu_low), -0.50 (mu_upp); the worst-covered example sets "
        "lambda_min(M*), suggesting extra log or min-over-examples factors."
    )
    ctx.note(
        "The law run here (hypothesis 'App. B init': |a_j| - ||w_j|| ~ Exp(1)) is Figure 6's, not the "
        "conjecture's: Conjecture 1 is stated under Section 2's initialization (sub-Gaussian, rotation "
        "invariant marginals), and App. B's Exp(1) excess has ||a||_psi2 = inf, outside that class. The "
        "slopes above are evidence about the figure's law only."
    )
    with ctx.control(
        "group initialization with one example per neuron (Prop. 2, alpha = 1), same GD, t_inf and measures",
        breaks=APP_B,
        must_break=["*log-log slope of the exact late curvature vs n equals -1/2"],
    ):
        s, lo, hi = _group_slopes(ctx, ns, seeds, 1.0, "ctl")[EXACT]
        ctx.holds(
            "log-log slope of the exact late curvature vs n equals -1/2",
            lo <= -0.5 <= hi,
            measured=s,
            expected=-0.5,
            why=f"the main reading's statistic: -1/2 inside the 99% bootstrap interval [{lo:.2f}, {hi:.2f}] "
            "of the slope of the exact mu(t_inf) (C2), same pipeline and seeds as the main run",
        )


# ------------------------------------------------------------ Lemma 8, Proposition 1


def _wsq(V: np.ndarray, G: np.ndarray, wperp2: np.ndarray) -> np.ndarray:
    """||w_j||^2 = v_j^T G^-1 v_j + ||w_perp||^2 (host) on orthogonal inputs x_i = c_i e_i, whose Gram G =
    diag(c_i^2) makes the form sum_i v_ji^2 / c_i^2: O(B p n) (the dense three-operand einsum it replaces
    cost B p n^2 outside BLAS, 175 of proposition-1's first 240 s at full)."""
    g = np.diag(G)
    if np.count_nonzero(G - np.diag(g)):
        raise ValueError("_wsq needs orthogonal inputs (a diagonal Gram matrix)")
    return (V * V / g).sum(axis=2) + wperp2


def _delta_run(
    ctx: Context,
    key: str,
    n: int,
    d: int,
    B: int,
    p: int,
    delta: float,
    *,
    scale=1.0,
    extra=0.0,
    lr=1.0,
    a_scale=1.0,
    labels=appendix_b_labels,
    data=None,
    deaths=False,
    corrected=False,
):
    """App. B data (its labels drawn by ``labels``) and w, a_j = s_j sqrt(||w_j||^2 + delta + Exp(1)) (so
    |a|^2 - ||w||^2 >= delta), trained by
    GD steps lr = 1 (the paper's) up to (1 + extra) max t_n of Lemma 8; returns the pre-activations at each
    member's t_n and (with ``extra``) records of mu, max|1 - r/y| and the pre-activations. ``a_scale`` >= 1
    multiplies the second layer: then |a|^2 - ||w||^2 >= a_scale^2 delta, the Delta used in t_n. ``data``
    = (norms, labels), both (n,), replaces the drawn data (the instance search of Lemma 8); ``deaths`` also
    returns ``t_dead`` (B, p, n): the first step at which each pair active at 0 has a pre-activation <= 0
    (inf: alive up to the last step). t_n is Lemma 8's as printed, or with ``corrected``
    :func:`lemma8_t_n_corrected`'s."""
    be = ctx.backend
    rng = ctx.rng(key).host
    c, y = (appendix_b_norms(rng, n), labels(rng, n)) if data is None else data
    G = np.diag(c**2)
    V, a, wperp2 = appendix_b_init_reduced(rng, G, d, B, p, scale)
    a = a_scale * np.sign(a) * np.sqrt(_wsq(V, G, wperp2) + delta + rng.exponential(1.0, a.shape))
    model = ShallowReLU(p, n, "orthogonal")
    args = model.args(be, c, y, wperp2=wperp2)
    if corrected:
        t_n = lemma8_t_n_corrected(V, c, y, delta * a_scale**2)
    else:  # as printed: 2n max <w_j(0)|x_i>_+ / (C_y^- C_x^- Delta)
        t_n = 2 * n / (np.abs(y).min() * c.min() * delta * a_scale**2) * RELU.value(V).max(axis=(1, 2))
    stops = np.floor(t_n / lr).astype(int)
    T = int(stops.max() * (1 + extra)) + 1
    yk, pre_tn, rec = be.asarray(model.pack((V, a))), np.zeros_like(V), []
    every, stop_steps = max(T // 60, 1), set(stops.tolist())
    t_dead = np.where(V > 0, np.inf, 0.0)
    for k in range(T + 1):
        if deaths or k in stop_steps:
            U = to_numpy(model.unpack(yk)[0])
            if deaths:
                t_dead[(U <= 0) & (t_dead > k)] = k
            if k in stop_steps:
                pre_tn[stops == k] = U[stops == k]
        if extra and k % every == 0:
            r = to_numpy(model.residual(yk, args))
            U = to_numpy(model.unpack(yk)[0])
            rec.append((k * lr, to_numpy(model.curvature(yk, args)), np.abs(1 - r / y).max(axis=1), U))
        yk = yk + lr * model(None, yk, args)
    if not extra:
        rec.append((T, None, None, to_numpy(model.unpack(yk)[0])))
    out = dict(V=V, a=a, y=y, c=c, G=G, wperp2=wperp2, t_n=t_n, pre_tn=pre_tn, rec=rec, p=p, n=n)
    return out | ({"t_dead": t_dead} if deaths else {})


def lemma8_t_n_corrected(V: np.ndarray, c: np.ndarray, y: np.ndarray, delta: float) -> np.ndarray:
    r"""Lemma 8's extinction time as its proof supports it, per member:
    :math:`t_n=\frac{2n}{C_y^-C_x^-\sqrt\Delta}\max_{j,i}\langle w_j(0)|\bar x_i\rangle_+`,
    :math:`\bar x_i=x_i/\|x_i\|`.

    (49)'s rate bound is :math:`\frac d{dt}\langle w_j|x_i\rangle_+\le-\sqrt\Delta|y_i|\|x_i\|^2/(2n)`
    (:math:`|a_j|\ge\sqrt\Delta` while :math:`|r_i|\ge|y_i|/2`), so a wrong-sign pair reaches 0 by
    :math:`2n\langle w_j(0)|x_i\rangle/(\sqrt\Delta|y_i|\|x_i\|^2)=2n\langle w_j(0)|\bar x_i\rangle
    /(\sqrt\Delta|y_i|\|x_i\|)`; the proof's own :math:`\tilde t_n` has :math:`\bar x_i`. The printed
    statement has :math:`x_i` (a factor :math:`\|x_i\|` short when the norms are below 1: the printed t_n
    does not scale with the data, the extinction time grows like 1/scale) and :math:`\Delta` for
    :math:`\sqrt\Delta` ((49)'s integrated line; short by :math:`\sqrt\Delta` when :math:`\Delta>1`).
    ``V`` (B, p, n) the pre-activations :math:`\langle w_j(0)|x_i\rangle`, ``c`` (n,) the norms."""
    n = len(c)
    return 2 * n / (np.abs(y).min() * c.min() * np.sqrt(delta)) * RELU.value(V / c).max(axis=(1, 2))


def _delta_regime(ctx: Context, run: dict, delta: float, *, event: bool) -> None:
    """Record the measurable hypotheses of Lemma 8 / Proposition 1 on one :func:`_delta_run`: orthogonal
    inputs, the balance Delta and (``event``: Lemma 8, which conditions on it) the event I."""
    ctx.regime(ORTHOGONAL, off_ratio=off_ratio(run["G"]))
    gap = float((run["a"] ** 2 - _wsq(run["V"], run["G"], run["wperp2"])).min())
    ctx.regime(DELTA, gap=gap, delta=delta)
    if event:
        ctx.regime(EVENT_I, members_with_I=int(event_I(run["V"], run["a"], run["y"]).sum()))


INIT_LAW_L8 = (
    "App. B data (or labels of one sign, same bounds); w ~ N(0, s^2 I/d) with a fixed scale s (s = 1 in the "
    "main runs), a_j = +-sqrt(||w_j||^2 + Delta + Exp(1)) with a fair sign (sub-Gaussian: Section 2's class)"
)

L8_PROBABILITY = "P((47) at t_n | I) >= 1 - eps"
L8_SCALED_BY, L8_BIG_DELTA = 0.05, 16.0  # the instances where the printed t_n is short
L8_SCALED = f"App. B data x {L8_SCALED_BY:g}"
L8_BIG = f"Delta = {L8_BIG_DELTA:g}"


@claim(
    "dana2025:lemma-8",
    title="Lemma 8: on orthogonal data the wrong-sign neurons die before t_n, the right ones only grow",
    source="Lemma 8, App. A.3, eqs. (47)-(60)",
    statement=r"Orthogonal non-zero inputs, $y_i\neq0$, $|a_j(0)|^2-\|w_j(0)\|^2\ge\Delta>0$ and event "
    r"$\mathcal I$: if "
    r"$d\ge\kappa\log(p)\log(np)\log(1/\varepsilon)^2$, with probability $\ge1-\varepsilon$, at "
    r"$t_n=\frac{2n}{C_y^-C_x^-\Delta}\max_{j,i}\langle w_j(0)|x_i\rangle_+$: $a_j(0)y_i>0\Rightarrow"
    r"\langle w_j(t_n)|x_i\rangle_+\ge\langle w_j(0)|x_i\rangle_+$ and $a_j(0)y_i<0\Rightarrow\langle "
    r"w_j(t_n)|x_i\rangle_+\le0$.",
    hypotheses=[
        ORTHOGONAL,
        DELTA,
        EVENT_I,
        INIT_LAW_L8,
        D_LEMMA8,
    ],
    erratum=Erratum(
        r"the printed $t_n$ has $\langle w_j(0)|x_i\rangle_+$ and $\Delta$ where the proof supports "
        r"$\langle w_j(0)|\bar x_i\rangle_+$ ($\bar x_i=x_i/\|x_i\|$, its own $\tilde t_n$) and "
        r"$\sqrt\Delta$ ((49)'s rate bound; its integrated line drops the root): the printed $t_n$ does "
        r"not scale with the data (the extinction time grows like 1/scale) and is short by $\sqrt\Delta$ "
        r"for $\Delta>1$. Counterexamples inside the lemma's hypotheses: App. B data scaled by 0.05, and "
        r"$\Delta=16$. More dimension does not help (a scratch run on the scaled data, 56 members with "
        r"$\mathcal I$: (47) in 11, 9, 5 at $d=4n,16n,64n$), so the unspecified $\kappa$ cannot rescue it",
        via="found by this verification (an independent re-read of App. A.3); corrected statement: "
        "dana2025:lemma-8-corrected",
        shown_by=(f"{L8_PROBABILITY} [{L8_SCALED}*", f"{L8_PROBABILITY} [{L8_BIG}*"),
    ),
)
def lemma_8(ctx: Context) -> None:
    # full: n = 1000, Experiment 2's smallest size (d = n and 4n bracket its d = 2000), 120 members per run
    # (P((47) | I) = 0.79 rejected with 80% power); quick: 540 (~525 with I reject P = 0.85, ~5 s per run at
    # d = 4n, ~10 s at d = n); the scale control (d = 4n) meets (47) in 18 of 115 members with I at quick
    # (P ~ 0.16, ~9 s), so 30 members reject P >= 0.9 at full if that rate holds (k <= 22 of 30 rejects)
    n = ctx.param("n", tiny=40, quick=120, full=1000)
    B = ctx.param("B", tiny=8, quick=540, full=120)
    B_control = ctx.param("B_control", tiny=8, quick=120, full=30)
    # the data search: 3 starts x budget runs of B_search members at d = 4n; measured at quick (n = 120,
    # 24 runs of 120 members, 2-core machine shared with two jobs) +23 s (claim 10.1 -> 32.8 s); a run
    # costs ~ B p n^1.5 at d = 4n, so the same 24 runs at full (n = 1000) take ~30x that, est. 10-20 min
    B_search = ctx.param("B_search", tiny=8, quick=120, full=120)
    budget = ctx.param("search_budget", tiny=6, quick=8, full=8)
    eps = 0.1
    p = int(p_of_n(n))  # App. B's width
    if n < 2000 or B < 400:
        ctx.reduced_scale(
            "Lemma 8 states no sample size (the paper runs no experiment for it); its design scale here is "
            "Experiment 2's largest n = 2000 (p = 37), 400 members at d = n and d = 4n and in the scale-3 "
            "control: 5.3, 3.4 and 6.8 s per GD step (400 members, one core shared with a second job) over "
            "1800, 851 and 5748 steps (the runs' max t_n; the scale-3 control, measured at d = n, now runs "
            "at d = 4n: t_n ~ 1/sqrt(d), about half the steps), estimated 3-14 CPU-h (the same timing at "
            "n = 1000 predicted 790 s for the run at full that took 151 s, 94 CPU-s); this run: n = "
            f"{n}, p = {p}, {B} members ({B_control} in the control)"
        )
    ctx.note(
        "The former check 'a pre-activation <= 0 never becomes positive again' is gone: in the decoupled "
        "orthogonal model integrated here a dead coordinate has velocity 0 by construction (sigma'(0) = 0), "
        "so it could not fail. The statement it stood for is checked on the full d-dimensional system by "
        "dana2025:section-C.2 and the reduction cross-check of dana2025:figure-6."
    )
    run = _delta_run(ctx, f"l8-{4 * n}", n, 4 * n, B, p, 0.5)
    _delta_regime(ctx, run, 0.5, event=True)
    _lemma8_checks(ctx, run, eps, f"n={n}, d={4 * n}, p={p}")
    _lemma8_outside(ctx, n, B, p, eps, corrected=False)
    # App. B's law at d = n: an observation, not a check -- the dimension control below shows d = n outside
    # Lemma 8's regime for the same data bounds (its unknown kappa is the same for both label laws)
    outside = _lemma8_rate(_delta_run(ctx, f"l8-{n}", n, n, B, p, 0.5))
    # a second data family inside the same bounds (norms and |labels| in [1, 2]): every label of one sign
    run = _delta_run(ctx, f"l8-one-sign-{4 * n}", n, 4 * n, B, p, 0.5, labels=_one_sign_labels)
    _delta_regime(ctx, run, 0.5, event=True)
    _lemma8_checks(ctx, run, eps, f"labels of one sign, n={n}, d={4 * n}, p={p}")
    at_4n = _lemma8_rate(run)
    _lemma8_search(ctx, n, p, eps, B_search, budget)
    with ctx.control(
        "labels of one sign at d = n (the main one-sign run's data bounds and law, a quarter of its d)",
        breaks=D_LEMMA8,
        must_break=[f"{L8_PROBABILITY}*"],
    ):
        low = _delta_run(ctx, f"l8-one-sign-{n}", n, n, B, p, 0.5, labels=_one_sign_labels)
        _lemma8_checks(ctx, low, eps, f"labels of one sign, n={n}, d={n}, p={p}")
    at_n = _lemma8_rate(low)
    kappa = [d / (np.log(p) * np.log(n * p) * np.log(1 / eps) ** 2) for d in (n, 4 * n)]
    ctx.note(
        f"Lemma 8's kappa is not given, so its dimension condition cannot be decided: the runs have "
        f"d / (log p log(np) log(1/eps)^2) = {kappa[0]:.3g} (d = n) and {kappa[1]:.3g} (d = 4n). Labels of "
        "one sign (the same bounds on norms and labels as App. B's law, so the same kappa) meet (47) in "
        f"{at_4n[0]} of {at_4n[1]} runs with event I at d = 4n and {at_n[0]} of {at_n[1]} at d = n (the "
        f"dimension control): where the latter fails, kappa must exceed {kappa[0]:.3g} for the lemma's data "
        f"class, so d = n is outside its regime and App. B's law there ((47) in {outside[0]} of {outside[1]} "
        "runs with event I) is an observation, not a check."
    )
    ctx.note(
        "Scale control: the main run (App. B data) with w ~ N(0, 9 I/d) (scale 3; a_j^2 = ||w_j||^2 + Delta +"
        " Exp(1), so Delta, the data, the law's class and d = 4n are unchanged). Any fixed scale is allowed "
        "(INIT_LAW_L8), but kappa grows with the law's sub-Gaussian norms (||w||_psi2 x 3): a wrong pair's "
        "pre-activation and its rate of decrease |a_j r_i| ||x_i||^2 / n both grow like the scale, so its "
        "extinction takes no less time, while the fit (rate ~ a^2 + ||w||^2) speeds up like its square and "
        "the residual can fall below |y_i|/2 before the wrong pairs die, the mechanism (49) relies on; a "
        "larger d (pre-activations ~ scale/sqrt(d)) restores it. (47) failing at d = 4n shows d = 4n below "
        "D_LEMMA8 for this law (as for the dimension control, kappa being unknown, inferred from the failure;"
        " measured at quick: 18 of 115 members with I meet (47) with the printed t_n and the corrected one "
        "alike, so the failure is not the erratum's). Before, this control ran at d = n, where App. B's law "
        "at scale 1 already meets (47) in most runs (the observation above): it changed two things at once."
    )
    with ctx.control(
        "initialization scale 3 (w ~ N(0, 9 I/d)) at the main d = 4n (kappa grows with the law's norms)",
        breaks=D_LEMMA8,
        must_break=[f"{L8_PROBABILITY}*"],
    ):
        run = _delta_run(ctx, "l8-big", n, 4 * n, B_control, p, 0.5, scale=3.0)
        _lemma8_checks(ctx, run, eps, f"n={n}, d={4 * n}, scale 3")


@claim(
    "dana2025:lemma-8-corrected",
    title="Lemma 8 with the extinction time its proof supports: max <w_j(0)|x_i/||x_i||>_+ and sqrt(Delta)",
    source="Lemma 8, App. A.3, eqs. (47)-(49) and the proof's t~_n",
    statement=r"As Lemma 8, at $t_n=\frac{2n}{C_y^-C_x^-\sqrt\Delta}\max_{j,i}\langle w_j(0)|\bar x_i"
    r"\rangle_+$, $\bar x_i=x_i/\|x_i\|$: with probability $\ge1-\varepsilon$, $a_j(0)y_i>0\Rightarrow"
    r"\langle w_j(t_n)|x_i\rangle_+\ge\langle w_j(0)|x_i\rangle_+$ and $a_j(0)y_i<0\Rightarrow\langle "
    r"w_j(t_n)|x_i\rangle_+\le0$.",
    hypotheses=[ORTHOGONAL, DELTA, EVENT_I, INIT_LAW_L8, D_LEMMA8],
)
def lemma_8_corrected(ctx: Context) -> None:
    """The printed claim's families (App. B data and labels of one sign at d = 4n), the two where the
    printed t_n is short (:func:`_lemma8_outside`) and its data search (:func:`_lemma8_search`), with
    :func:`lemma8_t_n_corrected`; the dimension control as the printed claim's (labels of one sign at
    d = n)."""
    n = ctx.param("n", tiny=40, quick=120, full=1000)
    B = ctx.param("B", tiny=8, quick=540, full=120)
    # the data search as dana2025:lemma-8's: measured at quick 22.7 -> 71.9 s (2-core machine shared with
    # other jobs; lemma-8's own search costs +23 s there), est. 10-20 min more at full
    B_search = ctx.param("B_search", tiny=8, quick=120, full=120)
    budget = ctx.param("search_budget", tiny=6, quick=8, full=8)
    eps = 0.1
    p = int(p_of_n(n))  # App. B's width
    if n < 2000 or B < 400:
        ctx.reduced_scale(
            f"as dana2025:lemma-8 (design scale n = 2000, 400 members); this run: n = {n}, {B} members"
        )
    for label, law in (("App. B data", appendix_b_labels), ("labels of one sign", _one_sign_labels)):
        run = _delta_run(ctx, f"l8c-{label}-{4 * n}", n, 4 * n, B, p, 0.5, labels=law, corrected=True)
        _delta_regime(ctx, run, 0.5, event=True)
        _lemma8_checks(ctx, run, eps, f"{label}, n={n}, d={4 * n}, p={p}")
    _lemma8_outside(ctx, n, B, p, eps, corrected=True)
    _lemma8_search(ctx, n, p, eps, B_search, budget, corrected=True)
    with ctx.control(
        "labels of one sign at d = n (a quarter of the main runs' d)",
        breaks=D_LEMMA8,
        must_break=[f"{L8_PROBABILITY}*"],
    ):
        low = _delta_run(ctx, f"l8c-one-sign-{n}", n, n, B, p, 0.5, labels=_one_sign_labels, corrected=True)
        _lemma8_checks(ctx, low, eps, f"labels of one sign, n={n}, d={n}, p={p}")


def _lemma8_outside(ctx: Context, n: int, B: int, p: int, eps: float, *, corrected: bool) -> None:
    """Lemma 8 where its data class is wider than App. B's bounds (any orthogonal non-zero inputs, any
    Delta > 0, as the lemma states): App. B's norms scaled by ``L8_SCALED_BY`` at Delta = 0.5, and App. B
    data at Delta = ``L8_BIG_DELTA``; d = 4n, t_n as printed or (``corrected``) as the proof supports
    (:func:`lemma8_t_n_corrected`). The printed t_n fails on both (the erratum); the corrected one holds."""
    rng = ctx.rng("l8-scaled-data").host
    data = (appendix_b_norms(rng, n) * L8_SCALED_BY, appendix_b_labels(rng, n))
    for label, delta, extra in ((L8_SCALED, 0.5, {"data": data}), (L8_BIG, L8_BIG_DELTA, {})):
        run = _delta_run(ctx, f"l8-{label}-{4 * n}", n, 4 * n, B, p, delta, corrected=corrected, **extra)
        _delta_regime(ctx, run, delta, event=True)
        _lemma8_checks(ctx, run, eps, f"{label}, n={n}, d={4 * n}, p={p}")


def _lemma8_search(
    ctx: Context, n: int, p: int, eps: float, B: int, budget: int, *, corrected: bool = False
) -> None:
    """Adversarial search over Lemma 8's data (:func:`lemma8_data`) at d = 4n, init as the claim's runs, t_n
    as printed or (``corrected``) :func:`lemma8_t_n_corrected`.

    Each instance is one :func:`_delta_run` of ``B`` fresh members (its own generator key, so the
    instances tried are independent of the members that test them and the Bonferroni correction over
    every instance the search may try holds); its ratio is (1 - eps) / the one-sided Clopper-Pearson upper
    bound of P((47) | I) at level 0.01 / that number of instances, > 1 exactly when the instance rejects
    P >= 1 - eps. The mean :func:`lemma8_closeness` enters at 1e-6 as a tie-break (every instance with
    (47) in all its members has ratio 1 - eps otherwise), so the ratios shown are the Clopper-Pearson
    ones to 1e-6 and never above them. An instance with no member in event I decides nothing: ratio 0."""
    starts = lemma8_starts()
    trials = len([t for ts in starts.values() for t in ts]) * budget
    level = 0.01 / trials
    tried: list[tuple[float, int, int, np.ndarray]] = []

    def violation(theta: np.ndarray) -> float:
        c, y = lemma8_data(theta, n)
        key = f"l8-search-{len(tried)}"
        run = _delta_run(ctx, key, n, 4 * n, B, p, 0.5, data=(c, y), deaths=True, corrected=corrected)
        met, runs = _lemma8_rate(run)
        if runs == 0:
            tried.append((0.0, met, runs, theta))
            return 0.0
        upper = float(clopper_pearson(met, runs, 1 - 2 * level)[1])
        ratio = (1 - eps) / upper - 1e-6 * (1 - float(lemma8_closeness(run).mean()))
        tried.append((ratio, met, runs, theta))
        return ratio

    met_all = rejected_counts(B, 1 - eps, 1 - 2 * level, ">=")
    p80 = detectable(B, 1 - eps, 1 - 2 * level, ">=")
    ctx.search(
        f"search: P((47) at t_n | I) >= 1 - eps over orthogonal data in App. B's bounds, n={n}, "
        f"d={4 * n}, p={p}",
        violation,
        starts,
        budget=budget,
        why=f"Lemma 8 holds for every orthogonal data set with norms and |labels| in [1, 2] (App. B's law "
        f"and the one-sign family are two points of it); Nelder-Mead over 5 parameters of the data "
        f"(levels and spreads of the norm and |label| profiles, the fraction of positive labels), each "
        f"instance tested on {B} fresh members (w ~ N(0, I/d), Delta = 0.5): ratio = (1 - eps) / one-sided "
        f"{1 - level:.5%} Clopper-Pearson upper bound of P((47) | I) (Bonferroni over the {trials} instances "
        f"the search may try), guided by how late the wrong pairs die. Resolution (~3% of members lack I, so "
        f"slightly coarser): "
        + (
            f"with {B} members in I an instance is rejected when {B - met_all} or more fail (47); "
            if met_all >= 0
            else ""
        )
        + (
            f"a true P((47) | I) <= {p80:.3g} is rejected with 80% power on any one instance tried"
            if p80 is not None
            else f"no true P((47) | I) is rejected with 80% power at {B} members (this profile only "
            "exercises the search)"
        ),
    )
    undecided = sum(1 for _, _, runs, _ in tried if runs == 0)
    worst = max(tried, key=lambda t: t[0])
    c, y = lemma8_data(worst[3], n)
    ctx.note(
        f"Data search (Lemma 8, d = 4n): {len(tried)} instances, {undecided} without a member in event I "
        f"(undecided, ratio 0). Its worst: (47) in {worst[1]} of {worst[2]} members with I, ratio "
        f"{worst[0]:.6g}, norms in [{c.min():.3f}, {c.max():.3f}], |labels| in [{np.abs(y).min():.3f}, "
        f"{np.abs(y).max():.3f}], {int((y > 0).sum())} of {n} labels positive; most failures of (47) in one "
        f"instance: {max(r - m for _, m, r, _ in tried)}."
    )


def _one_sign_labels(rng: np.random.Generator, size) -> np.ndarray:
    r""":math:`y\sim\mathcal U[1,2]`: App. B's label magnitudes, every label positive."""
    return np.abs(appendix_b_labels(rng, size))


def _lemma8_pairs(run: dict) -> tuple[np.ndarray, np.ndarray]:
    """The (member, neuron, example) pairs active at 0 whose sign a_j y_i is right (> 0) and wrong (< 0),
    each (B, p, n): Lemma 8's (47) says the right ones only grow and the wrong ones die by t_n."""
    sign = run["a"][:, :, None] * run["y"][None, None, :]
    active = run["V"] > 0
    return (sign > 0) & active, (sign < 0) & active


def _lemma8_rate(run: dict) -> tuple[int, int]:
    """(47) at t_n: the runs with event I that meet it, and the runs with event I."""
    V0, pre = run["V"], run["pre_tn"]
    right, wrong = _lemma8_pairs(run)
    ok = np.all(np.where(right, pre >= V0, True), axis=(1, 2)) & np.all(
        np.where(wrong, pre <= 0, True), axis=(1, 2)
    )
    I = event_I(V0, run["a"], run["y"])
    return int(ok[I].sum()), int(I.sum())


def _lemma8_checks(ctx: Context, run: dict, eps: float, label: str) -> None:
    """The exact binomial test of P((47) | I) >= 1 - eps at level 0.01. The violation it declares depends
    only on the sample size: 1.5x the allowed failures (P = 0.85) where the members with I reject it with
    80% power (about 500 needed), else 2.5x (P = 0.75, about 110)."""
    met, runs = _lemma8_rate(run)
    sharp = 1 - 1.5 * eps
    power = detectable(max(runs, 1), 1 - eps, 0.99, ">=")
    detect = sharp if power is not None and power >= sharp else 1 - 2.5 * eps
    ctx.probability(
        f"{L8_PROBABILITY} [{label}]",
        met,
        max(runs, 1),
        at_least=1 - eps,
        detect=detect,
        conf=0.99,
        why=f"(47) per run with event I; exact binomial test; the violation to catch: "
        f"{(1 - detect) / eps:.1f}x the allowed failures (the sharpest of 1.5x and 2.5x that {runs} "
        "members with I resolve with 80% power)",
    )


L8_GOLDEN = (np.sqrt(5) - 1) / 2  # the order in which labels turn positive: frac(i * golden ratio)


def lemma8_data(theta: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Lemma 8's searched data class, norms and labels (n,) inside App. B's bounds from 5 parameters.

    On the grid :math:`u_i` = linspace(-1, 1, n): :math:`\|x_i\|=1+\mathrm{sigmoid}(\theta_0+\theta_1u_i)`,
    :math:`|y_i|=1+\mathrm{sigmoid}(\theta_2+\theta_3u_i)` (levels and spreads; the spreads' signs set
    whether small norms go with small or large labels), and round(n sigmoid(theta_4)) labels positive, the
    first in the order of frac(i * golden ratio), which interleaves the signs with the norm profile."""
    u = np.linspace(-1.0, 1.0, n)
    c = 1 + expit(theta[0] + theta[1] * u)
    size = 1 + expit(theta[2] + theta[3] * u)
    positive = np.zeros(n, bool)
    positive[np.argsort((np.arange(n) * L8_GOLDEN) % 1.0)[: round(n * float(expit(theta[4])))]] = True
    return c, np.where(positive, size, -size)


def lemma8_closeness(run: dict) -> np.ndarray:
    """Per member with event I, how close (47) comes to failing, in [0, 1]: the larger of the last death
    of a wrong pair as a fraction of the member's t_n (clipped at 1) and 1 / (1 + the smallest relative
    growth <w_j(t_n)|x_i> / <w_j(0)|x_i> - 1 of a right pair, clipped at 0); the search's tie-break."""
    V0, a, y, pre = run["V"], run["a"], run["y"], run["pre_tn"]
    right, wrong = _lemma8_pairs(run)
    stops = np.maximum(np.floor(run["t_n"]), 1.0)
    late = np.where(wrong, run["t_dead"], 0.0).max(axis=(1, 2)) / stops
    growth = np.where(right, pre / np.where(V0 > 0, V0, 1.0) - 1, np.inf).min(axis=(1, 2))
    close = np.maximum(np.minimum(late, 1.0), 1 / (1 + np.maximum(growth, 0.0)))
    return close[event_I(V0, a, y)]


def lemma8_starts() -> dict[str, list[np.ndarray]]:
    """Three structurally different families of Lemma 8 data (parameters of :func:`lemma8_data`)."""
    return {
        "App. B-like: norms and |labels| spread over [1, 2], half the labels positive": [
            np.array([0.0, 4.0, 0.0, -4.0, 0.0])
        ],
        "at the bounds: ~1 on 1/7 of the examples, ~2 on the rest, norms and |labels| together": [
            np.array([10.0, 14.0, 10.0, 14.0, 0.0])
        ],
        "labels of one sign (all positive), norms and |labels| spread over [1, 2]": [
            np.array([0.0, 4.0, 0.0, 4.0, 8.0])
        ],
    }


_PROP1_HYPOTHESES = [
    ORTHOGONAL,
    DELTA,
    "times after the extinction of wrong pairs",
    "a fixed law of (a, w), independent of n (C depends only on C_xy, Delta and that law)",
]


@claim(
    "dana2025:proposition-1",
    title="Proposition 1 as printed: (64) with C-bar = (1/p) sum_j (a_j(0)^2 - ||w_j(0)||^2) 1_{j,i}",
    source="Proposition 1 (Section 4.1), explicit form (64); proof App. A.3, (61)-(65)",
    statement=r"For $t\ge Cn$ (after the extinction of Lemma 8), "
    r"$\mu(t)\le2\pi\sqrt{\frac23}\frac{(C_x^+)^2}{C_x^-}C_y^+"
    r"\max_i|1-\frac{r_i}{y_i}|\sqrt{\frac pn}+\frac2n(C_x^+)^2\bar C$ (64), "
    r"$\bar C=\frac1p\sum_j(|a_j(0)|^2-\|w_j(0)\|^2)1_{j,i}$.",
    hypotheses=_PROP1_HYPOTHESES,
    erratum=Erratum(
        r"(62) writes $\|w_j\|^2=\sum_i\langle w_j|\bar x_i\rangle^2$, which holds only for the active "
        r"part of $w_j$: its negative (extinct) components and the part orthogonal to every input are "
        r"frozen and do not enter (62), so $\bar C$ misses the frozen mass "
        r"$\frac2p\sum_j\|w_j^{\rm frozen}\|^2$ and (64) fails at states with the proof's hypotheses "
        r"((61)-(63): orthogonal inputs, wrong pairs extinct, $\|w_j\|^2\le a_j^2$). On states with small "
        r"active pre-activations (~0.02), a mass $\|w_j^\perp\|^2\approx e^2$ orthogonal to the inputs and "
        r"balances ~$e^{-6}$ (Assumption 1 near equality), norms and labels of App. B's order (n = 4, "
        r"p = 3), $\mu$ exceeds the printed right-hand side 3-25 times, and the search over such states "
        r"reaches ~200 "
        r"(read $\bar C$ with $\max_i$, the largest reading of its free index; the sum over $i$ is at most "
        r"n = 4 times larger). With the frozen mass in $\bar C$ the same search stays below 0.45 "
        r"(dana2025:proposition-1-corrected). The scaling "
        r"$C\sqrt{p/n}+C/n$ is unaffected (the frozen mass is O(1) under a fixed law)",
        via="catalog [ERROR?] at (62); shown by this verification's state search",
        shown_by=("search: (64) as printed*",),
    ),
)
def proposition_1(ctx: Context) -> None:
    budget = ctx.param("budget", tiny=40, quick=200, full=3000)
    _prop1_search(ctx, budget, printed=True)


PROP1_DIM = Hypothesis(
    "dimension of Proposition 1",
    wording=r"$d\ge C\log(p)\log(np)\log(1/\varepsilon)^2$, with probability $1-\varepsilon$ (8)",
    condition="C is not given: not measurable; the runs' d / (log p log(np)) is in the claim's note",
)
_PROP1_CORRECTED_HYPOTHESES = [*_PROP1_HYPOTHESES, EVENT_I, PROP1_DIM]


def prop1_event_probability(n: int, p: int) -> float:
    r""":math:`\Pr(\mathcal I)` on orthogonal inputs with :math:`n/2` labels of each sign
    (:func:`numeric.data.weakly_correlated.prob_event_I_orthogonal`; 0.058 at n = 2000, p = 20, where the
    full run read 5 of 100)."""
    return prob_event_I_orthogonal(n // 2, n - n // 2, p)


@claim(
    "dana2025:proposition-1-corrected",
    title="Proposition 1 corrected: (64) with the frozen mass in C-bar; mu(t) <= C sqrt(p/n) max|1 - r/y| + "
    "C/n after extinction",
    source="Proposition 1 (Section 4.1), explicit form (64); proof App. A.3, (61)-(65) with (62) on the "
    "active part",
    statement=r"For $t\ge Cn$ (after the extinction of Lemma 8), "
    r"$\mu(t)\le2\pi\sqrt{\frac23}\frac{(C_x^+)^2}{C_x^-}C_y^+"
    r"\max_i|1-\frac{r_i}{y_i}|\sqrt{\frac pn}+\frac2n(C_x^+)^2\bar C$ with "
    r"$\bar C=\frac1p\sum_j(|a_j(0)|^2-\|w_j(0)\|^2)+\frac2p\sum_j\|w_j^{\rm frozen}\|^2$ "
    r"(the part of $w_j$ on no active input); so $\mu(t)\le C\sqrt{p/n}\max_i|1-r_i/y_i|+C/n$ (8).",
    hypotheses=_PROP1_CORRECTED_HYPOTHESES,
)
def proposition_1_corrected(ctx: Context) -> None:
    ns = np.array(ctx.param("n_grid", tiny=[40, 80], quick=[30, 60, 120], full=[250, 500, 1000, 2000]))
    B = ctx.param("B", tiny=6, quick=16, full=100)
    # the scaling check averages over the seeds with event I (every example covered): each n gets members
    # enough for `cover` of them in expectation + 3 sd (Poisson), from P(I) (prop1_event_probability)
    cover = ctx.param("covering_seeds", tiny=2, quick=20, full=20)
    budget = ctx.param("budget", tiny=40, quick=200, full=3000)
    p = 20
    members = [max(B, int(np.ceil((cover + 3 * np.sqrt(cover)) / prop1_event_probability(n, p)))) for n in ns]
    sups, covered = [], []
    for n, Bn in zip(ns, members, strict=True):
        run = _delta_run(ctx, f"p1-{n}", n, 4 * n, Bn, p, 0.5, extra=2.0)
        _delta_regime(ctx, run, 0.5, event=True)
        sups.append(_prop1_check(ctx, run, f"orthogonal, n={n}, p={p}"))
        covered.append(covers_every_example(run))
    _prop1_scaling(ctx, ns, sups, covered, p, "p1-boot")
    _prop1_search(ctx, budget, printed=False)
    ctx.note(
        f"Members per n {members} (at least B = {B}; {cover} seeds with event I expected + 3 sd, from "
        f"P(I) = {[round(prop1_event_probability(n, p), 3) for n in ns]}); seeds covering every example at "
        f"the end: {[int(c.sum()) for c in covered]}. The remark after (8) restricts the proposition to "
        "initializations with event I (hypothesis 'event I', read on the initial states); (64) is checked on "
        "every run (an uncovered run stalls with mu -> 0, where it holds trivially). Dimension: C of (8) is "
        "not given; the runs have d = 4n, d / (log p log(np)) = "
        f"{[round(4 * n / (np.log(p) * np.log(n * p)), 3) for n in ns]} (the log(1/eps)^2 factor is free)."
    )
    ctx.note(
        "C-bar of (63) is (1/p) sum_j (a_j(0)^2 - ||w_j(0)||^2) plus the frozen mass 2/p sum_j "
        "||w_j^frozen||^2 (negative and orthogonal components): (62) bounds only the active part of "
        "||w_j||^2 (catalog [ERROR?]; the printed C-bar fails: dana2025:proposition-1). The explicit "
        "constant of (64) is loose (measured mu / bound in the details)."
    )
    ctx.note(
        "Control: the proof's ingredients (extinction, the ranks (61), ||w||^2 <= |a|^2, orthogonality) all "
        "survive correlated inputs with labels of one sign -- a neuron then fits many examples with O(1) "
        "norm, so the late curvature is smaller, and (64) held on equicorrelated data (rho = 0.5). What "
        "the proposition does need is that C does not depend on n, i.e. that the law of (a, w) is fixed "
        "(Section 2: norms independent of d, n, p). The control scales the App. B second layer with n "
        "(a_j -> s a_j, s^2 = n/2; w and Assumption 1 kept, Delta becomes s^2 Delta, which shortens t_n; "
        "GD step 0.1 for stability): |a_j|^2 ~ n, the slowest example decays at rate ~ a^2/(np) = O(1), "
        "the curvature after t_n stays of order 1 and the n^-1/2 decay fails, while the explicit (64) "
        "still holds because its C-bar grows like s^2. Scaling a by s^2 = n/20 is not enough at these n: "
        "the fit itself grows |a_j|^2 to O(sqrt(np)) anyway."
    )
    with ctx.control(
        "second layer growing with n: a_j -> s a_j, s^2 = n/2",
        breaks="a fixed law of (a, w), independent of n (C depends only on C_xy, Delta and that law)",
        must_break=["log-log slope of sup*"],
    ):
        big = ns[[0, -1]]
        runs = [
            _delta_run(ctx, f"p1s-{n}", n, 4 * n, B, p, 0.5, a_scale=np.sqrt(n / 2), extra=2.0, lr=0.1)
            for n in big
        ]
        sups_big = [
            _prop1_check(ctx, r, f"a scaled by sqrt(n/2), n={n}") for r, n in zip(runs, big, strict=True)
        ]
        _prop1_scaling(ctx, big, sups_big, [covers_every_example(r) for r in runs], p, "p1s-boot")


def _prop1_search(ctx: Context, budget: int, printed: bool) -> None:
    """(64) as a state inequality, searched over states with the proof's hypotheses
    (:func:`prop1_state_ratio`)."""
    cbar = (
        "C-bar as printed, max_i (1/p) sum_j Delta_j 1_ji"
        if printed
        else "C-bar from the balances and frozen masses"
    )
    ctx.search(
        f"search: (64){' as printed' if printed else ''} mu / rhs over orthogonal data and states after the "
        "extinction",
        partial(prop1_state_ratio, printed=printed),
        prop1_starts(ctx.rng("search").host),
        budget=budget,
        why=f"(64) is a state inequality given its hypotheses ((61)-(63): orthogonal inputs, only correctly "
        f"signed contributions, ||w_j||^2 <= a_j^2; {cbar}); Nelder-Mead over norms, labels, "
        f"pre-activations, frozen masses and balances, (n, p) = {PROP1_SHAPE}. With the frozen mass the "
        "explicit constant is loose (worst found ~0.44, every neuron active on every example): a constant "
        "too large by more than ~2.3x is what this search can catch",
    )


def covers_every_example(run: dict) -> np.ndarray:
    """(B,) whether each run ends with every example covered: some neuron of the example's label sign
    (a_j y_i > 0; the sign of a_j is kept under the balance) active on it at the last record."""
    right = np.sign(run["a"])[:, :, None] * run["y"][None, None, :] > 0
    return np.all(np.any(right & (run["rec"][-1][3] > 0), axis=1), axis=1)


def _prop1_scaling(ctx: Context, ns: np.ndarray, sups, covered, p: int, key: str) -> None:
    """``sups`` per n, (seeds_n,): each seed's sup over t >= t_n of mu; ``covered`` the same shapes (from
    :func:`covers_every_example`). The slope of the mean over covering seeds vs n must not be shown
    shallower than -1/2: the lower end of its 99% bootstrap interval (seeds resampled per n) reaches -1/2."""
    sups, covered = [np.asarray(x) for x in sups], [np.asarray(c, bool) for c in covered]
    counts = [int(c.sum()) for c in covered]
    if min(counts) < 2:  # too few covering seeds at some n to resample: every seed counts
        covered = [np.ones_like(c) for c in covered]
    s, lo, hi = _slopes(ns, sups, covered, ctx.rng(key).host)
    ctx.bound(
        f"log-log slope of sup_(t >= t_n) mu(t) (mean over seeds covering every example) vs n, p = {p} "
        f"fixed: the lower end of its 99% bootstrap interval [{lo:.2f}, {hi:.2f}] is <= -1/2",
        lo,
        -0.5,
        why="(8): mu <= C sqrt(p/n) max|1 - r/y| + C/n after the extinction, so the sup decays at least like "
        "n^-1/2 (the C/n term only steepens it at small n); a slope shallower than -1/2 is shown only when "
        "the whole 99% percentile-bootstrap interval over seeds lies above it. A run that leaves an example "
        "uncovered stalls at that example's loss, its mu -> 0 (sup ~1e-4 or 0; (64) holds there trivially, "
        "every run is checked above): averaged in, the share of such runs at each n, not the decay, set "
        "the interval (lower half-width 0.38 instead of 0.12 at quick), so the mean is over covering runs",
        resolution=f"a true slope shallower than -1/2 by more than the interval's lower half-width "
        f"{s - lo:.2g} (n = {ns.tolist()}, covering seeds {counts} of {[len(g) for g in sups]})",
        details={
            "n": ns,
            "mean sup mu (covering seeds)": [
                float(np.mean(g[c])) for g, c in zip(sups, covered, strict=True)
            ],
            "covering seeds": counts,
            "slope": s,
            "interval": [lo, hi],
        },
    )


def prop1_rhs(c: np.ndarray, y: np.ndarray, maxf, p: int, Cbar):
    r"""Right-hand side of (64) (norms ``c``, labels ``y``):
    :math:`2\pi\sqrt{\frac23}\frac{(C_x^+)^2}{C_x^-}C_y^+\max_i|1-\frac{r_i}{y_i}|\sqrt{\frac pn}
    +\frac2n(C_x^+)^2\bar C`."""
    n, cxm, cxp, cyp = len(y), c.min(), c.max(), np.abs(y).max()
    return 2 * np.pi * np.sqrt(2 / 3) * cxp**2 / cxm * cyp * maxf * np.sqrt(p / n) + 2 / n * cxp**2 * Cbar


PROP1_SHAPE = (4, 3)  # (n, p) of the searched states


def prop1_state_ratio(theta: np.ndarray, printed: bool = False) -> float:
    r"""(64) at one state after the extinction: :math:`\mu/\text{rhs}`.

    theta: log-norms, labels, pre-activations :math:`v_{ji}=\langle w_j|x_i\rangle` (wrong pairs,
    :math:`a_jy_i<0`, reflected to :math:`v_{ji}\le0`: extinct), log frozen masses, log balances
    :math:`\Delta_j=a_j^2-\|w_j\|^2` (softplus) and the signs of a. The proof (61)-(64) uses only
    these: orthogonal inputs, correctly signed contributions, :math:`\|w_j\|^2\le a_j^2`, and
    :math:`\bar C` = mean balance + twice the mean frozen mass (the part of :math:`\|w_j\|^2` that (62)
    does not bound); ``printed``: :math:`\bar C=\max_i\frac1p\sum_j\Delta_j1_{j,i}` as printed. A
    right-hand side 0 (every f_i = 0 and C-bar = 0) with mu > 0 scores 1e6."""
    n, p = PROP1_SHAPE
    c, y = norms(theta[:n]), labels(theta[n : 2 * n])
    V = theta[2 * n : 2 * n + p * n].reshape(p, n)
    rest = theta[2 * n + p * n :]
    wperp2, delta = softplus(rest[:p]), softplus(rest[p : 2 * p])
    s = np.where(rest[2 * p : 3 * p] >= 0, 1.0, -1.0)
    V = np.where(s[:, None] * y[None, :] < 0, -np.abs(V), V)
    wsq = (V**2 / c**2).sum(axis=1) + wperp2
    frozen = wsq - (np.maximum(V, 0) ** 2 / c**2).sum(axis=1)
    a = s * np.sqrt(wsq + delta)
    model = ShallowReLU(p, n, "orthogonal")
    state, args = model.pack((V[None], a[None])), model.args(HOST, c, y, wperp2=wperp2[None])
    mu = float(model.curvature(state, args)[0])
    maxf = float(np.abs(1 - model.residual(state, args)[0] / y).max())
    cbar = float((delta @ (V > 0)).max()) / p if printed else delta.mean() + 2 * frozen.mean()
    rhs = float(prop1_rhs(c, y, maxf, p, cbar))
    return mu / rhs if rhs > 0 else (0.0 if mu == 0 else 1e6)


def prop1_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Families of states (blocks: log-norms, labels, V, log frozen mass, log balance, signs of a)."""
    n, p = PROP1_SHAPE
    b = {
        "App. B-like late state (fitted, moderate weights)": [
            (n, 0.35, 0.2),
            (n, 0, 1.5),
            (p * n, 0.5, 1),
            (p, -1, 1),
            (p, 0, 1),
            (p, 0, 1),
        ],
        "ill-conditioned (norms, labels over decades)": [
            (n, 0, 2),
            (n, 0, 4),
            (p * n, 0, 3),
            (p, -2, 3),
            (p, -2, 3),
            (p, 0, 1),
        ],
        "equal contributions: every neuron active on every example, labels of one sign": [
            (n, 0, 0.01),
            (n, 1.5, 0.01),
            (p * n, 1.0, 0.01),
            (p, -12, 0.1),
            (p, -12, 0.1),
            (p, 1, 0.01),
        ],
        "small active parts, large mass orthogonal to the inputs, Assumption 1 near equality": [
            (n, 0.35, 0.2),
            (n, 1.5, 0.3),
            (p * n, 0.02, 0.007),
            (p, 2, 0.5),
            (p, -6, 0.5),
            (p, 0, 1),
        ],
        "one large neuron per example (||w_j||^2 ~ a_j^2 large, C-bar ~ 0)": [
            (n, 0, 0.1),
            (n, 1.5, 0.3),
            (p * n, np.kron(np.eye(p, n), 4.0).ravel() - 1.0, 0.1),
            (p, -12, 0.1),
            (p, -12, 0.1),
            (p, 1, 0.01),
        ],
    }
    return {name: [assemble(rng, blocks) for _ in range(2)] for name, blocks in b.items()}


def _prop1_check(ctx: Context, run: dict, label: str) -> np.ndarray:
    """(64) at every recorded state after t_n; returns each seed's sup_(t >= t_n) mu."""
    c, y, G, p = run["c"], run["y"], run["G"], run["p"]
    ext = np.array([k >= run["t_n"] for k, *_ in run["rec"]])  # (T, B) after t_n
    lhs, rhs = [], []
    # (1/p) sum_j a_j(0)^2 - ||w_j(0)||^2: the initial balance, the same at every record
    balance = (run["a"] ** 2 - _wsq(run["V"], G, run["wperp2"])).mean(axis=1)
    for (_, mu, maxf, U), after in zip(run["rec"], ext, strict=True):
        wsq = _wsq(U, G, run["wperp2"])
        active = (np.maximum(U, 0) ** 2 / np.diag(G)[None, None, :]).sum(axis=2)  # sum_i <w_j|xbar_i>_+^2
        frozen = wsq - active
        Cbar = balance + 2 * frozen.mean(axis=1)
        bound = prop1_rhs(c, y, maxf, p, Cbar)
        lhs.append(mu[after]), rhs.append(bound[after])
    lhs_all, rhs_all = np.concatenate(lhs), np.concatenate(rhs)
    ctx.bound(
        f"(64) after t_n: mu(t) <= 2 pi sqrt(2/3) (C_x^+)^2/C_x^- C_y^+ max|1-r/y| sqrt(p/n) + "
        f"(2/n)(C_x^+)^2 C-bar "
        f"[{label}]",
        lhs_all,
        rhs_all,
        why="explicit bound (64) with the frozen mass in C-bar; exact mu from the state. On these App. B "
        "trajectories (64) is loose (slack 136-243 at quick: its constant 2 pi sqrt(2/3) (C_x^+)^2/C_x^- "
        "C_y^+ and C-bar are worst cases over states), so this check catches only a gross violation; the "
        "constant is resolved by the search over states (worst mu / bound ~0.44)",
        details={"max mu / bound": float((lhs_all / rhs_all).max())},
        resolution=f"a violation of (64) on these trajectories; it holds with a factor "
        f"{float((rhs_all / lhs_all).min()):.3g} to spare, so an error in its constant by a smaller factor "
        "goes unnoticed here (the search over states resolves it to ~2.3)",
    )
    after_mu = [np.where(e, r[1], 0.0) for r, e in zip(run["rec"], ext, strict=True)]
    return np.max(after_mu, axis=0)
