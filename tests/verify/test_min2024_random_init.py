"""min2024 Sec. 3.1's random-initialization remark (``random_init``): the data built for the exact cases
satisfy Assumption 1 and have the start probability they are used for, the control's shapes start outside
their own class, and the search's ratio is deterministic and below 1 on its starts."""

from __future__ import annotations

import numpy as np

from numeric.data.separated_data import separation
from verify.papers.min2024.instances import SEARCH_CONE, cone_starts
from verify.papers.min2024.random_init import (
    _start_ratio,
    biased,
    collinear_positives,
    gaussian,
    starts_own,
    two_positives,
)


def _fraction(X: np.ndarray, y: np.ndarray, sample, draws: int = 200_000, label: float = 1.0) -> float:
    rng = np.random.default_rng(5)
    W = sample(rng, (draws, X.shape[1]), X, y, np.full(draws, label))
    return float(starts_own(W, X, y, label).mean())


def test_exact_cases_satisfy_assumption_1_with_their_start_probability():
    X, y = collinear_positives(np.random.default_rng(0), 6)
    assert separation(X, y) > np.cos(1.0) - 1e-12
    assert abs(_fraction(X, y, gaussian) - 0.5) < 5 * 0.5 / np.sqrt(200_000)
    X, y = two_positives(np.pi / 3)
    assert separation(X, y) > 0
    assert abs(_fraction(X, y, gaussian) - 2 / 3) < 5 * 0.48 / np.sqrt(200_000)


def test_biased_shapes_start_outside_their_own_class():
    X, y = collinear_positives(np.random.default_rng(0), 6)
    assert _fraction(X, y, biased) < 0.05  # Phi(-2) = 0.023 on one half-space
    assert _fraction(X, y, biased, label=-1.0) < 0.5


def test_search_ratio_is_deterministic_and_below_one_on_every_start():
    for thetas in cone_starts(np.random.default_rng(3), 0, SEARCH_CONE).values():
        for theta in thetas:
            r = _start_ratio(theta, 4000)
            assert r == _start_ratio(theta, 4000) and 0 < r < 1
