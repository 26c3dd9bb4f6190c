r"""Fitted orders in :math:`\delta` with a tolerance derived from the fit (kumar2025's instance searches).

A search instance's order is decided only over deltas in its own asymptotic regime (chosen by the
caller, relative to the instance's scales) and against a tolerance computed from the measurements,
never a constant.  [derived] The least-squares slope over equally spaced :math:`\ln\delta` is a mean,
with positive weights, of the local slopes :math:`s_0,\dots,s_{m-2}` of consecutive deltas, so its bias
from the order :math:`\beta` is at most :math:`\max_j|s_j-\beta|\le\max_j|s_j-s_{m-2}|+|s_{m-2}-\beta|`.
With :math:`e=C\delta^\beta(1+a\delta^\gamma+\dots)`, :math:`\gamma\ge1`, and deltas a factor 2 apart the
local slopes approach :math:`\beta` geometrically with ratio :math:`2^{-\gamma}\le1/2`, so
:math:`|s_{m-2}-\beta|\le|s_{m-3}-s_{m-2}|`.  A measurement floor :math:`\eta_i` (solver error) is a
relative error :math:`\eta_i/e_i` of :math:`e_i`, so it moves the slope by at most
:func:`verify.evidence.slope_shift` of those.  The tolerance is the sum of these two and the fit's 95%
half-interval; a straight line of another order keeps all three near 0, so the check has teeth.
"""

from __future__ import annotations

import numpy as np

from verify import evidence

UNDECIDED_TOL = 0.5  # an order tolerance this wide cannot separate beta from beta -+ 1 (midpoint rule)


def order_tolerance(deltas: np.ndarray, err: np.ndarray, floor: np.ndarray | float = 0.0):
    """``(order, tolerance, parts)`` for ``err`` against ``deltas`` (a factor 2 apart, >= 3 of them),
    ``floor`` the measurement error of each ``err`` (see the module docstring): a solver's floor, or a
    reference path's error. The next-order bound needs >= 2 local slopes (``inf`` otherwise); the
    largest local slope need not be the first: the next-order coefficient can change sign on the range."""
    fit = evidence.fit_order(deltas, err)
    local = np.diff(np.log(err)) / np.diff(np.log(deltas))
    nxt = float(np.abs(local - local[-1]).max() + abs(local[-2] - local[-1])) if local.size > 1 else np.inf
    parts = {
        "interval": (fit.hi - fit.lo) / 2,
        "next order": nxt,
        "floor": evidence.slope_shift(deltas, np.asarray(floor) / err),
    }
    return fit.slope, float(sum(parts.values())), parts


def tolerance_text(parts: dict[str, float], floor: str | None = None) -> str:
    """The derivation of an :func:`order_tolerance` tolerance from its ``parts``, for a check's ``why``;
    ``floor`` names the measurement error of each point when the fit has one."""
    text = (
        f"the fit's 95% half-width ({parts['interval']:.2g}) + the next-order bound from the local slopes "
        f"({parts['next order']:.2g})"
    )
    if floor is None:
        return text
    return f"{text} + the shift by the solves' error ({floor}: {parts['floor']:.2g})"
