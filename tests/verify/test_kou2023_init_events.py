"""kou2023 Lemmas A.1, A.2: the exact failure probabilities agree with sampling, the searched points lie
inside the hypotheses, and the searches' ratios exceed 1 when the lemma is made false."""

from __future__ import annotations

import numpy as np

from verify.papers.kou2023.hypotheses import A1_DIM, A2_WIDTH
from verify.papers.kou2023.init_events import (
    a1_failure,
    a1_point,
    a1_ratio,
    a2_failure,
    a2_point,
    a2_ratio,
    starts,
)
from verify.search import worst_instance


def test_a1_failure_matches_monte_carlo_on_orthogonal_data():
    """Orthogonal unit data (x_i = e_i): the projections are the first n coordinates of each row."""
    n, m, d, delta, M = 2, 2, 8, 0.5, 200_000
    rng = np.random.default_rng(0)
    W = rng.normal(size=(M, 2 * m, d))
    norms2 = (W * W).sum(axis=2)
    norm_fail = ((norms2 < d / 2) | (norms2 > 1.5 * d)).any(axis=1)
    inner_fail = (np.abs(W[:, :, :n]) > np.sqrt(2 * np.log(8 * m * n / delta))).any(axis=(1, 2))
    exact = a1_failure(n, m, d, delta)
    for key, sample in (("norm", norm_fail), ("inner", inner_fail)):
        assert abs(sample.mean() - exact[key]) < 5 * np.sqrt(exact[key] / M)
    both = (norm_fail | inner_fail).mean()
    assert exact["lower"] - 5 * np.sqrt(both / M) <= both <= exact["upper"] + 5 * np.sqrt(both / M)


def test_a2_failure_matches_monte_carlo_on_orthogonal_data():
    n, m, M = 3, 20, 200_000
    S = (np.random.default_rng(1).normal(size=(M, m, n)) > 0).sum(axis=1)
    fail = ((S < 0.4 * m) | (S > 0.6 * m)).any(axis=1).mean()
    exact = a2_failure(n, m)
    assert abs(fail - exact["orthogonal"]) < 5 * np.sqrt(exact["orthogonal"] / M)
    assert exact["single"] <= exact["orthogonal"] <= exact["upper"]


def test_searched_points_lie_inside_the_hypotheses():
    rng = np.random.default_rng(2)
    for k, point, hyp in ((4, a1_point, A1_DIM), (3, a2_point, A2_WIDTH)):
        thetas = [t for ts in starts(k).values() for t in ts] + list(rng.normal(scale=10, size=(50, k)))
        for theta in thetas:
            if k == 4:
                n, m, d, delta = point(theta)
                assert hyp.evaluate(d=d, m=m, delta=delta) and m >= np.log(1 / delta)
            else:
                n, m, delta = point(theta)
                assert hyp.evaluate(m=m, n=n, delta=delta)
            assert 0 < delta < 1 and n >= 1


def test_searches_hold_for_the_lemmas_and_exceed_one_for_broken_constants():
    """The printed lemmas hold over the region; a width or dimension constant 10x too small, or a band
    narrowed, makes the search find a point with P(fail) > delta."""
    assert worst_instance(a1_ratio, starts(4), budget=40).ratio <= 1
    assert worst_instance(a2_ratio, starts(3), budget=40).ratio <= 1
    broken = [
        (lambda t: a1_ratio(t, dim_const=2.3), 4),
        (lambda t: a1_ratio(t, band=(0.8, 1.2)), 4),
        (lambda t: a2_ratio(t, width_const=5.0), 3),
        (lambda t: a2_ratio(t, band=(0.45, 0.55)), 3),
    ]
    for ratio, k in broken:
        assert worst_instance(ratio, starts(k), budget=40).ratio > 1
