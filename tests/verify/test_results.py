"""results.json: schema of the records a run writes, versioning, merging; the runner's records."""

from __future__ import annotations

import json
import math
import multiprocessing
from dataclasses import replace

import pytest
from conftest import TINY_CLAIM

from numeric.backend import get_backend
from verify import records, results
from verify.claim import Claim
from verify.context import Series
from verify.errors import UserError
from verify.hypotheses import as_hypotheses
from verify.profiles import get_profile
from verify.records import Record, RecordError
from verify.registry import all_claims
from verify.runner import exit_status, run_claim, run_claims


def test_records_of_a_tiny_run_conform(tiny_run):
    assert tiny_run.proc.returncode == 0, tiny_run.proc.stderr
    data = json.loads((tiny_run.out / results.RESULTS_FILE).read_text())
    assert data["schema_version"] == results.SCHEMA_VERSION
    assert [r["id"] for r in data["claims"]] == [TINY_CLAIM]
    for record in data["claims"]:
        assert Record.from_json(record).to_json() == record
        p = record["provenance"]
        assert (p["seed"], p["backend"], p["profile"], p["dtype"]) == (0, "numpy", "tiny", "float64")
        assert p["source_hash"] == all_claims()[record["id"]].source_hash
        assert p["runtime_s"] >= 0 and p["versions"]["numpy"]
        assert record["checks"], "a claim records checks"
        for c in record["checks"]:
            assert c["outcome"] in ("pass", "fail", "inconclusive", "error")
            assert c["verdict"] == c["outcome"].upper()
            assert c["why"], f"check {c['name']!r} does not say why its tolerance is what it is"


def test_reading_a_record_reports_every_missing_key_and_wrong_type(tiny_run):
    broken = results.load(tiny_run.out)[TINY_CLAIM].to_json()
    del broken["verdict"]
    del broken["checks"][0]["tolerance"]
    del broken["provenance"]["seed"]
    broken["checks"][1]["outcome"] = "maybe"
    broken["controls"][0]["ok"] = "yes"
    broken["extra"] = 1
    with pytest.raises(RecordError) as e:
        Record.from_json(broken)
    assert e.value.problems == [
        "missing key 'verdict'",
        "unknown key 'extra'",
        "checks[0]: missing key 'tolerance'",
        "checks[1].outcome is 'maybe', not one of pass, fail, inconclusive, error",
        "controls[0].ok is a JSON string, not a boolean",
        "provenance: missing key 'seed'",
    ]
    with pytest.raises(RecordError):
        Record.from_json({})


def test_schema_version_mismatch_is_a_user_error(tmp_path):
    (tmp_path / results.RESULTS_FILE).write_text(json.dumps({"schema_version": 0, "claims": []}))
    with pytest.raises(UserError, match="schema version 0"):
        results.load(tmp_path)
    (tmp_path / results.RESULTS_FILE).write_text(json.dumps({"claims": []}))
    with pytest.raises(UserError, match="schema version None"):
        results.load(tmp_path)


def test_invalid_json_is_a_user_error(tmp_path):
    (tmp_path / results.RESULTS_FILE).write_text("{not json")
    with pytest.raises(UserError, match=r"not valid JSON.*--fresh"):
        results.load(tmp_path)


@pytest.mark.parametrize(
    "data, problem",
    [
        ([], "the top level is a JSON list"),
        ({"schema_version": 1}, "'claims' is missing"),
        ({"schema_version": 1, "claims": ["x"]}, "claims[0]: Record is a JSON string, not an object"),
        ({"schema_version": 1, "claims": [{"id": "a:b-1"}]}, "claims[0] (a:b-1): missing key 'paper'"),
    ],
)
def test_wrong_structure_is_a_user_error_naming_the_problem(data, problem, tmp_path):
    (tmp_path / results.RESULTS_FILE).write_text(json.dumps(data))
    with pytest.raises(UserError) as e:
        results.load(tmp_path)
    assert problem in str(e.value) and "--fresh" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("command", ["run", "report", "show"])
