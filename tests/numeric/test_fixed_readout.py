"""The kou2023 network: conventions (sigma'(0) = 1, sign(0) = -1) and the analytic gradient."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from numeric.backend import get_backend, to_numpy
from numeric.engine.descent import gradient_descent
from numeric.models.fixed_readout import (
    FixedReadoutNet,
    activation,
    paper_sign,
    readout,
)
from numeric.models.losses import sigmoid

BE = get_backend("numpy")


def test_conventions_at_zero():
    z = np.array([-1.0, 0.0, 2.0])
    assert activation(0.0).slope(z).tolist() == [0.0, 1.0, 1.0]
    assert activation(0.3).slope(z).tolist() == [0.3, 1.0, 1.0]
    assert paper_sign(z).tolist() == [-1.0, -1.0, 1.0]
    assert readout(2).tolist() == [0.5, 0.5, -0.5, -0.5]


@given(z=st.floats(-1e6, 1e6), g=st.floats(0.0, 1.0))
def test_sigma_equals_slope_times_z(z, g):
    z = np.array([z])
    assert activation(g).value(z)[0] == activation(g).slope(z)[0] * z[0]


def test_loss_derivative_is_stable():
    q = np.array([-800.0, 0.0, 800.0])
    assert np.all(np.isfinite(sigmoid(-q)))
    assert sigmoid(-q).tolist() == [1.0, 0.5, 0.0]


@pytest.mark.parametrize("gamma", [0.0, 0.4])
def test_field_is_minus_gradient(gamma):
    rng = np.random.default_rng(0)
    m, d, n = 3, 5, 4
    net = FixedReadoutNet(m, d)
    X = rng.normal(size=(n, d))
    y = np.array([1.0, -1.0, 1.0, -1.0])
    args = net.args(BE, X, y, gamma=gamma)
    w = rng.normal(size=(1, net.n_params))
    F = to_numpy(net(None, w, args))[0]
    h = 1e-6
    num = np.empty(net.n_params)
    for k in range(net.n_params):
        e = np.zeros_like(w)
        e[0, k] = h
        num[k] = -(net.loss_value(w + e, args)[0] - net.loss_value(w - e, args)[0]) / (2 * h)
    np.testing.assert_allclose(F, num, atol=1e-7)


def test_gd_map_matches_equation_3_2():
    rng = np.random.default_rng(1)
    m, d, n, eta, gamma = 2, 4, 3, 0.7, 0.2
    net = FixedReadoutNet(m, d)
    X = rng.normal(size=(n, d))
    y = np.array([1.0, -1.0, 1.0])
    W = rng.normal(size=(2 * m, d))
    args = net.args(BE, X, y, gamma=gamma)
    traj = gradient_descent(net, W.reshape(1, -1), lr=eta, steps=1, record=[1], args=args)
    Z = W @ X.T
    f = readout(m) @ activation(gamma).value(Z)
    g = 1 / (1 + np.exp(y * f))
    j = np.repeat([1.0, -1.0], m)
    W1 = W + eta / (n * m) * (activation(gamma).slope(Z) * j[:, None] * (g * y)[None]) @ X
    np.testing.assert_allclose(to_numpy(traj.ys)[0, 0], W1.ravel(), rtol=1e-14, atol=1e-14)
