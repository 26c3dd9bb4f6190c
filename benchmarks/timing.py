"""Wall-clock timing that survives a noisy machine: probes, repeats, interleaving.

The 2-core machines this project runs on have phases, seconds to minutes long, in
which BLAS runs up to 2x slower (and other tenants may load the cores). So every
timed call is *bracketed* by a small matmul probe, alternatives are *interleaved*
(A, B, A, B, ...) so that both sample the same phases, and the reported number is the
*median* of the repeats. A repeat whose probes disagree by more than
:data:`PHASE_RATIO` is flagged as taken during a phase change.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field

import numpy as np

PHASE_RATIO = 1.5
"""Probe rates before/after a repeat that differ by more than this flag a phase change."""

_MICRO = {"min_time": 0.05}


def set_micro_time(seconds: float) -> None:
    """Default batch duration of :func:`best_of` (the ``tiny`` profile shortens it)."""
    _MICRO["min_time"] = float(seconds)


class Probe:
    """A small float64 GEMM whose rate (GFLOP/s) tracks the machine's current speed.

    ``n x n`` times ``n x n``, ``reps`` times: about 1 ms on an idle 2-core machine
    with the defaults, cheap enough to run before and after every timed call.
    """

    def __init__(self, n: int = 160, reps: int = 4, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.a = rng.normal(size=(n, n))
        self.b = rng.normal(size=(n, n))
        self.out = np.empty((n, n))
        self.flops = 2.0 * n**3 * reps
        self.reps = reps

    def __call__(self) -> float:
        """Current GEMM rate in GFLOP/s."""
        t0 = time.perf_counter()
        for _ in range(self.reps):
            np.matmul(self.a, self.b, out=self.out)
        return self.flops / (time.perf_counter() - t0) / 1e9


@dataclass
class Timing:
    """Repeated wall times of one call, with the probe rates around each repeat."""

    seconds: list[float] = field(default_factory=list)
    probe_before: list[float] = field(default_factory=list)
    probe_after: list[float] = field(default_factory=list)
    load_avg: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        """Median wall time in seconds (the reported number)."""
        return statistics.median(self.seconds)

    @property
    def spread(self) -> float:
        """max / min of the repeats (1.0 for a single repeat)."""
        return max(self.seconds) / min(self.seconds)

    @property
    def phase_flags(self) -> int:
        """Repeats whose bracketing probes differ by more than :data:`PHASE_RATIO`."""
        return sum(
            max(a, b) / min(a, b) > PHASE_RATIO
            for a, b in zip(self.probe_before, self.probe_after, strict=True)
        )

    @property
    def probe_median(self) -> float:
        """Median probe rate (GFLOP/s) over every probe taken around this call."""
        return statistics.median(self.probe_before + self.probe_after)

    def to_dict(self) -> dict:
        out = asdict(self)
        out.update(median=self.median, spread=self.spread, phase_flags=self.phase_flags)
        return out


def _load() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # pragma: no cover - not on Linux
        return float("nan")


def time_once(fn: Callable[[], object], probe: Probe, timing: Timing) -> object:
    """Run ``fn`` once between two probes and append the result to ``timing``."""
    timing.probe_before.append(probe())
    t0 = time.perf_counter()
    result = fn()
    timing.seconds.append(time.perf_counter() - t0)
    timing.probe_after.append(probe())
    timing.load_avg.append(_load())
    return result


def interleave(
    fns: Mapping[str, Callable[[], object]], repeats: int, probe: Probe
) -> tuple[dict[str, Timing], dict[str, object]]:
    """Time every function ``repeats`` times, alternating between them.

    Returns the timings and the result of each function's last call.
    """
    timings = {name: Timing() for name in fns}
    results: dict[str, object] = {}
    for _ in range(repeats):
        for name, fn in fns.items():
            results[name] = time_once(fn, probe, timings[name])
    return timings, results


def best_of(fn: Callable[[], object], min_time: float | None = None, max_reps: int = 10_000) -> float:
    """Seconds per call of a fast ``fn``: the minimum over batches lasting ``>= min_time``
    (default: see :func:`set_micro_time`).

    For micro-measurements (one field evaluation, one matmul) where the minimum, not
    the median, is the estimate of the undisturbed cost.
    """
    if min_time is None:
        min_time = _MICRO["min_time"]
    fn()
    reps = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        el = time.perf_counter() - t0
        if el >= min_time or reps >= max_reps:
            break
        reps = min(max_reps, max(reps * 2, int(reps * min_time / max(el, 1e-9))))
    best = el / reps
    for _ in range(2):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best
