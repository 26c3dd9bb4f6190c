r"""dana2025 Section 4.2 and App. A.4/A.6: group initialization and phase transitions.

Group initialization (9) on orthonormal inputs with symmetric :math:`|a_j(0)|=\|w_j(0)\|` reduces each
group to two scalars, the alignment :math:`z=\langle\bar D_j|s_j\bar w_j^+\rangle` and
:math:`v=\|w_j\|_+^2` (catalog (C4)); :mod:`symbolic.shallow_meanfield` derives their exact solution.

Claims: eqs. (67)/(69), Theorem 2 and Proposition 2, each as printed and corrected; Figure 2.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from numeric.backend import to_numpy
from numeric.data.weakly_correlated import group_init
from numeric.models.activation import RELU
from numeric.models.losses import Loss
from numeric.models.shallow_relu import ShallowReLU
from symbolic import shallow_meanfield as sym
from symbolic.to_numeric import lambdify_numeric
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.evidence import slope_shift
from verify.order_tolerance import ROUNDING as ORDER_ROUNDING
from verify.papers.dana2025.common import EPS, solve_with_error
from verify.papers.dana2025.hypotheses import GROUP_INIT, ONE_SIGN, ORTHONORMAL, PROP2_TIME
from verify.search import squash

SAFETY = 4.0


@functools.cache
def _loss_fn():
    r"""The group loss :func:`symbolic.shallow_meanfield.group_loss`, as a function of
    ``(t, n, p, D, z0, v0)``, in a form regular at :math:`z_0=1` (a group whose first layer is
    proportional to its labels, e.g. one example). With :math:`x=ct/2=\|D\|t/\sqrt{np}` and
    :math:`\beta=\mathrm{artanh}\,z_0` the closed form's :math:`1/\cosh^2\beta` factors cancel:
    :math:`F=\cosh^2(x+\beta)/\cosh^2\beta=(\cosh x+z_0\sinh x)^2`,
    :math:`\int_0^tF=\frac t2(1-z_0^2)+\frac{(1+z_0^2)\sinh2x+2z_0(\cosh2x-1)}{2c}` and
    :math:`1-z=\frac{2(1-z_0)}{1-z_0+(1+z_0)e^{2x}}`; printed with artanh, :math:`z_0=1` gave NaN."""
    t, n, p, D, z0, v0 = sp.symbols("t n p D z_0 v_0", positive=True)
    x, c = D * t / sp.sqrt(n * p), 2 * D / sp.sqrt(n * p)
    F = (sp.cosh(x) + z0 * sp.sinh(x)) ** 2
    intF = t * (1 - z0**2) / 2 + ((1 + z0**2) * sp.sinh(2 * x) + 2 * z0 * (sp.cosh(2 * x) - 1)) / (2 * c)
    f = v0 * F / (1 + 2 * v0 / (n * p) * intF) / (sp.sqrt(n * p) * D)
    one_minus_z = 2 * (1 - z0) / (1 - z0 + (1 + z0) * sp.exp(2 * x))
    return lambdify_numeric((t, n, p, D, z0, v0), D**2 / 2 * ((1 - f) ** 2 + 2 * f * one_minus_z))


def _zv_fns(printed: bool):
    s = sym.group_solution()
    t, c, z0, v0, n, p = sp.symbols("t c z_0 v_0 n p", positive=True)
    zk, vk = ("z_printed", "v_printed") if printed else ("z", "v")
    return lambdify_numeric((t, c, z0, v0, n, p), s[zk]), lambdify_numeric((t, c, z0, v0, n, p), s[vk])


def t_n(n, p):
    r"""Theorem 2's time scale :math:`t_n=\frac{\sqrt{np}}4\log(np)`."""
    return np.sqrt(n * p) / 4 * np.log(n * p)


def crossing_times(n: np.ndarray, p: int, D: float, z0: float, v0: float, eps: float) -> np.ndarray:
    r"""Times :math:`t^j_n(\varepsilon)` with :math:`L^j=\frac\varepsilon2\|D\|^2` (bisection, 100 halvings).

    :math:`L^j` is non-increasing along the decoupled group flow, so the crossing is unique."""
    f = _loss_fn()
    a, b = np.zeros_like(n, dtype=float), 20 * t_n(n, p) / D
    for _ in range(100):
        m = (a + b) / 2
        above = f(m, n, p, D, z0, v0) > eps * D**2 / 2
        a, b = np.where(above, m, a), np.where(above, b, m)
    return (a + b) / 2


# ------------------------------------------------------------------ simulation of groups


def group_regime(ctx: Context, V: np.ndarray, a: np.ndarray, labels: np.ndarray, k: int) -> None:
    """Record the hypotheses of (9) on one group initialization ``V`` (1, p, n = pk) on x_i = e_i."""
    p = V.shape[1]
    on = np.kron(np.eye(p), np.ones(k)).astype(bool)  # neuron j on group j
    wn = np.linalg.norm(V[0], axis=1)
    ctx.regime(ORTHONORMAL, gram_dev=0.0)  # x_i = e_i: the orthogonal model is run with unit norms
    ctx.regime(
        GROUP_INIT,
        on_min=V[0][on].min(),
        off_max=V[0][~on].max(),
        asym=float((np.abs(np.abs(a[0]) - wn) / wn).max()),
    )
    signs = np.sign(a[0])
    ctx.regime(ONE_SIGN, sy_min=float((signs[:, None] * labels.reshape(p, k)).min()))


def _group_sim(
    ctx: Context,
    k: int,
    p: int,
    labels: np.ndarray,
    gammas: np.ndarray,
    T: float,
    extra=None,
    record: bool = True,
):
    r"""DOPRI5 of the full orthogonal system (x_i = e_i) from a group initialization, at rtol 1e-8 and 1e-10.

    Returns ``ts``, per-group ``z`` and ``v`` (B=1, T, p) and the loss (T,) of the rtol-1e-8 solve, and
    its error estimates (max |difference| to the rtol-1e-10 solve on the refined output grid, per
    quantity). :math:`\sigma'(0)=0` (the paper's :math:`\sigma'(x)=\mathbb 1_{x>0}`, Section 2): the
    exact zeros of (9) off the group then stay inactive. ``extra``: (j, i, value) set <w_j|x_i> = value
    off-group (breaks (9)); ``record``: record the hypotheses of (9) on this initialization (not inside a
    control)."""
    be = ctx.backend
    n = p * k
    signs = np.sign(labels.reshape(p, k)[:, 0])
    V, a = group_init(gammas[None], signs[None])
    if extra is not None:
        j, i, val = extra
        V[0, j, i] = val
        a = signs[None] * np.linalg.norm(V[0], axis=1)[None]
    if record:
        group_regime(ctx, V, a, labels, k)
    model = ShallowReLU(p, n, "orthogonal", kink=0.0)
    args = model.args(be, np.ones(n), labels, wperp2=np.zeros((1, p)))
    ts = np.linspace(0.0, T, 61)
    fine, diff = solve_with_error(model, be.asarray(model.pack((V, a))), args, ts, rtol=1e-8)
    out = []
    for ys in (fine[0], fine[0] + diff[0]):  # the refined and the coarse solve
        U = ys[:, : p * n].reshape(len(ts), p, n)
        Ug = np.stack([U[:, j, j * k : (j + 1) * k] for j in range(p)], axis=1)  # (T, p, k)
        yg = labels.reshape(p, k)
        Dbar = yg / np.linalg.norm(yg, axis=1, keepdims=True)
        v = (Ug**2).sum(-1)
        z = np.einsum("tjk,jk->tj", Ug, Dbar * signs[:, None]) / np.sqrt(v)
        at = ys[:, p * n :]
        h = np.einsum("tj,tji->ti", at, RELU.value(U)) / p
        L = Loss("square").value(h, labels[None])
        out.append((z, v, L))
    err = [float(np.abs(out[0][q] - out[1][q]).max()) for q in range(3)]
    return ts, out[1], err


def _group_problem(rng: np.random.Generator, k: int, p: int, mixed: bool = False):
    """Labels +-U[1, 2] with one sign per group (``mixed``: group 0's first label flipped; the group's neuron
    takes the sign of its first label (:func:`_group_sim`), so it has the sign of 1 of its k labels), gammas
    > 0."""
    signs = np.where(np.arange(p) % 2 == 0, 1.0, -1.0)
    labels = (signs[:, None] * rng.uniform(1, 2, (p, k))).reshape(-1)
    if mixed:
        labels[0] = -labels[0]
    return labels, rng.uniform(0.2, 1.0, (p, k))


def _closed_form_errors(ctx: Context, printed: bool, ks, p: int, key: str, extra=None, mixed=False):
    """Max deviation of the closed forms (corrected or printed) from the simulation, and tolerances."""
    fz, fv = _zv_fns(printed)
    rows = []
    rng = ctx.rng(key).host
    for k in ks:
        labels, gammas = _group_problem(rng, k, p, mixed)
        n = p * k
        yg = labels.reshape(p, k)
        Dn = np.linalg.norm(yg, axis=1) / np.sqrt(k)
        T = 2.5 * t_n(n, p) / Dn.min()
        record = extra is None and not mixed  # a control's broken setup says nothing of the regime
        ts, (z, v, _), err = _group_sim(ctx, k, p, labels, gammas, T, extra, record=record)
        c = 2 * np.sqrt(k) * Dn / n
        z_cf = np.stack([fz(ts, c[j], z[0, j], v[0, j], n, p) for j in range(p)], axis=1)
        v_cf = np.stack([fv(ts, c[j], z[0, j], v[0, j], n, p) for j in range(p)], axis=1)
        rows.append((k, float(np.abs(z - z_cf).max()), float(np.abs(v / v_cf - 1).max()), err, ts, v, v_cf))
    return rows


