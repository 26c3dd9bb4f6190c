"""Run the selected benchmarks, bracketed by hardware measurements, into one JSON document."""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from benchmarks import (
    gpu,
    hardware,
    kinks,
    logpolar_sliding,
    long_gd,
    ncf,
    probability,
    targets,
    torch_loops,
    vs_solve_ivp,
    workers,
)
from benchmarks.config import HardwareConfig, Profile, get_profile
from benchmarks.report import render
from benchmarks.timing import Probe, set_micro_time
from numeric.backend import cupy_available

SCHEMA = 1


class UserError(Exception):
    """Bad input or a missing optional package: the CLI prints one line and exits 2."""


BENCHMARKS = ("flow", "gd", "prob", "ncf", "kinks", "workers", "sliding", "gpu")
"""Names for ``--only``: gradient flow vs solve_ivp, long GD vs PyTorch, probability estimate,
NCF restarts, kinked flows with and without events, claims on local Dask workers, the log-polar
flow with and without its sliding mode, the GPU rows (skipped without a usable GPU)."""


def _hardware(cfg: HardwareConfig, probe: Probe) -> dict:
    return {
        "gemm": hardware.gemm_rate(cfg.gemm_n, cfg.min_time),
        "copy": hardware.copy_bandwidth(cfg.copy_mib * 2**20, cfg.min_time),
        "probe": probe(),
    }


@contextlib.contextmanager
def limit_threads(threads: int | None, use_torch: bool):
    """Cap BLAS/OpenMP pools (threadpoolctl) and PyTorch at ``threads``; ``None``: leave them.

    Raises :class:`UserError` when threadpoolctl is missing.
    """
    if not threads:
        yield
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError as exc:
        raise UserError("--threads needs threadpoolctl (pip install -e '.[bench]')") from exc
    torch_before = None
    if use_torch:
        import torch

        torch_before = torch.get_num_threads()
        torch.set_num_threads(threads)
    try:
        with threadpool_limits(limits=threads):
            yield
    finally:
        if torch_before is not None:
            torch.set_num_threads(torch_before)


def run(
    profile: str | Profile,
    only: Iterable[str] = BENCHMARKS,
    use_torch: bool = True,
    threads: int | None = None,
    command: str = "python -m benchmarks",
    log: Callable[[str], None] = print,
) -> dict:
    """Run the benchmarks ``only`` under ``profile`` (a name, or a :class:`Profile` with some settings
    replaced, as ``--claims`` does); return the result document.

    ``threads`` caps NumPy's BLAS and PyTorch alike (``None``: the machine's defaults).
    """
    use_torch = use_torch and torch_loops.available()
    with limit_threads(threads, use_torch):
        doc = _run(profile, only, use_torch, command, log)
    doc["threads"] = threads or "default"
    return doc


def _run(
    profile: str | Profile, only: Iterable[str], use_torch: bool, command: str, log: Callable[[str], None]
) -> dict:
    prof = get_profile(profile) if isinstance(profile, str) else profile
    only = set(only)
    t0 = time.perf_counter()
    set_micro_time(prof.hardware.micro_time)
    probe = Probe()
    machine = hardware.machine_info()
    log(f"machine: {machine['cpu']}, {machine['cores']} cores, load {machine['load_avg_at_start'][:1]}")
    start = _hardware(prof.hardware, probe)
    hw = {
        "gemm_start": start["gemm"],
        "copy_start": start["copy"],
        "probe_start": start["probe"],
        "gemm_n": prof.hardware.gemm_n,
        "gemm_peak_gflops": start["gemm"],
        "copy_gbytes_per_s": start["copy"],
    }
    log(f"floor: GEMM {start['gemm']:.1f} GFLOP/s, copy {start['copy']:.1f} GB/s")
    results: dict = {}
    if "flow" in only:
        results["flow"] = vs_solve_ivp.run(prof.flow, hw, probe, log)
    if "gd" in only:
        results["gd"] = long_gd.run(prof.gd, hw, probe, use_torch, log)
    if "prob" in only:
        results["prob"] = probability.run(prof.prob, hw, probe, use_torch, log)
    if "ncf" in only:
        results["ncf"] = ncf.run(prof.ncf, hw, probe, use_torch, log)
    if "kinks" in only:
        results["kinks"] = kinks.run(prof.kinks, probe, log)
    if "workers" in only:
        results["workers"] = workers.run(prof.workers, log)
    if "sliding" in only:
        results["sliding"] = logpolar_sliding.run(prof.sliding, log)
    has_gpu = cupy_available()
    if "gpu" in only and has_gpu:
        results["gpu"] = gpu.run(prof.gpu, probe, use_torch, log)
    end = _hardware(prof.hardware, probe)
    hw.update(gemm_end=end["gemm"], copy_end=end["copy"], probe_end=end["probe"])
    try:
        hw["load_avg_at_end"] = list(os.getloadavg())
    except OSError:  # pragma: no cover
        hw["load_avg_at_end"] = []
    notes = [
        "Rates use the start-of-run GEMM and bandwidth; the end-of-run values show how much the "
        "machine drifted during the run.",
        "Sizes of the solve_ivp and PyTorch loops that were timed on a subset are scaled "
        "linearly (runs are independent, so a loop's time is the sum of its runs').",
    ]
    if not use_torch:
        notes.append("PyTorch rows: not measured (PyTorch not importable, or --no-torch).")
    return {
        "schema": SCHEMA,
        "command": command,
        "profile": prof.name,
        "machine": machine,
        "backend": {"name": "numpy", "dtype": "float64"},
        "torch": torch_loops.info() if use_torch else None,
        "hardware": hw,
        "benchmarks": results,
        "targets": targets.evaluate(results, has_gpu),
        "gpu": "not measured (no GPU in this session)"
        if not has_gpu
        else ("measured: section 8" if "gpu" in results else "GPU present; not selected (--only)"),
        "notes": notes,
        "wall_s": time.perf_counter() - t0,
    }


def _clean(obj):
    """JSON-safe copy: tuples to lists, NumPy scalars to Python, non-finite floats to None
    (the renderer prints None as "-")."""
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_clean(v) for v in obj]
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if hasattr(obj, "item") and not isinstance(obj, str):  # NumPy scalars
        return _clean(obj.item())
    return obj


def outputs(out: Path) -> tuple[Path, Path]:
    """The Markdown report and plot folder that go with the JSON file ``out``."""
    return out.with_suffix(".md"), out.parent / out.stem


def write(doc: dict, out: Path) -> tuple[Path, Path]:
    """Write ``doc`` as JSON to ``out``, then render its Markdown report and plots."""
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = _clean(doc)
    out.write_text(json.dumps(doc, indent=1))
    md, plot_dir = outputs(out)
    render(doc, md, plot_dir)
    return md, plot_dir


def load(path: Path) -> dict:
    """A stored run, refused with a clear message if its schema is not this one."""
    doc = json.loads(path.read_text())
    if doc.get("schema") != SCHEMA:
        raise ValueError(f"{path} has schema {doc.get('schema')!r}; this version reads schema {SCHEMA}")
    return doc
