"""Parameters: types from the declared values, ``--set`` parsing, planning before a run, ``verify params``.

The plan of a claim (``verify/plan.py``) must see every parameter its run reads: that is what
makes a bad ``--set`` an error before the first claim runs.  ``test_claim_tiny``
(tests/verify/test_claims_tiny.py) checks it for every built-in claim against its real tiny run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from rich.console import Console

from verify import cli, results
from verify.claim import Claim
from verify.errors import UserError
from verify.params import Point, format_value, infer, parse_assignments, parse_value
from verify.plan import parameter_rows, plan_claim, plan_claims
from verify.profiles import get_profile
from verify.registry import all_claims

TINY = get_profile("tiny")
CLAIMS = all_claims()


def _declared(tiny, quick, full=None):
    return {"tiny": tiny, "quick": quick, "full": quick if full is None else full}


def _claim(body, claim_id: str = "fake2025:lemma-1") -> Claim:
    return Claim(claim_id, "fake", "nowhere", "x = y", ("none",), body)


# -- types ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "declared", "described", "domain"),
    [
        ("H", _declared(4, 16, 500), "int", ">= 1"),
        ("gd_steps_late", _declared(0, 10, 300), "int", ">= 0"),
        ("shift", _declared(-1, 2), "int", "(finite)"),
        ("lr_mean", _declared(0.01, 0.012, 0.002), "float", "> 0"),
        ("ncf_step_later", _declared(0.0, 0.0, 0.5), "float", ">= 0"),
        ("alpha", _declared(1, 1), "float", "in [0, 1]"),  # named: a slope, even if declared as 1
        ("L", _declared(3, 4), "int", ">= 2"),
        ("strict", _declared(False, True), "bool", "true, false"),
        ("method", _declared("rk45", "dop853"), "str", "one of rk45, dop853"),
        ("n", _declared((4, 8), (4, 8, 16)), "grid of int (>= 2 points)", ">= 1"),
        ("mu", _declared((0.5,), (0.9, 0.5)), "grid of float (>= 1 point)", "in (0, 1]"),
        (
            "sizes",
            _declared((10, 40, 4), (10, 40, 4), (20, 80, 10)),
            "tuple (int, int, int)",
            ">= 1; >= 1; >= 1",
        ),
        (
            "cases",
            _declared(((4, 0.5),), ((4, 0.5), (8, 0.2))),
            "grid of (int, float) (>= 1 point)",
            ">= 1; > 0",
        ),
    ],
)
def test_type_and_domain_follow_the_declared_values(name, declared, described, domain):
    t = infer(name, declared)
    assert (t.describe(), t.domain_text()) == (described, domain)
    for value in declared.values():  # every declared value is in its own domain
        assert t.coerce(value) == value


@pytest.mark.parametrize(
    "declared", [_declared(None, 3), _declared(1, "a"), _declared(3, (3, 4)), _declared(("a",), ("a", "b"))]
)
def test_mixed_declarations_cannot_be_overridden_and_say_why(declared):
    t = infer("x", declared)
    assert not t.overridable and t.why and t.describe() == "-"
    with pytest.raises(ValueError, match="cannot change"):
        t.coerce(1)


GOOD = [
    ("H", _declared(4, 16), "7", 7),
    ("H", _declared(4, 16), "1e3", 1000),
    ("lr", _declared(0.1, 0.05), "3", 3.0),
    ("strict", _declared(False, True), "true", True),
    ("n", _declared((4,), (4, 8)), "10", (10,)),  # one point where a profile declares one
    ("n", _declared((4,), (4, 8)), "10,", (10,)),
    ("n", _declared((4, 8), (4, 8, 16)), "10,20,40", (10, 20, 40)),
    ("n_grid", _declared([16, 32], [8, 16, 32]), "8,16", [8, 16]),  # the declared container
    ("sizes", _declared((10, 40, 4), (10, 40, 4)), "12,48,5", (12, 48, 5)),
    ("sizes", _declared((10, 40, 4), (10, 40, 4)), "12:48:5", (12, 48, 5)),
    ("cases", _declared(((4, 0.5),), ((4, 0.5), (8, 0.2))), "6:0.3", ((6, 0.3),)),
    ("cases", _declared(((4, 0.5),), ((4, 0.5), (8, 0.2))), "6:0.3,10:0.1", ((6, 0.3), (10, 0.1))),
]


@pytest.mark.parametrize(("name", "declared", "text", "value"), GOOD)
def test_set_values_are_converted_to_the_declared_type(name, declared, text, value):
    got = infer(name, declared).coerce(parse_value(text))
    assert got == value and type(got) is type(value)


BAD = [
    ("H", _declared(4, 16), "0", "integer >= 1"),
    ("H", _declared(4, 16), "2.5", "integer >= 1"),
    ("H", _declared(4, 16), "10,20", "single value"),
    ("H", _declared(4, 16), "true", "integer"),
    ("lr", _declared(0.1, 0.05), "inf", "> 0"),
    ("lr", _declared(0.1, 0.05), "nan", "> 0"),
    ("alpha", _declared(0.5, 0.5), "1.5", "[0, 1]"),
    ("strict", _declared(False, True), "1", "true or false"),
    ("method", _declared("rk45", "dop853"), "euler", "one of rk45, dop853"),
    ("n", _declared((4, 8), (4, 8, 16)), "10", "2 or more"),  # bug 4: an order needs two points
    ("n", _declared((4, 8), (4, 8, 16)), "10,0", "integer >= 1"),
    ("sizes", _declared((10, 40, 4), (10, 40, 4)), "12,48", "3 comma-separated"),
    ("cases", _declared(((4, 0.5),), ((4, 0.5), (8, 0.2))), "6,0.3", "points"),
]


@pytest.mark.parametrize(("name", "declared", "text", "fragment"), BAD)
def test_values_outside_the_type_are_rejected_with_what_is_expected(name, declared, text, fragment):
    with pytest.raises(ValueError, match="expected") as e:
        infer(name, declared).coerce(parse_value(text))
    assert fragment in str(e.value)


def test_parse_and_format_are_inverse():
    for text in ("7", "0.5", "true", "10,20,40", "10,", "4:0.5,8:0.2", "rk45"):
        assert format_value(parse_value(text)) == text
    assert parse_value("4:0.5") == Point((4, 0.5)) and isinstance(parse_value("4:0.5"), Point)


@pytest.mark.parametrize("items", [["H"], ["=3"], ["H="], ["H=1", "H=2"], ["n=1,,2"], ["a b=1"]])
def test_malformed_assignments_are_user_errors(items):
    with pytest.raises(UserError):
        parse_assignments(items)


# -- planning ---------------------------------------------------------------------------------
def _sized(ctx):
    n = ctx.param("n", tiny=4, quick=8)
    d = ctx.param("d", tiny=8, quick=16)
    ctx.require(d >= n, f"need d >= n, got d={d}, n={n}")
    x = ctx.rng("data").host.normal(size=(n, d))  # the first use of the context: planning ends
    ctx.param("late", tiny=1, quick=2)
    ctx.bound("finite", float(np.abs(x).max()), np.inf, why="test")


def test_plan_reads_parameters_and_requires_and_stops_at_the_first_draw():
    plan = plan_claim(_claim(_sized), TINY)
    assert plan.params == {"n": 4, "d": 8} and plan.reached == "rng" and not plan.error
    with pytest.raises(UserError, match="need d >= n"):
        plan_claim(_claim(_sized), TINY, {"n": 10, "d": 5})
    with pytest.raises(UserError, match="fake2025:lemma-1: --set n=0: expected an integer >= 1"):
        plan_claim(_claim(_sized), TINY, {"n": 0})


def test_a_claims_own_except_cannot_swallow_the_end_of_planning():
    def body(ctx):
        try:
            ctx.rng(0).host.normal()
        except Exception:
            pass
        ctx.param("late", tiny=1, quick=2)

    assert plan_claim(_claim(body), TINY).params == {}


def test_planning_stops_at_a_computing_layer_and_at_a_long_loop():
    from numeric.models.losses import Loss

    def symbolic_first(ctx):
        ctx.param("a", tiny=1, quick=2)
        Loss("square", "mean").value(np.zeros(2), np.zeros(2))  # numeric: a computation
        ctx.param("b", tiny=1, quick=2)

    def loop_first(ctx):
        ctx.param("a", tiny=1, quick=2)
        total = 0
        for i in range(10**7):
            total += i
        ctx.param("b", tiny=1, quick=2)

    for body, where in ((symbolic_first, "numeric.models.losses"), (loop_first, "lines")):
        plan = plan_claim(_claim(body), TINY)
        assert plan.params == {"a": 1} and where in plan.reached


def test_a_set_that_no_selected_claim_reads_is_an_error_naming_its_readers():
    registry = {"fake2025:lemma-1": _claim(_sized), "fake2025:lemma-2": _claim(_sized, "fake2025:lemma-2")}

    def other(ctx):
        ctx.param("H", tiny=1, quick=2)

    with pytest.raises(UserError, match=r"--set n: .* read by fake2025:lemma-1, fake2025:lemma-2"):
        plan_claims([_claim(other, "fake2025:lemma-3")], TINY, {"n": 3}, registry=registry)
    with pytest.raises(UserError, match="unknown parameter 'nope'"):
        plan_claims([_claim(other, "fake2025:lemma-3")], TINY, {"nope": 3}, registry=registry)
    assert [p.params for p in plan_claims(registry.values(), TINY, {"n": 3})] == [{"n": 3, "d": 8}] * 2


def test_every_parameter_of_every_claim_is_overridable_and_accepts_its_declared_values():
    rows = parameter_rows(CLAIMS.values())
    assert len({r.name for r in rows}) > 80
    fixed = [(r.claim_id, r.name, r.type.why) for r in rows if not r.type.overridable]
    assert fixed == []
    for r in rows:
        for value in r.values.values():
            assert r.type.coerce(value) == value, (r.claim_id, r.name, value)


def _jsonable(params: dict) -> dict:
    return json.loads(json.dumps(params))


# -- the command line ---------------------------------------------------------------------------
def _one_line(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("verify: error: "), err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["min2024:constants-t1", "--set", "n=10"], "2 or more comma-separated integers >= 1"),
        (["kou2023:lemma-C.3", "--set", "d=5", "--set", "n=10"], "need d >= n"),
        (["--set", "d=5", "--set", "n=10"], "min2024"),  # every claim: the first that cannot take it
        (["zhang2025:theorem-1", "--set", "blocks=3"], "read by kumar2025:lemma-10"),
        (["--set", "nope=3"], "unknown parameter 'nope'"),
        (["--set", "alpha=1.5"], "[0, 1]"),
        (["kumar2025:lemma-10", "--set", "blocks=3,4"], "single value"),
    ],
)
def test_bad_set_exits_2_before_anything_runs(args, fragment, tmp_path, verify_main):
    out = tmp_path / "out"
    code, _, err = verify_main("run", *args, "--profile", "tiny", "--out", out)
    assert fragment in _one_line(code, err)
    assert not (out / "results.json").exists()


def test_a_grid_set_reaches_the_claim(tmp_path, verify_main):
    out = tmp_path / "out"
    code, _, err = verify_main(
        "run", "min2024:constants-t1", "--profile", "tiny", "--set", "n=4,6", "--out", out
    )
    assert code == 0, err
    assert results.load(out)["min2024:constants-t1"].params["n"] == [4, 6]


def test_verify_params_lists_values_per_profile_type_and_reach(verify_main, monkeypatch):
    # a wide console of its own: the CLI's is sized once per process, by whoever imported it first
    monkeypatch.setattr(cli, "console", Console(width=250, no_color=True))
    code, out, err = verify_main("params", "min2024:constants-t1", "kumar2025:section-D.3")
    assert code == 0, err
    line = next(x for x in out.splitlines() if " n " in x and "constants-t1" in x)
    for cell in ("4,8", "4,8,16,32", "4,8,16,32,64", "grid of int (>= 2 points)", ">= 1", "yes"):
        assert cell in line, line
    assert "delta_align" in out and "kumar2025:section-D.3" in out
