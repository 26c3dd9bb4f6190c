"""kou2023 derived tolerances: the capped remainder and the column-scaling bound behind the Lemma F.3
limit-direction check hold where their derivations say they do (the least-squares order bound they use:
tests/verify/test_evidence.py); Lemma F.3's order tolerance (Monte Carlo error + finite-size departure) holds
the derived order and rejects a wrong limit."""

from __future__ import annotations

import numpy as np

from numeric.training.reduced_gd import stable_rank_from_gram
from verify import evidence
from verify.papers.kou2023.appendix import F3_CURVATURE, F3_SIZES, f3_monte_carlo
from verify.papers.kou2023.common import LeakyLimit, capped_eps


def test_capped_eps_keeps_small_measurements_and_caps_large_ones():
    lim = LeakyLimit(np.array([10.0, 20.0]), 15.0, np.zeros((2, 2)), np.ones(2))
    at = 1000 / 20.0
    prior = (np.log(at) + 2) / (at - np.log(at))
    assert capped_eps(0.01, lim, 1000.0) == 0.01
    assert np.isclose(capped_eps(5.0, lim, 1000.0), prior)  # a loss off 1/t cannot widen the tolerance
    assert capped_eps(0.5, lim, 20.0) == 0.5  # no cap before the map's asymptotics (a t0 <= e)


def test_column_scaling_moves_the_stable_rank_within_the_spread_factor():
    rng = np.random.default_rng(1)
    for _ in range(200):
        A = rng.integers(0, 2, size=(12, 5)) * rng.uniform(1, 3, 5)
        if not A.any():
            continue
        d = rng.uniform(0.9, 1.2, 5)
        sr = stable_rank_from_gram(A.T @ A)
        sr_d = stable_rank_from_gram((A * d).T @ (A * d))
        assert abs(sr_d - sr) <= sr * ((d.max() / d.min()) ** 2 - 1) * (1 + 1e-12) + 1e-12


def test_f3_mean_gram_has_the_stated_stable_rank():
    for _, n in F3_SIZES:
        half = n // 2
        K = 4.0 * (np.ones((half, half)) + np.eye(half))  # a_i = 2, E[C^T C] = (m/4)(J + I) up to m
        assert np.isclose(stable_rank_from_gram(K), 2 - 4 / (n + 2), rtol=1e-13)


def test_f3_order_tolerance_holds_the_law_and_rejects_a_limit_off_two():
    mn = np.array([m * n for m, n in F3_SIZES], float)
    for seed in range(3):
        vals, errs, _ = f3_monte_carlo(np.random.default_rng(seed), 100)
        for limit, holds in ((2.0, True), (2.05, False)):
            gap = np.abs(vals - limit)
            tol = evidence.slope_shift(mn, errs / gap) + F3_CURVATURE
            assert tol < 0.25  # separates -1/2 from its neighbours 0 and -1
            assert (abs(evidence.fit_order(mn, gap).slope + 0.5) <= tol) == holds
