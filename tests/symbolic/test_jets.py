"""Exact one-sided jets over Q[delta] (symbolic.jets)."""

from __future__ import annotations

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.jets import DELTA, Jet, activation, lowest_degree, matvec, poly, small_sign

HALF = sp.Rational(1, 2)
ints = st.integers(min_value=-5, max_value=5).filter(bool)


def test_lowest_degree_and_sign():
    q = poly(3 * DELTA**2 - 7 * DELTA**5)
    assert lowest_degree(q) == 2 and small_sign(q) == 1
    assert lowest_degree(poly(0)) == float("inf") and small_sign(poly(0)) == 0
    assert small_sign(poly(-(DELTA**3) + DELTA**4)) == -1


@settings(max_examples=30, deadline=None)
@given(ints, ints, st.integers(min_value=2, max_value=5))
def test_activation_matches_the_exact_derivative_away_from_the_kink(c, d, p):
    """For u = c delta + h d: value and h-coefficient equal sigma(c delta) and sigma'(c delta) d."""
    x = sp.Symbol("x")
    m = 1 if c > 0 else HALF
    sigma = (m * x) ** p
    jet = activation(Jet.const(c * DELTA, d), HALF, p)
    assert sp.expand(jet.val.as_expr() - sigma.subs(x, c * DELTA)) == 0
    assert sp.expand(jet.der.as_expr() - d * sp.diff(sigma, x).subs(x, c * DELTA)) == 0


@given(ints, st.integers(min_value=2, max_value=4))
def test_kink_takes_the_branch_of_the_direction(d, p):
    """At u = 0 + h d the one-sided slope of sigma^(p-1) is p! m^p with m the slope of the side of d."""
    jet = activation(Jet.const(0, d), HALF, p, p - 1)
    m = 1 if d > 0 else HALF
    assert jet.val.as_expr() == 0
    assert sp.expand(jet.der.as_expr() - sp.factorial(p) * m**p * d) == 0


def test_matvec_and_product_rule():
    a, b = Jet.const(DELTA, 1), Jet.const(2, 3)
    (out,) = matvec([[a, b]], [b, a])
    assert sp.expand(out.val.as_expr() - 4 * DELTA) == 0
    assert sp.expand(out.der.as_expr() - 2 * (2 + 3 * DELTA)) == 0
