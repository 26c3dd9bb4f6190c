"""``verify show``: every stored number in full scientific notation, with the relation and the evidence."""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import TINY_CLAIM
from rich.console import Console

import verify.cli as cli
from verify import results
from verify.display import number, value

STORED = {"measured": 1.8e-08, "expected": 1.9e-05, "tolerance": 1.7763568394002505e-15}


@pytest.mark.parametrize(
    "v, text",
    [
        (1.7763568394002505e-15, "1.776e-15"),
        (1.8e-08, "1.8e-08"),
        (1.9e-05, "1.9e-05"),
        (-123456.0, "-1.235e+05"),
        (0.0, "0"),
        (float("nan"), "nan"),
        (float("-inf"), "-inf"),
    ],
)
def test_number_is_scientific_and_keeps_the_exponent(v, text):
    assert number(v) == text


def test_value_writes_lists_and_objects_in_full():
    assert value([1e-20, 2, True, "x", None]) == "[1e-20, 2, True, x, -]"
    assert value({"k": 1e-300}) == "{k: 1e-300}"
    assert value(list(range(50))).count(",") == 49  # never cut


@pytest.mark.parametrize("width", [80, 200])
def test_show_prints_stored_numbers_with_exponents_and_relation(
    width, tiny_run_copy, verify_main, monkeypatch
):
    stored = results.load(tiny_run_copy)
    record = stored[TINY_CLAIM]
    check = replace(
        record.checks[0],
        **STORED,
        relation="|measured - expected| = 1.9e-05 <= tolerance",
        margin=-1.07e4,
        slack=9.3e-11,
        resolution="a relative error > 3.2e-07 in the constant",
    )
    stored[TINY_CLAIM] = replace(record, checks=(check, *record.checks[1:]))
    results.save(tiny_run_copy, stored, [TINY_CLAIM])
    monkeypatch.setattr(cli, "console", Console(width=width, no_color=True))
    code, out, err = verify_main("show", TINY_CLAIM, "--out", tiny_run_copy)
    assert code == 0, err
    block = out[out.index(check.name) :]
    for text in ("1.8e-08", "1.9e-05", "1.776e-15", "-1.07e+04", "9.3e-11"):
        assert text in block, (text, block)
    assert "|measured - expected| = 1.9e-05 <= tolerance" in block
    assert "resolution: a relative error > 3.2e-07 in the constant" in block
    assert f"checks ({len(record.checks)}):" in out


def test_show_leaves_out_the_evidence_a_check_does_not_have(tiny_run_copy, verify_main):
    stored = results.load(tiny_run_copy)
    bare = {"margin": None, "slack": None, "resolution": "", "power": None, "relation": ""}
    record = stored[TINY_CLAIM]
    stored[TINY_CLAIM] = replace(record, checks=tuple(replace(c, **bare) for c in record.checks))
    results.save(tiny_run_copy, stored, [TINY_CLAIM])
    code, out, err = verify_main("show", TINY_CLAIM, "--out", tiny_run_copy)
    assert code == 0 and err == "" and "margin" not in out


def test_show_prints_the_regime_and_each_control_with_what_it_must_break(
    tiny_run_copy, verify_main, monkeypatch
):
    record = results.load(tiny_run_copy)[TINY_CLAIM]
    monkeypatch.setattr(cli, "console", Console(width=200, no_color=True))
    code, out, err = verify_main("show", TINY_CLAIM, "--out", tiny_run_copy)
    assert code == 0, err
    assert f"regime: {record.regime.state}: {record.regime.reason}" in out
    assert f"controls ({len(record.controls)}):" in out
    for ctl in record.controls:
        assert ctl.label in out
        for name in ctl.must_break:
            assert f"must break: {name} ({'broke' if name in ctl.broke else 'held'})" in out
