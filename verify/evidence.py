r"""How much a check's PASS is worth: margin, slack, resolution and power.

Every check records, beside its outcome,

* **margin** -- how far the measurement is from its tolerance, as a fraction of the
  tolerance: :math:`1` is exact agreement, :math:`0` the edge, :math:`<0` a violation;
* **slack** -- how many times the statement could be off and still pass here
  (tolerance / deviation for an equality, bound / measurement for an inequality);
* **resolution** -- the smallest violation of the statement the check would catch, in words;
* **power** -- for a probability, the violation it rejects with 80% power at its sample size.

A bound that holds with :math:`10^4` to spare cannot tell the paper's constant from one
:math:`10^4` times smaller: the report shows that number next to the PASS.

Probability checks are exact binomial tests. The statement ":math:`P\ge p_0`" is rejected
when the Clopper--Pearson upper confidence limit of :math:`k/n` is below :math:`p_0`; its
power against a true :math:`P=p_1<p_0` is :math:`\Pr_{K\sim\mathrm{Bin}(n,p_1)}[K\le k^*]`
with :math:`k^*` the largest count that is rejected.

Fitted orders carry a confidence interval of the slope (least squares on log-log axes,
Student-t with :math:`m-2` degrees of freedom); the claimed order is separated from its
neighbours only when that interval excludes them; :func:`slope_shift` bounds how far bounded
relative errors of the measurements (a solver's floor, a neglected correction) can move the slope.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.stats import binom
from scipy.stats import t as student_t

from numeric.measures.statistics import clopper_pearson

POWER = 0.8  # the power every probability check must have against its declared violation


@dataclass(frozen=True)
class Evidence:
    """What a check's outcome is worth (see the module docstring)."""

    margin: float | None = None
    slack: float | None = None
    resolution: str = ""
    power: str | None = None


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def of_close(deviation: float, tol: float, scale: float) -> Evidence:
    """Equality within ``tol``; ``scale`` is the size of the expected value (0 for a residual)."""
    if not math.isfinite(deviation):
        return Evidence(resolution="non-finite measurement")
    margin = (1.0 - deviation / tol) if tol > 0 else (None if deviation == 0 else -1.0)
    slack = tol / deviation if deviation > 0 else None
    if tol == 0:
        resolution = "any deviation (exact equality)"
    elif scale > 0:
        resolution = f"a deviation > {tol:.3g} ({tol / scale:.3g} relative to the expected value)"
    else:
        resolution = f"a deviation > {tol:.3g} from 0"
    return Evidence(_finite(margin) if margin is not None else None, slack, resolution)


def of_bound(measured: np.ndarray, bound: np.ndarray, side: str) -> Evidence:
    """``measured <= bound`` (or ``>=``), element-wise: the worst margin and the smallest ratio."""
    m, b = np.asarray(measured, float).ravel(), np.asarray(bound, float).ravel()
    if m.size == 0:
        return Evidence(resolution="no element to compare")
    gap = (b - m) if side == "<=" else (m - b)
    with np.errstate(divide="ignore", invalid="ignore"):
        margins = gap / np.abs(b)
        ratio = (b / m) if side == "<=" else (m / b)
    margins = margins[np.isfinite(margins)]
    margin = float(margins.min()) if margins.size else None
    same_sign = (m > 0) & (b > 0)
    ratios = ratio[same_sign & np.isfinite(ratio)]
    slack = float(ratios.min()) if ratios.size and ratios.size == m.size else None
    if slack is not None and slack >= 1:
        resolution = (
            f"a violation of the bound; the bound holds here with a factor {slack:.3g} to spare, so "
            f"an error in its constant by a factor < {slack:.3g} would go unnoticed"
        )
    else:
        resolution = "a violation of the bound"
    return Evidence(margin, slack, resolution)


def of_zero() -> Evidence:
    return Evidence(margin=1.0, resolution="any nonzero residual (exact arithmetic)")


# -- probabilities ---------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _intervals(n: int, conf: float) -> tuple[np.ndarray, np.ndarray]:
    """Clopper-Pearson intervals of every count 0..n: they do not depend on the bound tested, so a
    power curve (dozens of bisection steps) computes them once."""
    lo, hi = clopper_pearson(np.arange(n + 1), n, conf)
    lo.setflags(write=False)
    hi.setflags(write=False)
    return lo, hi


