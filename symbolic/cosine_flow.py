r"""Closed forms of min2024's reduced directional dynamics and the algebra of its proof (App. C.2).

Reduced dynamics (eq. (4), exact when :math:`f\equiv0`): :math:`\dot{\hat w}=sP_{\hat w}x_a`.
While the activation pattern is fixed, :math:`x_a` is constant with :math:`a=\|x_a\|`:

* :func:`cosine_residual` -- :math:`c=\cos(w,x_a)` obeys :math:`\dot c=sa(1-c^2)`, solved by
  :math:`c(t)=\tanh(sat+\operatorname{artanh}c_0)` (catalog C3), in every dimension;
* :func:`angle_solution`, :func:`angle_residual` -- in :math:`\mathbb R^2`, with
  :math:`\delta=\phi-\phi_a`: :math:`\dot\delta=-sa\sin\delta`, solved by
  :math:`\tan\frac\delta2=\tan\frac{\delta_0}2e^{-sat}` (catalog C4);
* :func:`crossing_time` -- the time at which :math:`\delta` reaches :math:`\delta_c` (a data
  hyperplane :math:`\phi=\phi_i\pm\pi/2`):
  :math:`t_c=\frac1{sa}\log\frac{\tan(\delta_0/2)}{\tan(\delta_c/2)}`;
* :func:`reference_residual` -- Lemma 10 with :math:`f\equiv0`: along the reduced flow,
  :math:`\frac{d}{dt}\psi_{rj}=s(\psi_{ra}-\psi_{rj}\psi_{aj})\|x_a\|` exactly (eq. (24));
* :func:`lemma11_gap` -- eq. (25): with Gram entries :math:`\ge\mu X_{\min}^2` off the diagonal
  and norms :math:`\ge X_{\min}`, :math:`\|x_a\|^2-\mu n_a^2X_{\min}^2\ge n_a(1-\mu)X_{\min}^2\ge0`;
* :func:`eps_threshold` -- eq. (28) re-derived from Lemma 3 and (29): the two terms and the
  factor the printed first term misses;
* :func:`dwell_time` -- :math:`\Delta t` from "cosine moves by at most 2 at rate
  :math:`\ge\min\{\zeta,\xi\}\sqrt\mu n_aX_{\min}/2`".
"""

from __future__ import annotations

from functools import cache

import sympy as sp

t, a, c0, d0, dc = sp.symbols("t a c_0 delta_0 delta_c", real=True)
s = sp.Symbol("s", real=True)


def cosine_solution(sign: int = 1) -> sp.Expr:
    r""":math:`c(t)=\tanh(sat+\operatorname{artanh}c_0)`."""
    return sp.tanh(sign * a * t + sp.atanh(c0))


def cosine_residual(sign: int = 1) -> sp.Expr:
    r""":math:`\dot c-sa(1-c^2)` plus :math:`c(0)-c_0` at the closed form (both zero)."""
    c = cosine_solution(sign)
    ode = sp.simplify((sp.diff(c, t) - sign * a * (1 - c**2)).rewrite(sp.exp))
    return ode + sp.simplify(c.subs(t, 0) - c0)


def angle_solution(sign: int = 1) -> sp.Expr:
    r""":math:`\delta(t)=2\arctan(\tan(\delta_0/2)e^{-sat})` (principal branch, :math:`|\delta|<\pi`)."""
    return 2 * sp.atan(sp.tan(d0 / 2) * sp.exp(-sign * a * t))


def angle_residual(sign: int = 1) -> sp.Expr:
    r""":math:`\dot\delta+sa\sin\delta` at the closed form (zero)."""
    delta = angle_solution(sign)
    res = sp.diff(delta, t) + sign * a * sp.sin(delta)
    return sp.simplify(sp.expand_trig(res.rewrite(sp.tan)))


def crossing_time(sign: int = 1) -> sp.Expr:
    r""":math:`t_c=\frac1{sa}\log\frac{\tan(\delta_0/2)}{\tan(\delta_c/2)}`."""
    return sp.log(sp.tan(d0 / 2) / sp.tan(dc / 2)) / (sign * a)


def crossing_residual(sign: int = 1) -> sp.Expr:
    r"""Residual :math:`\tan(\delta(t_c)/2)-\tan(\delta_c/2)`, zero iff :math:`\delta(t_c)=\delta_c`."""
    delta = angle_solution(sign).subs(t, crossing_time(sign))
    return sp.simplify(sp.tan(delta / 2) - sp.tan(dc / 2))


