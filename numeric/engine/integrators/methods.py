"""Explicit Runge-Kutta methods (as tableaus) and one generic, batched RK step.

Every method here is a :class:`~numeric.engine.integrators.tableau.ButcherTableau`; the single
function :func:`rk_step` runs any of them on a whole ensemble at once. ``ALL_METHODS``
lists every method so that tests (order of accuracy, ...) cover each new one
automatically.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction as F
from types import ModuleType

from numeric.backend import Array, array_namespace
from numeric.engine.integrators.tableau import ButcherTableau, DenseOutput, StageWindow

VectorField = Callable[[Array, Array, Mapping[str, Array]], Array]
"""``field(t, y, args) -> dy`` with ``t`` (B,), ``y`` (B, N), ``dy`` (B, N)."""

EULER = ButcherTableau(
    name="euler",
    c=(0,),
    a=((),),
    b=(1,),
    order=1,
    citation="L. Euler, Institutionum calculi integralis, vol. 1 (1768).",
)
"""Forward Euler, ``y_1 = y_0 + h f(t_0, y_0)``; order 1."""

HEUN = ButcherTableau(
    name="heun",
    c=(0, 1),
    a=((), (1,)),
    b=(F(1, 2), F(1, 2)),
    order=2,
    b_error=(F(-1, 2), F(1, 2)),
    error_order=1,
    citation="K. Heun, Z. Math. Phys. 45 (1900) 23-38; embedded Euler estimate.",
)
"""Heun's method (explicit trapezoid), order 2, with the Euler solution embedded (q = 1)."""

MIDPOINT = ButcherTableau(
    name="midpoint",
    c=(0, F(1, 2)),
    a=((), (F(1, 2),)),
    b=(0, 1),
    order=2,
    citation="C. Runge, Math. Ann. 46 (1895) 167-178.",
)
"""Explicit midpoint rule, ``y_1 = y_0 + h f(t_0 + h/2, y_0 + (h/2) f(t_0, y_0))``; order 2."""

RK4 = ButcherTableau(
    name="rk4",
    c=(0, F(1, 2), F(1, 2), 1),
    a=((), (F(1, 2),), (0, F(1, 2)), (0, 0, 1)),
    b=(F(1, 6), F(1, 3), F(1, 3), F(1, 6)),
    order=4,
    citation="W. Kutta, Z. Math. Phys. 46 (1901) 435-453.",
)
"""The classical four-stage Runge-Kutta method; order 4."""

_DP_B = (F(35, 384), 0, F(500, 1113), F(125, 192), F(-2187, 6784), F(11, 84), 0)
_DP_B_HAT = (
    F(5179, 57600),
    0,
    F(7571, 16695),
    F(393, 640),
    F(-92097, 339200),
    F(187, 2100),
    F(1, 40),
)

DOPRI5 = ButcherTableau(
    name="dopri5",
    c=(0, F(1, 5), F(3, 10), F(4, 5), F(8, 9), 1, 1),
    a=(
        (),
        (F(1, 5),),
        (F(3, 40), F(9, 40)),
        (F(44, 45), F(-56, 15), F(32, 9)),
        (F(19372, 6561), F(-25360, 2187), F(64448, 6561), F(-212, 729)),
        (F(9017, 3168), F(-355, 33), F(46732, 5247), F(49, 176), F(-5103, 18656)),
        _DP_B[:6],
    ),
    b=_DP_B,
    order=5,
    b_error=tuple(x - y for x, y in zip(_DP_B, _DP_B_HAT, strict=True)),
    error_order=4,
    fsal=True,
    citation=(
        "J. R. Dormand and P. J. Prince, A family of embedded Runge-Kutta formulae, "
        "J. Comput. Appl. Math. 6 (1980) 19-26."
    ),
    dense=DenseOutput(
        d=(
            (
                F(-12715105075, 11282082432),
                0,
                F(87487479700, 32700410799),
                F(-10690763975, 1880347072),
                F(701980252875, 199316789632),
                F(-1453857185, 822651844),
                F(69997945, 29380423),
            ),
        ),
        order=4,
        citation=(
            "the 4th-order continuous extension of Dormand-Prince 5(4) (Shampine's coefficients) in the "
            "nested form of Hairer's code DOPRI5: E. Hairer, S. P. Nørsett and G. Wanner, Solving ODEs I, "
            "2nd ed. (1993), Sec. II.6 (dense output) and Appendix (DOPRI5, CONTD5)."
        ),
    ),
)
"""Dormand-Prince 5(4): 7 stages (6 evaluations per step with FSAL), order 5 with a
4th-order embedded solution, so the error estimate scales as ``h^5``. Local
extrapolation: the 5th-order solution is propagated."""