def test_schema_mismatch_via_the_cli_exits_2_and_keeps_the_file(command, tmp_path, verify_main):
    path = tmp_path / results.RESULTS_FILE
    path.write_text(json.dumps({"schema_version": 99, "claims": [{"id": "x"}]}))
    before = path.read_bytes()
    args = {
        "run": ["run", TINY_CLAIM, "--profile", "tiny"],
        "report": ["report"],
        "show": ["show", TINY_CLAIM],
    }
    code, _, err = verify_main(*args[command], "--out", tmp_path)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert "schema version 99" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [results.RESULTS_FILE]
    assert path.read_bytes() == before


def test_missing_file_loads_empty(tmp_path):
    assert results.load(tmp_path) == {}
    assert results.load(tmp_path / "does-not-exist") == {}


def test_save_orders_and_round_trips(tmp_path):
    record = run_claim(_claim(_ok), **RUN)
    ids = ["fake2025:lemma-3", "fake2025:lemma-1", "fake2025:lemma-2", "fake2025:lemma-9"]
    records = {i: replace(record, id=i) for i in ids}
    path = results.save(tmp_path / "new", records, ids[1:3] + ids[:1])
    data = json.loads(path.read_text())
    assert [r["id"] for r in data["claims"]] == [*ids[1:3], ids[0], ids[3]]  # unknown ids kept, last
    assert results.load(tmp_path / "new") == records
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == [results.RESULTS_FILE]  # no temp file


def _store_many(out, ids: list[str], record: Record) -> None:
    for i in ids:
        results.store(out, [replace(record, id=i)], sorted(ids))


def test_two_runs_storing_into_one_directory_keep_each_others_records(tmp_path):
    """Two processes (two lanes of a long run) store 15 records each into one directory at once:
    the lock and the re-read before each write keep all 30 (a plain load-once / save-all would
    drop the other lane's records)."""
    record = run_claim(_claim(_ok), **RUN)
    lanes = [[f"fake2025:lemma-{lane}{k:02d}" for k in range(15)] for lane in "ab"]
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_store_many, args=(tmp_path, ids, record)) for ids in lanes]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    assert sorted(results.load(tmp_path)) == sorted(lanes[0] + lanes[1])


def test_store_reads_the_file_again_only_when_someone_else_wrote_it(tmp_path, monkeypatch):
    """The re-read under the lock is skipped while the file is as this process left it, and made as
    soon as another writer replaced it (their records kept)."""
    record = run_claim(_claim(_ok), **RUN)
    a, b, c, d = (replace(record, id=f"fake2025:lemma-{k}") for k in "abcd")
    results.store(tmp_path, [a], [])
    load = results.load
    monkeypatch.setattr(results, "load", lambda out: pytest.fail("re-read an unchanged file"))
    results.store(tmp_path, [b], [])
    monkeypatch.setattr(results, "load", load)
    results.save(tmp_path, {**load(tmp_path), c.id: c}, [])  # another writer
    assert sorted(results.store(tmp_path, [d], [])) == sorted(r.id for r in (a, b, c, d))


# -- the runner's records ---------------------------------------------------------------------------
def _claim(body, claim_id="fake2025:lemma-1", erratum=None) -> Claim:
    return Claim(claim_id, "fake", "nowhere", "x = y", as_hypotheses(["h"]), body, erratum)


