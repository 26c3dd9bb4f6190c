"""The adversarial instance search (``verify.search.worst_instance``)."""

from __future__ import annotations

import warnings

import numpy as np

from verify.search import softplus, squash, worst_instance


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


def test_squash_maps_every_parameter_into_the_interval_without_overflow():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow in exp would raise here
        zs = [-1e308, -800.0, -40.0, -1.0, 0.0, 1e-300, 2.0, 40.0, 800.0, 1e308]
        values = [squash(z, -3.0, 5.0) for z in zs]
        sp = softplus(np.array([-800.0, 0.0, 800.0]))
    assert all(-3.0 <= v <= 5.0 for v in values) and values == sorted(values)
    assert values[0] == -3.0 and values[-1] == 5.0 and values[4] == 1.0  # ends and midpoint
    for z in (-700.0, -30.0, -2.5, 0.3, 7.0):  # the logistic function, accurate in the tails too
        np.testing.assert_allclose(squash(z), 1.0 / (1.0 + np.exp(-z)), rtol=4e-16, atol=0.0)
    assert squash(-700.0, 0.0, 1e-3) > 0.0  # near lo = 0 it keeps resolving (the tanh form is 0 here)
    np.testing.assert_array_equal(sp, [np.exp(-800.0), np.log(2.0), 800.0])


def test_a_small_budget_from_a_zero_start_still_leaves_the_start():
    """A violation that sits a unit away from a start at 0 (a family's centre): the first simplex
    steps 1/2 per coordinate, so 8 evaluations reach it; SciPy's default first steps (0.00025 at 0)
    stay within 1e-3 of the start and would report the plateau."""
    worst = worst_instance(lambda t: float(np.sum(t**2)), {"centre": [np.zeros(3)]}, budget=8)
    assert worst.ratio > 1.0 and np.max(np.abs(worst.theta)) >= 0.5
