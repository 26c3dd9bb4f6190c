r"""Benchmark 2: long full-batch gradient descent (kou2023), batched vs a PyTorch SGD loop.

Setting (kou2023 Sec. 3): ``n`` nearly orthogonal samples in ``d`` dimensions
(:math:`x_i = y_i\mu + \xi_i`, :math:`\xi_i\sim N(0, I/d)`, :math:`\mu\sim N(0, 10^{-4}I/d)`,
Rademacher labels), :math:`2m` leaky-ReLU neurons with a fixed second layer
:math:`\pm 1/m`, only the first layer trained, logistic loss, learning rate ``lr``,
initialisation :math:`N(0,\sigma_0^2)`. The computation being costed is
``steps_total`` GD steps (1e5) of ``B`` independent networks.

Alternatives, interleaved in the same run:

* **ours** -- :func:`numeric.engine.descent.gradient_descent` (the exact GD map) on the
  batched field the kou2023 claims use, :class:`numeric.models.fixed_readout.FixedReadoutNet`,
  ``B`` networks at once;
* **torch float64 / float32** -- :func:`benchmarks.torch_loops.kou_run`, one network
  at a time (autograd + ``torch.optim.SGD``), timed on ``torch_members`` networks.

Every step costs the same, so each alternative is timed over ``steps`` steps and the
reported *time for the whole computation* is that rate times ``B * steps_total``
(exact when ``steps == steps_total``, as in the ``full`` profile).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from benchmarks import torch_loops, work
from benchmarks.analysis import loglog_fit
from benchmarks.config import GDConfig
from benchmarks.hardware import matmul_rate
from benchmarks.profiling import profile
from benchmarks.timing import Probe, Timing, best_of, interleave
from numeric.backend import get_backend, matmul_add
from numeric.engine import chunking
from numeric.engine.descent import gradient_descent
from numeric.models.fixed_readout import FixedReadoutNet, readout


@dataclass
class KouProblem:
    """Data, field and ``B_max`` initial first layers of the kou2023 setting."""

    cfg: GDConfig
    B_max: int

    def __post_init__(self) -> None:
        c = self.cfg
        rng = np.random.default_rng(c.seed)
        labels = rng.choice([-1.0, 1.0], size=c.n)
        mu = rng.normal(0.0, 1e-2 / np.sqrt(c.d), size=c.d)
        self.X = labels[:, None] * mu[None, :] + rng.normal(0.0, 1.0 / np.sqrt(c.d), size=(c.n, c.d))
        self.y = labels
        self.field = FixedReadoutNet(c.m, c.d)
        self.args = self.field.args(get_backend("numpy"), self.X, self.y, gamma=c.alpha)
        self.args32 = self.field.args(get_backend("numpy", np.float32), self.X, self.y, gamma=c.alpha)
        self.W0 = rng.normal(0.0, c.sigma0, size=(self.B_max, 2 * c.m, c.d))
        self.y0 = self.W0.reshape(self.B_max, -1)
        self.N = self.y0.shape[1]
        self.step_work = work.gd_step_work(work.first_layer_grad_flops(c.n, c.d, 2 * c.m), self.N)
        self.field_bytes = 8 * (self.N + 4 * 2 * c.m * c.n)  # the field's output and (2m, n) temporaries

    def ours(
        self, B: int, steps: int, dtype: str = "float64", memory_budget: int | None = None
    ) -> np.ndarray:
        """Final first layers ``(B, 2m d)`` after ``steps`` GD steps, all members at once
        (``dtype="float32"``: the explicit float32 option of the engine; ``memory_budget``:
        chunked, see :mod:`numeric.engine.chunking`)."""
        traj = gradient_descent(
            self.field,
            self.y0[:B],
            lr=self.cfg.lr,
            steps=steps,
            record=[steps],
            args=self.args32 if dtype == "float32" else self.args,
            save_state=False,
            dtype=dtype,
            memory_budget=memory_budget,
            field_bytes=self.field_bytes,
        )
        if not traj.ok.all():
            raise RuntimeError(f"kou GD failed:\n{traj.summary()}")
        return traj.y_stop

    def torch(self, dtype: str, steps: int, device: str = "cpu") -> list[np.ndarray]:
        """Final first layers of ``torch_members`` networks, trained one after another on ``device``."""
        c = self.cfg
        return [
            torch_loops.kou_run(
                self.X,
                self.y,
                self.W0[i],
                readout(c.m),
                alpha=c.alpha,
                lr=c.lr,
                steps=steps,
                dtype=dtype,
                device=device,
            ).reshape(-1)
            for i in range(c.torch_members)
        ]

    def matmul_shapes(self, B: int) -> list[tuple[int, int, int, int]]:
        c = self.cfg
        return [(-B, 2 * c.m, c.d, c.n), (-B, 2 * c.m, c.n, c.d)]


def run(cfg: GDConfig, hw: dict, probe: Probe, use_torch: bool = True, log=print) -> dict:
    """Benchmark 2: per member-step rates, projected totals, ratios, agreement, breakdown."""
    prob = KouProblem(cfg, max(*cfg.Bs, cfg.torch_members))
    use_torch = use_torch and torch_loops.available()
    fns: dict = {("ours", B): (lambda B=B: prob.ours(B, cfg.steps)) for B in cfg.Bs}
    B_max = max(cfg.Bs)
    fns[("ours float32", B_max)] = lambda: prob.ours(B_max, cfg.steps, "float32")
    if use_torch:
        for dt in cfg.torch_dtypes:
            fns[("torch", dt)] = lambda dt=dt: prob.torch(dt, cfg.steps)
        prob.torch(cfg.torch_dtypes[0], 2)  # warm-up
    prob.ours(min(cfg.Bs), 2)
    log(f"long GD: {len(fns)} configurations x {cfg.repeats} repeats of {cfg.steps} steps")
    timings, results = interleave(fns, cfg.repeats, probe)
    peak, bw = hw["gemm_peak_gflops"], hw["copy_gbytes_per_s"]

    f32_timing = timings.pop(("ours float32", B_max))
    rows = []
    for key, tm in timings.items():
        kind = key[0]
        members = key[1] if kind == "ours" else cfg.torch_members
        per_ms = tm.median / (members * cfg.steps)
        operand = matmul_rate(prob.matmul_shapes(members if kind == "ours" else 1))
        rows.append(
            {
                "method": "ours" if kind == "ours" else f"torch {key[1]}",
                "B": members if kind == "ours" else 1,
                "members_timed": members,
                "steps_timed": cfg.steps,
                "seconds": tm.median,
                "seconds_per_member_step": per_ms,
                "member_steps_per_s": 1.0 / per_ms,
                "projected_total_s_per_member": per_ms * cfg.steps_total,
                "timing": tm.to_dict(),
                "rates": work.rates(prob.step_work * (members * cfg.steps), tm.median, peak, operand, bw),
            }
        )
    ours_rows = [r for r in rows if r["method"] == "ours"]
    torch_rows = [r for r in rows if r["method"] != "ours"]
    ratios = []
    for t in torch_rows:
        for o in ours_rows:
            ratios.append(
                {
                    "torch": t["method"],
                    "B": o["B"],
                    "ratio": t["seconds_per_member_step"] / o["seconds_per_member_step"],
                }
            )
    # like for like: each PyTorch loop against ours at its own precision (largest B)
    per_ours = {
        "float64": next(o for o in ours_rows if o["B"] == B_max)["seconds_per_member_step"],
        "float32": f32_timing.median / (B_max * cfg.steps),
    }
    same_precision = [
        {
            "torch": t["method"],
            "ours": f"ours {t['method'].split()[1]}",
            "B": B_max,
            "ratio": t["seconds_per_member_step"] / per_ours[t["method"].split()[1]],
        }
        for t in torch_rows
    ]
    agreement = {}
    if use_torch:
        ours0 = results[("ours", cfg.Bs[-1])][0]
        for dt in cfg.torch_dtypes:
            t0 = results[("torch", dt)][0]
            agreement[dt] = float(np.linalg.norm(t0 - ours0) / np.linalg.norm(ours0))
    final = results[("ours", cfg.Bs[-1])]
    loss = prob.field.loss_value(final, prob.args)
    return {
        "setting": {
            "n": cfg.n,
            "d": cfg.d,
            "neurons": 2 * cfg.m,
            "alpha": cfg.alpha,
            "lr": cfg.lr,
            "sigma0": cfg.sigma0,
            "steps_total": cfg.steps_total,
            "steps_timed": cfg.steps,
        },
        "flops_per_member_step": prob.step_work.flops,
        "bytes_per_member_step": prob.step_work.bytes,
        "rows": rows,
        "ratios": ratios,
        "same_precision": same_precision,
        "torch": torch_loops.info() if use_torch else None,
        "agreement_rel_diff": agreement,
        "final_loss_median": float(np.median(loss)),
        "scaling_vs_B": loglog_fit([r["B"] for r in ours_rows], [r["seconds"] for r in ours_rows]),
        "float32": _float32_row(prob, f32_timing, timings[("ours", B_max)], results, B_max),
        "chunking": _chunking_row(prob, B_max, min(cfg.steps, 50)),
        "breakdown": breakdown(prob, max(cfg.Bs), use_torch, log),
    }


def _float32_row(prob: KouProblem, tm32: Timing, tm64: Timing, results: dict, B: int) -> dict:
    """The float32 option at the largest B: speed-up over float64 (interleaved in the same
    run) and its error against the float64 result after the same steps (relative, per net)."""
    ref = results[("ours", B)]
    got = results[("ours float32", B)]
    rel = np.linalg.norm(got - ref, axis=1) / np.linalg.norm(ref, axis=1)
    loss64 = prob.field.loss_value(ref, prob.args)
    loss32 = prob.field.loss_value(got.astype(np.float64), prob.args)
    return {
        "B": B,
        "seconds": tm32.median,
        "seconds_float64": tm64.median,
        "speedup": tm64.median / tm32.median,
        "timing": tm32.to_dict(),
        "rel_error_W_max": float(rel.max()),
        "rel_error_W_median": float(np.median(rel)),
        "rel_error_loss_max": float(np.max(np.abs(loss32 - loss64) / np.abs(loss64))),
    }


def _chunking_row(prob: KouProblem, B: int, steps: int) -> dict:
    """``B`` nets in one batch vs in chunks of ``B / 4`` (a memory budget that forces them):
    peak memory of each (tracemalloc, untimed runs), wall time of each, same result."""
    N = prob.N
    budget = B * chunking.result_bytes(N, 1, False) + max(1, B // 4) * chunking.gd_work_bytes(
        N, prob.field_bytes
    )
    whole, peak_whole = chunking.measure_peak(lambda: prob.ours(B, steps))
    parts, peak_parts = chunking.measure_peak(lambda: prob.ours(B, steps, memory_budget=budget))
    t0 = time.perf_counter()
    prob.ours(B, steps)
    t1 = time.perf_counter()
    prob.ours(B, steps, memory_budget=budget)
    t2 = time.perf_counter()
    plan = chunking.plan_chunks(
        B, chunking.gd_work_bytes(N, prob.field_bytes), chunking.result_bytes(N, 1, False), budget
    )
    return {
        "B": B,
        "steps": steps,
        "chunk": plan.chunk,
        "budget_bytes": budget,
        "estimated_peak_bytes": plan.estimated_peak,
        "peak_bytes_whole": peak_whole,
        "peak_bytes_chunked": peak_parts,
        "seconds_whole": t1 - t0,
        "seconds_chunked": t2 - t1,
        "identical": bool(np.array_equal(whole, parts)),
    }


def breakdown(prob: KouProblem, B: int, use_torch: bool, log) -> dict:
    """Where one GD step goes: the coefficients ``S`` (forward matmul + elementwise) vs the
    fused update ``W += (lr S) X`` (ours; shares of their sum, next to the measured step),
    the unfused step ``y + lr * field`` for comparison, and forward / backward / optimizer
    phases of the PyTorch loop."""
    log(f"long GD breakdown (B={B})")
    y = np.ascontiguousarray(prob.y0[:B])
    t = np.zeros(B)
    lr = prob.cfg.lr
    f, args = prob.field, prob.args
    S = f.coefficients(y, args, lr).reshape(-1, prob.cfg.n)
    W = y.copy().reshape(-1, prob.cfg.d)
    steps = max(10, min(200, prob.cfg.steps))
    t_step = best_of(lambda: prob.ours(B, steps)) / steps
    t_coef = best_of(lambda: f.coefficients(y, args, lr))
    t_update = best_of(lambda: matmul_add(S, args["X"][0], W))
    dy = f(t, y, args)
    t_unfused = best_of(lambda: f(t, y, args)) + best_of(lambda: y + lr * dy)
    shapes = prob.matmul_shapes(B)
    flops = sum(2.0 * abs(b) * m * k * n for b, m, k, n in shapes)
    t_mm = flops / (matmul_rate(shapes) * 1e9)
    prof = profile(lambda: prob.ours(B, steps), track=("fixed_readout.py", "solve.py", "backend.py"))
    parts = t_coef + t_update
    out = {
        "B": B,
        "ours": {
            "step_s": t_step,
            "parts_s": parts,
            "coefficients_s": t_coef,
            "update_s": t_update,
            "matmuls_s": t_mm,
            "unfused_step_s": t_unfused,
            "share_coefficients": t_coef / parts,
            "share_update": t_update / parts,
            "share_matmul": t_mm / parts,
            "measured_over_parts": t_step / parts,
            "profile": prof,
        },
    }
    if use_torch:
        out["torch"] = {dt: torch_phases(prob, dt, steps) for dt in prob.cfg.torch_dtypes}
    return out


def torch_phases(prob: KouProblem, dtype: str, steps: int) -> dict:
    """Seconds per step of the PyTorch loop and the shares of forward + loss, backward,
    and the optimizer (``zero_grad`` + ``step``)."""
    import torch  # only reached when torch_loops.available()

    F = torch.nn.functional
    dt = {"float32": torch.float32, "float64": torch.float64}[dtype]
    c = prob.cfg
    Xt, yt, at = (torch.tensor(v, dtype=dt) for v in (prob.X, prob.y, readout(prob.cfg.m)))
    W = torch.tensor(prob.W0[0], dtype=dt, requires_grad=True)
    opt = torch.optim.SGD([W], lr=c.lr)
    phases = {"forward": 0.0, "backward": 0.0, "optimizer": 0.0}
    for _ in range(steps):
        t0 = time.perf_counter()
        opt.zero_grad()
        t1 = time.perf_counter()
        loss = F.softplus(-yt * (F.leaky_relu(Xt @ W.T, c.alpha) @ at)).mean()
        t2 = time.perf_counter()
        loss.backward()
        t3 = time.perf_counter()
        opt.step()
        t4 = time.perf_counter()
        phases["forward"] += t2 - t1
        phases["backward"] += t3 - t2
        phases["optimizer"] += (t1 - t0) + (t4 - t3)
    total = sum(phases.values())
    return {"step_s": total / steps, **{f"share_{k}": v / total for k, v in phases.items()}}
