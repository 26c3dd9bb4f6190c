"""Losses: values, derivatives, normalisation, numerical stability."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import float_arrays

from numeric.backend import to_numpy
from numeric.models.losses import LOGISTIC, SQUARE, Loss, sigmoid

KINDS = ["square", "logistic", "logistic2", "exponential"]


def _reference(kind: str, f: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per-sample losses written directly from the formulas."""
    if kind == "square":
        return 0.5 * (y - f) ** 2
    if kind == "logistic":
        return np.log1p(np.exp(-y * f))
    if kind == "logistic2":
        return 2 * np.log1p(np.exp(-y * f))
    return np.exp(-y * f)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("kind", KINDS)
def test_values_match_formulas(kind, reduction):
    rng = np.random.default_rng(0)
    f, y = rng.normal(size=(3, 5)), np.sign(rng.normal(size=(3, 5)))
    loss = Loss(kind, reduction)
    per = _reference(kind, f, y)
    np.testing.assert_allclose(loss.per_sample(f, y), per, rtol=1e-14)
    c = 1 / 5 if reduction == "mean" else 1.0
    np.testing.assert_allclose(loss.value(f, y), c * per.sum(axis=1), rtol=1e-14)
    assert loss.value(f, y).shape == (3,)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("kind", KINDS)
def test_derivative_matches_finite_differences(kind, reduction):
    rng = np.random.default_rng(1)
    f, y = rng.normal(size=(2, 4)), np.sign(rng.normal(size=(2, 4)))
    loss = Loss(kind, reduction)
    d = loss.dvalue(f, y)
    assert d.shape == f.shape
    h = 1e-6
    for j in range(f.shape[1]):
        up, down = f.copy(), f.copy()
        up[:, j] += h
        down[:, j] -= h
        fd = (loss.value(up, y) - loss.value(down, y)) / (2 * h)
        np.testing.assert_allclose(d[:, j], fd, rtol=1e-7, atol=1e-9)


def test_mean_is_sum_over_P():
    rng = np.random.default_rng(2)
    f, y = rng.normal(size=(2, 7)), rng.normal(size=(2, 7))
    for kind in KINDS:
        np.testing.assert_allclose(Loss(kind, "mean").value(f, y), Loss(kind, "sum").value(f, y) / 7)
        np.testing.assert_allclose(Loss(kind, "mean").dvalue(f, y), Loss(kind, "sum").dvalue(f, y) / 7)


def test_default_instances():
    assert SQUARE == Loss("square", "mean")
    assert LOGISTIC == Loss("logistic", "mean")


@pytest.mark.parametrize("kw", [{"kind": "hinge"}, {"kind": "square", "reduction": "max"}])
def test_invalid_loss_raises(kw):
    with pytest.raises(ValueError):
        Loss(**kw)


