"""Minibatch SGD of the kou2023 network: the step is the GD map (3.2) of the batch loss; records."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.backend import get_backend
from numeric.data.datasets import Dataset
from numeric.engine.trajectory import Status
from numeric.training.fixed_readout_sgd import gaussian_weights, minibatch_sgd

BE = get_backend("numpy")


def _data(rng: np.random.Generator, n: int, d: int) -> Dataset:
    X = rng.normal(size=(n, d))
    return Dataset(X, np.where(rng.random(n) < 0.5, 1.0, -1.0), "random")


def _gd_step(W: np.ndarray, X: np.ndarray, y: np.ndarray, gamma: float, lr: float) -> np.ndarray:
    """Eq. (3.2) written out with loops over neurons (independent of the implementation)."""
    two_m = W.shape[0]
    m, n = two_m // 2, len(y)
    j = np.r_[np.ones(m), -np.ones(m)]
    Z = W @ X.T
    f = (j[:, None] / m * np.maximum(Z, gamma * Z)).sum(axis=0)
    g = 1.0 / (1.0 + np.exp(y * f))
    out = W.copy()
    for r in range(two_m):
        slope = np.where(Z[r] >= 0, 1.0, gamma)
        out[r] += lr / (n * m) * ((g * slope * j[r] * y)[:, None] * X).sum(axis=0)
    return out


@pytest.mark.parametrize("gamma", [0.0, 0.1, 1.0])
def test_full_batch_epoch_is_the_gd_map(gamma):
    rng = np.random.default_rng(0)
    train, test = _data(rng, 12, 5), _data(rng, 7, 5)
    W0 = gaussian_weights(rng, 3, 5, [0.3, 1.0])
    rec = minibatch_sgd(BE, W0, train, test, gamma=gamma, lr=0.7, batch=64, epochs=2, rng=rng)
    for b in range(2):
        want = _gd_step(_gd_step(W0[b], train.X, train.y, gamma, 0.7), train.X, train.y, gamma, 0.7)
        np.testing.assert_allclose(rec.weights[b], want, rtol=0, atol=1e-13)
    assert rec.steps.tolist() == [0, 1, 2]


def test_records_shapes_and_epoch_zero():
    rng = np.random.default_rng(1)
    train, test = _data(rng, 50, 4), _data(rng, 9, 4)
    W0 = gaussian_weights(rng, 6, 4, [1e-3, 1.0, 2.0])
    rec = minibatch_sgd(BE, W0, train, test, gamma=0.1, lr=0.1, batch=8, epochs=3, rng=rng)
    assert rec.stable_rank.shape == (3, 4, 2) and rec.test_error.shape == (3, 4)
    assert rec.steps.tolist() == [0, 7, 14, 21]  # ceil(50 / 8) = 7 batches per epoch
    s = np.linalg.svd(W0[:, :6], compute_uv=False)
    np.testing.assert_allclose(rec.stable_rank[:, 0, 0], (s**2).sum(1) / s[:, 0] ** 2, rtol=1e-12)
    assert np.all((rec.test_error >= 0) & (rec.test_error <= 1))


@settings(max_examples=15, deadline=None)
@given(gamma=st.floats(0.0, 1.0), batch=st.integers(1, 20), seed=st.integers(0, 10**6))
def test_zero_init_keeps_rows_equal(gamma, batch, seed):
    """With W0 = 0 and sigma'(0) = 1 every neuron of a class gets the same update at every step: rank one
    (up to rounding)."""
    rng = np.random.default_rng(seed)
    train, test = _data(rng, 15, 3), _data(rng, 5, 3)
    rec = minibatch_sgd(
        BE, np.zeros((1, 8, 3)), train, test, gamma=gamma, lr=0.5, batch=batch, epochs=2, rng=rng
    )
    W = rec.weights[0]
    tol = 1e-12 * np.abs(W).max()  # BLAS may round different rows of one product differently
    np.testing.assert_allclose(W[:4], np.broadcast_to(W[0], (4, 3)), rtol=0, atol=tol)
    np.testing.assert_allclose(W[4:], np.broadcast_to(W[4], (4, 3)), rtol=0, atol=tol)
    assert np.all(rec.stable_rank[0, -1] < 1 + 1e-9)


def test_rejects_bad_arguments():
    rng = np.random.default_rng(2)
    train = _data(rng, 5, 2)
    with pytest.raises(ValueError):
        minibatch_sgd(BE, np.zeros((1, 2, 2)), train, train, gamma=0.0, lr=0.1, batch=0, epochs=1, rng=rng)


def _old_loop(W0, train, test, gamma, lr, batch, epochs, rng):
    """The loop minibatch_sgd ran before it moved onto the engine: ``state + lr * net(...)`` per batch."""
    from numeric.models.fixed_readout import FixedReadoutNet

    B, two_m, d = W0.shape
    net = FixedReadoutNet(two_m // 2, d)
    g = np.broadcast_to(np.asarray(gamma, float), (B,))
    state = net.pack((W0,))
    errs = []
    for _ in range(epochs):
        perm = np.argsort(rng.random((B, train.P)), axis=1)
        for start in range(0, train.P, batch):
            idx = perm[:, start : start + batch]
            state = state + lr * net(None, state, net.args(BE, train.X[idx], train.y[idx], gamma=g))
        errs.append((net.margins(state, net.args(BE, test.X, test.y, gamma=g)) <= 0).mean(axis=-1))
    return net.unpack(state)[0], np.stack(errs, axis=1)


@pytest.mark.parametrize("batch", [4, 7, 50])  # 28 points: 7 batches of 4; 4 of 7; one short batch of 28
def test_engine_steps_are_the_old_loop_bit_for_bit(batch):
    rng = np.random.default_rng(4)
    train, test = _data(rng, 28, 5), _data(rng, 9, 5)
    W0 = gaussian_weights(rng, 3, 5, [0.1, 1.0, 3.0])
    gamma = np.array([0.0, 0.3, 1.0])
    rec = minibatch_sgd(
        BE, W0, train, test, gamma=gamma, lr=0.4, batch=batch, epochs=3, rng=np.random.default_rng(9)
    )
    W, err = _old_loop(W0, train, test, gamma, 0.4, batch, 3, np.random.default_rng(9))
    np.testing.assert_array_equal(rec.weights, W)
    np.testing.assert_array_equal(rec.test_error[:, 1:], err)
    assert (rec.status == Status.SUCCESS).all()


def test_a_nonfinite_member_is_nonfinite_with_nan_records_and_the_others_unaffected():
    rng = np.random.default_rng(5)
    train, test = _data(rng, 12, 3), _data(rng, 5, 3)
    W0 = gaussian_weights(rng, 2, 3, [1.0, 1.0, 1.0])
    W0[1, 0, 0] = np.inf
    kw = dict(gamma=0.5, lr=0.3, batch=5, epochs=2)
    with np.errstate(invalid="ignore"):
        rec = minibatch_sgd(BE, W0, train, test, rng=np.random.default_rng(1), **kw)
    assert rec.status.tolist() == [Status.SUCCESS, Status.NONFINITE, Status.SUCCESS]
    assert np.isnan(rec.test_error[1, 1:]).all() and np.isnan(rec.stable_rank[1, 1:]).all()
    with np.errstate(invalid="ignore", over="ignore"):
        W, err = _old_loop(W0, train, test, 0.5, 0.3, 5, 2, np.random.default_rng(1))
    np.testing.assert_array_equal(rec.weights[[0, 2]], W[[0, 2]])
    np.testing.assert_array_equal(rec.test_error[[0, 2], 1:], err[[0, 2]])
    assert np.isfinite(err[1]).all()  # the old loop reported a test error for the non-finite member
