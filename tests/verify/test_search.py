"""The adversarial instance search (``verify.search.worst_instance``)."""

from __future__ import annotations

import numpy as np

from verify.search import worst_instance


def test_finds_the_maximum_and_counts_every_evaluation():
    calls = []

    def ratio(theta):
        calls.append(1)
        return 1.5 - float(np.sum((theta - 0.3) ** 2))

    worst = worst_instance(ratio, {"a": [np.zeros(2)], "b": [np.ones(2)]}, budget=200)
    assert worst.ratio > 1.499 and np.allclose(worst.theta, 0.3, atol=1e-2)
    assert worst.evaluations == len(calls)  # no evaluation outside the count
    assert set(worst.per_family) == {"a", "b"} and worst.undefined == 0


def test_an_infinite_ratio_is_the_worst_not_skipped():
    worst = worst_instance(lambda t: np.inf if t[0] > 0.41 else 0.0, {"a": [np.array([0.4])]}, budget=50)
    assert worst.ratio == np.inf


def test_a_nan_anywhere_makes_the_worst_nan():
    worst = worst_instance(lambda t: np.nan if t[0] > 0.41 else 0.0, {"a": [np.array([0.4])]}, budget=50)
    assert np.isnan(worst.ratio) and worst.undefined > 0
