"""Tableaus, the generic RK step and step control.

The order test follows diffrax's ``test_ode_order``: solve ``y' = A y`` against the
matrix exponential with halving fixed steps, stop at the roundoff floor, and fit the
slope of log(error) against log(dt).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import scipy.linalg

from numeric.engine.integrators import (
    ALL_METHODS,
    DOP853,
    DOPRI5,
    EULER,
    RK4,
    AdaptiveStep,
    ButcherTableau,
    FixedStep,
    method_by_name,
    rk_step,
)
from numeric.engine.solve import solve

# a 3x3 matrix with a complex pair of eigenvalues (-0.2 +- ~1.03i) and a real one
A = np.array([[-0.2, 1.0, 0.1], [-1.0, -0.2, 0.3], [0.0, -0.3, -0.5]])
Y0 = np.array([[1.0, -0.5, 0.25]])
T_END = 2.0
ROUNDOFF_FLOOR = 1e-12
ASYMPTOTIC_CEILING = 1e-2  # larger errors: dt is outside the asymptotic regime (Euler at dt = 1/4)


def linear_field(t, y, args):
    return y @ args["A"][0].T


def fit_slope(log_dt: np.ndarray, log_err: np.ndarray) -> float:
    return float(np.polyfit(log_dt, log_err, 1)[0])


def test_matrix_has_complex_eigenvalues():
    assert np.any(np.abs(np.linalg.eigvals(A).imag) > 0.5)


@pytest.mark.parametrize("method", ALL_METHODS, ids=lambda m: m.name)
def test_order_of_accuracy(method: ButcherTableau):
    exact = scipy.linalg.expm(A * T_END) @ Y0[0]
    log_dt, log_err = [], []
    for k in range(0, 11):  # from dt = 1: DOP853 meets the roundoff floor at dt = 1/4
        dt = 2.0**-k
        traj = solve(
            linear_field,
            Y0,
            [0.0, T_END],
            method=method,
            control=FixedStep(dt),
            args={"A": A[None]},
        )
        assert traj.ok.all()
        assert traj.n_steps[0] == round(T_END / dt)
        err = float(np.max(np.abs(traj.final[0] - exact)))
        if err < ROUNDOFF_FLOOR:
            break
        if err > ASYMPTOTIC_CEILING:
            continue
        log_dt.append(math.log2(dt))
        log_err.append(math.log2(err))
    assert len(log_dt) >= 3, f"{method.name}: too few points above the roundoff floor"
    slope = fit_slope(np.array(log_dt), np.array(log_err))
    assert abs(slope - method.order) < 0.2, (
        f"{method.name}: fitted order {slope:.3f}, declared {method.order}"
    )


@pytest.mark.parametrize("method", [m for m in ALL_METHODS if m.embedded], ids=lambda m: m.name)
def test_embedded_error_estimate_order(method: ButcherTableau):
    """One step from the same state with dt = 2^-1 ... 2^-6 (one member per dt): the
    estimate's norm ``||e||`` (the controller's, blended for two estimates) scales as
    ``dt^(error_order + 1)``."""
    dts = 2.0 ** -np.arange(0, 6)
    B = dts.size
    y = np.repeat(Y0, B, axis=0)
    t = np.zeros(B)
    y1, err, _ = rk_step(linear_field, method, t, y, dts, {"A": A[None]})
    assert err is not None
    assert np.all(np.linalg.norm(err, axis=-1) > 1e-15)  # every raw estimate above roundoff
    e = AdaptiveStep(rtol=0.0, atol=1.0).error_norm(y, y1, err)  # blends a second estimate
    slope = fit_slope(np.log2(dts), np.log2(e))
    assert abs(slope - (method.error_order + 1)) < 0.2, (
        f"{method.name}: error estimate slope {slope:.3f}, expected {method.error_order + 1}"
    )


def test_rk_step_is_per_member():
    """A batched step with per-member dt equals the single-member steps."""
    rng = np.random.default_rng(1)
    B = 5
    y = rng.normal(size=(B, 3))
    t = rng.uniform(0, 1, B)
    dt = rng.uniform(0.01, 0.3, B)
    y1, err, k_next = rk_step(linear_field, DOPRI5, t, y, dt, {"A": A[None]})
    for m in range(B):
        y1m, errm, knm = rk_step(
            linear_field, DOPRI5, t[m : m + 1], y[m : m + 1], dt[m : m + 1], {"A": A[None]}
        )
        np.testing.assert_allclose(y1[m], y1m[0], rtol=1e-15, atol=1e-15)
        np.testing.assert_allclose(err[m], errm[0], rtol=0, atol=1e-16)  # a cancellation
        np.testing.assert_allclose(k_next[m], knm[0], rtol=1e-15, atol=1e-15)
    # FSAL: the returned derivative is the field at (t + dt, y1)
    np.testing.assert_allclose(k_next, linear_field(t + dt, y1, {"A": A[None]}), rtol=1e-14, atol=1e-15)
    # a non-FSAL method returns no next derivative and no error estimate
    y1, err, k_next = rk_step(linear_field, RK4, t, y, dt, {"A": A[None]})
    assert err is None and k_next is None


def test_dop853_matches_scipy_dop853():
    """Same method, same error blend: on a smooth nonlinear problem our adaptive DOP853 and
    ``solve_ivp(method="DOP853")`` take nearly the same number of steps (the controllers
    differ only in the initial step and the growth cap: 5 here, 10 in SciPy) and their
    endpoints agree to the tolerance scale."""
    from scipy.integrate import solve_ivp

    def lotka(t, y, args):
        u, v = y[:, 0], y[:, 1]
        return np.stack([u * (1.5 - v), v * (u - 3.0)], axis=1)

    y0 = np.array([[2.0, 1.0]])
    rtol, atol = 1e-9, 1e-12
    traj = solve(lotka, y0, [0.0, 8.0], method=DOP853, control=AdaptiveStep(rtol=rtol, atol=atol))
    ref = solve_ivp(
        lambda t, y: lotka(t, y[None], {})[0], (0.0, 8.0), y0[0], method="DOP853", rtol=rtol, atol=atol
    )
    tight = solve_ivp(
        lambda t, y: lotka(t, y[None], {})[0], (0.0, 8.0), y0[0], method="DOP853", rtol=1e-13, atol=1e-15
    )
    scipy_steps = ref.t.size - 1  # accepted steps
    assert traj.ok.all()
    assert abs(int(traj.n_steps[0]) - scipy_steps) <= max(3, 0.15 * scipy_steps), (
        traj.n_steps[0],
        scipy_steps,
    )
    # both global errors are a small multiple of rtol (|y| ~ 1..5); a wrong coefficient gives O(h^k), k < 8
    err = np.abs(traj.final[0] - tight.y[:, -1]).max()
    assert err < 100 * rtol, err


def test_blended_norm_is_zero_for_zero_estimates():
    ctl = AdaptiveStep(rtol=1e-6, atol=1e-9)
    y = np.ones((2, 3))
    err = np.zeros((2, 2, 3))
    err[1] = 1e-3  # (estimate, member, entry): main estimates 0, auxiliary ones not: the blend is 0
    assert np.array_equal(ctl.error_norm(y, y, err), [0.0, 0.0])
    err[1, 0, 0] = np.nan  # a NaN in either estimate stays NaN (rejected as non-finite)
    assert np.isnan(ctl.error_norm(y, y, err)[0])


def test_tableaus_are_consistent():
    names = [m.name for m in ALL_METHODS]
    assert len(set(names)) == len(names)
    assert DOPRI5.stages == 7 and DOPRI5.fsal and DOPRI5.order == 5 and DOPRI5.error_order == 4
    assert method_by_name("DOPRI5") is DOPRI5
    with pytest.raises(ValueError, match="unknown method"):
        method_by_name("dop54")
    for m in ALL_METHODS:
        assert m.citation
        assert math.isclose(sum(m.b), 1.0, abs_tol=1e-15)
        hash(m)  # frozen and hashable


@pytest.mark.parametrize("method", ALL_METHODS, ids=lambda m: m.name)
def test_stage_windows_are_the_tableau(method: ButcherTableau):
    """Each windowed read of the slot buffer is the dense combination of the tableau, every
    weight-0 slot it covers before that stage exists is zero-filled, and a stale NaN in a
    slot outside the zero-filled ones never reaches a combination before it is overwritten."""
    s = method.stages
    co = method.coefficients(np, np.float64)
    rng = np.random.default_rng(0)
    k = rng.normal(size=(s, 5))  # stage j's derivative, in stage order
    buf = np.empty_like(k)
    buf[list(co.slot)] = k
    a = np.array(method.a)
    dense = [(a[i], co.a_windows[i], i) for i in range(1, s)] + [(np.array(method.b), co.b_window, s)]
    if method.embedded:
        w = [method.b_error] + ([method.b_error_aux] if method.b_error_aux else [])
        dense.append((np.array(w if len(w) > 1 else w[0]), co.error_window, s))
    for weights, win, computed in dense:
        np.testing.assert_allclose(win.coef @ buf[win.lo : win.hi], weights @ k, rtol=1e-13, atol=1e-13)
        not_yet = [kk for kk in range(win.lo, win.hi) if co.slot.index(kk) >= computed]
        assert set(not_yet) <= set(co.zero_slots)
        assert np.all(win.coef[..., [kk - win.lo for kk in not_yet]] == 0)
    # DOP853 reads 71 stage arrays per step, not 91; DOPRI5 26, not 28
    reads = {"dop853": 71, "dopri5": 26}
    if method.name in reads:
        total = sum(w.hi - w.lo for w in co.a_windows[1:]) + co.error_window.hi - co.error_window.lo
        assert total == reads[method.name]


def test_rk_step_ignores_stale_nans_in_its_buffer(monkeypatch):
    """The stage buffer comes from ``empty``: a NaN left there must not leak into the step."""
    real_empty = np.empty

    def poisoned(shape, dtype=float):
        return np.full(shape, np.nan, dtype=dtype)

    args = {"A": A[None]}
    dt = np.array([0.1])
    clean = rk_step(linear_field, DOP853, np.zeros(1), Y0, dt, args)
    monkeypatch.setattr(np, "empty", poisoned)
    dirty = rk_step(linear_field, DOP853, np.zeros(1), Y0, dt, args)
    monkeypatch.setattr(np, "empty", real_empty)
    for a_, b_ in zip(clean[:2], dirty[:2], strict=True):
        np.testing.assert_array_equal(a_, b_)


GOOD = dict(name="bad", c=(0, Fraction(1, 2)), a=((), (Fraction(1, 2),)), b=(0, 1), order=2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"a": ((), (0.4,))}, "row sum"),
        ({"b": (0.5, 0.6)}, "sum to"),
        ({"a": ((0.0, 0.5), (0.5,))}, "strictly lower triangular"),
        ({"b": (1,)}, "length"),
        ({"a": ((),)}, "rows"),
        ({"c": (0.1, 0.6), "a": ((), (0.6,))}, "c\\[0\\] = 0"),
        ({"b_error": (0.1, 0.0), "error_order": 1}, "sum to"),
        ({"b_error": (-0.1, 0.1)}, "error_order must be given"),
        ({"error_order": 1}, "without b_error"),
        ({"b_error_aux": (-0.1, 0.1)}, "b_error must be given too"),
        ({"b_error": (-0.1, 0.1), "error_order": 1, "b_error_aux": (0.1, 0.0)}, "b_error_aux .* sum to"),
        ({"fsal": True}, "fsal"),
        ({"order": 0}, "positive integer"),
        ({"order": 2.0}, "positive integer"),
        ({"b": (0, float("nan"))}, "non-finite"),
    ],
)
def test_tableau_validation_rejects(change, message):
    ButcherTableau(**GOOD)  # the unchanged tableau is fine
    with pytest.raises(ValueError, match=message):
        ButcherTableau(**{**GOOD, **change})


def test_adaptive_needs_tolerances_and_embedded_method():
    with pytest.raises(ValueError, match="caller's decision"):
        AdaptiveStep()
    with pytest.raises(ValueError, match="atol"):
        AdaptiveStep(rtol=1e-6)
    with pytest.raises(ValueError, match="both be 0"):
        AdaptiveStep(rtol=0, atol=0)
    with pytest.raises(ValueError, match="min_factor"):
        AdaptiveStep(rtol=1e-6, atol=1e-9, min_factor=2.0)
    with pytest.raises(ValueError, match="embedded error estimate"):
        AdaptiveStep(rtol=1e-6, atol=1e-9).check(RK4)
    with pytest.raises(ValueError, match="embedded error estimate"):
        solve(
            linear_field,
            Y0,
            [0, 1],
            method=EULER,
            control=AdaptiveStep(rtol=1e-6, atol=1e-9),
            args={"A": A[None]},
        )
    with pytest.raises(ValueError, match="dt"):
        FixedStep(0.0)


def test_controller_norm_accept_and_step_factor():
    ctl = AdaptiveStep(rtol=1e-3, atol=1e-6)
    y0 = np.array([[1.0, 2.0], [1.0, 2.0]])
    y1 = np.array([[1.0, -3.0], [1.0, -3.0]])
    err = np.array([[1e-3, 3e-3], [4e-3, 9e-3]])
    scale = 1e-6 + 1e-3 * np.array([1.0, 3.0])
    expected = np.sqrt(np.mean((err / scale) ** 2, axis=1))
    np.testing.assert_allclose(ctl.error_norm(y0, y1, err), expected, rtol=1e-14)
    dt = np.array([0.1, 0.1])
    accept, dt_next, bad, _ = ctl.adapt(DOPRI5, y0, y1, err, dt, dt, ctl.init_state(dt))
    assert accept.tolist() == [True, False] and not bad.any()
    factor = np.clip(0.9 * expected ** (-1 / 5), 0.2, 1.0)
    np.testing.assert_allclose(dt_next, dt * factor, rtol=1e-14)
    # a non-finite trial is rejected with the smallest factor
    y1_bad = y1.copy()
    y1_bad[0, 0] = np.nan
    with np.errstate(invalid="ignore"):
        accept, dt_next, bad, _ = ctl.adapt(DOPRI5, y0, y1_bad, err, dt, dt, ctl.init_state(dt))
    assert bad.tolist() == [True, False] and not accept[0]
    assert dt_next[0] == pytest.approx(0.02)


def test_initial_step_heuristic():
    ctl = AdaptiveStep(rtol=1e-6, atol=1e-9)
    B = 3
    rates = np.array([0.1, 1.0, 100.0])

    def decay(t, y, args):
        return -args["k"] * y

    y0 = np.ones((B, 2))
    t0 = np.zeros(B)
    f0 = decay(t0, y0, {"k": rates[:, None]})
    dt, n_evals = ctl.initial_dt(decay, DOPRI5, t0, y0, f0, 10.0, {"k": rates[:, None]})
    assert n_evals == 1
    assert np.all(dt > 0) and np.all(dt <= 10.0)
    assert dt[0] > dt[1] > dt[2]  # faster members start with smaller steps
    dt_fixed, n = AdaptiveStep(rtol=1e-6, atol=1e-9, dt0=0.5).initial_dt(
        decay, DOPRI5, t0, y0, f0, 10.0, {"k": rates[:, None]}
    )
    assert n == 0 and np.all(dt_fixed == 0.5)
