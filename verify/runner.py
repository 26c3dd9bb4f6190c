"""Run claims, earn verdicts, keep provenance."""

from __future__ import annotations

import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import numpy as np

from numeric.backend import Backend
from verify.claim import Claim
from verify.context import Context
from verify.errors import UserError
from verify.hypotheses import Hypothesis
from verify.profiles import Profile
from verify.provenance import PeakMemory, git_commit, machine, versions
from verify.records import HypothesisRecord, Provenance, Record, Regime
from verify.verdict import control_outcomes, decide, outside_regime, unmeasured


def run_claim(
    claim: Claim,
    *,
    backend: Backend,
    profile: Profile,
    seed: int,
    overrides: dict[str, Any] | None = None,
    time_limit: float | None = None,
) -> Record:
    """Run one claim and return its results record (never raises, except :class:`UserError`).

    ``time_limit`` (s, wall clock): a claim still running then is stopped and recorded unfinished
    (INCONCLUSIVE, ``provenance.stopped_at_s``), so a run at a profile some claims cannot afford
    on this machine ends, with what each claim costs at least."""
    ctx = Context(claim.id, backend, profile, seed, dict(overrides or {}), hypotheses=claim.hypotheses)
    started = time.perf_counter()
    error, stopped = "", False
    with PeakMemory(backend.xp) as memory:
        try:
            with _time_limit(time_limit):
                claim.body(ctx)
        except UserError:
            raise
        except TimeLimitReached:
            stopped = True
        except Exception:
            error = traceback.format_exc(limit=-6)
    runtime = time.perf_counter() - started
    stopped_at = time_limit if stopped else None
    verdict, reason = decide(
        ctx.checks,
        erratum=claim.erratum,
        crashed=bool(error),
        stopped_at=stopped_at,
        controls=ctx.controls,
        regimes=ctx.regimes,
        hypotheses=claim.hypotheses,
        scale=ctx.scale,
    )
    if error:
        reason = f"{reason}: {error.strip().splitlines()[-1]}"
    return Record(
        id=claim.id,
        paper=claim.paper,
        title=claim.title,
        source=claim.source,
        statement=claim.statement,
        hypotheses=_hypotheses(claim, ctx.regimes),
        erratum=claim.erratum,
        verdict=verdict,
        reason=reason,
        checks=tuple(ctx.checks),
        controls=tuple(control_outcomes(ctx.checks, ctx.controls)),
        regime=_regime(claim.hypotheses, ctx.regimes),
        scale=ctx.scale,
        figures=tuple(ctx.figures),
        notes=tuple(ctx.notes),
        params=ctx.params,
        traceback=error,
        provenance=Provenance(
            seed=seed,
            backend=backend.name,
            dtype=np.dtype(backend.dtype).name,
            profile=profile.name,
            overrides=dict(overrides or {}),
            versions=dict(versions()),
            git_commit=git_commit(),
            machine=machine(),
            source_hash=claim.source_hash,
            finished=datetime.now(UTC).isoformat(timespec="seconds"),
            runtime_s=round(runtime, 3),
            peak_memory_mib=memory.mib,
            stopped_at_s=stopped_at,
        ),
    )


class TimeLimitReached(BaseException):
    """Raised inside a claim when the run's time limit passes (a ``BaseException``, so that a
    claim's own ``except Exception`` cannot swallow it)."""


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitReached` in the block after ``seconds`` of wall clock (``SIGALRM``;
    the main thread only: a worker thread's claims run without a limit, see ``check_time_limit``)."""
    if seconds is None:
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise TimeLimitReached

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_time_limit(seconds: float | None) -> None:
    """Reject a time limit that cannot work, before anything runs (:class:`UserError`)."""
    if seconds is None:
        return
    if not seconds > 0:
        raise UserError(f"--time-limit must be > 0 seconds, got {seconds:g}")
    if threading.current_thread() is not threading.main_thread():
        raise UserError("--time-limit needs the main thread (an in-process run)")


def _hypotheses(claim: Claim, regimes: list[HypothesisRecord]) -> tuple[HypothesisRecord, ...]:
    """The claim's hypotheses, each with whether this run reached its regime (None: not measured)."""
    out = []
    for h in claim.hypotheses:
        seen = [r for r in regimes if r.name == h.name]
        reached = all(r.reached for r in seen) if seen else None
        out.append(h.reading(reached, "; ".join(r.measured for r in seen)))
    return tuple(out)


def _regime(hypotheses: tuple[Hypothesis, ...], regimes: list[HypothesisRecord]) -> Regime:
    """The run's regime summary, one of four states (:attr:`verify.records.Regime.state`): not
    reached (some reading outside), not measured (a hypothesis with a ``test`` never recorded),
    reached (every quantitative hypothesis recorded inside), or structural hypotheses only."""
    missing = unmeasured(hypotheses, regimes)
    readings = "; ".join(f"{r.name}: {r.measured}" for r in regimes)
    if not all(r.reached for r in regimes):
        also = f"; {Regime.NOT_MEASURED}: {', '.join(missing)}" if missing else ""
        return Regime(False, f"not reached ({outside_regime(regimes)}){also}")
    if missing:
        return Regime(
            None,
            f"{Regime.NOT_MEASURED}: {', '.join(missing)}" + (f" (reached: {readings})" if readings else ""),
        )
    if regimes:
        return Regime(True, readings)
    names = ", ".join(h.name for h in hypotheses)
    return Regime(
        None,
        f"{Regime.STRUCTURAL} " + (f"(structural hypotheses only: {names})" if names else "(none declared)"),
    )


def run_claims(
    claims: list[Claim],
    *,
    backend: Backend,
    profile: Profile,
    seed: int,
    overrides: dict[str, Any] | None = None,
    on_start: Callable[[Claim], None] | None = None,
    on_done: Callable[[Record], None] | None = None,
    time_limit: float | None = None,
) -> list[Record]:
    """Run ``claims`` in order; ``on_done`` sees each record as soon as it exists; ``time_limit``
    per claim (:func:`run_claim`).

    A :class:`UserError` raised by a claim (a user parameter it cannot accept) stops
    the run; records finished before it have already been handed to ``on_done``.
    """
    records = []
    for c in claims:
        if on_start:
            on_start(c)
        record = run_claim(
            c, backend=backend, profile=profile, seed=seed, overrides=overrides, time_limit=time_limit
        )
        records.append(record)
        if on_done:
            on_done(record)
    return records


def exit_status(records: list[Record]) -> int:
    """0 iff no FAIL, XPASS or ERROR."""
    return 1 if any(r.verdict.is_failure for r in records) else 0
