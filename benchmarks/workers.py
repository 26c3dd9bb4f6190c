"""Benchmark 6 (issue 15): claims on 1..N local Dask workers against the serial in-process run.

    python -m benchmarks --only workers            # quick: ten quick claims, one 16-seed sweep
    python -m benchmarks --only workers --profile full   # the whole full profile (days on 2 cores)

* *Claims*: the configured claims (:class:`benchmarks.config.WorkersConfig`; ``quick``: ten
  ``quick``-profile claims across the five papers; ``full``: every claim at ``full``), first
  in-process and serial (the plain ``verify run``), then through
  :func:`verify.distributed.run_claims` on N local workers.
* *Sweep*: one claim (kumar2025 Lemma 5) with ``seeds`` per-seed flow runs (``--set seeds=S``),
  which its body hands to ``ctx.map``: one claim, so every worker beyond the first can only help
  through the chunks of that sweep (time vs number of workers for one large sweep).

Every distributed wall time includes starting and stopping the local cluster (each worker
process imports the toolkit), because that is what ``verify run --workers N`` costs; the
claims' own time (the sum of the records' ``runtime_s``) is shown beside it. The serial
reference runs with one BLAS thread, as each worker does, so the ratios measure the
processes, not BLAS threading. The records of every run are compared with the serial ones
(all but the volatile provenance): a speed-up that changed a result would be no speed-up.
Ratios are within this one run only; on a machine with fewer idle cores than workers they
measure the contention, not the method.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from threadpoolctl import threadpool_limits

from benchmarks.config import WorkersConfig
from numeric.backend import get_backend
from verify import distributed, results
from verify.profiles import get_profile
from verify.records import Record
from verify.registry import all_claims
from verify.runner import run_claims


def _timed(fn: Callable[[], list[Record]]) -> tuple[float, list[Record]]:
    started = time.perf_counter()
    records = fn()
    return time.perf_counter() - started, records


def _row(task: str, how: str, wall: float, records: list[Record], serial: list[Record]) -> dict[str, Any]:
    by_id = {r.id: r for r in serial}  # distributed records stream back in completion order
    same = len(records) == len(serial) and all(results.same_result(r, by_id[r.id]) for r in records)
    claim_s = sum(r.provenance.runtime_s for r in records)
    return {"task": task, "how": how, "wall_s": round(wall, 2), "claim_s": round(claim_s, 2), "same": same}


def run(cfg: WorkersConfig, log: Callable[[str], None] = print) -> dict[str, Any]:
    """Rows of (task, how it ran, wall time, claims' own time, same records as serial)."""
    registry = all_claims()
    ids = list(registry) if cfg.claims is None else list(cfg.claims)
    run_args = {"backend": get_backend("numpy"), "profile": get_profile(cfg.claim_profile), "seed": 0}
    tasks = [
        (f"{len(ids)} {cfg.claim_profile} claims", [registry[i] for i in ids], {}),
        (f"{cfg.sweep} with seeds={cfg.seeds} (ctx.map)", [registry[cfg.sweep]], {"seeds": cfg.seeds}),
    ]
    rows = []
    for task, chosen, overrides in tasks:
        log(f"workers: {task}, serial")
        with threadpool_limits(1):
            wall, serial = _timed(partial(run_claims, chosen, overrides=overrides, **run_args))
        rows.append(_row(task, "in-process, serial", wall, serial, serial))
        for n in cfg.workers:
            log(f"workers: {task}, {n} local worker(s)")
            go = partial(distributed.run_claims, chosen, workers=n, overrides=overrides, **run_args)
            wall, records = _timed(go)
            rows.append(_row(task, f"{n} local worker{'s' if n > 1 else ''}", wall, records, serial))
    return {"claim_profile": cfg.claim_profile, "rows": rows}
