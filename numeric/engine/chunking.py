r"""Ensembles larger than memory: split the members into chunks that fit a memory budget.

Members of a batched solve are independent, so an ensemble of ``B`` members can run as
consecutive chunks of ``c`` members and give the same per-member result (the stacked
matmuls and elementwise passes of one member do not depend on the others).

Memory model (bytes, ``8`` per float64 entry, ``N`` state entries, ``T`` outputs):

* the *result* -- ``B T N`` saved states (``save_state=True``) plus ``B (N + 8)``
  per-member bookkeeping -- must fit whole: it is what the caller gets back;
* the *work* of one chunk -- ``c w`` with ``w`` the per-member working set: for an
  explicit RK method with ``s`` stages the state, the trial point, the error estimate,
  the chunk's own ``y_stop``, ``s`` stage derivatives and about six state-sized
  temporaries of the step control, ``(s + 10) N`` entries; for the GD map ``7 N``
  (the state and its private copy in the hot loop, the ``lr dy`` buffer, the snapshot
  kept for the non-finite replay, the chunk's own ``y_stop``, two temporaries of the
  first step); plus ``field_bytes`` per member for the field's own temporaries (e.g.
  ``(m, P)`` pre-activations), which only the caller knows. Measured peaks (two-layer
  ReLU flow and kou2023 GD, tracemalloc) come within a few percent of the model when
  ``field_bytes`` is right.

:func:`plan_chunks` picks the largest ``c`` with ``result + c w <= budget``; a budget is
a fraction of :func:`available_memory` on the device of ``y0`` (``MemAvailable`` of
``/proc/meminfo`` on the host, free plus pooled-but-unused bytes on a CUDA device).
:func:`run_chunked` runs a solver chunk by chunk into preallocated outputs;
:func:`measure_peak` reports the peak memory of a call (``tracemalloc`` on the host,
which sees NumPy's buffers; the CuPy pool's high-water mark on a GPU).
"""

from __future__ import annotations

import os
import tracemalloc
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from numeric.backend import Array, array_namespace
from numeric.engine.trajectory import Trajectory

F64 = 8
RK_EXTRA_ARRAYS = 10  # y, trial point, error estimate, y_stop and ~6 temporaries besides the s stages
GD_ARRAYS = 7  # state + loop copy, lr*dy buffer, snapshot, chunk's y_stop, 2 first-step temporaries


def available_memory(xp: ModuleType = np) -> int:
    """Bytes that can still be allocated on the device of namespace ``xp``."""
    if xp.__name__.startswith("cupy"):
        free, _ = xp.cuda.runtime.memGetInfo()
        pool = xp.get_default_memory_pool()
        return int(free + pool.total_bytes() - pool.used_bytes())
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not on Linux
        pass
    return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))  # pragma: no cover


def rk_work_bytes(N: int, stages: int, field_bytes: int = 0) -> int:
    """Working set of one member in an RK solve: ``(stages + 10) N`` floats plus the field's."""
    return F64 * (stages + RK_EXTRA_ARRAYS) * N + field_bytes


def gd_work_bytes(N: int, field_bytes: int = 0, itemsize: int = F64) -> int:
    """Working set of one member in the GD map: ``7 N`` floats of ``itemsize`` bytes plus the field's."""
    return itemsize * GD_ARRAYS * N + field_bytes


def result_bytes(N: int, T: int, save_state: bool) -> int:
    """Bytes of one member's result: saved states (if any), final state and counters."""
    return F64 * ((T * N if save_state else 0) + N + 8)


