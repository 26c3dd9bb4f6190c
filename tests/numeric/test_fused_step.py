"""Fused gradient steps: ``matmul_add`` (GEMM with beta = 1) and ``FixedReadoutNet.descend``.

Both must equal their unfused definitions up to rounding: ``out + a @ b`` and
``y + lr * field(t, y, args)``; the GD engine must give the same trajectory with and without
the fused path.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.backend import get_backend, matmul_add
from numeric.engine.descent import gradient_descent
from numeric.models.fixed_readout import FixedReadoutNet

BE = get_backend("numpy")
dims = st.integers(1, 9)


@settings(max_examples=40, deadline=None)
@given(M=dims, K=dims, N=dims, dtype=st.sampled_from([np.float64, np.float32]), seed=st.integers(0, 99))
def test_matmul_add_equals_out_plus_product(M, K, N, dtype, seed):
    rng = np.random.default_rng(seed)
    a, b, out = (rng.normal(size=s).astype(dtype) for s in ((M, K), (K, N), (M, N)))
    expected = out.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    ptr = out.ctypes.data
    res = matmul_add(a, b, out)
    assert res is out and out.ctypes.data == ptr  # in place
    # |fl(AB + C) - (AB + C)| <= (K + 1) u (|A||B| + |C|) per entry (standard GEMM error bound)
    u = np.finfo(dtype).eps / 2
    bound = (K + 1) * u * (np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64) + np.abs(expected))
    assert np.all(np.abs(out - expected) <= bound + np.finfo(dtype).tiny)


def test_matmul_add_on_a_non_contiguous_out_falls_back():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 5))
    big = rng.normal(size=(3, 10))
    out = big[:, ::2]
    expected = out + a @ b
    matmul_add(a, b, out)
    np.testing.assert_allclose(big[:, ::2], expected, rtol=1e-14)


@pytest.mark.parametrize("shared_data", [True, False])
@pytest.mark.parametrize("per_member_lr", [False, True])
def test_descend_equals_the_field_step(shared_data, per_member_lr):
    rng = np.random.default_rng(1)
    B, m, d, n = 3, 2, 7, 4
    net = FixedReadoutNet(m, d)
    X = rng.normal(size=(n, d)) if shared_data else rng.normal(size=(B, n, d))
    args = net.args(BE, X, rng.choice([-1.0, 1.0], size=n), gamma=0.3)
    y = rng.normal(size=(B, net.n_params))
    lr = rng.uniform(0.5, 2.0, size=(B, 1)) if per_member_lr else 0.7
    expected = y + lr * net(None, y, args)
    net.descend(None, y, lr, args)
    np.testing.assert_allclose(y, expected, rtol=1e-13, atol=1e-15)


def test_gd_engine_same_trajectory_with_and_without_the_fused_step():
    rng = np.random.default_rng(2)
    m, d, n, B = 3, 50, 6, 4
    net = FixedReadoutNet(m, d)
    args = net.args(BE, rng.normal(size=(n, d)) / np.sqrt(d), rng.choice([-1.0, 1.0], size=n), gamma=0.5)
    y0 = rng.normal(0.0, 1e-2, size=(B, net.n_params))

    def unfused(t, y, a):  # the same field without a ``descend`` method
        return net(t, y, a)

    kw = dict(lr=5.0, steps=300, record=[100, 300], args=args)
    fused, plain = gradient_descent(net, y0, **kw), gradient_descent(unfused, y0, **kw)
    # 300 steps of a contracting-in-norm map: rounding differences stay at a few ulps of |W|
    np.testing.assert_allclose(fused.ys, plain.ys, rtol=1e-12, atol=1e-14)