# ------------------------------------------------------------------ eqs. (67), (69)


def closed_form_tolerances(rows) -> list[tuple[float, float]]:
    """Per row, the tolerances of :func:`_check_closed_forms` for z and for v / v_closed - 1.

    The simulated z, v are those of the rtol-1e-8 solve; ``err`` is its difference to the rtol-1e-10 solve
    on a refined output grid, an estimate of its error (the refined solve's error is >= MIN_GAIN = 10x
    smaller): SAFETY = 4 x that + rounding. For v relative: max|dv| / min v of the same row (v >= its
    minimum over the run at every time)."""
    return [
        (SAFETY * err[0] + 100 * EPS, SAFETY * err[1] / v.min() + 100 * EPS) for _, _, _, err, _, v, _ in rows
    ]


def _check_closed_forms(ctx: Context, rows, label: str, tols=None) -> None:
    """The closed forms against the simulation, row by row; ``tols``: the main run's tolerances (for a
    control, whose checks use the main run's tolerance, never one derived from its own data)."""
    own = tols is None
    for (k, dz, dv, *_), (tz, tv) in zip(rows, closed_form_tolerances(rows) if own else tols, strict=True):
        whose = "this solve" if own else "the main run's solve at the same k"
        ctx.close(
            f"{label}: max_t,j |z_sim - z_closed| (k = {k} examples per group, p = 2)",
            dz,
            0.0,
            atol=tz,
            why=f"DOPRI5 at rtol 1e-8; tolerance = 4 x its difference to an rtol-1e-10 solve on a refined "
            f"output grid (an upper estimate of its error) + 100 eps, for {whose}",
        )
        ctx.close(
            f"{label}: max_t,j |v_sim / v_closed - 1| (k = {k})",
            dv,
            0.0,
            atol=tv,
            why=f"as above, relative to the smallest v of {whose}",
        )


@claim(
    "dana2025:equation-69-corrected",
    title="Eqs. (67), (69) corrected: z = tanh(ct/2 + artanh z0), v = v0 F / (1 + 2 v0/(np) int F)",
    source="Proposition 2 proof, App. A.4, eqs. (66)-(69); catalog (C4)",
    statement=r"Under group initialization with symmetric $|a_j|=\|w_j\|$ and one label sign per group, "
    r"$\dot z=\frac c2(1-z^2)$ and $\dot v=v(cz-\frac{2v}{np})$ with $c=2\sqrt{k_n}\|D^n_j\|/n$, solved by "
    r"$z=\tanh(\frac{ct}2+\beta)$, $\beta=\mathrm{artanh}\,z_0$, "
    r"$v=\frac{v_0F}{1+\frac{2v_0}{np}\int_0^tF}$, "
    r"$F=\cosh^2(\frac{ct}2+\beta)/\cosh^2\beta$; $v\to P=p\sqrt{k_n}\|D^n_j\|$.",
    hypotheses=[ORTHONORMAL, GROUP_INIT, ONE_SIGN],
)
def equation_69_corrected(ctx: Context) -> None:
    ks = ctx.param("k_grid", tiny=[4], quick=[4, 16], full=[4, 16, 64, 256])
    res = sym.group_residuals()
    for key in (
        "z ode",
        "z(0)",
        "F' = c z F",
        "(int F)' = F",
        "v = v0 F/(1 + 2 v0/(np) int F) solves v' = v (c z - 2v/(np))",
        "v(0)",
        "v limit",
    ):
        ctx.zero(f"corrected closed form: {key}", res[key], why="exact SymPy simplification")
    rows = _closed_form_errors(ctx, False, ks, 2, "eq69")
    _check_closed_forms(ctx, rows, "corrected closed form vs full system")
    tols = closed_form_tolerances(rows)
    *_, ts, v, v_cf = rows[-1]
    ctx.figure(
        "v = ||w_j||_+^2: simulation and closed forms (largest k)",
        xlabel="t",
        ylabel="v",
        series=[Series(f"simulation, group {j}", ts, v[:, j], "o") for j in range(2)]
        + [Series(f"corrected closed form, group {j}", ts, v_cf[:, j]) for j in range(2)],
    )
    with ctx.control(
        "neuron 0 also active on one example of group 1",
        breaks=GROUP_INIT,
        must_break=["corrected closed form vs full system*"],
    ):
        rows = _closed_form_errors(ctx, False, ks[:1], 2, "eq69", extra=(0, 2 * ks[0] - 1, 0.5))
        _check_closed_forms(ctx, rows, "corrected closed form vs full system", tols[:1])


@claim(
    "dana2025:equation-69",
    title="Eqs. (67), (69) as printed: z = (sinh ct + z0 cosh ct)/(cosh ct + z0 sinh ct), v = P v0 "
    "(...)/(...)",
    source="Proposition 2 proof, App. A.4, eqs. (67), (69); used by (71)-(74), (80)-(83)",
    statement=r"$\langle\bar D^n_j|s_j\bar "
    r"w^+_j\rangle=\frac{\sinh(c^j_nt)+z_0\cosh(c^j_nt)}{\cosh(c^j_nt)+z_0\sinh(c^j_nt)}$ and "
    r"$\|w_j(t)\|_+^2=\frac{P "
    r"v_0(\cosh(c^j_nt)+z_0\sinh(c^j_nt))}{P+v_0(\sinh(c^j_nt)+z_0(\cosh(c^j_nt)-1))}$.",
    hypotheses=[ORTHONORMAL, GROUP_INIT, ONE_SIGN],
    erratum=Erratum(
        r"(67) solves $\dot z=c(1-z^2)$, but (66) gives $\dot z=\frac c2(1-z^2)$ "
        r"($c=c^j_n=2\sqrt{k_n}\|D^n_j\|/n$); "
        r"(69) inherits the error. Both are exact only for $z_0=1$. The late-phase rate $c$ is unchanged, so "
        r"Theorem 2's limits survive (dana2025:theorem-2-corrected)",
        via="found by this verification: symbolic ODE residual and full-system simulation",
        shown_by=("(67) as printed*", "printed closed form vs full system*"),
    ),
)
def equation_69(ctx: Context) -> None:
    k_grid = ctx.param("k_grid", tiny=[4], quick=[4, 16], full=[4, 16, 64])
    res = sym.group_residuals()
    ctx.close(
        "(67) as printed: dz/dt - (c/2)(1 - z^2) at c = 1, z0 = 1/2, t = 1",
        float(res["(67) printed, z ode at a point"]),
        0.0,
        atol=1e-30,
        why="40-digit evaluation",
    )
    rows = _closed_form_errors(ctx, True, k_grid, 2, "eq69")
    _check_closed_forms(ctx, rows, "printed closed form vs full system")
    ctx.zero("(67) equals the corrected form at z0 = 1", res["(67) = corrected at z0 = 1"], why="exact")
    ctx.zero("(69) solves the flow at z0 = 1", res["(69) solves the flow at z0 = 1"], why="exact")


# ------------------------------------------------------------------------- Theorem 2

NS = 10.0 ** np.array([4, 6, 9, 12, 18, 24, 30])
Z0, V0, EPS_T2 = 0.3, 1.0, 0.1


