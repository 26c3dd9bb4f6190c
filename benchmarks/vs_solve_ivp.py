r"""Benchmark 1: ensemble gradient flow, the batched engine vs a ``solve_ivp`` loop, matched accuracy.

Problem: two-layer bias-free ReLU nets ``BiasFreeNet((d, m, 1), kink=0)``, square loss,
on *exactly symmetric* generic data (zhang2025 Condition 3: ``gaussian_teacher`` with
the negated pairs, P = n samples) from the balanced rank-one initialisation of
zhang2025 Assumption 7 (scale ``w_init``), integrated to time ``T``. In this regime the
flow crosses activation surfaces only transversally (it never slides), so an
error-controlled Runge-Kutta method behaves: its step count grows like
``rtol^(-1/5)``, not ``1/rtol`` (``shared/NOTES-numerics.md``). A generic Gaussian
initialisation on the same data makes some members slide and chatter, which measures
the chattering, not the solvers.

Alternatives, each timed in the same run and interleaved:

* **ours** -- :func:`numeric.engine.solve.solve` with ``cfg.method`` (``DOP853``, the same
  tableau and error blend as SciPy's) and per-member
  ``AdaptiveStep(rtol, atol=atol_ratio * rtol)`` on the batched
  :class:`~numeric.models.vector_fields.GradientFlow`, all ``B`` members at once; at the largest
  ``B`` also with ``cfg.compare_method`` (``DOPRI5``), so the report separates what the
  method buys from what batching buys;
* **solve_ivp loop** -- ``scipy.integrate.solve_ivp(method="DOP853")`` with the same
  tolerances, one member at a time on the lean 2-D field
  :class:`benchmarks.fields.SingleNetFlow`. It is timed on ``ivp_members`` members
  and scaled by ``B / ivp_members`` (members are independent, so the loop's time is
  the sum of theirs).

Accuracy is measured, never assumed: the reference is our DOPRI5 (a different method
from the timed one) at ``ref_rtol`` on the
first ``ref_members`` members (itself cross-checked against DOP853 at ``check_rtol``);
each run's error is the median over those members of ``|y(T) - y_ref(T)| / |y_ref(T)|``
(per-member step control makes a member's trajectory independent of B). Times are compared at equal
achieved error by log-log interpolation of each method's work-precision points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.integrate import solve_ivp

from benchmarks import work
from benchmarks.analysis import front_range, loglog_fit, matched_error_levels, time_at_error
from benchmarks.config import FlowConfig
from benchmarks.fields import SingleNetFlow
from benchmarks.hardware import matmul_rate
from benchmarks.profiling import profile
from benchmarks.timing import Probe, best_of, interleave
from numeric.backend import get_backend
from numeric.data.datasets import gaussian_teacher
from numeric.data.initializations import balanced_rank_one
from numeric.engine.integrators import DOPRI5, AdaptiveStep, ButcherTableau, method_by_name, rk_step
from numeric.engine.solve import FLOAT32_MIN_RTOL, solve
from numeric.engine.trajectory import Trajectory
from numeric.models.losses import SQUARE
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow

DOP853_STAGES = 12  # function evaluations per DOP853 step in scipy


@dataclass
class FlowProblem:
    """One size ``(n, d, m)``: data, field and the initial states of ``B_max`` members."""

    n: int
    d: int
    m: int
    B_max: int
    cfg: FlowConfig

    def __post_init__(self) -> None:
        cfg = self.cfg
        rng = np.random.default_rng([cfg.seed, self.n, self.d, self.m])
        ds = gaussian_teacher(rng, self.n // 2, self.d)
        self.X, self.y = ds.X, ds.y
        self.P = ds.P
        r = rng.normal(size=(self.B_max, self.d))
        W1, W2 = balanced_rank_one(rng, self.B_max, self.m, r, cfg.w_init)
        self.net = BiasFreeNet((self.d, self.m, 1), kink=0.0)
        self.flow = GradientFlow(self.net, SQUARE)
        self.args = self.flow.args(get_backend("numpy"), self.X, self.y, alpha=0.0)
        self.args32 = self.flow.args(get_backend("numpy", np.float32), self.X, self.y, alpha=0.0)
        self.y0 = self.net.pack([W1, W2])
        self.N = self.net.n_params
        self.single = SingleNetFlow(self.X, self.y)
        self.flops_eval = self.single.flops(self.m)
        self.method = method_by_name(cfg.method)

    def control(self, rtol: float) -> AdaptiveStep:
        return AdaptiveStep(rtol=rtol, atol=self.cfg.atol_ratio * rtol)

    def ours(
        self, B: int, rtol: float, dtype: str = "float64", method: ButcherTableau | None = None
    ) -> Trajectory:
        """The batched solve on the first ``B`` members with ``method`` (default ``cfg.method``;
        ``dtype="float32"``: the engine's float32 option)."""
        traj = solve(
            self.flow,
            self.y0[:B],
            [0.0, self.cfg.T],
            method=method or self.method,
            control=self.control(rtol),
            args=self.args32 if dtype == "float32" else self.args,
            save_state=False,
            max_steps=10**6,
            dtype=dtype,
        )
        if not traj.ok.all():
            raise RuntimeError(f"ours(B={B}, rtol={rtol:g}) failed:\n{traj.summary()}")
        return traj

    def ivp(self, k: int, rtol: float, method: str = "DOP853") -> tuple[np.ndarray, np.ndarray]:
        """``solve_ivp`` on the first ``k`` members, one at a time: final states and nfev."""
        return ivp_loop(self.single, self.cfg.T, self.y0[:k], method, rtol, self.cfg.atol_ratio * rtol)

    # -- counted work -----------------------------------------------------------------
    def work_ours(self, traj: Trajectory, method: ButcherTableau | None = None) -> work.Work:
        evals = float(traj.n_field_evals.sum())
        attempts = float((traj.n_steps + traj.n_rejected).sum())
        stages = (method or self.method).stages
        return work.field_work(self.flops_eval, self.N) * evals + work.Work(
            0.0, work.rk_combination_bytes(stages, self.N) * attempts
        )

    def work_ivp(self, nfev: np.ndarray) -> work.Work:
        evals = float(nfev.sum())
        steps = evals / DOP853_STAGES
        return work.field_work(self.flops_eval, self.N) * evals + work.Work(
            0.0, work.rk_combination_bytes(DOP853_STAGES, self.N) * steps
        )

    def matmul_shapes(self, B: int) -> list[tuple[int, int, int, int]]:
        """The field's stacked matmuls ``(B, M, K, N)``; negative B = shared right operand."""
        m, d, P = self.m, self.d, self.P
        return [(-B, m, d, P), (B, 1, m, P), (B, 1, P, m), (B, m, 1, P), (-B, m, P, d)]


def ivp_loop(
    single, T: float, y0: np.ndarray, method: str, rtol: float, atol: float
) -> tuple[np.ndarray, np.ndarray]:
    """The reference loop: ``solve_ivp`` on each member ``y0[i]`` over ``[0, T]``; final states and nfev."""
    finals, nfev = [], []
    for i, start in enumerate(y0):
        sol = solve_ivp(single, (0.0, T), start, method=method, rtol=rtol, atol=atol)
        if sol.status != 0:
            raise RuntimeError(f"solve_ivp failed on member {i}: {sol.message}")
        finals.append(sol.y[:, -1])
        nfev.append(sol.nfev)
    return np.array(finals), np.array(nfev)


def rel_errors(final: np.ndarray, ref: np.ndarray) -> np.ndarray:
    return np.linalg.norm(final - ref, axis=1) / np.linalg.norm(ref, axis=1)


def run_size(
    n: int, d: int, m: int, Bs: tuple[int, ...], cfg: FlowConfig, hw: dict, probe: Probe, log
) -> dict:
    """Every measurement of one size: reference, work-precision points, matched ratios."""
    prob = FlowProblem(n, d, m, max(Bs), cfg)
    n_ref = min(cfg.ref_members, prob.B_max)
    k = min(cfg.ivp_members, n_ref)
    log(f"flow ({n},{d},{m}): reference (DOPRI5, rtol {cfg.ref_rtol:g}) on {n_ref} members")
    ref = prob.ours(n_ref, cfg.ref_rtol, method=DOPRI5).y_stop
    kc = min(cfg.check_members, n_ref)
    check, _ = prob.ivp(kc, cfg.check_rtol)
    ref_check = float(np.max(rel_errors(check, ref[:kc])))
    field_diff = float(
        np.max(np.abs(prob.flow(np.zeros(1), prob.y0[:1], prob.args)[0] - prob.single(0.0, prob.y0[0])))
    )

    fns = {}
    for B in Bs:
        for rtol in cfg.rtols_ours:
            fns[("ours", B, rtol)] = lambda B=B, rtol=rtol: prob.ours(B, rtol)
    for rtol in cfg.rtols_ivp:
        fns[("ivp", k, rtol)] = lambda rtol=rtol: prob.ivp(k, rtol)
    B_max, rtol32 = max(Bs), FLOAT32_MIN_RTOL
    other = method_by_name(cfg.compare_method)
    for rtol in cfg.rtols_ours:
        fns[("ours other", B_max, rtol)] = lambda rtol=rtol: prob.ours(B_max, rtol, method=other)
    if rtol32 in cfg.rtols_ours:
        fns[("ours float32", B_max, rtol32)] = lambda: prob.ours(B_max, rtol32, "float32")
    # warm-up (caches, BLAS threads), not timed
    prob.ours(min(Bs), cfg.rtols_ours[0])
    prob.ivp(1, cfg.rtols_ivp[0])
    log(f"flow ({n},{d},{m}): {len(fns)} configurations x {cfg.repeats} interleaved repeats")
    timings, results = interleave(fns, cfg.repeats, probe)

    operand = {B: matmul_rate(prob.matmul_shapes(B)) for B in Bs}
    operand_ivp = matmul_rate([(1, mm, kk, nn) for _b, mm, kk, nn in prob.matmul_shapes(1)])
    peak, bw = hw["gemm_peak_gflops"], hw["copy_gbytes_per_s"]

    ivp_points = []
    for rtol in cfg.rtols_ivp:
        finals, nfev = results[("ivp", k, rtol)]
        tm = timings[("ivp", k, rtol)]
        err = rel_errors(finals, ref[:k])
        ivp_points.append(
            {
                "rtol": rtol,
                "seconds_per_member": tm.median / k,
                "error_median": float(np.median(err)),
                "error_max": float(err.max()),
                "nfev_mean": float(nfev.mean()),
                "timing": tm.to_dict(),
                "rates": work.rates(prob.work_ivp(nfev), tm.median, peak, operand_ivp, bw),
            }
        )

    def points_of(label: str, B: int, method: ButcherTableau) -> list[dict]:
        points = []
        for rtol in cfg.rtols_ours:
            traj = results[(label, B, rtol)]
            tm = timings[(label, B, rtol)]
            e = min(B, n_ref)
            err = rel_errors(traj.y_stop[:e], ref[:e])
            points.append(
                {
                    "rtol": rtol,
                    "seconds": tm.median,
                    "seconds_per_member": tm.median / B,
                    "error_median": float(np.median(err)),
                    "error_max": float(err.max()),
                    "steps_mean": float(traj.n_steps.mean()),
                    "rejected_mean": float(traj.n_rejected.mean()),
                    "evals_mean": float(traj.n_field_evals.mean()),
                    "timing": tm.to_dict(),
                    "rates": work.rates(prob.work_ours(traj, method), tm.median, peak, operand[B], bw),
                }
            )
        return points

    ours: dict[str, dict] = {}
    matched: dict[str, list] = {}
    for B in Bs:
        points = points_of("ours", B, prob.method)
        ours[str(B)] = {"points": points, "gemm_operand_gflops": operand[B]}
        matched[str(B)] = _matched(points, ivp_points, B)
    other_points = points_of("ours other", B_max, other)
    method_gain = {
        "B": B_max,
        "method": prob.method.name,
        "other": other.name,
        "points": other_points,
        # time of ours with the other method / time with cfg.method, at shared error levels
        "matched": _matched(ours[str(B_max)]["points"], other_points, B_max),
    }

    float32 = None
    if ("ours float32", B_max, rtol32) in results:
        got, ref64 = results[("ours float32", B_max, rtol32)], results[("ours", B_max, rtol32)]
        e = min(B_max, n_ref)
        float32 = {
            "B": B_max,
            "rtol": rtol32,
            "seconds": timings[("ours float32", B_max, rtol32)].median,
            "seconds_float64": timings[("ours", B_max, rtol32)].median,
            "error_median": float(np.median(rel_errors(got.y_stop[:e].astype(np.float64), ref[:e]))),
            "error_median_float64": float(np.median(rel_errors(ref64.y_stop[:e], ref[:e]))),
            "steps_mean": float(got.n_steps.mean()),
            "steps_mean_float64": float(ref64.n_steps.mean()),
        }
    return {
        "size": [n, d, m],
        "P": prob.P,
        "n_params": prob.N,
        "flops_per_eval": prob.flops_eval,
        "reference": {
            "rtol": cfg.ref_rtol,
            "members": n_ref,
            "check_rtol": cfg.check_rtol,
            "check_members": kc,
            "check_rel_diff": ref_check,
            "field_max_abs_diff": field_diff,
        },
        "ivp": {"members_timed": k, "points": ivp_points, "gemm_operand_gflops": operand_ivp},
        "method": prob.method.name,
        "ours": ours,
        "matched": matched,
        "method_gain": method_gain,
        "float32": float32,
    }


def _matched(points: list[dict], ivp_points: list[dict], B: int) -> list[dict]:
    """Times of both alternatives at shared error levels (one per decade), and their ratio;
    the second alternative's time for ``B`` members is ``B`` times its per-member time."""
    e_o = [p["error_median"] for p in points]
    e_i = [p["error_median"] for p in ivp_points]
    t_o = [p["seconds"] for p in points]
    t_i = [p["seconds_per_member"] * B for p in ivp_points]
    rows = []
    ranges = [front_range(e_o, t_o), front_range(e_i, t_i)]
    for level in matched_error_levels(ranges):
        a, b = time_at_error(e_o, t_o, level), time_at_error(e_i, t_i, level)
        rows.append({"error": level, "ours_s": a, "ivp_loop_s": b, "ratio": b / a})
    return rows


def breakdown(cfg: FlowConfig, size: tuple[int, int, int], B: int, timed: dict, log) -> dict:
    """Where the time of one batched solve goes, at ``scaling_rtol``.

    ``timed`` is the size's entry from :func:`run_size` (its measured wall times and
    step counts are reused). Adds a cProfile of one solve and direct micro-timings of
    one field evaluation, its matmuls alone, one RK step and one step decision (shares
    are of their sum, and the measured time per step is compared with that sum); the
    same for one member of the ``solve_ivp`` loop.
    """
    prob = FlowProblem(*size, B, cfg)
    rtol = cfg.scaling_rtol
    pt = _at_rtol(timed["ours"][str(B)]["points"], rtol)
    pi = _at_rtol(timed["ivp"]["points"], rtol)
    log(f"flow breakdown ({size}, B={B}, rtol {rtol:g})")
    prof = profile(lambda: prob.ours(B, rtol), track=("solve.py", "rk_step", "vector_fields.py", "adapt"))
    t = np.zeros(B)
    y = prob.y0
    f = prob.flow(t, y, prob.args)
    dt = np.full(B, 1e-3)
    ctl = prob.control(rtol)
    method = prob.method
    y1, err, _ = rk_step(prob.flow, method, t, y, dt, prob.args, f)
    state = ctl.init_state(t)
    shapes = prob.matmul_shapes(B)
    t_field = best_of(lambda: prob.flow(t, y, prob.args))
    t_matmul = _matmul_seconds(shapes)
    t_step = best_of(lambda: rk_step(prob.flow, method, t, y, dt, prob.args, f))
    t_adapt = best_of(lambda: ctl.adapt(method, y, y1, err, dt, dt, state))
    passes = pt["steps_mean"] + pt["rejected_mean"]  # full-batch step equivalents
    t_pass = pt["seconds"] / passes
    evals = method.stages - method.fsal  # field evaluations per step
    parts = t_step + t_adapt  # one RK step (fields + combinations) and one decision
    theta = prob.y0[0]
    nfev = pi["nfev_mean"]
    t_member = best_of(lambda: prob.ivp(1, rtol))
    t_grad = best_of(lambda: prob.single(0.0, theta))
    t_mm1 = _matmul_seconds([(1, mm, kk, nn) for _b, mm, kk, nn in shapes])
    prof_ivp = profile(lambda: prob.ivp(1, rtol), track=("fields.py",))
    return {
        "size": list(size),
        "B": B,
        "rtol": rtol,
        "ours": {
            "method": method.name,
            "evals_per_step": evals,
            "solve_s": pt["seconds"],
            "full_batch_passes": passes,
            "per_pass_s": t_pass,
            "parts_s": parts,
            "field_eval_s": t_field,
            "field_matmuls_s": t_matmul,
            "rk_step_s": t_step,
            "adapt_s": t_adapt,
            "share_field": evals * t_field / parts,
            "share_matmul": evals * t_matmul / parts,
            "share_rk_combinations": max(t_step - evals * t_field, 0.0) / parts,
            "share_step_control": t_adapt / parts,
            "measured_over_parts": t_pass / parts,
            "profile": prof,
        },
        "ivp": {
            "per_member_s": t_member,
            "nfev": nfev,
            "grad_eval_s": t_grad,
            "grad_matmuls_s": t_mm1,
            "share_grad": t_grad * nfev / t_member,
            "share_matmul": t_mm1 * nfev / t_member,
            "profile": prof_ivp,
        },
    }


def _matmul_seconds(shapes: list[tuple[int, int, int, int]]) -> float:
    flops = sum(2.0 * abs(b) * mm * kk * nn for b, mm, kk, nn in shapes)
    return flops / (matmul_rate(shapes) * 1e9)


def run(cfg: FlowConfig, hw: dict, probe: Probe, log=print) -> dict:
    """Benchmark 1 for every configured size, plus the scaling fits and the breakdowns."""
    sizes = [run_size(n, d, m, Bs, cfg, hw, probe, log) for (n, d, m), Bs in cfg.sizes.items()]
    scaling = {"rtol": cfg.scaling_rtol, "vs_B": [], "vs_size": {}}
    for s in sizes:
        xs, ts = [], []
        for B, entry in s["ours"].items():
            pt = _at_rtol(entry["points"], cfg.scaling_rtol)
            if pt is not None:
                xs.append(int(B))
                ts.append(pt["seconds"])
        scaling["vs_B"].append({"size": s["size"], "B": xs, "seconds": ts, "fit": loglog_fit(xs, ts)})
    ns, t_ours, t_ivp = [], [], []
    for s in sizes:
        entry = s["ours"].get(str(cfg.scaling_B))
        pt = _at_rtol(entry["points"], cfg.scaling_rtol) if entry else None
        pi = _at_rtol(s["ivp"]["points"], cfg.scaling_rtol)
        if pt is not None and pi is not None:
            ns.append(s["size"][0])
            t_ours.append(pt["seconds"])
            t_ivp.append(pi["seconds_per_member"] * cfg.scaling_B)
    scaling["vs_size"] = {
        "B": cfg.scaling_B,
        "n": ns,
        "ours_s": t_ours,
        "ivp_loop_s": t_ivp,
        "fit_ours": loglog_fit(ns, t_ours),
        "fit_ivp": loglog_fit(ns, t_ivp),
    }
    # where the time goes, at every size run with profile_B members (each target size)
    profiled = [
        (size, timed)
        for size, timed in zip(cfg.sizes, sizes, strict=True)
        if cfg.profile_B in cfg.sizes[size]
    ]
    return {
        "T": cfg.T,
        "w_init": cfg.w_init,
        "atol_ratio": cfg.atol_ratio,
        "sizes": sizes,
        "scaling": scaling,
        "breakdowns": [breakdown(cfg, size, cfg.profile_B, timed, log) for size, timed in profiled],
    }


def _at_rtol(points: list[dict], rtol: float) -> dict | None:
    for p in points:
        if np.isclose(p["rtol"], rtol):
            return p
    return None
