"""Gradient descent as a method of the solver: ``solve(..., method=GradientDescent(lr), saveat=...)``.

The map is ``y_{k+1} = y_k + lr * field(k, y_k, args)``; the references below are that map written
out in NumPy, so the engine must agree bit for bit (same operations, same order).
"""

from __future__ import annotations

import numpy as np
import pytest

from numeric import RK4, FixedStep, GradientDescent, SaveAt, Status, gradient_descent, solve


def _linear(t, y, args):
    """``dy = -A y`` per member (``A`` (B, N, N)): GD on ``y^T A y / 2``."""
    return -np.einsum("bij,bj->bi", args["A"], y)


def _reference(y0: np.ndarray, A: np.ndarray, lr: np.ndarray, steps: int) -> np.ndarray:
    """The map written out: every iterate ``(steps + 1, B, N)``."""
    ys = [y0]
    for _ in range(steps):
        y = ys[-1]
        ys.append(y + lr[:, None] * -np.einsum("bij,bj->bi", A, y))
    return np.stack(ys)


def _problem(B: int = 5, N: int = 3, seed: int = 0):
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(B, N, N))
    A = M @ np.swapaxes(M, 1, 2) / N
    return rng.normal(size=(B, N)), A, 0.5 / np.linalg.eigvalsh(A)[:, -1]


def test_the_method_is_the_map_bit_for_bit():
    y0, A, lr = _problem()
    rec = np.array([0, 3, 64, 65, 200])
    traj = solve(_linear, y0, method=GradientDescent(lr), saveat=SaveAt(steps=rec), args={"A": A})
    ref = _reference(y0, A, lr, 200)
    np.testing.assert_array_equal(traj.ys, np.swapaxes(ref[rec], 0, 1))
    np.testing.assert_array_equal(traj.y_stop, ref[-1])
    assert traj.ts.tolist() == rec.tolist() and (traj.status == Status.SUCCESS).all()
    # the front is the same run
    front = gradient_descent(_linear, y0, lr=lr, steps=200, record=rec, args={"A": A})
    np.testing.assert_array_equal(front.ys, traj.ys)


def test_the_front_runs_past_the_last_record():
    y0, A, lr = _problem()
    traj = gradient_descent(
        _linear, y0, lr=lr, steps=90, record=[0, 10], args={"A": A}, observe=lambda t, y, a: {"t": t}
    )
    ref = _reference(y0, A, lr, 90)
    assert traj.ys.shape == (5, 2, 3) and traj.observed["t"].shape == (5, 2)
    np.testing.assert_array_equal(traj.ys[:, 1], ref[10])
    np.testing.assert_array_equal(traj.y_stop, ref[90])
    assert traj.n_steps.tolist() == [90] * 5 and traj.ts.tolist() == [0.0, 10.0]


def test_one_status_policy_diverged_and_max_steps():
    """A member whose map diverges is NONFINITE at its last finite iterate (no exception); members
    still running at ``max_steps`` are MAX_STEPS with NaN records after it, as in an RK solve."""
    y0, A, lr = _problem()
    lr = lr.copy()
    lr[1] *= 40.0  # |1 - lr lambda_max| = 19: 19**241 > 1.8e308, so it overflows within 250 steps
    rec = np.array([0, 100, 1000])
    traj = solve(
        _linear, y0, method=GradientDescent(lr), saveat=SaveAt(steps=rec), args={"A": A}, max_steps=500
    )
    assert traj.status.tolist() == [Status.MAX_STEPS, Status.NONFINITE] + [Status.MAX_STEPS] * 3
    j = int(traj.n_steps[1])
    with np.errstate(over="ignore", invalid="ignore"):
        ref = _reference(y0[1:2], A[1:2], lr[1:2], j + 1)
    assert np.isfinite(ref[j]).all() and not np.isfinite(ref[j + 1]).all()
    np.testing.assert_array_equal(traj.y_stop[1], ref[j][0])
    assert (
        np.isnan(traj.ys[1, 2]).all() and np.isnan(traj.ys[0, 2]).all() and np.isfinite(traj.ys[0, 1]).all()
    )
    assert traj.n_steps[0] == 500 and traj.t_stop[0] == 500.0
    np.testing.assert_array_equal(traj.y_stop[0], _reference(y0[:1], A[:1], lr[:1], 500)[-1][0])


def test_chunked_gd_slices_the_per_member_learning_rates():
    y0, A, lr = _problem(B=7)
    kw = dict(method=GradientDescent(lr), saveat=SaveAt(steps=[0, 50]), args={"A": A})
    whole = solve(_linear, y0, **kw)
    chunked = solve(_linear, y0, memory_budget=7 * 2 * 8 * 4 + 7 * 8 * 11 + 2 * 8 * 7 * 3, **kw)
    np.testing.assert_array_equal(chunked.ys, whole.ys)


def test_saveat_and_method_validation():
    y0, A, _ = _problem()
    with pytest.raises(ValueError, match="exactly one"):
        SaveAt()
    with pytest.raises(ValueError, match="exactly one"):
        SaveAt(ts=[0.0, 1.0], steps=[0, 1])
    with pytest.raises(ValueError, match="step indices"):
        solve(_linear, y0, method=GradientDescent(0.1), saveat=SaveAt(ts=[0.0, 1.0]), args={"A": A})
    with pytest.raises(ValueError, match="output times"):
        solve(_linear, y0, method=RK4, control=FixedStep(0.1), saveat=SaveAt(steps=[0, 1]), args={"A": A})
    with pytest.raises(ValueError, match="no control"):
        solve(
            _linear,
            y0,
            method=GradientDescent(0.1),
            control=FixedStep(0.1),
            saveat=SaveAt(steps=[1]),
            args={"A": A},
        )
    with pytest.raises(ValueError, match="not both"):
        solve(_linear, y0, [0.0, 1.0], method=RK4, control=FixedStep(0.1), saveat=SaveAt(ts=[0, 1]))
    with pytest.raises(ValueError, match="record"):
        solve(_linear, y0, method=GradientDescent(0.1), saveat=SaveAt(steps=[3, 2]), args={"A": A})
    with pytest.raises(ValueError, match="lr"):
        solve(_linear, y0, method=GradientDescent(np.ones(2)), saveat=SaveAt(steps=[1]), args={"A": A})
