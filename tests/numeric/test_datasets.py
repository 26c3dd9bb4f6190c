"""Datasets: Condition 3 (symmetry) exactly, whitening, the papers' fixed datasets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import symmetric_datasets

from numeric.data import datasets as dsm
from numeric.data.datasets import Dataset, is_symmetric, orthogonal, symmetrize, whiten

sym = symmetric_datasets(P=st.sampled_from([2, 4, 6, 8]), D=st.integers(1, 4))


@given(ds=sym)
def test_symmetrize_is_symmetric(ds):
    assert ds.P % 2 == 0
    assert is_symmetric(ds.X, ds.y)
    # the odd moments vanish exactly in exact arithmetic: <x> = 0 up to rounding
    np.testing.assert_allclose(ds.X.mean(axis=0), 0.0, atol=1e-12 * (1 + np.abs(ds.X).max()))


@given(ds=sym, data=st.data())
def test_dropping_a_point_breaks_symmetry(ds, data):
    i = data.draw(st.integers(0, ds.P - 1))
    a = np.column_stack([ds.X, ds.y])
    assume(np.any(a[i] != 0))  # a zero point (x, y) = (0, 0) is its own partner
    keep = np.arange(ds.P) != i
    assert not is_symmetric(ds.X[keep], ds.y[keep])


@given(ds=sym, data=st.data())
def test_perturbing_a_point_breaks_symmetry(ds, data):
    i = data.draw(st.integers(0, ds.P - 1))
    j = data.draw(st.integers(0, ds.D))  # column D is the label
    a = np.column_stack([ds.X, ds.y])
    a[i, j] = a[i, j] + max(1e-9, 1e-9 * abs(a[i, j]))
    assume(not np.any(np.all(a == -a[i], axis=1)))  # the new point must not find a partner
    assert not is_symmetric(a[:, :-1], a[:, -1])


def test_tolerance_accepts_a_small_perturbation():
    rng = np.random.default_rng(0)
    ds = symmetrize(rng.normal(size=(5, 3)), rng.normal(size=5))
    X = ds.X.copy()
    X[2, 1] += 1e-10
    assert not is_symmetric(X, ds.y)
    assert is_symmetric(X, ds.y, atol=1e-9)


def test_even_labels_are_not_symmetric():
    """Condition 3 needs odd labels: (x, y) and (-x, y) with y != 0 is not symmetric."""
    X0 = np.array([[1.0, 2.0], [0.5, -1.0]])
    X = np.concatenate([X0, -X0])
    assert not is_symmetric(X, np.array([1.0, 1.0, 1.0, 1.0]))
    assert is_symmetric(X, np.array([1.0, -1.0, -1.0, 1.0]))


@given(ds=symmetric_datasets(P=st.sampled_from([8, 10, 12]), D=st.integers(1, 4)))
def test_whiten_gives_identity_covariance_and_keeps_pairing(ds):
    evals = np.linalg.eigvalsh(ds.Sigma)
    assume(evals.min() > 1e-6 * evals.max())  # well-conditioned: whitening is accurate
    # and normal floats: inputs ~1e-160 give a covariance ~1e-320, subnormal, with few significant digits
    # (hypothesis found Sigma = 2e-320, whitened to 1 + 1.5e-5); tiny / eps keeps every eigenvalue at full
    # relative precision
    assume(evals.min() > np.finfo(float).tiny / np.finfo(float).eps)
    w = whiten(ds)
    np.testing.assert_allclose(w.Sigma, np.eye(ds.D), atol=1e-8)
    assert is_symmetric(w.X, w.y)  # bit for bit
    np.testing.assert_array_equal(w.y, ds.y)


@pytest.mark.parametrize("D", [16, 17, 19, 33])
def test_whiten_keeps_pairing_exactly_in_higher_dimension(D):
    """Regression: a BLAS matmul can round x and -x differently (position-dependent kernels)."""
    rng = np.random.default_rng(D)
    for n in (D, D + 2, 3 * D + 1):
        ds = symmetrize(rng.normal(size=(n, D)) * 10.0 ** rng.uniform(-2, 2), rng.normal(size=n))
        w = whiten(ds)
        assert is_symmetric(w.X, w.y)
        np.testing.assert_allclose(w.Sigma, np.eye(D), atol=1e-8)


def test_whiten_matches_the_formula_on_generic_data():
    rng = np.random.default_rng(0)
    ds = Dataset(rng.normal(size=(9, 3)), rng.normal(size=9), "generic")
    evals, V = np.linalg.eigh(ds.Sigma)
    np.testing.assert_allclose(whiten(ds).X, ds.X @ V @ np.diag(evals**-0.5) @ V.T, rtol=1e-12)


def test_whiten_rejects_a_singular_covariance():
    ds = symmetrize(np.random.default_rng(0).normal(size=(2, 3)), np.ones(2))  # rank 2 < D = 3
    with pytest.raises(ValueError, match="non-singular"):
        whiten(ds)


def test_moments():
    X = np.array([[1.0, 0.0], [0.0, 2.0], [-1.0, 0.0], [0.0, -2.0]])
    y = np.array([1.0, 2.0, -1.0, -2.0])
    ds = Dataset(X, y, "t")
    assert (ds.P, ds.D) == (4, 2)
    np.testing.assert_array_equal(ds.Sigma, np.diag([0.5, 2.0]))
    np.testing.assert_array_equal(ds.beta, [0.5, 2.0])


@pytest.mark.parametrize("P, D", [(3, 2), (5, 1)])
def test_orthogonal_needs_D_at_least_P(P, D):
    with pytest.raises(ValueError, match="D >= P"):
        orthogonal(np.ones(P), np.ones(P), D)


def test_orthogonal_data():
    ds = orthogonal(np.array([1.0, 2.0, 3.0]), [1, -1, 1], D=5)
    assert ds.X.shape == (3, 5)
    G = ds.X @ ds.X.T
    np.testing.assert_array_equal(G, np.diag([1.0, 4.0, 9.0]))
    assert ds.y.dtype == float


def test_fixed_datasets_of_the_paper():
    assert is_symmetric(*_xy(dsm.fan(10)))
    assert not is_symmetric(*_xy(dsm.circle(10)))  # even labels
    assert is_symmetric(*_xy(dsm.perturbed_symmetric(0.0)))
    assert not is_symmetric(*_xy(dsm.perturbed_symmetric(0.1)))
    b = dsm.boursier_orthogonal()
    assert b.X[0] @ b.X[1] == 0.0
    g = dsm.gaussian_teacher(np.random.default_rng(0), 5, 3)
    assert g.P == 10 and is_symmetric(g.X, g.y)
    g1 = dsm.gaussian_teacher(np.random.default_rng(0), 5, 3, symmetric=False)
    assert g1.P == 5
    np.testing.assert_allclose(g.y[:5], g.X[:5] @ g.meta["w"] + np.sin(4 * g.X[:5] @ g.meta["w"]))


def _xy(ds: Dataset):
    return ds.X, ds.y
