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
3. **Location.** For flagged members not corrected in place (4a), the method's dense output (DOPRI5: 4th
   order, no extra work; DOP853: 7th order, three extra field calls) gives ``g_e`` as a
   polynomial in ``theta``; it is sampled at ``theta = k/8``, the first interval with a
   sign change against ``s_e`` brackets the earliest root, and a vectorised Illinois
   (regula falsi) iteration over all bracketed entries of all flagged members at once
   locates it to 4 ulps of ``theta``. The earliest root ``theta*`` over a member's entries
   is its event.
4. **Stepping to the event.** A member's step is proposed to end a fraction ``_MARGIN`` past
   its earliest predicted crossing (:meth:`EventTracker.limit`: the smallest time
   ``s_e g_e / (-s_e \dot g_e)`` to reach a surface at the current speed; the controller
   keeps its own, longer step for after it), so a step with an event usually ends just
   past it. Then either:

   a. **Corrected in place** (:meth:`EventTracker._overshoot`, adaptive control only): when
      the accepted step crossed exactly one entry, in its last ``_OVERSHOOT`` (1/8), and
      transversally. The step integrated the old piece's smooth continuation with a valid
      error estimate; only the time since the crossing is redone on the new piece, to first
      order: with ``since = s g(y_1) / (s g(f_{old}(y_1)))`` (Newton from the step's end;
      ``s`` the new side), ``y^* = y_1 - since\, f_{old}(y_1)`` and the jump
      ``J = f_{new}(y^*) - f_{old}(y^*)`` (two evaluations),
      ``y_c = y_1 + \alpha J`` with ``\alpha = since`` (less where the entry would get back
      to its surface: it stops ``_CARRY`` short of it on the new side). Its local error is
      estimated by ``|\alpha/2\, (f_{new}(y_c) - f_{old}(y_1) - J)|`` (the left-point
      rule's: half the integrand's change over the interval) plus ``|ago - \alpha|\,|J|``
      (``ago`` the crossing time on the Hermite cubic: the two event-time estimates'
      difference), and the correction is kept when that passes the controller's test
      (scaled RMS norm <= 1); ``f_{new}(y_c)`` starts the next step. Three evaluations
      per event; the state is that of an error-controlled step plus an error-controlled
      correction.
   b. **Re-taken step** (every other event): the event is located on the dense output (3.)
      and the member's step is re-taken from ``t_0`` to ``t_0 + theta* h``
      with the same pattern (the field is smooth there): an ordinary step of the method,
      whose embedded error estimate the controller checks, so the state at the event
      carries the method's own (locally extrapolated, error-controlled) local error and not
      the dense output's, which the step's estimate does not control (the dense output
      only places the event in time; DOPRI5's is one order lower than the step). This
      costs one step's evaluations per event. A re-taken step the controller rejects
      (rare: it is a shorter step of the same smooth field than one it accepted) turns
      the member's step into a rejection.

   Then the entries with that root flip side and
   take the new side's piece (``switching.slopes`` of the side, i.e. the field's own
   convention at a nonzero value), and the member restarts with a fresh ``f(t*, y*)``.
5. **Sliding (Filippov).** If, after the flip, the new side's velocity points back
   into the surface (``s_e\, \dot g_e < 0`` on the new side, while the old side's
   pointed into it too, since it crossed), both sides point into the surface: the
   exact solution slides along it. For a field with a sliding mode they must point
   strictly into it: its weight ``p`` (below) must lie in (0, 1) -- a piece tangent to
   the surface (``p`` 0 or 1; the field judges on the surface, the state being off it by
   the event's residual, where a tangent piece may point in) is no sliding.
   The entry is recorded (member, entry, start time)
   and, for a field with a sliding mode (``Switching.weight``), marked *sliding*: the
   field integrates the convex combination ``p f_+ + (1 - p) f_-`` of the two pieces
   that keeps ``g_e`` at 0 (its weight ``p`` clipped to [0, 1]). The flow leaves the
   surface where ``p`` leaves [0, 1] (to the positive side above 1, the negative below
   0); when an accepted step ends with a sliding weight out of range, the exit is
   located like a crossing, as the first root of ``1/2 - max_e |p_e - 1/2|`` over the
   member's sliding entries along the dense output (Illinois, one ``weight`` call per
   iteration), and the step is re-taken to it (4.): the field is smooth up to the
   exit (the clip is not active), and past it the entry takes the side it leaves to and
   its segment is closed. A field without a sliding mode gets the entry back *live*
   (``args[switching.live_key]``: its own convention at the current state, as without
   events, so the error control chatters); a live entry is monitored again at the end of
   the first accepted step where the flow leaves the surface (``g_e \dot g_e > 0``).

