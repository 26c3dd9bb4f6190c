"""The MNIST stand-in: bundled digits, centring, labels, Gram-sign agreement."""

import numpy as np
import pytest

from numeric.data.digits import digit_pair, digit_parity, gram_sign_agreement, split


def test_digit_pair_is_centred_and_labelled():
    ds = digit_pair(0, 1)  # a mean of 360 numbers <= 1: rounding well below 64 eps
    assert ds.X.shape[1] == 64
    np.testing.assert_allclose(ds.X.mean(axis=0), 0.0, atol=64 * np.finfo(float).eps)
    assert set(np.unique(ds.y)) == {-1.0, 1.0}
    assert 0.5 < gram_sign_agreement(ds.X, ds.y) < 1.0  # approximately, not exactly, well separated


def test_subsample_is_reproducible():
    a = digit_pair(3, 8, per_class=20, rng=np.random.default_rng(1))
    b = digit_pair(3, 8, per_class=20, rng=np.random.default_rng(1))
    assert a.P == 40 and np.array_equal(a.X, b.X)


def test_gram_sign_agreement_is_one_on_separated_data():
    X = np.array([[1.0, 0.1], [1.0, -0.1], [-1.0, 0.0]])
    assert gram_sign_agreement(X, np.array([1.0, 1.0, -1.0])) == 1.0


def test_parity_and_split():
    ds = digit_parity()
    train, test = split(ds, 0.25, np.random.default_rng(0))
    assert train.P + test.P == ds.P and abs(test.P - 0.25 * ds.P) < 1


@pytest.mark.parametrize("args", [(1, 1), (0, 10)])
def test_bad_digits_rejected(args):
    with pytest.raises(ValueError):
        digit_pair(*args)
