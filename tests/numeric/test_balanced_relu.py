"""The balanced log-polar flow against the plain (W, v) flow and the shared BiasFreeNet field."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from strategies_min2024 import (
    OVERFLOW_DRAWS,
    balanced_states,
    exponential_field_is_representable,
    separated_datasets,
)

from numeric.backend import get_backend
from numeric.models.balanced_relu import (
    LogPolarFlow,
    PlainFlow,
    direction_rate,
    join,
    logpolar_state,
    logpolar_to_plain,
    split,
)
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow

BE = get_backend("numpy")


@settings(max_examples=40, deadline=None)
@given(data=separated_datasets(n=5, D=4), state=balanced_states(B=3, h=4, D=4))
@example(data=OVERFLOW_DRAWS[5, 4], state=(np.full((3, 4, 4), -10.0), np.ones((3, 4))))
def test_logpolar_field_is_the_plain_field_on_the_balanced_manifold(data, state):
    X, y = data
    W, s = state
    assume(exponential_field_is_representable(X, W))
    args = LogPolarFlow.args(BE, X, y, s=s)
    lp = logpolar_state(W)
    plain = join(W, s * np.linalg.norm(W, axis=-1))
    dU, drho = split(LogPolarFlow("exponential")(0.0, lp, args), 4)
    dW, dv = split(PlainFlow("exponential")(0.0, plain, args), 4)
    norm = np.linalg.norm(W, axis=-1)
    scale = 1e-12 * (1 + np.abs(dW).max() / norm.min())
    np.testing.assert_allclose(dU, direction_rate(W, dW), atol=scale)
    np.testing.assert_allclose(drho, (W * dW).sum(-1) / norm**2, atol=scale)
    np.testing.assert_allclose(drho, dv / (s * norm), atol=scale)  # v = s e^rho


@settings(max_examples=25, deadline=None)
@given(data=separated_datasets(n=4, D=3), state=balanced_states(B=2, h=3, D=3))
@example(data=OVERFLOW_DRAWS[4, 3], state=(np.full((2, 3, 3), 10.0), -np.ones((2, 3))))
def test_plain_field_equals_the_shared_biasfree_gradient_flow(data, state):
    X, y = data
    W, s = state
    assume(exponential_field_is_representable(X, W))
    v = s * np.linalg.norm(W, axis=-1)
    net = BiasFreeNet((3, 3, 1), kink=0.0)
    gf = GradientFlow(net, Loss("exponential", "sum"))
    flat = net.pack([W, v[:, None, :]])
    ref = gf(0.0, flat, gf.args(BE, X, y, alpha=0.0))
    dW, dv = split(PlainFlow("exponential")(0.0, join(W, v), LogPolarFlow.args(BE, X, y, s=s)), 3)
    np.testing.assert_allclose(
        net.pack([dW, dv[:, None, :]]), ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max()
    )


def test_reduced_scale_is_representable_and_f_underflows_to_zero():
    X = np.array([[1.0, 0.2], [-0.9, -0.3]])
    y = np.array([1.0, -1.0])
    s = np.array([1.0, -1.0])
    st_ = logpolar_state(np.array([[[1.0, 0.0], [0.0, 1.0]]]))
    U, rho = split(st_, 2)
    tiny = join(U, rho - 1e4)
    args = LogPolarFlow.args(BE, X, y, s=s)
    assert np.all(LogPolarFlow().outputs(tiny, args) == 0.0)
    W, v = logpolar_to_plain(tiny, s[None])
    assert np.all(W == 0.0) and np.all(v == 0.0)
    assert np.all(np.isfinite(LogPolarFlow()(0.0, tiny, args)))


@given(f=st.floats(-1, 1), y=st.sampled_from([-1.0, 1.0]))
def test_residual_conventions(f, y):
    fa, ya = np.array([f]), np.array([y])
    r = {kind: -Loss(kind, "sum").dvalue(fa, ya)[0] for kind in ("logistic2", "logistic", "square")}
    assert r["logistic2"] == 2 * r["logistic"]  # the factor 2 is exact
    assert -Loss("exponential", "sum").dvalue(np.zeros(1), ya)[0] == y
    assert r["square"] == y - f
