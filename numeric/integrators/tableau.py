"""Butcher tableaus of explicit Runge-Kutta methods, as validated data.

An ``s``-stage explicit Runge-Kutta method for ``y' = f(t, y)`` advances ``y_0`` by a
step ``h`` as

.. math::

    k_i = f\\Bigl(t_0 + c_i h,\\; y_0 + h \\sum_{j<i} a_{ij} k_j\\Bigr), \\qquad
    y_1 = y_0 + h \\sum_i b_i k_i ,

and, when the method carries an embedded lower-order solution
``\\hat y_1 = y_0 + h \\sum_i \\hat b_i k_i``, its local error estimate is

.. math::

    e = y_1 - \\hat y_1 = h \\sum_i (b_i - \\hat b_i)\\, k_i = h \\sum_i e_i k_i ,

with error weights ``e_i = b_i - \\hat b_i`` (stored as ``b_error``; they sum to 0).
``e = O(h^{q+1})`` where ``q = error_order`` is the order of the embedded solution.

Some high-order pairs carry a *second* embedded estimate ``e_aux = h \\sum_i e^{aux}_i k_i``
and blend the two scaled norms (Hairer's DOP853: ``e`` of 5th and ``e_aux`` of 3rd order),

.. math::

    \\|e\\|_{\\rm blend} = \\frac{\\|e\\|^2}{\\sqrt{\\|e\\|^2 + 0.01\\,\\|e_{aux}\\|^2}} ,

which behaves like ``h^{q+1}`` with ``q = error_order`` the *effective* order (7 for
DOP853) and is robust where either estimate alone under-estimates the error (Hairer,
Nørsett & Wanner, *Solving ODEs I*, Sec. II.10). The step controller forms the blend
(:meth:`numeric.integrators.control.AdaptiveStep.error_norm`).

A method is *first same as last* (FSAL) when its last stage is evaluated at
``(t_0 + h, y_1)``, i.e. ``c_s = 1`` and the last row of ``a`` equals ``b``; then
``k_s`` of an accepted step is ``k_1`` of the next one and costs nothing.

A new method is new data, never a new loop: :func:`numeric.integrators.methods.rk_step`
runs any :class:`ButcherTableau`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import ModuleType
from typing import Any

import numpy as np

Number = float | int | Fraction

# Coefficients are rationals written as floats, so consistency conditions hold to a few
# ulps of the largest coefficient involved; this tolerance is far below any typo.
_CONSISTENCY_TOL = 1e-13


def _as_float_vector(name: str, value: Sequence[Number]) -> tuple[float, ...]:
    try:
        out = tuple(float(v) for v in value)
    except TypeError as exc:
        raise ValueError(f"ButcherTableau: {name} must be a sequence of numbers, got {value!r}") from exc
    if not all(math.isfinite(v) for v in out):
        raise ValueError(f"ButcherTableau: {name} has non-finite entries: {out}")
    return out


@dataclass(frozen=True)
class ButcherTableau:
    """The coefficients of an explicit Runge-Kutta method, checked on construction.

    Attributes
    ----------
    name: short identifier, e.g. ``"dopri5"``.
    c: nodes ``c_i``, length ``s`` (``c_1 = 0`` for an explicit method).
    a: ``s x s`` strictly lower-triangular stage matrix; row ``i`` may be given with
        only its first ``i`` entries (the rest are zeros).
    b: weights ``b_i`` of the propagated solution, length ``s``, summing to 1.
    order: classical order ``p`` of the propagated solution (global error ``O(h^p)``).
    b_error: error weights ``e_i = b_i - \\hat b_i`` (sum 0), or ``None`` when the method
        has no embedded estimate.
    error_order: order ``q`` of the embedded solution ``\\hat y``; the estimate scales as
        ``h^{q+1}``. Required exactly when ``b_error`` is given.
    fsal: first-same-as-last (``c_s = 1`` and ``a_{s,:} = b``).
    citation: where the coefficients come from.

    Raises
    ------
    ValueError: shapes disagree, ``a`` is not strictly lower triangular, a row sum of
        ``a`` differs from its ``c_i``, ``sum(b) != 1``, ``sum(b_error) != 0``, an order
        is missing or not a positive integer, or ``fsal`` is claimed but does not hold.
    """

    name: str
    c: tuple[float, ...]
    a: tuple[tuple[float, ...], ...]
    b: tuple[float, ...]
    order: int
    b_error: tuple[float, ...] | None = None
    error_order: int | None = None
    fsal: bool = False
    b_error_aux: tuple[float, ...] | None = None
    citation: str = ""
    _cache: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        name = self.name
        where = f"ButcherTableau {name!r}"
        c = _as_float_vector("c", self.c)
        b = _as_float_vector("b", self.b)
        s = len(c)
        if s == 0:
            raise ValueError(f"{where}: needs at least one stage, got c={c}")
        if len(b) != s:
            raise ValueError(f"{where}: b has length {len(b)} but c has length {s}")
        try:
            rows = [list(_as_float_vector(f"a[{i}]", row)) for i, row in enumerate(self.a)]
        except TypeError as exc:
            raise ValueError(f"{where}: a must be a sequence of rows, got {self.a!r}") from exc
        if len(rows) != s:
            raise ValueError(f"{where}: a has {len(rows)} rows but the method has {s} stages")
        for i, row in enumerate(rows):
            if len(row) > s:
                raise ValueError(f"{where}: a[{i}] has {len(row)} entries, more than s={s}")
            row.extend([0.0] * (s - len(row)))
            upper = [(j, row[j]) for j in range(i, s) if row[j] != 0.0]
            if upper:
                raise ValueError(
                    f"{where}: a must be strictly lower triangular (explicit method), but "
                    f"a[{i}][{upper[0][0]}] = {upper[0][1]!r}"
                )
            if abs(math.fsum(row) - c[i]) > _CONSISTENCY_TOL * max(1.0, *map(abs, row)):
                raise ValueError(
                    f"{where}: row sum of a[{i}] is {math.fsum(row)!r} but c[{i}] = {c[i]!r}; "
                    "an explicit RK method needs sum_j a_ij = c_i"
                )
        if abs(math.fsum(b) - 1.0) > _CONSISTENCY_TOL * max(1.0, *map(abs, b)):
            raise ValueError(f"{where}: weights b sum to {math.fsum(b)!r}, not 1 (inconsistent method)")
        _check_order(where, "order", self.order)
        b_error = None if self.b_error is None else _error_weights(where, "b_error", self.b_error, s)
        b_error_aux = None
        if self.b_error_aux is not None:
            if b_error is None:
                raise ValueError(f"{where}: b_error_aux is a second estimate, so b_error must be given too")
            b_error_aux = _error_weights(where, "b_error_aux", self.b_error_aux, s)
        if b_error is not None:
            if self.error_order is None:
                raise ValueError(f"{where}: b_error is given, so error_order must be given too")
            _check_order(where, "error_order", self.error_order)
        elif self.error_order is not None:
            raise ValueError(f"{where}: error_order={self.error_order!r} given without b_error")
        if self.fsal:
            if c[-1] != 1.0 or any(abs(x - y) > _CONSISTENCY_TOL for x, y in zip(rows[-1], b, strict=True)):
                raise ValueError(
                    f"{where}: fsal=True needs c[-1] == 1 and the last row of a equal to b "
                    f"(got c[-1]={c[-1]!r}, a[-1]={tuple(rows[-1])}, b={b})"
                )
        if c[0] != 0.0:
            raise ValueError(f"{where}: an explicit method has c[0] = 0, got {c[0]!r}")
        object.__setattr__(self, "c", c)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "a", tuple(tuple(r) for r in rows))
        object.__setattr__(self, "b_error", b_error)
        object.__setattr__(self, "b_error_aux", b_error_aux)

    @property
    def stages(self) -> int:
        """Number of stages ``s`` (function evaluations per step, less one if FSAL)."""
        return len(self.c)

    @property
    def embedded(self) -> bool:
        """True when the method carries an embedded error estimate."""
        return self.b_error is not None

    def coefficients(self, xp: ModuleType, dtype: Any = np.float64) -> _Coefficients:
        """The coefficients as arrays of the namespace ``xp`` in ``dtype`` (cached per pair)."""
        key = (xp.__name__, np.dtype(dtype).name)
        found = self._cache.get(key)
        if found is None:
            found = _Coefficients(self, xp, dtype)
            self._cache[key] = found
        return found


def _error_weights(where: str, name: str, value: Sequence[Number], s: int) -> tuple[float, ...]:
    """Error weights ``b - b_hat``: length ``s``, summing to 0 (a consistent embedded solution)."""
    w = _as_float_vector(name, value)
    if len(w) != s:
        raise ValueError(f"{where}: {name} has length {len(w)} but c has length {s}")
    if abs(math.fsum(w)) > _CONSISTENCY_TOL * max(1.0, *map(abs, w)):
        raise ValueError(
            f"{where}: error weights {name} = b - b_hat sum to {math.fsum(w)!r}, "
            "not 0 (the embedded solution must be consistent too)"
        )
    return w


def _check_order(where: str, name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise ValueError(
            f"{where}: {name} must be a positive integer, got {value!r} ({type(value).__name__})"
        )


class _Coefficients:
    """Device copies of a tableau: ``a_rows[i]`` is ``a[i, :i]`` as a 1-D array; ``errors``
    the error weights as a ``(s,)`` vector, or ``(2, s)`` rows ``[b_error, b_error_aux]``."""

    def __init__(self, tableau: ButcherTableau, xp: ModuleType, dtype: Any = np.float64):
        host = np.asarray(tableau.a, dtype=dtype)
        self.c: tuple[float, ...] = tableau.c
        self.a_rows: list[Any] = [xp.asarray(host[i, :i]) for i in range(tableau.stages)]
        self.b: Any = xp.asarray(np.asarray(tableau.b, dtype=dtype))
        weights = [w for w in (tableau.b_error, tableau.b_error_aux) if w is not None]
        self.errors: Any = None
        if weights:
            rows = np.asarray(weights, dtype=dtype)
            self.errors = xp.asarray(rows[0] if len(weights) == 1 else rows)
