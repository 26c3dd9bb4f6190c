"""Closed forms (symbolic.closed_forms) and their numeric callables."""

import mpmath
import numpy as np
import pytest
import sympy as sp

from symbolic import closed_forms as cf
from symbolic.exact import all_zero


def test_corollary9_ode_residual_below_1e40():
    assert cf.corollary9_ode_residual(dps=50, n_points=8) < mpmath.mpf("1e-40")


def test_corollary9_ode_residual_detects_wrong_formula(monkeypatch):
    """Control: a 10% error in w_init's exponent weight breaks the ODE."""
    original = cf.corollary9_coefficients

    def broken(t, s, c, w_init):
        A, B = original(t, s, c, w_init)
        return A * (1 + t / 10), B

    cf._corollary9_ode_residual_function.cache_clear()
    monkeypatch.setattr(cf, "corollary9_coefficients", broken)
    try:
        assert cf.corollary9_ode_residual(n_points=3) > mpmath.mpf("1e-3")
    finally:
        monkeypatch.undo()
        cf._corollary9_ode_residual_function.cache_clear()


def test_corollary9_limits():
    assert all(v == 0 for v in cf.corollary9_limits().values())


def test_corollary9_vector_form_initial_value_exact():
    beta, r, w0 = sp.Matrix([3, 4]), sp.Matrix([sp.Rational(5, 13), sp.Rational(12, 13)]), 2
    w = cf.corollary9_w(0, beta, r, w0)
    assert all_zero((w - w0**2 * r).applyfunc(sp.simplify))


@pytest.mark.parametrize("D", [2, 3, 5])
def test_corollary9_callable_matches_symbolic(D):
    rng = np.random.default_rng(D)
    beta = rng.normal(size=D)
    r = rng.normal(size=D)
    r /= np.linalg.norm(r)
    t = np.array([0.0, 0.3, 1.7, 6.0])
    got = cf.corollary9_callable()(t, beta, r, 0.05)
    assert got.shape == (4, D)
    ref = np.array(
        [
            [float(v) for v in cf.corollary9_w(sp.Float(ti, 30), sp.Matrix(beta), sp.Matrix(r), 0.05)]
            for ti in t
        ]
    )
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(got[0], 0.05**2 * r, rtol=1e-12)
    np.testing.assert_allclose(cf.corollary9_callable()([60.0], beta, r, 0.05)[0], beta, rtol=1e-9)


def test_early_phase_solution_solves_29():
    out = cf.early_phase_residual()
    assert all_zero(out["ode"], out["initial"])


@pytest.mark.parametrize("D", [2, 3])
def test_M_eigenstructure(D):
    out = cf.M_eigenstructure(D)
    assert all_zero(out["plus"], out["minus"], *out["null"])
    assert out["unit"] == [0, 0]
    assert out["null_rank"] == D - 1
    assert out["charpoly"] == 0


def test_early_phase_callable_matches_symbolic():
    beta, W1, W2 = [1.0, -2.0], [[0.3, 0.1], [-0.2, 0.5], [0.7, 0.0]], [0.4, -0.1, 0.2]
    t = np.array([0.0, 0.5, 2.0])
    got = cf.early_phase_callable()(t, beta, W1, W2, 0.3, 1.5)
    assert got.shape == (3, 3, 3)
    np.testing.assert_allclose(got[0], np.vstack([np.array(W1).T, W2]), atol=1e-15)
    for k, tk in enumerate(t):
        ref = cf.early_phase_solution(sp.Float(tk, 30), beta, W1, W2, sp.Float(0.3, 30), 1.5)
        np.testing.assert_allclose(got[k], np.array(ref.evalf(20), dtype=float), rtol=1e-12)


def test_bernoulli_closed_form():
    assert all(v == 0 for v in cf.bernoulli_residuals().values())


def test_bernoulli_fixed_points_and_stability():
    out = cf.bernoulli_fixed_points()
    b, P, tau = sp.Symbol("b", positive=True), sp.Symbol("P", positive=True), sp.Symbol("tau", positive=True)
    assert out["fixed_points"] == [0, sp.sqrt(P) * sp.sqrt(b)]
    assert out["slopes"][0].is_positive and out["slopes"][1].is_negative
    assert sp.simplify(out["slopes"][1] + 2 * b / tau) == 0


def test_bernoulli_callable_limits_and_midpoint():
    u = cf.bernoulli_callable()
    t = np.array([0.0, 1.0, 200.0])
    vals = u(t, 0.5, 4.0, 1e-3, 0.0, 1.0)
    assert vals[0] == pytest.approx(1e-3)
    assert vals[-1] == pytest.approx(np.sqrt(4.0 * 0.5))
    # explicit Euler with tiny steps agrees with the closed form at t = 1
    x, h = 1e-3, 1e-5
    for _ in range(100_000):
        x += h * x * (0.5 - x**2 / 4.0)
    assert vals[1] == pytest.approx(x, rel=1e-4)


@pytest.mark.parametrize("L", [2, 3, 6])
def test_deep_reduced_equivalence(L):
    out = cf.deep_reduced_equivalence_residual(L)
    assert out["scalar"] == 0
    assert all_zero(out["vector"])
