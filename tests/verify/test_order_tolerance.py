"""verify.order_tolerance: the fitted order's tolerance from the expansion's next term."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.evidence import fit_order
from verify.order_tolerance import next_order_tolerance

LADDER = np.geomspace(1e-1, 1e-3, 5)


@settings(max_examples=60, deadline=None)
@given(
    k=st.sampled_from([1.0, 2.0]),
    gap=st.sampled_from([1.0, 2.0]),
    rho=st.floats(-50.0, 50.0),
    c0=st.floats(1e-3, 1e3),
)
def test_two_term_law_reads_its_leading_order_within_tolerance(k, gap, rho, c0):
    e = c0 * LADDER**k * (1 + rho * LADDER**gap)
    if np.any(e <= 0):
        return
    tol = next_order_tolerance(LADDER, e, k, k + gap)
    assert abs(fit_order(LADDER, e).slope - k) <= tol


def test_pure_power_law_has_only_rounding_room():
    assert next_order_tolerance(LADDER, 3.0 * LADDER**2, 2, 4) <= 1e-13


def test_a_neighbouring_order_is_not_accepted():
    # an order-1 law read as order 2: e/x^2 = 1/x is far from linear in x^2, so either the tolerance
    # is at least half the distance to the neighbours (Context.order: undecided) or the slope is outside
    e = LADDER**1.0
    tol = next_order_tolerance(LADDER, e, 2, 4)
    assert tol >= 0.5 or abs(fit_order(LADDER, e).slope - 2) > tol
