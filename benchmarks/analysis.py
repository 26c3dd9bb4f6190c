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


def time_at_error(errors: Sequence[float], seconds: Sequence[float], target: float) -> float:
    """Time a method needs for achieved error ``target``, interpolated log-log on its
    work-precision points; NaN when ``target`` lies outside the measured error range
    (no extrapolation)."""
    e = np.asarray(errors, float)
    t = np.asarray(seconds, float)
    ok = np.isfinite(e) & np.isfinite(t) & (e > 0) & (t > 0)
    e, t = e[ok], t[ok]
    if e.size < 2 or not (e.min() <= target <= e.max()):
        return float("nan")
    order = np.argsort(e)
    return float(np.exp(np.interp(np.log(target), np.log(e[order]), np.log(t[order]))))


def matched_error_levels(ranges: Sequence[tuple[float, float]], per_decade: int = 1) -> list[float]:
    """Error levels ``10^k`` (``per_decade`` per decade) inside every ``(min, max)`` range."""
    lo = max(r[0] for r in ranges)
    hi = min(r[1] for r in ranges)
    if not (lo > 0 and hi >= lo):
        return []
    ks = np.arange(np.ceil(np.log10(lo) * per_decade), np.floor(np.log10(hi) * per_decade) + 1)
    return [float(10 ** (k / per_decade)) for k in ks]
