"""The one-sided NCF of the ReLU saddle (verify/papers/kumar2025/saddle_relu.py): homogeneity, gradient,
and the exact decomposition of the output along the new layer-1 neurons."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from numeric.models.homogeneous_nets import output
from verify.papers.kumar2025.saddle_relu import _layer1_state, _one_sided_ncf, _one_sided_parts, _relu_saddle

D, N, WIDTH = 5, 16, 3
M = WIDTH - 1


def _saddle(seed: int):
    X, y, Ws, _ = _relu_saddle(np.random.default_rng(seed), D, N, WIDTH)
    return X, y - output(Ws, X, 0.0, 1)[0], Ws


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6))
def test_euler_identity_and_gradient(seed: int) -> None:
    """u . grad N(u) = 2 N(u) (2-homogeneous) and the gradient matches central differences at points
    away from every kink (pre-activations and the dead samples' iota)."""
    X, ybar, Ws = _saddle(seed)
    vg = _one_sided_ncf(X, ybar, Ws, M)
    rng = np.random.default_rng(seed + 1)
    for _ in range(100):  # a point away from every kink; drawn here, not by assume(): most draws sit near
        u = rng.normal(size=M * (D + 1))  # one, and Hypothesis's filter health check then fails at random
        _, pre, _, inc, live = _one_sided_parts(X, Ws, u, M)
        if np.abs(pre).min() > 1e-4 and (live | (np.abs(inc) > 1e-4)).all():
            break
    else:
        assume(False)
    value, grad = vg(u)
    np.testing.assert_allclose(u @ grad, 2 * value, rtol=1e-12, atol=1e-12)
    fd = np.array([(vg(u + 1e-7 * e)[0] - vg(u - 1e-7 * e)[0]) / 2e-7 for e in np.eye(u.size)])
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-6)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.floats(1e-4, 1e-2))
def test_layer1_block_decomposes_exactly(seed: int, s: float) -> None:
    """With only (A_1, B_2[0, :]) nonzero and |iota| below the live h_2, H(w_n bar, w_z) - H(w_n bar, 0) is
    exactly H_1^pm (no remainder), dead samples (h_2 = 0) included."""
    X, _, Ws = _saddle(seed)
    rng = np.random.default_rng(seed + 2)
    moved = [W.copy() for W in Ws]
    moved[0][0, 1:] = s * rng.normal(size=(M, D))
    moved[1][0, 0, 1:] = s * rng.normal(size=M)
    h1, _, _, inc, live = _one_sided_parts(X, Ws, _layer1_state(moved)[0], M)
    h2 = Ws[1][0, 0, 0] * np.maximum(X @ Ws[0][0, 0], 0)
    assume(np.abs(inc).max() < h2[live].min())
    diff = output(moved, X, 0.0, 1)[0] - output(Ws, X, 0.0, 1)[0]
    np.testing.assert_allclose(diff, h1, rtol=0, atol=1e-14 * (1 + np.abs(output(Ws, X, 0.0, 1)[0]).max()))
