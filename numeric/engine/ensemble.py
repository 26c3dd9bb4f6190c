"""What the engine's two loops share: ensemble conventions, their validation, outputs, progress.

The loops are the two methods of :func:`numeric.engine.solve.solve`: batched explicit
Runge-Kutta integration and the exact GD map (:mod:`numeric.engine.gd_map`).

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
holds the others back, and while every member is active nothing is copied.  That
bookkeeping is :class:`Members`, written once for both.

Floating-point warnings (overflow, invalid, divide) are silenced inside the loops:
a non-finite state is an *outcome* reported per member through
:class:`~numeric.engine.trajectory.Status`, not an exception.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np

from numeric.backend import Array, array_namespace
from numeric.engine.trajectory import Status, Trajectory

Observer = Callable[[Array, Array, Mapping[str, Array]], Mapping[str, Array]]
"""``observe(t, y, args) -> {name: (B, ...) array}``, evaluated at every output time."""
Progress = Callable[[float], None]
_PROGRESS_EVERY_S = 0.2


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


def check_args(args: Mapping[str, Array] | None, B: int) -> dict[str, Array]:
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


def check_state(y0: Array, what: str = "y0", dtype: Any = np.float64) -> tuple[ModuleType, Array]:
    if np.dtype(dtype) not in (np.float32, np.float64):
        raise ValueError(f"dtype must be float64 or float32, got {dtype!r}")
    xp = array_namespace(y0)
    y = xp.asarray(y0, dtype=dtype)
    if y.ndim != 2 or y.shape[0] < 1:
        raise ValueError(f"{what} must have shape (B, N) with B >= 1 members, got shape {tuple(y.shape)}")
    return xp, y


def check_field_output(dy: Any, shape: tuple[int, ...], where: str) -> None:
    got = getattr(dy, "shape", None)
    if got is None or tuple(got) != tuple(shape):
        raise ValueError(
            f"{where}: field(t, y, args) must return an array of the same shape as y, {tuple(shape)}; "
            f"got {type(dy).__name__} of shape {got}"
        )


def check_observation(obs: Any, n: int) -> dict[str, Array]:
    if not isinstance(obs, Mapping) or not obs:
        raise TypeError(f"observe(t, y, args) must return a non-empty dict[str, array], got {obs!r}")
    for name, value in obs.items():
        shape = getattr(value, "shape", None)
        if shape is None or len(shape) == 0 or shape[0] != n:
            raise ValueError(
                f"observe(...)[{name!r}] must have a leading member axis of size {n}, got shape {shape}"
            )
    return dict(obs)


class Members:
    """The members of a batched loop: which are still active, and the results of those that stopped.

    The loop holds its per-member arrays (state, time, step size, counters) for the active members
    only, in the order of ``ids`` (their global indices, host; ``ids_d`` on the device).  When some
    stop, :meth:`stop` writes their results (status, counts, stop time and last state: the
    :class:`~numeric.engine.trajectory.Trajectory` fields) at their global rows, and :meth:`keep`
    compacts the bookkeeping to the rest and hands back the device index that compacts the loop's
    own arrays; ``args`` follows (:func:`take_members`), ``full`` says that no member stopped yet.
    """

    def __init__(self, y0: Array, t0: float, args: Mapping[str, Array]):
        self.xp = xp = array_namespace(y0)
        B = y0.shape[0]
        self.status = np.full(B, Status.SUCCESS, dtype=np.int64)
        self.n_steps = np.zeros(B, dtype=np.int64)
        self.n_rejected = np.zeros(B, dtype=np.int64)
        self.n_field_evals = np.zeros(B, dtype=np.int64)
        self.t_stop = np.full(B, float(t0))
        self.y_stop = xp.array(y0, copy=True)
        self.all_args = args
        self.args = args
        self.ids = np.arange(B)
        self.ids_d: Array = xp.asarray(self.ids)
        self.full = True

    @property
    def n_stopped(self) -> int:
        return self.status.size - self.ids.size

    def stop(
        self,
        sel: np.ndarray,
        status: Any,
        n_steps: Any,
        n_field_evals: Any,
        t_stop: Any,
        y_stop: Array,
        n_rejected: Any = 0,
    ) -> np.ndarray:
        """Record the results of the active members at positions ``sel`` (host integers; the other
        arguments are theirs, host values or arrays, ``y_stop`` on the device); returns their global
        indices.  The bookkeeping still lists them until :meth:`keep`."""
        gids = self.ids[sel]
        self.status[gids] = status
        self.n_steps[gids] = n_steps
        self.n_rejected[gids] = n_rejected
        self.n_field_evals[gids] = n_field_evals
        self.t_stop[gids] = t_stop
        self.y_stop[self.xp.asarray(gids)] = y_stop
        return gids

    def keep(self, keep: np.ndarray) -> Array:
        """Go on with the active members at positions ``keep`` (host integers) only; returns ``keep`` on
        the device, to compact the loop's own per-member arrays with."""
        self.ids = self.ids[keep]
        self.ids_d = self.xp.asarray(self.ids)
        self.args = take_members(self.all_args, self.ids_d)
        self.full = False
        return self.xp.asarray(keep)

    def trajectory(self, ts: np.ndarray, out: Outputs, cls: type[Trajectory] = Trajectory, **extra: Any):
        """The loop's result: the outputs ``out`` at ``ts`` and every member's results."""
        return cls(
            ts=ts,
            ys=out.ys,
            observed=out.observed,
            status=self.status,
            n_steps=self.n_steps,
            n_rejected=self.n_rejected,
            n_field_evals=self.n_field_evals,
            t_stop=self.t_stop,
            y_stop=self.y_stop,
            **extra,
        )


class Outputs:
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
        obs = check_observation(self.observe(t, y, args), y.shape[0])
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


class Clock:
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
