"""Proposition 12: deep bias-free ReLU nets on the rank-one/rank-two manifold (18).

Exact instance: ``L = 3``, ``n = 4`` units per hidden layer, ``D = 2``, symbolic
``u > 0``; the unit vectors are rational with balanced halves
``||r_l^+||^2 = ||r_l^-||^2 = 1/2``.  Block structure of (18b) without permuting units:
``(W_l)_{ij} = sqrt2 u r_l[i] r_{l-1}[j]`` when ``r_l[i]`` and ``r_{l-1}[j]`` have the
same sign, else 0.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import sympy as sp

from symbolic.activations import leaky_relu
from symbolic.exact import MatrixLike, as_column, expand_matrix, moments, symmetrise, to_matrix
from symbolic.gradient_flow import deep_field

R = sp.Rational
U = sp.Symbol("u", positive=True)
#: Input direction r and hidden directions r_1, r_2 (unit, balanced +/- halves).
R_IN = (R(3, 5), R(4, 5))
R_HIDDEN = ((R(1, 10), R(7, 10), R(-1, 2), R(-1, 2)), (R(1, 2), R(1, 2), R(-7, 10), R(-1, 10)))
#: Symmetric data (base points, r^T x = 1 and 2/5, never 0) with linear target w*.
BASE_X = ((1, R(1, 2)), (1, R(-1, 4)))
W_STAR = (2, -1)


def same_sign_mask(r_out: Sequence[Any], r_in: Sequence[Any]) -> sp.Matrix:
    """0/1 mask of the diagonal blocks of (18b): 1 where ``r_out[i]``, ``r_in[j]`` share a sign."""
    return sp.Matrix(len(r_out), len(r_in), lambda i, j: int(sp.sign(r_out[i]) == sp.sign(r_in[j])))


def manifold_weights(
    u: Any = U, r: Sequence[Any] = R_IN, hidden: Sequence[Sequence[Any]] = R_HIDDEN
) -> list[sp.Matrix]:
    """Eq. (18) for ``L = len(hidden) + 1``: ``W_1 = u r_1 r^T``,
    ``W_l = u sqrt2 mask * (r_l r_{l-1}^T)`` (18b), ``W_L = u r_{L-1}^T``."""
    rs = [as_column(h) for h in hidden]
    Ws = [u * rs[0] * as_column(r).T]
    for prev, cur in itertools.pairwise(rs):
        block = (cur * prev.T).multiply_elementwise(same_sign_mask(list(cur), list(prev)))
        Ws.append(u * sp.sqrt(2) * block)
    Ws.append(u * rs[-1].T)
    return Ws


def forward(Ws: Sequence[MatrixLike], x: MatrixLike, alpha: Any = 0) -> sp.Expr:
    """``f = W_L sigma(... sigma(W_1 x))`` (eq. 5) with the Piecewise ``leaky_relu``.

    Pre-activations are expanded first so that SymPy can decide their signs from the
    symbols' assumptions (then no Piecewise survives).
    """
    h = expand_matrix(to_matrix(Ws[0]) * as_column(x))
    for W in Ws[1:]:
        h = expand_matrix(to_matrix(W) * h.applyfunc(lambda z: leaky_relu(z, alpha)))
    return h[0]


def prop12_output_residuals() -> dict[str, sp.Expr]:
    """(19) on ``x = kappa r + m r_perp``, ``kappa`` positive or negative symbol:

    ``"f-(u/sqrt2)^L kappa[kappa>0|kappa<0]"`` and ``"f-W_L..W_1x/2[...]"``; all 0, and
    ``"undecided"`` counts Piecewise objects left in ``f`` (0: every ReLU branch fixed).
    """
    Ws = manifold_weights()
    L = len(Ws)
    r = as_column(R_IN)
    r_perp = sp.Matrix([-r[1], r[0]])
    m = sp.Symbol("m", real=True)
    product = sp.eye(r.rows)
    for W in Ws:
        product = W * product
    out: dict[str, sp.Expr] = {}
    for case, kappa in (
        ("kappa>0", sp.Symbol("kappa", positive=True)),
        ("kappa<0", sp.Symbol("kappa", negative=True)),
    ):
        x = kappa * r + m * r_perp
        f = forward(Ws, x)
        out[f"f-(u/sqrt2)^L kappa[{case}]"] = sp.simplify(f - (U / sp.sqrt(2)) ** L * kappa)
        out[f"f-W_L..W_1x/2[{case}]"] = sp.simplify(f - (product * x)[0] / 2)
        out[f"undecided[{case}]"] = sp.Integer(len(f.atoms(sp.Piecewise)))
    return out


def _data() -> tuple[sp.Matrix, sp.Matrix]:
    """Symmetric data ``+-x_k`` with the linear (odd) target ``y = w*^T x``."""
    X0 = to_matrix(BASE_X)
    return symmetrise(X0, X0 * as_column(W_STAR))


def appendix_e_field(Ws: Sequence[sp.Matrix], Sigma: sp.Matrix, beta: sp.Matrix) -> list[sp.Matrix]:
    """(55)-(57) with ``k = u^{L-1}/sqrt2^L`` and ``e = beta^T - (u/sqrt2)^L r^T Sigma``:

    ``tau dW_1 = k r_1 e``, ``tau dW_l = k (W_l/u) (e r)``, ``tau dW_L = k (e r) r_{L-1}^T``
    (``tau = 1``; ``W_l/u`` is the block matrix of (56)).
    """
    L = len(Ws)
    r, r1, rlast = as_column(R_IN), as_column(R_HIDDEN[0]), as_column(R_HIDDEN[-1])
    k = U ** (L - 1) / sp.sqrt(2) ** L
    e = beta.T - (U / sp.sqrt(2)) ** L * r.T * Sigma
    er = (e * r)[0]
    middle = [k * er * (W / U) for W in Ws[1:-1]]
    return [k * r1 * e, *middle, k * er * rlast.T]


def prop12_gradient_residuals(kink: Any = 0) -> dict[str, Any]:
    """Exact ``deep_field`` (ReLU, ``sigma'(0) = kink``, tau = 1) on (18) vs (55)-(57).

    ``"residuals"``: per-layer differences, all exactly 0 for ``kink = 0``.
    ``"offdiag"``: gradient entries of the intermediate layers outside the (18b)
    blocks -- 0 for ``kink = 0``; nonzero for ``kink = 1`` (the structure is then not
    invariant: units of the opposite half sit exactly at ``h_l = 0`` for every sample).
    """
    Ws = manifold_weights()
    X, y = _data()
    Sigma, beta = moments(X, y)
    exact = deep_field(Ws, X, y, alpha=0, kink=kink)
    predicted = appendix_e_field(Ws, Sigma, beta)
    rs = [list(as_column(h)) for h in R_HIDDEN]
    offdiag = [
        expand_matrix(d.multiply_elementwise(sp.ones(*d.shape) - same_sign_mask(cur, prev)))
        for d, (prev, cur) in zip(exact[1:-1], itertools.pairwise(rs), strict=True)
    ]
    return {
        "residuals": [expand_matrix(e - p) for e, p in zip(exact, predicted, strict=True)],
        "offdiag": offdiag,
    }


def eq20_residuals() -> list[sp.Matrix]:
    """Printed matrix ODE (20) minus the exact gradient (kink 0), per layer.

    (20): ``tau dW_l = (W_L..W_{l+1})^T (beta^T/2 - W_L..W_1 Sigma/4) (W_{l-1}..W_1)^T``.
    Derived finding: layers 1 and L agree exactly, but for intermediate layers (20) is
    the full outer product ``r_l r_{l-1}^T`` -- it misses the block mask of (56), so the
    residual is nonzero exactly on the off-diagonal blocks.  (55)-(57) are right; the
    claim that they "can be rewritten as (20)" holds only for the first and last layer.
    """
    Ws = manifold_weights()
    X, y = _data()
    Sigma, beta = moments(X, y)
    exact = deep_field(Ws, X, y, alpha=0, kink=0)
    D = Ws[0].cols

    def prod(mats: Sequence[sp.Matrix], n: int) -> sp.Matrix:
        out = sp.eye(n)
        for W in mats:
            out = W * out
        return out

    full = prod(Ws, D)
    out = []
    for l, W in enumerate(Ws):
        after = prod(Ws[l + 1 :], W.rows)
        before = prod(Ws[:l], D)
        eq20 = after.T * (beta.T / 2 - full * Sigma / 4) * before.T
        out.append(expand_matrix(eq20 - exact[l]))
    return out
