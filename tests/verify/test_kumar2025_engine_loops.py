"""kumar2025's GD loops on the engine (issue 17 item 2): per-member results against the replaced loops."""

from __future__ import annotations

import numpy as np
import pytest

from verify.papers.kumar2025.examples import B_D5, X_D5, _diagonal_gd
from verify.papers.kumar2025.lemmas import EPS, _gd_factorization


def _factorization_loop(c, v0, u0, lr, steps):
    """The replaced loop of Lemma 21 (batched GD on (vu - c)^2 / 2 with its monitors), as it was."""
    v, u = v0.copy(), u0.copy()
    vmax, monotone = np.abs(v), np.ones_like(v, bool)
    loss = 0.5 * (v * u - c) ** 2
    for _ in range(steps):
        r = v * u - c
        v, u = v - lr * u * r, u - lr * v * r
        vmax = np.maximum(vmax, np.abs(v))
        new = 0.5 * (v * u - c) ** 2
        monotone &= new <= loss * (1 + 4 * EPS)
        loss = new
    return v, u, vmax, monotone


def test_lemma21_factorization_on_the_engine_is_the_old_loop_bit_for_bit():
    """Inside Lemma 21's hypotheses, with misaligned starts, with steps above 1/(2|c|) (the loss rises: the
    monotone monitor must see it) and far above (the iterates overflow); 300 steps cross several finiteness
    checks of the engine."""
    rng = np.random.default_rng(5)
    B = 48
    c = rng.choice([-1, 1], size=B) * rng.uniform(0.2, 5.0, size=B)
    delta = np.sqrt(2 * np.abs(c)) * 10 ** rng.uniform(-4, -0.5, size=B)
    lr = rng.uniform(0.05, 0.45, size=B) / np.abs(c)
    lr[4::8] *= 3.5  # above the threshold: the loss rises, the iterates stay finite
    lr[::8] *= 10.0  # far above: the iterates overflow
    sign = np.where(np.arange(B) % 3 == 0, -1.0, 1.0) * np.sign(c)  # a third misaligned
    v0, u0 = delta / np.sqrt(2), sign * delta / np.sqrt(2)
    with np.errstate(over="ignore", invalid="ignore"):
        got = _gd_factorization(c, v0, u0, lr, 300)
        ref = _factorization_loop(c, v0, u0, lr, 300)
    finite = np.isfinite(ref[0]) & np.isfinite(ref[1])
    assert 0 < (~finite).sum() < B // 8 + 1 and finite[1::8].all()  # diverged: some of lr[::8] only
    assert not ref[3][finite].all() and ref[3].any()  # both outcomes of the monotone monitor occur
    for a, b in zip(got, ref, strict=True):
        np.testing.assert_array_equal(a[finite], b[finite])
    for a in got[:3]:  # a member that diverged is NaN, never a last finite value that could pass a bound
        assert np.isnan(a[~finite]).all()
    assert not got[3][~finite].any()


def test_diagonal_gd_on_the_engine_is_the_old_loop_bit_for_bit():
    """App. D.5's GD (the diagonal linear net on the active coordinates; a random 4 x 6 instance, 3 of 6
    coordinates active, 700 steps, mid-convergence where any change of rounding would show): the engine run
    is bit for bit the replaced loop, written out here; inactive coordinates do not move."""
    rng = np.random.default_rng(7)
    X, b = rng.normal(size=(4, 6)), rng.normal(size=4)
    v0, u0 = 0.1 * rng.normal(size=6), 0.1 * rng.normal(size=6)
    active = np.array([True, False, True, True, False, False])
    v, u = v0.copy(), u0.copy()
    for _ in range(700):  # the replaced loop
        g = X.T @ (X @ (v * u) - b)
        v, u = v - 0.02 * g * u * active, u - 0.02 * g * v * active
    got = _diagonal_gd(X, b, v0, u0, active, 0.02, 700)
    np.testing.assert_array_equal(got[0], v)
    np.testing.assert_array_equal(got[1], u)
    assert np.array_equal(got[0][~active], v0[~active]) and not np.allclose(v[active], v0[active], atol=1e-3)
    g = X.T @ (X @ (v * u) - b)
    assert np.linalg.norm((g * u)[active]) > 1e-6  # not converged: the iterates still move


def test_diagonal_gd_raises_when_it_diverges():
    """A step far above 2 / curvature: the engine stops the run as non-finite and GD raises (the old loop
    returned NaN iterates)."""
    ones = np.ones(3)
    with np.errstate(over="ignore", invalid="ignore"), pytest.raises(FloatingPointError):
        _diagonal_gd(X_D5, B_D5, ones, ones, ones.astype(bool), 50.0, 500)