def rejected_counts(n: int, p0: float, conf: float, side: str) -> int:
    """For ``P >= p0``: the largest count k whose upper confidence limit is < p0 (-1: none).

    For ``P <= p0`` (side ``"<="``): the smallest count k whose lower limit is > p0 (n+1: none).
    """
    k = np.arange(n + 1)
    lo, hi = _intervals(int(n), float(conf))
    if side == ">=":
        rej = k[hi < p0]
        return int(rej.max()) if rej.size else -1
    rej = k[lo > p0]
    return int(rej.min()) if rej.size else n + 1


def power(n: int, p0: float, p1: float, conf: float, side: str) -> float:
    """Probability that the test of ``P side p0`` at ``n`` trials rejects when the truth is ``p1``.

    ``side`` ``"=="``: the two-sided test of ``P = p0`` (rejected when ``p0`` is outside the interval),
    whose rejection regions are the two one-sided ones, disjoint, so their powers add."""
    if side == "==":
        return power(n, p0, p1, conf, ">=") + power(n, p0, p1, conf, "<=")
    k = rejected_counts(n, p0, conf, side)
    if side == ">=":
        return float(binom.cdf(k, n, p1)) if k >= 0 else 0.0
    return float(binom.sf(k - 1, n, p1)) if k <= n else 0.0


def detectable(n: int, p0: float, conf: float, side: str) -> float | None:
    """The violation rejected with 80% power: the largest ``p1 < p0`` (``>=``) or smallest ``p1 > p0``."""
    far = 0.0 if side == ">=" else 1.0
    if power(n, p0, far, conf, side) < POWER:
        return None
    near = p0
    for _ in range(60):  # bisection on the monotone power curve
        mid = (near + far) / 2
        if power(n, p0, mid, conf, side) >= POWER:
            far = mid
        else:
            near = mid
    return far


def trials_needed(p0: float, p1: float, conf: float, side: str, start: int = 8) -> int:
    """The smallest power of two (times ``start``) of trials with 80% power against ``p1``."""
    n = start
    while power(n, p0, p1, conf, side) < POWER and n < 2**24:
        n *= 2
    return n


# -- fitted orders ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OrderFit:
    slope: float
    intercept: float
    lo: float
    hi: float
    points: int


def fit_order(x: np.ndarray, y: np.ndarray, conf: float = 0.95) -> OrderFit:
    """Least-squares slope of log y against log x with its ``conf`` interval (Student t)."""
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    m = lx.size
    slope, intercept = np.polyfit(lx, ly, 1)
    if m <= 2:
        return OrderFit(float(slope), float(intercept), -math.inf, math.inf, m)
    resid = ly - (slope * lx + intercept)
    sxx = float(np.sum((lx - lx.mean()) ** 2))
    se = math.sqrt(float(np.sum(resid**2)) / (m - 2) / sxx)
    half = float(student_t.ppf(0.5 + conf / 2, m - 2)) * se
    return OrderFit(float(slope), float(intercept), float(slope - half), float(slope + half), m)


def slope_weights(x: np.ndarray) -> np.ndarray:
    r"""The least-squares slope of :math:`\ln y` on :math:`\ln x` is :math:`\sum_iw_i\ln y_i` with
    :math:`w_i=(\ln x_i-\overline{\ln x})/\sum_j(\ln x_j-\overline{\ln x})^2`; returns ``w``."""
    lx = np.log(np.asarray(x, float))
    d = lx - lx.mean()
    return d / float(np.sum(d**2))


def slope_shift(x: np.ndarray, rel_err: np.ndarray | float) -> float:
    r"""The largest change of the least-squares slope of :math:`\ln y` on :math:`\ln x` (:func:`fit_order`)
    when each :math:`y_i` carries a relative error :math:`|e_i|\le r_i` (``rel_err``, per point or one
    bound): :math:`\sum_i|w_i|\,(-\ln(1-r_i))` (:func:`slope_weights`), since
    :math:`|\ln(1+e)|\le-\ln(1-r)` for :math:`|e|\le r<1`; attained to first order in :math:`r` at
    :math:`e_i=\pm r_i` by the sign of :math:`w_i`.  :math:`\infty` when some :math:`r_i\ge1` (the sign
    of :math:`y_i` is then unknown).  About :math:`3r/\ln100` for one bound over two decades of a log grid."""
    r = np.broadcast_to(np.asarray(rel_err, float), np.shape(x))
    if np.any(r >= 1):
        return math.inf
    return float(np.sum(np.abs(slope_weights(x)) * -np.log1p(-r)))
