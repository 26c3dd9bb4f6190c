"""Leaky ReLU algebra: eq. (8), Theorem 1, eq. (9), pairing identities, Corollary 10.

Convention: ``sigma(z) = max(z, alpha z)`` with ``alpha`` in ``[0, 1]`` (``alpha = 0``:
ReLU, ``alpha = 1``: identity).  Every ``*_residual*`` function returns SymPy
expressions that are exactly ``0`` when the identity holds (negative controls: nonzero).
"""

from __future__ import annotations

import itertools
from typing import Any

import sympy as sp

ALPHA = sp.Symbol("alpha", real=True)


def leaky_relu(z: Any, alpha: Any) -> sp.Expr:
    """``sigma(z) = max(z, alpha z)`` for ``alpha <= 1`` written as a Piecewise.

    ``z`` if ``z > 0`` else ``alpha z``; SymPy collapses it whenever the sign of ``z``
    is decidable (so ``sigma(0) = 0`` exactly).
    """
    z = sp.sympify(z)
    return sp.Piecewise((z, z > 0), (alpha * z, True))


def leaky_relu_derivative(z: Any, alpha: Any, kink: Any) -> sp.Expr:
    """``sigma'(z)``: 1 for ``z > 0``, ``alpha`` for ``z < 0`` and ``kink`` at ``z = 0``.

    The paper leaves ``sigma'(0)`` open in Section 4; Propositions 12/18 use
    ``kink = 0``; the pairing argument of Lemma 14 needs ``kink = (1 + alpha)/2``.
    """
    z = sp.sympify(z)
    return sp.Piecewise((1, z > 0), (kink, sp.Eq(z, 0)), (alpha, True))


def branch_slope(sign: int, alpha: Any, kink: Any) -> Any:
    """Slope of ``sigma`` on the branch with pre-activation sign ``sign`` (0: the kink)."""
    return {1: sp.Integer(1), -1: alpha, 0: kink}[sign]


# --------------------------------------------------------------------------- eq. (8)


def decomposition_residuals() -> dict[str, sp.Expr]:
    """Eq. (8) / footnote 1: ``Max(z, a z) - ((1+a)/2 z + (1-a)/2 |z|)`` for z > 0, z < 0.

    Only ``alpha <= 1`` is needed for ``Max`` to pick its branch, so ``alpha`` is
    written ``1 - gamma`` with ``gamma >= 0`` (this covers ``[0, 1]``).  Both residuals
    are 0.
    """
    gamma = sp.Symbol("gamma", nonnegative=True)
    alpha = 1 - gamma
    out = {}
    for case, z in (("z>0", sp.Symbol("z", positive=True)), ("z<0", sp.Symbol("z", negative=True))):
        printed = (1 + alpha) / 2 * z + (1 - alpha) / 2 * sp.Abs(z)
        out[case] = sp.simplify(sp.Max(z, alpha * z) - printed)
    return out


def decomposition_residual_alpha_above_one() -> dict[str, dict[str, sp.Expr]]:
    """Eq. (8) for ``alpha > 1`` (``alpha = 1 + gamma``, ``gamma > 0``).

    ``"printed"``: residual with the paper's coefficient ``(1-alpha)/2`` -- equals
    ``gamma z`` resp. ``-gamma z``, nonzero.  ``"corrected"``: with ``(alpha-1)/2`` the
    residual is 0, i.e. ``max(z, alpha z) = (1+alpha)/2 z + (alpha-1)/2 |z|``.
    """
    gamma = sp.Symbol("gamma", positive=True)
    alpha = 1 + gamma
    out: dict[str, dict[str, sp.Expr]] = {"printed": {}, "corrected": {}}
    for case, z in (("z>0", sp.Symbol("z", positive=True)), ("z<0", sp.Symbol("z", negative=True))):
        m = sp.Max(z, alpha * z)
        out["printed"][case] = sp.simplify(m - ((1 + alpha) / 2 * z + (1 - alpha) / 2 * sp.Abs(z)))
        out["corrected"][case] = sp.simplify(m - ((1 + alpha) / 2 * z + (alpha - 1) / 2 * sp.Abs(z)))
    return out


