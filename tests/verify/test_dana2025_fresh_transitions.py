"""dana2025 Figures 3-5: the transition tests draw new seeds at the sampled sizes nearest the located
threshold (N -/+ 2w) and never re-read the runs that located it."""

import numpy as np

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.dana2025.figures import _transition_checks
from verify.papers.dana2025.threshold_search import Located
from verify.profiles import get_profile


def _ctx() -> Context:
    return Context("dana2025:figure-5", get_backend("numpy"), get_profile("tiny"), 0)


def _located() -> Located:
    ns = np.array([10, 20, 40, 60, 80, 160])
    conv = np.zeros((ns.size, 25), bool)
    conv[ns <= 40] = True  # the locating runs: a perfect step between 40 and 60
    return Located(ns, conv, N=50.0, w=4.0)


def test_fresh_draws_at_the_nearest_sizes_decide():
    asked = []

    def fresh(n: int) -> np.ndarray:
        asked.append(n)
        return np.full(25, n < 50)

    ctx = _ctx()
    _transition_checks(ctx, _located(), "test", fresh)
    assert asked == [40, 60]  # the nearest sampled sizes outside N -/+ 2w = 42, 58
    assert [c.outcome for c in ctx.checks] == ["pass", "pass"]


def test_a_transition_absent_from_fresh_draws_is_not_passed():
    """The locating runs show a step; new seeds at the same sizes converge half the time: no PASS."""
    ctx = _ctx()
    _transition_checks(ctx, _located(), "test", lambda n: np.arange(25) % 2 == 0)
    assert all(c.outcome != "pass" for c in ctx.checks)
