"""The solve loops: batched explicit Runge-Kutta integration and the exact GD map.

Conventions (shared with the vector fields):

* ``y`` has shape (B, N): ``B`` independent ensemble members, ``N`` state entries,
  float64, on the device of ``y0`` (NumPy or CuPy; all array calls go through
  :func:`numeric.backend.array_namespace`).
* A vector field is ``field(t, y, args) -> dy`` with ``t`` (B,) (each member has its
  own time), ``y`` and ``dy`` (B, N).
* ``args`` is a ``dict[str, array]`` in which every array has a leading ensemble axis
  of size B (one slice per member) or 1 (shared by all members). When only members
  ``idx`` are active the loops call ``field(t[idx], y[idx], take_members(args, idx))``.

Both loops keep only the *active* members in compact arrays: a member that finished,
went non-finite or exhausted its step budget is written out and dropped, so it never
holds the others back, and while every member is active nothing is copied.

Floating-point warnings (overflow, invalid, divide) are silenced inside the loops:
a non-finite state is an *outcome* reported per member through
:class:`~numeric.trajectory.Status`, not an exception.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.chunking import (
    gd_work_bytes,
    plan_chunks,
    result_bytes,
    rk_work_bytes,
    run_chunked,
    slice_members,
)
from numeric.integrators.control import AdaptiveStep, FixedStep
from numeric.integrators.events import EventTracker, EventTrajectory, Switching, check_method
from numeric.integrators.methods import VectorField, rk_stages, rk_step
from numeric.integrators.tableau import ButcherTableau
from numeric.trajectory import Status, Trajectory

Observer = Callable[[Array, Array, Mapping[str, Array]], Mapping[str, Array]]
"""``observe(t, y, args) -> {name: (B, ...) array}``, evaluated at every output time."""

Progress = Callable[[float], None]

_PROGRESS_EVERY_S = 0.2
_GD_CHECK_EVERY = 64  # GD steps between finiteness checks (non-finite is absorbing)
_LAND_RTOL = 1e-9  # a step within this relative margin of an output time lands on it
# A float32 embedded error estimate h * sum(e_i k_i) carries rounding noise of a few eps32 |y|
# (eps32 = 1.2e-7; ~7 stage terms): at rtol 1e-5 that noise is <= ~10% of the tolerance, so the
# step-size decisions are still driven by the truncation error, not by rounding.
FLOAT32_MIN_RTOL = 1e-5


# --------------------------------------------------------------------------- helpers


def take_members(args: Mapping[str, Array], idx: Any) -> dict[str, Array]:
    """``args`` restricted to the members ``idx``.

    Arrays whose leading axis has size 1 are shared by all members and passed through
    unchanged; every other array is indexed along its leading (ensemble) axis.
    ``idx`` is an integer index array (host or device) or a boolean mask.
    """
    out: dict[str, Array] = {}
    for name, value in args.items():
        if value.shape[0] == 1:
            out[name] = value
        else:
            out[name] = value[array_namespace(value).asarray(idx)]
    return out


def _check_args(args: Mapping[str, Array] | None, B: int) -> dict[str, Array]:
    if args is None:
        return {}
    if not isinstance(args, Mapping):
        raise TypeError(f"args must be a dict[str, array], got {type(args).__name__}")
    for name, value in args.items():
        shape = getattr(value, "shape", None)
        if shape is None or len(shape) == 0:
            raise TypeError(
                f"args[{name!r}] must be an array with a leading ensemble axis of size {B} or 1, "
                f"got {type(value).__name__} {value!r}"
            )
        if shape[0] not in (1, B):
            raise ValueError(
                f"args[{name!r}] has shape {tuple(shape)}; its leading (ensemble) axis must have "
                f"size B={B} (one per member) or 1 (shared)"
            )
    return dict(args)


def _check_state(y0: Array, what: str = "y0", dtype: Any = np.float64) -> tuple[ModuleType, Array]:
    if np.dtype(dtype) not in (np.float32, np.float64):
        raise ValueError(f"dtype must be float64 or float32, got {dtype!r}")
    xp = array_namespace(y0)
    y = xp.asarray(y0, dtype=dtype)
    if y.ndim != 2 or y.shape[0] < 1:
        raise ValueError(f"{what} must have shape (B, N) with B >= 1 members, got shape {tuple(y.shape)}")
    return xp, y


def _check_field_output(dy: Any, shape: tuple[int, ...], where: str) -> None:
    got = getattr(dy, "shape", None)
    if got is None or tuple(got) != tuple(shape):
        raise ValueError(
            f"{where}: field(t, y, args) must return an array of the same shape as y, {tuple(shape)}; "
            f"got {type(dy).__name__} of shape {got}"
        )


def _check_observation(obs: Any, n: int) -> dict[str, Array]:
    if not isinstance(obs, Mapping) or not obs:
        raise TypeError(f"observe(t, y, args) must return a non-empty dict[str, array], got {obs!r}")
    for name, value in obs.items():
        shape = getattr(value, "shape", None)
        if shape is None or len(shape) == 0 or shape[0] != n:
            raise ValueError(
                f"observe(...)[{name!r}] must have a leading member axis of size {n}, got shape {shape}"
            )
    return dict(obs)


class _Outputs:
    """Preallocated (B, T, ...) buffers for states and observations, NaN-filled."""

    def __init__(self, xp: ModuleType, B: int, T: int, N: int, save_state: bool, observe: Observer | None):
        self.xp, self.B, self.T = xp, B, T
        self.ys = xp.full((B, T, N), xp.nan, dtype=xp.float64) if save_state else None
        self.observe = observe
        self.observed: dict[str, Array] = {}

    def write(
        self, t: Array, y: Array, args: Mapping[str, Array], gids: Array | None, k: Array | int
    ) -> None:
        """Store output(s) ``k`` of members ``gids`` (``None`` = all, in order)."""
        rows: Any = slice(None) if gids is None else gids
        if self.ys is not None:
            self.ys[rows, k] = y
        if self.observe is None:
            return
        obs = _check_observation(self.observe(t, y, args), y.shape[0])
        for name, value in obs.items():
            buf = self.observed.get(name)
            if buf is None:
                xp = self.xp
                dtype = xp.result_type(value.dtype, xp.float64)
                buf = xp.full((self.B, self.T, *value.shape[1:]), xp.nan, dtype=dtype)
                self.observed[name] = buf
            buf[rows, k] = value

    def invalidate_after(self, gids: np.ndarray, k_last: np.ndarray, at: np.ndarray) -> None:
        """Set outputs of member ``gids[i]`` at positions where ``at > k_last[i]`` to NaN."""
        for gid, k in zip(gids.tolist(), k_last.tolist(), strict=True):
            first = int(np.searchsorted(at, k, side="right"))
            if first >= self.T:
                continue
            if self.ys is not None:
                self.ys[gid, first:] = self.xp.nan
            for buf in self.observed.values():
                buf[gid, first:] = self.xp.nan


class _Clock:
    """Calls ``progress(fraction)`` at most every ``_PROGRESS_EVERY_S`` seconds."""

    def __init__(self, progress: Progress | None):
        self.progress = progress
        self.last = time.perf_counter()

    def due(self) -> bool:
        if self.progress is None:
            return False
        now = time.perf_counter()
        if now - self.last < _PROGRESS_EVERY_S:
            return False
        self.last = now
        return True

    def report(self, fraction: float) -> None:
        if self.progress is not None:
            self.progress(min(max(fraction, 0.0), 1.0))


# --------------------------------------------------------------------------- solve


def solve(
    field: VectorField,
    y0: Array,
    ts: Sequence[float] | Array,
    *,
    method: ButcherTableau,
    control: FixedStep | AdaptiveStep,
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
    ts: (T,) strictly increasing output times; ``ts[0]`` is the initial time.

    Other arguments (keyword-only)
    ------------------------------
    method: an explicit RK tableau, e.g. ``DOPRI5`` or ``RK4``.
    control: ``FixedStep(dt)`` or ``AdaptiveStep(rtol=..., atol=...)`` (the latter needs
        a method with an embedded error estimate).
    args: dict of arrays with leading axis B or 1, passed to ``field`` and ``observe``.
    observe: ``observe(t, y, args) -> {name: (B, ...) array}`` recorded at every ``ts[k]``.
    save_state: store the states ``ys``; set ``False`` to keep only ``observe``'s output.
    max_steps: per-member budget of attempted (accepted + rejected) steps.
    progress: ``progress(fraction_done)`` called at most about every 0.2 s.
    memory_budget: bytes the solve may use; when the ensemble does not fit, its members
        run in consecutive chunks (:mod:`numeric.chunking`: the whole result plus one
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
        dense output (:mod:`numeric.integrators.events`; needs DOPRI5 or DOP853, and no
        chunking). The result is then an :class:`~numeric.integrators.events.EventTrajectory`
        with per-member ``n_events``, ``n_sliding`` and the sliding segments.

    Each member takes its own steps (adaptive control decides per member; fixed steps
    are the same for all). A step that would pass the member's next output time is
    shortened to end exactly on it (a step within a relative ``1e-9`` of it is
    stretched onto it), so every output is a genuine step endpoint: no dense output or
    interpolation is used for outputs, and recorded times equal ``ts`` exactly. The price
    is a few extra steps when outputs are dense compared to the natural step. (With
    ``events``, a step cut at a crossing ends on the dense output's state there.)

    Per member, the solve stops with a :class:`~numeric.trajectory.Status`:
    ``SUCCESS`` at ``ts[-1]``; ``NONFINITE`` when the state or field became NaN/inf (with
    fixed steps at once; with adaptive steps non-finite trials are first rejected and
    retried shorter, and the member stops when the step can shrink no more);
    ``MAX_STEPS``; ``STEP_TOO_SMALL`` when the adaptive step drops below
    ``8 eps max(|t|, ts[-1] - ts[0])``. A stopped member keeps its last finite state in
    ``y_stop``; its remaining outputs are NaN.

    Returns
    -------
    A :class:`~numeric.trajectory.Trajectory`.

    Raises
    ------
    ValueError / TypeError: malformed ``y0``, ``ts``, ``args``, field or observer output,
        or a controller that does not fit the method.
    """
    _, y0 = _check_state(y0, dtype=dtype)
    B = y0.shape[0]
    ts_h = np.asarray(to_numpy(ts), dtype=np.float64)
    if ts_h.ndim != 1 or ts_h.size < 1 or not np.all(np.isfinite(ts_h)):
        raise ValueError(f"ts must be a 1-D array of finite output times, got {ts!r}")
    if np.any(np.diff(ts_h) <= 0):
        raise ValueError(f"ts must be strictly increasing, got {ts_h}")
    if not isinstance(method, ButcherTableau):
        raise TypeError(f"method must be a ButcherTableau (e.g. DOPRI5), got {type(method).__name__}")
    if not isinstance(control, FixedStep | AdaptiveStep):
        raise TypeError(f"control must be FixedStep or AdaptiveStep, got {type(control).__name__}")
    control.check(method)
    if events is not None:
        if not isinstance(events, Switching):
            raise TypeError(f"events must be a Switching (e.g. field.switching), got {type(events).__name__}")
        check_method(method)
    if y0.dtype == np.float32 and control.adaptive and control.rtol < FLOAT32_MIN_RTOL:
        raise ValueError(f"a float32 solve needs rtol >= {FLOAT32_MIN_RTOL:g}, got {control.rtol:g}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int | np.integer) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive integer, got {max_steps!r}")
    args = _check_args(args, B)
    if memory_budget is not None:
        plan = plan_chunks(
            B,
            rk_work_bytes(y0.shape[1], method.stages, field_bytes),
            result_bytes(y0.shape[1], ts_h.size, save_state),
            memory_budget,
        )
        if plan.n_chunks > 1:
            if events is not None:
                raise ValueError("a solve with events runs in one chunk: raise memory_budget or lower B")

            def solve_range(start: int, stop: int, prog: Progress | None) -> Trajectory:
                return solve(
                    field,
                    y0[start:stop],
                    ts_h,
                    method=method,
                    control=control,
                    args=slice_members(args, start, stop),
                    observe=observe,
                    save_state=save_state,
                    max_steps=max_steps,
                    progress=prog,
                    dtype=dtype,
                )

            return run_chunked(solve_range, plan, progress)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        solver = _RKSolve(
            field, y0, ts_h, method, control, args, observe, save_state, int(max_steps), progress, events
        )
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
        self.out = _Outputs(xp, B, T, N, save_state, observe)
        self.clock = _Clock(progress)
        # per-member results (host), filled as members stop
        self.status = np.full(B, Status.SUCCESS, dtype=np.int64)
        self.n_steps = np.zeros(B, dtype=np.int64)
        self.n_rejected = np.zeros(B, dtype=np.int64)
        self.n_evals = np.zeros(B, dtype=np.int64)
        self.t_stop = np.full(B, ts[0])
        self.y_stop = xp.array(y0, copy=True)
        self.n_stopped = 0
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
        return cls(
            ts=ts.copy(),
            ys=self.out.ys,
            observed=self.out.observed,
            status=self.status,
            n_steps=self.n_steps,
            n_rejected=self.n_rejected,
            n_field_evals=self.n_evals,
            t_stop=self.t_stop,
            y_stop=self.y_stop,
            **extra,
        )

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
        ids_h = np.arange(B)
        ids_d: Array = xp.asarray(ids_h)
        full = True
        args_a = self.args
        kout_h = np.ones(B, dtype=np.int64)
        kout_d = xp.asarray(kout_h)
        steps_a = np.zeros(B, dtype=np.int64)
        rej_a = np.zeros(B, dtype=np.int64)
        evals_a = np.ones(B, dtype=np.int64)

        ev = None
        call_args = args_a
        if self.events is not None:
            ev = self.tracker = EventTracker(self.events, method, field, y, args_a)
            call_args = ev.args(args_a)
        k1 = field(t, y, call_args)
        _check_field_output(k1, y.shape, "solve")
        k1 = xp.asarray(k1, dtype=y.dtype)
        if ev is not None:
            ev.start(k1, args_a)
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
                gids = ids_h[sel]
                self.status[gids] = stop_code[sel]
                self.n_steps[gids] = steps_a[sel]
                self.n_rejected[gids] = rej_a[sel]
                self.n_evals[gids] = evals_a[sel]
                sel_d = xp.asarray(sel)
                self.t_stop[gids] = to_numpy(t[sel_d])
                self.y_stop[xp.asarray(gids)] = y[sel_d]
                self.n_stopped += sel.size
                if ev is not None:
                    self.n_events[gids] = ev.n_events[sel]
                    self.n_sliding[gids] = ev.n_sliding[sel]
                    ev.close(sel_d, gids)
                keep = np.flatnonzero(~stopping)
                if keep.size == 0:
                    return
                keep_d = xp.asarray(keep)
                ids_h, kout_h = ids_h[keep], kout_h[keep]
                steps_a, rej_a, evals_a = steps_a[keep], rej_a[keep], evals_a[keep]
                ids_d, kout_d = xp.asarray(ids_h), xp.asarray(kout_h)
                t, y, dt = t[keep_d], y[keep_d], dt[keep_d]
                if k1 is not None:
                    k1 = k1[keep_d]
                cstate = tuple(c[keep_d] for c in cstate)
                full = False
                args_a = take_members(self.args, ids_d)
                if ev is not None:
                    ev.keep(keep_d, keep)
                stop_code = np.full(keep.size, -1)
                attempts_max = int((steps_a + rej_a).max())

            # ---- one step for every active member ---------------------------------------
            t_next = ts_d[kout_d]
            remaining = t_next - t
            land = dt * (1.0 + _LAND_RTOL) >= remaining
            land_h = to_numpy(land)
            dt_try = xp.where(land, remaining, dt) if land_h.any() else dt
            if ev is None:
                y1, err, k_next = rk_step(field, method, t, y, dt_try, args_a, k1)
            else:
                call_args = ev.args(args_a)
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

            # ---- events: cut each member's step at its first crossing -------------------
            if ev is not None:
                t, y, k1, truncated_h, ev_evals = ev.after_step(
                    t_prev, y_prev, dt_try, K, accept, t, y, k1, call_args, ids_h
                )
                evals_a += ev_evals
                landed_h = landed_h & ~truncated_h

            # ---- outputs for members that landed on their next output time --------------
            if landed_h.any():
                if landed_h.all():
                    if full and np.all(kout_h == kout_h[0]):  # the common case: no copies
                        self.out.write(t, y, args_a, None, int(kout_h[0]))
                    else:
                        self.out.write(t, y, args_a, ids_d, kout_d)
                else:
                    sel_d = xp.asarray(np.flatnonzero(landed_h))
                    gids_d = ids_d[sel_d]
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
                self.clock.report((self.n_stopped + frac) / B)


