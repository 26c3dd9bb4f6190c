"""min2024 App. D.2 searches (``final_phase._d2_search``): every start is an instance inside the hypotheses
that the run can afford (|log eps| of (28) within the scope), and the first Nelder-Mead simplex (steps of
1/2 along every coordinate) stays inside Assumption 1 with a finite eps."""

from __future__ import annotations

import numpy as np

from numeric.data.separated_data import separation
from verify.papers.min2024.final_phase import D2_SCOPE, D2_SEED, _d2_log_eps, _into_scope
from verify.papers.min2024.instances import INIT, separated_problem, starts


def _pool() -> dict[str, list[np.ndarray]]:
    return starts(np.random.default_rng(D2_SEED), INIT)


def test_nearly_orthogonal_start_is_beyond_the_scope_until_drawn_toward_e1():
    (theta,) = next(v for k, v in _pool().items() if "orthogonal" in k)
    assert _d2_log_eps(theta) < -100 * D2_SCOPE  # (28) at mu = 0.034: |log eps| ~ 1.9e7, never integrated
    scoped, draw = _into_scope(theta)
    assert draw.startswith("radii equalised")
    assert -D2_SCOPE / 2 <= _d2_log_eps(scoped) < -0.99 * D2_SCOPE / 2  # the scope spent, not undershot
    q = separated_problem(scoped, (0.0, 0.0))
    radii = np.linalg.norm(q.X, axis=1)
    assert radii.max() / radii.min() < 1.1  # |x_i| = r sqrt(1 + |p_i|^2), equal r, p_i scaled by ~0.1
    # the least correlation that half the scope affords at n = 4: 64 n log n / mu^(5/2) = 5e4 at mu = 0.138
    # (halving the tangential block at the start's X_max / X_min = 11 stopped at mu = 0.385)
    assert separation(q.X, q.y) < 0.15


def test_starts_within_the_scope_are_unchanged():
    for name, thetas in _pool().items():
        if "orthogonal" in name:
            continue
        for theta in thetas:
            scoped, draw = _into_scope(theta)
            assert draw == "" and np.array_equal(scoped, theta)


def test_first_simplex_stays_inside_assumption_1_with_finite_eps():
    for thetas in _pool().values():
        for theta in thetas:
            scoped, _ = _into_scope(theta)
            for k in range(len(scoped)):
                vertex = scoped + 0.5 * np.eye(len(scoped))[k]
                q = separated_problem(vertex, (0.0, 0.0))
                assert separation(q.X, q.y) > 0
                assert np.isfinite(_d2_log_eps(vertex))
