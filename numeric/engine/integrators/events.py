r"""Event location for piecewise-smooth fields: switching surfaces, activation patterns, sliding.

A field is *piecewise smooth* when it is one smooth field on each side of the surfaces
``g_e(y) = 0`` (``e = 1..E`` per member), e.g. a ReLU network's gradient flow, whose
pieces are selected by the signs of the pre-activations ``w_j . x_i``. A classical
error-controlled Runge-Kutta step that straddles a surface integrates a field with a
jump in it (or in a derivative): the error estimate finds the jump by trial and error,
so the steps shrink near every switch. Here the solver does instead:

1. **Frozen pattern.** The field reads a *pattern* from ``args[switching.key]`` (B, E):
   the smooth piece to use for every entry (for the ReLU flow, the slope
   :math:`\sigma'` of each pre-activation), and evaluates that piece even on the far side
   of the surface (its smooth continuation). Every step then integrates a smooth field
   at the method's full order.
2. **Detection.** After an accepted step ``t_0 -> t_0 + h``, each entry ``e`` whose side
   ``s_e = +-1`` is monitored is checked on the cubic Hermite interpolant of
   ``g_e`` (from ``g(y_0), g(f_0), g(y_1), g(f_1)``: :math:`g` is linear in ``y``, so
   :math:`\dot g = g(f)`) at ``theta = 1/4, 1/2, 3/4, 1``: a sample with
   ``s_e g_e < 0`` below its start value flags the entry (an entry resting at a
   rounding-level value on the wrong side is not a crossing). A crossing the cubic does
   not see (a double crossing within one step, of amplitude below the cubic's O(h^4)
   error) is missed.
3. **Location.** For flagged members only, the method's dense output (DOPRI5: 4th
   order, no extra work; DOP853: 7th order, three extra field calls) gives ``g_e`` as a
   polynomial in ``theta``; it is sampled at ``theta = k/8``, the first interval with a
   sign change against ``s_e`` brackets the earliest root, and a vectorised Illinois
   (regula falsi) iteration over all bracketed entries of all flagged members at once
   locates it to 4 ulps of ``theta``. The earliest root ``theta*`` over a member's entries
   is its event.
4. **Truncation and restart.** The member's step ends at ``t_0 + theta* h`` with the
   state ``u(theta*)`` of the dense output (the right end of the final bracket: the
   state is on the new side), the entries with that root flip side and take the new
   side's piece (``switching.slopes`` of the side, i.e. the field's own convention at a
   nonzero value), and the member restarts with a fresh ``f(t*, y*)``.
5. **Sliding (Filippov).** If, after the flip, the new side's velocity points back
   into the surface (``s_e\, \dot g_e < 0`` on the new side, while the old side's
   pointed into it too, since it crossed), both sides point into the surface: the
   exact solution slides along it. The entry is recorded (member, entry, start time)
   and, for a field with a sliding mode (``Switching.exits``), marked *sliding*: the
   field integrates the convex combination of the two pieces that keeps ``g_e`` at 0
   (its weight clipped to [0, 1]), and at the end of every accepted step ``exits``
   says where the flow leaves the surface (the unclipped weight out of range); such an
   entry takes the side it leaves to, and its segment is closed. Since the clipped
   combination *is* that side's piece, the solution past the exit is right without
   locating the exit time. A field without a sliding mode gets the entry back *live*
   (``args[switching.live_key]``: its own convention at the current state, as without
   events, so the error control chatters); a live entry is monitored again at the end of
   the first accepted step where the flow leaves the surface (``g_e \dot g_e > 0``).

Entries exactly on a surface at the start (``g_e(y_0) = 0``) start live, too.

Members keep their own events; there is no Python loop over members or entries. All
array work is array-namespace code (NumPy or CuPy); per step the host sees whether any
entry was flagged and, if so, the flagged (member, entry) indices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.engine.ensemble import take_members
from numeric.engine.integrators.dense import dense_eval, dense_polynomial
from numeric.engine.integrators.methods import VectorField
from numeric.engine.integrators.tableau import ButcherTableau
from numeric.engine.trajectory import Trajectory

PATTERN_KEY = "slope_pattern"  # default args key of the pattern
LIVE_KEY = "slope_live"  # default args key of the live mask
SLIDE_KEY = "slope_sliding"  # default args key of the sliding mask
_DETECT_THETAS = (0.25, 0.5, 0.75, 1.0)  # Hermite samples of the detection (1 = the step's end)
_LOCATE_SAMPLES = 8  # dense-output samples theta = k/8 that bracket the earliest root
_ROOT_ULPS = 4  # the bracket on theta in [0, 1] is closed to 4 eps
_MAX_ROOT_ITERATIONS = 300  # every 4th iteration bisects: width 2^-52 in <= 4 * 52 iterations


@dataclass(frozen=True)
class Switching:
    """The switching surfaces of a piecewise-smooth field (declared by the field).

    Attributes
    ----------
    values: ``values(y, args) -> g`` (B, E), **linear** in ``y`` and independent of the pattern
        and masks in ``args`` (``g(a y + b z) = a g(y) + b g(z)``;
        for the ReLU flow the first-layer pre-activations ``w_j . x_i``), so that
        ``g(f)`` is the time derivative of ``g`` along the flow and ``g`` of the dense
        output is a polynomial in ``theta``.
    slopes: ``slopes(g, args) -> pattern`` (B, E): the piece the field uses at values
        ``g`` (its own convention, including its value at ``g = 0``); the solver calls
        it with ``g = +-1`` to get each side's piece.
    key: the ``args`` entry (B, E) from which the field reads the pattern.
    live_key: the ``args`` entry (B, E) bool, present only while some entry is live,
        marking entries for which the field ignores the pattern and uses its own
        convention at the current state.
    exits: ``exits(t, y, args) -> (B, E)`` for a field with a sliding mode: the field then
        integrates the entries marked in ``args[slide_key]`` (B, E) bool (present only
        while some entry slides) in the Filippov sliding mode -- the convex combination of
        the two sides' pieces with ``g_e' = 0``, its coefficient clipped to [0, 1] -- and
        ``exits`` says, per sliding entry, +1 / -1 when the flow leaves the surface to the
        positive / negative side (the unclipped coefficient is out of range), else 0.
        ``None``: sliding entries are integrated live (the error control chatters).
    """

    values: Callable[[Array, Mapping[str, Array]], Array]
    slopes: Callable[[Array, Mapping[str, Array]], Array]
    key: str = PATTERN_KEY
    live_key: str = LIVE_KEY
    exits: Callable[[Array, Array, Mapping[str, Array]], Array] | None = None
    slide_key: str = SLIDE_KEY


@dataclass
class EventTrajectory(Trajectory):
    """A :class:`~numeric.engine.trajectory.Trajectory` of a solve with events, plus per member:

    n_events: (B,) located switching events (steps truncated at a surface).
    n_sliding: (B,) sliding segments detected.
    sliding: host arrays ``member``, ``entry``, ``t_start``, ``t_end`` of every sliding
        segment, one row per segment (``t_end`` NaN: still sliding when the member stopped).
    """

    n_events: np.ndarray | None = None
    n_sliding: np.ndarray | None = None
    sliding: dict[str, np.ndarray] | None = None


def check_method(method: ButcherTableau) -> None:
    """Events need the method's dense output (and hence FSAL); raise ``ValueError`` otherwise."""
    if method.dense is None:
        raise ValueError(
            f"events need a method with a dense output (DOPRI5 or DOP853); {method.name!r} has none"
        )