# --------------------------------------------------------------------------- gradient descent


def gradient_descent(
    field: VectorField,
    y0: Array,
    *,
    lr: float | Array,
    steps: int,
    record: Sequence[int] | np.ndarray,
    args: Mapping[str, Array] | None = None,
    observe: Observer | None = None,
    save_state: bool = True,
    progress: Progress | None = None,
    memory_budget: int | None = None,
    field_bytes: int = 0,
    dtype: Any = np.float64,
) -> Trajectory:
    """Run the exact gradient-descent map ``y_{k+1} = y_k + lr * field(k, y_k, args)``.

    With ``field = -grad L`` this is gradient descent on ``L`` with learning rate ``lr``
    (forward Euler on the gradient flow with ``dt = lr``, but here the map itself is
    the object of study, so it is never refined or error-controlled).

    Main arguments
    --------------
    field: ``field(t, y, args) -> dy``; ``t`` (B,) holds the step index ``k`` as a float.
    y0: (B, N) initial states.

    Other arguments (keyword-only)
    ------------------------------
    lr: a scalar, or a (B,) array of per-member learning rates.
    steps: number of steps ``K`` to take.
    record: strictly increasing step indices in ``[0, K]`` at which to save ``y_k``
        (and ``observe``); ``ts`` of the result are these indices as floats.
    args, observe, save_state, progress: as in :func:`solve`.
    memory_budget, field_bytes: as in :func:`solve`, with a working set of ``7 N``
        floats + ``field_bytes`` per member.
    dtype: ``float64`` (default) or ``float32``, an explicit opt-in: the iterates and
        per-member learning rates are kept in this dtype (the field must compute in it,
        e.g. with ``args`` from a float32 backend); recorded states are stored as float64.
        The accuracy cost is measured in ``python -m benchmarks`` (long GD, float32 row).

    Non-finite states are absorbing for this map (``y_k`` NaN/inf keeps ``y_{k+1}``
    non-finite), so finiteness is checked only every 64 steps and at the end. A member
    found non-finite is replayed alone from the last check to find its last finite
    iterate ``y_j``; then its status is ``NONFINITE``, ``y_stop = y_j``, ``t_stop = j``,
    ``n_steps = j``, its records after step ``j`` are overwritten with NaN, and
    ``n_field_evals`` counts the batched steps it took part in until detection (not the
    replay). The per-step Python cost is one field call, one multiply and one add, or one
    call of the field's fused ``descend`` where it has one (see :func:`_gd_chunk`).
    """
    xp, y0 = _check_state(y0, dtype=dtype)
    B = y0.shape[0]
    if isinstance(steps, bool) or not isinstance(steps, int | np.integer) or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    steps = int(steps)
    rec = np.asarray(to_numpy(record))
    if rec.ndim != 1 or rec.size == 0 or not np.issubdtype(rec.dtype, np.integer):
        raise ValueError(f"record must be a non-empty 1-D array of integer step indices, got {record!r}")
    rec = rec.astype(np.int64)
    if np.any(np.diff(rec) <= 0) or rec[0] < 0 or rec[-1] > steps:
        raise ValueError(f"record must be strictly increasing indices within [0, steps={steps}], got {rec}")
    lr_a: float | Array
    if isinstance(lr, int | float | np.floating | np.integer):
        lr_a = float(lr)
    else:
        lr_arr = xp.asarray(lr, dtype=y0.dtype)
        if lr_arr.ndim == 0:
            lr_a = float(lr_arr)
        elif lr_arr.shape == (B,):
            lr_a = lr_arr[:, None]
        else:
            raise ValueError(
                f"lr must be a scalar or have shape (B,) = ({B},), got shape {tuple(lr_arr.shape)}"
            )
    args = _check_args(args, B)
    if memory_budget is not None:
        plan = plan_chunks(
            B,
            gd_work_bytes(y0.shape[1], field_bytes, y0.dtype.itemsize),
            result_bytes(y0.shape[1], rec.size, save_state),
            memory_budget,
        )
        if plan.n_chunks > 1:

            def gd_range(start: int, stop: int, prog: Progress | None) -> Trajectory:
                return gradient_descent(
                    field,
                    y0[start:stop],
                    lr=lr_a if isinstance(lr_a, float) else lr_a[start:stop, 0],
                    steps=steps,
                    record=rec,
                    args=slice_members(args, start, stop),
                    observe=observe,
                    save_state=save_state,
                    progress=prog,
                    dtype=dtype,
                )

            return run_chunked(gd_range, plan, progress)

    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return _gd(field, y0, lr_a, steps, rec, args, observe, save_state, progress)


