"""zhang2025's searched-instance builders (verify/papers/zhang2025/instances.py)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.data.datasets import symmetrize
from verify.papers.zhang2025.instances import partner_init, scaled_targets, whitened


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kappa=st.floats(1.0, 100.0), n=st.integers(6, 20), D=st.integers(2, 5))
def test_whitened_spectrum_and_unit_beta(seed, kappa, n, D):
    rng = np.random.default_rng(seed)
    X = whitened(rng.normal(size=(n, D)) ** 3, kappa)
    expected = np.diag(kappa ** (-np.arange(D) / (D - 1)))
    np.testing.assert_allclose(X.T @ X / n, expected, atol=1e-10 * np.linalg.cond(expected))
    ds = symmetrize(X, scaled_targets(X, rng.normal(size=n), 3.0))
    assert abs(np.linalg.norm(ds.beta) - 3.0) < 1e-12


def test_partner_init_is_balanced_rank_one():
    r = np.array([3.0, -4.0])
    y = partner_init(np.array([1.0, 2.0, -1.0, -2.0, -3.0]), r, 1e-3)[0]
    W1, W2 = y[:10].reshape(5, 2), y[10:]
    assert np.isclose(np.linalg.norm(W2[W2 > 0]), 1e-3 / np.sqrt(2))
    assert np.isclose(np.linalg.norm(W2[W2 < 0]), 1e-3 / np.sqrt(2))
    np.testing.assert_allclose(W1, np.outer(W2, r / 5.0))
