"""The shared activation (numeric.models.activation) against every convention it replaced, bit for bit.

Each oracle below is one of the deleted copies, written out as it was: zhang2025's
``leaky_relu_slope`` (``where``-form reference), kou2023's ``where(z >= 0, 1, gamma)``
(sigma'(0) = 1), kumar2025's branch-free Clarke slope (sigma'(0) = min(1, alpha)) and its power
``p``, the ReLU indicator ``z > 0`` of min2024 (sigma'(0) = 0), dana2025's ``[z > 0] + kink [z = 0]``
and min2024 App. B's leaky slope (sigma'(0) = alpha), and reduced GD's ``gamma + (1 - gamma)[z >= 0]``.
Inputs mix normal draws with exact zeros (both signs), tiny and huge magnitudes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric.models.activation import RELU, Activation

SPECIAL = np.array([0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e-300, 1.0, -1.0, 1e300, -1e300])


def _z(seed: int, n: int = 64) -> np.ndarray:
    """Normal draws, every 7th an exact zero (every 14th a -0.0), then the special values."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n) * 10.0 ** rng.integers(-5, 5, n)
    z[::7] = 0.0
    z[::14] = -0.0
    return np.concatenate([z, SPECIAL])


UNIT = st.one_of(
    st.floats(0.0, 1.0), st.sampled_from([0.0, 2.0**-60, 0.1, 0.5 - 2.0**-54, 0.5, 1.0 - 2.0**-53, 1.0])
)
SEEDS = st.integers(0, 2**31 - 2)


def _same(a: np.ndarray, b: np.ndarray) -> None:
    """Bit-identical, signed zeros included."""
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.int64), b.view(np.int64))


@given(
    alpha=st.one_of(UNIT, st.floats(1.0, 2.0**52), st.just(3.0)),
    kink=st.sampled_from([0.0, 0.3, 0.5, 1.0]),
    seed=SEEDS,
)
def test_two_sided_slope_with_any_kink(alpha, kink, seed):
    """zhang2025's convention: hi above, lo below, ``kink`` at 0 (1 for the identity)."""
    z = _z(seed)
    lo, hi = min(1.0, alpha), max(1.0, alpha)
    expected = np.where(z > 0, hi, np.where(z < 0, lo, 1.0 if alpha == 1.0 else kink))
    _same(Activation(alpha, kink).slope(z), expected)
    with np.errstate(over="ignore"):  # alpha z overflows to -inf for huge alpha, in both forms
        old = np.maximum(z, 0.0) if alpha == 0.0 else np.maximum(z, alpha * z)
        _same(Activation(alpha, kink).value(z), old)


@given(gamma=UNIT, seed=SEEDS)
def test_kou2023_slope_one_at_zero(gamma, seed):
    """kou2023 Sec. 3: sigma'(z) = 1 for z >= 0, gamma below; also reduced GD's gamma + (1-gamma)[z >= 0]."""
    z = _z(seed)
    old = np.where(z >= 0, 1.0, gamma * np.ones_like(z))
    _same(Activation(gamma, kink=1.0).slope(z), old)
    _same(Activation(gamma, kink=1.0).slope(z), gamma + (1.0 - gamma) * (z >= 0))
    # per-member gammas (B, 1, 1) as the solver's args carry them
    g = np.array([0.0, gamma, 1.0]).reshape(3, 1, 1)
    _same(Activation(g, kink=1.0).slope(z[None, None, :]), np.where(z >= 0, 1.0, g * np.ones_like(z)))


