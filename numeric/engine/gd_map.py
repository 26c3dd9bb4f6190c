"""Gradient descent as a method of the solver: the exact map ``y_{k+1} = y_k + lr * field(k, y_k, args)``.

``solve(field, y0, method=GradientDescent(lr), saveat=SaveAt(steps=...))`` runs it;
:func:`numeric.engine.descent.gradient_descent` is its documented front.  With
``field = -grad L`` this is gradient descent on ``L`` with learning rate ``lr``: forward Euler on
the gradient flow with ``dt = lr``, but here the map itself is the object of study, so the step is
never refined or error-controlled.  The ensemble conventions (shapes, ``args``, observers,
outputs) are those of :mod:`numeric.engine.ensemble`; validation, chunking and the status policy
are the solver's (:func:`numeric.engine.solve.solve`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.engine.ensemble import (
    Clock,
    Members,
    Observer,
    Outputs,
    Progress,
    check_field_output,
    take_members,
)
from numeric.engine.integrators.methods import VectorField
from numeric.engine.trajectory import Status, Trajectory

_GD_CHECK_EVERY = 64  # GD steps between finiteness checks (non-finite is absorbing)


@dataclass(frozen=True)
class GradientDescent:
    """The GD map as a solver method: the step is ``dt = lr``, a scalar or one per member ``(B,)``.

    ``project``: a map ``y -> P(y)`` of the states ``(B, N)`` applied after every step, giving
    projected GD ``y_{k+1} = P(y_k + lr * field(k, y_k, args))`` (e.g. onto the unit sphere; ascent
    is descent on the negated field).  It must act row by row: a member's step cannot depend on
    another's, as members stop independently.
    """

    lr: float | Array
    project: Callable[[Array], Array] | None = None

    def member_lr(self, xp: ModuleType, B: int, dtype: Any) -> float | Array:
        """``lr`` as a Python float or a ``(B, 1)`` array of ``dtype`` (broadcast against ``y``)."""
        lr = self.lr
        if isinstance(lr, int | float | np.floating | np.integer):
            return float(lr)
        lr_arr = xp.asarray(lr, dtype=dtype)
        if lr_arr.ndim == 0:
            return float(lr_arr)
        if lr_arr.shape == (B,):
            return lr_arr[:, None]
        raise ValueError(f"lr must be a scalar or have shape (B,) = ({B},), got shape {tuple(lr_arr.shape)}")

    def members(self, start: int, stop: int) -> GradientDescent:
        """The method for members ``[start, stop)`` (a chunk)."""
        lr = self.lr
        if getattr(lr, "ndim", 0) == 1:
            return GradientDescent(lr[start:stop], self.project)
        return self

    def stepped(self, field: VectorField) -> VectorField:
        """The field the loop steps: ``field`` itself, or with :attr:`project` after every step."""
        return field if self.project is None else _Projected(field, self.project)


@dataclass(frozen=True)
class _Projected:
    """``field`` stepped as ``y <- project(y + lr * field(t, y, args))``: a fused ``descend``."""

    field: VectorField
    project: Callable[[Array], Array]

    def __call__(self, t: Array, y: Array, args: Mapping[str, Array]) -> Array:
        return self.field(t, y, args)

    def descend(self, t: Array, y: Array, lr: float | Array, args: Mapping[str, Array]) -> None:
        inner = getattr(self.field, "descend", None)
        if inner is None:
            y += lr * self.field(t, y, args)
        else:
            inner(t, y, lr, args)
        y[...] = self.project(y)


def at_step(a: Array, t: Array) -> Array:
    """Row ``t_b`` of ``a[b]`` for every member: the data of each member's current step.

    For a map that changes with the step (a minibatch, a random increment): ``args`` carries every
    step's data as ``a`` of shape ``(B|1, K, ...)`` and the field reads ``at_step(a, t)`` ``(B, ...)``,
    gathered on the device from the step indices ``t`` ``(B,)`` (no sync).
    """
    xp = array_namespace(a)
    k = t.astype(xp.int64)
    if a.shape[0] == 1:
        return a[0][k]
    return a[xp.arange(a.shape[0]), k]


def descend(
    field: VectorField,
    y: Array,
    lr: float | Array,
    rec: np.ndarray,
    args: dict[str, Array],
    observe: Observer | None,
    save_state: bool,
    max_steps: int,
    progress: Progress | None,
) -> Trajectory:
    """Iterate the map up to step ``rec[-1]`` (inputs validated by the solver).

    Per-member status: ``SUCCESS`` at step ``rec[-1]``; ``NONFINITE`` when an iterate became
    NaN/inf (non-finite states are absorbing for this map, so finiteness is checked only every
    64 steps and at the end; a member found non-finite is replayed alone from the last check to
    find its last finite iterate ``y_j``: ``y_stop = y_j``, ``t_stop = n_steps = j``, its records
    after step ``j`` are NaN, and ``n_field_evals`` counts the batched steps it took part in until
    detection, not the replay); ``MAX_STEPS`` for the members still finite after ``max_steps``
    steps when ``rec[-1] > max_steps`` (later records NaN).  The per-step Python cost is one field
    call, one multiply and one add, or one call of the field's fused ``descend`` where it has one
    (see :func:`_gd_chunk`): a field with a ``descend`` is stepped by it at every step (the first,
    the short stretches between records and the replay included), so a step that does more than
    ``y += lr * dy`` (a projection, per-step monitors) is the map everywhere.
    """
    end = int(rec[-1])
    traj = _gd(field, y, lr, min(end, max_steps), rec, args, observe, save_state, progress)
    if end > max_steps:
        cut = traj.status == Status.SUCCESS
        traj.status[cut] = Status.MAX_STEPS
    return traj


def _gd_chunk(
    field: VectorField, y: Array, lr: float | Array, tgrid: Array, args: Mapping[str, Array]
) -> Array:
    """The hot loop: ``y <- y + lr * field(t_j, y, args)`` for each row ``t_j`` of ``tgrid``.

    The sum runs in place on a private copy of ``y`` (the caller's array is left
    untouched, so a chunk can be replayed, and the field's output is never written to).
    A field with a ``descend(t, y, lr, args)`` method does the step itself, fused (e.g.
    :meth:`numeric.models.fixed_readout.FixedReadoutNet.descend`: the gradient is never stored);
    otherwise ``lr * dy`` goes into one preallocated buffer, so the only allocation per
    step is the field's own output, with the same roundings as ``y + lr * dy``.
    """
    xp = array_namespace(y)
    y = y.copy()
    descend = getattr(field, "descend", None)
    rows = range(tgrid.shape[0])  # row j of the device grid is a view: indexing it needs no sync
    if descend is not None:
        for j in rows:
            descend(tgrid[j], y, lr, args)
        return y
    step = xp.empty_like(y)  # lr * dy lands here: no allocation per step
    for j in rows:
        xp.multiply(lr, field(tgrid[j], y, args), out=step)
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
    out = Outputs(xp, B, R, N, save_state, observe)
    clock = Clock(progress)
    members = Members(y, 0.0, args)  # the active ones; results filled as members stop
    lr_a = lr
    ones_a = xp.ones((B,), dtype=xp.float64)  # times of the active members are ones_a * k

    def drop(bad_local: np.ndarray, k_fail: np.ndarray, y_last: Array, evals: int) -> None:
        nonlocal lr_a, y, ones_a
        members.stop(bad_local, Status.NONFINITE, k_fail, evals, k_fail, y_last)
        keep_d = members.keep(np.flatnonzero(~np.isin(np.arange(members.ids.size), bad_local)))
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

    fused = getattr(field, "descend", None) is not None

    def advance(y: Array, k: int, kc: int) -> Array:
        if fused or kc - k >= 8:  # rows of a (steps, A) grid are the cheapest per-step time arrays
            tgrid = xp.arange(k, kc, dtype=xp.float64)[:, None] * ones_a
            return _gd_chunk(field, y, lr_a, tgrid, members.args)
        for j in range(k, kc):
            y = y + lr_a * field(ones_a * float(j), y, members.args)
        return y

    def write(k: int) -> None:
        nonlocal rec_pos
        if rec_pos < R and rec[rec_pos] == k:
            out.write(ones_a * float(k), y, members.args, None if members.full else members.ids_d, rec_pos)
            rec_pos += 1

    y_snap, k_snap = y, 0  # state at the last finiteness check
    if steps > 0 and members.ids.size:
        if fused:  # a fused step writes into y: its shape cannot go wrong
            y = advance(y, 0, 1)
        else:
            dy = field(xp.zeros((members.ids.size,), dtype=xp.float64), y, members.args)
            check_field_output(dy, y.shape, "gradient_descent")
            y = y + lr_a * dy
        k = 1
        write(1)
    # stop at every record up to ``steps`` and every _GD_CHECK_EVERY steps (finiteness check)
    events = np.arange(_GD_CHECK_EVERY, steps + 1, _GD_CHECK_EVERY)
    events = np.union1d(rec[(rec > k) & (rec <= steps)], events)
    events = np.union1d(events, [steps])
    for kc in events[events >= k].tolist():  # kc == k only to check the first step
        if members.ids.size == 0:
            break
        y = advance(y, k, kc)
        k = kc
        if kc % _GD_CHECK_EVERY == 0 or kc == steps:
            fin = to_numpy(xp.isfinite(y).all(axis=1))
            if not fin.all():
                bad = np.flatnonzero(~fin)
                k_fail, y_last = _gd_replay(field, y_snap, k_snap, kc, lr_a, bad, args, members.ids, xp)
                out.invalidate_after(members.ids[bad], k_fail, rec)
                drop(bad, k_fail, y_last, kc)
                if members.ids.size == 0:
                    break
            y_snap, k_snap = y, kc
        write(kc)
        if clock.due():
            clock.report(kc / steps)
    if members.ids.size:
        members.stop(np.arange(members.ids.size), Status.SUCCESS, steps, steps, float(steps), y)
    clock.report(1.0)
    return members.trajectory(rec.astype(np.float64), out)


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
    fused_step = getattr(field, "descend", None)
    for k in range(k_snap, k_end):
        t = xp.full((bad.size,), float(k), dtype=xp.float64)
        if fused_step is None:
            y_new = y + lr_b * field(t, y, args_b)
        else:  # the loop's own step (a projection, monitors)
            y_new = xp.array(y, copy=True)
            fused_step(t, y_new, lr_b, args_b)
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
