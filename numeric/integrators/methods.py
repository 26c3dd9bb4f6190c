"""Explicit Runge-Kutta methods (as tableaus) and one generic, batched RK step.

Every method here is a :class:`~numeric.integrators.tableau.ButcherTableau`; the single
function :func:`rk_step` runs any of them on a whole ensemble at once. ``ALL_METHODS``
lists every method so that tests (order of accuracy, ...) cover each new one
automatically.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction as F
from types import ModuleType

from numeric.backend import Array, array_namespace
from numeric.integrators.tableau import ButcherTableau

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
)
"""Dormand-Prince 5(4): 7 stages (6 evaluations per step with FSAL), order 5 with a
4th-order embedded solution, so the error estimate scales as ``h^5``. Local
extrapolation: the 5th-order solution is propagated."""

ALL_METHODS: list[ButcherTableau] = [EULER, MIDPOINT, HEUN, RK4, DOPRI5]
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
    ``(y1, err, k_next)``: ``y1`` (B, N) the propagated solution; ``err`` (B, N) the
    embedded estimate ``e`` or ``None`` for a method without one; ``k_next`` (B, N)
    ``field(t + dt, y1, args)`` for an FSAL method (reuse it as ``k1`` of the next step
    when this one is accepted), else ``None``.
    """
    xp = array_namespace(y, t, dt)
    co = tableau.coefficients(xp, y.dtype)
    s = tableau.stages
    B, N = y.shape
    K = xp.empty((s, B, N), dtype=y.dtype)
    K[0] = field(t, y, args) if k1 is None else k1
    flat = K.reshape(s, B * N)
    h = dt[:, None].astype(y.dtype, copy=False)  # times stay float64; a float32 state steps in float32
    yi = y
    if s > 1:
        yi = xp.empty(
            y.shape, dtype=y.dtype
        )  # every stage point, in place (the field's output is copied into K)
    for i in range(1, s):
        _combine(xp, co.a_rows[i], flat[:i], h, yi, y)
        K[i] = field(t + co.c[i] * dt, yi, args)
    if tableau.fsal:
        y1 = yi  # the last stage is evaluated at y1 itself (a[s-1] == b)
        k_next = K[s - 1]
    else:
        y1 = _combine(xp, co.b, flat, h, xp.empty(y.shape, dtype=y.dtype), y)
        k_next = None
    err = (
        None
        if co.b_error is None
        else _combine(xp, co.b_error, flat, h, xp.empty(y.shape, dtype=y.dtype), None)
    )
    return y1, err, k_next


def _combine(xp: ModuleType, coef: Array, flat: Array, h: Array, out: Array, y: Array | None) -> Array:
    """``out = y + h * (coef @ flat)`` (``h * (coef @ flat)`` when ``y`` is ``None``) in place:
    one state-sized buffer instead of three temporaries, the same roundings in the same order."""
    xp.matmul(coef, flat, out=out.reshape(-1))
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