class EventTracker:
    """Per-member event state of one solve over its active members (compact arrays).

    ``side`` (A, E): +1 / -1 the monitored side of each entry, 0 live; ``pattern`` (A, E)
    the field's piece; ``gy``, ``gf`` (A, E): ``g`` of the current state and of its slope.
    """

    def __init__(
        self, switching: Switching, method: ButcherTableau, field: VectorField, y: Array, args: dict
    ):
        check_method(method)
        self.sw, self.method, self.field = switching, method, field
        xp = self.xp = array_namespace(y)
        gy = switching.values(y, args)
        if gy.ndim != 2 or gy.shape[0] != y.shape[0]:
            raise ValueError(f"switching.values(y, args) must have shape (B, E), got {tuple(gy.shape)}")
        self.gy = gy
        self.side = xp.sign(gy)
        live = self.side == 0
        self.pattern = switching.slopes(xp.where(live, gy, self.side), args)
        self.live = live
        self.has_live = bool(to_numpy(live.any()))
        self.sliding = xp.zeros(gy.shape, dtype=bool)
        self.has_sliding = False
        A = y.shape[0]
        self.gf = None
        self.n_events = np.zeros(A, dtype=np.int64)
        self.n_sliding = np.zeros(A, dtype=np.int64)
        self.slide_t0 = xp.full(gy.shape, xp.nan)  # start time of an open sliding segment
        self.records: list[tuple[np.ndarray, ...]] = []

    # -- the field's arguments --------------------------------------------------------
    def args(self, args: Mapping[str, Array]) -> dict[str, Array]:
        """``args`` with the current pattern (and live / sliding masks while there are any)."""
        sw = self.sw
        out = {k: v for k, v in args.items() if k not in (sw.live_key, sw.slide_key)}
        out[sw.key] = self.pattern
        if self.has_live:
            out[sw.live_key] = self.live
        if self.has_sliding:
            out[sw.slide_key] = self.sliding
        return out

    def start(self, k1: Array, args: Mapping[str, Array]) -> None:
        self.gf = self.sw.values(k1, args)

    def keep(self, keep_d: Array, keep_h: np.ndarray) -> None:
        """Restrict to the members ``keep`` (local indices)."""
        for name in ("gy", "gf", "side", "pattern", "live", "sliding", "slide_t0"):
            setattr(self, name, getattr(self, name)[keep_d])
        self.n_events, self.n_sliding = self.n_events[keep_h], self.n_sliding[keep_h]

    def close(self, sel_d: Array, gids: np.ndarray) -> None:
        """Record the open sliding segments of members ``sel`` (local) that stop now."""
        open_ = ~self.xp.isnan(self.slide_t0[sel_d])
        if bool(to_numpy(open_.any())):
            m, e = (to_numpy(a) for a in self.xp.nonzero(open_))
            t0 = to_numpy(self.slide_t0[sel_d][open_])
            self.records.append((gids[m], e, t0, np.full(m.size, np.nan)))

    # -- one accepted step --------------------------------------------------------------
    def after_step(
        self,
        t0: Array,
        y0: Array,
        dt: Array,
        K: Array,
        accept: Array,
        t: Array,
        y: Array,
        k1: Array,
        args: Mapping[str, Array],
        ids_h: np.ndarray,
    ) -> tuple[Array, Array, Array, np.ndarray, np.ndarray]:
        """Detect, locate and apply the events of the step ``t0 -> t0 + dt`` just taken.

        ``t, y, k1`` are the members' time, state and slope after the step (unchanged for
        rejected members); ``args`` the step's arguments (with the pattern). Returns
        ``(t, y, k1, truncated, extra_evals)``: the first three with every event member's
        step cut at its event, ``truncated`` (A,) host bool (the member's step ended
        before ``t0 + dt``), ``extra_evals`` (A,) field evaluations spent here.
        """
        xp = self.xp
        A = y.shape[0]
        gy0, gf0 = self.gy, self.gf
        both = self._values(xp.stack([y, k1]), args)
        gy1, gf1 = both[0], both[1]
        extra = np.zeros(A, dtype=np.int64)
        truncated = np.zeros(A, dtype=bool)
        # cubic Hermite of g over the step, monomial coefficients c0..c3, times the side
        h = dt[:, None]
        delta = gy1 - gy0
        r2 = h * gf0 - delta
        r3 = delta - h * gf1 - r2
        coef = xp.stack([gy0, delta + r2, r3 - r2, -r3]) * self.side
        vander = xp.asarray(np.vander(np.asarray(_DETECT_THETAS), 4, increasing=True))
        signed = (vander @ coef.reshape(4, -1)).reshape(len(_DETECT_THETAS), A, -1)
        cross = _crossing(signed, coef[0]).any(axis=0) & accept[:, None]  # (A, E)
        self.gy, self.gf = gy1, gf1
        if bool(to_numpy(cross.any())):
            mi, ei = (to_numpy(a) for a in xp.nonzero(cross))
            t, y, k1, truncated, extra = self._locate(
                mi, ei, t0, y0, dt, K, gy0, t, y, k1, args, ids_h, extra, truncated
            )
        if self.has_live:
            self._remonitor(accept, t, ids_h, args)
        if self.has_sliding:
            self._exit_sliding(accept, t, y, args, ids_h)
        return t, y, k1, truncated, extra

    def _locate(
        self,
        mi: np.ndarray,
        ei: np.ndarray,
        t0: Array,
        y0: Array,
        dt: Array,
        K: Array,
        gy0: Array,
        t: Array,
        y: Array,
        k1: Array,
        args: Mapping[str, Array],
        ids_h: np.ndarray,
        extra: np.ndarray,
        truncated: np.ndarray,
    ) -> tuple[Array, Array, Array, np.ndarray, np.ndarray]:
        xp, sw, method = self.xp, self.sw, self.method

        F, pos = np.unique(mi, return_inverse=True)  # flagged members; entry -> its member's row
        F_d, pos_d, ei_d = xp.asarray(F), xp.asarray(pos), xp.asarray(ei)
        if F.size == y.shape[0]:  # every member flagged (common: many entries per member): no gathers
            args_F, t0_F, y0_F, dt_F, K_F, side = args, t0, y0, dt, K, self.side
        else:
            args_F, side = take_members(args, F_d), self.side[F_d]
            t0_F, y0_F, dt_F, K_F = t0[F_d], y0[F_d], dt[F_d], K[:, F_d]
        Q = dense_polynomial(self.field, method, t0_F, y0_F, dt_F, K_F, args_F)
        extra[F] += len(method.dense.c_extra)
        # g of the flagged entries along the dense output: polynomials in theta, times the side
        mi_d = xp.asarray(mi)
        gq = self._values(Q, args_F)[:, pos_d, ei_d]  # (D, n)
        coef = xp.concatenate([gy0[mi_d, ei_d][None], gq]) * side[pos_d, ei_d]  # (D + 1, n)
        thetas = np.linspace(0.0, 1.0, _LOCATE_SAMPLES + 1)
        vander = xp.asarray(np.vander(thetas, coef.shape[0], increasing=True))
        signed = vander @ coef  # (samples, n)
        wrong = _crossing(signed[1:], signed[0])
        k = xp.argmax(wrong, axis=0)  # the first sampled interval with a crossing
        roots = _illinois(xp, coef, k / _LOCATE_SAMPLES, (k + 1) / _LOCATE_SAMPLES)
        table = xp.full((F.size, side.shape[1]), xp.inf)
        table[pos_d, ei_d] = xp.where(wrong.any(axis=0), roots, xp.inf)  # none: a Hermite artefact
        theta = table.min(axis=1)  # (|F|,) earliest root per flagged member
        hit = to_numpy(xp.isfinite(theta))
        E_loc = np.flatnonzero(hit)
        if E_loc.size == 0:
            return t, y, k1, truncated, extra
        G = F[E_loc]  # local member indices with an event
        every = G.size == y.shape[0]  # every member has an event (common): views, no gathers
        E_d: Any = slice(None) if every else xp.asarray(E_loc)
        G_d: Any = slice(None) if every else xp.asarray(G)
        th = theta[E_d]
        flip = table[E_d] <= th[:, None]
        # truncate: the member's step ends at its event
        t_ev = t0_F[E_d] + th * dt_F[E_d]
        y_ev = dense_eval(y0_F[E_d], Q[:, E_d], th)
        cut = to_numpy(th < 1.0)
        t[G_d] = xp.where(th < 1.0, t_ev, t[G_d])
        y[G_d] = xp.where((th < 1.0)[:, None], y_ev, y[G_d])
        truncated[G] = cut
        # flip the entries and restart with the new side's piece
        new_side = xp.where(flip, -side[E_d], side[E_d])
        self.side[G_d] = new_side
        args_G = args if every else take_members(args, G_d)
        pat = xp.where(flip, sw.slopes(new_side, args_G), self.pattern[G_d])
        self.pattern[G_d] = pat
        self.n_events[G] += 1
        y_G, t_G = y[G_d], t[G_d]
        k_G = self.field(t_G, y_G, self._args_of(args_G, G_d))
        extra[G] += 1
        gf_G = sw.values(k_G, args_G)
        # sliding: the new side's flow points back into the surface
        slides = flip & (new_side * gf_G < 0)
        if bool(to_numpy(slides.any())):
            self._start_sliding(G, G_d, slides, t_G, ids_h)
            k_G = self.field(t_G, y_G, self._args_of(args_G, G_d))
            extra[G] += 1
            gf_G = sw.values(k_G, args_G)
        k1[G_d] = k_G
        self.gy[G_d] = sw.values(y_G, args_G)
        self.gf[G_d] = gf_G
        return t, y, k1, truncated, extra

    def _values(self, Ys: Array, args: Mapping[str, Array]) -> Array:
        """``values`` of a stack of states ``Ys`` (S, A, N) -> (S, A, E): one call on the
        (S A, N) stack when every argument ``values`` may read is shared by all members
        (leading axis 1; the pattern and masks are not arguments of ``values``), else one
        call per state."""
        sw = self.sw
        base = {k: v for k, v in args.items() if k not in (sw.key, sw.live_key, sw.slide_key)}
        S, A, N = Ys.shape
        if all(v.shape[0] == 1 for v in base.values()):
            return sw.values(Ys.reshape(S * A, N), base).reshape(S, A, -1)
        return self.xp.stack([sw.values(Ys[i], args) for i in range(S)])

    def _args_of(self, args_G: Mapping[str, Array], G_d: Array) -> dict[str, Array]:
        """The field's arguments of members ``G`` with their current pattern and masks."""
        sw = self.sw
        out = {k: v for k, v in args_G.items() if k not in (sw.live_key, sw.slide_key)}
        out[sw.key] = self.pattern[G_d]
        if self.has_live:
            out[sw.live_key] = self.live[G_d]
        if self.has_sliding:
            out[sw.slide_key] = self.sliding[G_d]
        return out

    def _start_sliding(self, G: np.ndarray, G_d: Array, slides: Array, t_G: Array, ids_h: np.ndarray) -> None:
        xp = self.xp
        self.side[G_d] = xp.where(slides, 0.0, self.side[G_d])
        if self.sw.exits is not None:  # the field integrates the sliding mode
            self.sliding[G_d] = slides | self.sliding[G_d]
            self.has_sliding = True
        else:
            self.live[G_d] = slides | self.live[G_d]
            self.has_live = True
        self.slide_t0[G_d] = xp.where(slides, t_G[:, None], self.slide_t0[G_d])
        self.n_sliding[G] += to_numpy(slides.sum(axis=1))

    def _exit_sliding(
        self, accept: Array, t: Array, y: Array, args: Mapping[str, Array], ids_h: np.ndarray
    ) -> None:
        """Sliding entries whose flow leaves the surface (``exits != 0``) at the end of an accepted
        step take the side they leave to. The field clipped their coefficient already, so its
        value there *is* that side's piece, and the member's FSAL slope stays valid."""
        xp, sw = self.xp, self.sw
        ex = sw.exits(t, y, self.args(args))
        leave = self.sliding & (ex != 0) & accept[:, None]
        if not bool(to_numpy(leave.any())):
            return
        m, e = (to_numpy(a) for a in xp.nonzero(leave))
        self.records.append((ids_h[m], e, to_numpy(self.slide_t0[leave]), to_numpy(t)[m]))
        self.slide_t0 = xp.where(leave, xp.nan, self.slide_t0)
        self.side = xp.where(leave, ex, self.side)
        self.pattern = xp.where(leave, sw.slopes(self.side, args), self.pattern)
        self.sliding = self.sliding & ~leave
        self.has_sliding = bool(to_numpy(self.sliding.any()))

    def _remonitor(self, accept: Array, t: Array, ids_h: np.ndarray, args: Mapping[str, Array]) -> None:
        """Live entries whose flow leaves the surface (``g g' > 0``) are monitored again."""
        xp = self.xp
        leave = self.live & (self.gy * self.gf > 0) & accept[:, None]
        if not bool(to_numpy(leave.any())):
            return
        was_sliding = leave & ~xp.isnan(self.slide_t0)
        if bool(to_numpy(was_sliding.any())):
            m, e = (to_numpy(a) for a in xp.nonzero(was_sliding))
            t0 = to_numpy(self.slide_t0[was_sliding])
            self.records.append((ids_h[m], e, t0, to_numpy(t)[m]))
            self.slide_t0 = xp.where(was_sliding, xp.nan, self.slide_t0)
        new_side = xp.where(leave, xp.sign(self.gy), self.side)
        self.pattern = xp.where(leave, self.sw.slopes(new_side, args), self.pattern)
        self.side = new_side
        self.live = self.live & ~leave
        self.has_live = bool(to_numpy(self.live.any()))

    def sliding_table(self) -> dict[str, np.ndarray]:
        cols = ("member", "entry", "t_start", "t_end")
        if not self.records:
            return {c: np.zeros(0, dtype=np.int64 if i < 2 else np.float64) for i, c in enumerate(cols)}
        parts = list(zip(*self.records, strict=True))
        out = {c: np.concatenate(p) for c, p in zip(cols, parts, strict=True)}
        order = np.lexsort((out["t_start"], out["member"]))
        return {c: v[order] for c, v in out.items()}


