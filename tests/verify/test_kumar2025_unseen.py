"""kumar2025 test sets on a finite input space hold no training input (experiments.unseen)."""

from __future__ import annotations

import numpy as np

from verify.papers.kumar2025.experiments import _hypercube, unseen


def test_hypercube_test_draws_exclude_training_points():
    rng = np.random.default_rng(0)
    X = _hypercube(rng, 300, 10)
    draws = _hypercube(rng, 20_000, 10)
    kept = unseen(draws, X)
    train = {row.tobytes() for row in X}
    assert not any(row.tobytes() in train for row in kept)
    # about a quarter of the 1024 inputs are training points, so about a quarter of the draws go
    assert 0.15 < 1 - len(kept) / len(draws) < 0.35


def test_continuous_draws_are_kept():
    rng = np.random.default_rng(1)
    X, draws = rng.normal(size=(50, 4)), rng.normal(size=(500, 4))
    assert np.array_equal(unseen(draws, X), draws)
