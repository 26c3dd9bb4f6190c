"""Exact and mpmath reduced alignment dynamics (symbolic.exact_alignment)."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.data.separated_data import separation as separation_f64
from symbolic.exact_alignment import reduced_field, reduced_flow_mp, separation


def _family_f(labels) -> sp.Matrix:
    """Family F with cos(theta) = 3/5, sin(theta) = 4/5, unit radii (mu = 9/25)."""
    c, s = sp.Rational(3, 5), sp.Rational(4, 5)
    X = sp.zeros(len(labels), len(labels) + 1)
    for i, yi in enumerate(labels):
        X[i, 0], X[i, i + 1] = yi * c, yi * s
    return X


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_exact_mu_matches_float64(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(-5, 6, size=(4, 3))
    X[np.all(X == 0, axis=1)] = 1
    y = [1, -1, 1, -1]
    assert (
        abs(float(separation(sp.Matrix(X), y)) - separation_f64(X.astype(float), np.array(y, float))) < 1e-14
    )


def test_family_f_mu_is_cos_squared():
    with mpmath.workdps(50):
        assert (
            abs(separation(_family_f([1, -1, 1, -1]), [1, -1, 1, -1]) - mpmath.mpf(9) / 25)
            < mpmath.mpf(10) ** -45
        )


def test_x_minus_is_an_exact_fixed_point_for_positive_neurons():
    y = [1, -1, 1, -1]
    X = _family_f(y)
    xm = sum((X.row(i).T for i in range(4) if y[i] < 0), sp.zeros(5, 1))
    assert reduced_field(X, y, xm, 1) == sp.zeros(5, 1)
    assert reduced_field(X, y, xm + sp.Matrix([0, 1, 0, 0, 0]) / 10, 1) != sp.zeros(5, 1)


def test_mp_flow_matches_the_fixed_pattern_closed_form():
    # Both points positive and u0 in S+ (active on both): x_a = x1 + x2 is constant (S+ is a trap),
    # so cos(u, x_a) = tanh(|x_a| t + artanh cos(u0, x_a)) (catalog C3).
    X = sp.Matrix([[1, 0], [sp.Rational(3, 5), sp.Rational(4, 5)]])
    xa = np.array([1.6, 0.8])
    u0 = [sp.Rational(4, 5), sp.Rational(3, 5)]
    u = reduced_flow_mp(X, [1, 1], u0, 1, 1.0, 200, 30)
    c0 = (0.8 * xa[0] + 0.6 * xa[1]) / np.linalg.norm(xa)
    c1 = float((u[0] * xa[0] + u[1] * xa[1]) / np.linalg.norm(xa))
    assert abs(c1 - np.tanh(np.linalg.norm(xa) + np.arctanh(c0))) < 1e-9
