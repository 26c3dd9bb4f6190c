r"""Tolerance of a fitted order from the next term of the expansion it is the leading term of.

An error :math:`e(x)=c_0x^k(1+\rho x^{q-k}+\dots)` fitted by the least-squares slope of
:math:`\ln e` on :math:`\ln x` (:func:`verify.evidence.fit_order`) reads :math:`k` plus a bias from the
next term: each point carries the relative deviation :math:`r_i=|\rho|x_i^{q-k}` from the pure power
law, and the slope moves by at most :func:`verify.evidence.slope_shift` of those. :math:`\rho` is
fitted from the same points (:math:`e/x^k` is linear in :math:`x^{q-k}`), so the tolerance is twice
that shift: room for the fit of :math:`\rho` itself, with no floor of its own beyond rounding
(:data:`ROUNDING`). A law of another order makes :math:`e/x^k` far from linear,
:math:`\rho x^{q-k}` of order one at the grid's far end, and the tolerance infinite or at least half
the distance to the neighbouring orders, so that ``Context.order`` reads undecided, never a PASS.
"""

from __future__ import annotations

import numpy as np

from verify.evidence import slope_shift

ROUNDING = 16 * np.finfo(float).eps
"""Relative rounding per point: e / x^k, the fit's residual and the log, a few ulps each, with headroom."""


def next_order_tolerance(x: np.ndarray, e: np.ndarray, order: float, next_order: float) -> float:
    r"""``2 * slope_shift(x, |rho| x^(next_order - order))``, :math:`\rho` the least-squares
    coefficient of :math:`e/x^{k}=c_0(1+\rho x^{q-k})` (module docstring)."""
    x, e = np.asarray(x, float), np.asarray(e, float)
    u = x ** (next_order - order)
    slope, c0 = np.polyfit(u, e / x**order, 1)
    return 2 * slope_shift(x, np.abs(slope / c0) * u + ROUNDING)
