r"""Benchmark 8: the batched engine on CuPy, against its NumPy run and per-network loops.

The problems of benchmarks 1-3 at one size each (:class:`benchmarks.config.GPUConfig`),
moved to the GPU with :func:`on_backend` (the field's arguments and the initial states;
the data are drawn on the host, so both devices integrate the same members):

* **ensemble GF** (:class:`benchmarks.vs_solve_ivp.FlowProblem`): ours on CuPy, ours on
  NumPy, and the ``solve_ivp`` loop on the CPU (timed on ``ivp_members`` members, scaled
  by ``B / ivp_members``), all at the same ``rtol``;
* **long GD** (:class:`benchmarks.long_gd.KouProblem`): ours on CuPy and on NumPy, and
  the PyTorch SGD loop on CUDA, one network at a time (timed on ``torch_members``, scaled);
* **probability estimate** (:class:`benchmarks.probability.DanaProblem`): the whole
  estimate on CuPy and on NumPy, and the PyTorch loop on CUDA (``torch_runs``, scaled).

Every GPU call ends with its result copied to the host, which waits for the queued
kernels, so a wall time covers the work. Agreement is measured, not assumed: the largest
relative difference between the CuPy and NumPy final states (the same arithmetic up to
the order of reductions), and for the flow the difference from ``solve_ivp``.
"""

from __future__ import annotations

import copy

import numpy as np

from benchmarks import torch_loops
from benchmarks.config import GDConfig, GPUConfig, ProbConfig
from benchmarks.long_gd import KouProblem
from benchmarks.probability import DanaProblem
from benchmarks.targets import GPU_ROWS
from benchmarks.timing import Probe, interleave
from benchmarks.vs_solve_ivp import FlowProblem, rel_errors
from numeric.backend import Backend, get_backend, to_numpy


def on_backend(problem, field, be: Backend, **arg_kw):
    """A shallow copy of ``problem`` whose ``args`` and ``y0`` live on ``be``."""
    moved = copy.copy(problem)
    moved.args = field.args(be, problem.X, problem.y, **arg_kw)
    moved.y0 = be.asarray(problem.y0)
    return moved


def _max_rel(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.max(rel_errors(np.asarray(a), np.asarray(b))))


def _row(name: str, B: int, timings: dict, ours: str, baseline: str, scale: float, agreement: dict) -> dict:
    """One GPU row: seconds of each alternative (baselines scaled to ``B``) and the ratio."""
    seconds = {k: t.median * (scale if k == baseline else 1.0) for k, t in timings.items()}
    return {
        "name": name,
        "B": B,
        "seconds": seconds,
        "ratio": seconds[baseline] / seconds[ours],
        "vs_numpy": seconds["ours numpy"] / seconds[ours],
        "agreement": agreement,
        "timings": {k: t.to_dict() for k, t in timings.items()},
    }


def flow(cfg: GPUConfig, be: Backend, probe: Probe, log) -> dict:
    n, d, m = cfg.flow_size
    prob = FlowProblem(n, d, m, cfg.flow_B, cfg.flow)
    gpu = on_backend(prob, prob.flow, be, alpha=0.0)
    k = cfg.flow.ivp_members
    fns = {
        "ours cupy": lambda: to_numpy(gpu.ours(cfg.flow_B, cfg.flow_rtol).y_stop),
        "ours numpy": lambda: prob.ours(cfg.flow_B, cfg.flow_rtol).y_stop,
        "solve_ivp loop": lambda: prob.ivp(k, cfg.flow_rtol)[0],
    }
    fns["ours cupy"]()  # CUDA context, kernel compilation
    log(f"GPU flow ({n},{d},{m}) B={cfg.flow_B} rtol {cfg.flow_rtol:g}: {cfg.repeats} repeats")
    timings, out = interleave(fns, cfg.repeats, probe)
    agreement = {
        "cupy vs numpy": _max_rel(out["ours cupy"], out["ours numpy"]),
        "cupy vs solve_ivp": _max_rel(out["ours cupy"][:k], out["solve_ivp loop"]),
    }
    return _row(
        GPU_ROWS[0],
        cfg.flow_B,
        timings,
        "ours cupy",
        "solve_ivp loop",
        cfg.flow_B / k,
        agreement,
    )


def long_gd(cfg: GPUConfig, be: Backend, probe: Probe, torch_device: str | None, log) -> dict:
    c: GDConfig = cfg.gd
    B = cfg.gd_B
    prob = KouProblem(c, B)
    gpu = on_backend(prob, prob.field, be, gamma=c.alpha)
    fns = {
        "ours cupy": lambda: to_numpy(gpu.ours(B, c.steps)),
        "ours numpy": lambda: prob.ours(B, c.steps),
    }
    if torch_device:
        fns["torch cuda"] = lambda: prob.torch("float64", c.steps, device=torch_device)
    for fn in fns.values():  # warm-up: contexts, kernels, cuBLAS handles
        fn()
    log(f"GPU long GD B={B}, {c.steps} steps: {cfg.repeats} repeats")
    timings, out = interleave(fns, cfg.repeats, probe)
    agreement = {"cupy vs numpy": _max_rel(out["ours cupy"], out["ours numpy"])}
    if torch_device:
        agreement["cupy vs torch cuda"] = _max_rel(out["ours cupy"][: c.torch_members], out["torch cuda"])
    baseline = "torch cuda" if torch_device else "ours numpy"
    return _row(
        GPU_ROWS[1],
        B,
        timings,
        "ours cupy",
        baseline,
        B / c.torch_members if torch_device else 1.0,
        agreement,
    )


def probability(cfg: GPUConfig, be: Backend, probe: Probe, torch_device: str | None, log) -> dict:
    c: ProbConfig = cfg.prob
    prob = DanaProblem(c)
    gpu = on_backend(prob, prob.field, be)
    fns = {
        "ours cupy": lambda: gpu.ours(c.runs),
        "ours numpy": lambda: prob.ours(c.runs),
    }
    if torch_device:
        fns["torch cuda"] = lambda: prob.torch("float64", device=torch_device)
    for fn in fns.values():
        fn()
    log(f"GPU probability estimate, {c.runs} runs: {cfg.repeats} repeats")
    timings, out = interleave(fns, cfg.repeats, probe)
    conv = {k: float(np.mean(v.converged[: c.torch_runs])) for k, v in out.items()}
    steps_diff = np.abs(out["ours cupy"].steps - out["ours numpy"].steps)
    agreement = {
        "steps cupy vs numpy (max |diff|)": int(np.max(steps_diff)),
        "converged fraction (first torch_runs)": conv,
    }
    baseline = "torch cuda" if torch_device else "ours numpy"
    return _row(
        GPU_ROWS[2],
        c.runs,
        timings,
        "ours cupy",
        baseline,
        c.runs / c.torch_runs if torch_device else 1.0,
        agreement,
    )


def run(cfg: GPUConfig, probe: Probe, use_torch: bool = True, log=print, be: Backend | None = None) -> dict:
    """The three GPU rows on ``be`` (default CuPy; the tests pass the strict CPU stand-in);
    PyTorch baselines on CUDA only where PyTorch sees it."""
    be = be or get_backend("cupy")
    device = "cuda" if use_torch and torch_loops.cuda_available() else None
    name = be.xp.cuda.runtime.getDeviceProperties(0)["name"].decode() if be.name == "cupy" else be.name
    return {
        "device": name,
        "torch_cuda": device is not None,
        "rows": [
            flow(cfg, be, probe, log),
            long_gd(cfg, be, probe, device, log),
            probability(cfg, be, probe, device, log),
        ],
    }
