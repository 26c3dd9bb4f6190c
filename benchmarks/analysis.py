"""Fits used by the reports: log-log exponents and work-precision interpolation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def loglog_fit(x: Sequence[float], y: Sequence[float]) -> dict:
    """Least-squares fit ``log y = k log x + c``: exponent ``k``, prefactor ``e^c``, ``r2``.

    Needs at least two distinct positive ``x``; with exactly two the fit is exact.
    """
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    if lx.size < 2 or np.ptp(lx) == 0:
        return {"exponent": float("nan"), "prefactor": float("nan"), "r2": float("nan")}
    k, c = np.polyfit(lx, ly, 1)
    resid = ly - (k * lx + c)
    ss = float(((ly - ly.mean()) ** 2).sum())
    r2 = 1.0 - float((resid**2).sum()) / ss if ss > 0 else 1.0
    return {"exponent": float(k), "prefactor": float(np.exp(c)), "r2": r2}


def pareto_front(errors: Sequence[float], seconds: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """The work-precision points no other point beats in both error and time, by error.

    Achieved error need not fall with the tolerance (on the ReLU flows a tighter rtol
    can place a step differently around an activation-surface crossing and end slightly
    less accurate), so the time a method *needs* for an error is read on this front:
    a dominated point is a run that a cheaper run already out-did. Along the front the
    time falls strictly as the error grows.
    """
    e = np.asarray(errors, float)
    t = np.asarray(seconds, float)
    ok = np.isfinite(e) & np.isfinite(t) & (e > 0) & (t > 0)
    e, t = e[ok], t[ok]
    order = np.lexsort((t, e))
    keep: list[int] = []
    for i in order:
        if not keep or t[i] < t[keep[-1]]:
            keep.append(i)
    return e[keep], t[keep]


def time_at_error(errors: Sequence[float], seconds: Sequence[float], target: float) -> float:
    """Time a method needs for achieved error ``target``, interpolated log-log on its
    work-precision front (:func:`pareto_front`); NaN when ``target`` lies outside the
    front's error range (no extrapolation)."""
    e, t = pareto_front(errors, seconds)
    if e.size < 2 or not (e.min() <= target <= e.max()):
        return float("nan")
    return float(np.exp(np.interp(np.log(target), np.log(e), np.log(t))))


def front_range(errors: Sequence[float], seconds: Sequence[float]) -> tuple[float, float]:
    """``(min, max)`` error of the work-precision front (NaNs when it has no point)."""
    e, _ = pareto_front(errors, seconds)
    return (float(e.min()), float(e.max())) if e.size else (float("nan"), float("nan"))


def matched_error_levels(ranges: Sequence[tuple[float, float]], per_decade: int = 1) -> list[float]:
    """Error levels ``10^k`` (``per_decade`` per decade) inside every ``(min, max)`` range."""
    lo = max(r[0] for r in ranges)
    hi = min(r[1] for r in ranges)
    if not (lo > 0 and hi >= lo):
        return []
    ks = np.arange(np.ceil(np.log10(lo) * per_decade), np.floor(np.log10(hi) * per_decade) + 1)
    return [float(10 ** (k / per_decade)) for k in ks]
