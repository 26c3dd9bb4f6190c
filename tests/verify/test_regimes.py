"""verify.regimes (the worst reading over a claim's instances is recorded) and the regime a run's record
states: reached, not reached, not measured, or structural hypotheses only."""

from __future__ import annotations

import math

import pytest

from numeric.backend import get_backend
from verify.claim import Claim
from verify.context import Context
from verify.hypotheses import Hypothesis
from verify.profiles import get_profile
from verify.records import Record, Regime
from verify.regimes import Reading, record_worst, worst
from verify.runner import run_claim

P_LL_N = Hypothesis("p << n", condition="p <= n / 4", test=lambda p, n: p <= n / 4)
D_GE_N = Hypothesis("d >= n", condition="d >= n", test=lambda d, n: d >= n)
BIAS_FREE = Hypothesis("bias-free")


def make(*hypotheses: Hypothesis) -> Context:
    return Context("test2025:lemma-1", get_backend("numpy"), get_profile("tiny"), 0, hypotheses=hypotheses)


def ratio(p: int, n: int) -> Reading:
    return Reading(p / n, {"p": p, "n": n})


def test_the_worst_instance_is_recorded_not_the_first_or_the_last():
    ctx = make(P_LL_N)
    record_worst(ctx, [{"p << n": ratio(2, 12)}, {"p << n": ratio(5, 12)}, {"p << n": ratio(1, 12)}])
    (r,) = ctx.regimes
    assert not r.reached and r.measured == "p = 5, n = 12"


def test_a_nan_reading_is_the_worst_and_never_passes():
    found = worst([{"h": Reading(1.0)}, {"h": Reading(math.nan)}, {"h": Reading(2.0)}])
    assert math.isnan(found["h"].outside)
    assert worst([{"h": Reading(math.nan, {"k": 1})}, {"h": Reading(math.nan, {"k": 2})}])[
        "h"
    ].quantities == {"k": 1}


def test_without_a_list_every_quantitative_hypothesis_the_readings_cover_is_recorded():
    ctx = make(P_LL_N, D_GE_N, BIAS_FREE)
    # readings of a hypothesis the claim does not assume are ignored; D_GE_N is not read at all
    record_worst(ctx, [{"p << n": ratio(1, 12), "other": Reading(9.0)}])
    assert [r.name for r in ctx.regimes] == ["p << n"] and ctx.regimes[0].reached


def test_a_listed_hypothesis_no_instance_reads_is_an_error():
    with pytest.raises(ValueError, match="d >= n"):
        record_worst(make(P_LL_N, D_GE_N), [{"p << n": ratio(1, 12)}], [P_LL_N, D_GE_N])


# -- the record's regime, through a whole run ---------------------------------------------------


def _run(body, *hypotheses: Hypothesis | str) -> Record:
    claim = Claim("fake2025:lemma-1", "fake", "nowhere", "x = y", tuple(hypotheses), body)
    return run_claim(claim, backend=get_backend("numpy"), profile=get_profile("tiny"), seed=0)


def _holds(ctx: Context) -> None:
    ctx.close("holds", 1.0, 1.0, why="exact")
    with ctx.control("broken", breaks="bias-free", must_break=["holds"]):
        ctx.close("holds", 1.0, 2.0, why="exact")


def _holds_in_regime(ctx: Context) -> None:
    ctx.regime(P_LL_N, p=2, n=12)
    _holds(ctx)


def _holds_outside(ctx: Context) -> None:
    ctx.regime(P_LL_N, p=6, n=12)
    _holds(ctx)


def test_record_states_the_regime_as_one_of_four_states():
    reached = _run(_holds_in_regime, P_LL_N, BIAS_FREE)
    assert reached.verdict == "PASS" and reached.regime == Regime(True, "p << n: p = 2, n = 12")
    assert reached.regime.state == "reached"

    outside = _run(_holds_outside, P_LL_N, D_GE_N, BIAS_FREE)
    assert outside.verdict == "INCONCLUSIVE" and outside.regime.state == "not reached"
    assert (
        outside.regime.reason == "not reached (p << n: p = 6, n = 12, needs p <= n / 4); not measured: d >= n"
    )

    partly = _run(_holds_in_regime, P_LL_N, D_GE_N, BIAS_FREE)
    assert partly.verdict == "INCONCLUSIVE" and partly.reason == "regime not measured: d >= n"
    assert partly.regime == Regime(None, "not measured: d >= n (reached: p << n: p = 2, n = 12)")
    assert partly.regime.state == "not measured"

    structural = _run(_holds, BIAS_FREE)
    assert structural.verdict == "PASS" and structural.regime.state == "structural only"
    assert structural.regime.reason == "no quantitative hypothesis (structural hypotheses only: bias-free)"
    for r in (reached, outside, partly, structural):
        assert Record.from_json(r.to_json()) == r


def test_a_record_written_before_the_states_were_named_reads_as_not_measured():
    assert Regime(None, "no quantitative regime measured").state == "not measured"
