"""The batched solve loop and the exact gradient-descent map."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import numeric.engine.ensemble as ensemble_module
from numeric.backend import cupy_available, to_numpy
from numeric.engine.descent import gradient_descent
from numeric.engine.ensemble import take_members
from numeric.engine.integrators import DOPRI5, EULER, RK4, AdaptiveStep, FixedStep
from numeric.engine.solve import solve
from numeric.engine.trajectory import Status, Trajectory

RTOL = 1e-8


def assert_finite_close(actual, desired, *, rtol=0.0, atol=0.0):
    """Like assert_allclose, but a NaN never passes."""
    actual, desired = np.asarray(actual), np.asarray(desired)
    assert np.all(np.isfinite(actual)), "non-finite values in result"
    np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol)


# ----------------------------------------------------------------- decay + rotation


def decay_rotation(t, y, args):
    """u' = -k u;  (v, w)' = omega (-w, v).  Exact: u0 e^{-kt}, rotation by omega t."""
    k, om = args["k"], args["omega"]
    return np.concatenate([-k * y[:, :1], -om * y[:, 2:3], om * y[:, 1:2]], axis=1)


def decay_rotation_exact(k, om, ts):
    kt, wt = k * ts[None, :], om * ts[None, :]
    return np.stack([np.exp(-kt), np.cos(wt), np.sin(wt)], axis=-1)


def observe_time_and_norm(t, y, args):
    return {"t": t, "norm": np.sqrt(np.sum(y * y, axis=1))}


def test_adaptive_batch_matches_exact_solution():
    B = 64
    rng = np.random.default_rng(0)
    k = rng.uniform(0.1, 10.0, (B, 1))
    om = rng.uniform(0.5, 5.0, (B, 1))
    ts = np.array([0.0, 0.3, 1.0, 1.7, 2.5, 4.0])
    y0 = np.tile([1.0, 1.0, 0.0], (B, 1))
    traj = solve(
        decay_rotation,
        y0,
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=RTOL, atol=1e-12),
        args={"k": k, "omega": om},
        observe=observe_time_and_norm,
    )
    assert isinstance(traj, Trajectory)
    assert traj.ok.all(), traj.summary()
    assert traj.ys.shape == (B, ts.size, 3)
    np.testing.assert_array_equal(traj.ts, ts)
    exact = decay_rotation_exact(k, om, ts)
    assert_finite_close(traj.ys, exact, atol=100 * RTOL)
    # outputs are genuine step endpoints at exactly the requested times
    np.testing.assert_array_equal(traj.observed["t"], np.broadcast_to(ts, (B, ts.size)))
    assert_finite_close(traj.observed["norm"], np.linalg.norm(traj.ys, axis=2), rtol=1e-15)
    # members take their own steps
    assert np.unique(traj.n_steps).size > 10
    assert traj.n_steps[np.argmax(om[:, 0] + k[:, 0])] > traj.n_steps[np.argmin(om[:, 0] + k[:, 0])]
    # FSAL bookkeeping: 1 + 1 (initial step) + 6 per attempted step
    np.testing.assert_array_equal(traj.n_field_evals, 2 + 6 * (traj.n_steps + traj.n_rejected))
    assert_finite_close(traj.y_stop, traj.final)
    np.testing.assert_array_equal(traj.t_stop, np.full(B, ts[-1]))


def van_der_pol(t, y, args):
    x, v = y[:, 0], y[:, 1]
    return np.stack([v, args["mu"] * (1 - x * x) * v - x], axis=1)


def test_adaptive_van_der_pol_matches_scipy_dop853():
    mus = np.array([0.2, 0.5, 1.0, 2.0, 3.0, 5.0])
    B = mus.size
    ts = np.linspace(0.0, 6.0, 13)
    y0 = np.tile([2.0, 0.0], (B, 1))
    traj = solve(
        van_der_pol,
        y0,
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=RTOL, atol=1e-10),
        args={"mu": mus},
    )
    assert traj.ok.all(), traj.summary()
    for m, mu in enumerate(mus):
        ref = solve_ivp(
            lambda t, y, mu=mu: [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]],
            (ts[0], ts[-1]),
            y0[m],
            method="DOP853",
            t_eval=ts,
            rtol=1e-12,
            atol=1e-12,
        )
        assert ref.success
        assert_finite_close(traj.ys[m], ref.y.T, atol=100 * RTOL * max(1.0, np.abs(ref.y).max()))
    assert np.unique(traj.n_steps).size == B


def test_fixed_step_lands_on_output_times():
    """y' = 1 gives y = t; the step before each output time is shortened onto it."""
    ts = np.array([0.0, 0.35, 1.0, 1.05])
    traj = solve(
        lambda t, y, a: np.ones_like(y),
        np.zeros((2, 1)),
        ts,
        method=RK4,
        control=FixedStep(0.1),
        observe=lambda t, y, a: {"t": t},
    )
    assert traj.ok.all()
    np.testing.assert_array_equal(traj.observed["t"], np.broadcast_to(ts, (2, 4)))
    assert_finite_close(traj.ys[:, :, 0], np.broadcast_to(ts, (2, 4)), rtol=1e-14)
    # 0.35: 3 full + 1 short; 1.0: 6 full + 1 short (0.05); 1.05: 1 short
    np.testing.assert_array_equal(traj.n_steps, [12, 12])


