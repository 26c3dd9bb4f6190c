"""zhang2025 instance searches: the searched instances lie inside the claims' hypotheses, and the
rounding tolerance of the paired GD check grows with the measured amplification of its twin."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from numeric.data.datasets import is_symmetric, symmetrize
from numeric.measures.metrics import sign_imbalance
from numeric.models.losses import Loss
from numeric.models.vector_fields import GradientFlow
from verify.papers.zhang2025.deep import _p12_instance, _p12_starts
from verify.papers.zhang2025.equivalence import (
    C9_Q2,
    T8_SHAPE,
    corollary9_instance,
    corollary9_starts,
    searched_instance,
    searched_starts,
)
from verify.papers.zhang2025.identities import _manifold_instance, _manifold_starts
from verify.papers.zhang2025.orthogonal import _block_instance, _block_starts
from verify.papers.zhang2025.paired_runs import Pairing, gd_rounding_tolerance, paired_gd, two_layer


def _all_starts(starts: dict) -> list[np.ndarray]:
    return [t for ts in starts.values() for t in ts]


def test_theorem8_instances_satisfy_condition3_and_assumption7():
    D, H, _ = T8_SHAPE
    for theta in _all_starts(searched_starts(np.random.default_rng(1))):
        X0, y0, y_lin0, alpha, w_init, lam = searched_instance(theta)
        ds = symmetrize(X0, y0)
        assert is_symmetric(ds.X, ds.y)
        assert np.isclose(np.linalg.eigvalsh(ds.Sigma)[-1], 1.0) and np.isclose(np.linalg.norm(ds.beta), 1.0)
        W1, W2 = y_lin0[0, : H * D].reshape(H, D), y_lin0[0, H * D :]
        r = W1.T @ W2 / (W2 @ W2)
        np.testing.assert_allclose(W1, np.outer(W2, r), atol=1e-15 * w_init)
        assert np.isclose(np.linalg.norm(r), 1.0)
        assert abs(sign_imbalance(W2[None, None]) - 1) < 1e-14
        assert 0 <= alpha <= 1 and 1e-3 <= w_init <= 1 and 0 <= lam <= 0.5


def test_corollary9_instances_are_white_symmetric_with_assumption7():
    """Every start of Corollary 9-corrected's search is inside its hypotheses: symmetric data with Sigma = I
    to rounding, the linear init on Assumption 7 (W_1 = W_2^T r^T, |r| = 1, ||W_1|| = w_init), and the
    'against beta' family at q_2 = 1 + r^T beta_bar = C9_Q2."""
    starts = corollary9_starts(np.random.default_rng(2))
    for family, thetas in starts.items():
        for theta in thetas:
            setup, alpha = corollary9_instance(theta)
            ds = setup.data[0]
            assert is_symmetric(ds.X, ds.y)
            D, H = ds.X.shape[1], setup.net.widths[1]
            assert np.abs(ds.Sigma - np.eye(D)).max() < 1e-14
            W1, W2 = setup.y_lin0[0, : H * D].reshape(H, D), setup.y_lin0[0, H * D :]
            r = W1.T @ W2 / (W2 @ W2)
            np.testing.assert_allclose(W1, np.outer(W2, r), atol=1e-15 * setup.w_init)
            assert np.isclose(np.linalg.norm(r), 1.0) and np.isclose(np.linalg.norm(W1), setup.w_init)
            assert 0 <= alpha <= 1 and 1e-6 <= setup.w_init <= 1
            if family.startswith("r nearly against"):
                assert np.isclose(1 + r @ ds.beta / np.linalg.norm(ds.beta), C9_Q2, rtol=1e-6)


def test_paired_gd_amplification_scales_the_tolerance():
    D, H, _ = T8_SHAPE
    theta = searched_starts(np.random.default_rng(2))["Gaussian"][0]
    X0, y0, y_lin0, alpha, _, _ = searched_instance(theta)
    ds = symmetrize(X0, np.sign(y0))
    net = two_layer(D, H)
    flow = GradientFlow(net, Loss("logistic"))
    run = paired_gd(
        get_backend(), flow, Pairing((alpha,), 1), [ds], y_lin0, lr=0.1, steps=50, record=np.arange(51)
    )
    assert run.amplification.shape == (1,) and run.amplification[0] > 0.5
    plain = gd_rounding_tolerance(run, [ds], "logistic", 0.1, 50)
    run.amplification = np.array([1e3])
    np.testing.assert_allclose(gd_rounding_tolerance(run, [ds], "logistic", 0.1, 50), 1e3 * plain)


def test_other_searched_instances_satisfy_their_hypotheses():
    for theta in _all_starts(_manifold_starts(np.random.default_rng(3))):
        W1, W2, r, _ = _manifold_instance(theta)
        assert abs(sign_imbalance(W2) - 1) < 1e-14 and np.isclose(np.linalg.norm(r), 1.0)
        np.testing.assert_allclose(W1[0], np.outer(W2[0, 0], r[0]))
    for theta in _all_starts(_block_starts(np.random.default_rng(4))):
        (W1, W2), ds = _block_instance(theta)
        np.testing.assert_array_equal(ds.X @ ds.X.T, np.eye(ds.P))
        assert np.all(W1[0] >= 0) and np.all(W2[0, 0, :3] >= 0) and np.all(W2[0, 0, 3:] <= 0)
    for theta in _all_starts(_p12_starts(np.random.default_rng(5))):
        Ws, masks, ds = _p12_instance(theta)
        assert is_symmetric(ds.X, ds.y)
        r2 = Ws[2][0, 0]
        assert np.isclose(np.linalg.norm(r2[r2 > 0]), np.linalg.norm(r2[r2 < 0]))
        assert np.all(Ws[1][0][masks[1][0] == 0] == 0)
