"""``results.json``: one record per claim, versioned, merged across runs.

Running a subset of claims replaces only their records, so no result already
written is lost.  A file of another schema version is refused with a clear message.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from verify.errors import UserError

SCHEMA_VERSION = 1
RESULTS_FILE = "results.json"

RECORD_KEYS = ("id", "paper", "title", "verdict", "reason", "checks", "provenance")
CHECK_KEYS = ("name", "verdict", "measured", "expected", "tolerance")


def load(out_dir: Path) -> dict[str, dict[str, Any]]:
    """Stored records by claim id (empty when there is no results file yet)."""
    path = Path(out_dir) / RESULTS_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise UserError(f"{path} is not valid JSON ({e.msg} at line {e.lineno})") from None
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise UserError(
            f"{path} has schema version {version}, this relu-verify reads {SCHEMA_VERSION}; "
            "re-run 'verify run' to regenerate it"
        )
    return {r["id"]: r for r in data["claims"]}


def save(out_dir: Path, records: dict[str, dict[str, Any]], order: list[str]) -> Path:
    """Write all records atomically (write to a temporary file, then rename)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    ordered = [records[i] for i in order if i in records]
    ordered += [r for i, r in records.items() if i not in order]
    path = out_dir / RESULTS_FILE
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"schema_version": SCHEMA_VERSION, "claims": ordered}, indent=1))
    os.replace(tmp, path)
    return path


def validate_record(record: dict[str, Any]) -> list[str]:
    """Schema problems of one record (empty list when it conforms)."""
    problems = [f"missing key {k!r}" for k in RECORD_KEYS if k not in record]
    for i, c in enumerate(record.get("checks", [])):
        problems += [f"check {i} missing key {k!r}" for k in CHECK_KEYS if k not in c]
    for k in ("seed", "backend", "profile", "versions", "git_commit", "runtime_s"):
        if k not in record.get("provenance", {}):
            problems.append(f"provenance missing {k!r}")
    return problems
