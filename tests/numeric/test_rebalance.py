"""Neuron rebalancing (kumar2025 App. C.1.1, D.6): output kept, Lemma 9 balance, orbit-invariant."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.models.homogeneous_nets import output
from numeric.training.neuron_pursuit import rebalance


def _net(seed: int, depth: int, width: int, d: int = 4):
    rng = np.random.default_rng(seed)
    sizes = [d] + [width] * (depth - 1) + [1]
    return rng, [rng.normal(size=(1, sizes[i + 1], sizes[i])) for i in range(depth)]


def _rescale(rng: np.random.Generator, Ws, p: int):
    """A random point of the rescaling orbit: neuron (l, j) -> (t a, b / t^p)."""
    Ws = [W.copy() for W in Ws]
    for layer in range(len(Ws) - 1):
        t = np.exp(rng.uniform(-1.5, 1.5, size=Ws[layer].shape[1]))
        Ws[layer] *= t[None, :, None]
        Ws[layer + 1] /= t[None, None, :] ** p
    return Ws


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    depth=st.integers(2, 4),
    width=st.integers(1, 4),
    alpha_p=st.sampled_from([(0.0, 1), (0.5, 1), (1.0, 2), (0.3, 2)]),
)
def test_rebalance_keeps_output_balances_and_is_orbit_invariant(seed, depth, width, alpha_p):
    alpha, p = alpha_p
    rng, Ws = _net(seed, depth, width)
    X = rng.normal(size=(7, 4))
    scaled = _rescale(rng, Ws, p)
    out = output(Ws, X, alpha, p)
    np.testing.assert_allclose(output(scaled, X, alpha, p), out, rtol=1e-9, atol=1e-9 * np.abs(out).max())
    balanced = rebalance(scaled, p)
    np.testing.assert_allclose(output(balanced, X, alpha, p), out, rtol=1e-9, atol=1e-9 * np.abs(out).max())
    for layer in range(depth - 1):  # Lemma 9: |a|^2 = p |b|^2 for every hidden neuron
        a2 = (balanced[layer][0] ** 2).sum(axis=1)
        b2 = (balanced[layer + 1][0] ** 2).sum(axis=0)
        np.testing.assert_allclose(a2, p * b2, rtol=1e-8)
    again = rebalance(Ws, p)  # the same point from another point of the orbit
    for A, B in zip(balanced, again, strict=True):
        np.testing.assert_allclose(A, B, rtol=1e-7, atol=1e-9)


def test_rebalance_leaves_dead_neuron_alone():
    rng, Ws = _net(0, 3, 3)
    Ws[0][0, 1] = 0.0  # neuron 2 of layer 1 has no incoming weights: no finite balancing scale
    X = rng.normal(size=(5, 4))
    balanced = rebalance(Ws, 1)
    assert all(np.all(np.isfinite(W)) for W in balanced)
    np.testing.assert_array_equal(balanced[0][0, 1], 0.0)
    np.testing.assert_allclose(output(balanced, X, 0.0, 1), output(Ws, X, 0.0, 1), rtol=1e-9, atol=1e-12)
