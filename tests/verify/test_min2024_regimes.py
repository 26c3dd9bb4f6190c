"""min2024 regime measurements (verify.papers.min2024.regimes): the log-space output size equals the
directly computed one where nothing underflows, the Grönwall bound bounds a real run, balancedness is
measured (and an unbalanced state is seen), and each hypothesis test sits on the right side of its edge."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.models.activation import RELU
from verify.papers.min2024.common import REDUCED_LOG_EPS, directions, family_problem, log_norms, run
from verify.papers.min2024.hypotheses import BALANCED, EPS_28, F_SMALL, SMALL_INIT, SMALL_INIT_GD
from verify.papers.min2024.regimes import (
    imbalance,
    log10_max_output,
    log10_output_bound,
    problem_imbalance,
)


def _run(log_eps: float, t_end: float = 2.0):
    p = family_problem(np.random.default_rng(3), 4, 0.5, 5, 2).with_log_eps(log_eps)
    traj = run(get_backend("numpy"), p, np.linspace(0.0, t_end, 21), rtol=1e-9)
    return p, directions(traj, p.h), log_norms(traj, p.h)


def test_log10_max_output_is_the_direct_max_where_nothing_underflows():
    p, U, rho = _run(np.log(1e-2))
    f = (p.s[:, None, :, None] * np.exp(2 * rho)[..., None] * RELU.value(U @ p.X.T)).sum(2)
    assert log10_max_output(p, U, rho) == pytest.approx(np.log10(np.abs(f).max()), rel=1e-12)


def test_log10_max_output_is_finite_where_f_underflows():
    p, U, rho = _run(REDUCED_LOG_EPS)
    value = log10_max_output(p, U, rho)
    assert np.isfinite(value) and value < 2 * REDUCED_LOG_EPS / np.log(10) + 5


def test_groenwall_bound_bounds_the_run():
    p, U, rho = _run(np.log(1e-3))
    assert log10_output_bound(p, 2.0) >= log10_max_output(p, U, rho)


def test_imbalance_of_balanced_and_unbalanced_states():
    p = family_problem(np.random.default_rng(0), 4, 0.5, 6, 3).with_log_eps(REDUCED_LOG_EPS)
    assert BALANCED.evaluate(imbalance=problem_imbalance(p), D=p.X.shape[1])
    W = p.W0
    v = 1.5 * p.s * np.linalg.norm(W, axis=-1)
    assert imbalance(W, v) == pytest.approx(1.25)
    assert not BALANCED.evaluate(imbalance=imbalance(W, v), D=p.X.shape[1])


def test_hypothesis_edges():
    assert SMALL_INIT.evaluate(log10_max_f=np.log10(F_SMALL))
    assert not SMALL_INIT.evaluate(log10_max_f=np.log10(F_SMALL) + 1e-9)
    assert EPS_28.evaluate(log_eps_minus_threshold=0.0) and not EPS_28.evaluate(log_eps_minus_threshold=1e-9)
    assert SMALL_INIT_GD.evaluate(alpha=1e-6) and not SMALL_INIT_GD.evaluate(alpha=1e-3)
