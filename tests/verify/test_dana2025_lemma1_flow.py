"""dana2025 Lemma 1's flow solve: on axis inputs the full-coordinate field keeps a switched-off neuron
exactly on its surface, so the event solver meets no sliding; on a rotated copy of the same data the
rounding-level cross terms make it see sliding (the chattering that stopped the full-profile solve)."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.data.weakly_correlated import appendix_b_init, gram_to_inputs
from numeric.engine.integrators.control import AdaptiveStep
from numeric.engine.integrators.methods import DOPRI5
from numeric.engine.solve import solve
from numeric.models.shallow_relu import ShallowReLU
from verify.papers.dana2025.common import axis_inputs, make_data

N, P, B, T = 6, 4, 4, 4.0  # the quick profile's sizes of dana2025:lemma-1


def _setup(rotated: bool):
    rng = np.random.default_rng(3)
    data = make_data(rng, N, "orthogonal")
    d = 3 * N
    X = gram_to_inputs(data.G, d, rng) if rotated else axis_inputs(data.norms, d)
    W, a = appendix_b_init(rng, B, P, d)
    model = ShallowReLU(P, d, "full")
    be = get_backend("numpy")
    return model, model.pack((W, a)), model.args(be, X, data.y), X


def test_axis_inputs_are_the_data():
    norms = np.array([0.5, 2.0, 3.0])
    X = axis_inputs(norms, 5)
    np.testing.assert_array_equal(X @ X.T, np.diag(norms**2))
    np.testing.assert_array_equal(X[:, 3:], 0.0)


@pytest.mark.parametrize("rotated", [False, True])
def test_inactive_side_velocity_is_exactly_zero_only_on_axis_inputs(rotated):
    model, y, args, X = _setup(rotated)
    dW, _ = model.unpack(model(None, y, args))
    W, _ = model.unpack(y)
    off = (W @ X.T <= 0)[0]
    zdot = (dW @ X.T)[0][off]
    assert off.any()
    if rotated:
        assert np.abs(zdot).max() > 0  # rounding-level cross terms: the test can tell the two apart
    else:
        np.testing.assert_array_equal(zdot, 0.0)


@pytest.mark.parametrize("rotated", [False, True])
def test_event_solve_sees_sliding_only_on_rotated_inputs(rotated):
    model, y, args, _ = _setup(rotated)
    traj = solve(
        model,
        y,
        np.linspace(0.0, T, 41),
        method=DOPRI5,
        control=AdaptiveStep(rtol=1e-10, atol=1e-13),
        args=args,
        max_steps=20_000,
        events=model.switching,
    )
    assert np.all(traj.status == 0)
    assert traj.n_events.sum() > 0  # neurons do switch off: the surfaces are met
    if rotated:
        assert traj.n_sliding.sum() > 0
    else:
        assert traj.n_sliding.sum() == 0
