"""``verify diff A B``: verdict and measured-value changes between two stored runs."""

from __future__ import annotations

import math
from dataclasses import replace

from cli_support import assert_one_line_error, fake_check, fake_record
from conftest import TINY_CLAIM

from verify import results
from verify.diff import diff, values_differ
from verify.records import Record, Verdict


def _record(verdict: str, **measured) -> Record:
    return fake_record(verdict=Verdict(verdict), checks=tuple(fake_check(n, v) for n, v in measured.items()))


def test_values_differ():
    assert not values_differ(1.0, 1.0 + 1e-12, 1e-9) and values_differ(1.0, 1.001, 1e-9)
    assert not values_differ(math.nan, math.nan, 0) and values_differ(math.nan, 1.0, 0)
    assert not values_differ(math.inf, math.inf, 0) and values_differ(math.inf, -math.inf, 0)
    assert values_differ("gamma*z", "0", 0) and not values_differ([1, 2], [1, 2], 0)
    assert values_differ(True, 1, 0)  # a boolean is not a number here


def test_diff_lists_verdict_and_value_changes():
    a = {"p:a-1": _record("PASS", x=1.0, y=2.0), "p:a-2": _record("FAIL", x=1.0), "p:a-3": _record("PASS")}
    b = {"p:a-1": _record("PASS", x=1.5, z=0.0), "p:a-2": _record("PASS", x=1.0), "p:a-4": _record("ERROR")}
    verdicts, values = diff(a, b)
    assert [(v.claim, v.before, v.after) for v in verdicts] == [
        ("p:a-2", "FAIL", "PASS"),
        ("p:a-3", "PASS", "-"),
        ("p:a-4", "-", "ERROR"),
    ]
    assert [(v.claim, v.check, v.before, v.after) for v in values] == [
        ("p:a-1", "x", 1.0, 1.5),
        ("p:a-1", "y", 2.0, "-"),
        ("p:a-1", "z", "-", 0.0),
    ]
    assert diff(a, a) == ([], [])


def test_cli_diff_of_two_runs(tiny_run_copy, tmp_path, verify_main):
    stored = results.load(tiny_run_copy)
    record = stored[TINY_CLAIM]
    check = replace(record.checks[0], measured=4.25e-300)
    stored[TINY_CLAIM] = replace(record, verdict=Verdict.FAIL, checks=(check, *record.checks[1:]))
    results.save(tmp_path, stored, [TINY_CLAIM])
    code, out, err = verify_main("diff", tiny_run_copy, tmp_path / "results.json")
    assert code == 0 and err == "", err
    assert "verdict changes" in out and TINY_CLAIM in out and "FAIL" in out
    assert "4.25e-300" in out and "1 verdict, 1 measured-value changes" in out
    code, out, _ = verify_main("diff", tiny_run_copy, tmp_path, "--verdicts-only")
    assert code == 0 and "4.25e-300" not in out and "FAIL" in out
    code, out, _ = verify_main("diff", tiny_run_copy, tiny_run_copy)
    assert code == 0 and "no verdict changes" in out and "no measured value changed" in out


def test_cli_diff_bad_input_exits_2(tiny_run_copy, tmp_path, verify_main):
    for args in ([tiny_run_copy, tmp_path / "nope.json"], [tiny_run_copy, tiny_run_copy, "--rtol", "-1"]):
        code, _, err = verify_main("diff", *args)
        assert_one_line_error(code, err)
    (tmp_path / "results.json").write_text("[]")
    code, _, err = verify_main("diff", tiny_run_copy, tmp_path)
    assert_one_line_error(code, err)