# ----------------------------------------------------------------- failures per member


def quadratic_blowup(t, y, args):
    """y' = c y^2, y(0) = 1: y = 1 / (1 - c t), singular at t = 1/c."""
    return args["c"] * y * y


C = np.array([[0.5], [2.0], [0.25]])  # the middle member blows up at t = 0.5


def test_blowup_member_stops_while_others_succeed_adaptive():
    ts = np.array([0.0, 0.25, 1.0])
    traj = solve(
        quadratic_blowup,
        np.ones((3, 1)),
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=RTOL, atol=1e-10),
        args={"c": C},
    )
    assert Status(traj.status[1]) in (Status.NONFINITE, Status.STEP_TOO_SMALL)
    assert traj.ok.tolist() == [True, False, True]
    exact = 1.0 / (1.0 - C * ts[None, :])
    assert_finite_close(traj.ys[[0, 2], :, 0], exact[[0, 2]], rtol=100 * RTOL)
    assert_finite_close(traj.ys[1, :2, 0], exact[1, :2], rtol=100 * RTOL)  # before the blow-up
    assert np.isnan(traj.ys[1, 2]).all()
    # the numerical solution's own pole lies within the tolerance of the true one
    assert abs(traj.t_stop[1] - 0.5) < 1e-5 and np.isfinite(traj.y_stop[1]).all()
    assert traj.y_stop[1, 0] > 1e3
    assert Status(traj.status[1]).message


def test_blowup_member_fixed_step_is_nonfinite():
    ts = np.array([0.0, 0.25, 1.0])
    traj = solve(quadratic_blowup, np.ones((3, 1)), ts, method=RK4, control=FixedStep(0.01), args={"c": C})
    assert traj.status.tolist() == [Status.SUCCESS, Status.NONFINITE, Status.SUCCESS]
    exact = 1.0 / (1.0 - C * ts[None, :])
    assert_finite_close(traj.ys[[0, 2], :, 0], exact[[0, 2]], rtol=1e-7)
    assert np.isnan(traj.ys[1, 2]).all()
    assert np.isfinite(traj.y_stop[1]).all() and traj.t_stop[1] > 0.5  # last finite state
    assert traj.n_steps[1] < traj.n_steps[0] == 100
    assert "non-finite" in traj.summary()


def test_max_steps_and_step_too_small():
    ts = np.array([0.0, 10.0])
    traj = solve(
        decay_rotation,
        np.tile([1.0, 1.0, 0.0], (2, 1)),
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=1e-10, atol=1e-12),
        args={"k": np.array([[0.1], [0.1]]), "omega": np.array([[0.1], [50.0]])},
        max_steps=200,
    )
    assert traj.status.tolist() == [Status.SUCCESS, Status.MAX_STEPS]
    assert traj.n_steps[1] + traj.n_rejected[1] == 200
    assert np.isnan(traj.final[1]).all() and np.isfinite(traj.y_stop[1]).all()