def _gd_chunk(
    field: VectorField, y: Array, lr: float | Array, tgrid: Array, args: Mapping[str, Array]
) -> Array:
    """The hot loop: ``y <- y + lr * field(t_j, y, args)`` for each row ``t_j`` of ``tgrid``.

    The sum runs in place on a private copy of ``y`` (the caller's array is left
    untouched, so a chunk can be replayed, and the field's output is never written to).
    A field with a ``descend(t, y, lr, args)`` method does the step itself, fused (e.g.
    :meth:`numeric.fixed_readout.FixedReadoutNet.descend`: the gradient is never stored);
    otherwise ``lr * dy`` goes into one preallocated buffer, so the only allocation per
    step is the field's own output, with the same roundings as ``y + lr * dy``.
    """
    xp = array_namespace(y)
    y = y.copy()
    descend = getattr(field, "descend", None)
    if descend is not None:
        for t in tgrid:
            descend(t, y, lr, args)
        return y
    step = xp.empty_like(y)  # lr * dy lands here: no allocation per step
    for t in tgrid:
        xp.multiply(lr, field(t, y, args), out=step)
        y += step
    return y


def _gd(
    field: VectorField,
    y: Array,
    lr: float | Array,
    steps: int,
    rec: np.ndarray,
    args: dict[str, Array],
    observe: Observer | None,
    save_state: bool,
    progress: Progress | None,
) -> Trajectory:
    xp = array_namespace(y)
    B, N = y.shape
    R = rec.size
    out = _Outputs(xp, B, R, N, save_state, observe)
    clock = _Clock(progress)
    status = np.full(B, Status.SUCCESS, dtype=np.int64)
    n_steps = np.full(B, steps, dtype=np.int64)
    n_evals = np.full(B, steps, dtype=np.int64)
    t_stop = np.full(B, float(steps))
    y_stop = xp.array(y, copy=True)

    ids_h = np.arange(B)
    ids_d = xp.asarray(ids_h)
    full = True
    args_a: Mapping[str, Array] = args
    lr_a = lr
    ones_a = xp.ones((B,), dtype=xp.float64)  # times of the active members are ones_a * k

    def drop(bad_local: np.ndarray, k_fail: np.ndarray, y_last: Array, evals: int) -> None:
        nonlocal ids_h, ids_d, full, args_a, lr_a, y, ones_a
        gids = ids_h[bad_local]
        status[gids] = Status.NONFINITE
        n_steps[gids] = k_fail
        n_evals[gids] = evals
        t_stop[gids] = k_fail
        y_stop[xp.asarray(gids)] = y_last
        keep = np.flatnonzero(~np.isin(np.arange(ids_h.size), bad_local))
        keep_d = xp.asarray(keep)
        ids_h = ids_h[keep]
        ids_d = xp.asarray(ids_h)
        full = False
        args_a = take_members(args, ids_d)
        if not isinstance(lr_a, float):
            lr_a = lr_a[keep_d]
        y = y[keep_d]
        ones_a = ones_a[keep_d]

    k = 0
    rec_pos = 0
    # a non-finite y0 stops its member before any step
    bad0 = np.flatnonzero(~to_numpy(xp.isfinite(y).all(axis=1)))
    if rec[0] == 0:
        out.write(xp.zeros((B,), dtype=xp.float64), y, args, None, 0)
        rec_pos = 1
    if bad0.size:
        drop(bad0, np.zeros(bad0.size, dtype=np.int64), y[xp.asarray(bad0)], 0)

    def advance(y: Array, k: int, kc: int) -> Array:
        A = ids_h.size
        if kc - k >= 8:  # rows of a (steps, A) grid are the cheapest per-step time arrays
            tgrid = xp.arange(k, kc, dtype=xp.float64)[:, None] * xp.ones((1, A), dtype=xp.float64)
            return _gd_chunk(field, y, lr_a, tgrid, args_a)
        for j in range(k, kc):
            y = y + lr_a * field(ones_a * float(j), y, args_a)
        return y

    def write(k: int) -> None:
        nonlocal rec_pos
        if rec_pos < R and rec[rec_pos] == k:
            out.write(ones_a * float(k), y, args_a, None if full else ids_d, rec_pos)
            rec_pos += 1

    y_snap, k_snap = y, 0  # state at the last finiteness check
    if steps > 0 and ids_h.size:
        dy = field(xp.zeros((ids_h.size,), dtype=xp.float64), y, args_a)
        _check_field_output(dy, y.shape, "gradient_descent")
        y = y + lr_a * dy
        k = 1
        write(1)
    # stop at every record and every _GD_CHECK_EVERY steps (finiteness check)
    events = np.union1d(rec[rec > k], np.arange(_GD_CHECK_EVERY, steps + 1, _GD_CHECK_EVERY))
    events = np.union1d(events, [steps])
    for kc in events[events >= k].tolist():  # kc == k only to check the first step
        if ids_h.size == 0:
            break
        y = advance(y, k, kc)
        k = kc
        if kc % _GD_CHECK_EVERY == 0 or kc == steps:
            fin = to_numpy(xp.isfinite(y).all(axis=1))
            if not fin.all():
                bad = np.flatnonzero(~fin)
                k_fail, y_last = _gd_replay(field, y_snap, k_snap, kc, lr_a, bad, args, ids_h, xp)
                out.invalidate_after(ids_h[bad], k_fail, rec)
                drop(bad, k_fail, y_last, kc)
                if ids_h.size == 0:
                    break
            y_snap, k_snap = y, kc
        write(kc)
        if clock.due():
            clock.report(kc / steps)
    if ids_h.size:
        y_stop[ids_d] = y
    clock.report(1.0)
    return Trajectory(
        ts=rec.astype(np.float64),
        ys=out.ys,
        observed=out.observed,
        status=status,
        n_steps=n_steps,
        n_rejected=np.zeros(B, dtype=np.int64),
        n_field_evals=n_evals,
        t_stop=t_stop,
        y_stop=y_stop,
    )


