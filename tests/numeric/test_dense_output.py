"""Dense output of DOPRI5 (4th order) and DOP853 (7th order): order, ends, SciPy, validation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import DOP853 as SciPyDOP853
from scipy.integrate import RK45

from numeric.engine.integrators import DOP853, DOPRI5, ButcherTableau
from numeric.engine.integrators.dense import dense_eval, dense_polynomial
from numeric.engine.integrators.methods import rk_stages
from numeric.engine.integrators.tableau import DenseOutput

DENSE_METHODS = [DOPRI5, DOP853]
THETAS = np.linspace(0.05, 0.95, 19)


def exact(t):
    """A non-autonomous, nonlinear 2-D problem whose exact solution is ``z(t)``: every
    elementary differential is generic, so all order conditions of the interpolant matter."""
    t = np.asarray(t, dtype=np.float64)
    return np.stack([np.sin(t), np.cos(2 * t) * np.exp(-t / 3)], axis=-1)


def exact_dot(t):
    return np.stack([np.cos(t), (-2 * np.sin(2 * t) - np.cos(2 * t) / 3) * np.exp(-t / 3)], axis=-1)


def _g(y):
    return np.stack([y[..., 0] * y[..., 1], np.sin(y[..., 0]) + y[..., 1] ** 2], axis=-1)


def field(t, y, args):
    """``z'(t) + g(y) - g(z(t))``: ``y = z`` solves it."""
    return exact_dot(t) + _g(y) - _g(exact(t))


def one_step(method: ButcherTableau, t0: float, h: float, y0: np.ndarray):
    t = np.array([t0])
    dt = np.array([h])
    y1, _, _, K = rk_stages(field, method, t, y0, dt, {})
    return y1, dense_polynomial(field, method, t, y0, dt, K, {})


@pytest.mark.parametrize("method", DENSE_METHODS, ids=lambda m: m.name)
def test_interpolation_error_has_the_declared_order(method: ButcherTableau):
    """One step from the exact ``y(t0)``: ``max_theta |u(theta) - y(t0 + theta h)| = O(h^{p*+1})``.

    Window of the fit: ``h = 2^{-k/2}`` from 1/4 down (at h = 1/2 -> 1/4 DOP853's local slope is
    still 7.2: pre-asymptotic), keeping errors above 1e-13 (the weights ``W`` are float64 sums of
    coefficients up to ~530 in size, rounded to ~1e-13, and the error floor is that times
    ``|h f| <= 1``). The step's own local error is of higher order and does not change the slope."""
    t0 = 0.3
    y0 = exact(t0)[None]
    log_h, log_e = [], []
    for k in range(4, 20):
        h = 2.0 ** (-k / 2)
        _, Q = one_step(method, t0, h, y0)
        err = max(
            float(np.max(np.abs(dense_eval(y0, Q, np.array([th]))[0] - exact(t0 + th * h)))) for th in THETAS
        )
        if err < 1e-13:
            break
        log_h.append(math.log2(h))
        log_e.append(math.log2(err))
    assert len(log_h) >= 4
    slope = float(np.polyfit(log_h, log_e, 1)[0])
    assert abs(slope - (method.dense.order + 1)) < 0.3, f"{method.name}: local order {slope:.2f}"


@pytest.mark.parametrize("method", DENSE_METHODS, ids=lambda m: m.name)
def test_interpolant_hits_both_ends(method: ButcherTableau):
    y0 = exact(0.1)[None]
    y1, Q = one_step(method, 0.1, 0.25, y0)
    np.testing.assert_array_equal(dense_eval(y0, Q, np.zeros(1)), y0)
    # at theta = 1 the weights sum to b up to the rounding of the float coefficients (~1e-13 for DOP853)
    np.testing.assert_allclose(dense_eval(y0, Q, np.ones(1)), y1, rtol=0, atol=1e-13)


@pytest.mark.parametrize(
    ("ours", "theirs"), [(DOPRI5, RK45), (DOP853, SciPyDOP853)], ids=["dopri5", "dop853"]
)
def test_same_interpolant_as_scipy(ours: ButcherTableau, theirs):
    """The same step as SciPy's solver (its first step, length h) gives the same interpolant:
    both are Hairer's / Shampine's formulas, so they agree to rounding."""

    def f1(t, y):
        return field(np.array([t]), y[None], {})[0]

    t0, y0 = 0.2, exact(0.2) + np.array([0.01, -0.02])
    sol = theirs(f1, t0, y0, 10.0, rtol=1e-5, atol=1e-8, first_step=0.4)
    sol.step()
    h = sol.t - t0
    _, Q = one_step(ours, t0, h, y0[None])
    ref = sol.dense_output()(t0 + THETAS * h).T
    got = np.array([dense_eval(y0[None], Q, np.array([th]))[0] for th in THETAS])
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-13)


def test_dense_is_per_member():
    """Members with different steps: each row equals that member's own one-member interpolant."""
    y0 = np.stack([exact(0.0), exact(0.5), exact(1.0)])
    t = np.array([0.0, 0.5, 1.0])
    dt = np.array([0.1, 0.3, 0.05])
    theta = np.array([0.2, 0.7, 0.9])
    for method in DENSE_METHODS:
        _, _, _, K = rk_stages(field, method, t, y0, dt, {})
        u = dense_eval(y0, dense_polynomial(field, method, t, y0, dt, K, {}), theta)
        for i in range(3):
            _, Qi = one_step(method, t[i], dt[i], y0[i : i + 1])
            np.testing.assert_allclose(u[i], dense_eval(y0[i : i + 1], Qi, theta[i : i + 1])[0], atol=1e-15)


def test_dense_validation():
    good = dict(
        name="t",
        c=(0, 1),
        a=((), (1,)),
        b=(0.5, 0.5),
        order=2,
        b_error=(-0.5, 0.5),
        error_order=1,
        fsal=False,
    )
    with pytest.raises(ValueError, match="FSAL"):
        ButcherTableau(**good, dense=DenseOutput(d=(), order=2))
    fsal = dict(name="t", c=(0, 1), a=((), (1,)), b=(1, 0), order=1, fsal=True)
    ButcherTableau(**fsal, dense=DenseOutput(d=(), order=1))  # Hermite part only: fine
    with pytest.raises(ValueError, match="entries"):
        ButcherTableau(**fsal, dense=DenseOutput(d=((1.0,),), order=1))
    with pytest.raises(ValueError, match="row sum"):
        ButcherTableau(**fsal, dense=DenseOutput(d=(), order=1, c_extra=(0.5,), a_extra=((0.1, 0.1),)))
    with pytest.raises(ValueError, match="no dense output"):
        y = np.zeros((1, 2))
        dense_polynomial(field, ButcherTableau(**good), np.zeros(1), y, np.ones(1), np.zeros((2, 1, 2)), {})
