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
(:meth:`numeric.engine.integrators.control.AdaptiveStep.error_norm`).

A method is *first same as last* (FSAL) when its last stage is evaluated at
``(t_0 + h, y_1)``, i.e. ``c_s = 1`` and the last row of ``a`` equals ``b``; then
``k_s`` of an accepted step is ``k_1`` of the next one and costs nothing.

A method may carry a *continuous extension* (dense output, :class:`DenseOutput`): a
polynomial ``u(theta)``, ``0 <= theta <= 1``, with ``u(0) = y_0``, ``u(1) = y_1``, built
from the step's stages (plus, for some methods, a few extra stages), that approximates
the solution inside the step.

A new method is new data, never a new loop: :func:`numeric.engine.integrators.methods.rk_step`
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
    dense: the continuous extension (:class:`DenseOutput`), or ``None``.

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
    dense: DenseOutput | None = None
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
        if self.dense is not None:
            self.dense.check(where, b, self.fsal)

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


@dataclass(frozen=True)
class DenseOutput:
    """A continuous extension in Hairer's nested form (the codes DOPRI5 and DOP853 of
    E. Hairer, S. P. Nørsett and G. Wanner, *Solving ODEs I*, 2nd ed., Sec. II.6).

    With ``theta = (t - t_0) / h`` and ``r_i = h sum_j R_{ij} k_j``,

    .. math::

        u(\\theta) = y_0 + \\theta\\bigl(r_1 + (1-\\theta)\\bigl(r_2 + \\theta\\bigl(r_3 + (1-\\theta)
        \\bigl(r_4 + \\theta(r_5 + \\cdots)\\bigr)\\bigr)\\bigr)\\bigr),

    i.e. ``u = y_0 + sum_i w_i(theta) r_i`` with ``w_i = theta^{floor(i/2)+1} (1-theta)^{ceil(i/2)}``
    (0-based ``i``). The first three rows are fixed by the step's ends, and make the cubic
    Hermite interpolant of ``y_0, f(y_0), y_1, f(y_1)``: ``r_1 = y_1 - y_0`` (``R_1 = b``),
    ``r_2 = h k_1 - r_1``, ``r_3 = r_1 - h k_s - r_2`` (``k_s = f(t_0 + h, y_1)``, the FSAL
    stage). The rows ``d`` add the higher-order corrections; ``d`` may use ``len(c_extra)``
    extra stages evaluated after the step,
    ``k_{s+e} = f(t_0 + c^x_e h, y_0 + h sum_j a^x_{ej} k_j)`` over all earlier stages.

    The monomial weights ``b_j(theta) = sum_p weights[j][p] theta^{p+1}`` (so
    ``u = y_0 + h sum_j b_j(theta) k_j``) are derived on construction.

    Attributes
    ----------
    d: correction rows, each over the ``s + len(c_extra)`` stages.
    order: order ``p*`` of the interpolant (``u(theta) - y(t_0 + theta h) = O(h^{p*+1})``).
    c_extra, a_extra: nodes and rows (over the stages before each) of the extra stages.
    citation: where the coefficients come from.
    """

    d: tuple[tuple[float, ...], ...]
    order: int
    c_extra: tuple[float, ...] = ()
    a_extra: tuple[tuple[float, ...], ...] = ()
    citation: str = ""

    def check(self, where: str, b: tuple[float, ...], fsal: bool) -> None:
        """Validate against the method's weights ``b`` and derive ``weights``; raise ``ValueError``."""
        s = len(b)
        if not fsal:
            raise ValueError(f"{where}: the dense output's Hermite rows need an FSAL method")
        _check_order(where, "dense order", self.order)
        n_x = len(self.c_extra)
        if len(self.a_extra) != n_x:
            raise ValueError(f"{where}: dense output has {n_x} extra nodes but {len(self.a_extra)} rows")
        for e, (ce, row) in enumerate(zip(self.c_extra, self.a_extra, strict=True)):
            r = _as_float_vector(f"dense a_extra[{e}]", row)
            if len(r) != s + e:
                raise ValueError(f"{where}: dense a_extra[{e}] has length {len(r)}, needs {s + e}")
            if abs(math.fsum(r) - ce) > _CONSISTENCY_TOL * max(1.0, *map(abs, r)):
                raise ValueError(f"{where}: row sum of dense a_extra[{e}] is {math.fsum(r)!r}, not {ce!r}")
        width = s + n_x
        d = [_as_float_vector(f"dense d[{i}]", row) for i, row in enumerate(self.d)]
        if any(len(row) != width for row in d):
            raise ValueError(f"{where}: every dense row d needs {width} entries (stages plus extra stages)")
        bx = np.zeros(width)
        bx[:s] = b
        first = np.zeros(width)
        first[0] = 1.0
        last = np.zeros(width)
        last[s - 1] = 1.0
        rows = np.array([bx, first - bx, 2 * bx - first - last, *d])
        basis = np.zeros((len(rows), len(rows) + 1))  # monomial coefficients of w_i, degree 0..
        for i in range(len(rows)):
            up, down = i // 2 + 1, (i + 1) // 2
            poly = np.polynomial.polynomial.polypow([1.0, -1.0], down)
            basis[i, up : up + down + 1] = poly
        weights = rows.T @ basis[:, 1:]  # (stages, degree): theta^1 ... theta^degree
        object.__setattr__(self, "c_extra", tuple(float(c) for c in self.c_extra))
        object.__setattr__(self, "a_extra", tuple(tuple(float(x) for x in r) for r in self.a_extra))
        object.__setattr__(self, "d", tuple(d))
        object.__setattr__(self, "_weights", weights)

    @property
    def weights(self) -> np.ndarray:
        """(s + extra stages, degree) monomial weights: ``b_j(theta) = sum_p weights[j, p] theta^{p+1}``."""
        return self._weights  # type: ignore[attr-defined]

    @property
    def degree(self) -> int:
        return int(self.weights.shape[1])


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


