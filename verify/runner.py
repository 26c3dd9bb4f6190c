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
from verify.profiles import Profile
from verify.provenance import PeakMemory, git_commit, machine, versions
from verify.verdict import Verdict, control_outcomes, decide, outside_regime


def run_claim(
    claim: Claim,
    *,
    backend: Backend,
    profile: Profile,
    seed: int,
    overrides: dict[str, Any] | None = None,
) -> dict[str, Any]:
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
        erratum=claim.erratum is not None,
        crashed=bool(error),
        controls=ctx.controls,
        regimes=ctx.regimes,
        scale=ctx.scale,
    )
    if error:
        reason = f"{reason}: {error.strip().splitlines()[-1]}"
    return {
        "id": claim.id,
        "paper": claim.paper,
        "title": claim.title,
        "source": claim.source,
        "statement": claim.statement,
        "hypotheses": _hypotheses(claim, ctx.regimes),
        "erratum": None if claim.erratum is None else vars(claim.erratum),
        "verdict": str(verdict),
        "reason": reason,
        "checks": ctx.checks,
        "controls": control_outcomes(ctx.checks, ctx.controls),
        "regime": _regime(ctx.regimes),
        "scale": ctx.scale or None,
        "figures": ctx.figures,
        "notes": ctx.notes,
        "params": ctx.params,
        "traceback": error,
        "provenance": {
            "seed": seed,
            "backend": backend.name,
            "dtype": np.dtype(backend.dtype).name,
            "profile": profile.name,
            "overrides": dict(overrides or {}),
            "versions": versions(),
            "git_commit": git_commit(),
            "machine": machine(),
            "source_hash": claim.source_hash,
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "runtime_s": round(runtime, 3),
            "peak_memory_mib": memory.mib,
        },
    }


def _hypotheses(claim: Claim, regimes: list[dict]) -> list[dict]:
    """The claim's hypotheses, each with whether this run reached its regime (None: not measured)."""
    out = []
    for h in claim.hypotheses:
        seen = [r for r in regimes if r["name"] == h.name]
        reached = all(r["reached"] for r in seen) if seen else None
        out.append({**h.as_record(), "reached": reached, "measured": "; ".join(r["measured"] for r in seen)})
    return out


def _regime(regimes: list[dict]) -> dict:
    if not regimes:
        return {"reached": None, "reason": "no quantitative regime measured"}
    if not all(r["reached"] for r in regimes):
        return {"reached": False, "reason": f"not reached ({outside_regime(regimes)})"}
    return {"reached": True, "reason": "; ".join(f"{r['name']}: {r['measured']}" for r in regimes)}


def run_claims(
    claims: list[Claim],
    *,
    backend: Backend,
    profile: Profile,
    seed: int,
    overrides: dict[str, Any] | None = None,
    on_start: Callable[[Claim], None] | None = None,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
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


def exit_status(records: list[dict[str, Any]]) -> int:
    """0 iff no FAIL, XPASS or ERROR."""
    return 1 if any(Verdict(r["verdict"]).is_failure for r in records) else 0