Entries that cannot switch (both sides' pieces equal, e.g. a leaky ReLU with slope
``alpha = 1``: a linear net) are not monitored; when no entry of any member can switch
the solver does no event work at all.

Entries exactly on a surface at the start (``g_e(y_0) = 0``) start live, too.

Members keep their own events; there is no Python loop over members or entries. All
array work is array-namespace code (NumPy or CuPy); per step the host sees whether any
entry was flagged and, if so, the flagged (member, entry) indices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.engine.ensemble import take_members
from numeric.engine.integrators.control import AdaptiveStep, FixedStep
from numeric.engine.integrators.dense import dense_eval, dense_polynomial
from numeric.engine.integrators.methods import VectorField, rk_stages
from numeric.engine.integrators.tableau import ButcherTableau
from numeric.engine.trajectory import Trajectory

PATTERN_KEY = "slope_pattern"  # default args key of the pattern
LIVE_KEY = "slope_live"  # default args key of the live mask
SLIDE_KEY = "slope_sliding"  # default args key of the sliding mask
_DETECT_THETAS = (0.25, 0.5, 0.75, 1.0)  # Hermite samples of the detection (1 = the step's end)
_LOCATE_SAMPLES = 8  # dense-output samples theta = k/8 that bracket the earliest root
_CARRY = 2.0**-10  # the first-order event corrections stop this fraction short (see _cut)
_MARGIN = 0.01  # steps are proposed to end this fraction past the predicted crossing
_RESOLVED = 1e-12  # limit() predicts crossings of entries with |g| above this fraction of the largest
_OVERSHOOT = 0.125  # an event in this last fraction of an accepted step is corrected in place
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
    weight: ``weight(t, y, args) -> (B, E)`` for a field with a sliding mode: the field then
        integrates the entries marked in ``args[slide_key]`` (B, E) bool (present only
        while some entry slides) in the Filippov sliding mode -- the convex combination
        ``p f_+ + (1 - p) f_-`` of the two sides' pieces with ``g_e' = 0``, ``p`` clipped to
        [0, 1] -- and ``weight`` is the *unclipped* ``p`` of each sliding entry (any value
        elsewhere): in [0, 1] while the flow slides, above 1 / below 0 where it leaves to the
        positive / negative side. It must be continuous along the flow (the solver locates
        the exit as its root). ``None``: sliding entries are integrated live (the error
        control chatters).
    """

    values: Callable[[Array, Mapping[str, Array]], Array]
    slopes: Callable[[Array, Mapping[str, Array]], Array]
    key: str = PATTERN_KEY
    live_key: str = LIVE_KEY
    weight: Callable[[Array, Array, Mapping[str, Array]], Array] | None = None
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


class StepEnd(NamedTuple):
    """The members' state after one step and its events (:meth:`EventTracker.after_step`)."""

    t: Array  # (A,) time
    y: Array  # (A, N) state
    k1: Array  # (A, N) the field there (the next step's first stage)
    dt: Array  # (A,) the next nominal step
    truncated: np.ndarray  # (A,) host bool: the step ended before t0 + dt (cut, or undone)
    undone: np.ndarray  # (A,) host bool: the accepted step was turned into a rejection
    extra_evals: np.ndarray  # (A,) field evaluations spent on the events


