"""Targets of kumar2025 Sec. 5.2 (verify/papers/kumar2025/targets.py): definitions and encodings."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.models.homogeneous_nets import output
from verify.papers.kumar2025.experiments import _sphere
from verify.papers.kumar2025.targets import (
    _conditional_mean_floor,
    _f2,
    _fourier_concentration,
    _g1,
    _g2,
    _h1,
    _h2,
    _pvr_bits,
    _pvr_inputs,
    _pvr_target,
)


def test_f2_is_a_6_plus_3_relu_net() -> None:
    """f_2 = W_3 relu(W_2 relu(W_1 x)) with 6 + 3 neurons (Sec. 5.2.1): the target lies in the class."""
    d = 14
    W1, W2 = np.zeros((6, d)), np.zeros((3, 6))
    for i in range(3):
        W1[2 * i, 4 * i : 4 * i + 2] = (2.0, 1.0)
        W1[2 * i + 1, 4 * i + 2 : 4 * i + 4] = (1.0, -1.0)
        W2[i, 2 * i : 2 * i + 2] = (1.0, -1.0)
    W3 = np.array([[1.0, 5.0, 10.0]])
    X = _sphere(np.random.default_rng(0), 500, d)
    H = output([W1[None], W2[None], W3[None]], X, 0.0, 1)[0]
    np.testing.assert_allclose(H, _f2(X), rtol=0, atol=1e-13)


def test_parities_and_maxima() -> None:
    X = np.array([[1.0, -1.0, 1.0, -1.0, 5.0], [-1.0, -1.0, 1.0, 1.0, 0.0]])
    np.testing.assert_array_equal(_g2(X), [1.0, 1.0])
    np.testing.assert_array_equal(_g1(X), [-2.0, 0.0])
    Z = np.array([[0.5, 2.0, -1.0, 0.3], [1.0, -3.0, 2.0, -0.5]])
    np.testing.assert_array_equal(_h1(Z), [2.0, 2.0])
    # h_2 row 1: max(0.5, 4) + max(-1, 0.6) - max(-0.5, -2, -0.3) = 4 + 0.6 + 0.3
    np.testing.assert_allclose(_h2(Z), [4.9, 1.0 + 2.0 - 3.0], atol=1e-15)


def test_pvr_code_matches_the_paper() -> None:
    """m = 16: 4 bits, p = 1 -> (-1,-1,-1,-1), p = 2 -> (-1,-1,-1,1); input dimension 21."""
    X = _pvr_inputs(np.random.default_rng(1), 4000, 16)
    assert _pvr_bits(16) == 4 and X.shape == (4000, 21)
    assert np.all(X[:, 4] == 1.0)
    codes = {tuple(r) for r in X[:, :4]}
    assert len(codes) == 15 and (1.0, 1.0, 1.0, 1.0) not in codes


@settings(max_examples=40, deadline=None)
@given(m=st.integers(3, 16), p=st.integers(1, 15), seed=st.integers(0, 2**31))
def test_pvr_target_reads_x_p_x_p_plus_1(m: int, p: int, seed: int) -> None:
    p = 1 + (p - 1) % (m - 1)
    b = _pvr_bits(m)
    x = np.random.default_rng(seed).choice([-1.0, 1.0], size=m)
    code = 2.0 * (((p - 1) >> np.arange(b - 1, -1, -1)) & 1) - 1.0
    row = np.concatenate([code, [1.0], x])[None]
    assert _pvr_target(m)(row)[0] == x[p - 1] * x[p]


def test_conditional_mean_floor() -> None:
    keys = np.array([[0], [0], [1], [1]])
    assert _conditional_mean_floor(keys, np.array([2.0, 2.0, -1.0, -1.0])) == 0.0
    assert _conditional_mean_floor(keys, np.array([1.0, -1.0, 1.0, -1.0])) == 1.0


def test_fourier_concentration_of_a_sinusoid_and_of_noise() -> None:
    P = 23
    t = 2 * np.pi * 5 * np.arange(P) / P
    W1 = np.concatenate([np.cos(t + 0.3), 2 * np.sin(t), [0.7]])[None]
    W2 = np.cos(t - 1.0)[:, None]
    np.testing.assert_allclose(_fourier_concentration(W1, W2, P), 1.0, rtol=1e-12)
    noise = np.random.default_rng(0).normal(size=(200, 2 * P + 1))
    assert np.median(_fourier_concentration(noise, noise[:, :P].T, P)) < 0.5
