"""``verify run`` around its claims: --out checked first, Ctrl-C and --resume, broken results.json and
--fresh, internal crashes (exit 3), the summary line, and re-runs that change nothing writing nothing."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from cli_support import assert_one_line_error, fake_claim, patch_claims, snapshot
from conftest import TINY_CLAIM

import verify.cli as cli
from verify import results
from verify.claim import Erratum
from verify.records import Verdict


def _pass(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    with ctx.control("broken", breaks="h", must_break=["holds"]):
        ctx.close("holds", 1.0, 2.0, why="exact")


def _fail(ctx):
    ctx.close("x equals y", 1.0, 2.0, why="it does not")


def _interrupt(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    raise KeyboardInterrupt


def _never_run(*args, **kwargs):
    pytest.fail("a claim ran although the input was bad")


# -- Bug 2: --out is checked before anything runs --------------------------------------------------
def _read_only_dir(tmp_path):
    d = tmp_path / "read-only"
    d.mkdir()
    d.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return d


OUTS = {
    "proc": lambda tmp_path: "/proc/nope",
    "a-file": lambda tmp_path: (tmp_path / "some_file").write_text("x") and tmp_path / "some_file",
    "below-a-file": lambda tmp_path: (tmp_path / "f").write_text("x") and tmp_path / "f" / "sub",
    "read-only-dir": _read_only_dir,
}


@pytest.mark.parametrize("make", OUTS.values(), ids=OUTS.keys())
def test_unwritable_out_exits_2_before_any_claim_runs(make, tmp_path, verify_main, monkeypatch):
    out = make(tmp_path)
    if (
        out == tmp_path / "read-only" and os.geteuid() == 0
    ):  # root writes anyway: the kernel's answer to others

        def refuse(*args, **kwargs):
            raise PermissionError(13, "Permission denied")

        monkeypatch.setattr(results.tempfile, "TemporaryFile", refuse)
    monkeypatch.setattr(cli, "run_claims", _never_run)
    code, _, err = verify_main("run", TINY_CLAIM, "--profile", "tiny", "--out", out)
    assert_one_line_error(code, err)
    assert "--out" in err


def test_unwritable_junit_exits_2_before_any_claim_runs(tmp_path, verify_main, monkeypatch):
    monkeypatch.setattr(cli, "run_claims", _never_run)
    for junit in ("/proc/nope/junit.xml", tmp_path):
        code, _, err = verify_main("run", TINY_CLAIM, "--out", tmp_path / "out", "--junit", junit)
        assert_one_line_error(code, err)
        assert "--junit" in err


def test_unwritable_out_exits_2_in_a_fresh_interpreter(tmp_path, verify_subprocess):
    proc = verify_subprocess("run", TINY_CLAIM, "--profile", "tiny", "--out", "/proc/nope", cwd=tmp_path)
    assert_one_line_error(proc.returncode, proc.stderr)


# -- Bug 6: Ctrl-C keeps and renders what finished; --resume continues -----------------------------
def test_ctrl_c_keeps_renders_and_says_how_to_resume(tmp_path, verify_main, monkeypatch):
    first, second, third = (
        fake_claim(_pass, "fake2025:lemma-1"),
        fake_claim(_interrupt, "fake2025:lemma-2"),
        fake_claim(_pass, "fake2025:lemma-3"),
    )
    patch_claims(monkeypatch, [first, second, third])
    code, out, err = verify_main("run", "--profile", "tiny", "--out", tmp_path)
    assert code == 130, out + err
    assert list(results.load(tmp_path)) == [first.id]  # consistent: the finished claim only
    assert (tmp_path / "fake2025" / "lemma-1.md").is_file() and (tmp_path / "index.md").is_file()
    assert not list(tmp_path.glob("*.tmp"))
    assert "1 claims: 1 PASS" in out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert "fake2025:lemma-2 started and is not stored" in err and "2 not done" in err
    assert "verify run --profile tiny --out" in err and err.rstrip().endswith("--resume")

    # resume: the fresh record is kept as it is, the rest runs
    stored_first = results.load(tmp_path)[first.id]
    calls = []
    resumed = [fake_claim(lambda ctx, i=i: (_pass(ctx), calls.append(i)), i) for i in (second.id, third.id)]
    patch_claims(monkeypatch, [first, *resumed])
    code, out, err = verify_main("run", "--profile", "tiny", "--out", tmp_path, "--resume")
    assert code == 0, out + err
    assert calls == [second.id, third.id]
    after = results.load(tmp_path)
    assert after[first.id] == stored_first
    assert list(after) == [first.id, second.id, third.id]
    assert "--resume: 1 of 3 claims" in out and "3 claims: 3 PASS (1 kept by --resume)" in out


def test_resume_reruns_records_of_other_settings(tiny_run_copy, verify_main, monkeypatch):
    verify_main("run", TINY_CLAIM, "--profile", "tiny", "--out", tiny_run_copy)  # this code's record
    ran = []
    real = cli.run_claims
    monkeypatch.setattr(
        cli, "run_claims", lambda claims, **kw: ran.append([c.id for c in claims]) or real(claims, **kw)
    )
    verify_main("run", TINY_CLAIM, "--profile", "tiny", "--resume", "--out", tiny_run_copy)
    verify_main("run", TINY_CLAIM, "--profile", "tiny", "--seed", "1", "--resume", "--out", tiny_run_copy)
    assert ran == [[], [TINY_CLAIM]]  # same settings: kept; another seed: rerun
    assert results.load(tiny_run_copy)[TINY_CLAIM].provenance.seed == 1


def test_resume_and_fresh_exclude_each_other(tiny_run_copy, verify_main):
    before = snapshot(tiny_run_copy)
    code, _, err = verify_main("run", TINY_CLAIM, "--resume", "--fresh", "--out", tiny_run_copy)
    assert_one_line_error(code, err)
    assert snapshot(tiny_run_copy) == before


# -- Bug 7: a results.json that cannot be read: one line, exit 2, and --fresh ---------------------------
BROKEN = {
    "a-list": "[]",
    "no-claims": json.dumps({"schema_version": 1}),
    "record-missing-keys": json.dumps({"schema_version": 1, "claims": [{"id": TINY_CLAIM}]}),
    "claims-not-a-list": json.dumps({"schema_version": 1, "claims": {}}),
    "truncated": None,  # the first half of a real results.json
}


@pytest.fixture(params=BROKEN.keys())
def broken_results(request, tiny_run_copy):
    path = tiny_run_copy / results.RESULTS_FILE
    text = BROKEN[request.param]
    path.write_text(text if text is not None else path.read_text()[: len(path.read_text()) // 2])
    return tiny_run_copy


@pytest.mark.parametrize(
    "command", [["run", TINY_CLAIM, "--profile", "tiny"], ["report"], ["show", TINY_CLAIM]]
)
def test_broken_results_exit_2_name_fresh_and_lose_nothing(command, broken_results, verify_main):
    before = snapshot(broken_results)
    code, _, err = verify_main(*command, "--out", broken_results)
    assert_one_line_error(code, err)
    assert "--fresh" in err
    assert snapshot(broken_results) == before


def test_fresh_moves_a_broken_file_aside_and_starts_anew(broken_results, verify_main):
    broken = (broken_results / results.RESULTS_FILE).read_bytes()
    code, out, err = verify_main("run", TINY_CLAIM, "--profile", "tiny", "--fresh", "--out", broken_results)
    assert code == 0, out + err
    aside = list(broken_results.glob("results.json.broken-*"))
    assert len(aside) == 1 and aside[0].read_bytes() == broken  # kept, never deleted
    assert list(results.load(broken_results)) == [TINY_CLAIM]


def test_fresh_on_a_good_file_keeps_it_as_previous(tiny_run_copy, verify_main):
    good = (tiny_run_copy / results.RESULTS_FILE).read_bytes()
    code, out, err = verify_main("run", TINY_CLAIM, "--profile", "tiny", "--fresh", "--out", tiny_run_copy)
    assert code == 0, out + err
    (aside,) = tiny_run_copy.glob("results.json.previous-*")
    assert aside.read_bytes() == good


# -- Bug 8: exit codes; an internal crash is 3, with its traceback in a file ----------------------------
def test_internal_crash_exits_3_with_a_saved_traceback(tiny_run_copy, verify_main, monkeypatch, tmp_path):
    def crash(*args, **kwargs):
        raise RuntimeError("renderer\nbroke")

    monkeypatch.setattr(cli, "render", crash)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    code, _, err = verify_main("report", "--out", tiny_run_copy)
    assert_one_line_error(code, err, status=3)
    assert "internal error" in err and "RuntimeError: renderer broke" in err
    (saved,) = tmp_path.glob("verify-crash-*.txt")
    assert str(saved) in err
    assert "Traceback" in saved.read_text() and "RuntimeError: renderer" in saved.read_text()


def test_failures_are_exit_1_and_named_in_the_summary_line(tmp_path, verify_main, monkeypatch):
    claims = [
        fake_claim(_pass, "fake2025:lemma-1"),
        fake_claim(_fail, "fake2025:lemma-2"),
        fake_claim(_pass, "fake2025:lemma-3", erratum=Erratum("printed wrongly")),  # XPASS
        fake_claim(_fail, "fake2025:lemma-4", erratum=Erratum("printed wrongly")),  # XFAIL
    ]
    patch_claims(monkeypatch, claims)
    code, out, err = verify_main("run", "--profile", "tiny", "--out", tmp_path)
    assert code == 1, out + err
    summary = next(line for line in out.splitlines() if line.startswith("4 claims:"))
    assert "1 PASS" in summary and "1 FAIL" in summary and "1 XPASS" in summary and "1 XFAIL" in summary
    assert "FAIL: fake2025:lemma-2" in summary and "XPASS: fake2025:lemma-3" in summary
    assert "lemma-1" not in summary.split(";", 1)[1] and "lemma-4" not in summary


# -- hygiene: a re-run that changes nothing leaves every file alone ---------------------------------
def test_rerun_that_changes_nothing_writes_nothing(tiny_run_copy, verify_main):
    verify_main("run", TINY_CLAIM, "--profile", "tiny", "--out", tiny_run_copy)  # this code's record
    # put the volatile provenance in the past, so that a rewrite would show
    stored = results.load(tiny_run_copy)
    record = stored[TINY_CLAIM]
    volatile = {"finished": "2000-01-01T00:00:00+00:00", "runtime_s": 123.0}
    stored[TINY_CLAIM] = replace(record, provenance=replace(record.provenance, **volatile))
    results.save(tiny_run_copy, stored, [TINY_CLAIM])
    verify_main("report", "--out", tiny_run_copy)
    files = sorted(p for p in tiny_run_copy.rglob("*") if p.is_file())
    for p in files:
        os.utime(p, ns=(0, 0))
    code, out, err = verify_main("run", TINY_CLAIM, "--profile", "tiny", "--out", tiny_run_copy)
    assert code == 0, out + err
    assert sorted(p for p in tiny_run_copy.rglob("*") if p.is_file()) == files
    assert [p for p in files if p.stat().st_mtime_ns != 0] == []  # nothing rewritten
    assert results.load(tiny_run_copy)[TINY_CLAIM].provenance.runtime_s == 123.0


def test_a_changed_result_is_stored(tiny_run_copy, verify_main):
    code, out, err = verify_main(
        "run", TINY_CLAIM, "--profile", "tiny", "--seed", "5", "--out", tiny_run_copy
    )
    assert code == 0, out + err
    assert results.load(tiny_run_copy)[TINY_CLAIM].provenance.seed == 5


# -- Ctrl-C for real: SIGINT to the installed entry point ------------------------------------------------
SLOW_PAPER = """
import time

