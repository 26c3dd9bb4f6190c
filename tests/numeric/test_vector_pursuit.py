"""numeric.training.vector_pursuit: two-layer vector-output nets, their Neuron Pursuit (kumar2025 Rem. 3)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.models.homogeneous_nets import NeuronNCF
from numeric.models.homogeneous_nets import loss_and_grad as scalar_loss_and_grad
from numeric.training.neuron_pursuit import PursuitConfig
from numeric.training.vector_pursuit import loss_and_grad, predict, vector_pursuit

ACTIVATIONS = [(1.0, 2), (0.5, 1), (0.0, 2)]


def _problem(seed: int, n: int = 9, d: int = 4, k: int = 3, K: int = 2):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.normal(size=(n, K)), rng.normal(size=(k, d)), rng.normal(size=(K, k))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), act=st.sampled_from(ACTIVATIONS))
def test_gradient_matches_central_differences(seed: int, act) -> None:
    X, Y, W1, W2 = _problem(seed)
    cfg = PursuitConfig(alpha=act[0], p=act[1])
    _, g1, g2 = loss_and_grad(W1, W2, X, Y, cfg)
    h = 1e-6
    for W, g, which in ((W1, g1, 0), (W2, g2, 1)):
        num = np.zeros_like(W)
        for idx in np.ndindex(W.shape):
            E = np.zeros_like(W)
            E[idx] = h
            args = [(W1 + E, W2), (W1 - E, W2)] if which == 0 else [(W1, W2 + E), (W1, W2 - E)]
            num[idx] = (loss_and_grad(*args[0], X, Y, cfg)[0] - loss_and_grad(*args[1], X, Y, cfg)[0]) / (
                2 * h
            )
        # central differences: O(h^2) truncation, O(eps |L| / h) rounding (p = 1 kinks are a.s. not crossed)
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-5)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), act=st.sampled_from(ACTIVATIONS))
def test_one_output_agrees_with_homogeneous_nets(seed: int, act) -> None:
    X, Y, W1, W2 = _problem(seed, K=1)
    cfg = PursuitConfig(alpha=act[0], p=act[1])
    loss, g1, g2 = loss_and_grad(W1, W2, X, Y, cfg)
    ref_loss, (r1, r2) = scalar_loss_and_grad([W1[None], W2[None]], X, Y[:, 0], act[0], act[1])
    np.testing.assert_allclose(loss, ref_loss[0], rtol=1e-13)
    np.testing.assert_allclose(g1, r1[0], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(g2, r2[0], rtol=1e-12, atol=1e-12)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31), delta=st.floats(1e-3, 1.0), act=st.sampled_from(ACTIVATIONS))
def test_inserting_a_neuron_changes_the_loss_by_its_ncf(seed: int, delta: float, act) -> None:
    """Two layers: H gains exactly delta^(p+1) b sigma(a^T x), so
    L(new) = L - delta^(p+1) h(a, b) + delta^(2p+2) |b sigma(a^T X)|^2 / 2 with h the candidate NCF."""
    X, Y, W1, W2 = _problem(seed)
    alpha, p = act
    cfg = PursuitConfig(alpha=alpha, p=p)
    rng = np.random.default_rng(seed + 1)
    a, b = rng.normal(size=X.shape[1]), rng.normal(size=Y.shape[1])
    R = Y - predict(W1, W2, X, cfg)
    h = NeuronNCF(X.T[None], R.T[None], alpha, p).value_and_grad(np.concatenate([a, b])[None, None])[0][0, 0]
    new = loss_and_grad(np.vstack([W1, delta * a]), np.hstack([W2, delta * b[:, None]]), X, Y, cfg)[0]
    extra = np.outer(np.maximum(X @ a, alpha * (X @ a)) ** p, b)
    expected = (
        loss_and_grad(W1, W2, X, Y, cfg)[0]
        - delta ** (p + 1) * h
        + 0.5 * delta ** (2 * p + 2) * (extra**2).sum()
    )
    np.testing.assert_allclose(new, expected, rtol=1e-10, atol=1e-10)


def _two_neuron_target():
    """``(rng, X, Y, cfg)``: Y = B sigma(A X^T) with 2 hidden x^2 neurons, and an NP config that fits it."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 3))
    A, B = rng.normal(size=(2, 3)), rng.normal(size=(2, 2))
    cfg = PursuitConfig(
        alpha=1.0, p=2, restarts=5, ncf_iters=300, gd_steps=3000, lr=3e-4, max_iter=8, tol=1e-3
    )
    Y = predict(A, B, X, cfg)
    return rng, X, Y, cfg


def test_pursuit_fits_a_two_neuron_vector_target() -> None:
    """Y = B sigma(A X^T) with 2 hidden x^2 neurons: NP's insertions descend and it fits the data."""
    rng, X, Y, cfg = _two_neuron_target()
    res = vector_pursuit(X, Y, cfg, rng)
    assert res.converged, [s.rel_error for s in res.steps]
    assert res.steps[0].descent
    assert [s.widths[0] for s in res.steps] == list(range(1, len(res.steps) + 1))
    stopped = vector_pursuit(X, Y, cfg, np.random.default_rng(4), stop=lambda W1, W2: True)
    assert stopped.converged and len(stopped.steps) == 1


def test_pursuit_runs_on_the_device_with_a_few_syncs_per_iteration() -> None:
    """On the strict CPU stand-in for CuPy: no implicit host conversion (it would raise), the NumPy run bit
    for bit, no sync in a gradient evaluation, and syncs only where the algorithm reads a scalar. Budget
    per NP iteration: the PGA values (1), the norm for delta (1), the insertion losses (<= 1 + shrinks),
    the loss after GD (1); and the engine's GD: a finiteness check every 64 steps and <= 4 at the ends."""
    from strict_backend import SYNCS, StrictArray, strict_backend

    from numeric.backend import to_numpy

    xp = strict_backend().xp
    _, X, Y, cfg = _two_neuron_target()
    host = vector_pursuit(X, Y, cfg, np.random.default_rng(3))
    with SYNCS.counting() as n:
        dev = vector_pursuit(xp.asarray(X), xp.asarray(Y), cfg, np.random.default_rng(3))
    iters = len(dev.steps)
    assert dev.reason == host.reason and iters == len(host.steps) >= 2
    assert [s.loss_after for s in dev.steps] == [s.loss_after for s in host.steps]
    for W, ref in zip(dev.weights, host.weights, strict=True):
        assert isinstance(W, StrictArray)
        np.testing.assert_array_equal(to_numpy(W), ref)
    assert n[0] <= iters * (cfg.shrink_later + 4) + iters * (cfg.gd_steps // 64 + 4)
    with SYNCS.counting() as n:
        loss_and_grad(*dev.weights, xp.asarray(X), xp.asarray(Y), cfg)
    assert n[0] == 0
