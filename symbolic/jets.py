r"""Exact one-sided first-order jets over :math:`\mathbb Q[\delta]` for piecewise-polynomial activations.

A :class:`Jet` is :math:`u(\delta)+h\,u'(\delta)` with exact polynomial coefficients in a small
scale :math:`\delta>0` and an infinitesimal :math:`0<h\ll\delta^k` for every :math:`k`: it carries the
value and the one-sided directional derivative (the coefficient of :math:`h`) of a computation
whose inputs are polynomials in :math:`\delta`.  The sign of a jet for all small :math:`\delta,h>0`
is decided by its lowest-order term (:func:`small_sign`), which selects the branch of
:math:`\sigma(x)=\max(x,\alpha x)^p`; a jet whose value vanishes identically takes the branch of its
derivative, so a kink is crossed from the side the direction points to (a one-sided derivative).
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

DELTA = sp.Symbol("delta", positive=True)


def poly(expr: sp.Expr | int) -> sp.Poly:
    r"""``expr`` as an exact polynomial in :math:`\delta` over :math:`\mathbb Q`."""
    return sp.Poly(expr, DELTA, domain="QQ")


def lowest_degree(q: sp.Poly) -> float:
    r"""Lowest power of :math:`\delta` with a nonzero coefficient (``inf`` for the zero polynomial)."""
    return float(min(m[0] for m in q.monoms())) if not q.is_zero else float("inf")


def small_sign(q: sp.Poly) -> int:
    r"""Sign of ``q`` for all small :math:`\delta>0`: the sign of its lowest-order coefficient."""
    if q.is_zero:
        return 0
    low = min(q.terms(), key=lambda t: t[0][0])
    return 1 if low[1] > 0 else -1


@dataclass(frozen=True)
class Jet:
    """``val + h * der`` with ``val``, ``der`` exact polynomials in delta."""

    val: sp.Poly
    der: sp.Poly

    @staticmethod
    def const(expr: sp.Expr | int, der: sp.Expr | int = 0) -> Jet:
        return Jet(poly(expr), poly(der))

    def __add__(self, other: Jet) -> Jet:
        return Jet(self.val + other.val, self.der + other.der)

    def __sub__(self, other: Jet) -> Jet:
        return Jet(self.val - other.val, self.der - other.der)

    def __mul__(self, other: Jet) -> Jet:
        return Jet(self.val * other.val, self.val * other.der + self.der * other.val)

    def power(self, k: int) -> Jet:
        if k == 0:
            return Jet.const(1)
        return Jet(self.val**k, k * self.val ** (k - 1) * self.der)

    def scale(self, c: sp.Rational) -> Jet:
        return Jet(self.val * c, self.der * c)

    def sign(self) -> int:
        """Sign for small delta, h > 0: of the value, or of the derivative where the value is 0."""
        return small_sign(self.val) or small_sign(self.der)


def activation(u: Jet, alpha: sp.Rational, p: int, derivative: int = 0) -> Jet:
    r""":math:`\sigma^{(k)}(u)` for :math:`\sigma(x)=\max(x,\alpha x)^p` (``k = derivative`` < ``p``) on the
    branch selected by ``u.sign()``: :math:`\sigma^{(k)}(x)=\frac{p!}{(p-k)!}m^p x^{p-k}` with
    :math:`m=\max(1,\alpha)` for :math:`x>0`, :math:`\min(1,\alpha)` for :math:`x<0`; 0 where ``u`` is 0."""
    s = u.sign()
    if s == 0:
        return Jet.const(0)
    slope = max(sp.Integer(1), alpha) if s > 0 else min(sp.Integer(1), alpha)
    return u.power(p - derivative).scale(sp.ff(p, derivative) * slope**p)


def matvec(M: list[list[Jet]], v: list[Jet]) -> list[Jet]:
    """Matrix (list of rows) times vector of jets."""
    out = []
    for row in M:
        acc = Jet.const(0)
        for m, x in zip(row, v, strict=True):
            acc = acc + m * x
        out.append(acc)
    return out
