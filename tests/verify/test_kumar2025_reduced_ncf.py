"""kumar2025 Lemma 9's reduced NCF (``ncf._ReducedNCF``) and the activation's slope ``ncf.mp_slope``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.kumar2025 import ncf
from verify.papers.kumar2025.ncf import _full_balance_gap, _reduced_ncf
from verify.profiles import get_profile


def _red(seed: int, alpha: float, p: int, new: int):
    ctx = Context("test", get_backend("numpy"), get_profile("tiny"), 0, {})
    return _reduced_ncf(np.random.default_rng(seed), ctx, alpha, p, new)


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 10_000), new=st.integers(1, 3), act=st.sampled_from([(0.5, 2), (1.0, 3), (0.3, 4)])
)
def test_gradient_matches_central_differences(seed: int, new: int, act: tuple[float, int]) -> None:
    red = _red(seed, *act, new)
    u = np.random.default_rng(seed + 1).normal(size=(1, 2, red.width))
    value, grad = red.value_and_grad(u)
    h = 1e-6
    for k in range(red.width):
        e = np.zeros(red.width)
        e[k] = h
        fd = (red.value_and_grad(u + e)[0] - red.value_and_grad(u - e)[0]) / (2 * h)
        assert np.allclose(fd, grad[..., k], rtol=1e-5, atol=1e-5 * (1 + np.abs(value).max()))
    assert np.all(grad[..., -red.n_c :] == 0)  # C is absent from H_1


def test_euler_and_full_balance_of_a_balanced_point() -> None:
    red = _red(0, 1.0, 2, 2)
    u = np.random.default_rng(3).normal(size=(1, 4, red.width))
    value, grad = red.value_and_grad(u)
    assert np.allclose((grad * u).sum(axis=-1), 3 * value)  # (p+1)-homogeneous
    parts = []
    for w, k in zip(red.blocks(u)[:-1], (n.k_in for n in red.ncfs), strict=True):
        a2 = (w[..., :k] ** 2).sum(-1, keepdims=True)
        b2 = (w[..., k:] ** 2).sum(-1, keepdims=True)
        parts.append(
            np.concatenate([w[..., :k], w[..., k:] * np.sqrt(a2 / (2 * b2))], axis=-1).reshape(1, 4, -1)
        )
    u = np.concatenate([*parts, np.zeros((1, 4, red.n_c))], axis=-1)  # balanced (p = 2), C = 0
    assert np.all(_full_balance_gap(red, u, 2) < 1e-12)
    u[..., -1] = 1.0
    assert np.all(_full_balance_gap(red, u, 2) > 0.5)


@pytest.mark.parametrize("alpha", [-1.0, 0.3, 1.0, 2.5])
@pytest.mark.parametrize("p", [1, 2, 4])
def test_mp_slope_is_the_derivative_of_mp_sigma(alpha: float, p: int) -> None:
    # alpha > 1 puts the branch alpha z on z > 0 (the slope's factor is alpha there, not 1); mp.diff's own
    # error at 15 digits is ~1e-14 relative, a wrong branch factor is O(1)
    for z in (mp.mpf("0.7"), mp.mpf("-0.4")):
        exact = ncf.mp_slope(z, alpha, p)
        assert abs(mp.diff(lambda t: ncf.mp_sigma(t, alpha, p), z) - exact) <= 1e-10 * abs(exact)