def _crossing(signed: Array, start: Array) -> Array:
    """Samples of ``side * g`` that are across the surface (``< 0``) *and* below the step's
    start: an entry resting at a rounding-level value on the wrong side (a neuron whose
    pre-activation stays where it died, with zero velocity on the dead side) is no crossing."""
    return (signed < 0) & (signed < start)


def _horner(c: Array, x: Array) -> Array:
    """``sum_p c[p] x^p`` for columns ``c`` (D1, n) and points ``x`` (n,)."""
    v = c[-1] * x
    for p in range(c.shape[0] - 2, 0, -1):
        v += c[p]
        v *= x
    return v + c[0]


def _illinois(xp: ModuleType, c: Array, lo: Array, hi: Array) -> Array:
    """The first root of the polynomials ``c`` (D1, n) in the brackets ``[lo, hi]`` where
    ``p(lo) > 0 >= p(hi)`` (a bracket whose ``p(lo) <= 0`` -- only possible at ``lo = 0``: the
    entry is already across -- has its root at ``lo``).

    Illinois' regula falsi (the retained end's value is halved when the same end is kept
    twice), with a bisection every fourth iteration so the bracket at least halves every
    four; stops when every bracket is narrower than ``_ROOT_ULPS`` ulps of 1. Returns ``hi``:
    the end where ``p <= 0`` (the far side of the surface).
    """
    lo = xp.asarray(lo, dtype=c.dtype)
    hi = xp.asarray(hi, dtype=c.dtype)
    flo, fhi = _horner(c, lo), _horner(c, hi)
    at_lo = flo <= 0
    hi = xp.where(at_lo, lo, hi)
    fhi = xp.where(at_lo, 0.0, fhi)
    kept = xp.zeros(lo.shape, dtype=xp.int8)  # +1: lo kept last time, -1: hi kept
    tol = _ROOT_ULPS * np.finfo(np.float64).eps
    for it in range(_MAX_ROOT_ITERATIONS):
        open_ = hi - lo > tol
        if not bool(to_numpy(open_.any())):
            break
        if it % 4 == 3:
            x = 0.5 * (lo + hi)
        else:
            denom = flo - fhi
            x = xp.where(denom > 0, lo + flo * (hi - lo) / xp.where(denom > 0, denom, 1.0), 0.5 * (lo + hi))
            x = xp.where((x > lo) & (x < hi), x, 0.5 * (lo + hi))
        fx = _horner(c, x)
        right = (fx <= 0) & open_
        left = (fx > 0) & open_
        lo = xp.where(right & (fx == 0), x, lo)  # an exact root closes the bracket
        # Illinois: halve the value at an end kept twice in a row
        flo = xp.where(right & (kept == 1), 0.5 * flo, flo)
        fhi = xp.where(left & (kept == -1), 0.5 * fhi, fhi)
        hi, fhi = xp.where(right, x, hi), xp.where(right, fx, fhi)
        lo, flo = xp.where(left, x, lo), xp.where(left, fx, flo)
        kept = xp.where(right, 1, xp.where(left, -1, kept)).astype(xp.int8)
    return hi
