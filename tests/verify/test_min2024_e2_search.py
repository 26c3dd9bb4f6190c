"""min2024 App. E.2's search map (``appendix._e2_violation``): a state whose outputs would overflow the
exponential residual e^(-y f) in float64 is scaled onto max|f| = E2_F_MAX, so the ratio stays finite (a
full-profile search reached |f| = 1316 on data of radius e^13 and recorded NaN, an ERROR)."""

from __future__ import annotations

import numpy as np

from numeric.models.activation import RELU
from verify.papers.min2024.appendix import E2_F_MAX, E2_H, _e2_starts, _e2_violation
from verify.papers.min2024.instances import SEARCH_CONE, cone_instance

N, D = SEARCH_CONE


def test_huge_outputs_give_a_finite_ratio_below_one():
    rng = np.random.default_rng(0)
    for thetas in _e2_starts(rng).values():
        for theta in thetas:
            big = np.array(theta, float)
            big[N * (D - 1) : N * D] = 13.0 + rng.normal(size=N)  # radii ~ e^13
            big[-2], big[-1] = 10.0, 1.0  # the largest state scale, exponential loss
            X, _, _ = cone_instance(big[: N * D], 0)
            k = N * D + E2_H * D
            W, v = np.exp(3.0) * big[N * D : k].reshape(E2_H, D), np.exp(3.0) * big[k : k + E2_H]
            assert np.abs(v @ RELU.value(W @ X.T)).max() > E2_F_MAX  # beyond the cap before scaling
            r = _e2_violation(big)
            assert np.isfinite(r) and r <= 1.0
