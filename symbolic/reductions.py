"""Theorem 8 and relatives: exact reductions of the two-layer ReLU dynamics.

* (12a,b) reduced dynamics on the Assumption 7 manifold (square loss), (45) with L2;
* (40) weight/time rescaling to the linear network (3);
* (41) conservation of ``W1 W1^T - W2^T W2``;
* C.2 logistic-loss reduction (corrected form, see ``logistic_reduced_field``);
* Proposition 18 block reduction on orthonormal data (46)-(54).

Every ``*_difference`` / ``*_residual*`` returns SymPy matrices that are exactly zero
when the statement holds (check with ``symbolic.exact.all_zero``); negative controls
give nonzero ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import sympy as sp

from symbolic.activations import ALPHA
from symbolic.exact import (
    MatrixLike,
    as_column,
    as_row,
    exp_to_monomials,
    expand_matrix,
    moments,
    symbol_matrix,
    symmetric_symbol_matrix,
    symmetrise,
    to_matrix,
)
from symbolic.gradient_flow import linear_field, two_layer_field

R = sp.Rational
#: Exact Theorem 8 instance (D = 2, H = 3): balanced W2, unit r, three base points.
BALANCED_W2 = (3, 4, -5)
UNBALANCED_W2 = (1, 2, -1)
#: Balanced W2 of norm sqrt(2) for the logistic loss (keeps the exp arguments small).
BALANCED_W2_SMALL = (R(3, 5), R(4, 5), -1)
UNIT_R = (R(3, 5), R(4, 5))
BASE_X = ((1, R(1, 2)), (-1, 2), (1, R(-1, 4)))  # r^T x = 1, 1, 2/5 (none orthogonal to r)
BASE_Y = (1, R(-1, 2), 2)
BASE_Y_BINARY = (1, -1, 1)


def reduced_field(
    W1: MatrixLike,
    W2: MatrixLike,
    Sigma: MatrixLike,
    beta: MatrixLike,
    alpha: Any,
    tau: Any = 1,
    lam: Any = 0,
) -> tuple[sp.Matrix, sp.Matrix]:
    """(12a,b) -- and (45a,b) when ``lam != 0`` -- with ``c = (alpha+1)/2``:

    ``tau dW1 = c W2^T beta^T - c^2 W2^T W2 W1 Sigma - c lam W1``,
    ``tau dW2 = c beta^T W1^T - c^2 W2 W1 Sigma W1^T - c lam W2``.
    """
    W1m, W2m, S, b = to_matrix(W1), as_row(W2), to_matrix(Sigma), as_column(beta)
    c = (sp.sympify(alpha) + 1) / 2
    d1 = c * W2m.T * b.T - c**2 * W2m.T * W2m * W1m * S - c * lam * W1m
    d2 = c * b.T * W1m.T - c**2 * W2m * W1m * S * W1m.T - c * lam * W2m
    return d1 / tau, d2 / tau


def manifold_weights(W2: MatrixLike, r: MatrixLike) -> tuple[sp.Matrix, sp.Matrix]:
    """Assumption 7 form ``W1 = W2^T r^T`` (``H x D``), ``W2`` as a ``1 x H`` row."""
    W2m = as_row(W2)
    return W2m.T * as_column(r).T, W2m


def _dataset(X0: MatrixLike, y0: MatrixLike, symmetric: bool) -> tuple[sp.Matrix, sp.Matrix]:
    """``[X0; -X0]`` with odd labels; ``symmetric=False`` drops the last mirrored point."""
    X, y = symmetrise(X0, y0)
    if symmetric:
        return X, y
    return X[:-1, :], y[:-1, :]


def reduced_dynamics_difference(
    W2: MatrixLike = BALANCED_W2,
    r: MatrixLike = UNIT_R,
    X0: MatrixLike = BASE_X,
    y0: MatrixLike = BASE_Y,
    symmetric: bool = True,
    alpha: Any = ALPHA,
) -> tuple[sp.Matrix, sp.Matrix]:
    """Theorem 8, square loss: exact RHS of (2) minus (12) at ``W1 = W2^T r^T``.

    Default: ``W2 = (3, 4, -5)`` (``||W2^+||^2 = ||W2^-||^2 = 25``), ``r = (3/5, 4/5)``,
    data ``+-x_k`` with odd labels, ``alpha`` a free symbol.  The expanded difference
    is the zero polynomial in ``alpha``.  Controls: ``W2 = (1, 2, -1)`` (unbalanced) or
    ``symmetric=False`` give nonzero differences (vanishing only at ``alpha = 1``).
    """
    W1, W2m = manifold_weights(W2, r)
    X, y = _dataset(X0, y0, symmetric)
    exact = two_layer_field(W1, W2m, X, y, alpha)
    Sigma, beta = moments(X, y)
    reduced = reduced_field(W1, W2m, Sigma, beta, alpha)
    return tuple(expand_matrix(e - d) for e, d in zip(exact, reduced, strict=True))


def logistic_reduced_field(
    W1: MatrixLike, W2: MatrixLike, X: MatrixLike, y: MatrixLike, alpha: Any, tau: Any = 1
) -> tuple[sp.Matrix, sp.Matrix]:
    """Reduced logistic dynamics on the Assumption 7 manifold (C.2, corrected).

    With ``c = (alpha+1)/2``, ``f = c W2 W1 x`` (36) and ``G = <y x^T / (1 + e^{y f})>``:
    ``tau dW1 = c W2^T G``, ``tau dW2 = c G W1^T``.  The paper's (42)-(44) print
    ``W2^T W2 W1 x x^T`` / ``W2 sigma sigma^T`` numerators where ``y x^T`` / ``y sigma^T``
    belong (catalog P3); the form here is what differentiating the correct loss
    ``<ln(1 + e^{-y f})>`` gives, and (40) maps it to the linear logistic dynamics.
    """
    W1m, W2m, Xm, ym = to_matrix(W1), as_row(W2), to_matrix(X), as_column(y)
    c = (sp.sympify(alpha) + 1) / 2
    G = sp.zeros(1, Xm.cols)
    for mu in range(Xm.rows):
        x = Xm[mu, :]
        f = c * (W2m * W1m * x.T)[0]
        G += ym[mu] / (1 + sp.exp(ym[mu] * f)) * x
    G /= Xm.rows
    return c * W2m.T * G / tau, c * G * W1m.T / tau


def logistic_reduced_difference(
    W2: MatrixLike = BALANCED_W2_SMALL,
    r: MatrixLike = UNIT_R,
    X0: MatrixLike = BASE_X,
    y0: MatrixLike = BASE_Y_BINARY,
    symmetric: bool = True,
    alpha: Any = ALPHA,
) -> tuple[sp.Matrix, sp.Matrix]:
    """Theorem 8, logistic loss: exact gradient flow minus ``logistic_reduced_field``.

    ``alpha``: the free symbol ``ALPHA`` (default) or a rational value.  The ``exp``
    atoms are turned into monomials (``exp_to_monomials``) and each entry is
    ``cancel``-ed, giving exactly 0 on the balanced manifold with symmetric data.
    Controls as in ``reduced_dynamics_difference`` (nonzero); pass a rational
    ``alpha`` (e.g. 0) there to keep them fast.
    """
    W1, W2m = manifold_weights(W2, r)
    X, y = _dataset(X0, y0, symmetric)
    exact = two_layer_field(W1, W2m, X, y, alpha, loss="logistic")
    reduced = logistic_reduced_field(W1, W2m, X, y, alpha)
    return tuple(
        (e - d).applyfunc(lambda v: sp.cancel(exp_to_monomials(v, ALPHA)))
        for e, d in zip(exact, reduced, strict=True)
    )


def logistic_printed_sign_mismatch() -> dict[str, sp.Expr]:
    """The main text's ``ln(1 + e^{y f})`` has the wrong sign (catalog P3).

    ``"printed_force"`` ``= -d/df ln(1 + e^{y f})``, ``"correct_force"``
    ``= -d/df ln(1 + e^{-y f}) = y/(1 + e^{y f})``, ``"ratio"`` = printed/correct
    ``= -e^{y f}``, negative for all real ``y, f``: gradient flow on the printed loss
    pushes ``f`` away from the label.
    """
    y, f = sp.symbols("y f", real=True)
    printed = -sp.diff(sp.log(1 + sp.exp(y * f)), f)
    correct = -sp.diff(sp.log(1 + sp.exp(-y * f)), f)
    return {
        "printed_force": printed,
        "correct_force": sp.simplify(correct),
        "ratio": sp.simplify(printed / correct),
    }


def _generic_problem(H: int = 2, D: int = 2) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    """Symbolic ``W1`` (H x D), ``W2`` (1 x H), symmetric ``Sigma`` and ``beta``."""
    W1 = symbol_matrix("w1", H, D, real=True)
    W2 = symbol_matrix("w2", 1, H, real=True)
    return W1, W2, symmetric_symbol_matrix("S", D), symbol_matrix("b", D, 1, real=True)


def scaling_difference(regularised: bool = False) -> tuple[sp.Matrix, sp.Matrix]:
    """(40): ``W = sqrt(2/(alpha+1)) A`` with ``A`` following the linear dynamics (3)
    slowed by ``(alpha+1)/2`` reproduces (12) (or (45) when ``regularised``).

    ``A1`` (2 x 2), ``A2`` (1 x 2), ``Sigma``, ``beta``, ``tau``, ``lambda`` symbolic;
    ``dW/dt = sqrt(2/(alpha+1)) (alpha+1)/2 dA/dt`` with ``tau dA/dt`` from (3)
    ``- lambda A``.  To keep the algebra rational, ``alpha = 2 c^2 - 1`` with ``c > 0``
    (so ``sqrt(2/(alpha+1)) = 1/c``; this covers every ``alpha > -1``).  Returns the
    entrywise differences, exactly 0.
    """
    c = sp.Symbol("c", positive=True)
    tau, lam = sp.Symbol("tau", positive=True), sp.Symbol("lambda", positive=True)
    alpha = 2 * c**2 - 1
    A1, A2, Sigma, beta = _generic_problem()
    lam_eff = lam if regularised else 0
    dA = [
        d - lam_eff * A / tau for d, A in zip(linear_field(A1, A2, Sigma, beta, tau), (A1, A2), strict=True)
    ]
    scale = sp.sqrt(2 / (alpha + 1))
    dW = [scale * (alpha + 1) / 2 * d for d in dA]
    reduced = reduced_field(scale * A1, scale * A2, Sigma, beta, alpha, tau, lam_eff)
    return tuple((a - b).applyfunc(sp.cancel) for a, b in zip(dW, reduced, strict=True))


Kind = Literal["reduced", "linear", "regularised"]


def balancedness_derivative(kind: Kind) -> dict[str, sp.Matrix]:
    """(41): ``d/dt (W1 W1^T - W2^T W2)`` along (12), (3) or (45), symbolic ``W``.

    Returns ``"derivative"``, ``"predicted"`` (0 for ``reduced``/``linear``,
    ``-(alpha+1) lambda / tau (W1 W1^T - W2^T W2)`` for ``regularised``) and
    ``"residual"`` = derivative - predicted, exactly 0 in all three cases.
    (45)'s extra ``-(alpha+1)/2 lambda W`` term contributes ``2 x (-(alpha+1)/2 lambda)``
    because ``B`` is quadratic in ``W``, hence the factor ``(alpha+1)``, not ``(alpha+1)/2``.
    """
    tau, lam = sp.Symbol("tau", positive=True), sp.Symbol("lambda", positive=True)
    W1, W2, Sigma, beta = _generic_problem()
    if kind == "linear":
        d1, d2 = linear_field(W1, W2, Sigma, beta, tau)
    elif kind in ("reduced", "regularised"):
        d1, d2 = reduced_field(W1, W2, Sigma, beta, ALPHA, tau, lam if kind == "regularised" else 0)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    B = W1 * W1.T - W2.T * W2
    derivative = expand_matrix(d1 * W1.T + W1 * d1.T - d2.T * W2 - W2.T * d2)
    predicted = -(ALPHA + 1) * lam / tau * B if kind == "regularised" else sp.zeros(*B.shape)
    return {
        "derivative": derivative,
        "predicted": predicted,
        "residual": expand_matrix(derivative - predicted),
    }


def regulariser_factor_residual() -> dict[str, sp.Matrix]:
    """Catalog P9: which penalty produces the ``-(alpha+1)/2 lambda W`` term of (45)?

    For symbolic ``W1`` (2 x 2), ``W2`` (1 x 2), compares ``-grad(penalty)`` with
    ``-(alpha+1)/2 lambda W`` (all weights stacked in one column):

    * ``"printed"``: C.4's ``(alpha+1)/2 lambda ||W||^2`` -- residual
      ``-(alpha+1)/2 lambda W`` (nonzero: twice the intended decay);
    * ``"corrected"``: ``lambda_alpha/2 ||W||^2``, ``lambda_alpha = (alpha+1)/2 lambda``
      -- residual 0.
    """
    lam = sp.Symbol("lambda", positive=True)
    W1, W2, _, _ = _generic_problem()
    weights = list(W1) + list(W2)
    sq_norm = sum(w**2 for w in weights)
    target = sp.Matrix([-(ALPHA + 1) / 2 * lam * w for w in weights])
    lam_alpha = (ALPHA + 1) / 2 * lam
    penalties = {"printed": (ALPHA + 1) / 2 * lam * sq_norm, "corrected": lam_alpha / 2 * sq_norm}
    return {
        name: expand_matrix(sp.Matrix([-sp.diff(pen, w) for w in weights]) - target)
        for name, pen in penalties.items()
    }


# ------------------------------------------------------------------ Proposition 18


def prop18_block_reduction(
    labels: Sequence[Any] = (1, 2, -1, -2),
    r_A: Sequence[Any] = (R(3, 5), R(4, 5)),
    r_B: Sequence[Any] = (R(5, 13), R(12, 13)),
    alpha: Any = 0,
    kink: Any = 0,
) -> dict[str, tuple[sp.Matrix, sp.Matrix]]:
    """Proposition 18 on ``x_mu = e_mu`` (``D = P = len(labels)``), weights (46).

    ``W1 = [u_A r_A bbar_A^T; u_B r_B bbar_B^T]``, ``W2 = [u_A r_A^T, -u_B r_B^T]``
    with positive symbols ``u_A, u_B`` and fixed nonnegative unit ``r_A, r_B``;
    ``bbar_C`` from (47), ``beta_C, Sigma_C`` from (49) (normalised by the total P).
    The exact field (``two_layer_field``, ``sigma'(0) = kink``) is compared with

    * ``"eq48"``: the block-linear dynamics (48) (zero off-diagonal coupling);
    * ``"eq52_54"``: ``d/dt`` of (46) with ``tau du_C/dt = u_C(||beta_C|| - u_C^2/P)``.

    Both residual pairs are 0 for ``kink = 0``.  Derived finding: on the manifold every
    pre-activation is ``> 0`` or exactly ``0`` (cross-group), so the field does not
    depend on ``alpha`` at all -- (46) is invariant for leaky ReLU too; what breaks it
    is ``sigma'(0) != 0`` (e.g. ``kink = 1``, or PyTorch's ``kink = alpha``), which makes
    the residuals nonzero.
    """
    y = as_column(labels)
    P = y.rows
    X = sp.eye(P)
    u_A, u_B = sp.Symbol("u_A", positive=True), sp.Symbol("u_B", positive=True)
    groups = {"A": [m for m in range(P) if y[m] > 0], "B": [m for m in range(P) if y[m] < 0]}
    beta, Sigma, bbar = {}, {}, {}
    for C, idx in groups.items():
        s = sum((y[m] * X[m, :].T for m in idx), sp.zeros(P, 1))
        beta[C], Sigma[C] = s / P, sum((X[m, :].T * X[m, :] for m in idx), sp.zeros(P, P)) / P
        bbar[C] = (1 if C == "A" else -1) * s / s.norm()
    rA, rB = as_column(r_A), as_column(r_B)
    W1A, W1B = u_A * rA * bbar["A"].T, u_B * rB * bbar["B"].T
    W2A, W2B = u_A * rA.T, -u_B * rB.T
    exact = two_layer_field(W1A.col_join(W1B), W2A.row_join(W2B), X, y, alpha, kink=kink)

    def block48(W1C: sp.Matrix, W2C: sp.Matrix, C: str) -> tuple[sp.Matrix, sp.Matrix]:
        return linear_field(W1C, W2C, Sigma[C], beta[C])

    (a1, a2), (b1, b2) = block48(W1A, W2A, "A"), block48(W1B, W2B, "B")
    du = {C: u * (beta[C].norm() - u**2 / P) for C, u in (("A", u_A), ("B", u_B))}
    dW1_52 = (du["A"] * rA * bbar["A"].T).col_join(du["B"] * rB * bbar["B"].T)
    dW2_52 = (du["A"] * rA.T).row_join(-du["B"] * rB.T)

    def residual(pair: tuple[sp.Matrix, sp.Matrix]) -> tuple[sp.Matrix, sp.Matrix]:
        return tuple(expand_matrix(e - p) for e, p in zip(exact, pair, strict=True))

    return {
        "eq48": residual((a1.col_join(b1), a2.row_join(b2))),
        "eq52_54": residual((dW1_52, dW2_52)),
    }
