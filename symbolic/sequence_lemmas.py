r"""The discrete Grönwall-type sequence lemmas of kou2023 (Lemma 5.3 = Lemmas H.1, H.2; Lemma H.4).

Lemma 5.3: a nonnegative sequence with :math:`C_1e^{-x_t}\le x_{t+1}-x_t\le C_2e^{-x_t}` obeys
:math:`\log(e^{x_0}+C_1t)\le x_t\le\log(e^{x_0}+C_2e^{C_2}t)` (5.7).  The proof uses only the
convexity of :math:`\exp`:

* :math:`e^b-e^a\ge e^a(b-a)` (H.2, lower bound; every real :math:`a,b`);
* :math:`e^b-e^a\le e^b(b-a)` (H.1, upper bound; every real :math:`a,b`), and
  :math:`x_{t+1}-x_t\le C_2e^{-x_t}\le C_2` because :math:`x_t\ge0`.

:func:`convexity_residuals` proves the two inequalities symbolically (value 0 at
:math:`b=a` and a derivative with the sign of :math:`b-a`); :func:`iterate_equality_map`
runs the extreme sequences :math:`x_{t+1}=x_t+Ce^{-x_t}` in ``mpmath`` at 50 digits.
Lemma H.4: :math:`t\mapsto\log(1+at)/\log(1+bt)` is nondecreasing for :math:`b\ge a>0`;
:func:`h4_residuals` checks the derivative factorization used in its proof.
"""

from __future__ import annotations

import mpmath
import sympy as sp


def convexity_residuals() -> dict[str, sp.Expr]:
    r"""Residuals proving :math:`e^a(b-a)\le e^b-e^a\le e^b(b-a)` for all real :math:`a,b`.

    With :math:`h(b)=e^b-e^a-e^a(b-a)` and :math:`k(b)=e^b(b-a)-e^b+e^a`: :math:`h(a)=k(a)=0`,
    :math:`h'(b)=e^b-e^a` and :math:`k'(b)=e^b(b-a)`, both of the sign of :math:`b-a`, so
    :math:`a` is the global minimum of each and :math:`h,k\ge0`.  Returned residuals are 0.
    """
    a, b = sp.symbols("a b", real=True)
    h = sp.exp(b) - sp.exp(a) - sp.exp(a) * (b - a)
    k = sp.exp(b) * (b - a) - sp.exp(b) + sp.exp(a)
    return {
        "h(a)": sp.simplify(h.subs(b, a)),
        "k(a)": sp.simplify(k.subs(b, a)),
        "h'(b) - (e^b - e^a)": sp.simplify(sp.diff(h, b) - (sp.exp(b) - sp.exp(a))),
        "k'(b) - e^b (b - a)": sp.simplify(sp.diff(k, b) - sp.exp(b) * (b - a)),
    }


def telescoping_residuals() -> dict[str, sp.Expr]:
    r"""Summing the per-step bounds: :math:`\sum_{s<t}C=Ct` gives (5.7) after taking logs.

    Returns :math:`\log(e^{x_0}+Ct)` at :math:`t=0` minus :math:`x_0`, and the OCR variant
    :math:`\log(e^{-x_0}+Ct)` at :math:`t=0` minus :math:`x_0` evaluated at :math:`x_0=0` (the
    two readings agree exactly when :math:`x_0=0`, the case of every application).
    """
    x0, C, t = sp.symbols("x0 C t", nonnegative=True)
    s = sp.Symbol("s", integer=True, nonnegative=True)
    return {
        "sum of C over t steps - C t": sp.simplify(sp.summation(C, (s, 0, t - 1)) - C * t),
        "bound at t=0 - x0": sp.simplify(sp.log(sp.exp(x0) + C * 0) - x0),
        "OCR exp(-x0) reading at x0=0": sp.simplify(
            (sp.log(sp.exp(-x0) + C * t) - sp.log(sp.exp(x0) + C * t)).subs(x0, 0)
        ),
    }


def iterate_equality_map(C: float, steps: int, x0: float = 0.0, dps: int = 50) -> list[mpmath.mpf]:
    r"""The sequence :math:`x_{t+1}=x_t+Ce^{-x_t}` at ``dps`` digits, :math:`t=0..` ``steps``."""
    with mpmath.workdps(dps):
        x = mpmath.mpf(x0)
        c = mpmath.mpf(C)
        out = [x]
        for _ in range(steps):
            x = x + c * mpmath.exp(-x)
            out.append(x)
    return out


def h4_residuals() -> dict[str, sp.Expr]:
    r"""Lemma H.4: :math:`f(t)=\log(1+at)/\log(1+bt)`;
    :math:`f'(t)=\frac{ab\,g(t)}{(1+at)(1+bt)\log^2(1+bt)}`.

    :math:`g(t)=(1/b+t)\log(1+bt)-(1/a+t)\log(1+at)`, :math:`g(0)=0`,
    :math:`g'(t)=\log(1+bt)-\log(1+at)\ge0` for :math:`b\ge a`; so :math:`f'\ge0`.
    """
    a, b, t = sp.symbols("a b t", positive=True)
    f = sp.log(1 + a * t) / sp.log(1 + b * t)
    g = (1 / b + t) * sp.log(1 + b * t) - (1 / a + t) * sp.log(1 + a * t)
    fprime_claimed = a * b * g / ((1 + a * t) * (1 + b * t) * sp.log(1 + b * t) ** 2)
    return {
        "f' - ab g / (...)": sp.simplify(sp.diff(f, t) - fprime_claimed),
        "g(0)": sp.simplify(g.subs(t, 0)),
        "g' - (log(1+bt) - log(1+at))": sp.simplify(sp.diff(g, t) - (sp.log(1 + b * t) - sp.log(1 + a * t))),
    }