def _window_measured(D: float, p: int, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Exact :math:`t^j_n(\varepsilon)`, :math:`t^j_n(1-\varepsilon)` of one group (closed form)."""
    return crossing_times(n, p, D, Z0, V0, EPS_T2), crossing_times(n, p, D, Z0, V0, 1 - EPS_T2)


# Theorem 2's limits hold for every initialization of the group (the window's constant "independent of the
# initialization"): searched over the initial alignment z0 = <D_j|s_j w_j^+>/(||D_j|| ||w_j^+||) (in (0, 1]
# under (9) with one label sign per group; z0 = 1, a group whose first layer is proportional to its labels,
# included: _loss_fn is regular there), v0 = ||w_j(0)||_+^2 and ||D_j||.
T2_Z0, T2_V0, T2_D = (1e-3, 1.0), (1e-3, 1e3), (0.25, 4.0)
# The closed form's corrections to the window are O(1/P) and O(v0/P), P = sqrt(np) ||D|| the limit of v
# (measured over z0 in {1e-3, 0.3, 0.9, 0.999}, v0 in {1e-3, 1, 1e3}, ||D|| in {0.5, 1, 2, 4}: the relative
# deviation is at most 2.2 v0/P where it is above rounding; 1.3e-2 at v0 = 1e3, n = 1e9). It is read where
# max(1, v0)/P <= 1e-4, so the corrections are <= 2.2e-4, a factor >= 4.5 below the tolerance 1e-3.
T2_WINDOW_CUT, T2_WINDOW_TOL = 1e-4, 1e-3
# The location t(eps)/t_n -> 1/||D|| with error O(1/log n): e log(np), e = t(eps)/t_n - 1/||D||, converges to
# a constant that depends on the initialization (3.27 at z0 = 0.3, v0 = 1, ||D|| = 1; -0.32 at z0 = 0.5,
# ||D|| = 0.25; 0 near ||D|| = 0.26, where a fitted order -1 does not apply). Read as the Cauchy difference of
# e log(np) between n = 1e24 and 1e30 relative to max(1, |e log(np)|): the closed form's corrections are
# O(log(np) max(1, v0)/P) <= 2e-7 there; an error ~ 1/sqrt(log n) gives 0.105, ~ log log n / log n 0.052, a
# location limit off 1/||D|| 0.20 -- tolerance 1e-3.
T2_LOCATION_TOL = 1e-3


def location_order_tolerance(x: np.ndarray, e: np.ndarray) -> tuple[float, float, float]:
    r"""Tolerance of the fitted order -1 of :math:`e=|t(\varepsilon)/t_n-1/\|D\||` in :math:`x=\log(np)`,
    and the fitted coefficients :math:`\rho_1,\rho_2`.

    :math:`t(\varepsilon)=\frac1c\log\frac{A(1-\sqrt\varepsilon)}{\sqrt\varepsilon}` in the logistic phase,
    :math:`\log A=\frac x2+\log(\|D\|h(z_0,v_0))` up to the corrections of the corrected closed form at
    the transition: :math:`1-z=O(1/P)` and the :math:`\frac t2(1-z_0^2)` part of :math:`\int_0^tF`,
    :math:`O(\log P/P)`, with :math:`P=\sqrt{np}\|D\|`. So :math:`ex=a(1+(\rho_1+\rho_2x)e^{-x/2})`: no
    :math:`1/x^2` term. :math:`\rho_1,\rho_2` are the least-squares coefficients of that law on the same
    points, and the tolerance is twice the slope shift (:func:`verify.evidence.slope_shift`) of the
    relative deviations :math:`(|\rho_1|+|\rho_2|x_i)e^{-x_i/2}` plus rounding
    (:data:`verify.order_tolerance.ROUNDING`), as :func:`verify.order_tolerance.next_order_tolerance` does
    for a power-law next term (a law of another order leaves deviations of order one: a tolerance too wide
    to decide, never a PASS)."""
    u = np.exp(-x / 2)
    (a, c1, c2), *_ = np.linalg.lstsq(np.stack([np.ones_like(x), u, x * u], axis=1), e * x, rcond=None)
    rho1, rho2 = float(c1 / a), float(c2 / a)
    return 2 * slope_shift(x, (abs(rho1) + abs(rho2) * x) * u + ORDER_ROUNDING), rho1, rho2


def window_constant(eps: float) -> float:
    r""":math:`\mathcal C(\varepsilon)=\frac{(1-\sqrt\varepsilon)\sqrt{1-\varepsilon}}{\sqrt\varepsilon
    (1-\sqrt{1-\varepsilon})}` of the corrected window (catalog (C6))."""
    return float((1 - np.sqrt(eps)) * np.sqrt(1 - eps) / (np.sqrt(eps) * (1 - np.sqrt(1 - eps))))


def t2_instance(theta: np.ndarray) -> tuple[float, float, float]:
    """(z0, v0, ||D||) of one group: z0 by a sigmoid onto ``T2_Z0``, v0 and ||D|| log-uniform (sigmoid)."""
    z0 = squash(theta[0], *T2_Z0)
    v0 = float(np.exp(squash(theta[1], *np.log(T2_V0))))
    D = float(np.exp(squash(theta[2], *np.log(T2_D))))
    return z0, v0, D


def t2_deviations(z0: float, v0: float, D: float, p: int = 2) -> tuple[float, float]:
    r"""Theorem 2's two limits for one group (closed form, p groups): (the largest relative deviation of
    the window :math:`\frac{t(\varepsilon)-t(1-\varepsilon)}{t_n}\log(np)` from
    :math:`\frac2{\|D\|}\log\mathcal C(\varepsilon)` over the ``NS`` with :math:`\max(1,v_0)/P\le`
    ``T2_WINDOW_CUT``, the relative Cauchy difference of :math:`e\log(np)`,
    :math:`e=t(\varepsilon)/t_n-1/\|D\|`, between the last two ``NS``); NaN where a crossing is not
    finite."""
    eps = EPS_T2
    with np.errstate(over="ignore", invalid="ignore"):  # cosh^2 / sinh of late times overflow: L ~ 0 there
        t1 = crossing_times(NS, p, D, z0, v0, eps)
        t2 = crossing_times(NS, p, D, z0, v0, 1 - eps)
    if not (np.all(np.isfinite(t1)) and np.all(np.isfinite(t2))):
        return np.nan, np.nan
    window = (t1 - t2) / t_n(NS, p) * np.log(NS * p) / (2 / D * np.log(window_constant(eps))) - 1
    scaled = (t1 / t_n(NS, p) - 1 / D) * np.log(NS * p)  # e log(np)
    location = abs(scaled[-1] - scaled[-2]) / max(1.0, abs(scaled[-1]))
    return float(np.abs(window[max(1.0, v0) / (np.sqrt(NS * p) * D) <= T2_WINDOW_CUT]).max()), location


def t2_init_ratio(theta: np.ndarray) -> float:
    """Violation ratio of Theorem 2's limits at the initialization theta: the larger of the window's
    deviation / ``T2_WINDOW_TOL`` and the location's Cauchy difference / ``T2_LOCATION_TOL``."""
    window, location = t2_deviations(*t2_instance(theta))
    return max(window / T2_WINDOW_TOL, location / T2_LOCATION_TOL)


def t2_starts() -> dict[str, list[np.ndarray]]:
    """Families of (logit z0, logit log v0, logit log ||D||): the centre of the searched box and four of
    its corners."""
    lo, mid, hi = -6.0, 0.0, 6.0
    return {
        "centre (z0 ~ 1/2, v0 ~ 1, ||D|| ~ 1)": [np.array([mid, mid, mid])],
        "nearly orthogonal start (z0 -> 0), small v0": [np.array([lo, lo, mid])],
        "nearly aligned start (z0 -> 1), large v0": [np.array([hi, hi, mid])],
        "large v0 (||w_j(0)||_+^2 ~ 1e3), small ||D||": [np.array([mid, hi, lo])],
        "small v0 (~ 1e-3), large ||D||": [np.array([mid, lo, hi])],
    }


def _L_inf(t: np.ndarray, Ds) -> np.ndarray:
    r""":math:`L_\infty(t)=\frac1p\sum_j\frac{\|D_j\|^2}2\mathbb 1[t<1/\|D_j\|]` (catalog (C6))."""
    return sum(D**2 / 2 * (t < 1 / D) for D in Ds) / len(Ds)


def _L_n(t: np.ndarray, n: float, Ds) -> np.ndarray:
    """Rescaled loss L_n(t) = L(theta(t t_n)) of p groups with norms Ds (closed form)."""
    f, p = _loss_fn(), len(Ds)
    return sum(f(t * t_n(n, p), n, p, D, Z0, V0) for D in Ds) / p


# L_n -> L_inf away from the jumps, read on the sup over t at least T2_GAP from every jump. Before the first
# jump, at t = 1/||D|| - delta, a group's loss is L^j = (||D||^2/2)(1 - 2 z u + u^2) with u = v/P logistic,
# u = g/(1 + g), g proportional to (np)^(-a), a = delta ||D||/2, and 1 - z = O((np)^(-||D|| t)) far smaller:
# L^j - ||D||^2/2 = -||D||^2 g (1 - 3g/2 + O(g^2)). After a jump the error is (||D||^2/2)(1 - u)^2 ~
# (np)^(-2a), and another group's before its jump decays as (np)^(-delta ||D_2||/2): the sup is led by the
# smallest ||D|| at its latest grid time before its jump. So S(n) = sup (np)^a -> a constant with relative
# correction -3g/2, g = p sup/||D||^2: the relative Cauchy difference of S between n = 1e24 and 1e30 is
# (3/2)(g(1e24) - g(1e30)) + O(g^2) <= (3/2) g(1e24) (g(1e30) >> g(1e24)^2). A limit other than L_inf (a
# sup tending to c > 0) gives (1e6)^a - 1 = 3.1, a slower rate (np)^(-a/2) 1.0, an extra log n factor 0.25.
T2_GAP = 0.2


def sup_convergence(ctx: Context, Ds: tuple[float, ...]) -> None:
    r"""Theorem 2's :math:`L_n(t)\to L_\infty(t)` (:math:`t` away from the jumps): the sup error times its
    derived rate :math:`(np)^a` converges (relative Cauchy difference between the last two ``NS`` against
    the tolerance derived above), so the sup error tends to 0 (closed form)."""
    p = len(Ds)
    tt = np.linspace(0.0, 1.6, 321)
    away = np.min([np.abs(tt - 1 / D) for D in Ds], axis=0) > T2_GAP
    errs = np.array([np.abs(_L_n(tt, n, Ds) - _L_inf(tt, Ds))[away].max() for n in NS])
    D = min(Ds)
    a = D * (1 / D - tt[away & (tt < 1 / D)].max()) / 2
    scaled = errs * (NS * p) ** a
    ctx.figure(
        "sup over t of |L_n(t) - L_inf(t)| and its derived rate",
        xlabel="n",
        ylabel="sup error",
        logx=True,
        logy=True,
        series=[
            Series("measured", NS, errs, "o"),
            Series(f"{scaled[-1]:.3g} (np)^-{a:g}", NS, scaled[-1] * (NS * p) ** -a, "--"),
        ],
    )
    g = p * errs[-2] / D**2
    ctx.bound(
        f"sup over t ({T2_GAP} away from the jumps) of |L_n(t) - L_inf(t)| -> 0 at the rate (np)^-{a:g} "
        f"(closed form, p = {p}, ||D|| = {', '.join(f'{d:g}' for d in Ds)}): relative Cauchy difference of "
        "sup x (np)^a between n = 1e24 and 1e30",
        abs(scaled[-1] - scaled[-2]) / scaled[-1],
        1.5 * g,
        why="the paper states L_n -> L_inf; before the first jump the error is ||D||^2 g (1 - 3g/2 + "
        f"O(g^2)), g ~ (np)^-a, a = ||D|| delta/2 = {a:g} at the latest grid time delta before the jump of "
        f"||D|| = {D:g} (every other part decays faster), so sup x (np)^a converges with relative Cauchy "
        f"difference (3/2)(g(1e24) - g(1e30)) <= (3/2) g(1e24), g(1e24) = p sup/||D||^2 = {g:.3g}",
        resolution="a limit other than L_inf (the sup tending to c > 0: difference 3.1), a rate (np)^(-a/2) "
        "(1.0) or an extra log n factor (0.25)",
        details={"n": NS, "sup error": errs, "sup x (np)^a": scaled, "a": a},
    )


