r"""The hypotheses of dana2025, declared once; claims list the ones they assume.

Quantitative ones carry the regime test a run must pass (``ctx.regime``), measured on the
data and initialization the claim itself runs (worst case over its instances):

* Theorem 1's width is of order :math:`\log n`, a statement about *few* neurons only when
  :math:`p\ll n` (here :math:`p\le n/4`), and its formula;
* Assumption 1 as :math:`\min_j|a_j(0)|-\|w_j(0)\|`; Assumption 2 as the ratio of
  :math:`\|X^\top X-D_X\|` to its limit (4);
* orthogonal / orthonormal inputs on the Gram matrix a run uses, to rounding;
* the group initialization (9) and its label signs (Proposition 2, Theorem 2), the
  balance :math:`\Delta` and the event :math:`\mathcal I` (Lemma 8, Proposition 1), the time
  :math:`t\ge Cn^{3\alpha-1}\log(Cn)` of Proposition 2 (its C is explicit);
* the App. B law of the initialization, read on the initial state of the run (tests of the law at
  familywise level 0.001 and Assumption 1 exactly, :func:`app_b_statistics`);
* Lemma 3's dimension: its constant is not given (it comes from Vershynin's (43)), so the
  test reads the part of (46) that does not involve it, a necessary condition only.

Hypotheses whose constant the paper leaves unspecified and that have no measurable part
(Lemma 6's absolute c, Lemma 8's kappa, Conjecture 1's C_1) say so in their condition and
carry no test.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import kstest, norm

from numeric.backend import to_numpy
from numeric.data.weakly_correlated import offdiag_norm
from numeric.models.shallow_relu import ShallowReLU
from verify.hypotheses import Hypothesis

ROUNDING = 64 * 2.0**-52  # "exact up to rounding": 64 ulps of the largest entry

ASSUMPTION_1 = Hypothesis(
    "Assumption 1",
    wording=r"Assumption 1: $|a_j(0)|\ge\|w_j(0)\|$ for every neuron $j$",
    condition="min_j |a_j(0)| - ||w_j(0)|| >= 0",
    test=lambda gap: gap >= 0,
)
ASSUMPTION_2 = Hypothesis(
    "Assumption 2",
    wording=r"Assumption 2 (4): $\|X^\top X-D_X\|<\frac{(C_x^-)^2}{2\sqrt n}\frac{C_y^-}{C_y^+}$",
    condition="||X^T X - D_X|| / limit(4) < 1",
    test=lambda ratio: ratio < 1,
)
FEW_NEURONS = Hypothesis(
    "p << n",
    wording=r"few neurons: $p$ of order $\log n$, $p\ll n$ (the point of Theorem 1)",
    condition="p <= n / 4",
    test=lambda p, n: p <= n / 4,
)
ORTHOGONAL = Hypothesis(
    "orthogonal inputs",
    wording=r"orthogonal inputs: $\langle x_i|x_k\rangle=0$ for $i\ne k$",
    condition="||X^T X - D_X|| / max_i ||x_i||^2 <= 64 eps on the Gram matrix the run uses (exact up to "
    "rounding)",
    test=lambda off_ratio: off_ratio <= ROUNDING,
)
CORRELATED = Hypothesis(
    "correlated inputs",
    wording=r"inputs with $\langle x_i|x_k\rangle\ne0$ for some $i\ne k$ (here inside Assumption 2)",
    condition="||X^T X - D_X|| / max_i ||x_i||^2 > 64 eps on the Gram matrix the run uses (not orthogonal "
    "beyond rounding)",
    test=lambda off_ratio: off_ratio > ROUNDING,
)
ORTHONORMAL = Hypothesis(
    "orthonormal inputs",
    wording=r"orthonormal inputs: $\langle x_i|x_k\rangle=\delta_{ik}$",
    condition="max_ik |<x_i|x_k> - delta_ik| <= 64 eps on the Gram matrix the run uses",
    test=lambda gram_dev: gram_dev <= ROUNDING,
)
GROUP_INIT = Hypothesis(
    "group initialization (9)",
    wording=r"group initialization (9): $\langle w_j|x_i^q\rangle>0$ iff $j=q$ (else $\le0$), "
    r"$a_j=s_j\|w_j\|$ (symmetric)",
    condition="min on-group <w_j|x_i^j> > 0, max off-group <w_j|x_i^q> <= 0 and "
    "max_j | |a_j| - ||w_j|| | / ||w_j|| <= 64 eps",
    test=lambda on_min, off_max, asym: on_min > 0 and off_max <= 0 and asym <= ROUNDING,
)
ONE_SIGN = Hypothesis(
    "one label sign per group",
    wording=r"the outputs of group $j$ all have the sign $s_j$",
    condition="min_j,i s_j y_i^j > 0",
    test=lambda sy_min: sy_min > 0,
)
DELTA = Hypothesis(
    "balance Delta",
    wording=r"$|a_j(0)|^2-\|w_j(0)\|^2\ge\Delta>0$ for every neuron (Lemma 8, Proposition 1 as in App. A.3; "
    r"the main text's Proposition 1 prints $|a_j(0)|-\|w_j(0)\|^2>\Delta$, a typo: its proof has squares)",
    condition="min_j a_j(0)^2 - ||w_j(0)||^2 >= Delta > 0 (Delta the value the run's t_n uses)",
    test=lambda gap, delta: delta > 0 and gap >= delta,
)
EVENT_I = Hypothesis(
    "event I",
    wording=r"event $\mathcal I$: every example has a neuron with $\langle w_j(0)|x_i\rangle>0$, "
    r"$a_j(0)y_i>0$",
    condition="the run conditions on I: at least one member has it (the statement is read on those)",
    test=lambda members_with_I: members_with_I >= 1,
)
PROP2_TIME = Hypothesis(
    "time of Proposition 2",
    wording=r"$t\ge Cn^{3\alpha-1}\log(Cn)$, $C=\max(\alpha C_y^-,(\frac1{2C_y^-})^{1/\alpha})$",
    condition="min over the evaluated times of t / (C n^(3 alpha - 1) log(C n)) >= 1",
    test=lambda ratio: ratio >= 1,
)
D_LEMMA3 = Hypothesis(
    "dimension of Lemma 3",
    wording=r"$d\ge C(n^2+n\log\frac1\varepsilon)$",
    condition="C is not given (it comes from Vershynin's constant in (43)); measured: d against the part of "
    "(46) without it, 8 (C_y^+/C_y^-)^2 (C_x^+/C_x^-)^4 n log(2/eps), which any C > 0 only raises "
    "(necessary, not sufficient)",
    test=lambda d, necessary: d >= necessary,
)
WIDTH_L6 = Hypothesis(
    "width of Lemma 6",
    wording=r"$p\ge\frac1c\log\frac2\varepsilon\max(K^2,K)$",
    condition="c is an absolute constant the paper does not give: not measurable; the claim measures the "
    "smallest sufficient width p_min against K instead (its order in K is the statement's content)",
)
D_LEMMA8 = Hypothesis(
    "dimension of Lemma 8",
    wording=r"$d\ge\kappa\log(p)\log(np)\log(1/\varepsilon)^2$ (initialization large relative to $\sqrt d$)",
    condition="kappa depends on C_xy, Delta and the sub-Gaussian norms of the law but is not given: not "
    "measurable; the run's d / (log p log(np) log(1/eps)^2) is in the claim's note",
)
NONZERO_LABELS = Hypothesis(
    "y_i != 0",
    wording=r"$y_i\neq0$ (labels bounded away from 0, $C_y^->0$)",
    condition="C_y^- = min_i |y_i| > 0",
    test=lambda cy_min: cy_min > 0,
)
SMALL_A = Hypothesis(
    "second layer small (Assumption 1 violated)",
    wording=r"$|a_j(0)|\le\delta\ll\|w_j(0)\|$ (Assumption 1 violated)",
    condition="max_j |a_j(0)| / min_ji <w_j(0)|x_i> < 1/2 (the proof's (94) needs min G0 - 2 delta > 0)",
    test=lambda ratio: ratio < 0.5,
)
WINDOW_89 = Hypothesis(
    "(89)",
    wording=r"$\sqrt{8\max_{j,i}\langle w_j(0)|x_i\rangle/y_1}\le\lambda\le\min/\max$ (89)",
    condition="min lambda / sqrt(8 max G0 / y_1) >= 1 and max lambda / (min G0 / max G0) <= 1",
    test=lambda lo_ratio, hi_ratio: lo_ratio >= 1 and hi_ratio <= 1,
)
KINK = Hypothesis(
    r"a pre-activation exactly at the kink with $a_jr_i>0$",
    wording=r"App. C.2: $\langle w_j(t_1)|x_i\rangle=0$ and $a_j(t)r_i(t)>0$ on $[t_1,t_2]$",
    condition="<w_j(t_1)|x_i> = 0 exactly and min over the branching window [t_1, max t~] of a_j r_i > 0, "
    "read on the trajectory that stays at the kink (sigma'(0) = 0)",
    test=lambda pre, ar_min: pre == 0 and ar_min > 0,
)
P_FLOW = Hypothesis("p-accelerated flow (3)", wording=r"the p-accelerated flow $\dot\theta=-p\nabla L$ (3)")
LAW_LEVEL = 0.001  # familywise level of the tests of the App. B law over one run (Bonferroni)


def law_critical(tests: int) -> tuple[float, float]:
    r"""Critical values of one of ``tests`` tests at familywise level ``LAW_LEVEL``: the two-sided normal
    quantile for a z statistic, and Kolmogorov's asymptotic :math:`\sqrt{\log(2/\alpha)/2}` for
    :math:`\sqrt N` times a KS distance (:math:`P(\sqrt ND>x)\to2e^{-2x^2}` for large x: 1.95 at
    :math:`\alpha=0.001`)."""
    alpha = LAW_LEVEL / tests
    return float(norm.isf(alpha / 2)), float(np.sqrt(np.log(2 / alpha) / 2))


def app_b_outside(stats: dict) -> float:
    """How far :func:`app_b_statistics` (with ``tests``, the number of tests of the run) lie outside
    APP_B: the largest statistic over its critical value, inf where Assumption 1 fails. The scale
    :func:`verify.regimes.record_worst` compares instances on; <= 1 inside."""
    if stats["gap"] < 0:
        return np.inf
    z, ks = law_critical(stats["tests"])
    return max(stats["ks"] / ks, *(abs(stats[k]) / z for k in ("z_span", "z_perp", "z_sign")))


APP_B = Hypothesis(
    "App. B init",
    wording=r"App. B initialization: $w_j\sim\mathcal N(0,I_d/d)$, $|a_j|-\|w_j\|\sim\mathrm{Exp}(1)$, "
    r"random sign",
    condition="on the state the run starts from (one sample size's members pooled; N entries per "
    "statistic): min_j |a_j| - ||w_j|| >= 0 (Assumption 1, which the law implies; exact); the means of "
    "d <w_j|x_i>^2 / ||x_i||^2 (chi^2_1 each) and of d ||w_j^perp||^2 / (d - n) (chi^2_(d-n) / (d - n)) "
    "equal to 1, the fraction of a_j > 0 to 1/2, and |a_j| - ||w_j|| ~ Exp(1) (sqrt(N) x KS distance), "
    "not rejected at familywise level 0.001 over the run's 'tests' (Bonferroni: z <= 3.29, sqrt(N) KS "
    "<= 1.95 for one test)",
    test=lambda **stats: app_b_outside(stats) <= 1,
)


def app_b_statistics(V: np.ndarray, a: np.ndarray, G: np.ndarray, wperp2: np.ndarray, d: int) -> dict:
    r"""APP_B's quantities on ``M`` initial states in Gram coordinates: ``V`` (M, p, n) the pre-activations
    :math:`v_{ji}=\langle w_j|x_i\rangle`, ``a`` (M, p), ``G`` (n, n) or (M, n, n) the Gram matrices of the
    inputs in :math:`\mathbb R^d`, ``wperp2`` (M, p) the frozen mass :math:`\|w_j^\perp\|^2`.

    With :math:`G=LL^\top` (Cholesky), :math:`z_j=\sqrt dL^{-1}v_j` are the coordinates of
    :math:`\sqrt dw_j` in an orthonormal basis of the data span (:math:`z_{ji}=\sqrt dv_{ji}/c_i` for
    orthogonal inputs :math:`x_i=c_ie_i`). Under the law they are i.i.d. :math:`\mathcal N(0,1)` (squares of
    mean 1, variance 2), :math:`d\|w_j^\perp\|^2\sim\chi^2_{d-n}` (mean :math:`d-n`, variance
    :math:`2(d-n)`), :math:`|a_j|-\|w_j\|` with :math:`\|w_j\|^2=\|z_j\|^2/d+\|w_j^\perp\|^2` is Exp(1)
    and :math:`\mathrm{sign}(a_j)` is uniform. Returns the Assumption-1 margin ``gap``, the z statistics
    ``z_span``, ``z_perp``, ``z_sign`` and ``ks``, :math:`\sqrt N` times the KS distance of
    :math:`|a_j|-\|w_j\|` to Exp(1)."""
    M, p, n = V.shape
    L = np.broadcast_to(np.linalg.cholesky(G), (M, n, n))
    inner = np.empty((M, p))  # ||z_j||^2 = d v_j^T G^-1 v_j, by blocks of members (full samples are GBs)
    for k in range(0, M, 64):
        z = np.linalg.solve(L[k : k + 64], np.swapaxes(V[k : k + 64], 1, 2))
        inner[k : k + 64] = d * np.einsum("bij,bij->bj", z, z)
    excess = np.abs(a) - np.sqrt(inner / d + wperp2)
    if d > n:
        z_perp = (float((d * wperp2).mean()) / (d - n) - 1) / np.sqrt(2 / ((d - n) * wperp2.size))
    else:
        z_perp = 0.0 if not np.any(wperp2) else np.inf  # d = n: no frozen direction, the mass must be 0
    return {
        "gap": float(excess.min()),
        "z_span": float((inner.sum() / V.size - 1) / np.sqrt(2 / V.size)),
        "z_perp": float(z_perp),
        "z_sign": float(((a > 0).mean() - 0.5) / np.sqrt(0.25 / a.size)),
        "ks": float(kstest(excess.ravel(), "expon").statistic * np.sqrt(excess.size)),
    }


def off_ratio(G: np.ndarray) -> float:
    r""":math:`\|X^\top X-D_X\|/\max_i\|x_i\|^2`, worst over a batch of Gram matrices (ORTHOGONAL)."""
    G = np.asarray(G)
    return float(np.max(offdiag_norm(G) / np.einsum("...ii->...i", G).max(axis=-1)))


def a1_gap(a: np.ndarray, wnorm: np.ndarray) -> float:
    r""":math:`\min_j|a_j|-\|w_j\|` over every neuron of every member: ASSUMPTION_1's reading, from the
    second layer ``a`` and the first layer's row norms ``wnorm`` (same shape, ``(p,)`` or ``(B, p)``)."""
    return float((np.abs(a) - wnorm).min())


