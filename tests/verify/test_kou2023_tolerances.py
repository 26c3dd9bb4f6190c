"""kou2023 derived tolerances: the capped remainder and the column-scaling bound behind the Lemma F.3
limit-direction check hold where their derivations say they do (the least-squares order bound they use:
tests/verify/test_evidence.py)."""

from __future__ import annotations

import numpy as np

from numeric.training.reduced_gd import stable_rank_from_gram
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