def reference_residual(D: int = 3) -> sp.Expr:
    r""":math:`\dot\psi_{rj}-s(\psi_{ra}-\psi_{rj}\psi_{aj})\|x_a\|` along :math:`\dot{\hat w}=sP_wx_a`.

    :math:`\|x_r\|,\|x_a\|` are free positive symbols (they cancel); the residual is multiplied by
    :math:`\|w\|^4\|x_r\|`, a polynomial in :math:`\|w\|`, which is then set to
    :math:`\sqrt{\sum_kw_k^2}` and expanded (fast, exact).
    """
    w = sp.Matrix(sp.symbols(f"w0:{D}", real=True))
    xr = sp.Matrix(sp.symbols(f"r0:{D}", real=True))
    xa = sp.Matrix(sp.symbols(f"xa0:{D}", real=True))
    N, R, A = sp.symbols("N R A", positive=True)
    norm = sp.sqrt((w.T * w)[0])
    wh = w / norm
    w_dot = norm * s * (xa - (wh.T * xa)[0] * wh)  # then d/dt (w/|w|) = s P_w x_a
    psi = (xr.T * wh)[0] / R
    dpsi = sum(sp.diff(psi, w[k]) * w_dot[k] for k in range(D))
    res = dpsi - s * ((xr.T * xa)[0] / (R * A) - psi * (wh.T * xa)[0] / A) * A
    poly = sp.expand(res.subs(norm, N) * N**4 * R)
    return sp.expand(poly.subs(N, norm))


def lemma11_gap() -> sp.Expr:
    r"""The slack :math:`n_aX^2+n_a(n_a-1)\mu X^2-\mu n_a^2X^2` of eq. (25)'s last step, factored."""
    n_a, mu, X = sp.symbols("n_a mu X_min", positive=True)
    return sp.factor(n_a * X**2 + n_a * (n_a - 1) * mu * X**2 - mu * n_a**2 * X**2)


@cache
def eps_threshold() -> dict[str, sp.Expr]:
    r"""Eq. (28) re-derived.

    * ``first``: largest :math:`\epsilon` with Lemma 3's :math:`2\epsilon\sqrt hX_{\max}W_{\max}^2`
      :math:`\le` (29)'s :math:`m_3\sqrt\mu X_{\min}/(4nX_{\max})`, :math:`m_3=\min\{\mu,\zeta,\xi\}`;
    * ``second``: largest :math:`\epsilon` with
      :math:`t_1\le T=\frac1{4nX_{\max}}\log\frac1{\sqrt h\epsilon}`,
      :math:`t_1=16\log n/(m_2\sqrt\mu X_{\min})`, :math:`m_2=\min\{\zeta,\xi\}`;
    * ``printed_first``: the paper's first term (4 in the denominator);
    * ``f_at_printed``: Lemma 3's bound on :math:`\max|f|` at ``printed_first``, divided by (29)'s
      right-hand side (2: the printed term does not give (29));
    * ``lemma3_margin``: ``first`` divided by Lemma 3's own condition :math:`1/(4\sqrt hX_{\max}W_{\max}^2)`.
    """
    eps, h, n, mu, m2, m3, xmin, xmax, wmax = sp.symbols(
        "epsilon h n mu m_2 m_3 X_min X_max W_max", positive=True
    )
    rhs29 = m3 * sp.sqrt(mu) * xmin / (4 * n * xmax)
    lemma3_f = 2 * eps * sp.sqrt(h) * xmax * wmax**2  # linear in eps
    first = rhs29 / sp.diff(lemma3_f, eps)
    log_eps = sp.Symbol("L", real=True)  # eps = e^L / sqrt(h): T is linear in L
    t1 = 16 * sp.log(n) / (m2 * sp.sqrt(mu) * xmin)
    T = sp.log(1 / (sp.sqrt(h) * eps)) / (4 * n * xmax)
    T_of_L = sp.expand_log(T.subs(eps, sp.exp(log_eps) / sp.sqrt(h)), force=True)
    _, L_star = sp.solve_linear(T_of_L - t1, symbols=[log_eps])
    printed = m3 * sp.sqrt(mu) * xmin / (4 * sp.sqrt(h) * n * xmax**2 * wmax**2)
    return {
        "first": first,
        "second": sp.exp(L_star) / sp.sqrt(h),
        "printed_first": printed,
        "f_at_printed": sp.cancel(lemma3_f.subs(eps, printed) / rhs29),
        "lemma3_margin": sp.cancel(first / (1 / (4 * sp.sqrt(h) * xmax * wmax**2))),
    }


def dwell_time() -> sp.Expr:
    r""":math:`\Delta t` with :math:`\Delta t\cdot m\sqrt\mu n_aX_{\min}/2=2` (a cosine's full range)."""
    dt, m, mu, n_a, xmin = sp.symbols("Delta_t m mu n_a X_min", positive=True)
    return sp.solve(sp.Eq(dt * m * sp.sqrt(mu) * n_a * xmin / 2, 2), dt)[0]
