"""Distributed runs: a fixed set of quick claims on 1 and 2 local Dask workers, and one
``ctx.map`` sweep against the number of workers.

    python -m benchmarks.workers [--workers 1 2] [--seeds 16] [--out FILE.json]

* *Claims*: ten ``quick``-profile claims across the five papers (:data:`CLAIMS`), first
  in-process and serial (the plain ``verify run``), then through
  :func:`verify.distributed.run_claims` on N local workers.
* *Sweep*: kumar2025 Lemma 5 with ``seeds`` per-seed flow runs (``--set seeds=S``), which
  its body hands to ``ctx.map``: one claim, so every worker beyond the first can only help
  through the chunks of that sweep.

Every distributed wall time includes starting and stopping the local cluster (each worker
process imports the toolkit), because that is what ``verify run --workers N`` costs; the
claims' own time (the sum of the records' ``runtime_s``, or the sweep claim's) is shown
beside it. The serial reference runs with one BLAS thread, as each worker does, so the
ratios measure the processes, not BLAS threading. The records of every run are compared
with the serial ones (all but the volatile provenance): a speed-up that changed a
result would be no speed-up. Ratios are within this one run only.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from threadpoolctl import threadpool_limits

from numeric.backend import get_backend
from numeric.engine.allocator import keep_freed_memory
from verify import distributed, results
from verify.profiles import get_profile
from verify.records import Record
from verify.registry import all_claims
from verify.runner import run_claims

CLAIMS = (
    "zhang2025:figure-1",
    "zhang2025:figure-6",
    "min2024:figure-9",
    "min2024:lemma-1",
    "kou2023:lemma-A.1",
    "kou2023:remark-4.4",
    "kumar2025:figure-6",
    "kumar2025:theorem-7-relu",
    "dana2025:lemma-2",
    "dana2025:proposition-1",
)
SWEEP = "kumar2025:lemma-5"


def _timed(fn: Callable[[], list[Record]]) -> tuple[float, list[Record]]:
    started = time.perf_counter()
    records = fn()
    return time.perf_counter() - started, records


def _row(task: str, how: str, wall: float, records: list[Record], serial: list[Record]) -> dict[str, Any]:
    same = all(results.same_result(a, b) for a, b in zip(records, serial, strict=True))
    claim_s = sum(r.provenance.runtime_s for r in records)
    return {"task": task, "how": how, "wall_s": round(wall, 2), "claim_s": round(claim_s, 2), "same": same}


def measure(workers: Sequence[int], seeds: int) -> list[dict[str, Any]]:
    """Rows of (task, how it ran, wall time, claims' own time, same records as serial)."""
    claims = [all_claims()[i] for i in CLAIMS]
    sweep = [all_claims()[SWEEP]]
    run = {"backend": get_backend("numpy"), "profile": get_profile("quick"), "seed": 0}
    tasks = [
        (f"{len(claims)} quick claims", claims, {}),
        (f"{SWEEP} with seeds={seeds} (ctx.map)", sweep, {"seeds": seeds}),
    ]
    rows = []
    for task, chosen, overrides in tasks:
        with threadpool_limits(1):
            wall, serial = _timed(partial(run_claims, chosen, overrides=overrides, **run))
        rows.append(_row(task, "in-process, serial", wall, serial, serial))
        for n in workers:
            go = partial(distributed.run_claims, chosen, workers=n, overrides=overrides, **run)
            wall, records = _timed(go)
            rows.append(_row(task, f"{n} local worker{'s' if n > 1 else ''}", wall, records, serial))
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """A Markdown table; the ratio is the serial wall time over this row's, per task."""
    lines = [
        "| task | how | wall s | claims' own s | wall ratio vs serial | same records |",
        "|---|---|---:|---:|---:|---|",
    ]
    serial = {r["task"]: r["wall_s"] for r in rows if r["how"].startswith("in-process")}
    for r in rows:
        ratio = serial[r["task"]] / r["wall_s"]
        lines.append(
            f"| {r['task']} | {r['how']} | {r['wall_s']:.1f} | {r['claim_s']:.1f} | {ratio:.2f}x | "
            f"{'yes' if r['same'] else 'NO'} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.workers", description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="local worker counts to time")
    p.add_argument("--seeds", type=int, default=16, help="per-seed runs of the ctx.map sweep")
    p.add_argument("--out", type=Path, help="also write the rows as JSON to this file")
    args = p.parse_args(argv)
    if min(args.workers) < 1 or args.seeds < 1:
        p.error("--workers and --seeds must be >= 1")
    keep_freed_memory()  # as the verify entry point does
    rows = measure(args.workers, args.seeds)
    print(table(rows))
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
