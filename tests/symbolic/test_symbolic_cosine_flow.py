"""Closed forms of the reduced directional dynamics and the algebra of min2024 App. C.2."""

from __future__ import annotations

import numpy as np
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.cosine_flow import (
    a,
    angle_solution,
    c0,
    cosine_residual,
    cosine_solution,
    crossing_time,
    d0,
    dc,
    dwell_time,
    eps_threshold,
    lemma11_gap,
    reference_residual,
    t,
)


def test_closed_form_residuals_vanish():
    assert cosine_residual(1) == 0 and cosine_residual(-1) == 0
    assert reference_residual(2) == 0


def test_eps_threshold_needs_eight():
    e = eps_threshold()
    assert e["f_at_printed"] == 2
    assert sp.simplify(e["first"] / e["printed_first"] - sp.Rational(1, 2)) == 0


def test_dwell_and_lemma11_algebra():
    m, mu, n_a, x = sp.symbols("m mu n_a X_min", positive=True)
    assert sp.simplify(dwell_time() - 4 / (m * sp.sqrt(mu) * x * n_a)) == 0
    assert sp.expand(lemma11_gap() - n_a * (1 - mu) * x**2) == 0


@settings(max_examples=25, deadline=None)
@given(
    aa=st.floats(0.1, 3.0),
    mag=st.floats(0.05, 1.5),
    sign=st.sampled_from([-1.0, 1.0]),
    frac=st.floats(0.05, 0.95),
)
def test_planar_form_matches_cosine_form_and_crossing_time(aa, mag, sign, frac):
    """cos(delta(t)) = tanh(a t + artanh cos delta0), and delta(t_c) = delta_c."""
    phi0 = sign * mag
    ang = sp.lambdify((t, a, d0), angle_solution())
    cosf = sp.lambdify((t, a, c0), cosine_solution())
    ts = np.linspace(0.0, 2.0, 9)
    assert np.allclose(np.cos(ang(ts, aa, phi0)), cosf(ts, aa, np.cos(phi0)), atol=1e-12)
    target = frac * phi0
    tc = float(crossing_time().subs({a: aa, d0: phi0, dc: target}))
    assert abs(ang(tc, aa, phi0) - target) <= 1e-12