from verify.claim import claim
from verify.hypotheses import Hypothesis
from verify.registry import Paper

PAPER = Paper(key="slow2026", title="t", authors="a", venue="v")
H = Hypothesis("h")


def _checks(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    with ctx.control("broken", breaks=H, must_break=["holds"]):
        ctx.close("holds", 1.0, 2.0, why="exact")


@claim("slow2026:lemma-1", title="quick", source="s", statement="x", hypotheses=[H])
def quick(ctx):
    _checks(ctx)


@claim("slow2026:lemma-2", title="slow", source="s", statement="x", hypotheses=[H])
def slow(ctx):
    _checks(ctx)
    time.sleep(120)
"""


def test_sigint_stores_what_finished_and_exits_130(tmp_path):
    (tmp_path / "slow_claims.py").write_text(SLOW_PAPER)
    out = tmp_path / "out"
    args = ["run", "slow2026", "--claims", "slow_claims.py", "--profile", "tiny", "--out", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-c", "from verify.cli import main; main()", *args],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, COLUMNS="200", NO_COLOR="1"),
    )
    deadline = time.monotonic() + 90
    while not (out / results.RESULTS_FILE).exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)  # the quick claim is stored; the slow one sleeps
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=90)
    assert proc.returncode == 130, stdout + stderr
    assert list(results.load(out)) == ["slow2026:lemma-1"]
    assert (out / "slow2026" / "lemma-1.md").is_file() and (out / "index.html").is_file()
    assert "slow2026:lemma-2 started and is not stored" in stderr and "Traceback" not in stderr
    assert stderr.strip().endswith("--resume") and len(stderr.strip().splitlines()) == 1


# -- Ctrl-C, then --resume: the same results.json as an uninterrupted run ---------------------------
BLOCKING_PAPER = """
import pathlib
import time

from verify.claim import claim
from verify.hypotheses import Hypothesis
from verify.registry import Paper

PAPER = Paper(key="block2026", title="t", authors="a", venue="v")
H = Hypothesis("h")


def _checks(ctx):
    x = float(ctx.rng("draw").uniform((1,))[0])  # a seeded draw: a re-run claim must measure the same value
    ctx.close("holds", x, x, why="exact")
    with ctx.control("broken", breaks=H, must_break=["holds"]):
        ctx.close("holds", x, x + 1.0, why="exact")


@claim("block2026:lemma-1", title="first", source="s", statement="x", hypotheses=[H])
def first(ctx):
    _checks(ctx)


@claim("block2026:lemma-2", title="blocks while the marker file exists", source="s", statement="x",
       hypotheses=[H])
def second(ctx):
    while pathlib.Path("block").exists():
        time.sleep(0.05)
    _checks(ctx)


@claim("block2026:lemma-3", title="last", source="s", statement="x", hypotheses=[H])
def third(ctx):
    _checks(ctx)
"""


def test_an_interrupted_run_resumed_gives_the_uninterrupted_results(tmp_path):
    (tmp_path / "block_claims.py").write_text(BLOCKING_PAPER)

    def verify(out, *extra):
        args = ["run", "block2026", "--claims", "block_claims.py", "--profile", "tiny", "--out", str(out)]
        return subprocess.Popen(
            [sys.executable, "-c", "from verify.cli import main; main()", *args, *extra],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert verify(whole).wait(timeout=120) == 0
    (tmp_path / "block").write_text("")
    proc = verify(cut)
    deadline = time.monotonic() + 90
    while not (cut / results.RESULTS_FILE).exists() and time.monotonic() < deadline:
        time.sleep(0.05)  # lemma-1 is stored, lemma-2 waits for the marker
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=90) == 130
    assert list(results.load(cut)) == ["block2026:lemma-1"]
    first = results.load(cut)["block2026:lemma-1"]
    (tmp_path / "block").unlink()
    assert verify(cut, "--resume").wait(timeout=120) == 0
    resumed, uninterrupted = results.load(cut), results.load(whole)
    assert list(resumed) == list(uninterrupted)
    assert all(results.same_result(resumed[i], uninterrupted[i]) for i in uninterrupted)
    assert resumed["block2026:lemma-1"] == first  # skipped as fresh, not run again


# -- --time-limit: a claim still running then is stopped and recorded unfinished -------------------
def _slow(ctx):
    ctx.close("holds", 1.0, 1.0, why="exact")
    try:
        while True:
            time.sleep(0.01)
    except Exception:  # a claim's own handler cannot swallow the stop
        pytest.fail("the time limit was swallowed by the claim")


def test_time_limit_stops_a_claim_records_it_unfinished_and_resume_honours_it(
    tmp_path, verify_main, monkeypatch
):
    slow, other = fake_claim(_slow, "fake2025:lemma-1"), fake_claim(_pass, "fake2025:lemma-2")
    patch_claims(monkeypatch, [slow, other])
    code, out, err = verify_main("run", "--profile", "tiny", "--out", tmp_path, "--time-limit", "0.5")
    assert code == 0, out + err
    stored = results.load(tmp_path)
    stopped = stored[slow.id]
    assert stopped.verdict == Verdict.INCONCLUSIVE and stopped.provenance.stopped_at_s == 0.5
    assert "time limit of 0.5 s" in stopped.reason and len(stopped.checks) == 1  # the one check before
    assert 0.5 <= stopped.provenance.runtime_s < 10
    assert stored[other.id].verdict == Verdict.PASS and stored[other.id].provenance.stopped_at_s is None

    calls = []
    patch_claims(monkeypatch, [fake_claim(lambda ctx: (_pass(ctx), calls.append(1)), slow.id), other])
    for limit, reruns in [("0.5", False), ("0.25", False), ("5", True)]:
        verify_main("run", "--profile", "tiny", "--out", tmp_path, "--resume", "--time-limit", limit)
        assert (len(calls) == 1) == reruns, limit  # a longer limit (or none) runs it again, once
    assert results.load(tmp_path)[slow.id].verdict == Verdict.PASS


@pytest.mark.parametrize(
    "extra", [["--time-limit", "0"], ["--time-limit", "-3"], ["--time-limit", "9", "--workers", "2"]]
)
def test_bad_time_limit_exits_2_before_any_claim_runs(extra, tmp_path, verify_main, monkeypatch):
    monkeypatch.setattr(cli, "run_claims", _never_run)
    code, _, err = verify_main("run", TINY_CLAIM, "--profile", "tiny", "--out", tmp_path, *extra)
    assert_one_line_error(code, err)
    assert not (tmp_path / results.RESULTS_FILE).exists()