@claim(
    "dana2025:theorem-2-corrected",
    title="Theorem 2 corrected: transitions at t_n/||D_j||, window (2/||D_j||) log C(eps) t_n / log(np)",
    source="Theorem 2 (Section 4.2), eq. (12); proof App. A.6, (80)-(87); catalog (C6)",
    statement=r"With $t_n=\frac{\sqrt{np}}4\log(np)$ and $p$ fixed, $L_n(t)=L(\theta(tt_n))\to L_\infty(t)="
    r"\frac1p\sum_j\frac{\|D^\infty_j\|^2}2\mathbb 1[t<1/\|D^\infty_j\|]$; "
    r"$t^j_n(\varepsilon)/t_n\to1/\|D^\infty_j\|$ with "
    r"an error $O(1/\log n)$; and "
    r"$\frac{t^j_n(\varepsilon)-t^j_n(1-\varepsilon)}{t_n}\log(np)\to\frac2{\|D^\infty_j\|}"
    r"\log\mathcal C(\varepsilon)$, $\mathcal C(\varepsilon)=\frac{(1-\sqrt\varepsilon)\sqrt{1-\varepsilon}}"
    r"{\sqrt\varepsilon(1-\sqrt{1-\varepsilon})}$, independent of the initialization.",
    hypotheses=[ORTHONORMAL, GROUP_INIT, ONE_SIGN],
)
def theorem_2_corrected(ctx: Context) -> None:
    ks = ctx.param("k_grid", tiny=[8], quick=[8, 32], full=[8, 32, 128])
    budget = ctx.param("budget", tiny=12, quick=60, full=400)
    lw = sym.logistic_window()
    ctx.zero(
        "t(eps)/t_n -> 1/||D|| (logistic late phase, exact limit)", lw["time ratio residual"], why="SymPy"
    )
    ctx.zero("window log(np)/t_n = (2/||D||) log C(eps) (exact)", lw["window residual"], why="SymPy")
    p, Ds = 2, (1.0, 2.0)
    eps = EPS_T2
    calC = window_constant(eps)
    for D in Ds:
        t1, t2 = _window_measured(D, p, NS)
        x, e = np.log(NS * p), np.abs(t1 / t_n(NS, p) - 1 / D)
        tol, rho1, rho2 = location_order_tolerance(x, e)
        ctx.order(
            f"|t_n(eps)/t_n - 1/||D|||, ||D|| = {D:g}, eps = {eps} (closed form, n = 1e4..1e30) vs log(np)",
            x,
            e,
            expected=-1.0,
            tol=tol,
            why="t(eps) = (1/c) log(A (1-sqrt eps)/sqrt eps) in the logistic phase, A ~ P = sqrt(np) ||D||, "
            "up to corrections O(1/P) and O(log P/P), so t/t_n - 1/||D|| = (a / log(np)) (1 + (rho1 + rho2 "
            "log(np)) (np)^-1/2): slope -1 in log(np), no 1/log(np)^2 term. Tolerance derived "
            f"(location_order_tolerance): rho1 = {rho1:.3g}, rho2 = {rho2:.3g} fitted on the same points, "
            "twice the slope shift (verify.evidence.slope_shift) of the relative deviations (|rho1| + |rho2| "
            "log(np)) (np)^-1/2 + 16 eps from the pure law",
            xlabel="log(np)",
            ylabel="|t/t_n - 1/||D|||",
        )
        big = NS >= 1e9
        w = (t1 - t2) / t_n(NS, p) * np.log(NS * p)
        ctx.close(
            f"window x log(np)/t_n vs (2/||D||) log C(eps) = {2 / D * np.log(calC):.5f}, ||D|| = {D:g}, n >= "
            f"1e9",
            w[big] / (2 / D * np.log(calC)) - 1,
            0.0,
            atol=1e-3,
            why="the corrections are 1 - z = O(1/P) = O((np)^-1/2) at the transition (< 1e-4 at n = 1e9) and "
            "the bisection error 20 t_n 2^-100",
            details={"n": NS, "window x log(np)/t_n": w},
        )
    ctx.search(
        "search: window x log(np)/t_n vs (2/||D||) log C(eps) and the location's O(1/log n) over "
        "initializations (z0, v0) and ||D||",
        t2_init_ratio,
        t2_starts(),
        budget=budget,
        why=f"both limits for every initialization: Nelder-Mead over z0 in {T2_Z0}, v0 in {T2_V0} and ||D|| "
        f"in {T2_D} (p = {p}, eps = {eps}); ratio = max(|window / ((2/||D||) log C) - 1| / {T2_WINDOW_TOL:g} "
        f"over n in 1e4..1e30 with max(1, v0)/P <= {T2_WINDOW_CUT:g} (P = sqrt(np) ||D||; the corrections "
        "are O(max(1, v0)/P), measured coefficient <= 2.2), |Delta(e log(np))| / max(1, |e log(np)|) "
        f"between n = 1e24 and 1e30 / {T2_LOCATION_TOL:g}, e = t(eps)/t_n - 1/||D|| (the corrections there "
        "are <= 2e-7)): a window that moves with the initialization by more than 0.1%, or a location error "
        "decaying slower than 1/log n (1/sqrt(log n) gives 0.105, log log n / log n 0.052), is caught. The "
        "fitted order -1 above applies at the reference initialization only: e log(np)'s limit depends on "
        "the initialization and vanishes near z0 = 0.5, v0 = 1, ||D|| = 0.26",
    )
    sup_convergence(ctx, Ds)
    tols = _check_final_loss(ctx, ks, mixed=False)
    with ctx.control(
        "group 0 has one label of the wrong sign",
        breaks=ONE_SIGN,
        must_break=["simulated loss vs closed form*"],
    ):
        _check_final_loss(ctx, ks[:1], mixed=True, tols=tols[:1])


def _check_final_loss(ctx: Context, ks, *, mixed: bool, tols=None) -> list[float]:
    r"""The simulated loss over :math:`[0,3t_n/\min_j\|D_j\|]` against the closed form (the end value over
    :math:`L_\infty(0)` is noted, not checked: that the loss past the last transition is small follows
    from the closed form the check compares with, and the rate of :math:`L_n\to L_\infty` is checked
    separately; a fixed fraction for it would be a threshold chosen from the runs).

    Returns the closed-form comparison's tolerance per k; ``tols``: the main run's (a control's checks use
    the main run's tolerance; its instance is the main run's first one with one label flipped, the same
    draws of the key "t2-sim")."""
    f = _loss_fn()
    rng = ctx.rng("t2-sim").host
    used = []
    for i, k in enumerate(ks):
        p = 2
        labels, gammas = _group_problem(rng, k, p, mixed)
        n = p * k
        yg = labels.reshape(p, k)
        Dn = np.linalg.norm(yg, axis=1) / np.sqrt(k)
        ts, (z, v, L), err = _group_sim(ctx, k, p, labels, gammas, 3 * t_n(n, p) / Dn.min(), record=not mixed)
        cf = sum(f(ts, n, p, Dn[j], z[0, j], v[0, j]) for j in range(p)) / p
        used.append(SAFETY * err[2] + 100 * EPS * L.max() if tols is None else tols[i])
        ctx.close(
            f"simulated loss vs closed form over [0, 3 t_n/min||D||], k = {k}, p = 2 (final closed-form "
            f"value "
            f"{cf[-1]:.2g})",
            np.abs(L - cf).max(),
            0.0,
            atol=used[-1],
            why="DOPRI5 at rtol 1e-8; tolerance = 4 x its difference to an rtol-1e-10 solve on a refined "
            "output grid + 100 eps max L"
            + ("" if tols is None else ", of the main run's solve at the same k")
            + "; the closed form is exact",
        )
        plateau = float((Dn**2).sum() / (2 * p))  # L_inf(0)
        ctx.note(
            f"k = {k}, p = 2{' (a group of mixed signs)' if mixed else ''}: simulated L(3 t_n/min||D||) / "
            f"L_inf(0) = {float(L[-1]) / plateau:.3g} (L_inf(0) = {plateau:.3g})"
        )
    return used


@claim(
    "dana2025:theorem-2",
    title="Theorem 2 as printed: window (t(1-eps) - t(eps))/t_n ~ (1/(2||D||)) log C^j(eps) / log n",
    source="Theorem 2, eq. (12); App. A.6, (84)-(87)",
    statement=r"$\frac{t^j_n(1-\varepsilon)-t^j_n(\varepsilon)}{t_n}\sim\frac1{2\|D^\infty_j\|}\frac{\log "
    r"C^j(\varepsilon)}"
    r"{\log n}$ with "
    r"$C^j(\varepsilon)=\frac{1-\sqrt\varepsilon}{1+\|D\|(1-\sqrt\varepsilon)}\frac{1+\|D\|(1-\sqrt{1-\varepsilon})}"
    r"{1-\sqrt{1-\varepsilon}}>1$ (87).",
    hypotheses=[
        "as in dana2025:theorem-2-corrected; every check here is on the exact closed form of the group "
        "dynamics, which holds the hypotheses by construction (nothing to measure: the simulated regime "
        "is recorded by dana2025:theorem-2-corrected)"
    ],
    erratum=Erratum(
        r"the window is $t_n(\varepsilon)-t_n(1-\varepsilon)>0$ (the main text's sign is reversed) and its "
        r"constant "
        r"is $\frac2{\|D\|}\log\mathcal C(\varepsilon)$, not $\frac1{2\|D\|}\log C^j(\varepsilon)$: (84) "
        r"writes "
        r"$(\|D\|-\frac{\kappa v_0}{2+\kappa v_0})^2$ for $\|D\|^2(1-f)^2$ and (86) uses $1/(c_nt_n)\sim"
        r"\frac1{2\|D\|\log n}$ where $c_nt_n=\frac{\|D\|}2\log(np)$; the $1/\log n$ scaling and the "
        r"location are right",
        via="catalog Theorem 2 [ERROR?][CHECKED]; reproduced with the exact closed form",
        shown_by=("(12):*",),
    ),
)
def theorem_2(ctx: Context) -> None:
    p = 2
    for D in (1.0, 2.0):
        t1, t2 = _window_measured(D, p, NS)
        Cj = float(
            sym.logistic_window()["paper constant"].subs(
                {sym.logistic_window()["eps"]: EPS_T2, sym.logistic_window()["D"]: D}
            )
        )
        printed = (t2 - t1) / t_n(NS, p) * np.log(NS)
        ctx.close(
            f"(12): (t(1-eps) - t(eps)) log(n)/t_n vs (1/(2||D||)) log C^j = {Cj:.4f}, ||D|| = {D:g}, n = "
            f"1e30",
            float(printed[-1]),
            Cj,
            rtol=1e-2,
            why="closed form at n = 1e30; 1% covers log(n) vs log(np) (2%/70) and O(1/log n) terms",
            details={"n": NS, "measured": printed},
        )


