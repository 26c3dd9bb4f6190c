r"""Exact derivations for one-hidden-layer ReLU nets with 1/p output scaling (dana2025).

The network :math:`h=\frac1p\sum_ja_j\sigma(\langle w_j|x\rangle)`, the loss
:math:`L=\frac1{2n}\sum_ir_i^2` and the p-accelerated flow :math:`\dot\theta=-p\nabla L`.
On a fixed activation pattern :math:`\sigma(\langle w_j|x_i\rangle)=b_{ji}\langle w_j|x_i\rangle`
with constants :math:`b_{ji}` (:math:`\sigma'(0)=0` means :math:`b_{ji}=0` at the kink), so
the flow is obtained by differentiating the loss (:class:`_Flow`), never transcribed.

Contents (each function returns residuals that must be exactly 0, or exact numbers):

* :func:`coordinate_residuals` -- eqs. (13)-(14), Lemma 1's invariant, eq. (15), the
  curvature (5) = (16) = catalog (C2), and the printed :math:`\dot L` of (16).
* :func:`theorem1_constants`, :func:`lemma5_constants`, :func:`lemma3_squaring` --
  the arithmetic of the proofs.
* :func:`group_solution` / :func:`group_residuals` -- the two-scalar reduction of the
  group initialization (Prop. 2): alignment :math:`z` and :math:`v=\|w_j\|_+^2`, the
  corrected closed forms and the printed (67), (69).
* :func:`logistic_window` -- Theorem 2's transition time and window from the late-phase
  logistic law, with exact limits.
* :func:`beta0_orthogonal` -- Lemma 4's :math:`\beta_0` for orthogonal inputs
  (catalog (C7)) from Gaussian integrals.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp

# ----------------------------------------------------------------- the flow, exactly


class _Flow:
    """The p-accelerated flow on a fixed activation pattern, in a sparse polynomial ring over QQ.

    Generators: ``W[j][k]``, ``a[j]``, ``X[i][k]`` (rows x_i), ``y[i]``, ``b[j][i]`` (pattern).
    ``r[i]`` residuals, ``L`` the loss, ``dW``/``da`` the field :math:`-p\\nabla L` obtained by
    differentiating ``L``.
    """

    def __init__(self, n: int, d: int, p: int):
        names = (
            [f"w_{j}_{k}" for j in range(p) for k in range(d)]
            + [f"a_{j}" for j in range(p)]
            + [f"x_{i}_{k}" for i in range(n) for k in range(d)]
            + [f"y_{i}" for i in range(n)]
            + [f"b_{j}_{i}" for j in range(p) for i in range(n)]
        )
        self.ring, *g = sp.ring(names, sp.QQ)
        it = iter(g)
        self.n, self.d, self.p = n, d, p
        self.W = [[next(it) for _ in range(d)] for _ in range(p)]
        self.a = [next(it) for _ in range(p)]
        self.X = [[next(it) for _ in range(d)] for _ in range(n)]
        self.y = [next(it) for _ in range(n)]
        self.b = [[next(it) for _ in range(n)] for _ in range(p)]
        self.b_index = {self.ring.gens.index(v) for row in self.b for v in row}
        self.pre = [[sum(self.W[j][k] * self.X[i][k] for k in range(d)) for i in range(n)] for j in range(p)]
        self.h = [sum(self.a[j] * self.b[j][i] * self.pre[j][i] for j in range(p)) / p for i in range(n)]
        self.r = [self.y[i] - self.h[i] for i in range(n)]
        self.L = sum(ri**2 for ri in self.r) / (2 * n)
        self.dW = [[-p * self.L.diff(self.W[j][k]) for k in range(d)] for j in range(p)]
        self.da = [-p * self.L.diff(self.a[j]) for j in range(p)]
        self.thetas = [w for row in self.W for w in row] + self.a
        self.theta_dot = [v for row in self.dW for v in row] + self.da

    def idempotent(self, poly):
        """Reduce :math:`b^k\\to b` in every monomial (each pattern entry is 0 or 1)."""
        out = self.ring.zero
        for monom, coeff in poly.terms():
            m = tuple(min(e, 1) if i in self.b_index else e for i, e in enumerate(monom))
            out += self.ring.from_dict({m: coeff})
        return out

    def M(self) -> list[list]:
        """Eq. (15): :math:`M=\\frac1p\\sum_j[P_jX^\\top w_jw_j^\\top XP_j+a_j^2P_jX^\\top XP_j]`."""
        n, p, b, pre, X = self.n, self.p, self.b, self.pre, self.X
        gram = [[sum(X[i][k] * X[l][k] for k in range(self.d)) for l in range(n)] for i in range(n)]
        return [
            [
                sum(
                    b[j][i] * b[j][l] * (pre[j][i] * pre[j][l] + self.a[j] ** 2 * gram[i][l])
                    for j in range(p)
                )
                / p
                for l in range(n)
            ]
            for i in range(n)
        ]


@functools.cache
def _flow(n: int, d: int, p: int) -> _Flow:
    return _Flow(n, d, p)


@functools.cache
def coordinate_residuals(n: int = 2, d: int = 2, p: int = 2) -> dict[str, Any]:
    r"""Residuals (SymPy expressions, exactly 0 unless stated) for Section 2 and App. A.

    * ``eq13``/``eq14``: the field equals :math:`\frac{a_j}nXP_jR` / :math:`\frac1nw_j^\top XP_jR`;
    * ``lemma1``: :math:`\frac{d}{dt}(a_j^2-\|w_j\|^2)=0` for every pattern;
    * ``eq15``: :math:`\dot R=-\frac1nMR`;
    * ``mu_C2``/``mu_16``: :math:`p\|\nabla L\|^2/L` equals (C2) and :math:`\frac2n\bar R^\top M\bar R`
      (16), compared after multiplying by :math:`\|R\|^2` (no denominators);
    * ``dL_corrected``: :math:`\dot L=-\frac1{n^2}R^\top MR`;
    * ``dL_printed``: :math:`\dot L+\frac2nR^\top MR` (16) as printed -- *not* zero: it equals
      :math:`\frac{2n-1}{n^2}R^\top MR` exactly (``dL_printed_excess`` is the residual of that identity).
    """
    f = _flow(n, d, p)
    W, a, X, b, r, dW, da = f.W, f.a, f.X, f.b, f.r, f.dW, f.da
    red = f.idempotent
    out: dict[str, Any] = {}
    out["eq13"] = [
        red(dW[j][k] - a[j] * sum(r[i] * b[j][i] * X[i][k] for i in range(n)) / n)
        for j in range(p)
        for k in range(d)
    ]
    out["eq14"] = [red(da[j] - sum(r[i] * b[j][i] * f.pre[j][i] for i in range(n)) / n) for j in range(p)]
    out["lemma1"] = [red(2 * a[j] * da[j] - 2 * sum(W[j][k] * dW[j][k] for k in range(d))) for j in range(p)]
    M = f.M()
    rdot = [sum(f.h[i].diff(th) * v for th, v in zip(f.thetas, f.theta_dot, strict=True)) for i in range(n)]
    out["eq15"] = [red(-rdot[i] + sum(M[i][l] * r[l] for l in range(n)) / n) for i in range(n)]
    rMr = sum(r[i] * M[i][l] * r[l] for i in range(n) for l in range(n))
    mu_R2 = (
        2 * n * sum(v**2 for v in f.theta_dot) / p
    )  # mu ||R||^2, since p ||grad L||^2 = ||theta_dot||^2 / p
    c2_R2 = (
        sum(
            sum(r[i] * b[j][i] * f.pre[j][i] for i in range(n)) ** 2
            + a[j] ** 2 * sum(sum(r[i] * b[j][i] * X[i][k] for i in range(n)) ** 2 for k in range(d))
            for j in range(p)
        )
        * 2
        / (n * p)
    )
    out["mu_C2"] = red(mu_R2 - c2_R2)
    out["mu_16"] = red(mu_R2 - 2 * rMr / n)
    dL = sum(f.L.diff(th) * v for th, v in zip(f.thetas, f.theta_dot, strict=True))
    out["dL_corrected"] = red(dL + rMr / n**2)
    # the printed dL/dt = -(2/n) R^T M R misses by exactly (2n - 1)/n^2 R^T M R:
    out["dL_printed_excess"] = red(dL + 2 * rMr / n - sp.Rational(2 * n - 1, n**2) * rMr)
    exprs = {k: [e.as_expr() for e in v] if isinstance(v, list) else v.as_expr() for k, v in out.items()}
    exprs["dL_printed"] = sp.Rational(2 * n - 1, n**2) * sp.Symbol("R^T M R")
    return exprs


# ----------------------------------------------------------------- proof arithmetic


def theorem1_constants() -> dict[str, Any]:
    r"""Eq. (32) and the constant of (6)/(39): exact truth values and residuals."""
    return {
        "(32): 1 - 1/(2 sqrt 2) >= 3/5": bool(sp.Rational(1) - 1 / (2 * sp.sqrt(2)) - sp.Rational(3, 5) > 0),
        "(39): 2 * 3/5 = 6/5": sp.Rational(2) * sp.Rational(3, 5) - sp.Rational(6, 5),
        "2 - sqrt 2 >= 1/2": bool(2 - sp.sqrt(2) - sp.Rational(1, 2) >= 0),
    }


def lemma5_constants() -> dict[str, Any]:
    r"""Lemma 5 arithmetic: the sufficiency chain (17) holds, the necessity step (18) does not.

    * ``4 log(4/3) > 1``: :math:`n(3/4)^{4\log(n/\varepsilon)}\le\varepsilon` for :math:`n\ge\varepsilon`;
    * the printed chain :math:`4\ge1/(1/3-1/18)\ge1/\log(4/3)`;
    * (18) uses :math:`(\varepsilon/n)^{3\log2}\ge\varepsilon/n`, i.e. :math:`3\log2\le1` -- false.
    """
    return {
        "4 log(4/3) > 1": bool(4 * sp.log(sp.Rational(4, 3)) > 1),
        "4 >= 1/(1/3 - 1/18)": bool(4 >= 1 / (sp.Rational(1, 3) - sp.Rational(1, 18))),
        "1/(1/3 - 1/18) >= 1/log(4/3)": bool(
            1 / (sp.Rational(1, 3) - sp.Rational(1, 18)) >= 1 / sp.log(sp.Rational(4, 3))
        ),
        "(18) needs 3 log 2 <= 1": bool(3 * sp.log(2) <= 1),
    }


def lemma3_squaring() -> Any:
    r"""Eq. (46) is exactly the squared sufficient condition of (45) at equality.

    With :math:`(u+v)^2\le2(u^2+v^2)`, :math:`u=C\sqrt{n/d}`, :math:`v=\sqrt{\ell/d}`, the
    condition :math:`2(C_x^+)^4(u^2+v^2)\le\frac{(C_x^-)^4(C_y^-)^2}{4n(C_y^+)^2}` at
    :math:`d` given by (46) holds with equality: the residual returned is 0.
    """
    C, n, ell, xm, xp, ym, yp = sp.symbols("C n ell C_x^- C_x^+ C_y^- C_y^+", positive=True)
    d = 8 * (yp / ym) ** 2 * (xp / xm) ** 4 * (C**2 * n**2 + n * ell)
    lhs = 2 * xp**4 * (C**2 * n / d + ell / d)
    rhs = xm**4 * ym**2 / (4 * n * yp**2)
    return sp.simplify(lhs - rhs)


# ------------------------------------------------------------ group initialization


_t, _c, _z0, _v0, _n, _p = sp.symbols("t c z_0 v_0 n p", positive=True)


def group_solution() -> dict[str, sp.Expr]:
    r"""Closed forms of the two-scalar group system, corrected and as printed.

    One group of :math:`k` orthonormal inputs, labels of one sign, symmetric init
    :math:`|a_j|=\|w_j\|`, all group coordinates active (they stay so: at
    :math:`w_{ji}=0^+` the velocity is :math:`\frac{\|w\|}ny_i>0`).  With
    :math:`c=2\sqrt k\|D\|/n` and :math:`P=p\sqrt k\|D\|` the state obeys

    .. math:: \dot z=\tfrac c2(1-z^2),\qquad \dot v=v\,(cz-\tfrac{2v}{np}).

    Corrected: :math:`z=\tanh(\tfrac{ct}2+\beta)`, :math:`\beta=\mathrm{artanh}\,z_0`,
    :math:`F=\cosh^2(\tfrac{ct}2+\beta)/\cosh^2\beta`,
    :math:`v=v_0F/(1+\frac{2v_0}{np}\int_0^tF)`.  Printed (67), (69): :math:`z=\tanh(ct+\beta)`
    and :math:`v=Pv_0(\cosh ct+z_0\sinh ct)/(P+v_0(\sinh ct+z_0(\cosh ct-1)))`.
    """
    beta = sp.atanh(_z0)
    F = sp.cosh(_c * _t / 2 + beta) ** 2 / sp.cosh(beta) ** 2
    intF = (_t + (sp.sinh(_c * _t + 2 * beta) - sp.sinh(2 * beta)) / _c) / (2 * sp.cosh(beta) ** 2)
    P = _n * _p * _c / 2
    return {
        "z": sp.tanh(_c * _t / 2 + beta),
        "v": _v0 * F / (1 + 2 * _v0 / (_n * _p) * intF),
        "z_printed": (sp.sinh(_c * _t) + _z0 * sp.cosh(_c * _t))
        / (sp.cosh(_c * _t) + _z0 * sp.sinh(_c * _t)),
        "v_printed": P
        * _v0
        * (sp.cosh(_c * _t) + _z0 * sp.sinh(_c * _t))
        / (P + _v0 * (sp.sinh(_c * _t) + _z0 * (sp.cosh(_c * _t) - 1))),
        "F": F,
    }


def _at_numbers(expr: sp.Expr, values: dict) -> sp.Expr:
    return sp.N(expr.subs(values), 40)


@functools.cache
def group_residuals() -> dict[str, Any]:
    r"""ODE residuals of the closed forms: exact zeros for the corrected ones; the printed
    (67)/(69) evaluated at :math:`c=1, z_0=1/2, t=1` (non-zero); at :math:`z_0=1` the printed
    forms solve the flow."""
    s = group_solution()
    z, v, F = s["z"], s["v"], s["F"]
    beta = sp.atanh(_z0)
    intF = (_t + (sp.sinh(_c * _t + 2 * beta) - sp.sinh(2 * beta)) / _c) / (2 * sp.cosh(beta) ** 2)
    # v = v0 F / (1 + 2 v0/(np) I) solves v' = v (c z - 2v/(np)) whenever F' = c z F and I' = F:
    Ff, If, zz = sp.Function("F")(_t), sp.Function("I")(_t), sp.Symbol("zeta")
    vv = _v0 * Ff / (1 + 2 * _v0 / (_n * _p) * If)
    bern = (sp.diff(vv, _t) - vv * (_c * zz - 2 * vv / (_n * _p))).subs(
        {sp.Derivative(Ff, _t): _c * zz * Ff, sp.Derivative(If, _t): Ff}
    )
    E = sp.Symbol("E", positive=True)  # E = exp(ct/2) for the limit t -> oo
    v_of_E = v.subs(_t, 2 * sp.log(E) / _c).rewrite(sp.exp).subs(_z0, sp.Rational(1, 2))
    res = {
        "z ode": sp.simplify((sp.diff(z, _t) - _c / 2 * (1 - z**2)).rewrite(sp.exp)),
        "z(0)": sp.simplify(z.subs(_t, 0) - _z0),
        "F' = c z F": sp.simplify((sp.diff(F, _t) - _c * z * F).rewrite(sp.exp)),
        "(int F)' = F": sp.simplify((sp.diff(intF, _t) - F).rewrite(sp.exp)),
        "v = v0 F/(1 + 2 v0/(np) int F) solves v' = v (c z - 2v/(np))": sp.simplify(bern),
        "v(0)": sp.simplify(v.subs(_t, 0) - _v0),
        "v limit": sp.simplify(sp.limit(v_of_E, E, sp.oo) - _n * _p * _c / 2),
    }
    point = {_c: 1, _z0: sp.Rational(1, 2), _t: 1, _v0: 1, _n: 4, _p: 2}
    zp = s["z_printed"]
    res["(67) printed, z ode at a point"] = _at_numbers(sp.diff(zp, _t) - _c / 2 * (1 - zp**2), point)
    res["(69) printed vs corrected at a point"] = _at_numbers(s["v_printed"] - v, point)
    res["(67) = corrected at z0 = 1"] = sp.simplify((zp - z).subs(_z0, 1).rewrite(sp.exp))
    v1 = s["v_printed"].subs(_z0, 1)  # at z0 = 1, z = 1 for all t: check (69) against v' = v (c - 2v/(np))
    res["(69) solves the flow at z0 = 1"] = sp.simplify(
        (sp.diff(v1, _t) - v1 * (_c - 2 * v1 / (_n * _p))).rewrite(sp.exp)
    )
    return res


@functools.cache
def logistic_window() -> dict[str, sp.Expr]:
    r"""Theorem 2 from the late-phase law (:math:`z=1`): exact transition time and window.

    At :math:`z\equiv1`, :math:`f=v/P=1/(1+Ae^{-ct})` and the group loss is
    :math:`L^j=\frac{\|D\|^2}2(1-f)^2`; :math:`L^j=\frac\varepsilon2\|D\|^2` at
    :math:`t(\varepsilon)=\frac1c\log\frac{A(1-\sqrt\varepsilon)}{\sqrt\varepsilon}`.  With
    :math:`c=2\sqrt{k}\|D\|/n`, :math:`k=n/p`, :math:`t_n=\frac{\sqrt{np}}4\log(np)`,
    :math:`A=(P/v_0-1)` and :math:`P=\sqrt{np}\|D\|`:

    * ``time ratio``: :math:`\lim_n t(\varepsilon)/t_n=1/\|D\|`;
    * ``window``: :math:`\frac{t(\varepsilon)-t(1-\varepsilon)}{t_n}\log(np)
      =\frac2{\|D\|}\log\mathcal C(\varepsilon)` exactly, with
      :math:`\mathcal C(\varepsilon)=\frac{(1-\sqrt\varepsilon)\sqrt{1-\varepsilon}}
      {\sqrt\varepsilon(1-\sqrt{1-\varepsilon})}`;
    * ``paper constant``: :math:`\frac1{2\|D\|}\log C^j(\varepsilon)` of (12)/(87).
    """
    eps, D, v0, N = sp.symbols("epsilon D v_0 N", positive=True)  # N = n p
    c_tn = D * sp.log(N) / 2  # c * t_n with c = 2 sqrt(N) D / N ... times sqrt(N)/4 log N
    P = sp.sqrt(N) * D
    A = P / v0 - 1
    t_eps = lambda e: sp.log(A * (1 - sp.sqrt(e)) / sp.sqrt(e))  # noqa: E731  (units of 1/c)
    ratio = sp.limit(t_eps(eps) / c_tn, N, sp.oo)
    window = sp.simplify((t_eps(eps) - t_eps(1 - eps)) / c_tn * sp.log(N))
    calC = (1 - sp.sqrt(eps)) * sp.sqrt(1 - eps) / (sp.sqrt(eps) * (1 - sp.sqrt(1 - eps)))
    Cj = (
        (1 - sp.sqrt(eps))
        / (1 + D * (1 - sp.sqrt(eps)))
        * (1 + D * (1 - sp.sqrt(1 - eps)))
        / (1 - sp.sqrt(1 - eps))
    )
    return {
        "time ratio": ratio,
        "time ratio residual": sp.simplify(ratio - 1 / D),
        "window": window,
        "window residual": sp.simplify(sp.exp(window * D / 2) / calC - 1),
        "calC": calC,
        "paper constant": sp.log(Cj) / (2 * D),
        "eps": eps,
        "D": D,
    }


# ------------------------------------------------------------------------- Lemma 4


def gaussian_moments() -> dict[str, sp.Expr]:
    r"""Half-Gaussian moments: :math:`E[g_+^2]=\sigma^2/2`, :math:`E[g_+]=\sigma/\sqrt{2\pi}`."""
    g, s = sp.symbols("g sigma", positive=True)
    dens = sp.exp(-(g**2) / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi))
    return {
        "E[g+^2]": sp.simplify(sp.integrate(g**2 * dens, (g, 0, sp.oo))),
        "E[g+]": sp.simplify(sp.integrate(g * dens, (g, 0, sp.oo))),
    }


def beta0_orthogonal(n: int) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    r"""Lemma 4's :math:`\beta_0=\lim_p n\mu(0)` for :math:`x_i=c_ie_i` (catalog (C7)), derived.

    :math:`w\sim\mathcal N(0,\frac{s^2}dI_d)`, :math:`a=\pm` (independent fair sign) with
    :math:`|a|` depending on :math:`\|w\|` only.  Then :math:`\tilde Y=Y` and
    :math:`\beta_0=2E[(w^\top XPY)^2+a^2\|XPY\|^2]/\|Y\|^2` with independent coordinates
    :math:`w_i\sim\mathcal N(0,s^2/d)`; the sign pattern is independent of :math:`\|w\|`.
    Returns the expression and its symbols ``(Ea2, s2, d, c_1..c_n, Y_1..Y_n)``.
    """
    Ea2, s2, d = sp.symbols("E_a2 s2 d", positive=True)
    c = sp.symbols(f"c1:{n + 1}", positive=True)
    Y = sp.symbols(f"Y1:{n + 1}", real=True)
    mom = gaussian_moments()
    sig = sp.sqrt(s2 / d)
    m2 = mom["E[g+^2]"].subs(sp.Symbol("sigma", positive=True), sig)
    m1 = mom["E[g+]"].subs(sp.Symbol("sigma", positive=True), sig)
    first = sum(c[i] ** 2 * Y[i] ** 2 * m2 for i in range(n)) + sum(
        c[i] * c[k] * Y[i] * Y[k] * m1**2 for i in range(n) for k in range(n) if i != k
    )
    second = Ea2 * sum(c[i] ** 2 * Y[i] ** 2 for i in range(n)) / 2
    beta0 = 2 * (first + second) / sum(y**2 for y in Y)
    return beta0, (Ea2, s2, d, *c, *Y)


def beta0_catalog_residual(n: int = 3) -> sp.Expr:
    r"""Derived :math:`\beta_0` minus the closed form (C7):
    :math:`\frac{(E a^2+\frac{s^2}d(1-\frac1\pi))\sum c_i^2Y_i^2+\frac{s^2}{\pi d}(\sum c_iY_i)^2}
    {\sum Y_i^2}`."""
    beta0, (Ea2, s2, d, *rest) = beta0_orthogonal(n)
    c, Y = rest[:n], rest[n:]
    cy2 = sum(ci**2 * yi**2 for ci, yi in zip(c, Y, strict=True))
    cy = sum(ci * yi for ci, yi in zip(c, Y, strict=True))
    closed = ((Ea2 + s2 / d * (1 - 1 / sp.pi)) * cy2 + s2 / (sp.pi * d) * cy**2) / sum(yi**2 for yi in Y)
    return sp.simplify(beta0 - closed)


_D = sp.Symbol("D", positive=True)


def group_loss() -> tuple[tuple[sp.Symbol, ...], sp.Expr]:
    r"""The group loss :math:`L^j(t)` (81) from the corrected closed forms, in a cancellation-free form.

    With :math:`f=v/P`: :math:`L^j=\frac{\|D\|^2}2[1-2zf+f^2]=\frac{\|D\|^2}2[(1-f)^2+2f(1-z)]`, and
    :math:`c=2\|D\|/\sqrt{np}` (:math:`k=n/p`).  Returns the symbols ``(t, n, p, D, z0, v0)`` and the
    expression.
    """
    s = group_solution()
    sub = {_c: 2 * _D / sp.sqrt(_n * _p)}
    v = s["v"].subs(sub)
    f = v / (sp.sqrt(_n * _p) * _D)
    one_minus_z = 2 / (1 + sp.exp(2 * (sp.atanh(_z0) + _D * _t / sp.sqrt(_n * _p))))
    return (_t, _n, _p, _D, _z0, _v0), _D**2 / 2 * ((1 - f) ** 2 + 2 * f * one_minus_z)


def group_curvature() -> tuple[tuple[sp.Symbol, ...], sp.Expr]:
    r"""One group's contributions to the exact curvature (C2), in the reduced variables :math:`(z,v)`.

    With :math:`\hat w=w/\|w\|` (:math:`\hat w\cdot\bar D=z`), :math:`a^2=v` and the group residual
    :math:`R_j=\sqrt k\|D\|\bar D-\frac vp\hat w`: numerator :math:`\frac vp[(\hat w\cdot R_j)^2+\|R_j\|^2]`
    and denominator :math:`\|R_j\|^2`; :math:`\mu=\frac2n\sum_j\mathrm{num}_j/\sum_j\mathrm{den}_j`.
    Returns symbols ``(z, v, k, p, D)`` and the pair ``(num, den)`` as a SymPy tuple.
    """
    z, v, k = sp.symbols("z v k", positive=True)
    wR = sp.sqrt(k) * _D * z - v / _p
    R2 = k * _D**2 - 2 * sp.sqrt(k) * _D * z * v / _p + v**2 / _p**2
    return (z, v, k, _p, _D), sp.Tuple(v / _p * (wR**2 + R2), R2)
