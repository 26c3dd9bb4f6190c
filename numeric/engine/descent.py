"""The documented front of the gradient-descent method: :func:`gradient_descent`.

It states a GD run in the usual terms (learning rate, number of steps, recorded steps) and hands
it to the solver as ``solve(field, y0, method=GradientDescent(lr), saveat=SaveAt(steps=...))``
(:mod:`numeric.engine.gd_map`); everything else (validation, chunking, status) is the solver's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from numeric.backend import Array
from numeric.engine.ensemble import Observer, Progress
from numeric.engine.gd_map import GradientDescent
from numeric.engine.integrators.methods import VectorField
from numeric.engine.saveat import SaveAt
from numeric.engine.solve import solve
from numeric.engine.trajectory import Trajectory


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
    project: Callable[[Array], Array] | None = None,
) -> Trajectory:
    """Run ``steps`` steps of the exact gradient-descent map ``y_{k+1} = y_k + lr * field(k, y_k, args)``.

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
    args, observe, save_state, progress: as in :func:`numeric.engine.solve.solve`.
    memory_budget, field_bytes: as in :func:`numeric.engine.solve.solve`, with a working set
        of ``7 N`` floats + ``field_bytes`` per member.
    dtype: ``float64`` (default) or ``float32``, an explicit opt-in: the iterates and
        per-member learning rates are kept in this dtype (the field must compute in it,
        e.g. with ``args`` from a float32 backend); recorded states are stored as float64.
        The accuracy cost is measured in ``python -m benchmarks`` (long GD, float32 row).
    project: ``y -> P(y)``, row by row, applied after every step: projected GD
        ``y_{k+1} = P(y_k + lr * field(k, y_k, args))`` (:class:`numeric.engine.gd_map.GradientDescent`).

    Per-member status (:func:`numeric.engine.gd_map.descend`): ``SUCCESS``, or ``NONFINITE``
    with ``y_stop`` the last finite iterate ``y_j`` and ``t_stop = n_steps = j``.
    """
    if isinstance(steps, bool) or not isinstance(steps, int | np.integer) or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    steps = int(steps)
    rec = SaveAt(steps=record).step_indices()
    if rec[-1] > steps:
        raise ValueError(f"record must be strictly increasing indices within [0, steps={steps}], got {rec}")
    past = rec[-1] < steps  # the run goes on to ``steps`` after the last record
    traj = solve(
        field,
        y0,
        method=GradientDescent(lr, project),
        saveat=SaveAt(steps=np.append(rec, steps) if past else rec, observe=observe, state=save_state),
        args=args,
        max_steps=max(steps, 1),
        progress=progress,
        memory_budget=memory_budget,
        field_bytes=field_bytes,
        dtype=dtype,
    )
    if past:  # drop the record at ``steps`` the caller did not ask for
        traj.ts = traj.ts[:-1]
        traj.ys = None if traj.ys is None else traj.ys[:, :-1]
        traj.observed = {k: v[:, :-1] for k, v in traj.observed.items()}
    return traj
