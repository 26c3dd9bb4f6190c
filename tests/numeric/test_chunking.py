"""Chunked ensembles: the plan, identical per-member results, and a lower peak memory."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.backend import cupy_available, get_backend
from numeric.engine.chunking import (
    available_memory,
    gd_work_bytes,
    measure_peak,
    plan_chunks,
    result_bytes,
    rk_work_bytes,
)
from numeric.engine.descent import gradient_descent
from numeric.engine.integrators import DOPRI5, AdaptiveStep
from numeric.engine.solve import solve
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow


@given(
    members=st.integers(1, 500),
    work=st.integers(1, 10_000),
    result=st.integers(0, 1_000),
    extra=st.integers(0, 10**6),
)
@settings(max_examples=200, deadline=None)
def test_plan_is_the_largest_chunk_within_budget(members, work, result, extra):
    budget = members * result + work + extra
    plan = plan_chunks(members, work, result, budget)
    assert 1 <= plan.chunk <= members
    assert plan.estimated_peak <= budget
    assert plan.chunk == members or plan.estimated_peak + work > budget  # one more would not fit
    bounds = plan.bounds()
    assert len(bounds) == plan.n_chunks and bounds[0][0] == 0 and bounds[-1][1] == members
    assert all(b - a <= plan.chunk for a, b in bounds)


def test_plan_refuses_a_result_that_cannot_fit():
    with pytest.raises(MemoryError, match="save_state=False"):
        plan_chunks(10, 100, 1_000, 10_000)
    with pytest.raises(ValueError):
        plan_chunks(0, 100, 0, 10_000)


def test_available_memory_is_positive():
    assert available_memory() > 0
    assert rk_work_bytes(10, 7) == 8 * 17 * 10 and gd_work_bytes(10, 5) == 8 * 7 * 10 + 5
    assert result_bytes(10, 3, True) == 8 * (30 + 10 + 8) and result_bytes(10, 3, False) == 8 * 18


def _flow(B: int, seed: int = 0, alpha: float = 0.0):
    """A small two-layer net's gradient flow (``alpha = 1``: linear net, a smooth field
    without the ReLU kinks at which adaptive RK steps chatter)."""
    be = get_backend("numpy")
    rng = be.rng(seed)
    net = BiasFreeNet((5, 6, 1), kink=0.0)
    field = GradientFlow(net, Loss("square", "mean"))
    X = rng.normal((8, 5))
    args = field.args(be, X, rng.normal((8,)), alpha=alpha)
    return field, rng.normal((B, net.n_params), scale=0.3), args


def test_chunked_solve_equals_unchunked():
    field, y0, args = _flow(12, alpha=1.0)
    ts = np.linspace(0.0, 2.0, 5)
    kw = dict(method=DOPRI5, control=AdaptiveStep(rtol=1e-8, atol=1e-10), args=args, observe=field.observer())
    whole = solve(field, y0, ts, **kw)
    N = y0.shape[1]
    budget = 12 * result_bytes(N, 5, True) + 5 * rk_work_bytes(N, DOPRI5.stages)
    assert plan_chunks(12, rk_work_bytes(N, DOPRI5.stages), result_bytes(N, 5, True), budget).n_chunks == 3
    seen = []
    parts = solve(field, y0, ts, memory_budget=budget, progress=seen.append, **kw)
    np.testing.assert_array_equal(parts.ys, whole.ys)
    np.testing.assert_array_equal(parts.observed["loss"], whole.observed["loss"])
    np.testing.assert_array_equal(parts.y_stop, whole.y_stop)
    for name in ("status", "n_steps", "n_rejected", "n_field_evals", "t_stop"):
        np.testing.assert_array_equal(getattr(parts, name), getattr(whole, name))
    assert seen and seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)


def test_chunked_gradient_descent_equals_unchunked_with_per_member_lr():
    field, y0, args = _flow(10, seed=1)
    lr = np.linspace(0.05, 0.2, 10)
    whole = gradient_descent(field, y0, lr=lr, steps=100, record=[0, 50, 100], args=args)
    N = y0.shape[1]
    budget = 10 * result_bytes(N, 3, True) + 3 * gd_work_bytes(N)
    assert plan_chunks(10, gd_work_bytes(N), result_bytes(N, 3, True), budget).n_chunks == 4
    parts = gradient_descent(
        field, y0, lr=lr, steps=100, record=[0, 50, 100], args=args, memory_budget=budget
    )
    np.testing.assert_array_equal(parts.ys, whole.ys)
    np.testing.assert_array_equal(parts.n_steps, whole.n_steps)


def test_chunks_lower_the_measured_peak():
    field, y0, args = _flow(256)
    N = y0.shape[1]
    field_bytes = 8 * 6 * 8 * 6  # the field's (m, P) temporaries, a few of them
    kw = dict(lr=0.1, steps=10, record=[10], args=args, save_state=False)
    whole, peak_whole = measure_peak(lambda: gradient_descent(field, y0, **kw))
    budget = 256 * result_bytes(N, 1, False) + 16 * gd_work_bytes(N, field_bytes)  # 16 chunks
    parts, peak_parts = measure_peak(
        lambda: gradient_descent(field, y0, memory_budget=budget, field_bytes=field_bytes, **kw)
    )
    np.testing.assert_array_equal(parts.y_stop, whole.y_stop)
    assert peak_parts < peak_whole / 2


@pytest.mark.gpu
@pytest.mark.skipif(not cupy_available(), reason="CuPy with a CUDA device not available")
def test_chunked_gradient_descent_on_cupy_matches_numpy_and_reports_pool_peak():
    import cupy

    field, y0, args = _flow(32)
    dev_args = {k: cupy.asarray(v) for k, v in args.items()}
    N = y0.shape[1]
    budget = 32 * result_bytes(N, 1, False) + 8 * gd_work_bytes(N)
    kw = dict(lr=0.1, steps=50, record=[50], save_state=False, memory_budget=budget)
    ref = gradient_descent(field, y0, args=args, **kw)
    got, peak = measure_peak(lambda: gradient_descent(field, cupy.asarray(y0), args=dev_args, **kw), cupy)
    np.testing.assert_allclose(cupy.asnumpy(got.y_stop), ref.y_stop, rtol=1e-12, atol=1e-14)
    assert peak > 0 and available_memory(cupy) > 0