class EventTracker:
    """Per-member event state of one solve over its active members (compact arrays).

    ``side`` (A, E): +1 / -1 the monitored side of each entry, 0 live, sliding or unable to
    switch; ``pattern`` (A, E) the field's piece; ``gy``, ``gf`` (A, E): ``g`` of the current
    state and of its slope.
    """

    def __init__(
        self,
        switching: Switching,
        method: ButcherTableau,
        field: VectorField,
        control: FixedStep | AdaptiveStep,
        y: Array,
        args: dict,
    ):
        check_method(method)
        self.sw, self.method, self.field, self.control = switching, method, field, control
        xp = self.xp = array_namespace(y)
        gy = switching.values(y, args)
        if gy.ndim != 2 or gy.shape[0] != y.shape[0]:
            raise ValueError(f"switching.values(y, args) must have shape (B, E), got {tuple(gy.shape)}")
        self.gy = gy
        one = xp.ones_like(gy)
        self.pieces = (switching.slopes(one, args), switching.slopes(-one, args))  # each side's piece
        switchable = self.pieces[0] != self.pieces[1]
        self.monitored = bool(to_numpy(switchable.any()))
        self.side = xp.sign(gy) * switchable
        live = (self.side == 0) & switchable
        self.pattern = switching.slopes(xp.where(live, gy, xp.sign(gy)), args)
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
        self.pieces = (self.pieces[0][keep_d], self.pieces[1][keep_d])
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
        dt_next: Array,
    ) -> StepEnd:
        """Detect, locate and apply the events of the step ``t0 -> t0 + dt`` just taken.

        ``t, y, k1`` are the members' time, state and slope after the step (unchanged for
        rejected members); ``args`` the step's arguments (with the pattern); ``dt_next`` the
        controller's next step. A member whose step ends just past its only crossing is
        corrected in place (:meth:`_overshoot`); every other member with an event has its step
        re-taken from ``t0`` to the event (:meth:`_cut`).
        """
        xp = self.xp
        A = y.shape[0]
        end = StepEnd(
            t, y, k1, dt_next, np.zeros(A, dtype=bool), np.zeros(A, dtype=bool), np.zeros(A, dtype=np.int64)
        )
        if not self.monitored:  # no entry of any member can switch (e.g. a linear net, alpha = 1)
            return end
        gy0, gf0 = self.gy, self.gf
        both = self._values(xp.stack([y, k1]), args)
        self.gy, self.gf = both[0], both[1]
        cross, roots = self._detect(gy0, gf0, dt)  # (A, E)
        cross &= accept[:, None]
        flagged = cross.any(axis=1)
        leave = None
        if self.has_sliding:
            leave = self.sliding & _outside(self.sw.weight(t, y, args)) & accept[:, None]
            flagged = flagged | leave.any(axis=1)
        F = np.flatnonzero(to_numpy(flagged))
        if F.size and self.control.adaptive:  # an event just before the step's end: corrected there
            F_i = _rows(xp, F, A)
            args_F = args if F.size == A else take_members(args, F_i)
            done = self._overshoot(F, roots[F_i], dt[F_i], args_F, end, None if leave is None else leave[F_i])
            F = F[~done]
        if F.size:
            end = self._cut(F, cross, leave, t0, y0, dt, K, gy0, gf0, args, ids_h, end)
        if self.has_live:
            self._remonitor(accept, end.t, ids_h, args)
        return end

    def limit(self, dt: Array) -> Array:
        """The members' next steps ``dt`` (A,), each cut to end a fraction ``_MARGIN`` past its
        earliest predicted crossing (see the module docstring, 4.); fixed steps are kept."""
        xp = self.xp
        if not self.control.adaptive:
            return dt
        gap, rate = self.side * self.gy, self.side * self.gf
        # an entry within rounding of its surface (e.g. a pre-activation that stays at 0 but for
        # rounding) is left to the detection: its predicted crossing would be noise
        ahead = gap > _RESOLVED * xp.abs(self.gy).max(axis=1, keepdims=True)
        speed = (xp.where(ahead, -rate, 0.0) / xp.where(ahead, gap, 1.0)).max(axis=1)  # 1 / time to reach
        return xp.where(speed * dt > 1.0 / (1.0 + _MARGIN), (1.0 + _MARGIN) / speed, dt)

    def _detect(self, gy0: Array, gf0: Array, dt: Array) -> tuple[Array, Array]:
        """(A, E) bool: the entries whose cubic Hermite interpolant of ``g`` over the step (from
        ``g`` and ``g'`` at both ends) crosses to the wrong side at a detection sample; (A, E): the
        first root in ``theta`` of that cubic for those entries (``inf`` elsewhere).

        Screen first: on [0, 1] the Hermite cubic of values ``a_0, a_1`` and slopes
        ``h b_0, h b_1`` (here times the side) is ``>= min(a_0, a_1) - 4/27 h (max(-b_0, 0) +
        max(b_1, 0))`` (its basis: two weights in [0, 1] summing to 1 on the values, and
        ``theta (1 - theta)^2 in [0, 4/27]``, ``-theta^2 (1 - theta) in [-4/27, 0]`` on the
        slopes), so only entries with that bound <= 0 are sampled."""
        xp, side = self.xp, self.side
        h = dt[:, None]
        a0, a1 = side * gy0, side * self.gy
        b0, b1 = side * gf0, side * self.gf
        low = xp.minimum(a0, a1) - (4.0 / 27.0) * h * (xp.maximum(-b0, 0.0) + xp.maximum(b1, 0.0))
        near = low <= 0
        cross = xp.zeros(gy0.shape, dtype=bool)
        roots = xp.full(gy0.shape, xp.inf)
        if not bool(to_numpy(near.any())):
            return cross, roots
        m, e = xp.nonzero(near)
        a0, a1, hb0, hb1 = a0[m, e], a1[m, e], h[m, 0] * b0[m, e], h[m, 0] * b1[m, e]
        delta = a1 - a0
        r2 = hb0 - delta
        r3 = delta - hb1 - r2
        coef = xp.stack([a0, delta + r2, r3 - r2, -r3])  # monomial c0..c3 of side * g in theta
        signed = xp.asarray(np.vander(np.asarray(_DETECT_THETAS), 4, increasing=True)) @ coef
        wrong = _crossing(signed, a0)
        hit = wrong.any(axis=0)
        cross[m, e] = hit
        if bool(to_numpy(hit.any())):
            coef, wrong = coef[:, hit], wrong[:, hit]
            k = xp.argmax(wrong, axis=0)  # the first sampled interval with a crossing
            lo = xp.asarray(np.concatenate([[0.0], _DETECT_THETAS[:-1]]))[k]
            hi = xp.asarray(_DETECT_THETAS)[k]
            roots[m[hit], e[hit]] = _illinois(xp, lambda x: _horner(coef, x), lo, hi)
        return cross, roots

    def _cut(
        self,
        F: np.ndarray,
        cross: Array,
        leave: Array | None,
        t0: Array,
        y0: Array,
        dt: Array,
        K: Array,
        gy0: Array,
        gf0: Array,
        args: Mapping[str, Array],
        ids_h: np.ndarray,
        end: StepEnd,
    ) -> StepEnd:
        """Locate the earliest event ``theta*`` of each flagged member ``F`` not corrected in
        place (a crossing or a sliding exit) on the dense output, re-take its step from ``t0``
        to ``t0 + theta* h`` with the step's pattern (the field is smooth there), and apply
        the event there.

        The re-taken step is an ordinary error-controlled step (its embedded estimate is
        checked by the controller), so the state at an event carries the method's own local
        error, not the dense output's: the dense output only places the event in time. A
        re-taken step the controller rejects (rare: it is shorter than an accepted step of
        the same smooth field) turns the member's step into a rejection, with the
        controller's step for it; the event is found again on the next try.

        The dense output places the event in time, with the dense output's error: the re-taken
        step ends a flipped entry a little short of its surface or past it, ``g_e(y*) != 0``. On
        the re-taken trajectory the entry crossed ``since_e = s_e g_e / (s_e g_e')`` ago (``s_e``
        its new side, ``g_e'`` along the old piece ``f_old(y*)``, the step's FSAL stage); both
        are first-order corrected (error ``O(since^2)``, as small as the square of the dense
        output's): a member with an entry still behind (``since < 0``) is carried across along
        the old piece, ``y += lag f_old``, ``t += lag`` with ``lag`` its largest remaining time;
        a member whose entries all crossed before ``t*`` gets the last ``ago = min_e since_e``
        on the new piece, ``y += ago (f_new - f_old)`` (one more field evaluation). Only entries
        with ``|since| <= _CARRY h`` are corrected (a grazing crossing, ``g_e'`` near 0, is left
        as the re-taken step put it: its linearisation is not trusted). Both stop a
        fraction ``_CARRY`` short of the surface on the new side, so every flipped entry ends on
        its new side (to rounding), as observers that read signs (a neuron is dead where its
        pre-activation is <= 0) expect; the event time is then the trajectory's, not the dense
        output's, to that fraction.
        """
        xp, sw, method = self.xp, self.sw, self.method
        t, y, k1, dt_next = end.t, end.y, end.k1, end.dt
        truncated, undone, extra = end.truncated, end.undone, end.extra_evals
        A = y.shape[0]
        F_i = _rows(xp, F, A)
        args_F = args if F.size == A else take_members(args, F_i)
        t0_F, y0_F, dt_F, K_F, side_F = t0[F_i], y0[F_i], dt[F_i], _take(xp, K, F_i), self.side[F_i]
        Q = dense_polynomial(self.field, method, t0_F, y0_F, dt_F, K_F, args_F)
        extra[F] += len(method.dense.c_extra)
        table = self._crossing_roots(cross[F_i], gy0[F_i], side_F, Q, args_F)  # (|F|, E)
        theta = table.min(axis=1)
        exiting = None
        if leave is not None:
            exits = self._exit_roots(leave[F_i], t0_F, y0_F, dt_F, Q, args_F)
            if exits is not None:
                theta_e, exiting, exit_to, calls = exits
                extra[F] += calls
                theta = xp.minimum(theta, theta_e)
        hit = np.flatnonzero(to_numpy(xp.isfinite(theta)))
        if hit.size == 0:
            return end
        # re-take the step of every member with an event, from t0 to its event
        G = F[hit]  # local member indices
        H_i, G_i = _rows(xp, hit, F.size), _rows(xp, G, A)
        th = theta[H_i]
        args_G = args_F if hit.size == F.size else take_members(args_F, H_i)
        t0_G, y0_G, h_G = t0_F[H_i], y0_F[H_i], th * dt_F[H_i]
        k0_G = K_F[method.coefficients(xp, y.dtype).slot[0]][H_i]
        y_G, err, k_old, _ = rk_stages(self.field, method, t0_G, y0_G, h_G, args_G, k0_G)
        extra[G] += method.stages - 1
        if self.control.adaptive:
            state = self.control.init_state(h_G)
            ok_d, retry, _, _ = self.control.adapt(method, y0_G, y_G, err, h_G, h_G, state)
            ok = to_numpy(ok_d)
        else:
            ok = np.ones(G.size, dtype=bool)
        if not ok.all():  # undo: the member's step becomes a rejection, retried at the controller's step
            U, U_i, bad_i = G[~ok], xp.asarray(G[~ok]), xp.asarray(np.flatnonzero(~ok))
            t[U_i], y[U_i], k1[U_i] = t0_G[bad_i], y0_G[bad_i], k0_G[bad_i]
            self.gy[U_i], self.gf[U_i] = gy0[U_i], gf0[U_i]
            dt_next[U_i] = retry[bad_i]
            undone[U] = truncated[U] = True
            good = np.flatnonzero(ok)
            if good.size == 0:
                return end
            G, hit, good_i = G[good], hit[good], xp.asarray(good)
            H_i, G_i = xp.asarray(hit), xp.asarray(G)
            th, t0_G, h_G, y_G, k_old = th[good_i], t0_G[good_i], h_G[good_i], y_G[good_i], k_old[good_i]
            args_G = take_members(args_G, good_i)
        cut = th < 1.0
        t_G = xp.where(cut, t0_G + h_G, t[G_i])  # an event at theta = 1 keeps the landed time
        truncated[G] = to_numpy(cut)
        # apply the events at theta*: crossings flip side, exits leave the sliding mode
        flip = table[H_i] <= th[:, None]
        side = self.side[G_i]
        new_side = xp.where(flip, -side, side)
        g_G = sw.values(y_G, args_G)
        # the time since each flipped entry crossed, on the re-taken trajectory (see the docstring)
        rate = new_side * sw.values(k_old, args_G)
        since = (new_side * g_G) / xp.where(rate > 0, rate, 1.0)
        small = xp.abs(since) <= _CARRY * dt_F[H_i][:, None]  # else the linearisation is not trusted
        since = xp.where(flip & cut[:, None] & (rate > 0) & small, since, xp.inf)
        lag = xp.maximum(-since.min(axis=1), 0.0)  # > 0: an entry still behind its surface
        ago = xp.where(xp.isfinite(since).any(axis=1), xp.maximum(since.min(axis=1), 0.0), 0.0)
        if bool(to_numpy((lag > 0).any())):  # carried across along the old piece
            lag = xp.minimum(lag * (1 + _CARRY), t0_G + dt_F[H_i] - t_G)
            y_G = y_G + lag[:, None] * k_old
            t_G = t_G + lag
            g_G = sw.values(y_G, args_G)
        t[G_i] = t_G
        if exiting is not None:
            ex = exiting[H_i] & (theta_e[H_i] <= th)[:, None]
            new_side = xp.where(ex, exit_to[H_i], new_side)
            self._end_sliding(G, G_i, ex, t_G, ids_h)
        changed = flip if exiting is None else flip | ex
        self._switch(G, G_i, flip, new_side, xp.where(changed, self._piece(G_i, new_side), self.pattern[G_i]))
        k_G = self.field(t_G, y_G, self._args_of(args_G, G_i))
        extra[G] += 1
        if bool(to_numpy((ago > 0).any())):  # crossed before t*: the last `ago` on the new piece
            y_G = y_G + (ago * (1 - _CARRY))[:, None] * (k_G - k_old)
            g_G = sw.values(y_G, args_G)
            k_G = self.field(t_G, y_G, self._args_of(args_G, G_i))
            extra[G] += 1
        y[G_i] = y_G
        gf_G = sw.values(k_G, args_G)
        # sliding: a flipped entry whose new side's flow points back into the surface
        slides = flip & (new_side * gf_G < 0)  # (an exit is no flip: it leaves along the surface)
        if sw.weight is not None and bool(to_numpy(slides.any())):  # strictly into it: 0 < p < 1
            trial = {**self._args_of(args_G, G_i), sw.slide_key: self.sliding[G_i] | slides}
            p = sw.weight(t_G, y_G, trial)
            extra[G] += 1
            slides = slides & (p > 0) & (p < 1)
        if bool(to_numpy(slides.any())):
            self._start_sliding(G, G_i, slides, t_G)
            k_G = self.field(t_G, y_G, self._args_of(args_G, G_i))
            extra[G] += 1
            gf_G = sw.values(k_G, args_G)
        k1[G_i] = k_G
        self.gy[G_i] = g_G
        self.gf[G_i] = gf_G
        return end

    def _overshoot(
        self,
        F: np.ndarray,
        table: Array,
        dt_F: Array,
        args_F: Mapping[str, Array],
        end: StepEnd,
        leave: Array | None,
    ) -> np.ndarray:
        """Apply the events of the flagged members ``F`` whose step ends just past the crossing
        of one entry, the only one in the step, where the correction's error estimate passes
        (module docstring, 4.): ``table`` (F, E) the entries' roots in ``theta`` on the Hermite
        cubic (``inf``: none). Returns (F,) host bool: the members done (the others are re-taken)."""
        xp, sw = self.xp, self.sw
        A = end.y.shape[0]
        e_F = xp.argmin(table, axis=1)  # the crossing entry
        ago = (1.0 - table.min(axis=1)) * dt_F
        cand = (xp.isfinite(table).sum(axis=1) == 1) & (ago <= _OVERSHOOT * dt_F)
        if leave is not None:  # a sliding exit: located on the dense output
            cand &= ~leave.any(axis=1)
        done = np.zeros(F.size, dtype=bool)
        R = np.flatnonzero(to_numpy(cand))
        if R.size == 0:
            return done
        G = F[R]
        R_i, G_i = _rows(xp, R, F.size), _rows(xp, G, A)
        end.extra_evals[G] += 3
        ago, e, r = ago[R_i], e_F[R_i], xp.arange(R.size)
        args_C = args_F if R.size == F.size else take_members(args_F, R_i)
        old_args = self._args_of(args_C, G_i)
        flip = xp.zeros(self.side[G_i].shape, dtype=bool)
        flip[r, e] = True
        sides = xp.where(flip, -self.side[G_i], self.side[G_i])
        new_side = sides[r, e]
        pattern = xp.where(flip, self._piece(G_i, sides), old_args[sw.key])
        new_args = {**old_args, sw.key: pattern}
        t1, y1, k_old = end.t[G_i], end.y[G_i], end.k1[G_i]
        gy1 = self.gy[G_i]
        # the event time from the step's end: the old piece's g at y1 and its rate there (Newton)
        ahead, rate = new_side * gy1[r, e], new_side * self.gf[G_i][r, e]
        since = xp.minimum(ahead / xp.where(rate > 0, rate, 1.0), _OVERSHOOT * dt_F[R_i])
        t_star = t1 - since
        y_star = y1 - since[:, None] * k_old
        jump = self.field(t_star, y_star, new_args) - self.field(t_star, y_star, old_args)
        # how far along the jump the entry stays on its new side (g is linear in y)
        g_jump = sw.values(jump, args_C)
        pull = new_side * g_jump[r, e]
        alpha = xp.where(
            pull < 0, xp.minimum(since, (1.0 - _CARRY) * ahead / xp.where(pull < 0, -pull, 1.0)), since
        )
        y_c = y1 + alpha[:, None] * jump
        k_c = self.field(t1, y_c, new_args)
        gf_c = sw.values(k_c, args_C)
        est = xp.abs((0.5 * alpha)[:, None] * (k_c - k_old - jump)) + xp.abs((ago - alpha)[:, None] * jump)
        fine = (ahead > 0) & (rate > 0) & (new_side * gf_c[r, e] >= 0)  # transversal, not sliding
        ok = to_numpy(fine & (self.control.error_norm(y1, y_c, est) <= 1.0))
        O = np.flatnonzero(ok)
        if O.size == 0:
            return done
        GO = G[O]
        O_i, GO_i = _rows(xp, O, R.size), _rows(xp, GO, A)
        end.y[GO_i] = y_c[O_i]
        end.k1[GO_i] = k_c[O_i]
        self._switch(GO, GO_i, flip[O_i], sides[O_i], pattern[O_i])
        self.gy[GO_i] = (gy1 + alpha[:, None] * g_jump)[O_i]
        self.gf[GO_i] = gf_c[O_i]
        done[R[O]] = True
        return done

    def _piece(self, G_i: Any, side: Array) -> Array:
        """The pattern of the smooth piece on each entry's ``side`` (> 0: the positive side's)."""
        return self.xp.where(side > 0, self.pieces[0][G_i], self.pieces[1][G_i])

    def _switch(self, G: np.ndarray, G_i: Any, flip: Array, side: Array, pattern: Array) -> None:
        """Members ``G`` continue on ``side`` with ``pattern``; ``flip`` (|G|, E) marks the entries
        that crossed their surface (a member with any counts one event)."""
        self.side[G_i] = side
        self.pattern[G_i] = pattern
        self.n_events[G] += to_numpy(flip.any(axis=1))

    def _crossing_roots(
        self, cross: Array, gy0: Array, side: Array, Q: Array, args: Mapping[str, Array]
    ) -> Array:
        """(F, E): the earliest root in ``theta`` of ``g`` of every crossing entry on the dense
        output (``inf`` elsewhere, and where the dense output has no crossing: a Hermite artefact)."""
        xp = self.xp
        table = xp.full(cross.shape, xp.inf)
        if not bool(to_numpy(cross.any())):
            return table
        pos, ei = xp.nonzero(cross)
        gq = self._values(Q, args)[:, pos, ei]  # (D, n): g along the dense output, a polynomial
        coef = xp.concatenate([gy0[pos, ei][None], gq]) * side[pos, ei]  # (D + 1, n), times the side
        thetas = np.linspace(0.0, 1.0, _LOCATE_SAMPLES + 1)
        vander = xp.asarray(np.vander(thetas, coef.shape[0], increasing=True))
        signed = vander @ coef  # (samples, n)
        wrong = _crossing(signed[1:], signed[0])
        k = xp.argmax(wrong, axis=0)  # the first sampled interval with a crossing
        roots = _illinois(xp, lambda x: _horner(coef, x), k / _LOCATE_SAMPLES, (k + 1) / _LOCATE_SAMPLES)
        table[pos, ei] = xp.where(wrong.any(axis=0), roots, xp.inf)
        return table

    def _exit_roots(
        self, leave: Array, t0: Array, y0: Array, dt: Array, Q: Array, args: Mapping[str, Array]
    ) -> tuple[Array, Array, Array, np.ndarray] | None:
        r"""The first time in the step where a sliding entry's weight ``p`` of the positive
        side's piece leaves [0, 1], for the members (rows of ``leave``, (F, E)) with an entry
        out of range at the step's end: the root of ``1/2 - max_e |p_e - 1/2|`` over the
        member's sliding entries along the dense output (Illinois, one ``weight`` call per
        iteration on those members). Returns ``(theta (F,), exiting (F, E), side (F, E),
        calls (F,))`` -- ``inf`` / ``False`` for members without an exit, ``side`` +-1 the
        side each exiting entry leaves to, ``calls`` the ``weight`` calls per member -- or
        ``None`` when no member exits."""
        xp, sw = self.xp, self.sw
        rows = np.flatnonzero(to_numpy(leave.any(axis=1)))
        if rows.size == 0:
            return None
        R_i = xp.asarray(rows)
        t0_R, y0_R, dt_R, Q_R = t0[R_i], y0[R_i], dt[R_i], Q[:, R_i]
        args_R = take_members(args, R_i)
        sliding = args_R[sw.slide_key]
        calls = 0

        def weight(theta: Array) -> Array:
            nonlocal calls
            calls += 1
            return sw.weight(t0_R + theta * dt_R, dense_eval(y0_R, Q_R, theta), args_R)

        def inside(theta: Array) -> Array:  # > 0 while every sliding weight is inside (0, 1)
            p = weight(theta)
            return -xp.where(sliding & ~xp.isnan(p), xp.abs(p - 0.5) - 0.5, -xp.inf).max(axis=1)

        n = rows.size
        hi = _illinois(xp, inside, xp.zeros(n), xp.ones(n))
        p = weight(hi)
        theta = xp.full(leave.shape[0], xp.inf)
        theta[R_i] = hi
        exiting = xp.zeros(leave.shape, dtype=bool)
        exiting[R_i] = sliding & (xp.abs(p - 0.5) >= 0.5)
        side = xp.zeros(leave.shape)
        side[R_i] = xp.where(p > 0.5, 1.0, -1.0)
        count = np.zeros(leave.shape[0], dtype=np.int64)
        count[rows] = calls
        return theta, exiting, side, count

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

    def _args_of(self, args_G: Mapping[str, Array], G_i: Any) -> dict[str, Array]:
        """The field's arguments of members ``G`` with their current pattern and masks."""
        sw = self.sw
        out = {k: v for k, v in args_G.items() if k not in (sw.live_key, sw.slide_key)}
        out[sw.key] = self.pattern[G_i]
        if self.has_live:
            out[sw.live_key] = self.live[G_i]
        if self.has_sliding:
            out[sw.slide_key] = self.sliding[G_i]
        return out

    def _start_sliding(self, G: np.ndarray, G_i: Any, slides: Array, t_G: Array) -> None:
        xp = self.xp
        self.side[G_i] = xp.where(slides, 0.0, self.side[G_i])
        if self.sw.weight is not None:  # the field integrates the sliding mode
            self.sliding[G_i] = slides | self.sliding[G_i]
            self.has_sliding = True
        else:
            self.live[G_i] = slides | self.live[G_i]
            self.has_live = True
        self.slide_t0[G_i] = xp.where(slides, t_G[:, None], self.slide_t0[G_i])
        self.n_sliding[G] += to_numpy(slides.sum(axis=1))

    def _end_sliding(self, G: np.ndarray, G_i: Any, ex: Array, t_G: Array, ids_h: np.ndarray) -> None:
        """Close the sliding segments ``ex`` (G, E) of members ``G`` at their exit times ``t_G``."""
        xp = self.xp
        if not bool(to_numpy(ex.any())):
            return
        m, e = (to_numpy(a) for a in xp.nonzero(ex))
        self.records.append((ids_h[G[m]], e, to_numpy(self.slide_t0[G_i][ex]), to_numpy(t_G)[m]))
        self.slide_t0[G_i] = xp.where(ex, xp.nan, self.slide_t0[G_i])
        self.sliding[G_i] = self.sliding[G_i] & ~ex
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


