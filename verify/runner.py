"""Run claims, earn verdicts, keep provenance."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
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
) -> Record:
    """Run one claim and return its results record (never raises, except :class:`UserError`)."""
    ctx = Context(claim.id, backend, profile, seed, dict(overrides or {}), hypotheses=claim.hypotheses)
    started = time.perf_counter()
    error = ""
    with PeakMemory(backend.xp) as memory:
        try:
            claim.body(ctx)
        except UserError:
            raise
        except Exception:
            error = traceback.format_exc(limit=-6)
    runtime = time.perf_counter() - started
    verdict, reason = decide(
        ctx.checks,
        erratum=claim.erratum,
        crashed=bool(error),
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
        ),
    )


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
) -> list[Record]:
    """Run ``claims`` in order; ``on_done`` sees each record as soon as it exists.

    A :class:`UserError` raised by a claim (a user parameter it cannot accept) stops
    the run; records finished before it have already been handed to ``on_done``.
    """
    records = []
    for c in claims:
        if on_start:
            on_start(c)
        record = run_claim(c, backend=backend, profile=profile, seed=seed, overrides=overrides)
        records.append(record)
        if on_done:
            on_done(record)
    return records


def exit_status(records: list[Record]) -> int:
    """0 iff no FAIL, XPASS or ERROR."""
    return 1 if any(r.verdict.is_failure for r in records) else 0
