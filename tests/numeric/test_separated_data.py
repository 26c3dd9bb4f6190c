"""Geometry of well-separated data: mu, cones, the closed forms of zeta_1 and xi."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies_min2024 import separated_datasets

from numeric.data.separated_data import (
    DEAD,
    MINUS,
    OTHER,
    PLUS,
    aggregates,
    family_f,
    planar,
    regions,
    separation,
    xi,
    zeta1,
)


@given(theta=st.floats(0.05, 1.5), n=st.integers(2, 7))
def test_family_f_has_mu_cos_squared(theta, n):
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = family_f(theta, y, np.linspace(0.5, 1.5, n))
    assert abs(separation(X, y) - np.cos(theta) ** 2) <= 1e-14


@settings(max_examples=30, deadline=None)
@given(data=separated_datasets(n=6, D=3))
def test_aggregates_and_cap_closed_form(data):
    X, y = data
    xp, xm = aggregates(X, y)
    assert regions(xp[None], X, y)[0] == PLUS and regions(xm[None], X, y)[0] == MINUS
    z1 = zeta1(X, y)
    rng = np.random.default_rng(0)
    for a, code in ((xp, PLUS), (xm, MINUS)):
        a = a / np.linalg.norm(a)
        c = np.sqrt(1 - 0.99 * z1)  # cos of a cap boundary slightly inside the largest zeta_1
        perp = rng.normal(size=(2000, 3))
        perp -= np.outer(perp @ a, a)
        perp /= np.linalg.norm(perp, axis=1, keepdims=True)
        assert np.all(regions(c * a + np.sqrt(1 - c**2) * perp, X, y) == code)


@settings(max_examples=20, deadline=None)
@given(data=separated_datasets(n=5, D=3))
def test_xi_is_mu_squared_and_k_is_mu_coherent(data):
    X, y = data
    rng = np.random.default_rng(1)
    G = y[:, None] * X
    A = rng.exponential(size=(4000, len(y))) * (rng.random((4000, len(y))) < 0.5)
    K = A[A.sum(1) > 0] @ G
    K /= np.linalg.norm(K, axis=1, keepdims=True)
    assert np.min(K @ K.T) >= separation(X, y) - 1e-12  # Lemma 5
    W = rng.normal(size=(4000, 3))
    out = W[np.isin(regions(W, X, y), [OTHER, DEAD])]
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    assert np.max(np.abs(K @ out.T)) <= np.sqrt(1 - xi(X, y)) + 1e-12  # Lemma 9 with xi = mu^2


def test_orthogonal_and_xor_cones():
    X, y = planar(np.array([0.0, np.pi / 2])), np.array([1.0, 1.0])
    assert separation(X, y) <= 1e-15
    Xx, yx = planar(np.array([0.0, np.pi, np.pi / 2, -np.pi / 2])), np.array([1.0, 1.0, -1.0, -1.0])
    assert separation(Xx, yx) == -1.0
    W = np.random.default_rng(2).normal(size=(1000, 2))
    assert not np.any(regions(W, Xx, yx) == PLUS)
