"""kumar2025 App. D.5's general statement: the batched NP/GD helpers, the hypothesis classification and the
NP-vs-OMP agreement the sweep and the search of ``kumar2025:section-D.5`` rest on."""

from __future__ import annotations

import numpy as np

from verify.papers.kumar2025.examples import (
    B_D5,
    D5_DELTA,
    GD_TOL,
    X_D5,
    _agreement,
    _diagonal_gd,
    _step_size,
    _sweep_instances,
    np_diagonal,
    omp,
)


def test_batched_diagonal_gd_is_each_instance_bit_for_bit():
    """A batch (per-member steps, different active sets) is, member by member, the single-instance run."""
    rng = np.random.default_rng(11)
    B, n, d = 5, 4, 6
    X, b = rng.normal(size=(B, n, d)), rng.normal(size=(B, n))
    v0, u0 = 0.1 * rng.normal(size=(B, d)), 0.1 * rng.normal(size=(B, d))
    active = rng.random((B, d)) < 0.5
    lr = rng.uniform(0.005, 0.02, size=B)
    v, u = _diagonal_gd(X, b, v0, u0, active, lr, 400)
    for i in range(B):
        vi, ui = _diagonal_gd(X[i], b[i], v0[i], u0[i], active[i], float(lr[i]), 400)
        np.testing.assert_array_equal(v[i], vi)
        np.testing.assert_array_equal(u[i], ui)


def test_np_with_a_tolerance_stops_there_and_equals_unnormalized_omp_on_gaussian_draws():
    """Gaussian draws: GD stops at gradient norm <= 1e-10 with every draw inside the hypothesis, the same
    selections as unnormalized OMP and iterates within the derived tolerance."""
    X, b = _sweep_instances(np.random.default_rng(3), 8, 5, 8)
    X, b = X[:4], b[:4]  # the Gaussian half
    run = np_diagonal(X, b, 3, D5_DELTA, _step_size(X, b), 60_000, tol=GD_TOL)
    assert (run.grad_norms <= GD_TOL).all()
    agree = _agreement(X, b, run, normalized=False)
    assert agree.checked.all() and not agree.mismatch.any()
    assert (agree.ratio <= 1).all() and (agree.ratio > 0).any()


def test_a_sign_change_of_the_least_squares_coefficient_is_a_spurious_stationary_point():
    """Column a = (1.5, 1.5) is selected first (beta_a = 1/3 > 0); with c = (1.2, 0.9) the least squares
    coefficient of a is -2, which GD cannot reach (v_a = u_a is kept, v_a u_a >= 0): a collapses to 0 and GD
    stops at a non-global stationary point at iteration 2, outside the hypothesis."""
    X, b = np.array([[[1.5, 1.2], [1.5, 0.9]]]), np.array([[1.0, 0.0]])
    np.testing.assert_allclose(np.linalg.solve(X[0], b[0]), [-2.0, 10 / 3])
    run = np_diagonal(X, b, 2, D5_DELTA, _step_size(X, b), 60_000, tol=GD_TOL)
    assert [int(s[0]) for s in run.selected] == [0, 1]
    assert (run.grad_norms <= GD_TOL).all()  # converged ...
    assert abs(run.iterates[1][0, 0]) < 1e-12  # ... with column a collapsed
    agree = _agreement(X, b, run, normalized=False)
    assert agree.spurious[0] and not agree.inside[0] and agree.first_outside[0] == 2


def test_column_normalized_omp_disagrees_on_the_papers_example():
    """On App. D.5's X, b NP is inside the hypothesis; normalized OMP selects column 2 first: a mismatch and
    an iterate ratio far above 1, while unnormalized OMP agrees."""
    X, b = X_D5[None], B_D5[None]
    run = np_diagonal(X, b, 2, D5_DELTA, 0.01, 60_000, tol=GD_TOL)
    plain, normalized = _agreement(X, b, run, normalized=False), _agreement(X, b, run, normalized=True)
    assert plain.checked[0] and not plain.mismatch[0] and plain.ratio[0] <= 1
    assert normalized.mismatch[0] and normalized.ratio[0] > 1e6
    np.testing.assert_allclose(run.iterates[1][0], omp(X_D5, B_D5, 2, normalized=False)[1], atol=1e-8)