@given(alpha=st.one_of(UNIT, st.floats(1.0, 8.0)), p=st.integers(1, 4), seed=SEEDS)
def test_kumar2025_clarke_slope_and_power(alpha, p, seed):
    """kumar2025: lo + (hi - lo)[z > 0] (sigma'(0) = min(1, alpha)) times p max(z, alpha z)^(p-1)."""
    z = _z(seed)
    lo, hi = min(1.0, alpha), max(1.0, alpha)
    sigma = Activation(alpha, kink=lo, p=p)
    with np.errstate(over="ignore"):
        m1 = lo + (hi - lo) * (z > 0)
        old = m1 if p == 1 else p * np.maximum(z, alpha * z) ** (p - 1) * m1
        old_value = np.maximum(z, alpha * z) ** p
        # the ReLU (alpha = 0) is max(z, 0): +0.0 where max(z, 0 z) gave -0.0, equal values
        check = _same if alpha != 0.0 else np.testing.assert_array_equal
        check(sigma.slope(z), old)
        check(sigma.value(z), old_value)


@given(kink=st.sampled_from([0.0, 0.5, 1.0]), seed=SEEDS)
def test_relu_indicator_and_kink_mask(kink, seed):
    """min2024's (z > 0) and dana2025's [z > 0] + kink [z = 0]; max(z, 0) for the value."""
    z = _z(seed)
    r = np.random.default_rng(seed).normal(size=z.shape)
    _same(RELU.slope(z) * r, (z > 0.0) * r)
    _same(RELU.value(z), np.maximum(z, 0.0))
    _same(Activation(0.0, kink).slope(z), (z > 0) + kink * (z == 0))


@given(alpha=UNIT, seed=SEEDS)
def test_min2024_leaky_slope_alpha_at_zero(alpha, seed):
    """min2024 App. B: sigma'(z) = 1 above 0, alpha at and below."""
    z = _z(seed)
    _same(Activation(alpha, kink=alpha).slope(z), np.where(z > 0, 1.0, alpha))


@given(seed=SEEDS)
def test_array_kink_per_member(seed):
    """zhang2025 Lemma 14: sigma'(0) = (1 + alpha)/2 with per-member alpha arrays."""
    z = _z(seed)[None, None, :]
    alpha = np.array([0.0, 0.3, 1.0]).reshape(3, 1, 1)
    kink = (1 + alpha) / 2
    expected = np.where(z > 0, 1.0, np.where(z < 0, alpha, kink))
    _same(Activation(alpha, kink).slope(z), np.broadcast_to(expected, (3, 1, z.shape[-1])).copy())


def test_kink_conventions_at_zero():
    z = np.array([-2.0, -0.0, 0.0, 5.0])
    assert Activation(0.2, 0.5).slope(z).tolist() == [0.2, 0.5, 0.5, 1.0]
    assert Activation(1.0, 0.5).slope(z).tolist() == [1.0, 1.0, 1.0, 1.0]  # identity: 1 whatever kink says
    assert Activation(3.0, 0.5).slope(z).tolist() == [1.0, 0.5, 0.5, 3.0]
    assert Activation(0.5, 0.5, p=2).slope(z).tolist() == [-1.0, 0.0, 0.0, 10.0]  # 2 max(z, z/2) m'(z)


def test_nan_propagates_and_bad_power_is_refused():
    assert np.isnan(RELU.value(np.array([np.nan])))[0]
    assert Activation(0.3, 1.0).slope(np.array([np.nan]))[0] == 0.3  # as every replaced form: not > 0
    for p in (0, 1.5):
        with pytest.raises(ValueError, match="power p"):
            Activation(0.0, 0.0, p=p)


@given(
    alpha=st.sampled_from([0.0, 0.3, 1.0]),
    kink=st.sampled_from([0.0, 0.5, 1.0]),
    p=st.integers(1, 2),
    seed=SEEDS,
)
def test_backprop_is_slope_times_upstream(alpha, kink, p, seed):
    """The ReLU's boolean-mask product gives the float slope's numbers (signed zeros, inf, NaN too)."""
    z = _z(seed)
    up = np.random.default_rng(seed).normal(size=z.shape)
    up[:4] = [np.inf, -np.inf, np.nan, -0.0]
    sigma = Activation(alpha, kink, p)
    with np.errstate(invalid="ignore"):
        got, want = sigma.backprop(z, up), sigma.slope(z) * up
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