LAW = Hypothesis(
    "sub-Gaussian initialization",
    wording=r"Section 2, Initialization: $(a_j,w_j)$ i.i.d., centred, rotation invariant, sub-Gaussian "
    r"marginals, norms independent of $d,n,p$ (App. B's law with a half-normal excess: "
    r"$w_j\sim\mathcal N(0,I_d/d)$, $a_j=\pm(\|w_j\|+|g_j|)$, $g_j\sim\mathcal N(0,1)$)",
    condition="on the state the run starts from (N entries per statistic): min_j |a_j| - ||w_j|| >= 0 "
    "(Assumption 1; exact); the means of d <w_j|x_i>^2 / ||x_i||^2 (chi^2_1 each) and of d ||w_j^perp||^2 / "
    "(d - n) equal to 1, the fraction of a_j > 0 to 1/2, and |a_j| - ||w_j|| ~ |N(0, 1)| (sqrt(N) x KS "
    "distance), not rejected at familywise level 0.001 over the run's 'tests' (Bonferroni; App. B init's "
    "test with the excess's law changed)",
    test=lambda **stats: app_b_outside(stats) <= 1,
)
_WIDTH_CONDITION = (
    "p >= required = 4 log({k}n/eps) (1 + (C_aw C_x^+/C_y^+)^2), C_aw = kappa_d / (2 sqrt c), kappa_d = "
    "||a<w|xbar>_+||_psi1 of the run's law, c = 1/6 (Bernstein's constant for that norm): the C_aw with "
    "which the width meets Lemma 5 and Lemma 6 at eps/{m} each (the proof's last line, 'C_aw = (1/x) "
    "||a<w|xbar>||_psi1', leaves the factor unreadable)"
)
WIDTH_T1_LAW = Hypothesis(
    "width of Theorem 1",
    wording=r"$p\ge4\log(\frac{4n}\varepsilon)(1+(C_{a,w}\frac{C_x^+}{C_y^+})^2)$, $C_{a,w}$ depending "
    r"only on the law of $(a,w)$",
    condition=_WIDTH_CONDITION.format(k=4, m=2),
    test=lambda p, required, **_: p >= required,
)
WIDTH_C1_LAW = Hypothesis(
    "width of Corollary 1",
    wording=r"$p\ge4\log(\frac{6n}\varepsilon)(1+(C_{a,w}\frac{C_x^+}{C_y^+})^2)$, $C_{a,w}$ depending "
    r"only on the law of $(a,w)$",
    condition=_WIDTH_CONDITION.format(k=6, m=3) + "; C_x^+/C_y^+ <= 2 on App. B data (norms <= 2, |y| >= 1)",
    test=lambda p, required, **_: p >= required,
)


def law_statistics(model: ShallowReLU, y0, args: dict, G: np.ndarray, wperp2: np.ndarray, d: int) -> dict:
    r""":data:`LAW`'s quantities on an initial state: :func:`app_b_statistics` (Assumption 1's margin and the
    z statistics of the first layer and the signs, from the pre-activations), with ``ks`` the
    :math:`\sqrt N` KS distance of :math:`|a_j|-\|w_j\|` (norms from the model, frozen mass included) to the
    half-normal law."""
    V, a = (to_numpy(x) for x in model.unpack(y0))
    stats = app_b_statistics(V, a, G, wperp2, d)
    excess = np.abs(a) - np.sqrt(to_numpy(model.weight_sqnorm(y0, args)))
    return {**stats, "ks": float(kstest(excess.ravel(), "halfnorm").statistic * np.sqrt(excess.size))}
