"""Closed-form solutions: Corollary 9 (15), early phase (29)-(30), Proposition 18's
Bernoulli ODE (52)/(54), and the deep reduced equivalence of Proposition 12.

Symbolic checks return residuals that are exactly 0 (or, for the 50-digit evaluation
of (15), a tiny ``mpmath.mpf``); ``*_callable`` functions return plain NumPy/CuPy
callables built with ``symbolic.to_numeric``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import mpmath
import sympy as sp

from symbolic.exact import (
    MatrixLike,
    as_column,
    as_row,
    symbol_matrix,
    symmetric_symbol_matrix,
    to_matrix,
)
from symbolic.to_numeric import Module, array_module, lambdify_numeric

# ----------------------------------------------------------------- Corollary 9, (15)

_T, _S, _W0 = sp.symbols("t_tilde s w_init", positive=True)
_C = sp.Symbol("c", real=True)  # r^T bbar, in (-1, 1]


def corollary9_coefficients(t: Any, s: Any, c: Any, w_init: Any) -> tuple[sp.Expr, sp.Expr]:
    """Scalar coefficients of (15): ``w(t~) = A bbar + B (I - bbar bbar^T) r``.

    ``s = ||beta||``, ``c = r^T bbar``, ``q1 = 1 - c``, ``q2 = 1 + c``, ``E = e^{-2 s t~}``:
    ``A = (1 + q1/q2 E)(1 - q1/q2 E) / den``, ``B = (1 + q1/q2 E)(2/q2) e^{-s t~} / den``,
    ``den = 4/q2^2 (w_init^-2 + (1 - c^2) t~) E + (1/s)(1 + q1^2/q2^2 E)(1 - E)``.
    ``t~ = (alpha+1) t / (2 tau)``.  For the ReLU net, ``w_init`` must be the linear
    partner's scale ``sqrt((alpha+1)/2) ||W1(0)||`` (catalog P4; our derivation agrees:
    ``f(x; W(0)) = (alpha+1)/2 ||W1(0)||^2 r^T x`` while (15) starts at ``w_init^2 r``).
    """
    q1, q2 = 1 - c, 1 + c
    E = sp.exp(-2 * s * t)
    den = 4 / q2**2 * (w_init**-2 + (1 - c**2) * t) * E + (1 + q1**2 / q2**2 * E) * (1 - E) / s
    front = 1 + q1 / q2 * E
    return front * (1 - q1 / q2 * E) / den, front * 2 / q2 * sp.exp(-s * t) / den


def corollary9_w(t_tilde: Any, beta: MatrixLike, r: MatrixLike, w_init: Any) -> sp.Matrix:
    """Eq. (15) as a SymPy column vector for any dimension ``D``."""
    b, rv = as_column(beta), as_column(r)
    s = sp.sqrt((b.T * b)[0])
    bbar = b / s
    c = (rv.T * bbar)[0]
    A, B = corollary9_coefficients(sp.sympify(t_tilde), s, c, sp.sympify(w_init))
    return A * bbar + B * (rv - c * bbar)


def corollary9_limits() -> dict[str, sp.Expr]:
    """Exact limits of (15) in the coefficient form (valid for every ``D``):

    ``w(0) = w_init^2 r``  <=>  ``A(0) - w_init^2 c = 0`` and ``B(0) - w_init^2 = 0``;
    ``w(oo) = beta``       <=>  ``A(oo) - s = 0`` and ``B(oo) = 0``
    (``c`` is a free real symbol here).  All four entries are 0.
    """
    A, B = corollary9_coefficients(_T, _S, _C, _W0)
    return {
        "A(0) - w_init^2 c": sp.simplify(A.subs(_T, 0) - _W0**2 * _C),
        "B(0) - w_init^2": sp.simplify(B.subs(_T, 0) - _W0**2),
        "A(oo) - s": sp.simplify(sp.limit(A, _T, sp.oo) - _S),
        "B(oo)": sp.simplify(sp.limit(B, _T, sp.oo)),
    }


@functools.cache
def _corollary9_ode_residual_function() -> Callable[..., Any]:
    """mpmath function ``(t~, s, theta, w_init) -> residual vector`` for D = 2.

    ``beta = (s, 0)``, ``r = (cos theta, sin theta)``; residual of the balanced
    rank-one linear ODE ``dw/dt~ = ||w|| (beta - w) + w w^T (beta - w) / ||w||``.
    """
    theta = sp.Symbol("theta", real=True)
    beta = sp.Matrix([_S, 0])
    w = corollary9_w(_T, beta, [sp.cos(theta), sp.sin(theta)], _W0)
    norm = sp.sqrt((w.T * w)[0])
    rhs = norm * (beta - w) + w * (w.T * (beta - w))[0] / norm
    return sp.lambdify([_T, _S, theta, _W0], list(w.diff(_T) - rhs), modules="mpmath")


def corollary9_ode_residual(dps: int = 50, n_points: int = 8, seed: int = 0) -> mpmath.mpf:
    """Max |residual| of (15) in the ODE ``dw/dt~ = ||w||(beta-w) + w w^T(beta-w)/||w||``.

    Evaluated at ``dps`` significant digits on ``n_points`` random rational points
    ``s`` in [1/2, 3], ``theta`` in [0, 3) (so ``q2 > 0``), ``w_init`` in [1/100, 1],
    ``t~`` in [0, 8] (D = 2, ``beta = (s, 0)``, ``r = (cos theta, sin theta)``).
    At 50 digits the result is below ``1e-40``.
    """
    rng = random.Random(seed)
    fn = _corollary9_ode_residual_function()

    def rational(lo: int, hi: int, den: int) -> mpmath.mpf:
        return mpmath.mpf(rng.randint(lo, hi)) / den

    worst = mpmath.mpf(0)
    with mpmath.workdps(dps):
        for _ in range(n_points):
            point = (
                rational(0, 800, 100),
                rational(50, 300, 100),
                rational(0, 300, 100),
                rational(1, 100, 100),
            )
            worst = max([worst, *(abs(v) for v in fn(*point))])
    return worst


def corollary9_callable(module: Module = "numpy") -> Callable[..., Any]:
    """Numeric (15): ``w(t_tilde, beta, r, w_init) -> array (T, D)`` for any ``D``.

    ``t_tilde`` is a 1-D array, ``beta`` and ``r`` D-vectors (``r`` unit, ``r^T beta``
    not ``-||beta||``).  The scalar coefficients are lambdified; the vector assembly
    ``A bbar + B (r - c bbar)`` is done with the chosen array module.
    """
    xp = array_module(module)
    coeff = lambdify_numeric([_T, _S, _C, _W0], list(corollary9_coefficients(_T, _S, _C, _W0)), module)

    def w_of_t(t_tilde: Any, beta: Any, r: Any, w_init: float) -> Any:
        t = xp.asarray(t_tilde, dtype=float).reshape(-1)
        b, rv = xp.asarray(beta, dtype=float), xp.asarray(r, dtype=float)
        s = xp.linalg.norm(b)
        bbar = b / s
        c = rv @ bbar
        A, B = coeff(t, s, c, w_init)
        return A[:, None] * bbar[None, :] + B[:, None] * (rv - c * bbar)[None, :]

    return w_of_t


# ------------------------------------------------------------- early phase (29)-(30)


def early_phase_solution(
    t: Any, beta: MatrixLike, W1_0: MatrixLike, W2_0: MatrixLike, alpha: Any, tau: Any
) -> sp.Matrix:
    """Eq. (30): ``W~(t)`` (``(D+1) x H``) solving (29) ``tau dW~/dt = (alpha+1)/2 M W~``.

    ``W~ = [W1^T; W2]``, ``M = [[0, beta], [beta^T, 0]]``, ``g = (alpha+1) s t / (2 tau)``:
    ``W~ = e^g/2 [bbar; 1](bbar^T W1(0)^T + W2(0)) + e^-g/2 [bbar; -1](bbar^T W1(0)^T - W2(0))
    + [(I - bbar bbar^T) W1(0)^T; 0]``.
    """
    b, W1, W2 = as_column(beta), to_matrix(W1_0), as_row(W2_0)
    s = sp.sqrt((b.T * b)[0])
    bbar = b / s
    g = (alpha + 1) * s * t / (2 * tau)
    proj = bbar.T * W1.T
    grow = sp.exp(g) / 2 * bbar.col_join(sp.Matrix([[1]])) * (proj + W2)
    decay = sp.exp(-g) / 2 * bbar.col_join(sp.Matrix([[-1]])) * (proj - W2)
    rest = ((sp.eye(b.rows) - bbar * bbar.T) * W1.T).col_join(sp.zeros(1, W1.rows))
    return grow + decay + rest


def _block_M(beta: sp.Matrix) -> sp.Matrix:
    """``M = [[0, beta], [beta^T, 0]]``, ``(D+1) x (D+1)`` (eq. 29)."""
    D = beta.rows
    return sp.zeros(D, D).row_join(beta).col_join(beta.T.row_join(sp.zeros(1, 1)))


def early_phase_residual() -> dict[str, sp.Matrix]:
    """Substitute (30) into (29) for D = 2, H = 2 with symbolic ``beta``, ``W(0)``,
    ``alpha``, ``tau``: ``"ode"`` = ``tau dW~/dt - (alpha+1)/2 M W~`` and
    ``"initial"`` = ``W~(0) - [W1(0)^T; W2(0)]``; both exactly 0."""
    t, tau = sp.Symbol("t", nonnegative=True), sp.Symbol("tau", positive=True)
    alpha = sp.Symbol("alpha", nonnegative=True)
    beta = symbol_matrix("b", 2, 1, positive=True)
    W1, W2 = symbol_matrix("w1", 2, 2, real=True), symbol_matrix("w2", 1, 2, real=True)
    Wt = early_phase_solution(t, beta, W1, W2, alpha, tau)
    ode = tau * Wt.diff(t) - (alpha + 1) / 2 * _block_M(beta) * Wt
    # e^{+-g} -> G^{+-1}: the residual becomes a rational function of G, b, W(0), alpha.
    G = sp.Symbol("G", positive=True)
    g = (alpha + 1) * sp.sqrt((beta.T * beta)[0]) * t / (2 * tau)

    def tidy(e: sp.Expr) -> sp.Expr:
        e = sp.expand(sp.powsimp(sp.expand(e), combine="exp"))
        return sp.cancel(e.subs({sp.exp(g): G, sp.exp(-g): 1 / G}))

    return {
        "ode": ode.applyfunc(tidy),
        "initial": (Wt.subs(t, 0) - W1.T.col_join(W2)).applyfunc(sp.expand),
    }


def M_eigenstructure(D: int = 2) -> dict[str, Any]:
    """Eigen-structure of ``M`` (eq. 29) for symbolic ``beta`` in dimension ``D``.

    Residuals (all exactly 0): ``"plus"``/``"minus"``: ``M v -+ s v`` with
    ``v = [bbar; +-1]/sqrt2``; ``"unit"``: ``||v+||^2 - 1``, ``||v-||^2 - 1``; ``"null"``:
    ``M [v; 0]`` for the ``D - 1`` vectors ``v = b_1 e_k - b_k e_1`` (``k >= 2``,
    orthogonal to ``beta``), whose ``"null_rank"`` is ``D - 1``; ``"charpoly"``:
    ``det(lambda I - M) - lambda^(D-1) (lambda^2 - s^2)``.
    """
    beta = symbol_matrix("b", D, 1, positive=True)
    s = sp.sqrt((beta.T * beta)[0])
    M = _block_M(beta)
    lam = sp.Symbol("lambda")
    v_plus = (beta / s).col_join(sp.Matrix([[1]])) / sp.sqrt(2)
    v_minus = (beta / s).col_join(sp.Matrix([[-1]])) / sp.sqrt(2)
    kernel = _null_vectors(beta)
    return {
        "plus": (M * v_plus - s * v_plus).applyfunc(sp.simplify),
        "minus": (M * v_minus + s * v_minus).applyfunc(sp.simplify),
        "unit": [sp.simplify((v.T * v)[0] - 1) for v in (v_plus, v_minus)],
        "null": [sp.expand(M * v) for v in kernel],
        "null_rank": sp.Matrix.hstack(*kernel).rank(),
        "charpoly": sp.expand((lam * sp.eye(D + 1) - M).det() - lam ** (D - 1) * (lam**2 - s**2)),
    }


def _null_vectors(beta: sp.Matrix) -> list[sp.Matrix]:
    """``[b_1 e_k - b_k e_1; 0]`` for ``k = 2..D``: a basis of ``ker M``."""
    D = beta.rows
    out = []
    for k in range(1, D):
        v = sp.zeros(D + 1, 1)
        v[0], v[k] = -beta[k], beta[0]
        out.append(v)
    return out


def early_phase_callable(module: Module = "numpy") -> Callable[..., Any]:
    """Numeric (30): ``(t, beta, W1_0, W2_0, alpha, tau) -> array (T, D+1, H)``.

    The growth factors ``e^{+-(alpha+1) s t / (2 tau)}`` are lambdified; the rank-one
    assembly uses the chosen array module.
    """
    xp = array_module(module)
    t, s, a, tau = sp.symbols("t s alpha tau")
    g = (a + 1) * s * t / (2 * tau)
    factors = lambdify_numeric([t, s, a, tau], [sp.exp(g) / 2, sp.exp(-g) / 2], module)

    def W_of_t(t_arr: Any, beta: Any, W1_0: Any, W2_0: Any, alpha: float, tau_: float) -> Any:
        tt = xp.asarray(t_arr, dtype=float).reshape(-1)
        b = xp.asarray(beta, dtype=float)
        W1, W2 = xp.asarray(W1_0, dtype=float), xp.asarray(W2_0, dtype=float).reshape(-1)
        s_val = xp.linalg.norm(b)
        bbar = b / s_val
        proj = W1 @ bbar  # bbar^T W1(0)^T as an H-vector
        up, down = factors(tt, s_val, alpha, tau_)
        plus = xp.concatenate([bbar, xp.ones(1)])
        minus = xp.concatenate([bbar, -xp.ones(1)])
        rest = xp.concatenate([(W1 - xp.outer(proj, bbar)).T, xp.zeros((1, W1.shape[0]))])
        return (
            up[:, None, None] * xp.outer(plus, proj + W2)[None]
            + down[:, None, None] * xp.outer(minus, proj - W2)[None]
            + rest[None]
        )

    return W_of_t


# ------------------------------------------------------ Proposition 18, (52)/(54)

_t, _t0 = sp.symbols("t t0", real=True)
_tau, _b, _P, _u0 = sp.symbols("tau b P u0", positive=True)


def bernoulli_u_squared(t: Any, b: Any, P: Any, u0: Any, t0: Any, tau: Any) -> sp.Expr:
    """Closed form of ``tau du/dt = u (b - u^2/P)`` (52)/(54), ``b = ||beta_C||``:

    ``u(t)^2 = P b / (1 + (P b / u0^2 - 1) exp(-2 b (t - t0)/tau))``.
    """
    return P * b / (1 + (P * b / u0**2 - 1) * sp.exp(-2 * b * (t - t0) / tau))


def bernoulli_residuals() -> dict[str, sp.Expr]:
    """Checks of the closed form (all exactly 0):

    ``"substitution"``: ``tau du/dt - u (b - u^2/P)`` with ``u = sqrt(u^2)``;
    ``"initial"``: ``u(t0)^2 - u0^2``;
    ``"dsolve"``: ``u_dsolve^2 - u^2``, where SymPy's ``dsolve`` (Bernoulli hint,
    unsimplified) returns ``u^-2 = (C1 + e^{2bt/tau}/(P b)) e^{-2bt/tau}`` and ``C1`` is
    fixed by ``u(t0) = u0`` (``u^2`` determines the positive solution ``u``).
    """
    u2 = bernoulli_u_squared(_t, _b, _P, _u0, _t0, _tau)
    u = sp.sqrt(u2)
    ufun = sp.Function("u")
    ode = sp.Eq(_tau * ufun(_t).diff(_t), ufun(_t) * (_b - ufun(_t) ** 2 / _P))
    sol = sp.dsolve(ode, ufun(_t), hint="Bernoulli", simplify=False)
    if sol.lhs != ufun(_t) ** -2:
        raise RuntimeError(f"unexpected dsolve form {sol}")
    u2_dsolve = 1 / sol.rhs
    (C1,) = u2_dsolve.free_symbols - {_t, _b, _P, _tau}
    (c1,) = sp.solve(sp.Eq(u2_dsolve.subs(_t, _t0), _u0**2), C1)
    return {
        "substitution": sp.simplify(_tau * u.diff(_t) - u * (_b - u2 / _P)),
        "initial": sp.simplify(u2.subs(_t, _t0) - _u0**2),
        "dsolve": sp.simplify(u2_dsolve.subs(C1, c1) - u2),
    }


def bernoulli_fixed_points() -> dict[str, Any]:
    """Fixed points of ``du/dt = u (b - u^2/P) / tau`` on ``u >= 0`` and stability.

    ``"fixed_points"``: ``[0, sqrt(P b)]``; ``"slopes"``: ``d(RHS)/du`` there,
    ``[b/tau, -2 b/tau]`` -- positive (unstable) at 0, negative (stable) at
    ``u* = sqrt(P b)``, where ``u*^2 = P ||beta_C||`` makes the block interpolate.
    """
    u = sp.Symbol("u", nonnegative=True)
    rhs = u * (_b - u**2 / _P) / _tau
    points = sorted(sp.solve(sp.Eq(rhs, 0), u), key=lambda p: p.subs({_b: 1, _P: 1}))
    return {
        "fixed_points": points,
        "slopes": [sp.simplify(rhs.diff(u).subs(u, p)) for p in points],
    }


def bernoulli_callable(module: Module = "numpy") -> Callable[..., Any]:
    """Numeric ``u(t, b, P, u0, t0, tau)`` (positive root of the closed form)."""
    return lambdify_numeric(
        [_t, _b, _P, _u0, _t0, _tau],
        sp.sqrt(bernoulli_u_squared(_t, _b, _P, _u0, _t0, _tau)),
        module,
    )


# --------------------------------------------------- deep reduced equivalence (Prop. 12)


def deep_reduced_equivalence_residual(L: int = 3) -> dict[str, sp.Expr]:
    """Catalog Prop. 12 finding (ii), by substitution ``u = sqrt2 v`` (D = 2, symbolic
    ``beta``, ``Sigma``, ``r``; ``L`` an integer depth).

    ReLU reduced dynamics (Appendix E): ``tau du/dt = u^{L-1}/sqrt2^L (beta^T - (u/sqrt2)^L
    r^T Sigma) r`` and ``tau d(u r^T)/dt = u^{L-1}/sqrt2^L (beta^T - (u/sqrt2)^L r^T Sigma)``.
    Deep linear rank-one dynamics with time constant ``2 tau``:
    ``2 tau dv/dt = v^{L-1} (beta^T - v^L r^T Sigma) r`` (and the same without ``r``).
    ``"scalar"`` and ``"vector"`` are ``d/dt(u/sqrt2)|_ReLU - dv/dt|_lin`` at
    ``u = sqrt2 v``; both 0 for every ``L``.
    """
    v, tau = sp.Symbol("v", positive=True), sp.Symbol("tau", positive=True)
    beta = symbol_matrix("b", 2, 1, real=True)
    Sigma = symmetric_symbol_matrix("S", 2)
    r = symbol_matrix("r", 2, 1, real=True)
    u = sp.sqrt(2) * v

    def relu_rhs(vec: sp.Matrix) -> sp.Matrix:
        return u ** (L - 1) / sp.sqrt(2) ** L * (beta.T - (u / sp.sqrt(2)) ** L * r.T * Sigma) * vec

    def lin_rhs(vec: sp.Matrix) -> sp.Matrix:
        return v ** (L - 1) * (beta.T - v**L * r.T * Sigma) * vec

    eye = sp.eye(2)
    return {
        "scalar": sp.expand((relu_rhs(r) / (sp.sqrt(2) * tau) - lin_rhs(r) / (2 * tau))[0]),
        "vector": (relu_rhs(eye) / (sp.sqrt(2) * tau) - lin_rhs(eye) / (2 * tau)).applyfunc(sp.expand),
    }