# ------------------------------------------------------------------------- Figure 2


def _plateau_tolerance(t: np.ndarray, n: float, Ds) -> np.ndarray:
    r"""Derived bound of :math:`|L_n(t)-L_\infty(t)|` at times ``t`` (in units of :math:`t_n`), p groups.

    Group j (``_loss_fn``, the corrected closed form at ``Z0``, ``V0``): with :math:`N=\sqrt{np}`,
    :math:`x=\|D_j\|t\,t_n/N`, :math:`w=e^{-2x}=(np)^{-t\|D_j\|/2}`, :math:`\rho=\frac{1-z_0}{1+z_0}`,
    :math:`\cosh x+z_0\sinh x=\frac{1+z_0}2e^x(1+\rho w)` gives exactly

    :math:`f=\frac{g(1+\rho w)^2}{1+G+\varepsilon}`, :math:`z=\frac{1-\rho w}{1+\rho w}`,
    :math:`g=q_j(np)^{(t\|D_j\|-1)/2}`, :math:`q_j=\frac{v_0(1+z_0)^2}{4\|D_j\|}`,
    :math:`G=g(1-\rho^2w^2)`, :math:`\varepsilon=\frac{v_0(1-z_0^2)t\,t_n}{N^2}-\frac{v_0z_0}{N\|D_j\|}`.

    (:math:`q_j` = 0.4225, 0.21125 for the norms 1, 2. The printed (69),
    :math:`v=Pv_0\frac{\cosh ct+z_0\sinh ct}{P+v_0(\sinh ct+z_0(\cosh ct-1))}`, :math:`c=2\|D_j\|/N`,
    gives :math:`q_j=\frac{v_0(1+z_0)}{2\|D_j\|}` instead; the two agree at the authors' :math:`z_0=1`.)

    Before the jump (:math:`t\|D_j\|<1`, :math:`L^\infty_j=\|D_j\|^2/2`): :math:`L^j-\frac{\|D_j\|^2}2
    =-\|D_j\|^2(fz-\frac{f^2}2)` with :math:`fz=\frac G{1+G+\varepsilon}` (and :math:`f\le2z`, since
    :math:`z\ge z_0` and :math:`g\ll z_0`), so :math:`|L^j-\frac{\|D_j\|^2}2|\le\|D_j\|^2g
    \frac{1+cg}{1+\varepsilon}` with :math:`c=0`: the :math:`O(g)` term, :math:`-\frac32g`, is negative
    (it is the check's margin), and :math:`\varepsilon\ge-v_0z_0/(N\|D_j\|)` (2e-10 at n = 1e18).
    After it (:math:`L^\infty_j=0`): :math:`1-f=\frac{1+\varepsilon-2g\rho w(1+\rho w)}{1+G+\varepsilon}`,
    :math:`2f(1-z)=\frac{4g\rho w(1+\rho w)}{1+G+\varepsilon}`, so :math:`L^j\le\frac{\|D_j\|^2}2
    [(\frac{1+|\varepsilon|+2g\rho w(1+\rho w)}{1+G-|\varepsilon|})^2+\frac{4g\rho w(1+\rho w)}
    {1+G-|\varepsilon|}]\approx\frac{\|D_j\|^2}{2q_j^2}(np)^{-2a}`, :math:`a=|t\|D_j\|-1|/2`: the
    envelope :math:`\|D_j\|^2q_j(np)^{-a}` bounds it once :math:`(np)^{-a}\le2q_j^3`; the larger of the
    two is taken. Rounding, counted: ``_loss_fn``'s expression has <= 50 correctly rounded operations
    (64 allowed), each relative error amplified at most :math:`1+2x` times by the exponentials (the
    condition number of :math:`e^{2x}` in :math:`x`), an absolute error <= :math:`64(1+2x)\epsilon
    \|D_j\|^2`; the sum over groups, /p and :math:`-L_\infty` add 3 roundings of :math:`\max L`."""
    p = len(Ds)
    tol, roundoff = np.zeros_like(t), 3 * EPS * sum(D**2 for D in Ds) / (2 * p)
    rho, N = (1 - Z0) / (1 + Z0), np.sqrt(n * p)
    for D in Ds:
        q = V0 * (1 + Z0) ** 2 / (4 * D)
        envelope = D**2 * q * (n * p) ** (-np.abs(t * D - 1) / 2)
        g, w = q * (n * p) ** ((t * D - 1) / 2), (n * p) ** (-t * D / 2)
        G, gw = g * (1 - rho**2 * w**2), 2 * g * rho * w * (1 + rho * w)
        eps_lo = V0 * Z0 / (N * D)
        eps = np.maximum(V0 * (1 - Z0**2) * t * t_n(n, p) / N**2, eps_lo)
        after = D**2 / 2 * (((1 + eps + gw) / (1 + G - eps)) ** 2 + 2 * gw / (1 + G - eps))
        tol += np.where(t * D < 1, envelope / (1 - eps_lo), np.maximum(envelope, after)) / p
        roundoff += 64 * (1 + 2 * D * t * t_n(n, p) / N) * EPS * D**2 / p
    return tol + roundoff


def _plateau_check(ctx: Context, Ds, n: float) -> None:
    r"""L_n at the plateau centres vs L_inf, with the derived finite-n deviation as tolerance
    (:func:`_plateau_tolerance`: before a group's jump its leading term
    :math:`\|D_j\|^2q_j(np)^{-a}`, :math:`q_j=v_0(1+z_0)^2/(4\|D_j\|)`, with a negative :math:`O(g)`
    correction; after it the envelope of the same form, or the group's own bound where larger). A
    plateau off by more than that (1.1e-3 at t = 0.75, n = 1e18) is caught."""
    centres = np.array([0.25, 0.75, 1.5])
    Ln = _L_n(centres, n, Ds)
    tol = _plateau_tolerance(centres, n, Ds)
    ctx.close(
        f"L_n at t = 0.25, 0.75, 1.5 vs L_inf (plateaus {_L_inf(centres, Ds).tolist()}), n = {n:.0e}, ||D|| "
        f"= {Ds}",
        np.abs(Ln - _L_inf(centres, Ds)) / tol,
        0.0,
        atol=1.0,
        why="deviation / derived finite-n deviation (1/p) sum_j ||D_j||^2 q_j (np)^(-|t||D_j|| - 1|/2) "
        "(1 + c g_j), q_j = v0 (1 + z0)^2 / (4 ||D_j||) (the corrected closed form; (69) as printed gives "
        "v0 (1 + z0)/(2 ||D_j||)), c = 0 (the O(g_j) term is -3 g_j/2); after a jump the group's own bound "
        "where larger than that envelope; + counted rounding (_plateau_tolerance)",
        details={"L_n": Ln, "tolerance": tol},
    )


