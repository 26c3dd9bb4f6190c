"""Claims on a Dask cluster: worker processes on this machine, or an existing scheduler.

Only this module talks to Dask, and it imports Dask only when a distributed run is asked
for (``verify run --workers N`` or ``--scheduler ADDRESS``) or when :meth:`Context.map
<verify.context.Context.map>` runs inside a Dask worker. The default in-process run never
imports it.

*Claims are tasks.* Each claim runs in one worker process through
:func:`verify.runner.run_claim`, exactly as in-process, and its record comes back to the
client as soon as it is finished (``as_completed``), where the caller's ``on_done`` stores
it: ``results.json`` stays the single store, written by the client alone. Local workers
are single-threaded processes (``threads_per_worker=1``); Dask's nanny also starts them
with one BLAS thread each, so N workers use N cores.

*A killed worker loses no claim.* When a worker process dies mid-claim (killed, out of
memory), the scheduler hands its tasks to another worker (the nanny restarts the dead
one) and the claim runs again from the start. A claim whose worker died on each of the
scheduler's ``distributed.scheduler.allowed-failures`` + 1 tries (3 + 1 by default) is
stored as ERROR with that reason. Task ``retries`` are not used: a claim never raises
(:func:`run_claim` turns its exceptions into ERROR records), so a retry would only repeat
a deterministic failure of the code itself.

*Sweeps inside one claim* (:func:`map_items`): off a worker the items run inline; on a
worker they are cut into chunks submitted to the same cluster through
``worker_client()``, which secedes the claim's task from its worker's slot while it
waits, so a claim waiting on its chunks never holds a slot they need.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from typing import Any

import numpy as np

from numeric.backend import Backend, BackendUnavailable, Rng, get_backend
from verify.claim import Claim
from verify.context import Context
from verify.errors import UserError
from verify.profiles import Profile
from verify.records import Record
from verify.runner import run_claim

CONNECT_TIMEOUT_S = 10
CHUNKS_PER_THREAD = 4  # a sweep is cut into about this many chunks per worker thread
INSTALL_HINT = "distributed runs need Dask: pip install 'relu-verify[dask]'"


class WorkerLost(RuntimeError):
    """Every worker process that ran a claim died before it finished."""


def run_claims(
    claims: list[Claim],
    *,
    backend: Backend,
    profile: Profile,
    seed: int,
    overrides: dict[str, Any] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    threads: int | None = None,
    on_start: Callable[[Claim], None] | None = None,
    on_done: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Run ``claims`` as tasks on ``workers`` local processes or on the cluster at ``scheduler``.

    The signature of :func:`verify.runner.run_claims`, plus the cluster. ``on_done`` sees
    each record as soon as it is back (in order of completion); the returned list is in the
    order of ``claims``. ``on_start`` is never called: several claims run at once and the
    client is not told when a worker starts one. ``threads`` caps each worker's BLAS
    threads. A :class:`UserError` raised by a claim stops the run after the records
    already handed to ``on_done``, as in :func:`verify.runner.run_claims`.
    """
    check_options(workers, scheduler)
    import distributed

    run = {"profile": profile, "seed": seed, "overrides": dict(overrides or {})}
    dtype = np.dtype(backend.dtype).name
    records: dict[str, Record] = {}
    with _client(distributed, workers, scheduler) as client:
        futures = {
            client.submit(_claim_task, c, backend.name, dtype, threads, **run, pure=False): c for c in claims
        }
        for future in distributed.as_completed(futures):
            claim = futures[future]
            try:
                record = future.result()
            except distributed.KilledWorker as e:
                record = _lost(claim, str(e), backend=backend, **run)
            if isinstance(record, UserError):
                raise record
            records[claim.id] = record
            if on_done:
                on_done(record)
    return [records[c.id] for c in claims]


def _claim_task(
    claim: Claim,
    backend: str,
    dtype: str,
    threads: int | None,
    *,
    profile: Profile,
    seed: int,
    overrides: dict[str, Any],
) -> Record | UserError:
    """One claim on a worker: its record, or the :class:`UserError` it raised (returned, not raised)."""
    from threadpoolctl import threadpool_limits

    from numeric.engine.allocator import keep_freed_memory

    keep_freed_memory()  # as the verify entry point does (numeric/engine/allocator.py)
    try:
        be = get_backend(backend, dtype)
    except BackendUnavailable as e:
        return UserError(f"worker {_worker_name()}: {e}")
    with threadpool_limits(threads) if threads else nullcontext():
        try:
            return run_claim(claim, backend=be, profile=profile, seed=seed, overrides=overrides)
        except UserError as e:
            return e