def test_step_too_small_at_a_singularity():
    """Adaptive steps shrink towards the pole of y' = y^2 until they fall below the
    resolution of t; the member stops there with its last finite state."""
    traj = solve(
        quadratic_blowup,
        np.ones((1, 1)),
        [0.0, 2.0],
        method=DOPRI5,
        control=AdaptiveStep(rtol=1e-8, atol=1e-10),
        args={"c": np.array([[1.0]])},
    )
    assert traj.status.tolist() == [Status.STEP_TOO_SMALL]
    assert abs(traj.t_stop[0] - 1.0) < 1e-6 and np.isfinite(traj.y_stop).all()


def test_nonfinite_initial_state():
    y0 = np.array([[1.0], [np.nan]])
    traj = solve(
        quadratic_blowup, y0, [0.0, 0.5], method=RK4, control=FixedStep(0.1), args={"c": np.array([[1.0]])}
    )
    assert traj.status.tolist() == [Status.SUCCESS, Status.NONFINITE]
    assert traj.n_steps.tolist() == [5, 0]


# ----------------------------------------------------------------- API details


def test_take_members():
    args = {"X": np.zeros((1, 4, 2)), "lr": np.arange(5.0), "alpha": np.arange(5.0)[:, None, None]}
    sub = take_members(args, np.array([4, 1]))
    assert sub["X"] is args["X"]
    np.testing.assert_array_equal(sub["lr"], [4.0, 1.0])
    assert sub["alpha"].shape == (2, 1, 1)


def test_input_validation():
    y0 = np.zeros((3, 2))
    f = lambda t, y, a: y  # noqa: E731
    kw = dict(method=RK4, control=FixedStep(0.1))
    with pytest.raises(ValueError, match="leading"):
        solve(f, y0, [0, 1], args={"bad": np.zeros((2, 4))}, **kw)
    with pytest.raises(TypeError, match="leading ensemble axis"):
        solve(f, y0, [0, 1], args={"scalar": 1.0}, **kw)
    with pytest.raises(ValueError, match="strictly increasing"):
        solve(f, y0, [0, 1, 1], **kw)
    with pytest.raises(ValueError, match=r"shape \(B, N\)"):
        solve(f, np.zeros(3), [0, 1], **kw)
    with pytest.raises(ValueError, match="same shape as y"):
        solve(lambda t, y, a: y[:, :1], y0, [0, 1], **kw)
    with pytest.raises(ValueError, match="same shape as y"):
        gradient_descent(lambda t, y, a: y[0], y0, lr=0.1, steps=3, record=[0, 3])
    with pytest.raises(ValueError, match="leading member axis"):
        solve(f, y0, [0, 1], observe=lambda t, y, a: {"x": y[0]}, **kw)
    with pytest.raises(ValueError, match="record"):
        gradient_descent(f, y0, lr=0.1, steps=3, record=[0, 4])
    with pytest.raises(ValueError, match="lr"):
        gradient_descent(f, y0, lr=np.ones(2), steps=3, record=[0])


def test_save_state_false_single_output_and_progress(monkeypatch):
    monkeypatch.setattr(ensemble_module, "_PROGRESS_EVERY_S", 0.0)
    calls: list[float] = []
    traj = solve(
        decay_rotation,
        np.tile([1.0, 1.0, 0.0], (2, 1)),
        np.linspace(0, 1, 5),
        method=DOPRI5,
        control=AdaptiveStep(rtol=1e-6, atol=1e-9),
        args={"k": np.ones((1, 1)), "omega": np.ones((1, 1))},
        observe=observe_time_and_norm,
        save_state=False,
        progress=calls.append,
    )
    assert traj.ys is None and traj.observed["norm"].shape == (2, 5)
    with pytest.raises(ValueError, match="save_state=False"):
        _ = traj.final
    assert calls and calls[-1] == 1.0 and all(0 <= c <= 1 for c in calls)
    assert calls == sorted(calls)
    traj = solve(decay_rotation, np.ones((2, 3)), [0.5], method=RK4, control=FixedStep(0.1), args={})
    assert traj.ok.all() and traj.ys.shape == (2, 1, 3) and traj.n_steps.tolist() == [0, 0]


