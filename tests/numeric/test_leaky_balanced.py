"""The balanced leaky log-polar flow against the plain (W, v) leaky gradient flow, and the leaky x_a."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from strategies_min2024 import (
    OVERFLOW_DRAWS,
    balanced_states,
    exponential_field_is_representable,
    separated_datasets,
)

from numeric.backend import get_backend
from numeric.data.separated_data import activated_sum
from numeric.models.balanced_relu import LogPolarFlow, direction_rate, join, logpolar_state, split
from numeric.models.leaky_balanced import LeakyLogPolarFlow, leaky_activated_sum, reduced_direction_error
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow

BE = get_backend("numpy")


@settings(max_examples=30, deadline=None)
@given(data=separated_datasets(n=5, D=4), state=balanced_states(B=2, h=3, D=4))
@example(data=OVERFLOW_DRAWS[5, 4], state=(np.full((2, 3, 4), 10.0), -np.ones((2, 3))))  # found at 1000
def test_alpha_zero_is_the_relu_flow(data, state):
    X, y = data
    W, s = state
    assume(exponential_field_is_representable(X, W))
    args = LogPolarFlow.args(BE, X, y, s=s)
    lp = logpolar_state(W)
    np.testing.assert_array_equal(
        LeakyLogPolarFlow("exponential", 0.0)(0.0, lp, args), LogPolarFlow()(0.0, lp, args)
    )


@settings(max_examples=30, deadline=None)
@given(
    data=separated_datasets(n=5, D=4),
    state=balanced_states(B=2, h=3, D=4),
    alpha=st.sampled_from([0.0, 0.1, 0.5, 1.0]),
)
@example(
    data=OVERFLOW_DRAWS[5, 4], state=(np.full((2, 3, 4), 10.0), -np.ones((2, 3))), alpha=0.0
)  # issue 16 bug 5
def test_leaky_logpolar_field_is_the_plain_leaky_gradient_flow(data, state, alpha):
    """Equal fields wherever the exponential loss's gradient is representable (the pinned draw is not:
    ``strategies_min2024.OVERFLOW_DRAWS``)."""
    X, y = data
    W, s = state
    assume(exponential_field_is_representable(X, W))
    v = s * np.linalg.norm(W, axis=-1)
    gf = GradientFlow(BiasFreeNet((4, 3, 1), kink=alpha), Loss("exponential", "sum"))
    dW, dv = gf.net.unpack(gf(0.0, gf.net.pack([W, v[:, None, :]]), gf.args(BE, X, y, alpha=alpha)))
    dU, drho = split(
        LeakyLogPolarFlow("exponential", alpha)(0.0, logpolar_state(W), LogPolarFlow.args(BE, X, y, s=s)), 3
    )
    norm = np.linalg.norm(W, axis=-1)
    tol = 1e-12 * (1 + np.abs(dW).max() / norm.min())
    np.testing.assert_allclose(dU, direction_rate(W, dW), atol=tol)
    np.testing.assert_allclose(drho, dv[:, 0, :] / (s * norm), atol=tol)  # v = s e^rho


@settings(max_examples=30, deadline=None)
@given(data=separated_datasets(n=6, D=3), state=balanced_states(B=2, h=4, D=3))
def test_leaky_activated_sum_limits(data, state):
    X, y = data
    W, _ = state
    np.testing.assert_array_equal(leaky_activated_sum(W, X, y, 0.0), activated_sum(W, X, y))
    np.testing.assert_allclose(
        leaky_activated_sum(W, X, y, 1.0), np.broadcast_to(X.T @ y, W.shape), atol=1e-12
    )


@settings(max_examples=20, deadline=None)
@given(
    data=separated_datasets(n=5, D=4),
    state=balanced_states(B=2, h=3, D=4),
    alpha=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_direction_error_vanishes_at_eps_zero(data, state, alpha):
    X, y = data
    W, s = state
    U, rho = split(logpolar_state(W), 3)
    lp = join(U, rho - 1.0e4)  # e^{2 rho} underflows to 0: f = 0 exactly, the field is s P_u x_a
    err = LeakyLogPolarFlow("exponential", alpha).direction_error(lp, LogPolarFlow.args(BE, X, y, s=s))
    assert err.max() <= 1e-13 * (1 + np.abs(X).sum())


def test_reduced_direction_error_is_zero_on_target():
    u = np.array([[[1.0, 0.0, 0.0]]])
    xa = np.array([[[0.5, 2.0, -1.0]]])
    s = np.array([[-1.0]])
    du = -np.array([[[0.0, 2.0, -1.0]]])
    assert reduced_direction_error(u, du, s, xa)[0, 0] == 0.0


@pytest.mark.parametrize("alpha", [-0.1, 1.5])
def test_alpha_outside_unit_interval_is_refused(alpha):
    with pytest.raises(ValueError, match="alpha"):
        LeakyLogPolarFlow("exponential", alpha)
