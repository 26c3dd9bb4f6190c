r"""Benchmark 5: kinked gradient flows, with and without event location, vs a ``solve_ivp`` loop.

Problem (issue 18): two-layer bias-free ReLU nets ``BiasFreeNet((d, m, 1), kink=0)``, square
loss, from a small Gaussian initialisation (``W1 ~ N(0, w_init^2 / (m d))``, ``W2 ~ N(0, w_init^2 / m)``)
on

* **orthogonal data** (``x_i = c_i e_i``, ``c_i ~ U[0.5, 1.5]``, labels +-1, ``P = d``), to
  ``T``: neurons switch off on samples as they learn, so every member crosses many
  activation surfaces (transversally: on the dead side a pre-activation does not move);
* **Gaussian data** (``x_i ~ N(0, I/d)``, labels of a random teacher), to a short
  ``gaussian_T``: the flow reaches surfaces where both sides point into them (Filippov
  sliding), where an error-controlled RK method chatters.

Alternatives, each timed in the same run and interleaved, on the same members:

* **solve_ivp loop** -- ``scipy.integrate.solve_ivp(method="DOP853")`` one member at a time on
  :class:`benchmarks.fields.SingleNetFlow`, timed on ``ivp_members`` members and scaled by ``B / k``;
* **engine, no events** -- :func:`numeric.engine.solve.solve` with DOP853 on the batched
  :class:`~numeric.models.vector_fields.GradientFlow` (the error control finds every kink by trial
  and error); it is slow on these flows, so it is timed on ``plain_B`` members and scaled
  to ``B`` (a lower bound on its speed-up, since batching amortises better at larger B);
* **engine, events** -- the same with ``events=flow.switching`` (frozen activation
  pattern; steps proposed to end just past the predicted crossing and corrected there under an
  error estimate, or re-taken to the crossing located on the dense output,
  :mod:`numeric.engine.integrators.events`), with DOPRI5 and with DOP853, on all ``B`` members.

Accuracy is measured: the reference is the engine *without* events (DOP853) at ``ref_rtol``
on the first ``ref_members`` members, cross-checked by the event solve at the same rtol;
each run's error is the median over those members of ``|y(T) - y_ref(T)| / |y_ref(T)|``,
and times are compared at equal achieved error on each method's work-precision front
(:mod:`benchmarks.analysis`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks.analysis import front_range, loglog_fit, matched_error_levels, time_at_error
from benchmarks.config import KinkConfig
from benchmarks.fields import SingleNetFlow
from benchmarks.timing import Probe, interleave
from benchmarks.vs_solve_ivp import ivp_loop, rel_errors
from numeric.backend import get_backend
from numeric.data.datasets import orthogonal
from numeric.engine.integrators import DOP853, DOPRI5, AdaptiveStep, ButcherTableau
from numeric.engine.solve import solve
from numeric.engine.trajectory import Trajectory
from numeric.models.losses import SQUARE
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow

ALTERNATIVES = {
    "events dopri5": (DOPRI5, True),
    "events dop853": (DOP853, True),
    "no events dop853": (DOP853, False),
}


@dataclass
class KinkProblem:
    """One workload: data, field and the initial states of ``B_max`` members."""

    n: int
    d: int
    m: int
    B_max: int
    data: str  # "orthogonal" or "gaussian"
    T: float
    cfg: KinkConfig

    def __post_init__(self) -> None:
        rng = np.random.default_rng([self.cfg.seed, self.n, self.d, self.m, self.data == "gaussian"])
        if self.data == "orthogonal":
            ds = orthogonal(rng.uniform(0.5, 1.5, self.n), rng.choice([-1.0, 1.0], self.n), self.d)
            self.X, self.y = ds.X, ds.y
        else:
            self.X = rng.normal(size=(self.n, self.d)) / np.sqrt(self.d)
            self.y = np.sign(self.X @ rng.normal(size=self.d))
        w = self.cfg.w_init
        W1 = rng.normal(size=(self.B_max, self.m, self.d)) * w / np.sqrt(self.m * self.d)
        W2 = rng.normal(size=(self.B_max, 1, self.m)) * w / np.sqrt(self.m)
        self.net = BiasFreeNet((self.d, self.m, 1), kink=0.0)
        self.flow = GradientFlow(self.net, SQUARE)
        self.args = self.flow.args(get_backend("numpy"), self.X, self.y, alpha=0.0)
        self.y0 = self.net.pack([W1, W2])
        self.single = SingleNetFlow(self.X, self.y)

    def ours(self, B: int, rtol: float, method: ButcherTableau, events: bool) -> Trajectory:
        traj = solve(
            self.flow,
            self.y0[:B],
            [0.0, self.T],
            method=method,
            control=AdaptiveStep(rtol=rtol, atol=self.cfg.atol_ratio * rtol),
            args=self.args,
            save_state=False,
            max_steps=10**7,
            events=self.flow.switching if events else None,
        )
        if not traj.ok.all():
            raise RuntimeError(f"ours(B={B}, rtol={rtol:g}, {method.name}, events={events}) failed")
        return traj

    def ivp(self, k: int, rtol: float) -> tuple[np.ndarray, np.ndarray]:
        """``solve_ivp(DOP853)`` on the first ``k`` members, one at a time: final states and nfev."""
        return ivp_loop(self.single, self.T, self.y0[:k], "DOP853", rtol, self.cfg.atol_ratio * rtol)


def _counts(traj: Trajectory) -> dict:
    out = {
        "steps_mean": float(traj.n_steps.mean()),
        "rejected_mean": float(traj.n_rejected.mean()),
        "evals_mean": float(traj.n_field_evals.mean()),
    }
    if getattr(traj, "n_events", None) is not None:
        out["events_mean"] = float(traj.n_events.mean())
        out["sliding_mean"] = float(traj.n_sliding.mean())
    return out


def run_size(size: tuple[int, int, int], B: int, cfg: KinkConfig, probe: Probe, log) -> dict:
    """Orthogonal data at one size: reference, work-precision points, matched ratios."""
    n, d, m = size
    prob = KinkProblem(n, d, m, B, "orthogonal", cfg.T, cfg)
    n_ref = min(cfg.ref_members, B)
    k = min(cfg.ivp_members, n_ref)
    B_plain = min(cfg.plain_B, B)
    log(f"kinks ({n},{d},{m}) orthogonal: reference (DOP853, no events, rtol {cfg.ref_rtol:g}) on {n_ref}")
    ref = prob.ours(n_ref, cfg.ref_rtol, DOP853, False).y_stop
    ref_ev = prob.ours(n_ref, cfg.ref_rtol, DOP853, True).y_stop
    fns = {}
    for label, (method, events) in ALTERNATIVES.items():
        Bl = B_plain if not events else B
        for rtol in cfg.rtols_ours:
            fns[(label, rtol)] = lambda Bl=Bl, rtol=rtol, method=method, events=events: prob.ours(
                Bl, rtol, method, events
            )
    for rtol in cfg.rtols_ivp:
        fns[("ivp", rtol)] = lambda rtol=rtol: prob.ivp(k, rtol)
    prob.ours(min(B, 4), cfg.rtols_ours[0], DOP853, True)  # warm-up, not timed
    prob.ivp(1, cfg.rtols_ivp[0])
    log(f"kinks ({n},{d},{m}): {len(fns)} configurations x {cfg.repeats} interleaved repeats")
    timings, results = interleave(fns, cfg.repeats, probe)

    ivp_points = []
    for rtol in cfg.rtols_ivp:
        finals, nfev = results[("ivp", rtol)]
        err = rel_errors(finals, ref[:k])
        ivp_points.append(
            {
                "rtol": rtol,
                "seconds_per_member": timings[("ivp", rtol)].median / k,
                "error_median": float(np.median(err)),
                "nfev_mean": float(nfev.mean()),
            }
        )
    alternatives = {}
    for label, (_method, events) in ALTERNATIVES.items():
        Bl = B if events else B_plain
        points = []
        for rtol in cfg.rtols_ours:
            traj = results[(label, rtol)]
            e = min(Bl, n_ref)
            err = rel_errors(traj.y_stop[:e], ref[:e])
            tm = timings[(label, rtol)].median
            points.append(
                {
                    "rtol": rtol,
                    "seconds": tm,
                    "seconds_for_B": tm * B / Bl,
                    "error_median": float(np.median(err)),
                    **_counts(traj),
                }
            )
        alternatives[label] = {
            "members_timed": Bl,
            "points": points,
            "matched": _matched(points, ivp_points, B),
        }
    return {
        "size": [n, d, m],
        "data": "orthogonal",
        "B": B,
        "T": cfg.T,
        "reference": {
            "rtol": cfg.ref_rtol,
            "members": n_ref,
            "events_vs_no_events": float(np.max(rel_errors(ref_ev, ref))),
        },
        "ivp": {"members_timed": k, "points": ivp_points},
        "alternatives": alternatives,
    }


def _matched(points: list[dict], ivp_points: list[dict], B: int) -> list[dict]:
    """Loop time over engine time at shared error levels (one per decade) for ``B`` members.

    With events the engine's time hardly depends on rtol (each member's steps are bounded
    below by its events), so its work-precision front can shrink to one point (the most
    accurate run is also the fastest, within noise). The engine's time at a level is
    therefore the *cheapest run at least that accurate* (no interpolation: an upper bound on
    the time it needs, so the ratio is conservative); the loop's is interpolated on its front.
    Levels: decades from the engine's best error up to the loop's worst, inside the loop's front.
    """
    e_i = [p["error_median"] for p in ivp_points]
    t_i = [p["seconds_per_member"] * B for p in ivp_points]
    best = min(p["error_median"] for p in points)
    lo, hi = front_range(e_i, t_i)
    rows = []
    for level in matched_error_levels([(max(best, lo), hi)]):
        a = min(p["seconds_for_B"] for p in points if p["error_median"] <= level)
        b = time_at_error(e_i, t_i, level)
        rows.append({"error": level, "ours_s": a, "ivp_loop_s": b, "ratio": b / a})
    return rows


def run_gaussian(cfg: KinkConfig, log) -> dict:
    """Gaussian data (sliding): attempted steps per member against rtol.

    The engine with events integrates the sliding mode, to ``gaussian_T``; its error is
    measured against its own DOP853 run at ``ref_rtol`` (an independent reference would be a
    chattering solve of ~1/tol steps: the test suite checks that one converges to it). The
    engine without events chatters, so it is run only to the short ``gaussian_plain_T``:
    its attempts grow like ``1/rtol`` (fitted exponent ~1).
    """
    n, d, m = cfg.gaussian_size
    B = cfg.gaussian_B
    prob = KinkProblem(n, d, m, B, "gaussian", cfg.gaussian_T, cfg)
    log(f"kinks ({n},{d},{m}) Gaussian data, T = {cfg.gaussian_T:g}: events, steps vs rtol")
    ref = prob.ours(B, cfg.ref_rtol, DOP853, True)
    rows = {}
    for label, (method, _) in ((k, v) for k, v in ALTERNATIVES.items() if v[1]):
        pts = []
        for rtol in cfg.gaussian_rtols:
            traj = prob.ours(B, rtol, method, True)
            err = rel_errors(traj.y_stop, ref.y_stop)
            pts.append(
                {"rtol": rtol, "T": cfg.gaussian_T, "error_median": float(np.median(err)), **_counts(traj)}
            )
        rows[label] = {"points": pts, "attempts_vs_inverse_rtol": _attempts_fit(pts)}
    short = KinkProblem(n, d, m, B, "gaussian", cfg.gaussian_plain_T, cfg)
    log(f"kinks ({n},{d},{m}) Gaussian data, T = {cfg.gaussian_plain_T:g}: no events (chattering)")
    pts = []
    for rtol in cfg.gaussian_plain_rtols:
        traj = short.ours(B, rtol, DOP853, False)
        pts.append({"rtol": rtol, "T": cfg.gaussian_plain_T, "error_median": None, **_counts(traj)})
    rows["no events dop853"] = {"points": pts, "attempts_vs_inverse_rtol": _attempts_fit(pts)}
    return {
        "size": [n, d, m],
        "B": B,
        "reference": {"rtol": cfg.ref_rtol, "sliding_mean": float(ref.n_sliding.mean())},
        "alternatives": rows,
    }


def _attempts_fit(points: list[dict]) -> dict:
    return loglog_fit(
        [1.0 / p["rtol"] for p in points], [p["steps_mean"] + p["rejected_mean"] for p in points]
    )


def run(cfg: KinkConfig, probe: Probe, log=print) -> dict:
    """Benchmark 5 on every configured orthogonal size, then the Gaussian workload."""
    return {
        "w_init": cfg.w_init,
        "atol_ratio": cfg.atol_ratio,
        "sizes": [run_size(size, B, cfg, probe, log) for size, B in cfg.sizes.items()],
        "gaussian": run_gaussian(cfg, log) if cfg.gaussian_rtols else None,
    }
