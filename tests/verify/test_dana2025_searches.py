"""dana2025 instance searches: the searched instances lie inside the claims' hypotheses, and the exact
formulas the searches evaluate agree with independent ones (closed forms, Monte Carlo)."""

from __future__ import annotations

import numpy as np

from numeric.data.weakly_correlated import assumption2_limit, offdiag_norm, prob_event_I_orthogonal
from verify.papers.dana2025.convergence import (
    GD_SHAPE,
    STATE_SHAPE,
    l5_starts,
    l7_ratios,
    l7_starts,
    prob_not_I,
    t1_starts,
    t1_state_ratio,
)
from verify.papers.dana2025.instances import theorem1_instance
from verify.papers.dana2025.model import a2_constant_ratio, a2_starts
from verify.papers.dana2025.orthogonal import prop3_instance, prop3_starts
from verify.papers.dana2025.phase import prop2_starts, prop2_violation


def _all(starts: dict) -> list[np.ndarray]:
    return [t for ts in starts.values() for t in ts]


def test_theorem1_instances_satisfy_assumptions_1_and_2():
    rng = np.random.default_rng(0)
    for shape in (STATE_SHAPE, GD_SHAPE):
        for theta in _all(t1_starts(rng, shape, 1, hypotheses=False)):
            inst = theorem1_instance(theta + rng.normal(size=theta.shape), *shape)
            assert offdiag_norm(inst.X @ inst.X.T) < assumption2_limit(inst.norms, inst.y)
            assert np.all(np.abs(inst.a) >= np.linalg.norm(inst.W, axis=1))


def test_theorem1_state_ratio_is_three_tenths_for_aligned_neurons():
    """Orthonormal x, w_j = x_j / 2, |a_j| = ||w_j||, y = 1: mu = 1/(np), (C/n) min|1 - r/y| = 0.3/(np)."""
    n, p = STATE_SHAPE
    m = n * (n - 1) // 2
    W = np.hstack([0.5 * np.eye(n), np.zeros((n, 1))]).ravel()
    theta = np.concatenate([np.zeros(m), [-40.0], np.zeros(n), np.ones(n), W, np.full(p, -40.0), np.ones(p)])
    assert np.isclose(t1_state_ratio(theta), 0.3, rtol=1e-12)


def test_lemma7_corrected_holds_and_printed_fails_on_the_starts():
    starts = _all(l7_starts(np.random.default_rng(1), 2))
    assert max(max(l7_ratios(t, "corrected")) for t in starts) <= 1
    # the near-collinear family has lambda_max(X^T X) ~ n (C_x^+)^2: the printed constant is exceeded
    assert max(l7_ratios(t, "printed")[0] for t in starts) > 1


def test_exact_probability_of_not_I_matches_orthogonal_formula_and_monte_carlo():
    for signs in ([1, 1, 1], [1, -1, 1], [-1, -1, 1]):
        s = np.array(signs, float)
        for p in (1, 4, 9):
            exact = 1 - prob_event_I_orthogonal(int((s > 0).sum()), int((s < 0).sum()), p)
            assert np.isclose(prob_not_I(np.eye(3), s, p), exact, rtol=1e-12)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(3, 3))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    s, p, M = np.array([1.0, 1.0, -1.0]), 3, 200_000
    pre = rng.normal(size=(M, p, 3)) @ X.T
    a = rng.choice([-1.0, 1.0], size=(M, p))
    covered = ((pre > 0) & (a[:, :, None] * s > 0)).any(axis=1).all(axis=1)
    assert abs((1 - covered.mean()) - prob_not_I(X @ X.T, s, p)) < 5 * np.sqrt(0.25 / M)
    assert len(l5_starts(rng)) == 4


def test_assumption2_constant_search_reaches_its_supremum_only_in_the_limit():
    worst = max(a2_constant_ratio(t) for t in _all(a2_starts(np.random.default_rng(3))))
    assert worst < 0.6 / (1 - 1 / (2 * np.sqrt(2)))


def test_proposition2_and_3_starts_are_instances():
    assert all(prop2_violation(t) <= 1 for t in _all(prop2_starts(np.random.default_rng(4))))
    for theta in _all(prop3_starts(np.random.default_rng(5))):
        G, lam, a0 = prop3_instance(theta)
        assert G.min() > 0 and np.sqrt(8 * G.max() / 100) <= lam <= G.min() / G.max()
        assert np.all(np.abs(a0) <= 1e-2 * G.min())
