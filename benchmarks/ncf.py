r"""Benchmark 4: constrained NCF maximization with restarts (kumar2025), batched vs loops.

Setting (kumar2025 Sec. 3.3, Algorithm 1, App. C.1.1): a depth-3 homogeneous net
:math:`\sigma(x)=\max(x,\alpha x)^p` with random weights on ``n`` Gaussian samples in
``d`` dimensions and a random teacher; the residual :math:`\bar y=y-\mathcal H(X;W)`
defines the first hidden layer's candidate NCF
:math:`h(a,b)=\sum_i q_i^\top b\,\sigma(a^\top g_i)` (:class:`numeric.models.homogeneous_nets.NeuronNCF`,
``k = d + width`` unknowns). Neuron Pursuit maximizes it on :math:`\|(a,b)\|=1` by projected
gradient ascent (eq. 5, step ``step``) from ``R`` random restarts and keeps the best.

Alternatives, interleaved in the same run:

* **ours** -- :func:`numeric.models.homogeneous_nets.projected_gradient_ascent` with all ``R``
  restarts as rows of one state ``(1, R, k)``: every iteration is four small GEMMs;
* **loop** -- the same function called once per restart (state ``(1, 1, k)``), the
  loop one writes around a single-start optimizer; timed on ``loop_restarts`` restarts
  and scaled by ``R / loop_restarts``;
* **torch float64 / float32** -- :func:`benchmarks.torch_loops.ncf_run`, one restart at a
  time with autograd, timed on ``torch_restarts`` restarts and scaled likewise.

Counted work per restart-iteration (``iters + 1`` value-and-gradient evaluations per
restart): ``4 n k`` matmul FLOPs and three passes over the ``k``-vector
(:func:`benchmarks.work.gd_step_work`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from benchmarks import torch_loops, work
from benchmarks.analysis import loglog_fit
from benchmarks.config import NCFConfig
from benchmarks.hardware import matmul_rate
from benchmarks.timing import Probe, interleave
from numeric.models.homogeneous_nets import NeuronNCF, layer_candidates, output, projected_gradient_ascent


@dataclass
class Ascent:
    """Final unit points ``u`` (R, k) and NCF values (R,) of the restarts."""

    u: np.ndarray
    values: np.ndarray


@dataclass
class NCFProblem:
    """The candidate NCF of the first hidden layer and ``R_max`` random starting points."""

    cfg: NCFConfig
    R_max: int

    def __post_init__(self) -> None:
        c = self.cfg
        rng = np.random.default_rng(c.seed)
        X = rng.normal(size=(c.n, c.d)) / np.sqrt(c.d)
        widths = (c.d, c.width, c.width, 1)
        teacher = [rng.normal(size=(1, k_out, k_in)) for k_in, k_out in itertools.pairwise(widths)]
        student = [0.5 * rng.normal(size=(1, k_out, k_in)) for k_in, k_out in itertools.pairwise(widths)]
        y = output(teacher, X, c.alpha, c.p)
        resid = y - output(student, X, c.alpha, c.p)
        self.ncf: NeuronNCF = layer_candidates(student, X, resid, c.alpha, c.p)[0]
        self.k = c.d + c.width
        self.u0 = rng.normal(size=(1, self.R_max, self.k))
        self.step_work = work.gd_step_work(4.0 * c.n * self.k, self.k)

    def ours(self, R: int) -> Ascent:
        """The first ``R`` restarts at once."""
        c = self.cfg
        u, v = projected_gradient_ascent(self.ncf.value_and_grad, self.u0[:, :R], step=c.step, iters=c.iters)
        return Ascent(u[0], v[0])

    def loop(self, R: int) -> Ascent:
        """The first ``R`` restarts, one call of the same optimizer each."""
        c = self.cfg
        out = [
            projected_gradient_ascent(
                self.ncf.value_and_grad, self.u0[:, r : r + 1], step=c.step, iters=c.iters
            )
            for r in range(R)
        ]
        return Ascent(np.concatenate([u[0] for u, _ in out]), np.concatenate([v[0] for _, v in out]))

    def torch(self, R: int, dtype: str) -> Ascent:
        """The first ``R`` restarts, one PyTorch autograd loop each."""
        c = self.cfg
        G, Q = self.ncf.G[0], self.ncf.Q[0]
        out = [
            torch_loops.ncf_run(
                G, Q, self.u0[0, r], alpha=c.alpha, p=c.p, step=c.step, iters=c.iters, dtype=dtype
            )
            for r in range(R)
        ]
        return Ascent(np.stack([u for u, _ in out]), np.array([v for _, v in out]))

    def matmul_shapes(self, R: int) -> list[tuple[int, int, int, int]]:
        """``a G``, ``b Q``, and the two gradient products, ``R`` rows each."""
        c = self.cfg
        return [(-1, R, c.d, c.n), (-1, R, c.width, c.n), (-1, R, c.n, c.d), (-1, R, c.n, c.width)]


def _agreement(ref: Ascent, other: Ascent) -> dict:
    """Worst distance of the final points, relative difference of the best value, same best restart."""
    R = other.values.shape[0]
    best_ref = float(ref.values[:R].max())
    return {
        "max_point_diff": float(np.abs(other.u - ref.u[:R]).max()),
        "best_value_rel_diff": abs(float(other.values.max()) - best_ref) / abs(best_ref),
        "same_best_restart": bool(int(np.argmax(other.values)) == int(np.argmax(ref.values[:R]))),
        "of": R,
    }


def run(cfg: NCFConfig, hw: dict, probe: Probe, use_torch: bool = True, log=print) -> dict:
    """Benchmark 4: batched restarts vs a Python loop (and PyTorch loops), time vs R."""
    R_max = max(cfg.Rs)
    prob = NCFProblem(cfg, R_max)
    use_torch = use_torch and torch_loops.available()
    fns: dict = {("ours", R): (lambda R=R: prob.ours(R)) for R in cfg.Rs}
    fns[("loop", "numpy float64")] = lambda: prob.loop(cfg.loop_restarts)
    if use_torch:
        for dt in cfg.torch_dtypes:
            fns[("torch", dt)] = lambda dt=dt: prob.torch(cfg.loop_restarts, dt)
    log(f"ncf: {len(fns)} configurations x {cfg.repeats} repeats (R up to {R_max}, {cfg.iters} iterations)")
    timings, results = interleave(fns, cfg.repeats, probe)
    peak, bw = hw["gemm_peak_gflops"], hw["copy_gbytes_per_s"]
    evals = cfg.iters + 1
    rows = []
    for key, tm in timings.items():
        kind = key[0]
        R = key[1] if kind == "ours" else cfg.loop_restarts
        operand = matmul_rate(prob.matmul_shapes(R if kind == "ours" else 1))
        member_steps = float(R * evals)
        res: Ascent = results[key]
        rows.append(
            {
                "method": "ours" if kind == "ours" else f"{kind} {key[1]}",
                "B": R if kind == "ours" else 1,
                "restarts_timed": R,
                "seconds": tm.median,
                "seconds_for_R_max": tm.median * R_max / R,
                "member_steps": member_steps,
                "member_steps_per_s": member_steps / tm.median,
                "seconds_per_member_step": tm.median / member_steps,
                "best_value": float(res.values.max()),
                "timing": tm.to_dict(),
                "rates": work.rates(prob.step_work * member_steps, tm.median, peak, operand, bw),
            }
        )
    ours_full = next(r for r in rows if r["method"] == "ours" and r["B"] == R_max)
    ratios = [
        {"vs": r["method"], "ratio": r["seconds_for_R_max"] / ours_full["seconds"]}
        for r in rows
        if r["method"] != "ours"
    ]
    ref: Ascent = results[("ours", R_max)]
    agreement = {
        r["method"]: _agreement(ref, results[k]) for k, r in zip(timings, rows, strict=True) if k[0] != "ours"
    }
    ours_rows = [r for r in rows if r["method"] == "ours"]
    return {
        "setting": {
            "n": cfg.n,
            "d": cfg.d,
            "width": cfg.width,
            "k": prob.k,
            "alpha": cfg.alpha,
            "p": cfg.p,
            "step": cfg.step,
            "iters": cfg.iters,
            "R_max": R_max,
            "loop_restarts": cfg.loop_restarts,
        },
        "flops_per_member_step": prob.step_work.flops,
        "bytes_per_member_step": prob.step_work.bytes,
        "rows": rows,
        "ratios": ratios,
        "agreement": agreement,
        "torch": torch_loops.info() if use_torch else None,
        "scaling_vs_B": loglog_fit([r["B"] for r in ours_rows], [r["seconds"] for r in ours_rows]),
    }
