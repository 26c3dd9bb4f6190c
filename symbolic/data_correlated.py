r"""Exact derivations for the data-correlated decomposition of GD on the fixed-readout net (kou2023 Sec. 5).

All results are residuals that must be exactly zero (SymPy) or exact facts:

* :func:`autodiff_step` -- one GD step on the loss (3.1), differentiated by SymPy (generic
  :math:`\sigma`, :math:`\ell`), moves :math:`w_{j,r}` inside :math:`\mathrm{span}\{x_i\}` (Def. 5.1),
  and its projected coefficients are the printed (5.4) + (5.5); (5.3) is :math:`P^{(0)}=0`.
* :func:`frozen_increment_residuals` -- Lemma 5.7 / D.1: with the pattern
  :math:`\mathrm{sign}\langle w_{j,r},x_i\rangle=jy_i` the increments do not depend on
  :math:`r` and the cross-class one is :math:`\gamma` times the same-class one.
* :func:`margin_map_residual` -- after freezing the margins obey
  :math:`\Delta q=K|\ell'|` with :math:`K=\frac{\eta}{nm}G\odot M`,
  :math:`M=\frac12((1-\gamma)^2\mathbf 1\mathbf 1^\top+(1+\gamma)^2yy^\top)` (catalog [D3]).
* :func:`orthogonal_margin_map` -- for orthogonal data the margin of point :math:`i` is the
  scalar map :math:`q\mapsto q+a_i/(1+e^q)` (catalog [D1]/[D2]).
* :func:`stable_rank_cancellation_residual` -- Lemma C.3 algebra: for rows
  :math:`w_r=v+\delta_r`,
  :math:`\|W\|_F^2-\|W\hat v\|^2=\sum_r(\|\delta_r\|^2-\langle\delta_r,\hat v\rangle^2)`
  (no term linear in :math:`\|v\|`: the linear terms cancel).
* :func:`exponent_limit` -- the loss exponent :math:`(1-x)/(1+x)\to1` as :math:`x\to0`.
"""

from __future__ import annotations

import sympy as sp

from symbolic.exact import symbol_matrix


def _generic_data(n: int, d: int) -> tuple[sp.Matrix, list[sp.Symbol]]:
    X = symbol_matrix("x", n, d, real=True)
    y = [sp.Symbol(f"y_{i + 1}", real=True) for i in range(n)]
    return X, y


class _Sigma(sp.Function):
    """A generic activation; its derivative is the generic :class:`_SigmaPrime` (the slope sigma')."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return _SigmaPrime(self.args[0])


class _SigmaPrime(sp.Function):
    """sigma' of :class:`_Sigma`."""


class _Ell(sp.Function):
    """A generic loss of the margin; its derivative is :class:`_EllPrime` (l')."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return _EllPrime(self.args[0])


class _EllPrime(sp.Function):
    """l' of :class:`_Ell`."""


def autodiff_step(n: int = 2, d: int = 3) -> dict[str, list[sp.Expr]]:
    r"""One GD step of neuron :math:`(j,r)` on :math:`L_S=\frac1n\sum_i\ell(y_if(W,x_i))` (3.1), its gradient
    taken by SymPy's differentiation (not the update (3.2) as printed), for both classes :math:`j=\pm1`.

    Symbols: generic inputs :math:`x_i\in\mathbb R^d`, labels :math:`y=(+1,-1,\dots)`, generic
    :math:`\sigma`, :math:`\ell`, the other neurons' part :math:`c_i` of :math:`f(W,x_i)=\frac jm
    \sigma(\langle w_{j,r},x_i\rangle)+c_i`.  Residuals (polynomials, exact):

    * ``span``: :math:`(\det G\,I-X^\top\mathrm{adj}(G)X)\Delta w` -- (5.1): the step stays in
      :math:`w+\mathrm{span}\{x_i\}`;
    * ``increment``: :math:`\det G` times the coefficients :math:`\Delta W X^\top G^{-1}D` of the step
      minus the paper's (5.4) + (5.5), :math:`-\frac{\eta}{nm}\ell_i'\sigma_i'\|x_i\|^2\mathbb 1(y_i=j)
      +\frac{\eta}{nm}\ell_i'\sigma_i'\|x_i\|^2\mathbb 1(y_i=-j)` -- a wrong sign, factor or indicator in
      the printed recursions leaves it nonzero.
    """
    X = sp.Matrix(n, d, lambda i, k: sp.Symbol(f"x_{i + 1}_{k + 1}", real=True))
    w = [sp.Symbol(f"w_{k + 1}", real=True) for k in range(d)]
    c = [sp.Symbol(f"c_{i + 1}", real=True) for i in range(n)]
    eta, m = sp.symbols("eta m", positive=True)
    y = [1 - 2 * (i % 2) for i in range(n)]
    G = X * X.T
    det, adj = G.det(), G.adjugate()  # G^-1 = adj / det: residuals become polynomials (fast, exact)
    D = sp.diag(*[G[i, i] for i in range(n)])
    span: list[sp.Expr] = []
    increment: list[sp.Expr] = []
    for j in (1, -1):
        z = [sum(X[i, k] * w[k] for k in range(d)) for i in range(n)]
        q = [y[i] * (sp.Rational(j) / m * _Sigma(z[i]) + c[i]) for i in range(n)]
        loss = sum(_Ell(qi) for qi in q) / n
        dw = sp.Matrix([-eta * sp.diff(loss, wk) for wk in w])
        span += list(((det * sp.eye(d) - X.T * adj * X) * dw).applyfunc(sp.expand))
        coeffs = (dw.T * X.T * adj * D).T
        for i in range(n):
            step = eta / (n * m) * _EllPrime(q[i]) * _SigmaPrime(z[i]) * G[i, i]
            paper = -step * int(y[i] == j) + step * int(y[i] == -j)  # (5.4) + (5.5)
            increment.append(sp.expand(coeffs[i] - det * paper))
    return {"span": span, "increment": increment}


