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
