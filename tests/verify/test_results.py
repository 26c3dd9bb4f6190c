"""results.json: schema of the records a run writes, versioning, merging; the runner's records."""

from __future__ import annotations

import json

import pytest
from conftest import TINY_CLAIM

from numeric.backend import get_backend
from verify import results
from verify.claim import Claim
from verify.errors import UserError
from verify.profiles import get_profile
from verify.registry import all_claims
from verify.runner import exit_status, run_claim, run_claims


def test_records_of_a_tiny_run_conform(tiny_run):
    assert tiny_run.proc.returncode == 0, tiny_run.proc.stderr
    data = json.loads((tiny_run.out / results.RESULTS_FILE).read_text())
    assert data["schema_version"] == results.SCHEMA_VERSION
    assert [r["id"] for r in data["claims"]] == [TINY_CLAIM]
    for record in data["claims"]:
        assert results.validate_record(record) == []
        p = record["provenance"]
        assert (p["seed"], p["backend"], p["profile"], p["dtype"]) == (0, "numpy", "tiny", "float64")
        assert p["source_hash"] == all_claims()[record["id"]].source_hash
        assert p["runtime_s"] >= 0 and p["versions"]["numpy"]
        assert record["checks"], "a claim records checks"
        for c in record["checks"]:
            assert c["outcome"] in ("pass", "fail", "inconclusive", "error")
            assert c["verdict"] == c["outcome"].upper()
            assert c["why"], f"check {c['name']!r} does not say why its tolerance is what it is"


def test_validate_record_reports_missing_keys(tiny_run):
    record = results.load(tiny_run.out)[TINY_CLAIM]
    broken = json.loads(json.dumps(record))
    del broken["verdict"]
    del broken["checks"][0]["tolerance"]
    del broken["provenance"]["seed"]
    problems = results.validate_record(broken)
    assert "missing key 'verdict'" in problems
    assert "check 0 missing key 'tolerance'" in problems
    assert "provenance missing 'seed'" in problems
    assert results.validate_record({}) != []


def test_schema_version_mismatch_is_a_user_error(tmp_path):
    (tmp_path / results.RESULTS_FILE).write_text(json.dumps({"schema_version": 0, "claims": []}))
    with pytest.raises(UserError, match="schema version 0"):
        results.load(tmp_path)
    (tmp_path / results.RESULTS_FILE).write_text(json.dumps({"claims": []}))
    with pytest.raises(UserError, match="schema version None"):
        results.load(tmp_path)


def test_invalid_json_is_a_user_error(tmp_path):
    (tmp_path / results.RESULTS_FILE).write_text("{not json")
    with pytest.raises(UserError, match="not valid JSON"):
        results.load(tmp_path)


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
    records = {i: {"id": i, "v": k} for k, i in enumerate(["c", "a", "b", "z"])}
    path = results.save(tmp_path / "new", records, ["a", "b", "c"])
    data = json.loads(path.read_text())
    assert [r["id"] for r in data["claims"]] == ["a", "b", "c", "z"]  # unknown ids kept, last
    assert results.load(tmp_path / "new") == records
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == [results.RESULTS_FILE]  # no temp file


# -- the runner's records ---------------------------------------------------------------------------
def _claim(body, claim_id="fake2025:lemma-1", erratum=None) -> Claim:
    return Claim(claim_id, "fake", "nowhere", "x = y", ("h",), body, erratum)


def _ok(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    with ctx.control("broken", breaks="h"):
        ctx.close("holds", 1.0, 2.0, why="exact")


def _crash(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    raise ZeroDivisionError("boom in the claim")


def _user_error(ctx):
    ctx.require(False, "bad combination")


RUN = {"backend": get_backend("numpy"), "profile": get_profile("tiny"), "seed": 3}


def test_run_claim_record_conforms_and_passes():
    record = run_claim(_claim(_ok), overrides={"H": 4}, **RUN)
    assert results.validate_record(record) == []
    assert record["verdict"] == "PASS" and record["traceback"] == ""
    assert record["provenance"]["overrides"] == {"H": 4} and record["provenance"]["seed"] == 3
    json.dumps(record)  # serialisable as is


def test_crash_is_an_error_record_with_its_traceback():
    record = run_claim(_claim(_crash), **RUN)
    assert record["verdict"] == "ERROR"
    assert "ZeroDivisionError: boom in the claim" in record["reason"]
    assert "ZeroDivisionError" in record["traceback"]
    assert results.validate_record(record) == []


def test_user_error_propagates_and_earlier_records_are_handed_over():
    seen = []
    with pytest.raises(UserError, match="fake2025:lemma-2: bad combination"):
        run_claims([_claim(_ok), _claim(_user_error, "fake2025:lemma-2")], on_done=seen.append, **RUN)
    assert [r["id"] for r in seen] == ["fake2025:lemma-1"]


def test_exit_status():
    ok = run_claim(_claim(_ok), **RUN)
    bad = run_claim(_claim(_crash), **RUN)
    assert exit_status([ok]) == 0 and exit_status([]) == 0
    assert exit_status([ok, bad]) == 1
