r"""Exact NCF machinery for small deep nets with polynomial activation :math:`\sigma(x)=x^p` (kumar2025).

* :func:`block_net` -- symbolic weights of an L-layer net in the block form of Lemma 8
  (:math:`W_1=[N_1;A_1]`, :math:`W_l=[[N_l,B_l],[A_l,C_l]]`, :math:`W_L=[N_L,B_L]`), each hidden
  layer with ``active`` old neurons and ``new`` neurons of :math:`\mathcal G_z`;
* :func:`forward` -- :math:`\mathcal H(x;W_{1:L})` (eq. 3);
* :func:`h1_closed_form` -- eq. 21, written per new neuron (Sec. 3.3):
  :math:`\mathcal H_1=\sum_l\sum_j\delta_{l+1}(x)^\top B_{l+1}[:,j]\,\sigma(A_l[j,:]g_{l-1}(x))`
  with :math:`\delta_{l+1}=\nabla_sf_{L,l+2}(N_{l+1}g_l)` back-propagated through the old net;
* :func:`euler_residual` -- :math:`u^\top\nabla f(u)-Lf(u)` (Lemma 14).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy as sp


@dataclass(frozen=True)
class BlockNet:
    """Symbolic block weights: ``W[l]`` full matrices, ``old[l]`` the N-blocks; ``wn``, ``wz`` the symbols."""

    W: list[sp.Matrix]
    old: list[sp.Matrix]
    A: list[sp.Matrix]
    B: list[sp.Matrix]
    C: list[sp.Matrix]
    wn: list[sp.Symbol]
    wz: list[sp.Symbol]


def _mat(name: str, r: int, c: int) -> sp.Matrix:
    return sp.Matrix(r, c, lambda i, j: sp.Symbol(f"{name}_{i}{j}", real=True))


def block_net(d: int, depth: int, active: int, new: int) -> BlockNet:
    """An ``depth``-layer net on inputs of size ``d``; every hidden layer has ``active`` + ``new`` neurons."""
    k = [d] + [active] * (depth - 1) + [1]
    W, old, A, B, C = [], [], [], [], []
    for layer in range(1, depth + 1):
        n_in_old, n_out_old = k[layer - 1], k[layer]
        N = _mat(f"N{layer}", n_out_old, n_in_old)
        old.append(N)
        has_new_in = layer > 1
        has_new_out = layer < depth
        Bl = _mat(f"B{layer}", n_out_old, new) if has_new_in else sp.zeros(n_out_old, 0)
        Al = _mat(f"A{layer}", new, n_in_old) if has_new_out else sp.zeros(0, n_in_old)
        Cl = (
            _mat(f"C{layer}", new, new)
            if has_new_in and has_new_out
            else sp.zeros(new if has_new_out else 0, 0)
        )
        if has_new_in:
            B.append(Bl)
        if has_new_out:
            A.append(Al)
        if has_new_in and has_new_out:
            C.append(Cl)
        top = N.row_join(Bl) if has_new_in else N
        bottom = (Al.row_join(Cl) if has_new_in else Al) if has_new_out else sp.zeros(0, top.cols)
        W.append(top.col_join(bottom))
    wn = [s for M in old for s in M]
    wz = [s for M in A + B + C for s in M]
    return BlockNet(W, old, A, B, C, wn, wz)


def power(p: int) -> Callable[[sp.Expr], sp.Expr]:
    r""":math:`\sigma(x)=x^p` (the :math:`\alpha=1` case of Lemma 8(ii))."""
    return lambda z: z**p


def forward(Ws: Sequence[sp.Matrix], x: sp.Matrix, sigma: Callable[[sp.Expr], sp.Expr]) -> sp.Expr:
    """Eq. 3: :math:`W_L\\sigma(W_{L-1}\\cdots\\sigma(W_1x))` (a scalar)."""
    g = x
    for W in Ws[:-1]:
        g = (W * g).applyfunc(sigma)
    return sp.expand((Ws[-1] * g)[0, 0])


def h1_closed_form(net: BlockNet, x: sp.Matrix, p: int) -> tuple[sp.Expr, list[list[sp.Expr]]]:
    r"""Eq. 21 and its per-neuron terms
    ``terms[l][j]`` = :math:`\mathcal H_{1,l}(x;B_{l+1}[:,j],A_l[j,:])`."""
    sigma = power(p)
    gs = [x]
    for N in net.old[:-1]:
        gs.append((N * gs[-1]).applyfunc(sigma))
    depth = len(net.old)
    deltas = [None] * (depth + 1)
    deltas[depth] = sp.Matrix([[1]])  # dH/dh_L
    for layer in range(depth - 1, 0, -1):  # delta_l = diag(sigma'(h_l)) N_{l+1}^T delta_{l+1}
        h = net.old[layer - 1] * gs[layer - 1]
        slope = h.applyfunc(lambda z: p * z ** (p - 1))
        deltas[layer] = sp.matrix_multiply_elementwise(slope, net.old[layer].T * deltas[layer + 1])
    terms = []
    for layer in range(1, depth):
        A, B = net.A[layer - 1], net.B[layer - 1]
        row = []
        for j in range(A.rows):
            act = sigma((A[j, :] * gs[layer - 1])[0, 0])
            row.append(sp.expand((deltas[layer + 1].T * B[:, j])[0, 0] * act))
        terms.append(row)
    return sp.expand(sum(sum(r) for r in terms)), terms


def epsilon_coefficients(expr: sp.Expr, wz: Sequence[sp.Symbol], top: int) -> list[sp.Expr]:
    r"""Coefficients of :math:`\epsilon^0..\epsilon^{top}` of ``expr`` with :math:`w_z\to\epsilon w_z`."""
    eps = sp.Symbol("epsilon")
    poly = sp.Poly(sp.expand(expr.subs({s: eps * s for s in wz}, simultaneous=True)), eps)
    return [sp.expand(poly.coeff_monomial(eps**k)) for k in range(top + 1)]


def euler_residual(f: sp.Expr, u: Sequence[sp.Symbol], degree: int) -> sp.Expr:
    r"""Lemma 14: :math:`u^\top\nabla f(u)-Lf(u)`, zero iff ``f`` is ``degree``-homogeneous in ``u``.

    For a polynomial, :math:`u^\top\nabla` multiplies each monomial by its total degree in ``u``,
    so the residual is :math:`\sum_m(\deg_u m-L)c_m m` (computed term by term, exactly).
    """
    poly = sp.Poly(sp.expand(f), *u)
    return sp.expand(
        sum(
            (sum(m) - degree) * c * sp.Mul(*(s**e for s, e in zip(u, m, strict=True)))
            for m, c in poly.terms()
        )
    )


def balance_rate(h: sp.Expr, a: Sequence[sp.Symbol], b: Sequence[sp.Symbol], p: int) -> sp.Expr:
    r""":math:`\tfrac{d}{dt}(\|a\|^2-p\|b\|^2)` along :math:`\dot u=\nabla h(u)`:
    :math:`2a^\top\nabla_ah-2p\,b^\top\nabla_bh`."""
    return sp.expand(2 * sum(s * sp.diff(h, s) for s in a) - 2 * p * sum(s * sp.diff(h, s) for s in b))
