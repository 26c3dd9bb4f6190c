"""min2024 eq. (40)'s closing claims at admissible states (``final_phase._eq40_state``): the norm claim
is an equality at colinear generators with equal radii and weights 1/2, the cosine claim's infimum is the
Kantorovich value 2 sqrt(3)/4 at orthogonal generators with weights 1/2 and 3/2, and every state the
search can reach lies inside both claims."""

from __future__ import annotations

import numpy as np

from verify.papers.min2024.final_phase import _eq40_state
from verify.papers.min2024.instances import SEARCH_CONE

N, D = SEARCH_CONE


def test_norm_claim_is_an_equality_at_colinear_equal_generators_with_weights_one_half():
    theta = np.concatenate([np.zeros(N * D), np.full(N, -40.0)])  # P = 0, radii 1, weights 1/2 + e^-40
    for cos, ratio in _eq40_state(theta):
        assert abs(cos - 1.0) < 1e-15
        assert abs(ratio - 1.0) < 1e-13


def test_cosine_claim_infimum_is_the_kantorovich_value_on_orthogonal_generators():
    # positives 0 and 2: y x = r (e_1 + e_2), r' (e_1 - e_2) (P squashed to ~unit: mu ~ 1e-9 > 0) with
    # weights 1/2 and 3/2; positive 4 at radius e^-20 (negligible). Over r'/r the cosine is smallest,
    # 2 sqrt(a1 a2) / (a1 + a2) = sqrt(3)/2, at r'^2 / r^2 = a1 / a2 = 1/3 (log r' = -0.549)
    P = np.zeros((N, D - 1))
    P[0, 0], P[2, 0], P[4, 1] = 1e9, -1e9, 1e9
    weights = np.zeros(N)
    weights[0], weights[2] = -40.0, 40.0
    cosines = []
    for log_r in np.linspace(-1.0, 0.0, 201):
        radii = np.zeros(N)
        radii[2], radii[4] = log_r, -20.0
        cosines.append(_eq40_state(np.concatenate([P.ravel(), radii, weights]))[0][0])
    assert abs(min(cosines) - np.sqrt(3) / 2) < 1e-4


def test_every_searched_state_satisfies_both_claims():
    rng = np.random.default_rng(0)
    for _ in range(2000):
        theta = rng.normal(scale=rng.choice([0.1, 1.0, 30.0]), size=N * D + N)
        for cos, ratio in _eq40_state(theta):
            assert cos >= 1 / 3 and ratio >= 1 - 16 * np.finfo(float).eps