# ------------------------------------------------------------ Lemma 14 pair identities


def pairing_identities() -> dict[str, Any]:
    """Identities behind Lemma 14 / (38)-(39), from the branch definition of sigma.

    * ``"odd[z>0|z<0|z=0]"``: ``sigma(z) - sigma(-z) - (1+alpha) z`` (0 for all z);
    * ``"derivative[z>0|z<0]"``: ``sigma'(z) + sigma'(-z) - (1+alpha)`` (0 for z != 0);
    * ``"kink"``: the unique ``sigma'(0)`` making the derivative identity hold at 0,
      namely ``(1+alpha)/2`` (solve ``2 k = 1 + alpha``).
    """
    alpha = ALPHA
    k = sp.Symbol("k")
    out: dict[str, Any] = {}
    cases = (
        ("z>0", sp.Symbol("z", positive=True)),
        ("z<0", sp.Symbol("z", negative=True)),
        ("z=0", sp.Integer(0)),
    )
    for case, z in cases:
        out[f"odd[{case}]"] = sp.simplify(leaky_relu(z, alpha) - leaky_relu(-z, alpha) - (1 + alpha) * z)
        if z != 0:
            out[f"derivative[{case}]"] = sp.simplify(
                leaky_relu_derivative(z, alpha, k) + leaky_relu_derivative(-z, alpha, k) - 1 - alpha
            )
    (out["kink"],) = sp.solve(sp.Eq(2 * leaky_relu_derivative(0, alpha, k), 1 + alpha), k)
    return out


# -------------------------------------------------------------------------- Theorem 1


def _two_layer_symbols() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    """Symbolic H = 2, D = 2 net: ``W1`` (2x2), ``W2`` (1x2), input ``x`` (2x1)."""
    W1 = sp.Matrix(2, 2, lambda i, j: sp.Symbol(f"w1_{i + 1}{j + 1}", real=True))
    W2 = sp.Matrix(1, 2, lambda i, j: sp.Symbol(f"w2_{j + 1}", real=True))
    x = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"x_{i + 1}", real=True))
    return W1, W2, x


def _net_on_pattern(W2: sp.Matrix, z: sp.Matrix, signs: tuple[int, ...], scale: Any, flip: int) -> Any:
    """``f(flip * scale * x) = sum_h w_2h sigma(flip * scale * z_h)`` (``scale > 0``) on the
    region where ``sign(z_h) = signs[h]``: there sigma is the branch ``branch_slope``."""
    return sum(
        W2[h] * branch_slope(flip * signs[h], ALPHA, 0) * flip * scale * z[h] for h in range(len(signs))
    )