@claim(
    "dana2025:figure-2",
    title="Figure 2: two neurons on two groups show two phase transitions, at t_n/2 and t_n, only at extreme "
    "n",
    source="Figure 2, Section 4.2; the authors' phase_transition.py (labels 1 and 2, v0 = 1)",
    statement=r"With $p=2$ neurons, each on half the data (group labels 1 and 2), $L_n(t)=L(\theta(tt_n))$ "
    r"shows two "
    r"plateaus $(1^2+2^2)/4$ and $1/4$ before reaching 0, with transitions at $t=1/2$ and $t=1$, visible for "
    r"very "
    r"large $n$.",
    hypotheses=[ORTHONORMAL, GROUP_INIT, ONE_SIGN, "distinct ||D_j|| (two transitions)"],
)
def figure_2(ctx: Context) -> None:
    k = ctx.param("m", tiny=16, quick=64, full=512)
    Ds = (1.0, 2.0)
    _plateau_check(ctx, Ds, 1e18)
    tt = np.linspace(0.0, 1.6, 321)
    curves = {n: _L_n(tt, n, Ds) for n in (1e4, 1e9, 1e18)}
    dev4 = float(np.abs(curves[1e4] - _L_inf(tt, Ds))[np.abs(tt - 0.75) < 0.05].max())
    ctx.bound(
        "at n = 1e4 the middle plateau is not resolved: |L_n(0.75) - 1/4|",
        dev4,
        0.05,
        side=">=",
        why="'visible only at extreme n': the deviation decays like (np)^(-1/8) at t = 0.75. The threshold "
        "is a reading of Figure 2, not derived: 0.05 = 20% of the middle plateau 1/4 is taken as the "
        "smallest offset at which a reader sees the plateau as not reached (max over |t - 0.75| < 0.05 of "
        "the closed form: 0.117 at n = 1e4, 0.055 at 1e5, 0.038 at 1e6, 0.003 at 1e18)",
        resolution="a middle plateau within 0.05 of 1/4 over |t - 0.75| < 0.05 at n = 1e4 (20% of its "
        "height, the figure's reading)",
    )
    labels = np.concatenate([np.ones(k), 2 * np.ones(k)])
    gammas = np.ones((2, k)) / np.sqrt(k)  # z0 = 1, v0 = 1 as in the authors' script
    n = 2 * k
    ts, (_, _, L), _ = _group_sim(ctx, k, 2, labels, gammas, 1.6 * t_n(n, 2))
    ctx.figure(
        "Figure 2: rescaled loss L_n(t) = L(theta(t t_n)), p = 2, labels 1 and 2",
        xlabel="t / t_n",
        ylabel="L_n",
        series=[Series(f"closed form, n = {n:.0e}", tt, c) for n, c in curves.items()]
        + [Series(f"simulation, n = {n}", ts / t_n(n, 2), L, "o"), Series("L_inf", tt, _L_inf(tt, Ds), "--")],
    )
    ctx.note(
        "The authors' script uses z0 = 1 exactly, where the printed (69) is exact; the closed-form curves "
        "here use "
        f"z0 = {Z0} (the corrected solution), the simulation z0 = 1. The limits do not depend on z0."
    )
    _middle_plateau(ctx, Ds)
    with ctx.control(
        "equal group norms ||D_1|| = ||D_2|| = 2",
        breaks="distinct ||D_j|| (two transitions)",
        must_break=["a middle plateau between the transitions*"],
    ):
        _middle_plateau(ctx, (2.0, 2.0))


def _middle_plateau(ctx: Context, Ds) -> None:
    r"""Two transitions leave a plateau between them: at n = 1e18, :math:`L_n(0.75)-L_n(1.5)` (between the
    transitions at :math:`t=1/\|D_2\|=1/2` and :math:`1/\|D_1\|=1` for the figure's norms 1 and 2, and
    after both) is the smaller group's plateau :math:`\|D_1\|^2/(2p)=1/4`; with equal norms both groups
    jump at the same time and the difference is 0. Threshold: half that plateau, 1/8."""
    Ln = _L_n(np.array([0.75, 1.5]), 1e18, Ds)
    ctx.bound(
        f"a middle plateau between the transitions: L_n(0.75) - L_n(1.5) at n = 1e18, ||D|| = {Ds}",
        float(Ln[0] - Ln[1]),
        0.125,
        side=">=",
        why="the figure's middle plateau ||D_1||^2/(2p) = 1/4; half of it as the threshold",
        resolution="a middle plateau lower than half the figure's 1/4 (two transitions merged into one)",
    )


# ---------------------------------------------------------------------- Proposition 2


def group_curvature_terms(t, c, omz0, v0, k, p, D):
    r"""Per-group numerator and denominator of the exact curvature, cancellation-free.

    ``omz0`` is :math:`1-z_0` (computed without cancellation, :func:`group_misalignment`). With
    :math:`x=\frac{ct}2+\beta`, :math:`q=e^{-2\beta}=\frac{1-z_0}{1+z_0}\in[0,1]` and :math:`e=e^{-2x}=
    qe^{-ct}`: :math:`1-z=\frac{2e}{1+e}` and, from the corrected closed form, :math:`\frac1f-1=
    E\,\mathrm{sech}^2x-(1-z)`, :math:`E=\frac{P\cosh^2\beta}{v_0}+\frac{ct-\sinh2\beta}2`, :math:`f=v/P`,
    where :math:`E\,\mathrm{sech}^2x=e^{-ct}[\frac P{v_0}(1+q)^2+2qct-(1-q^2)]/(1+e)^2` stays finite at
    :math:`z_0=1` (:math:`q=0`: the logistic :math:`\frac1f-1=(\frac P{v_0}-1)e^{-ct}`).  Then
    :math:`\|R_j\|^2=kD^2[(1-f)^2+2f(1-z)]`,
    :math:`\hat w\cdot R_j=\sqrt kD[(1-f)-(1-z)]` and the numerator is
    :math:`\frac vp[(\hat w\cdot R_j)^2+\|R_j\|^2]` (:func:`symbolic.shallow_meanfield.group_curvature`).
    """
    q = omz0 / (2 - omz0)
    ect = np.exp(-c * t)
    e = q * ect
    omz = 2 * e / (1 + e)
    P = p * np.sqrt(k) * D
    g = ect * (P / v0 * (1 + q) ** 2 + 2 * q * c * t - (1 - q**2)) / (1 + e) ** 2 - omz  # 1/f - 1
    f = 1 / (1 + g)
    omf = f * g
    den = k * D**2 * (omf**2 + 2 * f * omz)
    num = f * np.sqrt(k) * D * k * D**2 * ((omf - omz) ** 2 + omf**2 + 2 * f * omz)
    return num, den, omf


def group_misalignment(y: np.ndarray, gam: np.ndarray) -> np.ndarray:
    r""":math:`1-z_0=\frac12\|\hat\gamma_j-\hat y_j\|^2` per group (rows of ``y``, ``gam``), without the
    cancellation of :math:`1-\langle\hat\gamma|\hat y\rangle` near alignment."""
    d = gam / np.linalg.norm(gam, axis=1, keepdims=True) - y / np.linalg.norm(y, axis=1, keepdims=True)
    return (d**2).sum(axis=1) / 2


def prop2_time_constant(alpha: float, cym: float) -> float:
    r""":math:`C=\max(\alpha C_y^-,(2C_y^-)^{-1/\alpha})` of Proposition 2 (:math:`C\ge\frac14`: if
    :math:`C_y^-\le\frac12` the second term is >= 1, else the first is >= 1/4; so :math:`Cn>1` for n >= 5)."""
    return max(alpha * cym, (1 / (2 * cym)) ** (1 / alpha))


def prop2_s0(alpha: float, n: int, cym: float) -> float:
    r""":math:`s_0=2C_y^-Cn^{2\alpha-1}\log(Cn)`, a lower bound of :math:`c_jt` for :math:`t\ge t_0`
    (:math:`c_j=2\|D_j\|n^{-\alpha}`, :math:`\|D_j\|\ge C_y^-`)."""
    C = prop2_time_constant(alpha, cym)
    return float(2 * cym * C * n ** (2 * alpha - 1) * np.log(C * n))


def prop2_corrected_constants(alpha: float, n: int, y: np.ndarray, v0: np.ndarray) -> tuple[float, float]:
    r"""Corrected constants :math:`K_1'`, :math:`K_2'` of Proposition 2, from the corrected closed form.

    With :math:`f=v/P`, :math:`x=\frac{ct}2+\beta`: :math:`\frac1f=z+E\,\mathrm{sech}^2x`,
    :math:`E=\frac{P\cosh^2\beta}{v_0}+\frac{ct-\sinh2\beta}2` (catalog (C4)).

    Upper: :math:`\dot v=v(cz-\frac{2v}{np})\le cv(1-\frac vP)` (:math:`z\le1`, :math:`c=\frac{2P}{np}`),
    so v stays below the logistic solution from :math:`v_0`, :math:`v\le P/(1-e^{-ct})`; the printed step
    (70) assumes :math:`v\le P`, false when :math:`v_0>P`. Lower: :math:`z\le1`,
    :math:`\mathrm{sech}^2x\le4e^{-ct-2\beta}` and :math:`\cosh^2\beta\,e^{-2\beta}\le1` give
    :math:`\frac1f\le1+4g(ct)`, :math:`g(s)=e^{-s}(a+\frac s2)`, :math:`a=P/v_0`; the printed (71)-(73)
    use (69)'s rate c for z where it is c/2. With Lemma 7, :math:`\frac{2}{np}\min_jv_j\le\mu\le
    \frac4{np}\max_jv_j`, :math:`P_j=pn^{1-\alpha}\|D_j\|`, and :math:`c_jt\ge s_0` (:func:`prop2_s0`):

    :math:`K_1'=2C_y^-\min_j[1+4\sup_{s\ge s_0}g_j(s)]^{-1}`, the sup at :math:`s=\max(s_0,1-2a_j)`;
    :math:`K_2'=4C_y^+/(1-e^{-s_0})`."""
    p = y.shape[0]
    s0 = prop2_s0(alpha, n, float(y.min()))
    a = p * np.linalg.norm(y, axis=1) / v0  # P_j / v0_j, P_j = p sqrt(k) ||D_j|| = p ||y_j||
    s = np.maximum(s0, 1 - 2 * a)
    K1 = 2 * y.min() * np.min(1 / (1 + 4 * np.exp(-s) * (a + s / 2)))
    return float(K1), float(-4 * y.max() / np.expm1(-s0))


