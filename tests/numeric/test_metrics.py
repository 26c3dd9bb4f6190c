"""Measurements on ensembles of weights."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import float_arrays, scales, unit_vectors

from numeric.backend import to_numpy
from numeric.measures.metrics import (
    activation_pattern,
    frobenius,
    linear_fit,
    log_log_slope,
    rank_one_alignment,
    relative_error,
    sign_imbalance,
    singular_values,
    stable_rank,
)


@given(
    u=unit_vectors(st.integers(1, 5)),
    v=unit_vectors(st.integers(1, 5)),
    s=scales(-3, 3),
)
def test_rank_one_matrices_have_stable_rank_and_alignment_one(u, v, s):
    W = (s * np.outer(u, v))[None]
    np.testing.assert_allclose(stable_rank(W), 1.0, rtol=1e-12)
    np.testing.assert_allclose(rank_one_alignment(W), 1.0, rtol=1e-12)


def test_stable_rank_of_identity_and_ordering():
    W = np.stack([np.eye(3), np.diag([3.0, 1.0, 0.0])])
    np.testing.assert_allclose(stable_rank(W), [3.0, 10.0 / 9.0])
    np.testing.assert_allclose(rank_one_alignment(W), [1 / np.sqrt(3), 3 / np.sqrt(10)])
    np.testing.assert_allclose(singular_values(W)[1], [3.0, 1.0, 0.0], atol=1e-15)


@given(A=float_arrays((2, 3, 4), 10.0))
def test_stable_rank_bounds(A):
    sv = np.linalg.svd(A, compute_uv=False)
    if np.any(sv[:, 0] < 1e-6):  # undefined for (near-)zero matrices
        return
    sr = stable_rank(A)
    assert np.all(sr >= 1 - 1e-12) and np.all(sr <= 3 + 1e-12)
    al = rank_one_alignment(A)
    assert np.all(al <= 1 + 1e-12) and np.all(al >= 1 / np.sqrt(3) - 1e-12)


@given(X=float_arrays((6, 3), 5.0), w=float_arrays((2, 3), 5.0))
def test_linear_fit_recovers_a_linear_map(X, w):
    sv = np.linalg.svd(X, compute_uv=False)
    if sv[-1] < 1e-3 * max(sv[0], 1e-300) or sv[0] < 1e-6:  # needs a well-conditioned X
        return
    f = w @ X.T  # (B, P)
    np.testing.assert_allclose(linear_fit(X, f), w, rtol=0, atol=1e-9 * (1 + np.abs(w).max()))


def test_linear_fit_of_a_nonlinear_function_is_the_least_squares_fit():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 2))
    f = np.abs(X[:, 0])[None] + X[:, 1][None]
    w = linear_fit(X, f)
    residual = f[0] - X @ w[0]
    np.testing.assert_allclose(X.T @ residual, 0.0, atol=1e-10)  # normal equations


def test_norms_and_errors():
    a = np.array([[[3.0, 4.0]], [[0.0, 1.0]]])
    np.testing.assert_array_equal(frobenius(a), [5.0, 1.0])
    np.testing.assert_allclose(relative_error(a * 1.1, a), [0.1, 0.1], rtol=1e-14)


def test_activation_pattern_and_sign_imbalance():
    W1 = np.array([[[1.0, 0.0], [0.0, -1.0], [1.0, -1.0]]])
    XT = np.array([[[1.0, -1.0], [1.0, 1.0]]])  # columns x = (1, 1), (-1, 1)
    np.testing.assert_array_equal(activation_pattern(W1, XT)[0], [[1, -1], [-1, -1], [0, -1]])
    W2 = np.array([[[1.0, -2.0, 2.0]], [[3.0, -3.0, 0.0]]])
    np.testing.assert_allclose(sign_imbalance(W2), [5.0 / 4.0, 1.0])


@pytest.mark.parametrize("order", [-2.0, 0.5, 4.0])
def test_log_log_slope(order):
    x = np.geomspace(1e-3, 1.0, 9)
    assert log_log_slope(x, 7.0 * x**order) == pytest.approx(order, abs=1e-12)


def test_metrics_run_on_backend(backend):
    rng = np.random.default_rng(1)
    W = rng.normal(size=(3, 4, 2))
    X = rng.normal(size=(5, 2))
    f = rng.normal(size=(3, 5))
    np.testing.assert_allclose(to_numpy(stable_rank(backend.asarray(W))), stable_rank(W), rtol=1e-12)
    np.testing.assert_allclose(
        to_numpy(linear_fit(backend.asarray(X), backend.asarray(f))), linear_fit(X, f), rtol=1e-10
    )
