"""Theorem 8 and relatives (symbolic.reductions): exact zeros and nonzero controls."""

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic import reductions as red
from symbolic.activations import ALPHA
from symbolic.exact import all_zero

R = sp.Rational


def test_reduced_dynamics_exact_zero_polynomial_in_alpha():
    d1, d2 = red.reduced_dynamics_difference()
    assert d1.shape == (3, 2) and d2.shape == (1, 3)
    assert all_zero(d1, d2)


def test_reduced_dynamics_unbalanced_control_nonzero():
    d1, d2 = red.reduced_dynamics_difference(W2=red.UNBALANCED_W2)
    assert not all_zero(d1, d2)
    # the mismatch is a nonzero polynomial in alpha vanishing at alpha = 1 (linear net)
    assert all_zero(d1.subs(ALPHA, 1), d2.subs(ALPHA, 1))


def test_reduced_dynamics_non_symmetric_control_nonzero():
    assert not all_zero(*red.reduced_dynamics_difference(symmetric=False))


pythagorean = st.tuples(st.integers(2, 4), st.integers(1, 3)).filter(lambda mn: mn[0] > mn[1])


@settings(max_examples=6, deadline=None, database=None)
@given(
    mn=pythagorean,
    k=st.fractions(min_value=-2, max_value=2, max_denominator=4).map(sp.Rational),
    pts=st.lists(
        st.fractions(min_value=-3, max_value=3, max_denominator=3).map(sp.Rational), min_size=4, max_size=4
    ),
    labels=st.lists(st.integers(-3, 3), min_size=2, max_size=2),
)
def test_reduced_dynamics_random_balanced_instances(mn, k, pts, labels):
    """Balanced W2 = (m^2-n^2, 2mn, -(m^2+n^2)) with m > n (so ||W2^+|| = ||W2^-||),
    rational unit r, random symmetric data."""
    m, n = mn
    r = ((1 - k**2) / (1 + k**2), 2 * k / (1 + k**2))
    X0 = (pts[:2], pts[2:])
    if any(r[0] * x[0] + r[1] * x[1] == 0 for x in X0):
        return  # a point on the activation hyperplane (catalog P10): excluded
    W2 = (m**2 - n**2, 2 * m * n, -(m**2 + n**2))
    assert all_zero(*red.reduced_dynamics_difference(W2=W2, r=r, X0=X0, y0=labels))


def test_scaling_40_maps_linear_to_reduced():
    assert all_zero(*red.scaling_difference())
    assert all_zero(*red.scaling_difference(regularised=True))


def test_balancedness_41():
    for kind in ("reduced", "linear"):
        out = red.balancedness_derivative(kind)
        assert all_zero(out["derivative"], out["residual"])
    out = red.balancedness_derivative("regularised")
    assert not all_zero(out["derivative"])
    assert all_zero(out["residual"])


def test_regulariser_factor_p9():
    out = red.regulariser_factor_residual()
    assert not all_zero(out["printed"])
    assert all_zero(out["corrected"])


def test_logistic_reduced_exact_zero():
    assert all_zero(*red.logistic_reduced_difference())


def test_logistic_reduced_controls_nonzero():
    assert not all_zero(*red.logistic_reduced_difference(W2=red.UNBALANCED_W2, alpha=0))
    assert not all_zero(*red.logistic_reduced_difference(symmetric=False, alpha=0))


def test_logistic_printed_loss_has_opposite_force():
    out = red.logistic_printed_sign_mismatch()
    y, f = sp.symbols("y f", real=True)
    assert sp.simplify(out["ratio"] + sp.exp(y * f)) == 0
    assert out["ratio"].is_negative


def test_prop18_block_reduction_exact():
    out = red.prop18_block_reduction()
    assert all_zero(*out["eq48"]) and all_zero(*out["eq52_54"])


def test_prop18_invariance_does_not_depend_on_alpha():
    out = red.prop18_block_reduction(alpha=ALPHA)
    assert all_zero(*out["eq48"]) and all_zero(*out["eq52_54"])


def test_prop18_kink_one_breaks_block_form():
    out = red.prop18_block_reduction(kink=1)
    assert not all_zero(*out["eq48"])
    assert not all_zero(*out["eq52_54"])
