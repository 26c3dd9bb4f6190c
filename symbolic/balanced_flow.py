r"""Exact identities of two-layer ReLU gradient flow under balancedness (min2024 eq. (3), catalog C1-C2).

In a fixed activation region (indicators :math:`a_i\in\{0,1\}`, with :math:`\sigma(z)=a z`,
the positive homogeneity that holds for any fixed subgradient) and with a generic loss
derivative :math:`r_i=-\partial_{\hat y}\ell(y_i,f_i)` (SymPy symbols), one neuron obeys

.. math::  \dot w=v\sum_ia_ir_ix_i,\qquad \dot v=\sum_ia_ir_i\langle w,x_i\rangle .

The functions return residuals that are exactly zero:

* :func:`balancedness_rate` -- :math:`\frac{d}{dt}(v^2-\|w\|^2)`;
* :func:`direction_residual` -- :math:`P_w\dot w/\|w\|-sP_wg` at :math:`v=s\|w\|` (C1);
* :func:`log_norm_residual` -- :math:`\langle w,\dot w\rangle/\|w\|^2-s\langle w,g\rangle/\|w\|` (C2).
"""

from __future__ import annotations

import sympy as sp


def _neuron(D: int, n: int):
    w = sp.Matrix(sp.symbols(f"w0:{D}", real=True))
    xs = [sp.Matrix(sp.symbols(f"x{i}_0:{D}", real=True)) for i in range(n)]
    a = sp.symbols(f"a0:{n}", real=True)
    r = sp.symbols(f"r0:{n}", real=True)
    g = sum((a[i] * r[i] * xs[i] for i in range(n)), sp.zeros(D, 1))
    return w, xs, a, r, g


def balancedness_rate(D: int = 2, n: int = 3) -> sp.Expr:
    r""":math:`2v\dot v-2\langle w,\dot w\rangle` for a free :math:`v` (zero for every state)."""
    w, xs, a, r, g = _neuron(D, n)
    v = sp.Symbol("v", real=True)
    w_dot = v * g
    v_dot = sum(a[i] * r[i] * (w.T * xs[i])[0] for i in range(n))
    return sp.expand(2 * v * v_dot - 2 * (w.T * w_dot)[0])


def direction_residual(D: int = 2, n: int = 3) -> sp.Matrix:
    r""":math:`P_w\dot w/\|w\|-sP_wg` with :math:`v=s\|w\|`, :math:`s=\pm1` (both signs)."""
    w, _, _, _, g = _neuron(D, n)
    norm = sp.sqrt((w.T * w)[0])
    P = sp.eye(D) - w * w.T / norm**2
    out = []
    for s in (1, -1):
        out.append(((P * (s * norm * g)) / norm - s * P * g).applyfunc(sp.simplify))
    return sp.Matrix.vstack(*out)


def log_norm_residual(D: int = 2, n: int = 3) -> sp.Expr:
    r""":math:`\frac{d}{dt}\log\|w\|-s\langle\hat w,g\rangle` with :math:`v=s\|w\|`."""
    w, _, _, _, g = _neuron(D, n)
    s = sp.Symbol("s", real=True)
    norm = sp.sqrt((w.T * w)[0])
    return sp.simplify((w.T * (s * norm * g))[0] / norm**2 - s * (w.T * g)[0] / norm)
