"""The analytic numeric vector fields agree with exact SymPy derivatives.

``symbolic.gradient_flow`` differentiates the loss expression exactly on rational
instances; ``numeric.models.vector_fields.GradientFlow`` uses hand-written backpropagation in
float64.  They must agree to 1e-12 relative: the float64 evaluation of a field made of
sums of P * H products of O(1) rationals carries a relative error of a few
``P * H * eps ~ 1e-14``, so 1e-12 leaves two orders of margin and still catches any
wrong term (which would be O(1) relative).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.backend import get_backend
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow
from symbolic.gradient_flow import deep_field, two_layer_field

RTOL = 1e-12


def rationals(shape: tuple[int, ...]):
    """Random dyadic rationals p/2^k, |p| <= 9, k <= 3: exact in float64, and so are the network's
    sums and products at these sizes.  A pre-activation that is exactly zero (a kink) is then zero
    in both layers of the comparison; with q = 7 it was not (fl(1/7) * 7 != 1) and the two sides
    legitimately disagreed by the kink's jump."""
    n = int(np.prod(shape))
    dyadic = st.builds(Fraction, st.integers(-9, 9), st.sampled_from([1, 2, 4, 8]))
    return st.lists(dyadic, min_size=n, max_size=n).map(lambda v: np.array(v, dtype=object).reshape(shape))


def _numeric_field(Ws, X, y, alpha, loss: Loss, kink, tau) -> list[np.ndarray]:
    be = get_backend("numpy")
    widths = (Ws[0].shape[1], *[W.shape[0] for W in Ws])
    net = BiasFreeNet(widths, kink=float(kink))
    flow = GradientFlow(net, loss)
    y0 = net.pack([np.asarray(W, dtype=float)[None] for W in Ws])
    args = flow.args(be, np.asarray(X, dtype=float), np.asarray(y, dtype=float), alpha=float(alpha), tau=tau)
    return [W[0] for W in net.unpack(flow(np.zeros(1), y0, args))]


def _as_float(M: sp.Matrix) -> np.ndarray:
    return np.array(M.evalf(30).tolist(), dtype=float)


def _assert_close(numeric: list[np.ndarray], exact: list[sp.Matrix]) -> None:
    scale = max(float(np.max(np.abs(_as_float(E)))) for E in exact) or 1.0
    for got, E in zip(numeric, exact, strict=True):
        np.testing.assert_allclose(got, _as_float(E), rtol=0, atol=RTOL * scale)


@settings(max_examples=8, deadline=None)
@given(
    W1=rationals((3, 2)),
    W2=rationals((1, 3)),
    X=rationals((4, 2)),
    y=rationals((4,)),
    alpha=st.sampled_from([Fraction(0), Fraction(1, 5), Fraction(1, 2), Fraction(1)]),
    loss=st.sampled_from(["square", "logistic"]),
)
def test_two_layer_field_matches_exact_derivative(W1, W2, X, y, alpha, loss):
    exact = two_layer_field(sp.Matrix(W1), sp.Matrix(W2), sp.Matrix(X), sp.Matrix(y), alpha, loss=loss)
    _assert_close(_numeric_field([W1, W2], X, y, alpha, Loss(loss), 0, 1.0), list(exact))


@settings(max_examples=6, deadline=None)
@given(
    W1=rationals((3, 2)),
    W2=rationals((2, 3)),
    W3=rationals((1, 2)),
    X=rationals((3, 2)),
    y=rationals((3,)),
    alpha=st.sampled_from([Fraction(0), Fraction(1, 3)]),
)
def test_deep_field_matches_exact_derivative(W1, W2, W3, X, y, alpha):
    exact = deep_field([sp.Matrix(W) for W in (W1, W2, W3)], sp.Matrix(X), sp.Matrix(y), alpha)
    _assert_close(_numeric_field([W1, W2, W3], X, y, alpha, Loss("square"), 0, 1.0), exact)


@pytest.mark.parametrize("kink", [0, Fraction(1, 2), 1])
def test_kink_convention_matches_on_an_exactly_zero_preactivation(kink):
    """A weight row orthogonal to a data point: the numeric field uses sigma'(0) = kink exactly."""
    W1 = np.array([[1, -1], [2, 1]], dtype=object)  # row 0 is orthogonal to x = (1, 1)
    W2 = np.array([[3, -2]], dtype=object)
    X = np.array([[1, 1], [2, -1]], dtype=object)
    y = np.array([1, -1], dtype=object)
    alpha = Fraction(1, 4)
    exact = two_layer_field(sp.Matrix(W1), sp.Matrix(W2), sp.Matrix(X), sp.Matrix(y), alpha, kink=kink)
    _assert_close(_numeric_field([W1, W2], X, y, alpha, Loss("square"), kink, 1.0), list(exact))


def test_tau_and_sum_reduction_scale_the_field():
    W1 = np.array([[1, 2], [-1, 1], [3, -2]], dtype=object)
    W2 = np.array([[1, -1, 2]], dtype=object)
    X = np.array([[1, 2], [-3, 1], [2, 2]], dtype=object)
    y = np.array([1, -2, 3], dtype=object)
    exact = two_layer_field(sp.Matrix(W1), sp.Matrix(W2), sp.Matrix(X), sp.Matrix(y), 0, tau=2)
    summed = [3 * E for E in exact]  # a summed loss over P = 3 samples is 3x the mean loss
    _assert_close(_numeric_field([W1, W2], X, y, 0, Loss("square", "sum"), 0, 2.0), summed)
