"""Distributed runs (``verify run --workers N`` / ``--scheduler``, :mod:`verify.distributed`).

A 2-worker local Dask cluster gives the records of the serial run (everything but the
volatile provenance: time, memory, machine); a sweep cut into chunks by ``ctx.map`` gives
the inline loop's values; a claim whose worker process is killed mid-claim is re-run, and
one whose worker dies on every try is stored as ERROR; the default run never imports Dask.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")

import cloudpickle
import dask
from distributed import Client, LocalCluster

from numeric.backend import Rng, get_backend
from verify import distributed, results
from verify.claim import Claim
from verify.context import Context
from verify.profiles import get_profile
from verify.records import Record
from verify.registry import all_claims
from verify.runner import run_claims

# Claims and sweep functions defined here travel to the workers by value, not by module name.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

TINY = get_profile("tiny")
MAP_CLAIM = "kumar2025:lemma-5"  # its per-seed runs go through ctx.map
ACROSS_PAPERS = ["zhang2025:theorem-1", MAP_CLAIM, "min2024:lemma-2", "kou2023:lemma-B.2", "dana2025:lemma-5"]


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes; a task is given up after its worker died twice."""
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 1}),
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c,
    ):
        yield c.scheduler_address


def _serial(claims: list[Claim], **run) -> dict[str, Record]:
    return {r.id: r for r in run_claims(claims, backend=get_backend("numpy"), profile=TINY, seed=0, **run)}


# What a record says and the run settings that produced it; left out: when, how long, how much
# memory, on which machine and commit (which differ between any two runs).
STEADY_PROVENANCE = ("seed", "backend", "dtype", "profile", "overrides", "versions", "source_hash")


def _fields(record: Record) -> dict:
    """A record's fields, with ``provenance.<key>`` for the steady provenance, as comparable JSON text."""
    data = record.to_json()
    p = data.pop("provenance")
    data.update({f"provenance.{k}": p[k] for k in STEADY_PROVENANCE})
    return {k: json.dumps(v, sort_keys=True) for k, v in data.items()}


def _steady_differences(new: dict[str, Record], old: dict[str, Record]) -> list[str]:
    """``claim id: field`` for every field that differs between two runs' records."""
    assert new.keys() == old.keys()
    out = []
    for i in new:
        a, b = _fields(new[i]), _fields(old[i])
        out += [f"{i}: {k}" for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k)]
    return out


def test_two_local_workers_give_the_serial_records(verify_main, tmp_path):
    claims = [all_claims()[i] for i in ACROSS_PAPERS]
    status, _, err = verify_main(
        "run", *ACROSS_PAPERS, "--profile", "tiny", "--workers", "2", "--out", tmp_path
    )
    stored = results.load(tmp_path)
    assert status in (0, 1), err
    assert list(stored) == [i for i in all_claims() if i in ACROSS_PAPERS]  # not the order they finished in
    assert _steady_differences(stored, _serial(claims)) == []


def test_a_sweep_cut_into_chunks_on_the_cluster_gives_the_inline_values(cluster):
    claim = all_claims()[MAP_CLAIM]
    run = {"overrides": {"seeds": 3}}  # three ctx.map items, one chunk each on 2 workers
    seen = []
    records = distributed.run_claims(
        [claim],
        backend=get_backend("numpy"),
        profile=TINY,
        seed=0,
        scheduler=cluster,
        on_done=seen.append,
        **run,
    )
    assert seen == records
    assert len([c for c in records[0].checks if "seed 2" in c.name]) == 2  # two orders per seed
    assert _steady_differences({claim.id: records[0]}, _serial([claim], **run)) == []


def _draw(item: int, rng: Rng) -> tuple[int, float]:
    return item, float(rng.host.normal())


def _sweep(chunk: int | None) -> list:
    ctx = Context("test2026:lemma-1", get_backend("numpy"), TINY, 0)
    return ctx.map(_draw, range(7), key="draw", chunk=chunk)


def test_map_values_depend_on_the_item_not_on_the_chunking(cluster):
    inline = _sweep(None)
    assert [i for i, _ in inline] == list(range(7))
    assert len({x for _, x in inline}) == 7  # a generator per item
    with Client(cluster) as client:
        for chunk in (None, 1, 3, 7):
            assert client.submit(_sweep, chunk, pure=False).result() == inline


def _claim(body) -> Claim:
    return Claim("test2026:lemma-1", "a test claim", "nowhere", "it runs to its end", (), body)


def _dies_once(ctx: Context) -> None:
    """Kills its own worker process the first time (leaving a marker), finishes the second."""
    marker = Path(ctx.overrides["marker"])
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        os.kill(os.getpid(), signal.SIGKILL)
    ctx.note(f"pid {os.getpid()}")
    ctx.holds("the body ran to its end", True, measured=True, expected=True, why="a test")


def _always_dies(ctx: Context) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_claim_whose_worker_is_killed_is_run_again(cluster, tmp_path):
    marker = tmp_path / "killed"
    (record,) = distributed.run_claims(
        [_claim(_dies_once)],
        backend=get_backend("numpy"),
        profile=TINY,
        seed=0,
        overrides={"marker": str(marker)},
        scheduler=cluster,
    )
    killed = int(marker.read_text())  # the first try wrote it and was killed ...
    (note,) = record.notes
    assert (
        note.startswith("pid ") and int(note.removeprefix("pid ")) != killed
    )  # ... another process finished
    assert [c.verdict for c in record.checks] == ["PASS"]


def test_a_claim_whose_worker_always_dies_is_stored_as_error(cluster):
    claim = _claim(_always_dies)
    (record,) = distributed.run_claims(
        [claim], backend=get_backend("numpy"), profile=TINY, seed=0, scheduler=cluster
    )
    assert record.verdict == "ERROR"
    assert "WorkerLost" in record.reason
    assert record.provenance.source_hash == claim.source_hash


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "0"], "--workers must be >= 1"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "choose one"),
    ],
)
def test_bad_cluster_options_are_one_line_errors(verify_main, tmp_path, args, message):
    status, _, err = verify_main("run", MAP_CLAIM, "--profile", "tiny", "--out", tmp_path, *args)
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / results.RESULTS_FILE).exists()


def test_the_default_run_never_imports_dask(tmp_path):
    code = (
        "import sys\n"
        "from verify.cli import main\n"
        f"sys.argv = ['verify', 'run', {MAP_CLAIM!r}, '--profile', 'tiny', '--out', {str(tmp_path)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip().splitlines()[-1] == "[]", proc.stderr
    assert MAP_CLAIM in results.load(tmp_path)