# Dormand-Prince 8(5,3) as in Hairer's DOP853: 12 stages, plus the FSAL stage f(t + h, y_1)
# (c = 1, row = b) that starts the next step, so 12 evaluations per step.
_DOP853_C = (
    0.0,
    0.05260015195876773,
    0.0789002279381516,
    0.1183503419072274,
    0.2816496580927726,
    0.3333333333333333,
    0.25,
    0.3076923076923077,
    0.6512820512820513,
    0.6,
    0.8571428571428571,
    1.0,
)
_DOP853_A = (
    (),
    (0.05260015195876773,),
    (0.0197250569845379, 0.0591751709536137),
    (0.02958758547680685, 0.0, 0.08876275643042054),
    (0.2413651341592667, 0.0, -0.8845494793282861, 0.924834003261792),
    (0.037037037037037035, 0.0, 0.0, 0.17082860872947386, 0.12546768756682242),
    (0.037109375, 0.0, 0.0, 0.17025221101954405, 0.06021653898045596, -0.017578125),
    (
        0.03709200011850479,
        0.0,
        0.0,
        0.17038392571223998,
        0.10726203044637328,
        -0.015319437748624402,
        0.008273789163814023,
    ),
    (
        0.6241109587160757,
        0.0,
        0.0,
        -3.3608926294469414,
        -0.868219346841726,
        27.59209969944671,
        20.154067550477894,
        -43.48988418106996,
    ),
    (
        0.47766253643826434,
        0.0,
        0.0,
        -2.4881146199716677,
        -0.590290826836843,
        21.230051448181193,
        15.279233632882423,
        -33.28821096898486,
        -0.020331201708508627,
    ),
    (
        -0.9371424300859873,
        0.0,
        0.0,
        5.186372428844064,
        1.0914373489967295,
        -8.149787010746927,
        -18.52006565999696,
        22.739487099350505,
        2.4936055526796523,
        -3.0467644718982196,
    ),
    (
        2.273310147516538,
        0.0,
        0.0,
        -10.53449546673725,
        -2.0008720582248625,
        -17.9589318631188,
        27.94888452941996,
        -2.8589982771350235,
        -8.87285693353063,
        12.360567175794303,
        0.6433927460157636,
    ),
)
_DOP853_B = (
    0.054293734116568765,
    0.0,
    0.0,
    0.0,
    0.0,
    4.450312892752409,
    1.8915178993145003,
    -5.801203960010585,
    0.3111643669578199,
    -0.1521609496625161,
    0.20136540080403034,
    0.04471061572777259,
)
_DOP853_E5 = (
    0.01312004499419488,
    0.0,
    0.0,
    0.0,
    0.0,
    -1.2251564463762044,
    -0.4957589496572502,
    1.6643771824549864,
    -0.35032884874997366,
    0.3341791187130175,
    0.08192320648511571,
    -0.022355307863886294,
)
# the embedded 3rd-order solution puts weights on stages 1, 9 and 12 only
_DOP853_BHH = {0: 0.2440944881889764, 8: 0.7338466882816118, 11: 0.022058823529411764}
_DOP853_E3 = tuple(b - _DOP853_BHH.get(i, 0.0) for i, b in enumerate(_DOP853_B))
# dense output (7th order): three extra stages after the FSAL stage, over stages 1..13 (+ earlier extras)
_DOP853_C_EXTRA = (0.1, 0.2, 0.7777777777777778)
_DOP853_A_EXTRA = (
    (
        0.056167502283047954,
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        0.25350021021662483,
        -0.2462390374708025,
        -0.12419142326381637,
        0.15329179827876568,
        0.00820105229563469,
        0.007567897660545699,
        -0.008298,
    ),
    (
        0.03183464816350214,
        0.0,
        0.0,
        0.0,
        0.0,
        0.028300909672366776,
        0.053541988307438566,
        -0.05492374857139099,
        0.0,
        0.0,
        -0.00010834732869724932,
        0.0003825710908356584,
        -0.00034046500868740456,
        0.1413124436746325,
    ),
    (
        -0.42889630158379194,
        0.0,
        0.0,
        0.0,
        0.0,
        -4.697621415361164,
        7.683421196062599,
        4.06898981839711,
        0.3567271874552811,
        0.0,
        0.0,
        0.0,
        -0.0013990241651590145,
        2.9475147891527724,
        -9.15095847217987,
    ),
)
# the four correction rows d over the 13 stages and the 3 extra ones
_DOP853_D = (
    (
        -8.428938276109013,
        0.0,
        0.0,
        0.0,
        0.0,
        0.5667149535193777,
        -3.0689499459498917,
        2.38466765651207,
        2.117034582445028,
        -0.871391583777973,
        2.2404374302607883,
        0.6315787787694688,
        -0.08899033645133331,
        18.148505520854727,
        -9.194632392478356,
        -4.436036387594894,
    ),
    (
        10.427508642579134,
        0.0,
        0.0,
        0.0,
        0.0,
        242.28349177525817,
        165.20045171727028,
        -374.5467547226902,
        -22.113666853125306,
        7.733432668472264,
        -30.674084731089398,
        -9.332130526430229,
        15.697238121770845,
        -31.139403219565178,
        -9.35292435884448,
        35.81684148639408,
    ),
    (
        19.985053242002433,
        0.0,
        0.0,
        0.0,
        0.0,
        -387.0373087493518,
        -189.17813819516758,
        527.8081592054236,
        -11.57390253995963,
        6.8812326946963,
        -1.0006050966910838,
        0.7777137798053443,
        -2.778205752353508,
        -60.19669523126412,
        84.32040550667716,
        11.99229113618279,
    ),
    (
        -25.69393346270375,
        0.0,
        0.0,
        0.0,
        0.0,
        -154.18974869023643,
        -231.5293791760455,
        357.6391179106141,
        93.40532418362432,
        -37.45832313645163,
        104.0996495089623,
        29.8402934266605,
        -43.53345659001114,
        96.32455395918828,
        -39.17726167561544,
        -149.72683625798564,
    ),
)

