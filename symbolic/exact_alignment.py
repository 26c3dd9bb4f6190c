r"""Exact and high-precision reduced alignment dynamics (min2024 eq. (4) at :math:`\epsilon\to0`).

The reduced flow of one neuron with unit direction :math:`u` and sign :math:`s` is
:math:`\dot u=sP_ux_a(u)`, :math:`x_a(u)=\sum_{\langle x_i,u\rangle>0}y_ix_i` (ReLU,
:math:`\sigma'(0)=0`).  Float64 cannot hold an unstable fixed point of it: a rounding
perturbation :math:`\delta\approx10^{-16}` grows like :math:`e^{\lambda t}` (e.g. the
Assumption-2 violation :math:`u=x_-/\|x_-\|`, where :math:`P_ux_a=P_u(-x_-)=0`).

* :func:`separation` -- :math:`\mu=\min_{i,j}\cos(y_ix_i,y_jx_j)` of exact (rational) data, to
  ``dps`` digits (Assumption 1);
* :func:`reduced_field` -- :math:`sP_ux_a(u)` in exact SymPy arithmetic (exact sign tests);
* :func:`reduced_flow_mp` -- classical RK4 of the reduced flow in ``mpmath`` at ``dps`` digits.
"""

from __future__ import annotations

import mpmath
import sympy as sp


def _rows(X) -> list[sp.Matrix]:
    return [sp.Matrix(X).row(i).T for i in range(sp.Matrix(X).rows)]


def separation(X, y, dps: int = 50) -> mpmath.mpf:
    r""":math:`\mu` of exact data ``X`` (rows), labels ``y`` (:math:`\pm1`), evaluated to ``dps`` digits."""
    Z = [yi * xi for xi, yi in zip(_rows(X), y, strict=True)]
    with mpmath.workdps(dps):
        return min(mpmath.mpf(sp.N(a.dot(b) / sp.sqrt(a.dot(a) * b.dot(b)), dps + 10)) for a in Z for b in Z)


def reduced_field(X, y, u: sp.Matrix, s: int) -> sp.Matrix:
    r""":math:`sP_ux_a(u)` with :math:`P_u=I-uu^\top/\|u\|^2`, exact (``u`` need not be unit)."""
    xa = sp.zeros(u.rows, 1)
    for xi, yi in zip(_rows(X), y, strict=True):
        if sp.sign(sp.nsimplify(xi.dot(u))) > 0:
            xa += yi * xi
    return (s * (xa - u * (u.dot(xa) / u.dot(u)))).applyfunc(sp.simplify)


def reduced_flow_mp(X, y, u0, s: int, t_end: float, steps: int, dps: int) -> list[mpmath.mpf]:
    r"""RK4 (``steps`` equal steps) of :math:`\dot u=sP_ux_a(u)` from ``u0`` to ``t_end`` at ``dps`` digits.

    ``X`` and ``u0`` may be exact (SymPy) or numbers; they are converted at ``dps`` digits.
    Returns :math:`u(t_{\rm end})` (not renormalised: RK4 keeps :math:`\|u\|=1` to its own error).
    """
    with mpmath.workdps(dps):
        rows = [[mpmath.mpf(sp.N(v, dps + 10)) for v in r] for r in _rows(X)]
        ys = [int(v) for v in y]
        u = [mpmath.mpf(sp.N(v, dps + 10)) for v in u0]
        D = len(u)

        def field(w):
            xa = [mpmath.mpf(0)] * D
            for xi, yi in zip(rows, ys, strict=True):
                if mpmath.fdot(xi, w) > 0:
                    xa = [a + yi * b for a, b in zip(xa, xi, strict=True)]
            c = mpmath.fdot(w, xa) / mpmath.fdot(w, w)
            return [s * (a - c * b) for a, b in zip(xa, w, strict=True)]

        dt = mpmath.mpf(t_end) / steps
        for _ in range(steps):
            k1 = field(u)
            k2 = field([a + dt / 2 * b for a, b in zip(u, k1, strict=True)])
            k3 = field([a + dt / 2 * b for a, b in zip(u, k2, strict=True)])
            k4 = field([a + dt * b for a, b in zip(u, k3, strict=True)])
            u = [
                a + dt / 6 * (b + 2 * c + 2 * d + e) for a, b, c, d, e in zip(u, k1, k2, k3, k4, strict=True)
            ]
        return u