def prop2_scaled_curvature(
    alpha: float, n: int, y: np.ndarray, gam: np.ndarray, corrected: bool = False
) -> tuple[np.ndarray, float, float]:
    r"""Proposition 2 on one instance: :math:`n^\alpha\mu(t)` on 25 times from
    :math:`t_0=Cn^{3\alpha-1}\log(Cn)` to :math:`30t_0`, and :math:`K_1`, :math:`K_2` (``corrected``:
    :math:`K_1'`, :math:`K_2'`, :func:`prop2_corrected_constants`).

    ``y`` (p, k): label magnitudes per group (one sign per group; the flow sees only |y|), ``gam`` (p, k):
    :math:`\langle w_j(0)|x^j_i\rangle>0` (group initialization (9), orthonormal inputs,
    :math:`|a_j|=\|w_j\|`).
    The curvature is the exact closed form in cancellation-free variables; where :math:`e^{-ct}` underflows
    the state is at its limit, :math:`n^\alpha\mu_\infty=2\min_j\|D_j\|` (k >= 2) or :math:`4\min_j\|D_j\|`
    (k = 1), the slowest residual mode."""
    p, k = y.shape
    D = np.linalg.norm(y, axis=1) / np.sqrt(k)
    v0 = (gam**2).sum(axis=1)
    c = 2 * np.sqrt(k) * D / n
    cym, cyp = y.min(), y.max()
    C = prop2_time_constant(alpha, cym)
    ts = C * n ** (3 * alpha - 1) * np.log(C * n) * PROP2_TIMES
    num, den, _ = group_curvature_terms(ts[:, None], c, group_misalignment(y, gam), v0, k, p, D)
    ok = den.min(axis=1) > 1e-280  # every term in the normal float range (the formulas are cancellation-free)
    with np.errstate(invalid="ignore"):
        mu = np.where(ok, 2 / n * num.sum(axis=1) / den.sum(axis=1), np.nan)
    mu = np.where(ok, mu, (2 if k > 1 else 4) * D.min() * n ** (-alpha))
    if corrected:
        return (n**alpha * mu, *prop2_corrected_constants(alpha, n, y, v0))
    return n**alpha * mu, float(2 * cym * np.min(v0 / (2 + v0))), float(4 * cyp)


PROP2_TIMES = np.geomspace(1, 30, 25)  # evaluated times / C n^(3 alpha - 1) log(C n)
PROP2_N = 16  # searched n: k = 16, 8, 4, 2, 1 for alpha = 1/2, 5/8, 3/4, 7/8, 1
# Rounding allowance of a searched ratio. The lower bound is attained exactly as t -> inf (equal labels in the
# slowest group: n^alpha mu -> 2 ||D_j|| = 2 C_y^-, K_1' -> 2 C_y^-), so the search can sit at ratio 1 up
# to rounding. Near that limit the ratio is a quotient of sums of positive terms, each a product of <= 30
# correctly rounded operations (the subtractions in 1/f - 1 and 1 - f only perturb terms dominated by
# 2 f (1 - z)): relative error <= 30 EPS on either side; 64 EPS = 1.4e-14 covers both. A violation below
# 1.4e-14 relative is not resolvable in float64.
PROP2_ROUNDING = 64 * EPS