@given(
    margin=st.floats(-1e3, 1e3, allow_subnormal=False) | st.sampled_from([-1e3, -745.0, 0.0, 710.0, 1e3]),
    y=st.sampled_from([-1.0, 1.0]),
)
def test_logistic_is_stable_for_large_margins(margin, y):
    """|yf| ~ 1e3: no overflow (RuntimeWarnings are errors here), finite value and derivative."""
    f = np.array([[margin * y]])  # y f = margin
    yy = np.array([[y]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = LOGISTIC.per_sample(f, yy)[0, 0]
        d = Loss("logistic", "sum").dvalue(f, yy)[0, 0]
    assert np.isfinite(value) and np.isfinite(d)
    # ln(1 + e^{-m}) ~ -m for m << 0 and ~ e^{-m} for m >> 0; derivative -y sigmoid(-m)
    if margin < -40:
        assert value == pytest.approx(-margin, rel=1e-15)
        assert d == pytest.approx(-y, rel=1e-15)
    elif margin > 40:
        assert value == pytest.approx(np.exp(-margin), rel=1e-12, abs=1e-300)
        assert abs(d) <= np.exp(-margin) * (1 + 1e-12) + 1e-300
    else:
        assert value == pytest.approx(np.log1p(np.exp(-margin)), rel=1e-13)
        assert d == pytest.approx(-y / (1 + np.exp(margin)), rel=1e-12)
    assert 0 <= -y * d <= 1  # |dl/df| is a probability


@given(f=float_arrays((2, 3), 50.0), y=float_arrays((2, 3), 5.0))
def test_square_loss_properties(f, y):
    np.testing.assert_allclose(SQUARE.dvalue(f, y), (f - y) / 3, rtol=1e-15, atol=1e-300)
    assert np.all(SQUARE.value(f, y) >= 0)
    np.testing.assert_array_equal(SQUARE.value(y, y), 0.0)


def test_losses_run_on_backend(backend):
    rng = np.random.default_rng(3)
    f, y = rng.normal(size=(2, 4)), np.sign(rng.normal(size=(2, 4)))
    for kind in KINDS:
        loss = Loss(kind)
        np.testing.assert_allclose(
            to_numpy(loss.dvalue(backend.asarray(f), backend.asarray(y))), loss.dvalue(f, y), rtol=1e-14
        )


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exponential_loss_has_no_spurious_overflow(dtype):
    """c e^{z} with e^{z} beyond the largest float but c e^{z} below it is finite (c = 1/P folded into
    the exponent, no warning: RuntimeWarnings are errors here); a value that is itself beyond the
    largest float is inf, never NaN; below the threshold the result is the plain c * exp(z)."""
    log_max = float(np.log(np.finfo(dtype).max))
    P = 8
    z = np.array([[log_max + 1.0] + [0.0] * (P - 1)], dtype=dtype)  # c e^z = e^{log_max + 1 - ln 8}
    f, y = -z, np.ones_like(z)
    loss = Loss("exponential", "mean")
    expect = np.exp(np.float64(log_max) + 1.0 - np.log(P))
    assert loss.dvalue(f, y)[0, 0] == pytest.approx(-expect, rel=1e-5 if dtype == np.float32 else 1e-13)
    assert loss.value(f, y)[0] == pytest.approx(expect, rel=1e-5 if dtype == np.float32 else 1e-13)
    small = np.array([[1.0, -3.0, 40.0]], dtype=dtype)
    np.testing.assert_array_equal(loss.dvalue(-small, np.ones_like(small)), -((1 / 3) * np.exp(small)))
    with pytest.warns(RuntimeWarning, match="overflow"):
        d = Loss("exponential", "sum").dvalue(-z, y)
    assert d[0, 0] == -np.inf and not np.isnan(d).any()


def _old_sigmoid(z: np.ndarray) -> np.ndarray:
    """The overflow-free sigmoid as min2024's flows and this module each wrote it."""
    ez = np.exp(-np.abs(z))
    return np.where(z >= 0, 1.0 / (1.0 + ez), ez / (1.0 + ez))


def _old_residual(kind: str, f: np.ndarray, y: np.ndarray) -> np.ndarray:
    """min2024's deleted ``residual``: r = -l'(y, f), sum reduction."""
    return {
        "exponential": lambda: y * np.exp(-y * f),
        "logistic2": lambda: 2.0 * y * _old_sigmoid(-y * f),
        "logistic": lambda: y * _old_sigmoid(-y * f),
        "square": lambda: y - f,
    }[kind]()


def _old_loss_value(kind: str, f: np.ndarray, y: np.ndarray) -> np.ndarray:
    """min2024's deleted ``loss_value``: the per-sample losses summed."""
    z = y * f
    per = {
        "exponential": lambda: np.exp(-z),
        "logistic2": lambda: 2.0 * np.logaddexp(0.0, -z),
        "logistic": lambda: np.logaddexp(0.0, -z),
        "square": lambda: 0.5 * (y - f) ** 2,
    }[kind]()
    return per.sum(axis=-1)


@given(
    f=float_arrays((3, 7), 800.0),
    y=st.sampled_from([-1.0, 1.0, 0.5]),
    kind=st.sampled_from(KINDS),
)
def test_sum_loss_is_min2024s_residual_and_value_bit_for_bit(f, y, kind):
    """-Loss(kind, "sum").dvalue and .value replace min2024's residual / loss_value exactly."""
    yy = np.full_like(f, y)
    f[:, 0] = 0.0  # exact zeros: sigmoid(0) = 1/2
    loss = Loss(kind, "sum")
    with np.errstate(over="ignore"):
        r_new, r_old = -loss.dvalue(f, yy), _old_residual(kind, f, yy)
        v_new, v_old = loss.value(f, yy), _old_loss_value(kind, f, yy)
    np.testing.assert_array_equal(r_new, r_old)
    np.testing.assert_array_equal(v_new, v_old)


@given(q=float_arrays((4, 9), 900.0))
def test_sigmoid_is_kou2023s_loss_derivative_magnitude(q):
    """|l'(q)| = 1/(1+e^q) as kou2023 wrote it (``where(q > 0, e/(1+e), 1/(1+e))``) is ``sigmoid(-q)``."""
    q[0, :3] = [0.0, -0.0, 0.0]
    e = np.exp(-np.abs(q))
    np.testing.assert_array_equal(sigmoid(-q), np.where(q > 0, e / (1.0 + e), 1.0 / (1.0 + e)))
    np.testing.assert_array_equal(sigmoid(q), _old_sigmoid(q))
