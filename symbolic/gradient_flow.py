"""Exact gradient-flow vector fields ``tau dW/dt = -grad L`` (eqs. 2, 3, 6 and C.2).

The two-layer and deep fields are obtained by *differentiating the loss expression*
with SymPy rather than by transcribing (2)/(6), so they serve as the reference against
which both the paper's formulas and the numeric vector fields are checked.

Non-smoothness: at the given weights the sign of every pre-activation is decided
exactly (``symbolic.exact.sign_of``; exact rationals, or symbols with sign
assumptions).  On each sample ``sigma`` is then replaced by its local linear branch
``slope * z`` with slope 1 (``z > 0``), ``alpha`` (``z < 0``) or ``kink`` (``z = 0``).
This surrogate has the right value (``sigma(0) = 0``) and the right derivative, with the
convention ``sigma'(0) = kink``.  (For ``alpha = 1`` sigma is the identity: slope 1
everywhere, no sign decision, ``kink`` ignored.)  The loss built from the surrogate is
differentiated with respect to placeholder weight symbols, which are then replaced by
the actual weights.  In deep nets the signs of ``h_l``, ``l >= 2``, may involve
``alpha``; give ``alpha`` sign assumptions (or a number) if they must be decided.
"""

from __future__ import annotations

from typing import Any, Literal

import sympy as sp

from symbolic.activations import branch_slope
from symbolic.exact import MatrixLike, as_column, as_row, expand_matrix, sign_of, to_matrix

Loss = Literal["square", "logistic"]


def _placeholders(shape: tuple[int, int], tag: str) -> sp.Matrix:
    """Fresh dummy symbols standing for the entries of one weight matrix."""
    return sp.Matrix(*shape, lambda i, j: sp.Dummy(f"{tag}{i}{j}"))


def _forward(Ws: list[sp.Matrix], Vs: list[sp.Matrix], x: sp.Matrix, alpha: Any, kink: Any) -> Any:
    """Surrogate output ``V_L s(... s(V_1 x))`` with branches fixed by the actual ``Ws``.

    ``h_1 = W_1 x``, ``h_l = W_l sigma(h_{l-1})`` (eq. 5) is run on the actual weights to
    decide each unit's branch; the same branches are applied to the placeholders ``Vs``.
    """
    linear = sp.sympify(alpha) == 1  # sigma = identity: slope 1 everywhere, no kink
    h_true, h_sym = expand_matrix(Ws[0] * x), Vs[0] * x
    for W, V in zip(Ws[1:], Vs[1:], strict=True):
        slopes = [1 if linear else branch_slope(sign_of(v), alpha, kink) for v in h_true]
        act_true = sp.Matrix([s * v for s, v in zip(slopes, h_true, strict=True)])
        act_sym = sp.Matrix([s * v for s, v in zip(slopes, h_sym, strict=True)])
        h_true, h_sym = expand_matrix(W * act_true), V * act_sym
    return h_sym[0]


def _field(
    Ws: list[sp.Matrix],
    X: MatrixLike,
    y: MatrixLike,
    alpha: Any,
    loss: Loss,
    kink: Any,
    tau: Any,
) -> list[sp.Matrix]:
    """``-grad L / tau`` for the bias-free net with weights ``Ws`` (mean loss over P)."""
    Xm, ym = to_matrix(X), as_column(y)
    P = Xm.rows
    Vs = [_placeholders(W.shape, f"v{l}_") for l, W in enumerate(Ws)]
    flat = [v for V in Vs for v in V]
    outputs = [_forward(Ws, Vs, Xm[mu, :].T, alpha, kink) for mu in range(P)]
    if loss == "square":
        # L = sum_mu (y_mu - f_mu)^2 / (2P) is a polynomial in the placeholders; it is
        # differentiated in a sparse SymPy polynomial ring (same derivative as sp.diff,
        # without the assumption queries that make sp.diff slow here).
        ring, residuals = sp.sring([ym[mu] - f for mu, f in enumerate(outputs)], *flat)
        L = sum((res**2 for res in residuals), ring.zero)
        gens = dict(zip(flat, ring.gens, strict=True))

        def grad(v: sp.Symbol) -> Any:
            return L.diff(gens[v]).as_expr() / (2 * P)
    elif loss == "logistic":
        L = sum(sp.log(1 + sp.exp(-ym[mu] * f)) for mu, f in enumerate(outputs)) / P

        def grad(v: sp.Symbol) -> Any:
            return sp.diff(L, v)
    else:
        raise ValueError(f"unknown loss {loss!r}")
    values = dict(zip(flat, [w for W in Ws for w in W], strict=True))
    tidy = sp.expand if loss == "square" else (lambda e: e)
    return [V.applyfunc(lambda v: tidy(-grad(v).xreplace(values) / tau)) for V in Vs]


def two_layer_field(
    W1: MatrixLike,
    W2: MatrixLike,
    X: MatrixLike,
    y: MatrixLike,
    alpha: Any,
    loss: Loss = "square",
    kink: Any = 0,
    tau: Any = 1,
) -> tuple[sp.Matrix, sp.Matrix]:
    """Exact ``(dW1/dt, dW2/dt) = -grad L / tau`` for ``f = W2 sigma(W1 x)`` (eq. 1).

    Square loss ``L = <(y - f)^2>/2`` reproduces eq. (2); logistic loss
    ``L = <ln(1 + exp(-y f))>`` gives ``tau dW1/dt = <sigma'(W1 x) . W2^T y/(1+e^{y f}) x^T>``,
    ``tau dW2/dt = <y/(1+e^{y f}) sigma(W1 x)^T>`` (the corrected C.2 form).
    ``W1`` is ``H x D``, ``W2`` is ``1 x H``, ``X`` is ``P x D``; ``alpha`` may be a
    Symbol.  Square-loss entries are ``expand``-ed polynomials; logistic entries are
    left as differentiated (``exp`` atoms intact).
    """
    d1, d2 = _field([to_matrix(W1), as_row(W2)], X, y, alpha, loss, kink, tau)
    return d1, d2


def deep_field(
    Ws: list[MatrixLike],
    X: MatrixLike,
    y: MatrixLike,
    alpha: Any,
    kink: Any = 0,
    tau: Any = 1,
) -> list[sp.Matrix]:
    """Exact ``dW_l/dt`` for ``f = W_L sigma(... sigma(W_1 x))`` (eqs. 5-6), square loss."""
    mats = [to_matrix(W) for W in Ws[:-1]] + [as_row(Ws[-1])]
    return _field(mats, X, y, alpha, "square", kink, tau)


def linear_field(
    W1: MatrixLike, W2: MatrixLike, Sigma: MatrixLike, beta: MatrixLike, tau: Any = 1
) -> tuple[sp.Matrix, sp.Matrix]:
    """Linear network, eq. (3), ``beta`` a D-vector and ``Sigma`` D x D:

    ``tau dW1/dt = W2^T (beta^T - W2 W1 Sigma)``, ``tau dW2/dt = (beta^T - W2 W1 Sigma) W1^T``.
    """
    W1m, W2m, S, b = to_matrix(W1), as_row(W2), to_matrix(Sigma), as_column(beta)
    err = b.T - W2m * W1m * S
    return (W2m.T * err) / tau, (err * W1m.T) / tau