@dataclass(frozen=True)
class ChunkPlan:
    """``members`` split into chunks of ``chunk`` (the last may be shorter)."""

    members: int
    chunk: int
    work_bytes_per_member: int
    result_bytes: int
    budget: int

    @property
    def n_chunks(self) -> int:
        return -(-self.members // self.chunk)

    @property
    def estimated_peak(self) -> int:
        """Model peak: the whole result plus one chunk's working set."""
        return self.result_bytes + self.chunk * self.work_bytes_per_member

    def bounds(self) -> list[tuple[int, int]]:
        """``[start, stop)`` of every chunk."""
        return [(i, min(i + self.chunk, self.members)) for i in range(0, self.members, self.chunk)]


def plan_chunks(
    members: int, work_bytes_per_member: int, result_bytes_per_member: int, budget: int
) -> ChunkPlan:
    """The largest chunk with ``members * result + chunk * work <= budget``.

    Raises ``MemoryError`` when the result alone, plus one member's work, exceeds the
    budget (save fewer outputs, or pass ``save_state=False`` with an observer).
    """
    if members < 1 or work_bytes_per_member < 1 or budget < 1:
        raise ValueError(
            f"need members, work bytes and budget >= 1, got {members}, {work_bytes_per_member}, {budget}"
        )
    result = members * result_bytes_per_member
    chunk = min(members, (budget - result) // work_bytes_per_member)
    if chunk < 1:
        raise MemoryError(
            f"the result of {members} members needs {result / 2**20:.1f} MiB and one member's work "
            f"{work_bytes_per_member / 2**20:.1f} MiB, over the budget of {budget / 2**20:.1f} MiB; "
            "record fewer outputs or use save_state=False with an observer"
        )
    return ChunkPlan(members, int(chunk), work_bytes_per_member, result, budget)


def slice_members(args: Mapping[str, Array], start: int, stop: int) -> dict[str, Array]:
    """``args`` for members ``[start, stop)``: shared arrays (leading axis 1) pass through."""
    return {k: v if v.shape[0] == 1 else v[start:stop] for k, v in args.items()}


ChunkSolver = Callable[[int, int, Callable[[float], None] | None], Trajectory]
"""``solve_range(start, stop, progress) -> Trajectory``: one solve on members ``[start, stop)``."""


def run_chunked(
    solve_range: ChunkSolver, plan: ChunkPlan, progress: Callable[[float], None] | None = None
) -> Trajectory:
    """Run ``solve_range`` on every chunk of ``plan`` and assemble one :class:`Trajectory`.

    Outputs are preallocated for all members from the first chunk's shapes and filled
    chunk by chunk, so at most one chunk's result exists twice. Per-member counters
    and ``y_stop`` are exactly those of the chunk's solve; ``progress`` sees the
    fraction of members done.
    """
    B = plan.members
    whole: Trajectory | None = None
    for start, stop in plan.bounds():
        prog = None
        if progress is not None:

            def prog(f: float, start: int = start, stop: int = stop) -> None:
                progress((start + f * (stop - start)) / B)

        part = solve_range(start, stop, prog)
        if whole is None:
            whole = _allocate_like(part, B, array_namespace(part.y_stop))
        _fill(whole, part, start, stop)
    assert whole is not None
    return whole


def _allocate_like(part: Trajectory, B: int, xp: ModuleType) -> Trajectory:
    def dev(a: Array | None) -> Array | None:
        return None if a is None else xp.empty((B, *a.shape[1:]), dtype=a.dtype)

    def host(a: np.ndarray | None) -> np.ndarray | None:
        return None if a is None else np.empty((B, *a.shape[1:]), dtype=a.dtype)

    return Trajectory(
        ts=part.ts,
        ys=dev(part.ys),
        observed={k: dev(v) for k, v in part.observed.items()},
        status=host(part.status),
        n_steps=host(part.n_steps),
        n_rejected=host(part.n_rejected),
        n_field_evals=host(part.n_field_evals),
        t_stop=host(part.t_stop),
        y_stop=dev(part.y_stop),
    )


def _fill(whole: Trajectory, part: Trajectory, start: int, stop: int) -> None:
    for name in ("ys", "status", "n_steps", "n_rejected", "n_field_evals", "t_stop", "y_stop"):
        dst = getattr(whole, name)
        if dst is not None:
            dst[start:stop] = getattr(part, name)
    for k, v in part.observed.items():
        whole.observed[k][start:stop] = v


def measure_peak(fn: Callable[[], Any], xp: ModuleType = np) -> tuple[Any, int]:
    """``(fn(), peak bytes)`` allocated while ``fn`` ran, above what was held before.

    Host: ``tracemalloc`` (NumPy reports its buffers to it; tracing slows Python-level
    allocation, so do not time the same call). CuPy: the default pool's bytes held at the
    end, after freeing its cached blocks first (the pool grows to its high-water mark
    and keeps it), minus the bytes in use before.
    """
    if xp.__name__.startswith("cupy"):
        pool = xp.get_default_memory_pool()
        pool.free_all_blocks()
        before = pool.used_bytes()
        result = fn()
        xp.cuda.Stream.null.synchronize()
        return result, int(pool.total_bytes() - before)
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    try:
        result = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        if not tracing:
            tracemalloc.stop()
    return result, int(peak - before)
