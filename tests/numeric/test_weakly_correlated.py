"""Data, initializations and the event I of numeric.data.weakly_correlated; numeric.measures.statistics."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kstest
from weakly_correlated_strategies import weakly_correlated_data

from numeric.data.weakly_correlated import (
    appendix_b_init_reduced,
    assumption2_limit,
    event_I,
    offdiag_norm,
    perturbed_gram,
    prob_event_I_orthogonal,
    sphere_gram,
)
from numeric.measures.statistics import clopper_pearson, fit_sigmoid, wilson


def test_sphere_gram_is_a_gram_of_unit_vectors():
    rng = np.random.default_rng(0)
    G = sphere_gram(rng, 2000, 3, 50)
    np.testing.assert_allclose(np.einsum("bii->bi", G), 1.0, rtol=1e-14)
    assert np.linalg.eigvalsh(G).min() > -1e-12
    # E <u1,u2>^2 = 1/d for independent uniform unit vectors; 2000 x 3 pairs: 5 sigma band
    m = (G[:, 0, 1] ** 2).mean()
    assert abs(m - 1 / 50) < 5 * np.sqrt(2 / 50**2 / 2000) + 1e-3


@settings(max_examples=25)
@given(data=weakly_correlated_data())
def test_weakly_correlated_data_satisfy_assumption_2(data):
    norms, y, G = data
    assert offdiag_norm(G) < assumption2_limit(norms, y)
    assert np.linalg.eigvalsh(G).min() > 0


def test_perturbed_gram_hits_the_spectral_norm():
    rng = np.random.default_rng(1)
    norms = rng.uniform(1, 2, 7)
    G = perturbed_gram(rng, norms, 0.123)
    np.testing.assert_allclose(offdiag_norm(G), 0.123, rtol=1e-12)
    np.testing.assert_allclose(np.diag(G), norms**2)


@settings(max_examples=10)
@given(n=st.integers(1, 3), p=st.integers(1, 3), n_pos=st.integers(0, 3))
def test_prob_event_I_matches_enumeration(n, p, n_pos):
    """(C8) against exact enumeration of the (equally likely) sign patterns of a and of <w_j|x_i>."""
    n_pos = min(n_pos, n)
    y = np.array([1.0] * n_pos + [-1.0] * (n - n_pos))
    hits, total = 0, 0
    for sa in itertools.product([-1.0, 1.0], repeat=p):
        for sw in itertools.product([-1.0, 1.0], repeat=p * n):
            pre = np.array(sw).reshape(1, p, n)
            hits += int(event_I(pre, np.array(sa)[None], y)[0])
            total += 1
    np.testing.assert_allclose(prob_event_I_orthogonal(n_pos, n - n_pos, p), hits / total, rtol=1e-12)


def test_reduced_init_satisfies_assumption_1_and_has_the_right_law():
    rng = np.random.default_rng(2)
    G = np.diag(rng.uniform(1, 4, 5))
    V, a, wperp2 = appendix_b_init_reduced(rng, G, 40, 4000, 3)
    wn = np.sqrt((V**2 / np.diag(G)).sum(axis=2) + wperp2)
    assert np.all(np.abs(a) >= wn)
    np.testing.assert_allclose((wn**2).mean(), 1.0, atol=0.02)  # E||w||^2 = 1 for N(0, I/d)


@pytest.mark.parametrize(
    ("excess", "law", "other"), [("exponential", "expon", "halfnorm"), ("halfnormal", "halfnorm", "expon")]
)
def test_reduced_init_draws_the_excess_it_is_given(excess: str, law: str, other: str):
    # 12000 excesses: the KS test's p-value against the drawn law is typically ~0.5; the other law is rejected
    # (its KS distance ~0.1 is ~10 times the 1e-2 sampling scale)
    rng = np.random.default_rng(3)
    G = np.array([[1.0, 0.3], [0.3, 2.0]])
    V, a, wperp2 = appendix_b_init_reduced(rng, G, 30, 4000, 3, excess=excess)
    wn = np.sqrt(np.einsum("bpi,ij,bpj->bp", V, np.linalg.inv(G), V) + wperp2)
    e = (np.abs(a) - wn).ravel()
    assert kstest(e, law).pvalue > 1e-3 and kstest(e, other).pvalue < 1e-6
    with pytest.raises(ValueError, match="excess"):
        appendix_b_init_reduced(rng, G, 30, 1, 3, excess="uniform")


def test_binomial_intervals_and_sigmoid():
    lo, hi = clopper_pearson(np.array([0, 5, 10]), 10, 0.95)
    assert lo[0] == 0.0 and hi[2] == 1.0 and lo[1] < 0.5 < hi[1]
    wl, wh = wilson(5, 10, 0.95)
    assert wl < 0.5 < wh
    x = np.linspace(0, 100, 21)
    N, w = fit_sigmoid(x, 1 / (1 + np.exp((x - 40) / 5)))
    np.testing.assert_allclose([N, w], [40, 5], rtol=1e-6)
