"""min2024 Lemmas 1 and 3 search map (``lemmas._early_run``): at eps near eps_max with 4 X_max W_max^2 < 1,
sqrt(h) eps >= 1 and the window [0, T] is empty (T <= 0); the lemmas state nothing there, so the instance
scores 0 instead of raising (a full-profile search reached T = -0.0034 and the claim ended in ERROR)."""

from __future__ import annotations

import numpy as np

from verify.papers.min2024.instances import DIM, H, N, separated_problem
from verify.papers.min2024.lemmas import EARLY_EPS, _eps_max, _horizon, _lemma1_violation, _lemma3_violation


def _small_instance() -> np.ndarray:
    data = np.concatenate([np.zeros(N * (DIM - 1)), np.full(N, -3.0)])  # radii e^-3
    init = np.concatenate([0.1 * np.ones(H * DIM), np.ones(H), [20.0]])  # small shapes, eps -> eps_max
    return np.concatenate([data, init, [0.0, 1.0]])  # alpha logit, exponential loss


def test_empty_window_scores_zero():
    theta = _small_instance()
    q = separated_problem(theta[:-2], EARLY_EPS)
    q = q.with_log_eps(q.log_eps + np.log(_eps_max(q, 0)))
    assert _horizon(q, 0) <= 0
    assert _lemma1_violation(theta) == 0.0
    assert _lemma3_violation(theta) == 0.0
