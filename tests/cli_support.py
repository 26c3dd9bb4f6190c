"""Helpers of the ``verify`` CLI tests: directory snapshots, the one-line error contract, fake claims."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from numeric.backend import get_backend
from verify.claim import Claim
from verify.hypotheses import as_hypotheses
from verify.profiles import get_profile
from verify.records import Check, Outcome, Record
from verify.runner import run_claim


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> content)."""
    return {
        str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()
    }


def assert_one_line_error(code: int, err: str, status: int = 2) -> None:
    """Exit ``status`` with exactly one ``verify: ...`` line on stderr and no traceback."""
    assert code == status, err
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("verify: error: " if status == 2 else "verify: ")
    assert "Traceback" not in err


def fake_claim(body: Callable, claim_id: str = "fake2025:lemma-1", erratum=None) -> Claim:
    return Claim(claim_id, "fake", "nowhere", "x = y", as_hypotheses(["h"]), body, erratum)


def patch_claims(monkeypatch, claims: list[Claim]) -> None:
    """Make ``verify`` see exactly ``claims`` (selection and registry)."""
    import verify.cli as cli

    monkeypatch.setattr(cli, "select", lambda selectors: list(claims))
    monkeypatch.setattr(cli, "all_claims", lambda: {c.id: c for c in claims})


@cache
def _empty_record() -> Record:
    return run_claim(
        fake_claim(lambda ctx: None), backend=get_backend("numpy"), profile=get_profile("tiny"), seed=0
    )


def fake_record(**fields: Any) -> Record:
    """A record of a fake claim (that ran no check) with ``fields`` replaced."""
    return replace(_empty_record(), **fields)


def fake_check(name: str, measured: Any = 0.0, outcome: Outcome = Outcome.PASS, **fields: Any) -> Check:
    """A check named ``name`` that measured ``measured``, with any other ``fields`` given."""
    return replace(Check(name, "numeric", "", measured, 0.0, 0.0, "", outcome), **fields)
