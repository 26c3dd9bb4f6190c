"""dana2025 instance searches: the searched instances lie inside the claims' hypotheses, and the exact
formulas the searches evaluate agree with independent ones (closed forms, Monte Carlo)."""

from __future__ import annotations

import mpmath as mp
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
from verify.papers.dana2025.model import EQ16_SHAPE, a2_constant_ratio, a2_starts, eq16_ratio
from verify.papers.dana2025.orthogonal import prop3_instance, prop3_starts
from verify.papers.dana2025.phase import (
    PROP2_N,
    PROP2_TIMES,
    PROP2_WORST_LABEL,
    prop2_ratio,
    prop2_scaled_curvature,
    prop2_starts,
    prop2_time_constant,
)


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


def _prop2_mu_mpmath(y: np.ndarray, gam: np.ndarray, alpha: float, t: float) -> float:
    """n^alpha mu(t) of one group (p = 1) at 50 digits from the corrected closed form, in the weight vector:
    w = sqrt(v) (z D + sqrt(1 - z^2) e), R = y - (v/p) w_hat, mu = 2/(np) (v ||R||^2 + (w.R)^2)/||R||^2."""
    with mp.workdps(50):
        n, p = len(y), 1
        ym, gm = mp.matrix([mp.mpf(float(v)) for v in y]), mp.matrix([mp.mpf(float(v)) for v in gam])
        Db, gh = ym / mp.norm(ym), gm / mp.norm(gm)
        z0 = (Db.T * gh)[0]
        e = (gh - z0 * Db) / mp.sqrt(1 - z0**2)
        c, b, v0, t = 2 * mp.norm(ym) / n, mp.atanh(z0), mp.norm(gm) ** 2, mp.mpf(t)
        x = c * t / 2 + b
        intF = (t / 2 + (mp.sinh(c * t + 2 * b) - mp.sinh(2 * b)) / (2 * c)) / mp.cosh(b) ** 2
        v = v0 * mp.cosh(x) ** 2 / mp.cosh(b) ** 2 / (1 + 2 * v0 / (n * p) * intF)
        z = mp.tanh(x)
        R = ym - v / p * (z * Db + mp.sqrt(1 - z**2) * e)
        R2 = (R.T * R)[0]
        wR2 = v * ((z * Db + mp.sqrt(1 - z**2) * e).T * R)[0] ** 2
        return float(2 / (n * p) * (v * R2 + wR2) / R2 * mp.mpf(n) ** alpha)


def test_proposition2_counterexamples_recomputed_in_mpmath():
    """Equal labels 2^(-1/3), alpha = 1/2, n = k = 16: the printed K_2 fails for a large aligned first layer,
    K_1 for one large misaligned entry; the corrected constants hold; the closed form agrees with mpmath."""
    n, alpha = PROP2_N, 0.5
    y = np.full(n, PROP2_WORST_LABEL) * (1 + 1e-3 * np.random.default_rng(0).normal(size=n))
    C = prop2_time_constant(alpha, y.min())
    t0 = C * n ** (3 * alpha - 1) * np.log(C * n)
    for gam, bound, least in (
        (np.exp(2.9) * y / y.min(), "upper", 1.4),
        (np.r_[np.e**3, np.full(15, 0.3)], "lower", 1.02),
    ):
        scaled, *_ = prop2_scaled_curvature(alpha, n, y[None], gam[None])
        exact = [_prop2_mu_mpmath(y, gam, alpha, t0 * r) for r in PROP2_TIMES[:12]]
        np.testing.assert_allclose(scaled[:12], exact, rtol=1e-9)
        theta = np.concatenate([np.log(y), np.log(gam), [-9.0]])
        assert prop2_ratio(theta, bound) > least
        assert prop2_ratio(theta, bound, corrected=True) <= 1


def test_proposition2_and_3_starts_are_instances():
    starts = prop2_starts(np.random.default_rng(4))
    for bound in ("lower", "upper"):
        assert all(prop2_ratio(t, bound, corrected=True) <= 1 for t in _all(starts))
        printed = {f for f, ts in starts.items() if any(prop2_ratio(t, bound) > 1 for t in ts)}
        assert printed and all(f.startswith("equal labels 2^(-1/3)") for f in printed)
    for theta in _all(prop3_starts(np.random.default_rng(5))):
        G, lam, a0 = prop3_instance(theta)
        assert G.min() > 0 and np.sqrt(8 * G.max() / 100) <= lam <= G.min() / G.max()
        assert np.all(np.abs(a0) <= 1e-2 * G.min())


def test_eq16_ratio_reads_0_at_a_stationary_state():
    """No active neuron (W = 0, a = 0): the field is 0, the central difference has no stencil, and the
    search reads 0 (no information), not NaN; a generic state reads a finite positive ratio."""
    n, p = EQ16_SHAPE
    theta = np.random.default_rng(0).normal(size=n * (n + 1) + 2 * n + p * (n + 2))
    assert 0 < eq16_ratio(theta) < 1
    theta[-p * (n + 2) :] = 0.0
    assert eq16_ratio(theta) == 0.0
