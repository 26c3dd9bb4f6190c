"""dana2025 curvature lower bounds compare only the states where the bound says something: a state whose
right-hand side is 0 (mu >= 0, true of any state) is counted, not compared, so the recorded worst state
and slack are those of a state that tests the statement."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.dana2025.common import make_data
from verify.papers.dana2025.convergence import informative_lower_bound, lemma7_kinds
from verify.profiles import get_profile
from verify.records import Outcome


def _ctx() -> Context:
    return Context("dana2025:theorem-1", get_backend("numpy"), get_profile("tiny"), 0)


def test_vacuous_states_are_counted_not_compared():
    ctx = _ctx()
    mu = np.array([1e-9, 0.5, 0.4])
    lower = np.array([0.0, 0.1, 0.2])
    informative_lower_bound(ctx, "c", mu, lower, lower > 0, why="w")
    (check,) = ctx.checks
    assert check.outcome == Outcome.PASS
    assert (check.measured, check.expected) == (0.4, 0.2)  # the worst informative state, not (1e-9, 0)
    assert check.slack == 2.0
    assert check.details["vacuous entries (rhs 0)"] == 1


def test_an_informative_violation_still_fails():
    ctx = _ctx()
    informative_lower_bound(
        ctx, "c", np.array([0.0, 0.1]), np.array([0.0, 0.2]), np.array([False, True]), why="w"
    )
    assert ctx.checks[0].outcome == Outcome.FAIL


def test_no_informative_state_is_undecided():
    ctx = _ctx()
    informative_lower_bound(ctx, "c", np.array([1.0, 2.0]), np.zeros(2), np.zeros(2, bool), why="w")
    assert ctx.checks[0].outcome == Outcome.INCONCLUSIVE


def test_lemma7_adds_correlated_data_with_a_positive_lower_constant():
    """rho = 1/(4(n-1)): ||X^T X - D_X|| stays below (C_x^-)^2 on App.-B norms, unlike rho = 0.5, 0.9."""
    rng = np.random.default_rng(1)
    for n in (6, 12, 32):
        kind, rho = lemma7_kinds(n)[-1]
        for _ in range(20):
            data = make_data(rng, n, kind, rho=rho, d=4 * n)
            assert data.cx[0] ** 2 - data.off > 0
