"""numeric.models.homogeneous_flow: the polar form of homogeneous gradient flows and blow-up times."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.models.homogeneous_flow import blow_up_time, polar_field, polar_flow


def _quadratic(S):
    def vg(u, args):
        return 0.5 * np.einsum("bi,ij,bj->b", u, S, u), u @ S

    return vg


def _squared_neuron(M):
    """N(a, b) = b a^T M a (degree 3), rows u = (a, b)."""

    def vg(u, args):
        a, b = u[:, :-1], u[:, -1]
        Ma = a @ M
        return b * (a * Ma).sum(axis=1), np.concatenate(
            [2 * b[:, None] * Ma, (a * Ma).sum(axis=1)[:, None]], axis=1
        )

    return vg


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_degree_two_radius_matches_the_exact_linear_flow(seed):
    """For f = u^T S u / 2 the flow is e^(St) u_0; in polar form t = tau."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(3, 3))
    S = 0.5 * (A + A.T)
    u0 = rng.normal(size=(2, 3))
    taus = np.linspace(0.0, 1.5, 4)
    fl = polar_flow(_quadratic(S), u0, 2, taus)
    lam, V = np.linalg.eigh(S)
    exact = np.stack([(V * np.exp(lam * t)) @ V.T @ u0.T for t in taus], axis=1).T  # (2, T, 3)
    np.testing.assert_allclose(fl.t, np.broadcast_to(taus, fl.t.shape), rtol=1e-12)
    np.testing.assert_allclose(np.exp(fl.log_r), np.linalg.norm(exact, axis=2), rtol=1e-8)
    np.testing.assert_allclose(fl.theta, exact / np.linalg.norm(exact, axis=2, keepdims=True), atol=1e-8)


@settings(max_examples=10, deadline=None)
@given(mu=st.floats(0.3, 3.0), seed=st.integers(0, 2**16))
def test_blow_up_time_of_the_balanced_eigen_start(mu, seed):
    """b a^T M a from a = sqrt(2/3) v, b = 1/sqrt 3 (Mv = mu v) blows up at sqrt(3)/(2 mu)."""
    rng = np.random.default_rng(seed)
    V = np.linalg.qr(rng.normal(size=(3, 3)))[0]
    M = V @ np.diag([mu, -0.5, 0.1]) @ V.T
    u0 = np.concatenate([np.sqrt(2 / 3) * V[:, 0], [1 / np.sqrt(3)]])[None]
    fl = polar_flow(_squared_neuron(M), u0, 3, np.linspace(0.0, 40.0 / mu, 3))
    assert blow_up_time(fl, 3)[0] == pytest.approx(np.sqrt(3) / (2 * mu), rel=1e-9)


def test_tangent_field_keeps_the_norm_of_theta():
    rng = np.random.default_rng(0)
    M = np.diag([1.0, -2.0])
    y = np.concatenate([rng.normal(size=(5, 3)), np.zeros((5, 2))], axis=1)
    dy = polar_field(_squared_neuron(M), 3)(np.zeros(5), y, {})
    theta = y[:, :3]
    np.testing.assert_allclose((dy[:, :3] * theta).sum(axis=1), 0.0, atol=1e-13)


def test_no_blow_up_for_degree_two_or_a_decaying_start():
    M = np.eye(2)
    with pytest.raises(ValueError):
        blow_up_time(polar_flow(_quadratic(M), np.ones((1, 2)), 2, np.array([0.0, 1.0])), 2)
    fl = polar_flow(_squared_neuron(M), np.array([[0.3, 0.1, -0.9]]), 3, np.array([0.0, 20.0]))
    assert np.isnan(blow_up_time(fl, 3)[0])  # b < 0 with |a|^2 < 2 b^2: converges to (0, b_inf)
