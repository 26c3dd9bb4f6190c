r"""Exact failure probabilities of the initialization events of kou2023 Lemmas A.1 and A.2, and the
searches over :math:`(n, m, d, \delta)` inside the lemmas' hypotheses that use them.

Both lemmas quantify over the sizes and :math:`\delta` (every :math:`(n,m,d,\delta)` satisfying the
hypotheses) and over the data (every data set with :math:`\|x_i\|\le R_{\max}`); the probability is over
the initialization :math:`w^{(0)}_{j,r}\sim N(0,\sigma_0^2I_d)` (:math:`\sigma_0=1`: both events are
scale-free). A Monte Carlo check covers one point of that region; here the law is integrated exactly, so a
search can visit the whole region without sampling error.

**Lemma A.1.** The norm event fails with probability
:math:`P_{\mathrm{norm}}=1-(1-q_d)^{2m}`, :math:`q_d=P(\chi^2_d<d/2)+P(\chi^2_d>3d/2)` (the :math:`2m`
rows are independent; exact for every data set). The inner-product event: per row,
:math:`Z_i=\langle w,x_i\rangle` is a centred Gaussian vector with :math:`\mathrm{Var}Z_i=\|x_i\|^2\le
R_{\max}^2`, so by Sidak's inequality :math:`P(\max_i|Z_i|\le tR_{\max})\ge\prod_iP(|Z_i|\le tR_{\max})\ge
(1-2\bar\Phi(t))^n`, with equality for orthogonal data of equal norms :math:`R_{\max}` (independent
projections): :math:`P_{\mathrm{inner}}\le1-(1-2\bar\Phi(t))^{2mn}`, :math:`t=\sqrt{2\log(8mn/\delta)}`,
for every data set. The union bound gives :math:`P_{\mathrm{fail}}\le P_{\mathrm{norm}}+P_{\mathrm{inner}}`
(and :math:`\ge\max` of the two on orthogonal equal-norm data, so the sum is within a factor 2 of the
worst data's failure probability).

**Lemma A.2.** :math:`|S_i^{(0)}|=\sum_r\mathbb 1[\langle w_{y_i,r},x_i\rangle>0]\sim\mathrm{Bin}(m,1/2)`
for every data set (the :math:`m` rows are independent and each projection is a centred Gaussian), so
:math:`q_m=P(|S_i|\notin[0.4m,0.6m])` is exact and :math:`P_{\mathrm{fail}}\le\min(1,nq_m)` for every data
set (union bound; :math:`1-(1-q_m)^n` on orthogonal data, where the :math:`S_i` are independent).

The violation ratio of an instance is (upper bound on :math:`P_{\mathrm{fail}}`) / :math:`\delta`: it exceeds
1 whenever the lemma fails at that point for some data set, and it is at most 1 wherever the bound the
lemma states holds for all data.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import binom, chi2, norm

from verify.search import squash

LOG10_DELTA_MIN = -9.0  # delta in [1e-9, 1)
LOG10_N_MAX = 3.0  # n in [1, 1000]
LOG10_M_SPAN = 3.0  # m from its least admissible value up to 1000 times it
D_SPAN = 2.0  # d from its least admissible value up to 10^2 times it
A1_DIM_CONST = (2 + 2 * np.sqrt(2)) ** 2  # A1_DIM: d >= C log(8m/delta)


def _union(q: np.ndarray | float, k: float) -> float:
    """:math:`1-(1-q)^k` without cancellation."""
    return float(-np.expm1(k * np.log1p(-min(float(q), 1.0 - 1e-300))))


def a1_failure(n: int, m: int, d: int, delta: float, *, band: tuple[float, float] = (0.5, 1.5)) -> dict:
    r"""Lemma A.1's failure probabilities at :math:`(n,m,d,\delta)` (module docstring): ``norm``, ``inner``
    (the worst data set's), ``upper`` (their sum) and ``lower`` (their max). ``band`` is the norm band in
    units of :math:`\sigma_0^2d`."""
    q = chi2.cdf(band[0] * d, d) + chi2.sf(band[1] * d, d)
    t = np.sqrt(2 * np.log(8 * m * n / delta))
    p_norm = _union(q, 2 * m)
    p_inner = _union(2 * norm.sf(t), 2 * m * n)
    return {"norm": p_norm, "inner": p_inner, "upper": p_norm + p_inner, "lower": max(p_norm, p_inner)}


def a2_failure(n: int, m: int, *, band: tuple[float, float] = (0.4, 0.6)) -> dict:
    r"""Lemma A.2's failure probability at :math:`(n,m)`: ``single`` :math:`q_m` (one example, exact for
    any data), ``orthogonal`` :math:`1-(1-q_m)^n` and ``upper`` :math:`\min(1,nq_m)` (any data)."""
    lo = int(np.ceil(band[0] * m - 1e-9))  # the band's integer ends (0.4 m is exact for m = 5k)
    hi = int(np.floor(band[1] * m + 1e-9))
    q = float(binom.cdf(lo - 1, m, 0.5) + binom.sf(hi, m, 0.5))
    return {"single": q, "orthogonal": _union(q, n), "upper": min(1.0, n * q)}


def a1_point(theta: np.ndarray, *, dim_const: float = A1_DIM_CONST) -> tuple[int, int, int, float]:
    r"""The :math:`(n,m,d,\delta)` a search parameter ``theta`` (4 entries) describes, inside the
    hypotheses: :math:`\delta=10^{-9\,\mathrm{sigmoid}(\theta_0)}`, :math:`n=\lfloor10^{3\,\mathrm{sigmoid}
    (\theta_1)}\rceil`, :math:`m\ge\max(1,\lceil\log(1/\delta)\rceil)` (the :math:`\Omega(\log(1/\delta))`
    with constant 1), :math:`d\ge` ``dim_const`` :math:`\log(8m/\delta)` (:data:`A1_DIM`'s instantiation of
    :math:`d=\Omega(\log(mn/\delta))`)."""
    delta = 10 ** (LOG10_DELTA_MIN * squash(theta[0]))
    n = round(10 ** (LOG10_N_MAX * squash(theta[1])))
    m_min = max(1, int(np.ceil(np.log(1 / delta))))
    m = round(m_min * 10 ** (LOG10_M_SPAN * squash(theta[2])))
    d_min = int(np.ceil(dim_const * np.log(8 * m / delta)))
    d = round(d_min * 10 ** (D_SPAN * squash(theta[3])))
    return n, m, d, float(delta)


def a2_point(theta: np.ndarray, *, width_const: float = 50.0) -> tuple[int, int, float]:
    r"""The :math:`(n,m,\delta)` ``theta`` (3 entries) describes: :math:`\delta` and :math:`n` as in
    :func:`a1_point`, :math:`m\ge` ``width_const`` :math:`\log(2n/\delta)` (the lemma's hypothesis)."""
    delta = 10 ** (LOG10_DELTA_MIN * squash(theta[0]))
    n = round(10 ** (LOG10_N_MAX * squash(theta[1])))
    m_min = int(np.ceil(width_const * np.log(2 * n / delta)))
    return n, round(m_min * 10 ** (LOG10_M_SPAN * squash(theta[2]))), float(delta)


def a1_ratio(theta: np.ndarray, *, dim_const: float = A1_DIM_CONST, band=(0.5, 1.5)) -> float:
    """Upper bound on Lemma A.1's failure probability (any data) / delta at the point ``theta``."""
    n, m, d, delta = a1_point(theta, dim_const=dim_const)
    return a1_failure(n, m, d, delta, band=band)["upper"] / delta


def a2_ratio(theta: np.ndarray, *, width_const: float = 50.0, band=(0.4, 0.6)) -> float:
    """Upper bound on Lemma A.2's failure probability (any data) / delta at the point ``theta``."""
    n, m, delta = a2_point(theta, width_const=width_const)
    return a2_failure(n, m, band=band)["upper"] / delta


def starts(k: int) -> dict[str, list[np.ndarray]]:
    """Families of points (``k`` search parameters, in the order of :func:`a1_point` / :func:`a2_point`):
    the sizes at their least admissible values with a large, a moderate and a tiny delta, and a point well
    inside the region (large n, m, d)."""
    edge = [-6.0] * (k - 2)  # m (and d) at their least admissible values
    return {
        "large delta (-> 1), n = 1, least m and d": [np.array([-6.0, -6.0, *edge])],
        "delta ~ 0.03, n ~ 30, least m and d": [np.array([0.0, 0.0, *edge])],
        "tiny delta (~1e-9), n ~ 1000, least m and d": [np.array([6.0, 6.0, *edge])],
        "interior: delta ~ 1e-3, n ~ 100, m and d 30x their least": [np.array([1.0, 1.0] + [0.0] * (k - 2))],
    }