class StageWindow:
    """A linear combination ``sum_j w_j k_j`` read from one contiguous range of stage slots:
    ``coef @ K[lo:hi]`` with ``coef`` of shape ``(hi - lo,)`` or ``(E, hi - lo)``."""

    def __init__(self, lo: int, hi: int, coef: Any):
        self.lo, self.hi, self.coef = lo, hi, coef


def _windows(
    users: list[tuple[frozenset[int], int]], order: list[int]
) -> tuple[list[tuple[int, int]], set[int]]:
    """Slot range of each user ``(stages it reads, stages computed before it)`` under the
    slot ``order``, and the slots some range covers before their stage is computed."""
    slot = {j: k for k, j in enumerate(order)}
    ranges, zero = [], set()
    for used, computed in users:
        slots = [slot[j] for j in used]
        lo, hi = min(slots), max(slots) + 1
        ranges.append((lo, hi))
        zero.update(k for k in range(lo, hi) if order[k] >= computed)
    return ranges, zero


def _stage_order(users: list[tuple[frozenset[int], int]], s: int) -> list[int]:
    """The slot order that minimises stage reads plus zero fills of one step.

    Start from the order of last use (a stage that drops out early goes first), then move
    single stages to other positions while that lowers the cost (a local search; s <= 13).
    """

    def cost(order: list[int]) -> int:
        ranges, zero = _windows(users, order)
        return sum(hi - lo for lo, hi in ranges) + len(zero)

    last = [max((u for u, (used, _) in enumerate(users) if j in used), default=len(users)) for j in range(s)]
    order = sorted(range(s), key=lambda j: (last[j], j))
    best, improved = cost(order), True
    while improved:
        improved = False
        for j in range(s):
            rest = [x for x in order if x != j]
            for k in range(s):
                trial = [*rest[:k], j, *rest[k:]]
                c = cost(trial)
                if c < best:
                    order, best, improved = trial, c, True
    return order


class _Coefficients:
    """Device copies of a tableau, laid out for :func:`numeric.engine.integrators.methods.rk_step`.

    The stage derivatives live in one ``(s, B, N)`` buffer, stage ``j`` in slot
    ``slot[j]``, and every combination reads one contiguous window of slots. The slot
    order (:func:`_stage_order`) keeps stages that drop out early (DOP853's ``k_2`` ...
    ``k_5``; DOPRI5's ``k_2``) outside the later, longer windows, so a combination reads
    its nonzero stages plus few zero-weight ones between them: DOP853 reads 71 stage
    arrays per step instead of 91, DOPRI5 26 instead of 28 (the combinations are
    memory-bound). ``a_windows[i]`` forms stage ``i``'s point, ``b_window`` the solution,
    ``error_window`` the estimate(s) (``(2, width)`` rows ``[b_error, b_error_aux]`` for two
    estimates). A window may cover a slot whose stage is not computed yet (with weight 0);
    those slots, ``zero_slots``, must hold zeros (not stale NaNs) before the step.
    """

    def __init__(self, tableau: ButcherTableau, xp: ModuleType, dtype: Any = np.float64):
        s = tableau.stages
        a = np.asarray(tableau.a, dtype=np.float64)
        estimates = [w for w in (tableau.b_error, tableau.b_error_aux) if w is not None]
        error = None if not estimates else np.asarray(estimates[0] if len(estimates) == 1 else estimates)
        weights = [(a[i], i) for i in range(1, s)] + [(np.asarray(tableau.b), s)]
        if error is not None:
            weights.append((error, s))
        # a combination reads the stages with a nonzero weight (at least k_1, for shape)
        users = [
            (frozenset(np.flatnonzero(np.any(w.reshape(-1, s) != 0, axis=0))) or frozenset({0}), n)
            for w, n in weights
        ]
        order = _stage_order(users, s)
        ranges, zero = _windows(users, order)

        def window(u: int) -> StageWindow:
            w, (lo, hi) = weights[u][0], ranges[u]
            return StageWindow(lo, hi, xp.asarray(w[..., order[lo:hi]].astype(dtype)))

        self.c: tuple[float, ...] = tableau.c
        self.slot: tuple[int, ...] = tuple(order.index(j) for j in range(s))
        self.a_windows: list[StageWindow | None] = [None] + [window(u) for u in range(s - 1)]
        self.b_window = window(s - 1)
        self.error_window = None if error is None else window(s)
        self.zero_slots: tuple[int, ...] = tuple(sorted(zero))
        self.dense = None if tableau.dense is None else _DenseCoefficients(tableau.dense, order, xp, dtype)


class _DenseCoefficients:
    """A :class:`DenseOutput` with its stage columns in the slot order of the stage buffer:
    ``weights_t`` (degree, s + extra) and ``a_extra[e]`` (s + e,) act on the buffer extended by
    the extra stages (slot order for the first ``s``, then the extras in order)."""

    def __init__(self, dense: DenseOutput, order: list[int], xp: ModuleType, dtype: Any):
        s = len(order)

        def slots(w: Sequence[float]) -> Any:
            w = np.asarray(w, dtype=np.float64)
            # contiguous: a transposed operand sends NumPy's matmul off BLAS
            return np.ascontiguousarray(np.concatenate([w[..., order], w[..., s:]], axis=-1), dtype=dtype)

        self.c_extra: tuple[float, ...] = dense.c_extra
        self.a_extra = [xp.asarray(slots(row)) for row in dense.a_extra]
        self.weights_t = xp.asarray(slots(dense.weights.T))
        self.degree = dense.degree
