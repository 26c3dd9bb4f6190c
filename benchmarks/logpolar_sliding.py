r"""min2024's balanced log-polar flow where neurons slide: the Filippov sliding mode vs live vs no events.

Benchmark 7, ``python -m benchmarks --only sliding``. Two workloads of
:class:`numeric.models.balanced_relu.LogPolarFlow` (DOPRI5, ``atol = rtol / 100``, B = 4 members):

* **gaussian** -- correlated, non-separated data: ``x_i ~ N(0, I_4)``, n = 8 alternating labels
  (:math:`\mu<0`), h = 8, reduced dynamics (:math:`\rho(0)=-10^4`), exponential loss, T = 5;
* **square-eps1** -- min2024:remark-4's large-initialisation control: family F (n = 4,
  :math:`\mu=1/2`, radii in [0.5, 1.5]), h = 8, :math:`\epsilon=1`, square loss, T = 10.

Each is solved (the sliding run first, in ``rtols`` order) with ``events=flow.switching``
(**sliding**: the sliding mode), with the same surfaces but no sliding mode (**live**: a sliding
entry runs on the field's own convention, so the error control chatters) and without events
(**plain**), against a reference: the sliding solve at rtol 1e-12 (the chattering solves
converge to it as their rtol shrinks, which checks it). Error: max over members of the largest
direction / relative log-norm difference at T.
The chattering solves are capped at :attr:`benchmarks.config.SlidingConfig.max_steps` (a capped
member's error is not finite). One row per (workload, mode, rtol): steps, rejected steps, wall and
error, and the wall over the sliding run's at its tightest rtol.

Measured (this machine, one core, at commit time): gaussian -- sliding 56-67 steps per member,
0.71 s, error 7.1e-8 at rtol 1e-6 (101-122 steps, 0.80 s, 8.8e-10 at 1e-8); live 12,270-62,879
steps, 99.6 s (125x), error 4.7e-4 at rtol 1e-4; plain 94x, 2.6e-4. square-eps1 -- sliding 41-46
steps, 0.35 s, 1.8e-6 at 1e-6 (77-98 steps, 0.46 s, 5.9e-9 at 1e-8); live up to 3,766 steps
(+2,897 rejected), 10.7 s (23x), 6.8e-6 at 1e-6; plain 15x, 1.7e-4.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np

from benchmarks.config import SlidingConfig
from numeric.backend import get_backend
from numeric.data.separated_data import family_f
from numeric.engine.integrators import DOPRI5, AdaptiveStep
from numeric.engine.solve import solve
from numeric.models.balanced_relu import LogPolarFlow, join, logpolar_state, split, unit

BE = get_backend("numpy")


def workload(name: str) -> tuple[LogPolarFlow, dict, np.ndarray, float]:
    """``(flow, args, y0, T)`` of the workload ``name`` (module docstring)."""
    rng = np.random.default_rng(0)
    B, h = 4, 8
    if name == "gaussian":
        X = rng.normal(size=(8, 4))
        y = np.where(np.arange(8) % 2 == 0, 1.0, -1.0)
        log_eps, kind, T = -1.0e4, "exponential", 5.0
    else:
        y = np.where(np.arange(4) % 2 == 0, 1.0, -1.0)
        X = family_f(float(np.arccos(np.sqrt(0.5))), y, rng.uniform(0.5, 1.5, 4))
        log_eps, kind, T = 0.0, "square", 10.0
    W0 = rng.normal(size=(B, h, X.shape[1])) / np.sqrt(X.shape[1])
    U, rho = split(logpolar_state(W0), h)
    args = LogPolarFlow.args(BE, X, y, s=rng.choice([-1.0, 1.0], (B, h)))
    return LogPolarFlow(kind), args, join(U, rho + log_eps), T


def measure(name: str, rtols: dict[str, tuple[float, ...]], max_steps: int) -> dict:
    """The reference solve and one row per (mode, rtol) of the workload ``name``."""
    flow, args, y0, T = workload(name)
    h = args["s"].shape[-1]
    modes = {
        "sliding": flow.switching,
        "live": dataclasses.replace(flow.switching, weight=None),
        "plain": None,
    }

    def run(mode: str, rtol: float) -> tuple[object, float]:
        start = time.perf_counter()
        tr = solve(
            flow,
            y0,
            [0.0, T],
            method=DOPRI5,
            control=AdaptiveStep(rtol=rtol, atol=1e-2 * rtol),
            args=args,
            events=modes[mode],
            max_steps=max_steps,
        )
        return tr, time.perf_counter() - start

    ref, _ = run("sliding", 1e-12)
    u_ref, rho_ref = split(ref.final, h)
    rows, base = [], None
    for mode, levels in rtols.items():
        for rtol in levels:
            tr, wall = run(mode, rtol)
            U, rho = split(tr.final, h)
            err = np.maximum(
                np.abs(unit(U) - unit(u_ref)).max(axis=(1, 2)),
                np.abs(rho - rho_ref).max(axis=1) / np.maximum(1.0, np.abs(rho_ref).max(axis=1)),
            )
            err = np.where(tr.ok, err, np.nan)
            base = wall if mode == "sliding" else base
            rows.append(
                {
                    "mode": mode,
                    "rtol": rtol,
                    "steps": tr.n_steps.tolist(),
                    "rejected": tr.n_rejected.tolist(),
                    "wall_s": wall,
                    "vs_sliding": wall / base,
                    "error": float(np.max(err)),
                }
            )
    return {"workload": name, "reference_steps": ref.n_steps.tolist(), "rows": rows}


def run(cfg: SlidingConfig, log: Callable[[str], None] = print) -> dict:
    """Both workloads under ``cfg``: ``{"workloads": [measure(...), ...]}``."""
    out = []
    for name, rtols in (("gaussian", cfg.gaussian), ("square-eps1", cfg.square)):
        log(f"sliding: {name}")
        out.append(measure(name, dict(rtols), cfg.max_steps))
    return {"max_steps": cfg.max_steps, "workloads": out}