def projection_identity_residual(n: int = 2, d: int = 3) -> sp.Matrix:
    r"""Def. 5.1 inverse: :math:`P=(W-W^{(0)})X^\top G^{-1}D` recovers :math:`P` from
    :math:`W-W^{(0)}=PD^{-1}X`."""
    X, _ = _generic_data(n, d)
    P = symbol_matrix("rho", 2, n, real=True)
    G = X * X.T
    D = sp.diag(*[G[i, i] for i in range(n)])
    V = P * D.inv() * X
    det, adj = G.det(), G.adjugate()
    return (V * X.T * adj * D - det * P).applyfunc(lambda e: sp.expand(sp.cancel(e)))


def frozen_increment_residuals() -> dict[str, sp.Expr]:
    r"""Lemma 5.7 / D.1 from (5.4)/(5.5) with the frozen pattern :math:`\sigma'=1` (:math:`j=y_i`),
    :math:`\gamma` (:math:`j=-y_i`).

    ``r-independence``: the increments of two neurons ``r``, ``r'`` differ by 0;
    ``ratio``: :math:`|\Delta\underline\rho_{-y_i,r,i}|-\gamma\,\Delta\overline\rho_{y_i,r,i}=0`.
    """
    eta, n, m, gamma, xnorm2 = sp.symbols("eta n m gamma xnorm2", positive=True)
    lp = sp.Symbol("lprime", negative=True)

    def increment(same_class: bool) -> sp.Expr:
        slope = 1 if same_class else gamma
        sign = 1 if same_class else -1  # j y_i
        return -eta / (n * m) * lp * slope * xnorm2 * sign

    up_r, up_r2 = increment(True), increment(True)
    down_r, down_r2 = increment(False), increment(False)
    return {
        "r-independence (same class)": sp.simplify(up_r - up_r2),
        "r-independence (other class)": sp.simplify(down_r - down_r2),
        "ratio gamma": sp.simplify(sp.Abs(down_r) - gamma * up_r),
        "signs": sp.simplify(sp.sign(up_r) + sp.sign(down_r)),
    }


