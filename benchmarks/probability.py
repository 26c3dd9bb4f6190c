r"""Benchmark 3: a convergence-probability estimate (dana2025), batched vs a PyTorch per-run loop.

Setting (dana2025 Sec. 2 and App. B): ``n`` inputs uniform on the sphere with norms
:math:`U[1,2]`, labels :math:`\pm U[1,2]`; ``runs`` networks
:math:`f = \frac1p\sum_j a_j\,\mathrm{relu}(w_j\cdot x)` with
:math:`w_j\sim N(0, I/d)`, :math:`a_j = s_j(\|w_j\| + \mathrm{Exp}(1))`; GD with ``lr``
on :math:`p\,L` (square loss :math:`\frac1{2n}\sum(y - f)^2`), each run until
:math:`L <` ``threshold`` ("converged") or ``max_steps``. The estimate is the fraction
of converged runs.

Alternatives, interleaved in the same run:

* **ours** -- all runs at once with :func:`numeric.engine.descent.gradient_descent` on the
  batched field the dana2025 claims use, :class:`numeric.models.shallow_relu.ShallowReLU`, in
  chunks of ``check_every`` steps; runs that converged are dropped between chunks (so a run costs at most
  ``check_every - 1`` steps more than it needs);
* **torch float64 / float32** -- :func:`benchmarks.torch_loops.dana_run`, one run at a
  time, checking the loss every step (``loss.item()``) as the authors' code does;
  timed on ``torch_runs`` runs and scaled by ``runs / torch_runs``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks import torch_loops, work
from benchmarks.analysis import loglog_fit
from benchmarks.config import ProbConfig
from benchmarks.hardware import matmul_rate
from benchmarks.timing import Probe, interleave
from numeric.backend import array_namespace, get_backend, to_numpy
from numeric.engine.descent import gradient_descent
from numeric.models.shallow_relu import ShallowReLU


@dataclass
class Outcome:
    """Per run: converged or not, GD steps taken, final loss."""

    converged: np.ndarray
    steps: np.ndarray
    loss: np.ndarray


@dataclass
class DanaProblem:
    """Data, field and the initial states of ``runs`` networks."""

    cfg: ProbConfig

    def __post_init__(self) -> None:
        c = self.cfg
        rng = np.random.default_rng(c.seed)
        U = rng.normal(size=(c.n, c.d))
        self.X = U / np.linalg.norm(U, axis=1, keepdims=True) * rng.uniform(1.0, 2.0, (c.n, 1))
        self.y = rng.choice([-1.0, 1.0], c.n) * rng.uniform(1.0, 2.0, c.n)
        self.W0 = rng.normal(0.0, 1.0 / np.sqrt(c.d), size=(c.runs, c.p, c.d))
        signs = rng.choice([-1.0, 1.0], size=(c.runs, c.p))
        self.a0 = signs * (np.linalg.norm(self.W0, axis=2) + rng.exponential(size=(c.runs, c.p)))
        self.field = ShallowReLU(c.p, c.d)
        self.args = self.field.args(get_backend("numpy"), self.X, self.y)
        self.y0 = np.concatenate([self.W0.reshape(c.runs, -1), self.a0], axis=1)
        self.step_work = work.gd_step_work(work.two_layer_grad_flops(c.n, c.d, c.p), self.field.n_params)

    def ours(self, B: int) -> Outcome:
        """The first ``B`` runs at once, dropping converged runs every ``check_every`` steps
        (on the device of ``y0``; the bookkeeping stays on the host)."""
        c = self.cfg
        y = self.y0[:B]
        xp = array_namespace(y)
        ids = np.arange(B)
        converged = np.zeros(B, dtype=bool)
        steps = np.full(B, c.max_steps)
        loss = np.full(B, np.nan)
        done_steps = 0
        while True:
            L = to_numpy(self.field.loss_value(y, self.args))
            loss[ids] = L
            stop = (L < c.threshold) | ~np.isfinite(L)
            converged[ids[stop]] = L[stop] < c.threshold
            steps[ids[stop]] = done_steps
            keep = ~stop
            ids, y = ids[keep], y[xp.asarray(keep)]
            if ids.size == 0 or done_steps >= c.max_steps:
                return Outcome(converged, steps, loss)
            chunk = min(c.check_every, c.max_steps - done_steps)
            traj = gradient_descent(
                self.field, y, lr=c.lr, steps=chunk, record=[chunk], args=self.args, save_state=False
            )
            y = traj.y_stop
            done_steps += chunk

    def torch(self, dtype: str, device: str = "cpu") -> Outcome:
        """The first ``torch_runs`` runs, one after another on ``device``."""
        c = self.cfg
        out = [
            torch_loops.dana_run(
                self.X,
                self.y,
                self.W0[i],
                self.a0[i],
                lr=c.lr,
                max_steps=c.max_steps,
                threshold=c.threshold,
                dtype=dtype,
                device=device,
            )
            for i in range(c.torch_runs)
        ]
        conv, steps, loss = zip(*out, strict=True)
        return Outcome(np.array(conv), np.array(steps), np.array(loss))

    def matmul_shapes(self, B: int) -> list[tuple[int, int, int, int]]:
        c = self.cfg
        return [(-B, c.p, c.d, c.n), (B, 1, c.p, c.n), (B, c.p, c.n, 1), (-B, c.p, c.n, c.d)]


def run(cfg: ProbConfig, hw: dict, probe: Probe, use_torch: bool = True, log=print) -> dict:
    """Benchmark 3: the whole estimate timed both ways, agreement, time vs B."""
    prob = DanaProblem(cfg)
    use_torch = use_torch and torch_loops.available()
    Bs = tuple(sorted({B for B in cfg.Bs if B <= cfg.runs} | {cfg.runs}))
    fns: dict = {("ours", B): (lambda B=B: prob.ours(B)) for B in Bs}
    if use_torch:
        for dt in cfg.torch_dtypes:
            fns[("torch", dt)] = lambda dt=dt: prob.torch(dt)
    log(f"probability: {len(fns)} configurations x {cfg.repeats} repeats ({cfg.runs} runs)")
    timings, results = interleave(fns, cfg.repeats, probe)
    peak, bw = hw["gemm_peak_gflops"], hw["copy_gbytes_per_s"]

    rows = []
    for key, tm in timings.items():
        res: Outcome = results[key]
        if key[0] == "ours":
            B = key[1]
            seconds_all = tm.median * cfg.runs / B
            operand = matmul_rate(prob.matmul_shapes(B))
            name = "ours"
        else:
            B = cfg.torch_runs
            seconds_all = tm.median * cfg.runs / B
            operand = matmul_rate(prob.matmul_shapes(1))
            name = f"torch {key[1]}"
        member_steps = float(res.steps.sum())
        rows.append(
            {
                "method": name,
                "B": B if key[0] == "ours" else 1,
                "runs_timed": B,
                "seconds": tm.median,
                "seconds_for_estimate": seconds_all,
                "member_steps": member_steps,
                "member_steps_per_s": member_steps / tm.median,
                "seconds_per_member_step": tm.median / member_steps,
                "probability": float(res.converged.mean()),
                "steps_median": float(np.median(res.steps)),
                "timing": tm.to_dict(),
                "rates": work.rates(prob.step_work * member_steps, tm.median, peak, operand, bw),
            }
        )
    ours_full = next(r for r in rows if r["method"] == "ours" and r["B"] == cfg.runs)
    ratios = [
        {"torch": r["method"], "ratio": r["seconds_for_estimate"] / ours_full["seconds"]}
        for r in rows
        if r["method"] != "ours"
    ]
    agreement = {}
    if use_torch:
        mine: Outcome = results[("ours", cfg.runs)]
        k = cfg.torch_runs
        for dt in cfg.torch_dtypes:
            theirs: Outcome = results[("torch", dt)]
            agreement[dt] = {
                "same_verdict": int((theirs.converged == mine.converged[:k]).sum()),
                "of": k,
                "probability_ours_on_subset": float(mine.converged[:k].mean()),
                "probability_torch": float(theirs.converged.mean()),
            }
    ours_rows = [r for r in rows if r["method"] == "ours"]
    return {
        "setting": {
            "n": cfg.n,
            "d": cfg.d,
            "p": cfg.p,
            "runs": cfg.runs,
            "lr": cfg.lr,
            "threshold": cfg.threshold,
            "max_steps": cfg.max_steps,
            "check_every": cfg.check_every,
            "torch_runs": cfg.torch_runs,
        },
        "flops_per_member_step": prob.step_work.flops,
        "bytes_per_member_step": prob.step_work.bytes,
        "rows": rows,
        "ratios": ratios,
        "agreement": agreement,
        "torch": torch_loops.info() if use_torch else None,
        "scaling_vs_B": loglog_fit([r["B"] for r in ours_rows], [r["seconds"] for r in ours_rows]),
    }