DOP853 = ButcherTableau(
    name="dop853",
    c=(*_DOP853_C, 1.0),
    a=(*_DOP853_A, _DOP853_B),
    b=(*_DOP853_B, 0.0),
    order=8,
    b_error=(*_DOP853_E5, 0.0),
    b_error_aux=(*_DOP853_E3, 0.0),
    error_order=7,
    fsal=True,
    citation=(
        "P. J. Prince and J. R. Dormand, High order embedded Runge-Kutta formulae, J. Comput. "
        "Appl. Math. 7 (1981) 67-75; the 5th- and 3rd-order estimates and their blend from "
        "E. Hairer, S. P. Nørsett and G. Wanner, Solving ODEs I, 2nd ed. (1993), Sec. II.10 (code DOP853)."
    ),
    dense=DenseOutput(
        d=_DOP853_D,
        order=7,
        c_extra=_DOP853_C_EXTRA,
        a_extra=_DOP853_A_EXTRA,
        citation=(
            "the 7th-order continuous extension of Hairer's code DOP853 (subroutine CONTD8, three extra "
            "stages): Hairer, Nørsett and Wanner, Solving ODEs I, 2nd ed. (1993), Sec. II.6 and II.10; "
            "the same coefficients as scipy.integrate's DOP853 dense output."
        ),
    ),
)
"""Dormand-Prince 8(5,3), the method of ``scipy.integrate.solve_ivp(method="DOP853")``: 12
stages (12 evaluations per step with the FSAL stage), order 8; two embedded estimates
(5th and 3rd order) blended into an effective ``h^8`` error (``error_order = 7``, see
:mod:`numeric.engine.integrators.tableau`). On smooth stretches of a flow it needs 3-5x fewer
steps than DOPRI5 at rtol 1e-6..1e-9; each step reads 12 stage arrays."""

ALL_METHODS: list[ButcherTableau] = [EULER, MIDPOINT, HEUN, RK4, DOPRI5, DOP853]
"""Every tableau defined here; tests iterate over it."""


def rk_step(
    field: VectorField,
    tableau: ButcherTableau,
    t: Array,
    y: Array,
    dt: Array,
    args: Mapping[str, Array],
    k1: Array | None = None,
) -> tuple[Array, Array | None, Array | None]:
    """One explicit Runge-Kutta step for every ensemble member at once:
    :func:`rk_stages` without the stage buffer."""
    return rk_stages(field, tableau, t, y, dt, args, k1)[:3]


