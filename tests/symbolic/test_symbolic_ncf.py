"""symbolic.ncf: eq. 21 is the lowest-order term of the output near a sparse saddle; Euler; balance."""

from __future__ import annotations

import pytest
import sympy as sp

from symbolic.ncf import (
    balance_rate,
    block_net,
    epsilon_coefficients,
    euler_residual,
    forward,
    h1_closed_form,
    power,
)


@pytest.mark.parametrize("depth,p,new", [(2, 2, 2), (3, 2, 1), (3, 1, 2)])
def test_h1_is_the_lowest_order_term(depth, p, new):
    net = block_net(2, depth, 1, new)
    x = sp.Matrix(sp.symbols("x0:2", real=True))
    coeff = epsilon_coefficients(forward(net.W, x, power(p)), net.wz, p + 1)
    h1, terms = h1_closed_form(net, x, p)
    assert all(sp.expand(c) == 0 for c in coeff[1 : p + 1])
    assert sp.expand(coeff[p + 1] - h1) == 0
    assert euler_residual(h1, net.wz, p + 1) == 0
    assert not ({s for M in net.C for s in M} & h1.free_symbols)
    assert len(terms) == depth - 1 and all(len(t) == new for t in terms)


def test_euler_residual_detects_non_homogeneity():
    u = sp.symbols("u0:2", real=True)
    assert euler_residual(u[0] ** 2 * u[1], u, 3) == 0
    assert euler_residual(u[0] ** 2 * u[1] + u[0] ** 4, u, 3) != 0


@pytest.mark.parametrize("p", [1, 2, 3])
def test_balance_is_invariant_along_the_ncf_flow(p):
    a, b, g, q = (sp.symbols(f"{c}0:2", real=True) for c in "abgq")
    h = (q[0] * b[0] + q[1] * b[1]) * (a[0] * g[0] + a[1] * g[1]) ** p
    assert balance_rate(h, a, b, p) == 0
    assert balance_rate(h, a, b, p + 1) != 0