def _ok(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    with ctx.control("broken", breaks="h", must_break=["holds"]):
        ctx.close("holds", 1.0, 2.0, why="exact")


def _crash(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    raise ZeroDivisionError("boom in the claim")


def _user_error(ctx):
    ctx.require(False, "bad combination")


RUN = {"backend": get_backend("numpy"), "profile": get_profile("tiny"), "seed": 3}


def test_run_claim_record_conforms_and_passes():
    record = run_claim(_claim(_ok), overrides={"H": 4}, **RUN)
    assert isinstance(record, Record) and Record.from_json(record.to_json()) == record
    assert record.verdict == "PASS" and record.traceback == ""
    assert record.provenance.overrides == {"H": 4} and record.provenance.seed == 3
    json.dumps(record.to_json())  # serialisable as is


def test_crash_is_an_error_record_with_its_traceback():
    record = run_claim(_claim(_crash), **RUN)
    assert record.verdict == "ERROR"
    assert "ZeroDivisionError: boom in the claim" in record.reason
    assert "ZeroDivisionError" in record.traceback
    assert Record.from_json(record.to_json()) == record


def test_user_error_propagates_and_earlier_records_are_handed_over():
    seen = []
    with pytest.raises(UserError, match="fake2025:lemma-2: bad combination"):
        run_claims([_claim(_ok), _claim(_user_error, "fake2025:lemma-2")], on_done=seen.append, **RUN)
    assert [r.id for r in seen] == ["fake2025:lemma-1"]


def test_exit_status():
    ok = run_claim(_claim(_ok), **RUN)
    bad = run_claim(_claim(_crash), **RUN)
    assert exit_status([ok]) == 0 and exit_status([]) == 0
    assert exit_status([ok, bad]) == 1


# -- strict JSON: non-finite floats ------------------------------------------------------------------
def _strict_loads(text: str):
    """``json.loads`` that rejects the bare NaN / Infinity tokens, as JavaScript's ``JSON.parse`` does."""

    def reject(token):
        raise ValueError(f"non-standard JSON token {token}")

    return json.loads(text, parse_constant=reject)


def test_nonfinite_values_are_strings_on_disk_and_floats_in_memory(tmp_path):
    def nonfinite(ctx):
        ctx.close("blows up", float("nan"), 1.0, why="not finite")
        ctx.bound("unbounded", 1.0, float("inf"), why="inf bound")
        ctx.figure("f", series=[Series("s", [1.0, 2.0], [float("-inf"), float("nan")])])

    record = run_claim(_claim(nonfinite), **RUN)
    assert record.verdict == "ERROR"
    path = results.save(tmp_path, {record.id: record}, [])
    text = path.read_text()
    assert "NaN" not in text and "Infinity" not in text
    data = _strict_loads(text)
    check = data["claims"][0]["checks"][0]
    assert check["measured"] == "nan"
    assert data["claims"][0]["figures"][0]["series"][0]["y"] == ["-inf", "nan"]
    back = results.load(tmp_path)[record.id]
    assert math.isnan(back.checks[0].measured)
    assert back.figures[0]["series"][0]["y"][0] == -math.inf
    assert back.to_json() == record.to_json()


def test_encode_decode_round_trip():
    x = {"a": [1.0, math.inf, -math.inf, {"b": math.nan}], "c": "text", "d": None, "e": 3}
    encoded = records.encode(x)
    assert encoded == {"a": [1.0, "inf", "-inf", {"b": "nan"}], "c": "text", "d": None, "e": 3}
    assert results.canonical(records.decode(encoded)) == results.canonical(x)
    with pytest.raises(ValueError):
        json.dumps(x, allow_nan=False)  # what dumps() guards against
    assert _strict_loads(results.dumps(x))


def test_files_written_by_older_versions_with_bare_tokens_still_load(tmp_path):
    record = run_claim(_claim(_ok), **RUN).to_json()
    record["checks"][0]["measured"] = math.inf
    text = json.dumps({"schema_version": results.SCHEMA_VERSION, "claims": [record]})
    assert "Infinity" in text
    (tmp_path / results.RESULTS_FILE).write_text(text)
    assert results.load(tmp_path)[record["id"]].checks[0].measured == math.inf


# -- the published JSON Schema -------------------------------------------------------------------------
def _validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(results.SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_tiny_run_conforms_to_the_published_schema(tiny_run):
    assert tiny_run.proc.returncode == 0, tiny_run.proc.stderr
    data = _strict_loads((tiny_run.out / results.RESULTS_FILE).read_text())
    errors = [f"{e.json_path}: {e.message}" for e in _validator().iter_errors(data)]
    assert errors == []


def test_error_records_conform_and_the_schema_rejects_broken_files(tmp_path):
    records = {r.id: r for r in (run_claim(_claim(_crash, "fake2025:lemma-2"), **RUN),)}
    path = results.save(tmp_path, records, [])
    validator = _validator()
    assert list(validator.iter_errors(_strict_loads(path.read_text()))) == []
    assert not validator.is_valid([])
    assert not validator.is_valid({"schema_version": 1, "claims": [{"id": "x"}]})
    bad_verdict = _strict_loads(path.read_text())
    bad_verdict["claims"][0]["verdict"] = "MAYBE"
    assert not validator.is_valid(bad_verdict)


def test_schema_is_shipped_as_package_data():
    assert results.SCHEMA_FILE.is_file()
    pyproject = (results.SCHEMA_FILE.parents[2] / "pyproject.toml").read_text()
    assert 'verify = ["schema/*.json"]' in pyproject


# -- merging, freshness, moving aside, writability ------------------------------------------------------
def test_merge_keeps_the_stored_record_when_only_volatile_provenance_differs():
    old = run_claim(_claim(_ok), **RUN)
    volatile = {"finished": "later", "runtime_s": 9.0, "git_commit": "other", "machine": {}}
    new = replace(old, provenance=replace(old.provenance, **volatile, peak_memory_mib={}))
    assert results.same_result(new, old) and results.merge(new, old) is old
    new = replace(new, checks=(replace(new.checks[0], measured=1.0 + 1e-15), *new.checks[1:]))
    assert not results.same_result(new, old) and results.merge(new, old) is new
    assert results.merge(new, None) is new


def test_is_fresh_compares_code_and_settings():
    record = run_claim(_claim(_ok), overrides={"H": 4}, **RUN)
    same = {"source_hash": record.provenance.source_hash, "profile": "tiny", "seed": 3}
    same |= {"overrides": {"H": 4}, "backend": "numpy"}
    assert results.is_fresh(record, **same)
    for key, other in [
        ("source_hash", "x"),
        ("profile", "quick"),
        ("seed", 4),
        ("overrides", {}),
        ("backend", "cupy"),
    ]:
        assert not results.is_fresh(record, **(same | {key: other})), key
    assert not results.is_fresh(None, **same)


def test_move_aside_never_overwrites(tmp_path):
    assert results.move_aside(tmp_path, "broken") is None
    names = set()
    for k in range(3):
        (tmp_path / results.RESULTS_FILE).write_text(str(k))
        names.add(results.move_aside(tmp_path, "broken").name)
    assert len(names) == 3 and not (tmp_path / results.RESULTS_FILE).exists()
    assert sorted((tmp_path / n).read_text() for n in names) == ["0", "1", "2"]


def test_ensure_writable(tmp_path):
    results.ensure_writable(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b").is_dir() and list((tmp_path / "a" / "b").iterdir()) == []
    (tmp_path / "file").write_text("")
    for bad in (tmp_path / "file", tmp_path / "file" / "sub", "/proc/nope"):
        with pytest.raises(UserError, match="--out"):
            results.ensure_writable(bad)


def test_the_committed_results_conform_to_the_published_schema():
    reports = results.SCHEMA_FILE.parents[2] / "reports"
    if not (reports / results.RESULTS_FILE).is_file():
        pytest.skip("no committed reports/results.json")
    data = json.loads((reports / results.RESULTS_FILE).read_text())
    errors = [f"{e.json_path}: {e.message[:200]}" for e in _validator().iter_errors(data)]
    assert errors == []


def test_a_record_that_cannot_be_stored_is_kept_beside_the_unreadable_file(tmp_path):
    """Another run (say of a newer relu-verify) left a results.json this one cannot read: the
    finished record goes to a file of its own, and the one-line error says where."""
    record = run_claim(_claim(_ok), **RUN)
    (tmp_path / results.RESULTS_FILE).write_text('{"schema_version": 99, "claims": []}')
    with pytest.raises(UserError, match=r"kept in .*unstored-") as err:
        results.store(tmp_path, [record], [record.id])
    (aside,) = tmp_path.glob(f"{results.RESULTS_FILE}.unstored-*")
    assert str(aside) in str(err.value) and results.read(aside) == {record.id: record}
    assert "99" in (tmp_path / results.RESULTS_FILE).read_text()  # the unreadable file is left as it was