def rk_stages(
    field: VectorField,
    tableau: ButcherTableau,
    t: Array,
    y: Array,
    dt: Array,
    args: Mapping[str, Array],
    k1: Array | None = None,
) -> tuple[Array, Array | None, Array | None, Array]:
    """One explicit Runge-Kutta step for every ensemble member at once.

    For each member ``m`` (rows of ``y``) with its own time ``t_m`` and step ``h_m``:

    .. math::

        k_i = f\\bigl(t + c_i h,\\; y + h \\textstyle\\sum_{j<i} a_{ij} k_j\\bigr),\\quad
        y_1 = y + h \\textstyle\\sum_i b_i k_i,\\quad
        e = h \\textstyle\\sum_i (b_i - \\hat b_i) k_i .

    The stage derivatives are stacked in one ``(s, B, N)`` buffer so each linear
    combination is a single matrix-vector product (no loop over members, and the
    Python cost per step does not grow with the number of nonzero coefficients).

    Parameters
    ----------
    field: ``field(t, y, args) -> dy``, ``t`` (B,), ``y`` and ``dy`` (B, N).
    tableau: the method.
    t: (B,) current time of each member.
    y: (B, N) current state.
    dt: (B,) step of each member (may differ per member; may be negative).
    args: passed to ``field`` unchanged (already restricted to these members).
    k1: ``field(t, y, args)`` if already known (FSAL, or the first step), else ``None``.

    Returns
    -------
    ``(y1, err, k_next, K)``: ``y1`` (B, N) the propagated solution; ``err`` (B, N) the
    embedded estimate ``e`` -- (2, B, N), ``e`` and ``e_aux``, for a method with a second
    estimate (``b_error_aux``) -- or ``None`` for a method without one; ``k_next`` (B, N)
    ``field(t + dt, y1, args)`` for an FSAL method (reuse it as ``k1`` of the next step
    when this one is accepted), else ``None``.
    ``K`` (s, B, N): the stage derivatives, stage ``j`` in slot
    ``tableau.coefficients(xp, dtype).slot[j]`` (for the dense output,
    :func:`numeric.engine.integrators.dense.dense_polynomial`).
    """
    xp = array_namespace(y, t, dt)
    co = tableau.coefficients(xp, y.dtype)
    s = tableau.stages
    B, N = y.shape
    K = xp.empty((s, B, N), dtype=y.dtype)  # stage j in slot co.slot[j]
    for k in co.zero_slots:
        K[k] = 0
    K[co.slot[0]] = field(t, y, args) if k1 is None else k1
    flat = K.reshape(s, B * N)
    h = dt[:, None].astype(y.dtype, copy=False)  # times stay float64; a float32 state steps in float32
    yi = y
    if s > 1:
        yi = xp.empty(
            y.shape, dtype=y.dtype
        )  # every stage point, in place (the field's output is copied into K)
    for i in range(1, s):
        _combine(xp, co.a_windows[i], flat, h, yi, y)
        K[co.slot[i]] = field(t + co.c[i] * dt, yi, args)
    if tableau.fsal:
        y1 = yi  # the last stage is evaluated at y1 itself (a[s-1] == b)
        k_next = K[co.slot[s - 1]]
    else:
        y1 = _combine(xp, co.b_window, flat, h, xp.empty(y.shape, dtype=y.dtype), y)
        k_next = None
    err = None
    win = co.error_window
    if win is not None:
        err = _combine(xp, win, flat, h, xp.empty(win.coef.shape[:-1] + y.shape, dtype=y.dtype), None)
    return y1, err, k_next, K


def _combine(xp: ModuleType, win: StageWindow, flat: Array, h: Array, out: Array, y: Array | None) -> Array:
    """``out = y + h * (win.coef @ flat[win.lo:win.hi])`` (without ``y`` when it is ``None``)
    in place: one state-sized buffer instead of three temporaries. A ``(E, width)``
    ``win.coef`` fills ``E`` state-sized slices of ``out`` (E, B, N) in one product."""
    xp.matmul(win.coef, flat[win.lo : win.hi], out=out.reshape((*win.coef.shape[:-1], -1)))
    out *= h
    if y is not None:
        out += y
    return out


def method_by_name(name: str) -> ButcherTableau:
    """The tableau in :data:`ALL_METHODS` called ``name`` (case-insensitive)."""
    for m in ALL_METHODS:
        if m.name == name.lower():
            return m
    known = ", ".join(m.name for m in ALL_METHODS)
    raise ValueError(f"unknown method {name!r}; choose one of {known}")
