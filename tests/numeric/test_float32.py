"""float32 as an explicit option of the GD map and the RK solve: kept in float32, accurate to float32."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.engine.descent import gradient_descent
from numeric.engine.integrators import DOPRI5, AdaptiveStep
from numeric.engine.solve import solve


def _quadratic(t, y, args):
    """-grad of 0.5 y^T diag(c) y: the GD map contracts every coordinate by (1 - lr c)."""
    return -args["c"] * y


@pytest.mark.parametrize("lr", [0.1, np.array([0.05, 0.1, 0.15])])
def test_float32_gd_stays_float32_and_matches_float64(lr):
    be32, be64 = get_backend("numpy", np.float32), get_backend("numpy")
    rng = np.random.default_rng(0)
    y0, c = rng.normal(size=(3, 50)), rng.uniform(0.5, 2.0, size=(1, 50))
    ref = gradient_descent(
        _quadratic, be64.asarray(y0), lr=lr, steps=200, record=[200], args={"c": be64.asarray(c)}
    )
    got = gradient_descent(
        _quadratic,
        be32.asarray(y0),
        lr=lr,
        steps=200,
        record=[200],
        args={"c": be32.asarray(c)},
        dtype=be32.dtype,
    )
    assert ref.y_stop.dtype == np.float64 and got.y_stop.dtype == np.float32
    # per step 3 roundings (c y, lr *, +) of eps32/2 each: <= 1.5 eps32 relative, additive over 200
    # contracting steps (300 eps32); rounding c to float32 moves (1 - lr c)^200 by <= 200 lr c / (1 - lr c)
    # * eps32/2 <= 43 eps32 (lr c <= 0.3); y0's rounding adds eps32/2. Bound: 400 eps32.
    eps32 = float(np.finfo(np.float32).eps)
    np.testing.assert_allclose(got.y_stop, ref.y_stop, rtol=400 * eps32, atol=0)
    assert np.abs(got.y_stop - ref.y_stop).max() > 0  # float32 really ran


def test_dtype_is_checked():
    with pytest.raises(ValueError, match="float64 or float32"):
        gradient_descent(
            _quadratic,
            np.ones((1, 2)),
            lr=0.1,
            steps=1,
            record=[1],
            args={"c": np.ones((1, 2))},
            dtype=np.float16,
        )


def _rotation(t, y, args):
    """y' = A y with A = [[0, -1], [1, 0]] per pair of coordinates: |y| is conserved, y(t) rotates."""
    yy = y.reshape(y.shape[0], -1, 2)
    return np.stack([-yy[..., 1], yy[..., 0]], axis=-1).reshape(y.shape)


def test_float32_solve_stays_float32_and_matches_the_exact_flow():
    rng = np.random.default_rng(1)
    y0 = rng.normal(size=(4, 6))
    T = 3.0
    c, s = np.cos(T), np.sin(T)
    pairs = y0.reshape(4, 3, 2)
    exact = np.stack([c * pairs[..., 0] - s * pairs[..., 1], s * pairs[..., 0] + c * pairs[..., 1]], -1)
    traj = solve(
        _rotation,
        y0.astype(np.float32),
        [0.0, T],
        method=DOPRI5,
        control=AdaptiveStep(rtol=1e-5, atol=1e-7),
        dtype=np.float32,
    )
    assert traj.ok.all() and traj.y_stop.dtype == np.float32
    # the global error of DOPRI5 at rtol 1e-5 over ~3 time units is a few rtol |y|; float32 rounding per
    # step (~50 steps x a few eps32) adds ~1e-5 at most: 1e-4 |y| is a safe, failing-if-wrong bound
    err = np.abs(traj.y_stop.reshape(4, 3, 2) - exact).max() / np.abs(exact).max()
    assert err < 1e-4


def test_float32_solve_refuses_a_tolerance_below_its_rounding():
    with pytest.raises(ValueError, match="float32 solve needs rtol"):
        solve(
            _rotation,
            np.ones((1, 2), dtype=np.float32),
            [0.0, 1.0],
            method=DOPRI5,
            control=AdaptiveStep(rtol=1e-8, atol=1e-10),
            dtype=np.float32,
        )