def _gd_replay(
    field: VectorField,
    y_snap: Array,
    k_snap: int,
    k_end: int,
    lr: float | Array,
    bad: np.ndarray,
    args: Mapping[str, Array],
    ids_h: np.ndarray,
    xp: ModuleType,
) -> tuple[np.ndarray, Array]:
    """Re-run members ``bad`` (local positions) from step ``k_snap``; return, per member,
    the index of its last finite iterate and that iterate."""
    bad_d = xp.asarray(bad)
    y = y_snap[bad_d]
    lr_b = lr if isinstance(lr, float) else lr[bad_d]
    args_b = take_members(args, xp.asarray(ids_h[bad]))
    k_fail = np.full(bad.size, k_end, dtype=np.int64)
    y_last = xp.array(y, copy=True)
    alive = np.ones(bad.size, dtype=bool)
    for k in range(k_snap, k_end):
        t = xp.full((bad.size,), float(k), dtype=xp.float64)
        y_new = y + lr_b * field(t, y, args_b)
        fin = to_numpy(xp.isfinite(y_new).all(axis=1))
        newly = alive & ~fin
        if newly.any():
            nd = xp.asarray(np.flatnonzero(newly))
            y_last[nd] = y[nd]
            k_fail[newly] = k
            alive &= fin
            if not alive.any():
                break
        y = y_new
    if alive.any():  # cannot happen for a deterministic field; keep the replay's end state
        nd = xp.asarray(np.flatnonzero(alive))
        y_last[nd] = y[nd]
    return k_fail, y_last
