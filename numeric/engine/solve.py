"""The Runge-Kutta loop: batched explicit RK integration of ``y' = field(t, y, args)``.

Every member takes its own steps (per-member step control and status); outputs land exactly
on the requested times; switching surfaces are located as events on request.  The ensemble
conventions (shapes, ``args``, observers, outputs) are those of :mod:`numeric.engine.ensemble`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.engine.chunking import (
    gd_work_bytes,
    plan_chunks,
    result_bytes,
    rk_work_bytes,
    run_chunked,
    slice_members,
)
from numeric.engine.ensemble import (
    Clock,
    Members,
    Observer,
    Outputs,
    Progress,
    check_args,
    check_field_output,
    check_state,
    take_members,
)
from numeric.engine.gd_map import GradientDescent, descend
from numeric.engine.integrators.control import AdaptiveStep, FixedStep
from numeric.engine.integrators.events import EventTracker, EventTrajectory, Switching, check_method
from numeric.engine.integrators.methods import VectorField, rk_stages, rk_step
from numeric.engine.integrators.tableau import ButcherTableau
from numeric.engine.saveat import SaveAt, saveat_of
from numeric.engine.trajectory import Status, Trajectory

_LAND_RTOL = 1e-9  # a step within this relative margin of an output time lands on it
# A float32 embedded error estimate h * sum(e_i k_i) carries rounding noise of a few eps32 |y|
# (eps32 = 1.2e-7; ~7 stage terms): at rtol 1e-5 that noise is <= ~10% of the tolerance, so the
# step-size decisions are still driven by the truncation error, not by rounding.
FLOAT32_MIN_RTOL = 1e-5


def solve(
    field: VectorField,
    y0: Array,
    ts: Sequence[float] | Array | None = None,
    *,
    method: ButcherTableau | GradientDescent,
    control: FixedStep | AdaptiveStep | None = None,
    saveat: SaveAt | None = None,
    args: Mapping[str, Array] | None = None,
    observe: Observer | None = None,
    save_state: bool = True,
    max_steps: int = 100_000,
    progress: Progress | None = None,
    memory_budget: int | None = None,
    field_bytes: int = 0,
    dtype: Any = np.float64,
    events: Switching | None = None,
) -> Trajectory:
    """Integrate ``y' = field(t, y, args)`` for every member from ``ts[0]`` to ``ts[-1]``.

    Main arguments
    --------------
    field: ``field(t, y, args) -> dy`` with ``t`` (B,), ``y`` and ``dy`` (B, N).
    y0: (B, N) initial states (NumPy or CuPy; converted to ``dtype``).
    ts: (T,) strictly increasing output times; ``ts[0]`` is the initial time (shorthand for
        ``saveat=SaveAt(ts=ts, observe=observe, state=save_state)``).

    Other arguments (keyword-only)
    ------------------------------
    method: an explicit RK tableau, e.g. ``DOPRI5`` or ``RK4``; or ``GradientDescent(lr)``,
        the exact GD map ``y_{k+1} = y_k + lr * field(k, y_k, args)`` (:mod:`numeric.engine.gd_map`;
        front: :func:`numeric.engine.descent.gradient_descent`): ``dt = lr``, no ``control``,
        records at ``SaveAt(steps=...)``, the run ends at the last recorded step.
    control: ``FixedStep(dt)`` or ``AdaptiveStep(rtol=..., atol=...)`` (the latter needs
        a method with an embedded error estimate); RK methods only.
    saveat: what is recorded (:class:`~numeric.engine.saveat.SaveAt`: times or step indices,
        observer, states or not); or the shorthand ``ts``, ``observe``, ``save_state``.
    args: dict of arrays with leading axis B or 1, passed to ``field`` and ``observe``.
    observe: ``observe(t, y, args) -> {name: (B, ...) array}`` recorded at every ``ts[k]``.
    save_state: store the states ``ys``; set ``False`` to keep only ``observe``'s output.
    max_steps: per-member budget of attempted (accepted + rejected) steps (GD: of steps).
    progress: ``progress(fraction_done)`` called at most about every 0.2 s.
    memory_budget: bytes the solve may use; when the ensemble does not fit, its members
        run in consecutive chunks (:mod:`numeric.engine.chunking`: the whole result plus one
        chunk's working set ``(stages + 10) N`` floats + ``field_bytes`` per member fit the
        budget). Per-member results are those of the unchunked solve. ``None``: one chunk.
    field_bytes: the field's own temporaries per member, for the chunk plan.
    dtype: ``float64`` (default) or ``float32``, an explicit opt-in: states, stages and
        the RK combinations are float32 (the field must compute in it, e.g. with ``args``
        from a float32 backend), times and step sizes stay float64, recorded states are
        stored as float64. An adaptive float32 solve needs ``rtol >= FLOAT32_MIN_RTOL``
        (1e-5: the float32 error estimate must not be dominated by rounding). The
        accuracy cost is measured in ``python -m benchmarks`` (gradient flow, float32 row).
    events: the field's switching surfaces (e.g. ``GradientFlow.switching``), opt-in: the
        field is integrated piece by piece with a frozen activation pattern, and every
        member's steps are cut exactly at its own crossings, located on the method's
        dense output (:mod:`numeric.engine.integrators.events`; needs DOPRI5 or DOP853, and no
        chunking). The result is then an :class:`~numeric.engine.integrators.events.EventTrajectory`
        with per-member ``n_events``, ``n_sliding`` and the sliding segments.

    Each member takes its own steps (adaptive control decides per member; fixed steps
    are the same for all). A step that would pass the member's next output time is
    shortened to end exactly on it (a step within a relative ``1e-9`` of it is
    stretched onto it), so every output is a genuine step endpoint: no dense output or
    interpolation is used for outputs, and recorded times equal ``ts`` exactly. The price
    is a few extra steps when outputs are dense compared to the natural step. (With
    ``events``, steps are proposed to end just past the predicted crossing; a step with an
    event is corrected there under an error estimate or re-taken from its start to the event,
    so every state at an event is error-controlled too.)

    Per member, the solve stops with a :class:`~numeric.engine.trajectory.Status`:
    ``SUCCESS`` at ``ts[-1]``; ``NONFINITE`` when the state or field became NaN/inf (with
    fixed steps at once; with adaptive steps non-finite trials are first rejected and
    retried shorter, and the member stops when the step can shrink no more);
    ``MAX_STEPS``; ``STEP_TOO_SMALL`` when the adaptive step drops below
    ``8 eps max(|t|, ts[-1] - ts[0])``. A stopped member keeps its last finite state in
    ``y_stop``; its remaining outputs are NaN.  The same policy holds for the GD map (``SUCCESS``,
    ``NONFINITE``, ``MAX_STEPS``: :func:`numeric.engine.gd_map.descend`).

    Returns
    -------
    A :class:`~numeric.engine.trajectory.Trajectory`.

    Raises
    ------
    ValueError / TypeError: malformed ``y0``, ``ts``, ``args``, field or observer output,
        or a controller that does not fit the method.
    """
    saveat = saveat_of(ts, saveat, observe, save_state)
    _, y0 = check_state(y0, dtype=dtype)
    B, N = y0.shape
    if isinstance(max_steps, bool) or not isinstance(max_steps, int | np.integer) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive integer, got {max_steps!r}")
    gd = isinstance(method, GradientDescent)
    if gd:
        if control is not None or events is not None:
            raise ValueError("GradientDescent is the exact map (dt = lr): it takes no control and no events")
        at = saveat.step_indices()
        lr = method.member_lr(array_namespace(y0), B, y0.dtype)
        work = gd_work_bytes(N, field_bytes, y0.dtype.itemsize)
    else:
        at = saveat.times()
        if not isinstance(method, ButcherTableau):
            raise TypeError(f"method must be a ButcherTableau (e.g. DOPRI5), got {type(method).__name__}")
        if not isinstance(control, FixedStep | AdaptiveStep):
            raise TypeError(f"control must be FixedStep or AdaptiveStep, got {type(control).__name__}")
        control.check(method)
        if events is not None:
            if not isinstance(events, Switching):
                raise TypeError(
                    f"events must be a Switching (e.g. field.switching), got {type(events).__name__}"
                )
            check_method(method)
        if y0.dtype == np.float32 and control.adaptive and control.rtol < FLOAT32_MIN_RTOL:
            raise ValueError(f"a float32 solve needs rtol >= {FLOAT32_MIN_RTOL:g}, got {control.rtol:g}")
        work = rk_work_bytes(N, method.stages, field_bytes)
    args = check_args(args, B)
    if memory_budget is not None:
        plan = plan_chunks(B, work, result_bytes(N, at.size, saveat.state), memory_budget)
        if plan.n_chunks > 1:
            if events is not None:
                raise ValueError("a solve with events runs in one chunk: raise memory_budget or lower B")

            def solve_range(start: int, stop: int, prog: Progress | None) -> Trajectory:
                return solve(
                    field,
                    y0[start:stop],
                    method=method.members(start, stop) if gd else method,
                    control=control,
                    saveat=saveat,
                    args=slice_members(args, start, stop),
                    max_steps=max_steps,
                    progress=prog,
                    dtype=dtype,
                )

            return run_chunked(solve_range, plan, progress)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if gd:
            stepped = method.stepped(field)  # with the method's projection, if any
            return descend(stepped, y0, lr, at, args, saveat.observe, saveat.state, int(max_steps), progress)
        obs, state = saveat.observe, saveat.state
        solver = _RKSolve(field, y0, at, method, control, args, obs, state, int(max_steps), progress, events)
        return solver.run()


class _RKSolve:
    """State of one batched solve; the active members live in compact arrays."""

    def __init__(
        self,
        field: VectorField,
        y0: Array,
        ts: np.ndarray,
        method: ButcherTableau,
        control: FixedStep | AdaptiveStep,
        args: dict[str, Array],
        observe: Observer | None,
        save_state: bool,
        max_steps: int,
        progress: Progress | None,
        events: Switching | None = None,
    ):
        self.xp = xp = array_namespace(y0)
        self.events = events
        self.field, self.y0, self.ts, self.method, self.control = field, y0, ts, method, control
        self.args, self.max_steps = args, max_steps
        self.B, self.N = B, N = y0.shape
        self.T = T = ts.shape[0]
        self.out = Outputs(xp, B, T, N, save_state, observe)
        self.clock = Clock(progress)
        self.members = Members(y0, ts[0], args)  # the active ones; results filled as members stop
        self.n_events = np.zeros(B, dtype=np.int64)
        self.n_sliding = np.zeros(B, dtype=np.int64)
        self.tracker: EventTracker | None = None

    def run(self) -> Trajectory:
        xp, ts, B = self.xp, self.ts, self.B
        t = xp.full((B,), ts[0], dtype=xp.float64)
        y = self.y0
        self.out.write(t, y, self.args, None, 0)
        if self.T > 1:
            self._loop(t, y)
        self.clock.report(1.0)
        cls, extra = Trajectory, {}
        if self.events is not None:
            cls = EventTrajectory
            extra = {"n_events": self.n_events, "n_sliding": self.n_sliding}
            extra["sliding"] = None if self.tracker is None else self.tracker.sliding_table()
        return self.members.trajectory(ts.copy(), self.out, cls, **extra)

    def _loop(self, t: Array, y: Array) -> None:
        xp, field, method, control = self.xp, self.field, self.method, self.control
        B, T, ts = self.B, self.T, self.ts
        ts_d = xp.asarray(ts)
        t_first, t_last = float(ts[0]), float(ts[-1])
        span = t_last - t_first
        adaptive = control.adaptive
        fsal = method.fsal
        s = method.stages

        # compact per-active-member state
        m = self.members
        kout_h = np.ones(B, dtype=np.int64)
        kout_d = xp.asarray(kout_h)
        steps_a = np.zeros(B, dtype=np.int64)
        rej_a = np.zeros(B, dtype=np.int64)
        evals_a = np.ones(B, dtype=np.int64)

        ev = None
        call_args = m.args
        if self.events is not None:
            ev = self.tracker = EventTracker(self.events, method, field, control, y, m.args)
            call_args = ev.args(m.args)
        k1 = field(t, y, call_args)
        check_field_output(k1, y.shape, "solve")
        k1 = xp.asarray(k1, dtype=y.dtype)
        if ev is not None:
            ev.start(k1, m.args)
        if adaptive:
            dt, extra = control.initial_dt(field, method, t, y, k1, ts_d[-1], call_args)
            evals_a += extra
            cstate = control.init_state(t)
            eps8 = 8 * np.finfo(np.float64).eps
            too_small_floor = eps8 * span
            small_screen = eps8 * max(span, abs(t_first), abs(t_last))
        else:
            dt = control.initial_dt(t)
            cstate = ()
            eps8 = too_small_floor = small_screen = 0.0

        # members whose initial state or slope is already non-finite stop at once
        bad0 = to_numpy(~(xp.isfinite(y).all(axis=1) & xp.isfinite(k1).all(axis=1)))
        stop_code = np.where(bad0, Status.NONFINITE, -1)
        attempts_max = 0  # max over active members of accepted + rejected steps

        while True:
            # ---- drop stopped members (rare) -------------------------------------------
            stopping = stop_code >= 0
            if stopping.any():
                sel = np.flatnonzero(stopping)
                sel_d = xp.asarray(sel)
                gids = m.stop(
                    sel, stop_code[sel], steps_a[sel], evals_a[sel], to_numpy(t[sel_d]), y[sel_d], rej_a[sel]
                )
                if ev is not None:
                    self.n_events[gids] = ev.n_events[sel]
                    self.n_sliding[gids] = ev.n_sliding[sel]
                    ev.close(sel_d, gids)
                keep = np.flatnonzero(~stopping)
                if keep.size == 0:
                    return
                keep_d = m.keep(keep)
                kout_h, steps_a, rej_a, evals_a = kout_h[keep], steps_a[keep], rej_a[keep], evals_a[keep]
                kout_d = xp.asarray(kout_h)
                t, y, dt = t[keep_d], y[keep_d], dt[keep_d]
                if k1 is not None:
                    k1 = k1[keep_d]
                cstate = tuple(c[keep_d] for c in cstate)
                if ev is not None:
                    ev.keep(keep_d, keep)
                stop_code = np.full(keep.size, -1)
                attempts_max = int((steps_a + rej_a).max())

            # ---- one step for every active member ---------------------------------------
            t_next = ts_d[kout_d]
            remaining = t_next - t
            step = dt if ev is None else ev.limit(dt)  # events: just past the predicted crossing
            land = step * (1.0 + _LAND_RTOL) >= remaining
            land_h = to_numpy(land)
            dt_try = xp.where(land, remaining, step) if land_h.any() else step
            if ev is None:
                y1, err, k_next = rk_step(field, method, t, y, dt_try, m.args, k1)
            else:
                call_args = ev.args(m.args)
                t_prev, y_prev = t, y
                y1, err, k_next, K = rk_stages(field, method, t, y, dt_try, call_args, k1)
            evals_a += s if k1 is None else s - 1
            if adaptive:
                accept, dt_new, bad, cstate = control.adapt(method, y, y1, err, dt_try, dt, cstate)
            else:
                bad = ~xp.isfinite(y1).all(axis=1)
                accept = ~bad
                dt_new = dt
            acc_h = to_numpy(accept)
            if acc_h.all():
                t = xp.where(land, t_next, t + dt_try) if land_h.any() else t + dt_try
                y = y1
                k1 = k_next
                steps_a += 1
            else:
                t = xp.where(accept, xp.where(land, t_next, t + dt_try), t)
                y = xp.where(accept[:, None], y1, y)
                if fsal:
                    k1 = xp.where(accept[:, None], k_next, k1)
                else:
                    k1 = None
                steps_a += acc_h
                rej_a += ~acc_h
            dt = dt_new
            landed_h = land_h & acc_h

            # ---- events: re-take each member's step up to its first event ---------------
            if ev is not None:
                t, y, k1, dt, truncated_h, undone_h, ev_evals = ev.after_step(
                    t_prev, y_prev, dt_try, K, accept, t, y, k1, call_args, m.ids, dt
                )
                evals_a += ev_evals
                landed_h = landed_h & ~truncated_h
                if undone_h.any():  # the re-taken step was rejected: the step counts as rejected
                    steps_a -= undone_h
                    rej_a += undone_h

            # ---- outputs for members that landed on their next output time --------------
            if landed_h.any():
                if landed_h.all():
                    if m.full and np.all(kout_h == kout_h[0]):  # the common case: no copies
                        self.out.write(t, y, m.args, None, int(kout_h[0]))
                    else:
                        self.out.write(t, y, m.args, m.ids_d, kout_d)
                else:
                    sel_d = xp.asarray(np.flatnonzero(landed_h))
                    gids_d = m.ids_d[sel_d]
                    self.out.write(t[sel_d], y[sel_d], take_members(self.args, gids_d), gids_d, kout_d[sel_d])
                kout_h = kout_h + landed_h
                kout_d = xp.asarray(kout_h)
                done = kout_h >= T
                stop_code = np.where(done, Status.SUCCESS, stop_code)

            # ---- failures ---------------------------------------------------------------
            if adaptive:
                # cheap screen first: no member's step is below the largest possible floor
                if float(dt.min()) < small_screen:
                    floor = xp.maximum(too_small_floor, eps8 * xp.abs(t))
                    small_h = to_numpy(dt < floor)
                    code = np.where(to_numpy(bad), Status.NONFINITE, Status.STEP_TOO_SMALL)
                    stop_code = np.where(small_h & (stop_code < 0), code, stop_code)
            elif not acc_h.all():
                stop_code = np.where(~acc_h & (stop_code < 0), Status.NONFINITE, stop_code)
            attempts_max += 1  # every active member attempts one step per pass
            if attempts_max >= self.max_steps:
                over = (steps_a + rej_a >= self.max_steps) & (stop_code < 0)
                stop_code = np.where(over, Status.MAX_STEPS, stop_code)

            if self.clock.due():
                frac = (to_numpy(t) - t_first).sum() / span
                self.clock.report((m.n_stopped + frac) / B)
