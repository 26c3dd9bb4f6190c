"""``results.json``: one record per claim, versioned, merged across runs, strict JSON.

Running a subset of claims replaces only their records, so no result already written
is lost.  The file's structure is published as a JSON Schema,
``verify/schema/results.schema.json``, which the tests check every produced file against.

Strict JSON: non-finite floats are stored as the strings ``"nan"``, ``"inf"`` and
``"-inf"`` (never the bare ``NaN`` / ``Infinity`` tokens that ``JSON.parse`` rejects) and
read back as floats, so those three exact strings are reserved for that meaning.  Files
written by older versions, with bare tokens, are still read.

A file that cannot be read (invalid JSON, another schema version, a wrong structure) is
refused with a one-line :class:`UserError` that names the way forward: ``verify run
--fresh`` moves it aside to ``results.json.broken-<UTC time>`` (never deletes it) and
starts a new one.

Each record is a :class:`verify.records.Record` (its JSON form and the checks of a file's
structure are there). A re-run that changes nothing writes nothing: :func:`merge` keeps the
stored record when the new one differs only in :attr:`Provenance.VOLATILE
<verify.records.Provenance.VOLATILE>`, and :func:`save` leaves the file
alone when its content would not change. :func:`store` adds records under an exclusive lock
on the directory, re-reading the file first, so two runs writing one directory at once (two
lanes of a long run) keep each other's records.
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from verify.errors import UserError
from verify.files import write_atomic
from verify.records import Provenance, Record, RecordError, encode

SCHEMA_VERSION = 1
RESULTS_FILE = "results.json"
SCHEMA_FILE = Path(__file__).resolve().parent / "schema" / "results.schema.json"

FRESH_HINT = "'verify run --fresh' moves it aside and starts a new one"


# -- strict JSON --------------------------------------------------------------------------------
def dumps(data: Any, indent: int | None = 1) -> str:
    """Strict JSON text of ``data`` (raises ``ValueError`` on anything :func:`encode` missed)."""
    return json.dumps(encode(data), indent=indent, allow_nan=False)


def canonical(x: Any) -> str:
    """A comparable text of ``x``: strict JSON with sorted keys (NaN equals NaN here)."""
    return json.dumps(encode(x), sort_keys=True, allow_nan=False)


# -- reading --------------------------------------------------------------------------------------
def load(out_dir: Path) -> dict[str, Record]:
    """Stored records of ``out_dir/results.json`` by claim id (empty when there is no such file yet).

    Raises :class:`UserError` (one line, naming ``--fresh``) for a file that cannot be read.
    """
    path = Path(out_dir) / RESULTS_FILE
    return read(path) if path.exists() else {}


def read(path: Path) -> dict[str, Record]:
    """Records of the results file ``path`` by claim id; :class:`UserError` if it cannot be read."""
    try:
        data = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        raise UserError(f"{path} is not valid JSON ({e.msg} at line {e.lineno}); {FRESH_HINT}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{path} cannot be read ({e}); {FRESH_HINT}") from None
    records, problems = parse(data)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UserError(f"{path} is not a relu-verify results file: {problems[0]}{more}; {FRESH_HINT}")
    return {r.id: r for r in records}


def parse(data: Any) -> tuple[list[Record], list[str]]:
    """The records of ``data`` (parsed JSON of a results file), and why it is not one this version
    reads (empty when it is)."""
    if not isinstance(data, dict):
        return [], [f"the top level is a JSON {type(data).__name__}, not an object"]
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        return [], [f"schema version {version}, this relu-verify reads {SCHEMA_VERSION}"]
    claims = data.get("claims")
    if not isinstance(claims, list):
        return [], ["'claims' is missing or not a list"]
    records, problems = [], []
    for i, r in enumerate(claims):
        try:
            records.append(Record.from_json(r))
        except RecordError as e:
            name = f" ({r.get('id', '?')})" if isinstance(r, dict) else ""
            problems += [f"claims[{i}]{name}: {p}" for p in e.problems]
    return records, problems


# -- writing --------------------------------------------------------------------------------------
def save(out_dir: Path, records: dict[str, Record], order: list[str]) -> Path:
    """Write all records atomically (a temporary file, then rename); unchanged content is not rewritten."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    ordered = [records[i] for i in order if i in records]
    ordered += [r for i, r in records.items() if i not in order]
    path = out_dir / RESULTS_FILE
    text = _document(ordered)
    if not (path.exists() and path.read_text() == text):
        write_atomic(path, text)
    return path