# ----------------------------------------------------------------- gradient descent


def test_gradient_descent_matches_closed_form_exactly():
    """L = c/2 |y|^2, field = -c y: y_k = (1 - lr c)^k y_0. With dyadic lr and c every
    operation is exact, so the iterates equal the closed form bit for bit."""
    B, steps = 4, 30
    c = np.array([1.0, 2.0, 0.5, 4.0])[:, None]
    lr = np.array([0.25, 0.125, 0.5, 0.0625])
    y0 = np.tile([1.0, -3.0, 0.5], (B, 1))
    record = np.array([0, 1, 7, 16, 30])
    traj = gradient_descent(
        lambda t, y, a: -a["c"] * y,
        y0,
        lr=lr,
        steps=steps,
        record=record,
        args={"c": c},
        observe=lambda t, y, a: {"k": t},
    )
    assert traj.ok.all()
    np.testing.assert_array_equal(traj.ts, record.astype(float))
    np.testing.assert_array_equal(traj.observed["k"], np.broadcast_to(record, (B, record.size)))
    closed = (1 - lr[:, None] * c) ** record[None, :]
    np.testing.assert_array_equal(traj.ys, closed[:, :, None] * y0[:, None, :])
    np.testing.assert_array_equal(traj.n_steps, np.full(B, steps))


def test_gradient_descent_generic_lr_relative_accuracy():
    B, steps = 3, 1000
    c = np.array([0.3, 1.7, 2.9])[:, None]
    lr = 0.1
    y0 = np.ones((B, 2))
    traj = gradient_descent(
        lambda t, y, a: -a["c"] * y, y0, lr=lr, steps=steps, record=[0, steps], args={"c": c}
    )
    closed = (1 - lr * c) ** steps
    # each step rounds once: relative error grows like sqrt(k) eps at most k eps
    assert_finite_close(traj.final, np.broadcast_to(closed, (B, 2)), rtol=steps * 2.3e-16)


def test_gradient_descent_nonfinite_member_is_frozen_at_last_finite_iterate():
    """y_{k+1} = y_k + lr c y_k^2 diverges for the member with c = 1 and converges
    (c = -1) for the others."""
    c = np.array([[-1.0], [1.0], [-0.5]])
    lr = 0.5
    y0 = np.ones((3, 1))
    traj = gradient_descent(
        lambda t, y, a: a["c"] * y * y, y0, lr=lr, steps=300, record=[0, 5, 200, 300], args={"c": c}
    )
    assert traj.status.tolist() == [Status.SUCCESS, Status.NONFINITE, Status.SUCCESS]
    # reference: plain loop
    y, k_last = 1.0, 0
    with np.errstate(over="ignore"):
        for k in range(300):
            y_new = y + lr * y * y
            if not np.isfinite(y_new):
                break
            y, k_last = y_new, k + 1
    assert traj.n_steps[1] == k_last and traj.t_stop[1] == k_last
    assert traj.y_stop[1, 0] == y
    assert np.isfinite(traj.ys[1, :2]).all() and np.isnan(traj.ys[1, 2:]).all()
    for m in (0, 2):
        y = 1.0
        for _ in range(300):
            y = y + lr * c[m, 0] * y * y
        assert traj.final[m, 0] == y


def test_gradient_descent_long_run_is_cheap():
    steps = 20_000
    traj = gradient_descent(lambda t, y, a: -y, np.ones((1, 10)), lr=1e-3, steps=steps, record=[0, steps])
    assert traj.ok.all()
    assert_finite_close(traj.final, np.full((1, 10), (1 - 1e-3) ** steps), rtol=1e-12)