def _prop2_instance(theta: np.ndarray) -> tuple[float, int, np.ndarray, np.ndarray]:
    """(alpha, k, label magnitudes (p, k), first-layer entries (p, k)) of a searched instance, n = PROP2_N."""
    n = PROP2_N
    alpha = 0.5 + 0.125 * round(4 / (1 + np.exp(-theta[-1])))
    k = round(n ** (2 * (1 - alpha)))
    y = np.exp(np.clip(theta[:n], -3, 3)).reshape(n // k, k)
    gam = np.exp(np.clip(theta[n : 2 * n], -3, 3)).reshape(n // k, k)
    return alpha, k, y, gam


def prop2_raw_gap(backend, theta: np.ndarray) -> tuple[float | None, float, int]:
    r"""The corrected closed form against the raw flow (3) on a searched instance (x_i = e_i, group init
    (9), one positive sign per group; DOPRI5 at rtol 1e-10 against a refined solve), at
    :math:`t=t_0\cdot` PROP2_TIMES: ``(max relative gap of n^alpha mu, the solves' relative difference,
    resolved times)`` over the times where the flow resolves :math:`\mu`, i.e. the loss is above
    :math:`(10^6\,\mathrm{eps}\max|y|)^2` (below it the residual's direction, which :math:`\mu` reads, is
    rounding); gap None where no time is resolved."""
    n = PROP2_N
    alpha, k, y, gam = _prop2_instance(theta)
    p = n // k
    V, a = group_init(gam[None], np.ones((1, p)))
    model = ShallowReLU(p, n, "orthogonal", kink=0.0)  # sigma'(0) = 0, as in _group_sim
    args = model.args(backend, np.ones(n), y.reshape(-1), wperp2=np.zeros((1, p)))
    C = prop2_time_constant(alpha, float(y.min()))
    ts = np.concatenate([[0.0], C * n ** (3 * alpha - 1) * np.log(C * n) * PROP2_TIMES])
    fine, diff = solve_with_error(model, backend.asarray(model.pack((V, a))), args, ts, rtol=1e-10)
    states = [backend.asarray(ys[None, i]) for ys in (fine[0], fine[0] + diff[0]) for i in range(1, len(ts))]
    mu = np.array([float(to_numpy(model.curvature(x, args))[0]) for x in states]).reshape(2, -1)
    loss = np.array([float((to_numpy(model.residual(x, args)) ** 2).sum()) for x in states[: len(ts) - 1]])
    resolved = loss >= (1e6 * EPS * float(y.max())) ** 2
    closed = prop2_scaled_curvature(alpha, n, y, gam, True)[0]
    if not resolved.any():
        return None, 0.0, 0
    gap = np.abs(n**alpha * mu[0][resolved] / closed[resolved] - 1).max()
    return float(gap), float(np.abs(mu[1][resolved] / mu[0][resolved] - 1).max()), int(resolved.sum())


def prop2_ratio(theta: np.ndarray, bound: str, corrected: bool = False) -> float:
    r"""Violation ratio of one bound on the instance theta: ``bound`` "lower",
    :math:`K_1/\min_tn^\alpha\mu`, or "upper", :math:`\max_tn^\alpha\mu/K_2` (``corrected``: :math:`K_1'`,
    :math:`K_2'`). theta: label magnitudes and first-layer entries exp(theta) (clipped to e^+-3), alpha =
    1/2 + 1/8 round(4 sigmoid(t))."""
    alpha, _, y, gam = _prop2_instance(theta)
    scaled, K1, K2 = prop2_scaled_curvature(alpha, PROP2_N, y, gam, corrected)
    ratio = K1 / float(scaled.min()) if bound == "lower" else float(scaled.max()) / K2
    return ratio / (1 + PROP2_ROUNDING)


# equal labels at C_y^- = 2^(-1/3) minimise the exponent 2 C_y^- C of e^(-c t_0) (C = max(C_y^-/2,
# 1/(4 C_y^-^2)) at alpha = 1/2): the least relaxed state at t_0, where steps (70) (v <= P, wrong from
# v_0 > P) and (71)-(73) (z at rate c, not c/2) of the proof are furthest off
PROP2_WORST_LABEL = 2.0 ** (-1 / 3)


def prop2_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Families of (log |y|, log gamma), each at alpha = 1/2, 3/4 and 1 (logit -9, 0, 9)."""
    n = PROP2_N
    logy = np.log(rng.uniform(1, 2, n))
    flat = np.log(PROP2_WORST_LABEL) + 1e-3 * rng.normal(size=n)
    families = {
        "App. B-like: |y| in [1, 2], gamma in [0.2, 1]": (logy, np.log(rng.uniform(0.2, 1, n))),
        "labels over e^4 (C_y^+ / C_y^- large)": (rng.uniform(-2, 2, n), np.log(rng.uniform(0.2, 1, n))),
        "tiny first layer (||w_j(0)|| -> 0, K_1 -> 0)": (logy, np.full(n, -3.0) + 0.1 * rng.normal(size=n)),
        "large first layer (||w_j(0)|| ~ e^2)": (logy, np.full(n, 2.0) + 0.1 * rng.normal(size=n)),
        "aligned: gamma proportional to |y| (z_0 -> 1)": (logy, logy - 1.0),
        "equal labels 2^(-1/3), aligned large first layer (||w_j(0)||^2 >> p sqrt(k) ||D_j||, z_0 -> 1)": (
            flat,
            flat - np.log(PROP2_WORST_LABEL) + 2.9,
        ),
        "equal labels 2^(-1/3), one large first-layer entry (||w_j(0)||^2 >> p sqrt(k) ||D_j||, z_0 small)": (
            flat,
            np.concatenate([[3.0], np.full(n - 1, -1.0)]),
        ),
    }
    return {
        name: [np.concatenate([ly, lg, [logit]]) for logit in (-9.0, 0.0, 9.0)]
        for name, (ly, lg) in families.items()
    }


def _proposition_2_checks(ctx: Context, corrected: bool) -> None:
    """Proposition 2's bounds (``corrected``: constants :math:`K_1'`, :math:`K_2'`) on random instances over
    alpha and n, one instance search per bound, and the control at t = 0."""
    ms = ctx.param("log2n_grid", tiny=[8, 12], quick=[8, 12, 16], full=[8, 12, 16, 20])
    budget = ctx.param("budget", tiny=40, quick=200, full=3000)
    lower, upper = ("K_1'", "K_2'") if corrected else ("K_1", "K_2")
    rng = ctx.rng("p2").host
    worst_lo, worst_hi, rows, on_min, sy_min = np.inf, -np.inf, [], np.inf, np.inf
    for alpha in (0.5, 0.625, 0.75, 0.875, 1.0):
        for m in ms:
            n = 2**m
            k = 2 ** round(2 * (1 - alpha) * m)
            p = n // k
            y, gam = rng.uniform(1.0, 2.0, (p, k)), rng.uniform(0.2, 1.0, (p, k))
            on_min, sy_min = min(on_min, float(gam.min())), min(sy_min, float(y.min()))
            scaled, K1, K2 = prop2_scaled_curvature(alpha, n, y, gam, corrected)
            worst_lo = min(worst_lo, float((scaled / K1).min()))
            worst_hi = max(worst_hi, float((scaled / K2).max()))
            rows.append((alpha, n, k, p, float(scaled.min()), float(scaled.max()), K1, K2))
    # the closed form's off-group entries are 0 and |a_j| = ||w_j|| exactly; the entries and labels are drawn
    ctx.regime(GROUP_INIT, on_min=on_min, off_max=0.0, asym=0.0)
    ctx.regime(ONE_SIGN, sy_min=sy_min)  # label magnitudes per group, each group's sign s_j
    ctx.regime(PROP2_TIME, ratio=float(PROP2_TIMES.min()))
    ctx.bound(
        f"min over alpha, n, t >= C n^(3 alpha - 1) log(C n) of n^alpha mu(t) / {lower}",
        worst_lo,
        1.0,
        side=">=",
        why="exact closed form in cancellation-free variables (1 - z, 1 - v/P); where e^(-ct) underflows the "
        "state "
        "is at its limit, n^a mu_inf = 2 min||D_j|| (k >= 2) or 4 min||D_j|| (k = 1), the slowest residual "
        "mode",
        details={"(alpha, n, k, p, min n^a mu, max n^a mu, K1, K2)": rows},
    )
    ctx.bound(
        f"max over alpha, n, t of n^alpha mu(t) / {upper}",
        worst_hi,
        1.0,
        why="as above",
        details={"K2 = 4 C_y^+": not corrected},
    )
    for bound, name in (("lower", f"{lower} / min_t n^alpha mu"), ("upper", f"max_t n^alpha mu / {upper}")):
        ctx.search(
            f"search: {name} over labels and group initializations",
            functools.partial(prop2_ratio, bound=bound, corrected=corrected),
            prop2_starts(ctx.rng("search").host),
            budget=budget,
            why=f"Nelder-Mead over the label magnitudes, the first-layer entries (both over e^-3..e^3) and "
            f"alpha in {{1/2, 5/8, 3/4, 7/8, 1}}, n = {PROP2_N}, exact closed-form curvature on t in "
            f"[t_0, 30 t_0]; ratios over 1 + 64 EPS (rounding, PROP2_ROUNDING: the lower bound is attained "
            f"as t -> inf)",
        )
        if corrected:  # the closed form's worst instance, on the flow (3) itself
            gap, r, seen = prop2_raw_gap(ctx.backend, np.asarray(ctx.checks[-1].details["worst instance"]))
            name_raw = f"closed form = raw flow (3) at the worst instance of '{name}': max relative gap of mu"
            why = (
                "the searches evaluate the corrected closed form (dana2025:equation-69-corrected); at their "
                "worst instance the full orthogonal system is re-solved (prop2_raw_gap) on the times where "
                "it resolves mu (loss >= (1e6 eps max|y|)^2)"
            )
            if gap is None:  # the closed form is then the only reading of mu: nothing to compare
                ctx.note(f"{name_raw}: not compared, {why}, and none is (the instance has converged by t_0)")
            else:
                ctx.close(
                    name_raw,
                    gap,
                    0.0,
                    atol=SAFETY * r + 100 * EPS,
                    why=f"{why}: {seen} of {len(PROP2_TIMES)} times; tolerance SAFETY x the solves' relative "
                    f"difference in mu ({r:.2g}) + 100 eps",
                )
    with ctx.control(
        "the bounds at t = 0 (before the stated time)",
        breaks=PROP2_TIME,
        must_break=[f"max over alpha, n, t of n^alpha mu(t) / {upper}"],
    ):
        alpha, m = 0.5, ms[-1]
        n = 2**m
        k = 2 ** round(2 * (1 - alpha) * m)
        y = rng.uniform(1.0, 2.0, (n // k, k))
        gam = rng.uniform(0.2, 1.0, (n // k, k))
        D = np.linalg.norm(y, axis=1) / np.sqrt(k)
        v0 = (gam**2).sum(axis=1)
        omz0 = group_misalignment(y, gam)
        num, den, _ = group_curvature_terms(np.zeros((1, 1)), 2 * np.sqrt(k) * D / n, omz0, v0, k, n // k, D)
        mu0 = float(2 / n * num.sum() / den.sum())
        K2 = prop2_corrected_constants(alpha, n, y, v0)[1] if corrected else 4 * y.max()
        name = f"max over alpha, n, t of n^alpha mu(t) / {upper}"
        ctx.bound(name, n**alpha * mu0 / K2, 1.0, why="as above")


_PROP2_HYPOTHESES = [
    "the curvature is evaluated from the corrected closed form (dana2025:equation-69-corrected), "
    "which carries orthonormal inputs, exactly 0 off-group and |a_j| = ||w_j|| by construction",
    GROUP_INIT,
    ONE_SIGN,
    PROP2_TIME,
]


@claim(
    "dana2025:proposition-2",
    title="Proposition 2: group initialization reaches any curvature order n^-alpha, alpha in [1/2, 1]",
    source="Proposition 2, eq. (10); proof App. A.4, (66)-(74)",
    statement=r"Group initialization, orthonormal inputs, one label sign per group, $|a_j(0)|=\|w_j(0)\|$, "
    r"$k_n=n^{2(1-\alpha)}$: for $t\ge Cn^{3\alpha-1}\log(Cn)$, $K_1n^{-\alpha}\le\mu(t)\le K_2n^{-\alpha}$ "
    r"with "
    r"$C=\max(\alpha C_y^-,(2C_y^-)^{-1/\alpha})$, $K_1=2C_y^-\min_j\frac{\|w_j(0)\|^2}{2+\|w_j(0)\|^2}$, "
    r"$K_2=4C_y^+$.",
    hypotheses=_PROP2_HYPOTHESES,
    erratum=Erratum(
        r"both bounds fail at $t\ge t_0=Cn^{3\alpha-1}\log(Cn)$, in every violation found with "
        r"$\|w_j(0)\|^2>P_j=p\sqrt{k_n}\|D^n_j\|$ (a search restricted to $\|w_j(0)\|^2\le P_j$ found none). "
        r"Upper: step (70) uses $\|w_j(t)\|^2\le\|w_j(\infty)\|^2=P_j$ ('monotonicity'), but from above "
        r"$P_j$ the norm decreases towards it. Counterexample: $\alpha=\frac12$, $n=k_n=16$, $p=1$, "
        r"$x_i=e_i$, labels $y_i\approx2^{-1/3}$, $\langle w(0)|x_i\rangle\approx19y_i/2^{-1/3}$ "
        r"($\|w(0)\|^2=5864$, $P=3.18$, $z_0\approx1$), $a(0)=\|w(0)\|$: at $t=t_0=2.934$, "
        r"$\|w\|^2/P=1.453$ and "
        r"$n^\alpha\mu/K_2=1.4525$. Lower: (71)-(73) use (69)'s rate $c$ for the alignment $z$ where it is "
        r"$c/2$ (dana2025:equation-69), and from $v_0>P$ the norm follows $Pz<P$. Counterexample: the same "
        r"$\alpha$, n, labels $\approx0.78$, one entry $\langle w(0)|x_1\rangle=e^3$, the others "
        r"$\le0.67$ ($\|w(0)\|^2=404$, $z_0$ small): $K_1/(n^\alpha\mu)=1.0653$ at $t=2.34t_0$. Both "
        r"recomputed in mpmath at 50 digits in the weight vectors and on the raw flow (DOP853, rtol 1e-13), "
        r"agreeing to 1e-8. The violations shrink like $(Cn)^{-2C_y^-Cn^{2\alpha-1}}$ but exist at every n; "
        r"the order $n^{-\alpha}$ stands with corrected constants (dana2025:proposition-2-corrected)",
        via="found by this verification: the instance searches (families 'equal labels 2^(-1/3), ...'), "
        "recomputed independently",
        shown_by=(
            "search: K_1 / min_t n^alpha mu over labels and group initializations",
            "search: max_t n^alpha mu / K_2 over labels and group initializations",
        ),
    ),
)
def proposition_2(ctx: Context) -> None:
    _proposition_2_checks(ctx, corrected=False)


@claim(
    "dana2025:proposition-2-corrected",
    title="Proposition 2 corrected: K_1' n^-alpha <= mu(t) <= K_2' n^-alpha for t >= t_0, constants from the "
    "corrected closed form",
    source="Proposition 2, eq. (10); proof App. A.4, (66)-(74) with (70)-(73) redone on the corrected (69)",
    statement=r"Under Proposition 2's hypotheses and $n\ge5$ (so $Cn>1$), with $C$ as printed, "
    r"$s_0=2C_y^-Cn^{2\alpha-1}\log(Cn)$, $a_j=p\sqrt{k_n}\|D^n_j\|/\|w_j(0)\|^2$ and "
    r"$g_j=e^{-s_j}(a_j+\frac{s_j}2)$ at $s_j=\max(s_0,1-2a_j)$: for $t\ge Cn^{3\alpha-1}\log(Cn)$, "
    r"$K_1'n^{-\alpha}\le\mu(t)\le K_2'n^{-\alpha}$ with $K_1'=2C_y^-\min_j(1+4g_j)^{-1}$ and "
    r"$K_2'=4C_y^+/(1-e^{-s_0})$ (both $\to$ the printed values' limits $2C_y^-$, $4C_y^+$ as "
    r"$n\to\infty$). Proof: $\frac{v}{P}=(z+E\,\mathrm{sech}^2x)^{-1}$ with the corrected closed form, "
    r"$\dot v\le cv(1-\frac vP)$, $c_jt\ge s_0$, and Lemma 7's $\frac2{np}\min_jv_j\le\mu\le"
    r"\frac4{np}\max_jv_j$ (:func:`prop2_corrected_constants`).",
    hypotheses=_PROP2_HYPOTHESES,
)
def proposition_2_corrected(ctx: Context) -> None:
    _proposition_2_checks(ctx, corrected=True)