def theorem1_residuals() -> dict[tuple[int, int], dict[str, sp.Expr]]:
    """Theorem 1 (eq. 8) on a symbolic H = 2, D = 2 bias-free net, by case split.

    For each sign pattern ``(e1, e2)`` in {-1, 0, 1}^2 of the pre-activations
    ``z_h = w_1h^T x`` (``sigma`` is then linear on each unit and ``|z_h| = e_h z_h``):

    * ``"odd"``: ``(f(x) - f(-x))/2 - (1+alpha)/2 W2 W1 x``;
    * ``"even"``: ``(f(x) + f(-x))/2 - (1-alpha)/2 sum_h w_2h |w_1h^T x|``;
    * ``"homogeneous"``: ``g(a x) - a g(x)`` for the even part ``g`` and ``a > 0``
      (``a z_h`` has the sign of ``z_h``).

    On a pattern with zero pre-activations the constraints ``w_1h^T x = 0`` are solved
    for components of ``x`` and substituted, so the zero cases are checked on their
    actual region.  All residuals are 0 (``alpha`` free; the split is exhaustive).
    """
    W1, W2, x0 = _two_layer_symbols()
    a = sp.Symbol("a", positive=True)
    out = {}
    for signs in itertools.product((-1, 0, 1), repeat=2):
        zero_units = [h for h in range(2) if signs[h] == 0]
        solution = sp.solve([(W1[h, :] * x0)[0] for h in zero_units], list(x0)[: len(zero_units)], dict=True)
        x = x0.subs(solution[0]) if solution else x0
        z = W1 * x
        abs_z = [signs[h] * z[h] for h in range(2)]
        g = (1 - ALPHA) / 2 * sum(W2[h] * abs_z[h] for h in range(2))
        f_pos, f_neg = _net_on_pattern(W2, z, signs, 1, 1), _net_on_pattern(W2, z, signs, 1, -1)
        even_a = (_net_on_pattern(W2, z, signs, a, 1) + _net_on_pattern(W2, z, signs, a, -1)) / 2
        out[signs] = {
            "odd": sp.expand((f_pos - f_neg) / 2 - ((1 + ALPHA) / 2 * W2 * W1 * x)[0]),
            "even": sp.expand((f_pos + f_neg) / 2 - g),
            "homogeneous": sp.expand(even_a - a * (f_pos + f_neg) / 2),
        }
    return out


# ---------------------------------------------------------------------------- eq. (9)


def relu(z: Any) -> sp.Expr:
    """ReLU ``max(z, 0)`` (collapses whenever the sign of ``z`` is decidable)."""
    return sp.Max(sp.sympify(z), 0)


def eq9_g(x1: Any, x2: Any) -> sp.Expr:
    """Eq. (9): ``g(x) = relu(relu(x1) - relu(x2)) - relu(relu(-x1) - relu(-x2))``."""
    return relu(relu(x1) - relu(x2)) - relu(relu(-x1) - relu(-x2))


def eq9_cases() -> dict[str, tuple[sp.Expr, sp.Expr]]:
    """Exhaustive case regions of the plane for eq. (9), as exact symbolic points.

    ``x1 = s1 m1``, ``x2 = s2 m2`` with signs ``s_i`` in {-1, 0, 1} and, when both are
    nonzero, the magnitude order ``m1 > m2``, ``m1 < m2`` or ``m1 = m2``
    (``m`` and ``c`` positive symbols; ``m + c`` is the larger magnitude).  17 regions.
    """
    m, c = sp.Symbol("m", positive=True), sp.Symbol("c", positive=True)
    out = {}
    for s1, s2 in itertools.product((-1, 0, 1), repeat=2):
        if s1 == 0 or s2 == 0:
            out[f"s=({s1},{s2})"] = (s1 * m, s2 * m)
            continue
        for order, (m1, m2) in (("|x1|>|x2|", (m + c, m)), ("|x1|<|x2|", (m, m + c)), ("|x1|=|x2|", (m, m))):
            out[f"s=({s1},{s2}),{order}"] = (s1 * m1, s2 * m2)
    return out


def eq9_residuals() -> dict[str, dict[str, sp.Expr]]:
    """Eq. (9) is odd and positively homogeneous: per case region (``eq9_cases``)

    ``"odd"``: ``g(-x) + g(x)`` and ``"homogeneous"``: ``g(a x) - a g(x)`` (``a > 0``).
    Both are 0 in every region; ``"decided"`` is 1 when no ``Max`` survived (the
    region fixes every ReLU branch), so the zeros are not an artefact of unevaluated
    ``Max`` objects.
    """
    a = sp.Symbol("a", positive=True)
    out = {}
    for name, (x1, x2) in eq9_cases().items():
        g = eq9_g(x1, x2)
        out[name] = {
            "odd": sp.simplify(eq9_g(-x1, -x2) + g),
            "homogeneous": sp.simplify(eq9_g(a * x1, a * x2) - a * g),
            "decided": sp.Integer(int(not g.has(sp.Max))),
        }
    return out