def margin_map_residual(n: int = 3, m: int = 2) -> sp.Matrix:
    r"""Catalog [D3]: after freezing, :math:`\Delta q_i=\sum_k K_{ik}|\ell_k'|` with
    :math:`K=\frac{\eta}{nm}G\odot M`.

    Derived here from (3.1) and (3.2) with an explicit frozen pattern on ``n`` symbolic points
    (labels :math:`+1,-1,+1,\dots`) and ``m`` neurons per class; returns the difference
    between the margin increments and :math:`K|\ell'|`.
    """
    eta, gamma = sp.symbols("eta gamma", positive=True)
    G = sp.Matrix(n, n, lambda i, k: sp.Symbol(f"G_{min(i, k) + 1}_{max(i, k) + 1}", real=True))
    g = [sp.Symbol(f"g_{i + 1}", positive=True) for i in range(n)]  # |l'_i|
    y = [1 if i % 2 == 0 else -1 for i in range(n)]
    dq = []
    for i in range(n):
        df = 0
        for j in (1, -1):
            for _r in range(m):
                slope_i = 1 if j == y[i] else gamma
                # Delta <w_{j,r}, x_i> = eta/(nm) sum_k g_k sigma'_{j,r,k} j y_k G_{ki}
                dz = sum(
                    eta / (n * m) * g[k] * (1 if j == y[k] else gamma) * j * y[k] * G[k, i] for k in range(n)
                )
                df += sp.Rational(j, m) * slope_i * dz  # sigma(Z) = sigma'(Z) Z on a frozen pattern
        dq.append(y[i] * df)
    M = sp.Matrix(n, n, lambda i, k: ((1 - gamma) ** 2 + (1 + gamma) ** 2 * y[i] * y[k]) / 2)
    K = eta / (n * m) * G.multiply_elementwise(M)
    return (sp.Matrix(dq) - K * sp.Matrix(g)).applyfunc(sp.expand)


def orthogonal_margin_map() -> dict[str, sp.Expr]:
    r"""Catalog [D1]/[D2]: on orthogonal data after freezing, :math:`q^{(t+1)}=q^{(t)}+a/(1+e^{q^{(t)}})`.

    Returns the residuals of the margin increments for leaky ReLU
    (:math:`a=\eta(1+\gamma^2)\|x\|^2/(nm)`) and ReLU (:math:`a=\eta|S|\|x\|^2/(nm^2)`, ``S`` the
    number of class-:math:`y_i` neurons active on :math:`x_i`), and the leading term of
    :math:`e^{q^{(t+1)}}-e^{q^{(t)}}` in :math:`a`, which is :math:`a`.
    """
    eta, n, m, gamma, x2, q, S = sp.symbols("eta n m gamma xnorm2 q S", positive=True)
    g = 1 / (1 + sp.exp(q))
    leaky_dq = (1 / m) * m * (eta / (n * m) * g * x2) + (gamma / m) * m * (gamma * eta / (n * m) * g * x2)
    relu_dq = (1 / m) * S * (eta / (n * m) * g * x2)
    a_leaky = eta * (1 + gamma**2) * x2 / (n * m)
    a_relu = eta * S * x2 / (n * m**2)
    a = sp.Symbol("a", positive=True)
    growth = sp.series(sp.exp(q + a / (1 + sp.exp(q))) - sp.exp(q), a, 0, 2).removeO()
    return {
        "leaky": sp.simplify(leaky_dq - a_leaky * g),
        "relu": sp.simplify(relu_dq - a_relu * g),
        "exp growth - a": sp.simplify(growth - a * sp.exp(q) / (1 + sp.exp(q))),
        "exp growth leading term": sp.limit(sp.exp(q) / (1 + sp.exp(q)), q, sp.oo) - 1,
    }


def stable_rank_cancellation_residual(m: int = 2, d: int = 2) -> sp.Expr:
    r"""Lemma C.3 algebra with rows :math:`w_r=v+\delta_r` and :math:`\hat v=v/\|v\|` (symbolic ``m x d``).

    :math:`\|W\|_F^2-\|W\hat v\|^2-\sum_r(\|\delta_r\|^2-\langle\delta_r,\hat v\rangle^2)` is 0, so
    :math:`\mathrm{sr}(W)-1\le O(1)/(m\|v\|^2)` once the :math:`\delta_r` are bounded.
    """
    v = sp.Matrix(d, 1, lambda i, _: sp.Symbol(f"v_{i + 1}", real=True))
    delta = symbol_matrix("delta", m, d, real=True)
    W = sp.Matrix.vstack(*[v.T + delta[r, :] for r in range(m)])
    nv2 = (v.T * v)[0]
    fro = sum(W[i, k] ** 2 for i in range(m) for k in range(d))
    Wv = W * v
    along = (Wv.T * Wv)[0] / nv2
    rest = sum((delta[r, :] * delta[r, :].T)[0] - (delta[r, :] * v)[0] ** 2 / nv2 for r in range(m))
    return sp.simplify(fro - along - rest)


def exponent_limit() -> sp.Expr:
    r""":math:`\lim_{x\to0^+}(1-x)/(1+x)-1`, i.e. the loss exponent is 1 for orthogonal data (Remark 4.2)."""
    x = sp.Symbol("x", positive=True)
    return sp.limit((1 - x) / (1 + x), x, 0) - 1