def _rows(xp: ModuleType, idx: np.ndarray, n: int) -> Any:
    """An index for the rows ``idx`` (sorted, distinct) of ``n``: a view (``slice(None)``) when
    they are all of them (common: many entries per member), else a device index array."""
    return slice(None) if idx.size == n else xp.asarray(idx)


def _take(xp: ModuleType, K: Array, idx: Any) -> Array:
    """``K[:, idx]`` as a C-contiguous array (advanced indexing on axis 1 is not)."""
    return K if isinstance(idx, slice) else xp.take(K, idx, axis=1)


def _outside(p: Array) -> Array:
    """A sliding weight out of [0, 1]: the flow leaves the surface (NaN: not a sliding entry)."""
    return (p < 0) | (p > 1)


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


def _illinois(xp: ModuleType, f: Callable[[Array], Array], lo: Array, hi: Array) -> Array:
    """The first root of the continuous functions ``f`` (vectorised: ``f(x)`` (n,) for points
    ``x`` (n,)) in the brackets ``[lo, hi]`` where ``f(lo) > 0 >= f(hi)`` (a bracket whose
    ``f(lo) <= 0`` -- only possible at ``lo = 0``: the entry is already across -- has its root
    at ``lo``).

    Illinois' regula falsi (the retained end's value is halved when the same end is kept
    twice), with a bisection every fourth iteration so the bracket at least halves every
    four; stops when every bracket is narrower than ``_ROOT_ULPS`` ulps of 1. Returns ``hi``:
    the end where ``f <= 0`` (the far side of the surface).
    """
    lo = xp.asarray(lo, dtype=xp.float64)
    hi = xp.asarray(hi, dtype=xp.float64)
    flo, fhi = f(lo), f(hi)
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
        fx = f(x)
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