# ----------------------------------------------------------------- CuPy (skipped without a GPU)


@pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device not available")
def test_same_solve_on_cupy():
    import cupy

    B = 16
    rng = np.random.default_rng(3)
    k = rng.uniform(0.1, 5.0, (B, 1))
    om = rng.uniform(0.5, 3.0, (B, 1))
    y0 = np.tile([1.0, 1.0, 0.0], (B, 1))
    ts = np.linspace(0.0, 2.0, 5)

    def field(t, y, args):
        xp = cupy if isinstance(y, cupy.ndarray) else np
        return xp.concatenate(
            [-args["k"] * y[:, :1], -args["omega"] * y[:, 2:3], args["omega"] * y[:, 1:2]], 1
        )

    kw = dict(method=DOPRI5, control=AdaptiveStep(rtol=RTOL, atol=1e-12))
    host = solve(field, y0, ts, args={"k": k, "omega": om}, **kw)
    dev = solve(field, cupy.asarray(y0), ts, args={"k": cupy.asarray(k), "omega": cupy.asarray(om)}, **kw)
    assert isinstance(dev.ys, cupy.ndarray)
    np.testing.assert_array_equal(dev.status, host.status)
    np.testing.assert_allclose(to_numpy(dev.ys), host.ys, rtol=1e-12, atol=1e-14)
    gd = gradient_descent(
        lambda t, y, a: -a["c"] * y,
        cupy.asarray(y0),
        lr=cupy.full(B, 0.1),
        steps=100,
        record=[0, 100],
        args={"c": cupy.asarray(k)},
    )
    np.testing.assert_allclose(to_numpy(gd.final), (1 - 0.1 * k) ** 100 * y0, rtol=1e-13)
    fixed = solve(
        field,
        cupy.asarray(y0),
        ts,
        method=EULER,
        control=FixedStep(0.01),
        args={"k": cupy.asarray(k), "omega": cupy.asarray(om)},
    )
    assert fixed.ok.all()


def test_batching_does_not_change_a_members_solution():
    """Steps are chosen per member, so each member's trajectory in a batch equals its
    trajectory solved alone (same steps, same values up to rounding), even while other
    members stop early."""
    B = 6
    c = np.array([[0.5], [3.0], [0.25], [0.8], [2.5], [0.1]])  # members 1 and 4 blow up before t=1
    ts = np.array([0.0, 0.2, 0.5, 1.0])
    kw = dict(method=DOPRI5, control=AdaptiveStep(rtol=1e-7, atol=1e-9), observe=lambda t, y, a: {"t": t})
    batch = solve(quadratic_blowup, np.ones((B, 1)), ts, args={"c": c}, **kw)
    for m in range(B):
        alone = solve(quadratic_blowup, np.ones((1, 1)), ts, args={"c": c[m : m + 1]}, **kw)
        assert alone.status[0] == batch.status[m]
        assert alone.n_steps[0] == batch.n_steps[m] and alone.n_rejected[0] == batch.n_rejected[m]
        np.testing.assert_allclose(batch.ys[m], alone.ys[0], rtol=1e-14, equal_nan=True)
        np.testing.assert_array_equal(batch.observed["t"][m], alone.observed["t"][0])
    assert batch.ok.tolist() == [True, False, True, True, False, True]


@pytest.mark.parametrize("steps", [1, 2, 64, 65])
def test_gradient_descent_overflow_detected_at_any_step_count(steps):
    """A member that overflows on its very first step is caught however short the run."""
    y0 = np.array([[1e200], [1.0]])
    c = np.array([[1.0], [-0.5]])
    traj = gradient_descent(
        lambda t, y, a: a["c"] * y * y, y0, lr=1.0, steps=steps, record=[0, steps], args={"c": c}
    )
    assert traj.status.tolist() == [Status.NONFINITE, Status.SUCCESS]
    assert traj.n_steps.tolist() == [0, steps] and traj.y_stop[0, 0] == 1e200
    assert np.isnan(traj.ys[0, 1]).all() and traj.ys[0, 0, 0] == 1e200
