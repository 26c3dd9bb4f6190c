"""Neuron Pursuit on tiny problems: a planted 2-neuron target is recovered exactly."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.training.neuron_pursuit import PursuitConfig, neuron_pursuit


@pytest.mark.parametrize("alpha,p,lr", [(0.0, 1, 0.003), (1.0, 2, 0.0003)])
def test_recovers_planted_two_neuron_target(alpha, p, lr):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 5))
    u1, u2 = np.array([1.0, 0.5, 0, 0, 0]), np.array([0, 0, 1.0, -1, 0])
    sigma = lambda z: np.maximum(z, alpha * z) ** p  # noqa: E731
    y = sigma(X @ u1) + 0.7 * sigma(X @ u2)
    cfg = PursuitConfig(
        depth=2, alpha=alpha, p=p, restarts=8, ncf_iters=300, gd_steps=4000, lr=lr, max_iter=4
    )
    steps = []
    result = neuron_pursuit(X, y, cfg, rng, progress=steps.append)
    assert result.converged and len(result.steps) == 2 and result.steps[-1].widths == [2]
    assert all(s.descent for s in steps)  # Lemmas 12/13 at every insertion
    X_test = rng.normal(size=(200, 5))
    y_test = sigma(X_test @ u1) + 0.7 * sigma(X_test @ u2)
    assert np.linalg.norm(result.predict(X_test, cfg) - y_test) < 1e-6 * np.linalg.norm(y_test)
    if p == 1:  # ReLU neurons are identifiable (x^2 ones only up to a rotation of the quadratic form)
        W1 = result.weights[0] / np.linalg.norm(result.weights[0], axis=1, keepdims=True)
        cosines = W1 @ np.stack([u1, u2]).T / np.linalg.norm([u1, u2], axis=1)
        assert np.allclose(np.sort(cosines.max(axis=0)), 1.0, atol=1e-6)  # each planted neuron found


def test_degenerate_ncf_stops():
    """sigma = x^2, two layers, y with X^T diag(y) X = 0: the NCF vanishes and NP is not applicable."""
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    cfg = PursuitConfig(depth=2, alpha=1.0, p=2, restarts=4, ncf_iters=200, gd_steps=10)
    assert neuron_pursuit(X, y, cfg, np.random.default_rng(0)).reason == "degenerate NCF"


def test_bad_config_rejected():
    with pytest.raises(ValueError):
        PursuitConfig(depth=1)


def _planted_relu_problem():
    """``(X, y)``: a 2-neuron ReLU target in 5 dimensions (as above), 100 samples."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 5))
    y = np.maximum(X @ [1.0, 0.5, 0, 0, 0], 0) + 0.7 * np.maximum(X @ [0, 0, 1.0, -1, 0], 0)
    return X, y


@pytest.mark.parametrize(
    "extra",
    [{}, {"rebalance": True, "lr_check": 100}],
    ids=["plain", "rebalanced-halving"],
)
def test_pursuit_runs_on_the_device_bit_for_bit(extra):
    """On the strict CPU stand-in for CuPy: no implicit host conversion (it would raise), the weights, losses
    and deltas of the NumPy run bit for bit (the strict backend computes with NumPy underneath), the
    weights left on the device, and :meth:`PursuitResult.on_host` bringing them back."""
    from strict_backend import StrictArray, strict_backend

    from numeric.backend import to_numpy

    xp = strict_backend().xp
    X, y = _planted_relu_problem()
    cfg = PursuitConfig(depth=3, restarts=8, ncf_iters=300, gd_steps=400, lr=0.003, max_iter=3, **extra)
    host = neuron_pursuit(X, y, cfg, np.random.default_rng(1))
    dev = neuron_pursuit(xp.asarray(X), xp.asarray(y), cfg, np.random.default_rng(1))
    assert dev.reason == host.reason and len(dev.steps) == len(host.steps) >= 2
    assert dev.steps == host.steps  # every logged float (NCF maxima, deltas, losses, errors) and width
    for W, ref in zip(dev.weights, host.weights, strict=True):
        assert isinstance(W, StrictArray)
        np.testing.assert_array_equal(to_numpy(W), ref)
    back = dev.on_host()
    assert all(type(W) is np.ndarray for W in back.weights) and back.steps is dev.steps


def test_pursuit_syncs_only_to_read_the_scalars_that_steer_it():
    """Sync budget on the strict backend (explicit syncs only; an implicit one raises in ``numeric/``).
    Once: |y| (1), the first NCF maximum (1), the first delta rule (<= 1 + shrink_first losses).  Per
    iteration: the engine's GD (a finiteness check every 64 steps, <= 4 at the ends), the loss after GD (1);
    before the next: the candidate NCF maxima (one per hidden layer), |w| for delta (1), the delta rule
    (<= 1 + shrink_later losses).  None in a loss/gradient evaluation.  Measured: 43 syncs for 2 iterations
    of 400 GD steps (budget 57), where 1700 GD and PGA steps (2 x 400, 300 + 2 x 300) would be as many
    syncs if a step read a value back."""
    from strict_backend import SYNCS, strict_backend

    from numeric.models.homogeneous_nets import loss_and_grad

    xp = strict_backend().xp
    X, y = _planted_relu_problem()
    cfg = PursuitConfig(depth=3, restarts=8, ncf_iters=300, gd_steps=400, lr=0.003, max_iter=3)
    with SYNCS.counting() as n:
        res = neuron_pursuit(xp.asarray(X), xp.asarray(y), cfg, np.random.default_rng(1))
    iters = len(res.steps)
    assert iters >= 2
    once = 2 + 1 + cfg.shrink_first
    per_iteration = (cfg.gd_steps // 64 + 4) + 1 + (cfg.depth - 1) + 1 + (1 + cfg.shrink_later)
    assert 0 < n[0] <= once + iters * per_iteration, n[0]
    Ws = [xp.asarray(W[None]) for W in res.on_host().weights]
    with SYNCS.counting() as n:
        loss_and_grad(Ws, xp.asarray(X), xp.asarray(y), cfg.alpha, cfg.p)
    assert n[0] == 0


def test_rebalance_syncs_once_per_sweep():
    """The stopping test of :func:`rebalance` reads one scalar per sweep (the largest |log t| over all
    layers); with ``tol = 0`` no sweep stops it, so 3 sweeps are exactly 3 syncs; NumPy's result bit for
    bit."""
    from strict_backend import SYNCS, strict_backend

    from numeric.backend import to_numpy
    from numeric.training.neuron_pursuit import rebalance

    xp = strict_backend().xp
    rng = np.random.default_rng(2)
    Ws = [rng.normal(size=(1, 3, 4)), rng.normal(size=(1, 2, 3)), rng.normal(size=(1, 1, 2))]
    with SYNCS.counting() as n:
        dev = rebalance([xp.asarray(W) for W in Ws], 1, tol=0.0, sweeps=3)
    assert n[0] == 3
    for W, ref in zip(dev, rebalance(Ws, 1, tol=0.0, sweeps=3), strict=True):
        np.testing.assert_array_equal(to_numpy(W), ref)