def eq9_values() -> dict[str, sp.Expr]:
    """``g(1,0) = 1``, ``g(0,1) = 0``, ``g(1,1) = 0`` and the linearity defect
    ``g(1,1) - g(1,0) - g(0,1) = -1`` (nonzero: g is not linear)."""
    g10, g01, g11 = eq9_g(1, 0), eq9_g(0, 1), eq9_g(1, 1)
    return {"g(1,0)": g10, "g(0,1)": g01, "g(1,1)": g11, "linearity_defect": g11 - g10 - g01}


def eq9_three_layer_weights() -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    """Bias-free 3-layer ReLU weights realising eq. (9) (cataloger's construction):

    ``W1 = [[1,0],[0,1],[-1,0],[0,-1]]``, ``W2 = [[1,-1,0,0],[0,0,1,-1]]``,
    ``W3 = [[1,-1]]``; then ``W3 relu(W2 relu(W1 x)) = g(x)``.
    """
    W1 = sp.Matrix([[1, 0], [0, 1], [-1, 0], [0, -1]])
    W2 = sp.Matrix([[1, -1, 0, 0], [0, 0, 1, -1]])
    W3 = sp.Matrix([[1, -1]])
    return W1, W2, W3


def eq9_three_layer_residuals() -> dict[str, sp.Expr]:
    """Per case region: ``W3 relu(W2 relu(W1 x)) - g(x)``; 0 everywhere."""
    W1, W2, W3 = eq9_three_layer_weights()
    out = {}
    for name, (x1, x2) in eq9_cases().items():
        h = (W2 * (W1 * sp.Matrix([x1, x2])).applyfunc(relu)).applyfunc(relu)
        out[name] = sp.simplify((W3 * h)[0] - eq9_g(x1, x2))
    return out


# ----------------------------------------------------------------------- Corollary 10


def corollary10_cross_term() -> dict[str, sp.Expr]:
    """Proof of Corollary 10 on a symmetric pair ``(x, y), (-x, -y)`` (D = 2).

    ``f_e`` is the even part of a symbolic H = 2 two-layer net,
    ``(1-alpha)/2 sum_h c_h |v_h^T x|`` (``f_e(-x) = f_e(x)`` through ``Abs``).

    * ``"cross_term"``: ``(y - x^T w) f_e(x) + (-y + x^T w) f_e(-x)``;
    * ``"loss_split"``: pair loss ``(y - x^T w - f_e)^2 + ...`` minus the OLS part
      minus ``f_e(x)^2 + f_e(-x)^2``.

    Both are 0 (so ``L >= L_OLS`` for every two-layer bias-free net on Condition 3 data).
    """
    x = sp.Matrix(sp.symbols("x1 x2", real=True))
    w = sp.Matrix(sp.symbols("w1 w2", real=True))
    y = sp.Symbol("y", real=True)
    V = sp.Matrix(2, 2, lambda i, j: sp.Symbol(f"v_{i + 1}{j + 1}", real=True))
    c = sp.symbols("c1 c2", real=True)

    def f_e(v: sp.Matrix) -> Any:
        return (1 - ALPHA) / 2 * sum(c[h] * sp.Abs((V[h, :] * v)[0]) for h in range(2))

    lin = (x.T * w)[0]
    cross = (y - lin) * f_e(x) + (-y + lin) * f_e(-x)
    pair_loss = (y - lin - f_e(x)) ** 2 + (-y + lin - f_e(-x)) ** 2
    split = pair_loss - (y - lin) ** 2 - (-y + lin) ** 2 - f_e(x) ** 2 - f_e(-x) ** 2
    return {"cross_term": sp.expand(cross), "loss_split": sp.expand(split)}
