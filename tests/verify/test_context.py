"""verify.context.Context: what each check records, NaN handling, controls, figures, params."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import sympy as sp

from numeric.backend import get_backend
from verify.context import MAX_SERIES_POINTS, Context, Series
from verify.errors import UserError
from verify.hypotheses import Hypothesis
from verify.profiles import get_profile
from verify.records import Check
from verify.verdict import Verdict, decide

HYPOTHESES = (
    Hypothesis("bias-free"),
    Hypothesis("h"),
    Hypothesis("p << n", condition="p <= n / 4", test=lambda p, n: p <= n / 4),
)


def make(profile: str = "tiny", seed: int = 0, claim_id: str = "test2025:lemma-1", **overrides) -> Context:
    return Context(
        claim_id, get_backend("numpy"), get_profile(profile), seed, overrides, hypotheses=HYPOTHESES
    )


@pytest.fixture
def ctx() -> Context:
    return make()


def last(ctx: Context) -> Check:
    return ctx.checks[-1]


# -- close -----------------------------------------------------------------------------------
def test_close_scalar_records_measured_expected_tolerance(ctx):
    assert ctx.close("c", 1.0 + 1e-10, 1.0, rtol=1e-9, atol=1e-12, why="derivation")
    c = last(ctx)
    assert c.measured == 1.0 + 1e-10 and c.expected == 1.0
    assert c.tolerance == pytest.approx(1e-12 + 1e-9)
    assert (c.outcome, c.verdict, c.why, c.control) == ("pass", "PASS", "derivation", "")
    assert isinstance(c, Check) and c.kind == "numeric" and c.relation and c.details == {}
    assert not ctx.close("c2", 1.1, 1.0, rtol=1e-3, why="w")
    assert last(ctx).outcome == "fail" and last(ctx).verdict == "FAIL"


def test_close_arrays_records_worst_deviation(ctx):
    m, e = np.array([1.0, 2.0, 3.5]), np.array([1.0, 2.0, 3.0])
    assert not ctx.close("arr", m, e, rtol=0.1, why="w")  # tol = 0.1 * 3 = 0.3 < 0.5
    c = last(ctx)
    assert c.measured == pytest.approx(0.5) and c.expected == 0.0
    assert c.tolerance == pytest.approx(0.3)
    assert ctx.close("arr", m, e, atol=0.5, why="w")
    assert ctx.close("broadcast", np.full(4, 2.0), 2.0, why="exact")  # a scalar expectation broadcasts


def test_close_shape_mismatch_raises(ctx):
    with pytest.raises(ValueError, match="shapes"):
        ctx.close("bad", np.zeros(3), np.zeros(2), why="w")


@pytest.mark.parametrize(
    "measured, expected",
    [(math.nan, 1.0), (1.0, math.nan), (math.inf, 1.0), (np.array([1.0, np.nan]), np.array([1.0, 1.0]))],
)
def test_close_nan_is_error(ctx, measured, expected):
    assert not ctx.close("nan", measured, expected, atol=1e300, why="w")
    assert last(ctx).outcome == "error" and last(ctx).verdict == "ERROR"


# -- bound -----------------------------------------------------------------------------------
def test_bound_both_sides(ctx):
    assert ctx.bound("le", 0.5, 1.0, why="w")
    c = last(ctx)
    assert (c.measured, c.expected, c.tolerance, c.outcome) == (0.5, 1.0, 0.0, "pass")
    assert not ctx.bound("le-fail", 1.5, 1.0, why="w")
    assert ctx.bound("ge", 2.0, 1.0, side=">=", why="w")
    assert not ctx.bound("ge-fail", 0.0, 1.0, side=">=", why="w")
    assert ctx.bound("equal is fine", 1.0, 1.0, why="w")


def test_bound_arrays_record_the_worst_element(ctx):
    assert not ctx.bound("arr", np.array([0.1, 3.0, 0.5]), np.array([1.0, 2.0, 1.0]), why="w")
    c = last(ctx)
    assert (c.measured, c.expected) == (3.0, 2.0)
    assert "worst of 3" in c.relation
    ctx.bound("arr-ge", np.array([5.0, 1.5, 9.0]), 1.0, side=">=", why="w")
    assert last(ctx).measured == 1.5 and last(ctx).outcome == "pass"


def test_bound_nan_is_error_and_bad_side_raises(ctx):
    assert not ctx.bound("nan", np.array([0.1, np.nan]), 1.0, why="w")
    assert last(ctx).outcome == "error"
    assert not ctx.bound("nan bound", 0.1, math.nan, why="w")
    assert last(ctx).outcome == "error"
    with pytest.raises(ValueError, match="side"):
        ctx.bound("bad", 1.0, 2.0, side="<", why="w")


# -- zero, holds, order, undecided ---------------------------------------------------------------
def test_zero_symbolic(ctx):
    x = sp.Symbol("x")
    assert ctx.zero("int", sp.Integer(0), why="exact")
    assert last(ctx).measured == "0" and last(ctx).kind == "symbolic"
    assert ctx.zero("matrix", sp.zeros(2, 2), why="exact")
    assert ctx.zero("list", [sp.Integer(0), sp.expand((x + 1) ** 2 - x**2 - 2 * x - 1)], why="exact")
    assert not ctx.zero("nonzero", [sp.Integer(0), x - 1], why="exact")
    assert "x - 1" in last(ctx).measured and last(ctx).outcome == "fail"
    assert not ctx.zero("nonzero matrix", sp.Matrix([[0, x]]), why="exact")


def test_holds(ctx):
    assert ctx.holds("accepts", True, measured="accepted", expected="accepted", why="w")
    assert last(ctx).outcome == "pass" and last(ctx).tolerance is None
    assert not ctx.holds("rejects", False, measured=3, expected=4, why="w")
    assert last(ctx).outcome == "fail"
    ctx.holds("nan", True, measured=math.nan, expected=1.0, why="w")
    assert last(ctx).outcome == "error"


def test_order_fits_the_log_log_slope_and_attaches_a_figure(ctx):
    x = np.geomspace(1e-3, 1e-1, 6)
    assert ctx.order("second order", x, 3.0 * x**2, expected=2.0, tol=0.05, why="w")
    c = last(ctx)
    assert c.measured == pytest.approx(2.0) and c.expected == 2.0 and c.tolerance == 0.05
    assert len(ctx.figures) == 1 and ctx.figures[0]["logx"] and ctx.figures[0]["logy"]
    assert not ctx.order("wrong order", x, 3.0 * x**2, expected=1.0, tol=0.05, why="w")
    assert last(ctx).outcome == "fail"


@pytest.mark.parametrize("bad", [math.nan, -1.0])
def test_order_with_negative_or_nan_error_is_error(ctx, bad):
    x = np.array([1.0, 2.0, 4.0])
    assert not ctx.order("o", x, np.array([1.0, bad, 3.0]), expected=1.0, tol=0.1, why="w")
    assert last(ctx).outcome == "error"


def test_order_with_an_exactly_zero_error_is_undecided(ctx):
    x = np.array([1.0, 2.0, 4.0])
    assert not ctx.order("o", x, np.array([1.0, 0.0, 3.0]), expected=1.0, tol=0.1, why="w")
    assert last(ctx).outcome == "inconclusive"


def test_undecided_is_inconclusive(ctx):
    ctx.undecided("below float64", "the effect is 1e-30 relative")
    c = last(ctx)
    assert c.outcome == "inconclusive" and c.verdict == "INCONCLUSIVE" and "1e-30" in c.why


# -- controls --------------------------------------------------------------------------------
def test_control_context_marks_checks_and_figures(ctx):
    ctx.close("main", 1.0, 1.0, why="w")
    with ctx.control("biases added", breaks="bias-free", must_break=["main"]):
        ctx.close("main", 2.0, 1.0, why="w")
        ctx.figure("fig", series=[Series("s", [1, 2], [3, 4])])
    ctx.close("after", 1.0, 1.0, why="w")
    controls = [c.control for c in ctx.checks]
    assert controls == ["", "biases added [breaks: bias-free]", ""]
    assert ctx.figures[0]["control"] == "biases added [breaks: bias-free]"
    assert decide(ctx.checks, erratum=None, crashed=False, controls=ctx.controls)[0] == Verdict.PASS
    assert ctx.controls[0].declared and ctx.controls[0].must_break == ("main",)


def test_control_is_reset_after_an_exception_and_cannot_nest(ctx):
    with pytest.raises(KeyError), ctx.control("a", breaks="h"):
        raise KeyError("boom")
    ctx.close("after", 1.0, 1.0, why="w")
    assert last(ctx).control == ""
    with (
        pytest.raises(RuntimeError, match="nested"),
        ctx.control("a", breaks="h"),
        ctx.control("b", breaks="h"),
    ):
        pass


# -- figures ---------------------------------------------------------------------------------
def test_figures_are_thinned_keeping_both_ends(ctx):
    n = 100_000
    x = np.arange(n, dtype=float)
    ctx.figure("long", series=[Series("s", x, x**2, "o")], xlabel="t", ylabel="e", logy=True)
    s = ctx.figures[0]["series"][0]
    assert 2 <= len(s["x"]) <= MAX_SERIES_POINTS and len(s["x"]) == len(s["y"])
    assert s["x"][0] == 0.0 and s["x"][-1] == n - 1
    assert np.all(np.diff(s["x"]) > 0)
    np.testing.assert_array_equal(np.square(s["x"]), s["y"])  # x and y thinned alike
    assert ctx.figures[0]["title"] == "long" and s["style"] == "o"


def test_short_series_are_kept_whole(ctx):
    x = list(range(MAX_SERIES_POINTS))
    ctx.figure("short", series=[Series("s", x, x)])
    assert ctx.figures[0]["series"][0]["x"] == [float(v) for v in x]


# -- params, rng, require, JSON ------------------------------------------------------------------
def test_param_follows_profile_and_overrides():
    assert make("tiny").param("n", tiny=1, quick=2, full=3) == 1
    assert make("quick").param("n", tiny=1, quick=2, full=3) == 2
    assert make("full").param("n", tiny=1, quick=2, full=3) == 3
    assert make("full").param("n", tiny=1, quick=2) == 2  # full defaults to quick
    c = make("tiny", H=7)
    assert c.param("H", tiny=1, quick=2) == 7 and c.param("n", tiny=5, quick=6) == 5
    assert c.params == {"H": 7, "n": 5}


def test_rng_is_seeded_by_run_seed_claim_and_key():
    a = make(seed=1).rng("k").normal((5,))
    np.testing.assert_array_equal(a, make(seed=1).rng("k").normal((5,)))
    assert not np.array_equal(a, make(seed=2).rng("k").normal((5,)))
    assert not np.array_equal(a, make(seed=1).rng("other").normal((5,)))
    assert not np.array_equal(a, make(seed=1, claim_id="test2025:lemma-2").rng("k").normal((5,)))


def test_require_raises_user_error_with_the_claim_id(ctx):
    ctx.require(True, "fine")
    with pytest.raises(UserError, match="test2025:lemma-1: orthogonal data need d >= n"):
        ctx.require(False, "orthogonal data need d >= n")


def test_records_are_json_serialisable(ctx):
    ctx.close("np scalars", np.float64(1.0), np.float32(1.0), why="w", details={"a": np.arange(3), 1: (2, 3)})
    ctx.bound("np arrays", np.ones(3), np.full(3, 2.0), why="w")
    ctx.holds("np bool", np.bool_(True), measured=np.int64(3), expected=np.array([1.0, 2.0]), why="w")
    ctx.note("a note")
    text = json.dumps(
        {"checks": [c.to_json() for c in ctx.checks], "figures": ctx.figures, "notes": ctx.notes}
    )
    back = json.loads(text)
    assert back["checks"][0]["details"] == {"a": [0, 1, 2], "1": [2, 3]}
    assert back["checks"][2]["expected"] == [1.0, 2.0]
    assert back["notes"] == ["a note"]


@pytest.mark.parametrize("measured", [np.float32("nan"), np.array([1.0, np.inf]), [1.0, math.nan]])
def test_holds_with_a_nonfinite_numpy_measurement_is_error(ctx, measured):
    ctx.holds("h", True, measured=measured, expected=1.0, why="w")
    assert last(ctx).outcome == "error"