def _lost(claim: Claim, error: str, **run: Any) -> Record:
    """The ERROR record of a claim whose every worker died (its body never finished anywhere)."""

    def body(ctx: Context) -> None:
        raise WorkerLost(f"the worker process running this claim died on every try ({error})")

    record = run_claim(replace(claim, body=body), **run)
    return replace(record, provenance=replace(record.provenance, source_hash=claim.source_hash))


# -- sweeps inside one claim ------------------------------------------------------------------------
def map_items(
    fn: Callable[[Any, Rng], Any], items: Sequence[Any], rngs: Sequence[Rng], *, chunk: int | None = None
) -> list[Any]:
    """``[fn(item, rng) for item, rng in zip(items, rngs)]``, in chunks on the cluster when on a worker.

    A chunk rebuilds each item's generator from its seed on the worker that runs it, so the
    results are those of the inline loop whatever the number of workers or the chunk size
    (``chunk`` items per task; default: about :data:`CHUNKS_PER_THREAD` chunks per worker thread).
    """
    if not _on_worker():
        return [fn(item, rng) for item, rng in zip(items, rngs, strict=True)]
    from distributed import worker_client

    jobs = [(item, rng.seed) for item, rng in zip(items, rngs, strict=True)]
    if not jobs:
        return []
    backend = rngs[0].backend
    dtype = np.dtype(backend.dtype).name
    with worker_client() as client:
        if chunk is None:
            chunk = math.ceil(len(jobs) / (CHUNKS_PER_THREAD * max(1, sum(client.nthreads().values()))))
        parts = [jobs[i : i + chunk] for i in range(0, len(jobs), chunk)]
        # Ahead of queued claims: the claim waiting on these chunks holds its memory until they finish.
        futures = [
            client.submit(_chunk_task, fn, part, backend.name, dtype, pure=False, priority=1)
            for part in parts
        ]
        done = client.gather(futures)
    return [out for part in done for out in part]


def _chunk_task(fn: Callable[[Any, Rng], Any], jobs: list[tuple[Any, int]], backend: str, dtype: str) -> list:
    be = get_backend(backend, dtype)
    return [fn(item, be.rng(seed)) for item, seed in jobs]


def _on_worker() -> bool:
    """Whether this code runs inside a Dask worker (never imports Dask to find out)."""
    if "distributed" not in sys.modules:
        return False
    from distributed import get_worker

    try:
        get_worker()
    except ValueError:
        return False
    return True


def _worker_name() -> str:
    from distributed import get_worker

    return str(get_worker().address)


# -- the cluster -----------------------------------------------------------------------------------
def check_options(workers: int | None, scheduler: str | None) -> None:
    """Reject ``--workers`` / ``--scheduler`` values that cannot work, before anything runs."""
    if workers is not None and scheduler is not None:
        raise UserError("--workers starts a local cluster and --scheduler uses an existing one: choose one")
    if workers is None and scheduler is None:
        raise UserError("a distributed run needs --workers N or --scheduler ADDRESS")
    if workers is not None and workers < 1:
        raise UserError(f"--workers must be >= 1, got {workers}")
    if scheduler is not None and not scheduler.strip():
        raise UserError("--scheduler needs an address, e.g. tcp://10.0.0.5:8786")
    if importlib.util.find_spec("distributed") is None:
        raise UserError(INSTALL_HINT)


@contextmanager
def _client(distributed: Any, workers: int | None, scheduler: str | None) -> Iterator[Any]:
    """A client of the cluster at ``scheduler``, or of a new local cluster of ``workers`` processes."""
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError, ValueError) as e:
            raise UserError(f"cannot reach the Dask scheduler at {scheduler!r} ({e})") from None
        with client:
            yield client
        return
    with (
        distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,  # a lost worker shows in its claim's record
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client
