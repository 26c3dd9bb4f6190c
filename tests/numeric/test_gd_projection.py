"""Projected GD on the engine (``GradientDescent(lr, project=...)``) and the NCF's projected ascent on it.

The references are the loops these replaced, written out here: per restart, the same numbers bit for
bit (NaN included for a restart that leaves the finite numbers).
"""

from __future__ import annotations

import numpy as np

from numeric.engine.chunking import gd_work_bytes, plan_chunks, result_bytes
from numeric.engine.descent import gradient_descent
from numeric.engine.gd_map import GradientDescent
from numeric.engine.saveat import SaveAt
from numeric.engine.solve import solve
from numeric.engine.trajectory import Status
from numeric.models.homogeneous_nets import NeuronNCF, normalize, projected_gradient_ascent


def _reference_ascent(value_and_grad, u0, *, step, iters):
    """The loop ``projected_gradient_ascent`` was before it ran on the engine."""
    u = normalize(u0)
    for _ in range(iters):
        _, g = value_and_grad(u)
        u = normalize(u + step * g)
    return u, value_and_grad(u)[0]


def test_projected_ascent_equals_the_reference_loop():
    rng = np.random.default_rng(0)
    ncf = NeuronNCF(rng.normal(size=(3, 4, 12)), rng.normal(size=(3, 2, 12)), 0.2, 2)
    u0 = rng.normal(size=(3, 5, 6))
    u, value = projected_gradient_ascent(ncf.value_and_grad, u0, step=0.05, iters=150)
    u_ref, value_ref = _reference_ascent(ncf.value_and_grad, u0, step=0.05, iters=150)
    np.testing.assert_array_equal(u, u_ref)
    np.testing.assert_array_equal(value, value_ref)
    np.testing.assert_allclose(np.linalg.norm(u, axis=-1), 1.0, rtol=1e-15)
    assert not np.array_equal(u, normalize(u0))  # it moved


def test_a_restart_that_leaves_the_finite_numbers_is_nan_and_the_others_are_unchanged():
    """Restart 1 steps to inf at once (the engine finds it at its check of step 64, replays it alone
    and drops it; the field then sees the other restarts only): NaN, as in the loop."""
    c = np.array([1.0, -2.0, 0.5])

    def value_and_grad(u):
        g = np.broadcast_to(c, u.shape).copy()
        g[1] = np.inf
        return u @ c, g - 0.3 * u

    u0 = np.random.default_rng(1).normal(size=(4, 3))
    u, value = projected_gradient_ascent(value_and_grad, u0, step=0.1, iters=100)
    with np.errstate(invalid="ignore"):  # inf / inf
        u_ref, value_ref = _reference_ascent(value_and_grad, u0, step=0.1, iters=100)
    assert np.isnan(u[1]).all() and np.isfinite(np.delete(u, 1, axis=0)).all()
    np.testing.assert_array_equal(u, u_ref)
    np.testing.assert_array_equal(value, value_ref)


def test_the_projection_follows_every_step_and_its_chunks():
    """``project`` after every step, the first included; chunked solves carry it (``members``)."""
    rng = np.random.default_rng(2)
    y0 = normalize(rng.normal(size=(6, 4)))
    A = rng.normal(size=(4, 4))

    def field(t, y, args):
        return y @ A

    tr = gradient_descent(field, y0, lr=0.3, steps=7, record=np.arange(8), project=normalize)
    y, ref = y0, [y0]
    for _ in range(7):
        y = normalize(y + 0.3 * (y @ A))
        ref.append(y)
    np.testing.assert_array_equal(tr.ys, np.stack(ref, axis=1))
    assert (tr.status == Status.SUCCESS).all()
    budget = 6 * result_bytes(4, 8, True) + 2 * gd_work_bytes(4)  # two members at a time
    assert plan_chunks(6, gd_work_bytes(4), result_bytes(4, 8, True), budget).n_chunks == 3
    chunked = solve(
        field,
        y0,
        method=GradientDescent(np.full(6, 0.3), project=normalize),
        saveat=SaveAt(steps=np.arange(8)),
        max_steps=7,
        memory_budget=budget,
    )
    np.testing.assert_array_equal(chunked.ys, tr.ys)
