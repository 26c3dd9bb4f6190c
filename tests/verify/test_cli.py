"""The ``verify`` command: list, run, show, report; bad input -> exit 2, one line, nothing lost.

Most invocations run in-process through :func:`verify.cli.main` (fixture ``verify_main``,
fast); a few run the real entry point in a fresh interpreter (``verify_subprocess``) to pin
down exit statuses and stderr.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from cli_support import assert_one_line_error, fake_claim, patch_claims, snapshot
from conftest import TINY_CLAIM

from numeric.backend import cupy_available
from verify import results


# -- list ------------------------------------------------------------------------------------
def test_list(verify_main):
    code, out, err = verify_main("list")
    assert code == 0 and TINY_CLAIM in out and err == ""
    code, out, _ = verify_main("list", "zhang2025")
    assert code == 0 and TINY_CLAIM in out


# -- run (subprocess: the real entry point) ----------------------------------------------------
def test_tiny_run_writes_results_and_reports(tiny_run):
    proc = tiny_run.proc
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    out = tiny_run.out
    for name in (
        "results.json",
        "index.md",
        "index.html",
        "zhang2025/theorem-1.md",
        "zhang2025/theorem-1.html",
    ):
        assert (out / name).is_file(), name
    assert not list(out.glob("*.tmp"))
    stored = results.load(out)
    record = stored[TINY_CLAIM]
    assert not record.verdict.is_failure
    assert record.verdict in (out / "index.md").read_text()
    page = (out / "zhang2025/theorem-1.md").read_text()
    assert f"\n# {TINY_CLAIM}:" in page and "## Provenance" in page and "## Checks" in page
    html = (out / "index.html").read_text()
    assert html.startswith("<!doctype html>") and 'href="zhang2025/theorem-1.html"' in html


@pytest.mark.parametrize(
    "args",
    [
        ["run", "nope2025:theorem-1"],
        ["run", TINY_CLAIM, "--set", "H"],
    ],
    ids=["unknown-claim", "set-without-equals"],
)
def test_bad_input_exits_2_in_a_fresh_interpreter(args, tiny_run_copy, verify_subprocess):
    before = snapshot(tiny_run_copy)
    proc = verify_subprocess(*args, "--out", tiny_run_copy, cwd=tiny_run_copy.parent)
    assert_one_line_error(proc.returncode, proc.stderr)
    assert snapshot(tiny_run_copy) == before


# -- bad input (in-process) ------------------------------------------------------------------------
BAD = {
    "unknown-claim": ["run", "zhang2025:theorem-999"],
    "unknown-paper": ["run", "nope2025"],
    "bad-profile": ["run", TINY_CLAIM, "--profile", "nope"],
    "bad-backend": ["run", TINY_CLAIM, "--backend", "nope"],
    "negative-seed": ["run", TINY_CLAIM, "--seed", "-1"],
    "negative-threads": ["run", TINY_CLAIM, "--threads", "-1"],
    "non-integer-seed": ["run", TINY_CLAIM, "--seed", "abc"],
    "H=0": ["run", TINY_CLAIM, "--set", "H=0"],
    "H=2.5": ["run", TINY_CLAIM, "--set", "H=2.5"],
    "alpha=1.5": ["run", TINY_CLAIM, "--set", "alpha=1.5"],
    "alpha=-0.1": ["run", TINY_CLAIM, "--set", "alpha=-0.1"],
    "alpha=nan": ["run", TINY_CLAIM, "--set", "alpha=nan"],
    "lr=inf": ["run", TINY_CLAIM, "--set", "lr=inf"],
    "unknown-param": ["run", TINY_CLAIM, "--set", "nope=3"],
    "set-without-equals": ["run", TINY_CLAIM, "--set", "H"],
    "set-without-name": ["run", TINY_CLAIM, "--set", "=3"],
    "unknown-option": ["run", TINY_CLAIM, "--bogus"],
    "show-unknown": ["show", "zhang2025:theorem-999"],
    "show-a-paper": ["show", "zhang2025"],
}


@pytest.mark.parametrize("args", BAD.values(), ids=BAD.keys())
def test_bad_input_exits_2_with_one_line_and_loses_nothing(args, tiny_run_copy, verify_main):
    before = snapshot(tiny_run_copy)
    code, _out, err = verify_main(*args, "--out", tiny_run_copy)
    assert_one_line_error(code, err)
    assert snapshot(tiny_run_copy) == before  # results.json and every report intact


def test_list_unknown_paper_exits_2(verify_main):
    code, _, err = verify_main("list", "nope2025")
    assert_one_line_error(code, err)


@pytest.mark.skipif(cupy_available(), reason="a GPU is usable here")
def test_cupy_backend_without_gpu_exits_2(tiny_run_copy, verify_main):
    before = snapshot(tiny_run_copy)
    code, _, err = verify_main("run", TINY_CLAIM, "--backend", "cupy", "--out", tiny_run_copy)
    assert_one_line_error(code, err)
    assert "cupy" in err.lower()
    assert snapshot(tiny_run_copy) == before


def test_messages_name_the_problem(tiny_run_copy, verify_main):
    expectations = {
        ("run", "--set", "alpha=1.5"): "[0, 1]",
        ("run", "--set", "nope=3"): "unknown parameter 'nope'",
        ("run", "--profile", "nope"): "unknown profile 'nope'",
        ("run", "nope2025"): "unknown claim or paper 'nope2025'",
        ("run", "--seed", "-1"): "--seed",
    }
    for args, fragment in expectations.items():
        _, _, err = verify_main(*args, "--out", tiny_run_copy)
        assert fragment in err, (args, err)


def test_bare_verify_shows_help(verify_main):
    code, out, err = verify_main()
    assert code == 0 and "run" in out and "Traceback" not in out + err


# -- show / report -------------------------------------------------------------------------------
def test_show_prints_statement_and_stored_verdict(tiny_run_copy, verify_main):
    code, out, err = verify_main("show", TINY_CLAIM, "--out", tiny_run_copy)
    assert code == 0 and err == ""
    record = results.load(tiny_run_copy)[TINY_CLAIM]
    assert TINY_CLAIM in out and "hypotheses:" in out and f"verdict: {record.verdict}" in out


def test_show_without_results(tmp_path, verify_main):
    code, out, _ = verify_main("show", TINY_CLAIM, "--out", tmp_path)
    assert code == 0 and "no stored result" in out


def test_report_rerenders_from_results_only(tiny_run_copy, verify_main):
    stored = (tiny_run_copy / "results.json").read_bytes()
    for name in ("index.md", "index.html", "zhang2025/theorem-1.md", "zhang2025/theorem-1.html"):
        (tiny_run_copy / name).unlink()
    code, out, err = verify_main("report", "--out", tiny_run_copy)
    assert code == 0 and err == "" and "wrote" in out
    for name in ("index.md", "index.html", "zhang2025/theorem-1.md", "zhang2025/theorem-1.html"):
        assert (tiny_run_copy / name).is_file()
    assert (tiny_run_copy / "results.json").read_bytes() == stored


def test_report_without_results_exits_2(tmp_path, verify_main):
    code, _, err = verify_main("report", "--out", tmp_path)
    assert_one_line_error(code, err)


# -- run: merging, overrides, exit status ---------------------------------------------------------
def test_running_a_subset_keeps_other_records(tiny_run_copy, verify_main):
    stored = results.load(tiny_run_copy)
    other_id = "zhang2025:lemma-999"
    other = replace(stored[TINY_CLAIM], id=other_id, title="a record of another claim")
    stored[other_id] = other
    results.save(tiny_run_copy, stored, [TINY_CLAIM, other_id])

    code, out, err = verify_main(
        "run",
        TINY_CLAIM,
        "--profile",
        "tiny",
        "--set",
        "trials=3",
        "--out",
        tiny_run_copy,
    )
    assert code == 0, out + err
    after = results.load(tiny_run_copy)
    assert after[other_id] == other  # untouched
    record = after[TINY_CLAIM]
    assert record.provenance.overrides == {"trials": 3}
    if "trials" in record.params:
        assert record.params["trials"] == 3
    assert other_id in (tiny_run_copy / "index.md").read_text()  # the report lists both


def _failing_body(ctx):
    ctx.close("x equals y", 1.0, 2.0, why="it does not")


def _user_error_body(ctx):
    ctx.close("x equals x", 1.0, 1.0, why="exact")  # planning stops here: the error comes mid-run
    ctx.require(False, "this combination of parameters is impossible")


def test_failing_claim_exits_1_and_is_stored(tmp_path, verify_main, monkeypatch):
    fake = fake_claim(_failing_body)
    patch_claims(monkeypatch, [fake])
    code, out, err = verify_main("run", "--profile", "tiny", "--out", tmp_path)
    assert code == 1, out + err
    assert results.load(tmp_path)[fake.id].verdict == "FAIL"
    assert (tmp_path / "fake2025" / "lemma-1.md").is_file()


def test_user_error_inside_a_claim_keeps_finished_records(tmp_path, verify_main, monkeypatch):
    first = fake_claim(_failing_body, "fake2025:lemma-1")
    second = fake_claim(_user_error_body, "fake2025:lemma-2")
    patch_claims(monkeypatch, [first, second])
    code, _, err = verify_main("run", "--profile", "tiny", "--out", tmp_path)
    assert_one_line_error(code, err)
    assert "fake2025:lemma-2: this combination" in err
    assert list(results.load(tmp_path)) == [first.id]  # the finished claim's record was kept
