"""The machine and its floor: description, float64 matmul rates and memory bandwidth.

Everything here is *measured in the same run* as the benchmarks it normalises, because
the same machine kind differs by 2x between phases (see :mod:`benchmarks.timing`).

* :func:`gemm_rate` -- float64 GEMM at a large square size (the peak a BLAS reaches);
* :func:`matmul_rate` -- the stacked matmuls of a benchmark at its own operand sizes
  (small operands run far below peak; that, not the peak, bounds small networks);
* :func:`copy_bandwidth` -- a large array copy (bytes read + bytes written per second).
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import os
import platform
import socket
from collections.abc import Sequence

import numpy as np

from benchmarks.timing import best_of
from numeric.engine.allocator import allocator_settings

_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(name: str) -> str | None:
    """Installed version of a distribution, without importing it (PyTorch takes seconds)."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _blas() -> str:
    try:
        cfg = np.show_config(mode="dicts")
        blas = cfg["Build Dependencies"]["blas"]
        return f"{blas.get('name', '?')} {blas.get('version', '')}".strip()
    except Exception:
        return "unknown"


def machine_info() -> dict:
    """Host, CPU, cores, load, BLAS and package versions (torch ``None`` if absent)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    try:
        load = list(os.getloadavg())
    except OSError:  # pragma: no cover
        load = []
    return {
        "host": socket.gethostname(),
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "cpu": _cpu_model(),
        "cores": cores,
        "load_avg_at_start": load,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "blas": _blas(),
        "threads_env": {k: v for k, v in os.environ.items() if k in _THREAD_VARS},
        "versions": {
            name: _version(name) for name in ("numpy", "scipy", "matplotlib", "torch", "threadpoolctl")
        },
        "threadpools": threadpools(),
        "allocator": allocator_settings(),
    }


def threadpools() -> list[dict]:
    """Native thread pools loaded now (BLAS, OpenMP) and their sizes; empty without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return []
    return [
        {"api": p.get("internal_api"), "threads": p.get("num_threads"), "version": p.get("version")}
        for p in threadpool_info()
    ]


def gemm_rate(n: int = 2048, min_time: float = 0.3) -> float:
    """float64 ``n x n x n`` GEMM rate in GFLOP/s (best of several calls)."""
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(n, n)), rng.normal(size=(n, n))
    out = np.empty((n, n))
    seconds = best_of(lambda: np.matmul(a, b, out=out), min_time=min_time)
    return 2.0 * n**3 / seconds / 1e9


def matmul_rate(shapes: Sequence[tuple[int, int, int, int]], min_time: float | None = None) -> float:
    """Rate (GFLOP/s) of a sequence of stacked matmuls ``(B, M, K) @ (B|1, K, N)``.

    Each entry is ``(B, M, K, N)``; a leading ``-B`` means the right operand is shared
    (leading axis 1), as data are. Operands are contiguous, as in the engine.
    """
    rng = np.random.default_rng(2)
    ops = []
    flops = 0.0
    for B, M, K, N in shapes:
        shared = B < 0
        B = abs(B)
        left = rng.normal(size=(B, M, K))
        right = rng.normal(size=(1 if shared else B, K, N))
        ops.append((left, right, np.empty((B, M, N))))
        flops += 2.0 * B * M * K * N

    def run() -> None:
        for left, right, out in ops:
            np.matmul(left, right, out=out)

    return flops / best_of(run, min_time=min_time) / 1e9


def copy_bandwidth(nbytes: int = 256 * 2**20, min_time: float = 0.2) -> float:
    """Large-copy bandwidth in GB/s, counting the bytes read plus the bytes written."""
    n = nbytes // 8
    src = np.random.default_rng(3).normal(size=n)
    dst = np.empty_like(src)
    seconds = best_of(lambda: np.copyto(dst, src), min_time=min_time)
    return 2.0 * nbytes / seconds / 1e9
