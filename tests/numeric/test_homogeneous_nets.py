"""numeric.models.homogeneous_nets: Euler's identity, analytic gradients, per-neuron NCF, KKT balance."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.models.homogeneous_nets import (
    NeuronNCF,
    degree,
    kkt_cosine,
    layer_candidates,
    ncf_and_grad,
    output,
    projected_gradient_ascent,
)

ACTS = st.sampled_from([(0.0, 1), (0.5, 1), (0.0, 2), (1.0, 2), (0.5, 3), (1.0, 3)])
EPS = np.finfo(float).eps


def _net(rng, d, width, depth, B=3):
    shapes = [(width, d)] + [(width, width)] * (depth - 2) + [(1, width)]
    return [rng.normal(size=(B, *s)) / np.sqrt(s[1]) for s in shapes]


@settings(max_examples=30)
@given(act=ACTS, depth=st.integers(2, 4), seed=st.integers(0, 2**16))
def test_euler_identity(act, depth, seed):
    rng = np.random.default_rng(seed)
    alpha, p = act
    X, z = rng.normal(size=(7, 3)), rng.normal(size=7)
    Ws = _net(rng, 3, 3, depth)
    value, grads = ncf_and_grad(Ws, X, z, alpha, p)
    lhs = sum((W * g).sum(axis=(1, 2)) for W, g in zip(Ws, grads, strict=True))
    D = degree(depth, p)
    assert np.allclose(lhs, D * value, rtol=1e-10, atol=1e-10 * np.abs(z).sum() * (1 + np.abs(value).max()))


@settings(max_examples=20)
@given(
    act=st.sampled_from([(0.0, 2), (1.0, 2), (0.5, 3)]), depth=st.integers(2, 3), seed=st.integers(0, 2**16)
)
def test_gradient_matches_finite_differences(act, depth, seed):
    rng = np.random.default_rng(seed)
    alpha, p = act
    X, z = rng.normal(size=(5, 3)), rng.normal(size=5)
    Ws = _net(rng, 3, 2, depth, B=1)
    _, grads = ncf_and_grad(Ws, X, z, alpha, p)
    h = 1e-6
    for layer, W in enumerate(Ws):
        E = np.zeros_like(W)
        E[0, 0, 0] = h
        plus = [w + E if i == layer else w for i, w in enumerate(Ws)]
        minus = [w - E if i == layer else w for i, w in enumerate(Ws)]
        fd = (ncf_and_grad(plus, X, z, alpha, p)[0] - ncf_and_grad(minus, X, z, alpha, p)[0]) / (2 * h)
        assert np.allclose(fd, grads[layer][:, 0, 0], rtol=1e-5, atol=1e-6)


@settings(max_examples=20)
@given(p=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_two_layer_separation_is_exact(p, seed):
    """Two layers, sigma = x^p: adding neurons (a_j, b_j) adds exactly sum_j b_j sigma(a_j^T x) (Sec. 3.3)."""
    rng = np.random.default_rng(seed)
    X, r = rng.normal(size=(6, 3)), rng.normal(size=6)
    Ws = _net(rng, 3, 2, 2, B=1)
    ncf = layer_candidates(Ws, X, r[None], 1.0, p)[0]
    a, b = rng.normal(size=(2, 3)), rng.normal(size=(2, 1))
    bigger = [np.concatenate([Ws[0], a[None]], axis=1), np.concatenate([Ws[1], b.T[None]], axis=2)]
    gain = r @ (output(bigger, X, 1.0, p)[0] - output(Ws, X, 1.0, p)[0])
    per_neuron = ncf.value_and_grad(np.concatenate([a, b], axis=1)[None])[0].sum()
    assert np.isclose(gain, per_neuron, rtol=1e-9, atol=1e-9)


@settings(max_examples=15)
@given(act=st.sampled_from([(0.5, 2), (1.0, 2), (0.5, 3)]), seed=st.integers(0, 2**16))
def test_balance_at_positive_kkt_points(act, seed):
    """Lemma 19: |a|^2 = p |b|^2 and lambda = (p+1) h at positive KKT points found by PGA."""
    rng = np.random.default_rng(seed)
    alpha, p = act
    ncf = NeuronNCF(rng.normal(size=(1, 3, 10)), rng.normal(size=(1, 2, 10)), alpha, p)
    u, value = projected_gradient_ascent(
        ncf.value_and_grad, rng.normal(size=(1, 8, 5)), step=0.1 / p, iters=3000
    )
    _, grad = ncf.value_and_grad(u)
    best = int(np.argmax(value[0]))
    if value[0, best] <= 0 or kkt_cosine(u, grad)[0, best] < 1 - 1e-10:
        return  # no positive KKT point reached: nothing to check
    a2, b2 = (u[0, best, :3] ** 2).sum(), (u[0, best, 3:] ** 2).sum()
    assert abs(a2 - p * b2) < 1e-6
    lam = grad[0, best] @ u[0, best]
    assert np.isclose(lam, (p + 1) * value[0, best], rtol=1e-10)