def _document(records: Iterable[Record]) -> str:
    """The text of a results file holding ``records`` (in that order)."""
    return dumps({"schema_version": SCHEMA_VERSION, "claims": [r.to_json() for r in records]})


@contextmanager
def _locked(out_dir: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``out_dir`` (``flock`` of its ``.lock`` file) for the block."""
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    with open(Path(out_dir) / ".lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_stored: dict[Path, tuple[tuple[int, int, int], dict[str, Record]]] = {}
"""Per results file, its (mtime, size, inode) when this process last wrote it, and its records then."""


def _file_key(path: Path) -> tuple[int, int, int] | None:
    """What changes whenever anyone writes ``path`` (every write is a rename onto it: a new inode)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def store(out_dir: Path, records: Iterable[Record], order: list[str]) -> dict[str, Record]:
    """Add ``records`` to ``out_dir/results.json`` (each :func:`merge`-d with the stored one) and
    return all stored records. Under the directory's lock the file is read again first, so records
    another run stored meanwhile are kept (unless it is still as this process last wrote it: reading
    the 5 MB quick file costs 0.14 s per claim). If it cannot be read then (another run, perhaps of a
    newer relu-verify, wrote what this one cannot read), the new records go to a file of their own
    beside it, ``results.json.unstored-<UTC time>`` (a results file of its own), and the
    :class:`UserError` says where: a finished claim is never lost."""
    records = list(records)
    path = Path(out_dir) / RESULTS_FILE
    with _locked(out_dir):
        key, mine = _stored.get(path, (None, {}))
        try:
            stored = dict(mine) if key is not None and key == _file_key(path) else load(out_dir)
        except UserError as e:  # e.g. written meanwhile by a newer relu-verify: keep the new records aside
            aside = _beside(out_dir, "unstored")
            write_atomic(aside, _document(records))
            raise UserError(f"{e} -- this run's new records are kept in {aside}") from None
        for r in records:
            stored[r.id] = merge(r, stored.get(r.id))
        save(out_dir, stored, order)
        _stored[path] = (_file_key(path), dict(stored))
    return stored


def same_result(new: Record, old: Record | None) -> bool:
    """Whether two records differ at most in the volatile provenance (:attr:`Provenance.VOLATILE`)."""
    if old is None:
        return False

    def steady(r: Record) -> str:
        settled = replace(r.provenance, **{k: None for k in Provenance.VOLATILE})
        return canonical(replace(r, provenance=settled).to_json())

    return steady(new) == steady(old)


def merge(new: Record, old: Record | None) -> Record:
    """The record to store: ``old`` as it is when ``new`` changes nothing but volatile provenance."""
    return old if old is not None and same_result(new, old) else new


def is_fresh(
    record: Record | None,
    *,
    source_hash: str,
    profile: str,
    seed: int,
    overrides: dict[str, Any],
    backend: str,
    time_limit: float | None = None,
) -> bool:
    """Whether a stored record was produced by this claim code under these run settings (``--resume``).

    A claim stopped unfinished at a time limit is fresh only for a run whose limit is no longer
    (it would stop again); a longer limit, or none, runs it again."""
    if record is None:
        return False
    p = record.provenance
    if p.stopped_at_s is not None and (time_limit is None or time_limit > p.stopped_at_s):
        return False
    return (
        p.source_hash == source_hash
        and p.profile == profile
        and p.seed == seed
        and p.backend == backend
        and canonical(p.overrides) == canonical(overrides)
    )


def ensure_writable(out_dir: Path, option: str = "--out") -> None:
    """Create ``out_dir`` if needed and prove a file can be written there; :class:`UserError` if not."""
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"{option} {out_dir} exists and is not a directory")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out_dir):
            pass
    except OSError as e:
        raise UserError(f"{option} {out_dir} is not a writable directory ({e.strerror or e})") from None


def move_aside(out_dir: Path, tag: str) -> Path | None:
    """Rename ``results.json`` to ``results.json.<tag>-<UTC time>`` (never deleted); its new path."""
    path = Path(out_dir) / RESULTS_FILE
    if not path.exists():
        return None
    target = _beside(out_dir, tag)
    os.replace(path, target)
    return target


def _beside(out_dir: Path, tag: str) -> Path:
    """A path ``results.json.<tag>-<UTC time>[-k]`` in ``out_dir`` that no file has yet."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = Path(out_dir) / f"{RESULTS_FILE}.{tag}-{stamp}"
    k = 1
    while target.exists():
        k += 1
        target = target.with_name(f"{RESULTS_FILE}.{tag}-{stamp}-{k}")
    return target
