"""verify.verdict.decide: a PASS is earned by checks *and* by controls that fail."""

from __future__ import annotations

import pytest

from verify.verdict import Outcome, Verdict, decide


def check(outcome: str, control: str = "", name: str | None = None) -> dict:
    return {
        "name": name or f"{outcome}{'/' + control if control else ''}",
        "outcome": outcome,
        "control": control,
    }


P, F, I, E = (str(o) for o in (Outcome.PASS, Outcome.FAIL, Outcome.INCONCLUSIVE, Outcome.ERROR))
CTRL = "biases added [breaks: bias-free]"


def verdict(checks, *, erratum=False, crashed=False) -> Verdict:
    v, reason = decide(checks, erratum=erratum, crashed=crashed)
    assert isinstance(reason, str) and reason and "\n" not in reason
    return v


def test_pass_needs_a_failing_control():
    assert verdict([check(P), check(P), check(F, CTRL)]) == Verdict.PASS
    assert verdict([check(P), check(P, CTRL), check(F, CTRL)]) == Verdict.PASS  # one failing check suffices


def test_control_that_does_not_fail_is_inconclusive():
    v, reason = decide([check(P), check(P, CTRL)], erratum=False, crashed=False)
    assert v == Verdict.INCONCLUSIVE and "control did not fail" in reason and "biases added" in reason


def test_every_control_must_fail():
    other = "alpha = 3 [breaks: alpha in [0,1]]"
    assert verdict([check(P), check(F, CTRL), check(P, other)]) == Verdict.INCONCLUSIVE
    assert verdict([check(P), check(F, CTRL), check(F, other)]) == Verdict.PASS


def test_an_inconclusive_control_check_is_not_a_failure():
    assert verdict([check(P), check(I, CTRL)]) == Verdict.INCONCLUSIVE


def test_no_control_is_inconclusive():
    v, reason = decide([check(P), check(P)], erratum=False, crashed=False)
    assert v == Verdict.INCONCLUSIVE and "no negative control" in reason


def test_undecided_main_check_is_inconclusive():
    assert verdict([check(P), check(I), check(F, CTRL)]) == Verdict.INCONCLUSIVE


def test_failing_check_is_fail():
    v, reason = decide([check(P), check(F, name="odd part"), check(F, CTRL)], erratum=False, crashed=False)
    assert v == Verdict.FAIL and "odd part" in reason
    # a FAIL does not need a control, and beats INCONCLUSIVE
    assert verdict([check(F), check(I)]) == Verdict.FAIL


def test_fail_reason_lists_at_most_three_checks():
    _, reason = decide([check(F, name=f"c{i}") for i in range(5)], erratum=False, crashed=False)
    assert "c0" in reason and "c2" in reason and "c3" not in reason and reason.endswith("...")


def test_nan_measurement_is_error():
    for checks in ([check(E)], [check(P), check(E), check(F, CTRL)], [check(P), check(E, CTRL)]):
        assert verdict(checks) == Verdict.ERROR
    assert verdict([check(P), check(E)], erratum=True) == Verdict.ERROR  # also for errata


def test_crash_is_error_whatever_the_checks():
    assert verdict([check(P), check(F, CTRL)], crashed=True) == Verdict.ERROR
    assert verdict([], crashed=True) == Verdict.ERROR


def test_no_check_is_error():
    assert verdict([]) == Verdict.ERROR
    assert verdict([check(F, CTRL)]) == Verdict.ERROR  # only control checks


def test_erratum_reproduced_is_xfail_and_not_reproduced_is_xpass():
    assert verdict([check(P), check(F)], erratum=True) == Verdict.XFAIL
    assert verdict([check(P), check(P)], erratum=True) == Verdict.XPASS
    assert verdict([check(P), check(F, CTRL)], erratum=True) == Verdict.XPASS  # control failures don't count


@pytest.mark.parametrize(
    "v, failure",
    [
        (Verdict.PASS, False),
        (Verdict.XFAIL, False),
        (Verdict.INCONCLUSIVE, False),
        (Verdict.FAIL, True),
        (Verdict.XPASS, True),
        (Verdict.ERROR, True),
    ],
)
def test_which_verdicts_are_failures(v, failure):
    assert v.is_failure is failure


def test_verdicts_are_strings():
    assert str(Verdict.PASS) == "PASS" and Verdict("XFAIL") is Verdict.XFAIL
    assert str(Outcome.FAIL) == "fail"
