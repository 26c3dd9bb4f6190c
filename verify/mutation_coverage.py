"""Which claims execute which lines of the mutation targets: one traced run per claim, cached.

A mutant at ``file:line`` can only change the verdict of a claim that executes that line, so
:mod:`verify.mutation` re-runs, for each mutant, the claims that *cover* its line instead of a
sample of the claims that merely import the module. The map ``file -> line -> claims`` comes
from running every claim once under :func:`sys.settrace`: the global tracer returns a local
(line) tracer only for frames whose code lives in a target file, so outside the targets the
cost is one Python call per function call and no line events.

Each claim's traced lines are cached under its :attr:`verify.claim.Claim.source_hash` (its
module and every project module it imports), the profile and the traced files: a claim is
traced again only when something it runs changed. Lines executed when a module is imported
(module and class bodies) are seen by no per-claim trace; :func:`covering` answers for them
with every claim whose import closure reaches the module.
"""

from __future__ import annotations

import functools
import gc
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from verify.files import CACHE_DIR, write_atomic

Tracer = Callable[[Any, str, Any], Any]
DEFAULT_CACHE = CACHE_DIR / "mutation"


def _tracer(files: set[str], hits: dict[str, set[int]]) -> Tracer:
    """A :func:`sys.settrace` function recording ``hits[file]`` = the lines run in ``files``."""

    def local(frame: Any, event: str, arg: Any) -> Tracer:
        if event == "line":
            hits[frame.f_code.co_filename].add(frame.f_lineno)
        return local

    def global_(frame: Any, event: str, arg: Any) -> Tracer | None:
        name = frame.f_code.co_filename
        if name not in files:
            return None
        hits[name].add(frame.f_lineno)
        return local

    return global_


def _clear_memos(packages: tuple[str, ...] = ("numeric", "symbolic", "verify")) -> None:
    """Empty every memo (``functools.cache`` / ``lru_cache``) of the project's functions, so that a
    claim that reads a memoised result executes -- and is traced on -- the lines that compute it,
    instead of reusing what an earlier claim of the same worker computed."""
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper):
            if getattr(obj, "__module__", "").partition(".")[0] in packages:
                obj.cache_clear()


def trace(claim_ids: list[str], files: list[str], profile: str, root: Path) -> dict[str, dict]:
    """Run each claim once with line tracing on ``files`` (paths relative to ``root``).

    Returns, by claim id, ``lines`` (file -> sorted executed lines), ``seconds`` (the traced
    run's wall time, used to prefer cheap claims) and ``verdict``."""
    from numeric.backend import get_backend
    from verify.profiles import get_profile
    from verify.registry import all_claims
    from verify.runner import run_claim

    claims = all_claims()
    absolute = {str(root / f): f for f in files}
    out = {}
    for cid in claim_ids:
        hits: dict[str, set[int]] = {f: set() for f in absolute}
        tracer = _tracer(set(absolute), hits)
        _clear_memos()
        t0 = time.perf_counter()
        sys.settrace(tracer)
        threading.settrace(tracer)
        try:
            r = run_claim(claims[cid], backend=get_backend("numpy"), profile=get_profile(profile), seed=0)
            verdict = str(r.verdict)
        except Exception as e:  # a claim that cannot run covers what it ran before failing
            verdict = f"CRASH {type(e).__name__}"
        finally:
            sys.settrace(None)
            threading.settrace(None)  # type: ignore[arg-type]
        lines = {absolute[f]: sorted(v) for f, v in hits.items() if v}
        out[cid] = {"lines": lines, "seconds": round(time.perf_counter() - t0, 3), "verdict": verdict}
    return out


def load(cache_dir: Path, name: str) -> dict[str, dict]:
    """The cache ``name`` (``coverage-<profile>``: traces by claim; ``outcomes-<profile>``: mutant
    outcomes by :func:`verify.mutation.outcome_key`), empty when absent."""
    f = cache_dir / f"{name}.json"
    return json.loads(f.read_text()) if f.is_file() else {}


def save(cache_dir: Path, name: str, entries: dict[str, dict]) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(cache_dir / f"{name}.json", json.dumps(entries, indent=0, sort_keys=True))


TRACE_VERSION = 2  # 2: memos cleared before each traced claim


def fresh(entry: dict | None, source_hash: str, files: list[str]) -> bool:
    """A cached trace still answers when the claim's code is unchanged, it traced ``files`` and it was
    made by this :data:`TRACE_VERSION` of the tracer."""
    return (
        bool(entry)
        and entry.get("version") == TRACE_VERSION
        and entry["source_hash"] == source_hash
        and set(files) <= set(entry["files"])
    )


def covering(
    entries: dict[str, dict], path: str, lines: range, at_import: bool, reaching: list[str]
) -> list[str]:
    """Claims that execute any of ``lines`` of ``path``, cheapest first. A site evaluated at
    import (``at_import``) is run by every claim that imports the module: ``reaching``."""
    if at_import:
        hit = list(reaching)
    else:
        want = set(lines)
        hit = [c for c in reaching if want & set(entries.get(c, {}).get("lines", {}).get(path, ()))]
    return sorted(hit, key=lambda c: (entries.get(c, {}).get("seconds", float("inf")), c))
