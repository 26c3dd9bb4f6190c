"""Small exact-arithmetic helpers shared by the symbolic modules.

Everything here works on SymPy objects.  Data sets are ``(X, y)`` with ``X`` of shape
``(P, D)`` (rows ``x_mu``) and ``y`` a length-``P`` column; the paper's moments (eq. 4)
are ``Sigma = <x x^T> = X^T X / P`` and ``beta = <y x> = X^T y / P``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import sympy as sp

MatrixLike = sp.MatrixBase | Sequence[Any]


def to_matrix(obj: MatrixLike) -> sp.Matrix:
    """``obj`` as a mutable SymPy matrix with sympified entries."""
    return sp.Matrix(obj).applyfunc(sp.sympify)


def as_column(obj: MatrixLike) -> sp.Matrix:
    """``obj`` (a list or a matrix of any orientation) as a column vector."""
    m = to_matrix(obj)
    return m.reshape(len(m), 1)


def as_row(obj: MatrixLike) -> sp.Matrix:
    """``obj`` (a list or a matrix of any orientation) as a row vector (e.g. ``W2``)."""
    return as_column(obj).T


def symbol_matrix(name: str, rows: int, cols: int, **assumptions: bool) -> sp.Matrix:
    """Matrix of fresh symbols ``name_i_j`` (1-based) carrying ``assumptions``."""
    return sp.Matrix(rows, cols, lambda i, j: sp.Symbol(f"{name}_{i + 1}_{j + 1}", **assumptions))


def symmetric_symbol_matrix(name: str, n: int) -> sp.Matrix:
    """Symmetric ``n x n`` matrix of real symbols (a generic covariance)."""
    return sp.Matrix(n, n, lambda i, j: sp.Symbol(f"{name}_{min(i, j) + 1}_{max(i, j) + 1}", real=True))


def symmetrise(X0: MatrixLike, y0: MatrixLike) -> tuple[sp.Matrix, sp.Matrix]:
    """Condition 3 data set ``X = [X0; -X0]``, ``y = [y0; -y0]`` (even inputs, odd labels)."""
    X0m, y0m = to_matrix(X0), as_column(y0)
    return X0m.col_join(-X0m), y0m.col_join(-y0m)


def moments(X: MatrixLike, y: MatrixLike) -> tuple[sp.Matrix, sp.Matrix]:
    """Eq. (4): ``Sigma = <x x^T>`` (D x D) and ``beta = <y x>`` (D x 1), exact."""
    Xm, ym = to_matrix(X), as_column(y)
    P = Xm.rows
    return (Xm.T * Xm) / P, (Xm.T * ym) / P


def sign_of(expr: Any) -> int:
    """Sign (+1, -1 or 0) of a real expression whose sign SymPy can decide.

    Used to pick the branch of ``sigma`` at a pre-activation.  Exact rationals always
    decide; expressions in symbols decide through the symbols' assumptions
    (e.g. ``u`` positive).  Raises ``ValueError`` when the sign is undecidable.
    """
    e = sp.sympify(expr)
    for simplifier in (sp.sympify, sp.expand, sp.simplify):
        candidate = simplifier(e)
        if candidate.is_zero:
            return 0
        if candidate.is_positive:
            return 1
        if candidate.is_negative:
            return -1
    raise ValueError(f"sign of pre-activation {e} is not decidable")


def all_zero(*matrices: sp.MatrixBase) -> bool:
    """True iff every entry of every matrix is literally 0 (after the caller's
    simplification); ``False`` as soon as one entry is a nonzero expression."""
    return all(entry == 0 for m in matrices for entry in m)


def expand_matrix(m: sp.MatrixBase) -> sp.Matrix:
    """Entrywise ``expand`` (polynomial residuals become literally 0 when they vanish)."""
    return sp.Matrix(m).applyfunc(sp.expand)


def exp_to_monomials(expr: Any, var: sp.Symbol) -> sp.Expr:
    """Rewrite every ``exp(a var + b)`` (``a``, ``b`` rational) as ``A**(a/g) * B**(b/g)``.

    ``g`` is the largest rational dividing all the ``a`` and ``b``, so the exponents are
    integers, and ``A = exp(g var)``, ``B = exp(g)`` become fresh positive symbols.  The
    result is a rational function of ``var, A, B``; if ``cancel`` makes it 0, the
    original expression is identically 0 (``A``, ``B`` are merely treated as
    independent indeterminates).  Used for the logistic-loss identities.
    """
    e = sp.sympify(expr)
    coeffs = {}
    for atom in e.atoms(sp.exp):
        poly = sp.Poly(sp.expand(atom.args[0]), var)
        if poly.degree() > 1 or not all(c.is_Rational for c in poly.all_coeffs()):
            raise ValueError(f"exponent {atom.args[0]} is not rational-affine in {var}")
        a, b = poly.all_coeffs() if poly.degree() == 1 else [sp.Integer(0), poly.LC()]
        coeffs[atom] = (sp.Rational(a), sp.Rational(b))
    if e.has(sp.E):  # SymPy stores exp(1) as the constant E, not as an exp atom
        coeffs[sp.E] = (sp.Integer(0), sp.Integer(1))
    nums = [q for pair in coeffs.values() for q in pair if q != 0]
    if not nums:
        return e
    den = math.lcm(*(q.q for q in nums))
    g = sp.Rational(math.gcd(*(int(q * den) for q in nums)), den)
    A, B = sp.Symbol("A_exp", positive=True), sp.Symbol("B_exp", positive=True)
    return e.xreplace({atom: A ** (a / g) * B ** (b / g) for atom, (a, b) in coeffs.items()})
