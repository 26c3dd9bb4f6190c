"""verify.verdict.decide: a PASS is earned by checks *and* by controls that fail."""

from __future__ import annotations

from dataclasses import replace

import pytest
from cli_support import fake_check

from verify.hypotheses import Hypothesis
from verify.records import Check, ControlDeclaration, Erratum, HypothesisRecord, Scale
from verify.verdict import Outcome, Verdict, decide


def check(outcome: str, control: str = "", name: str | None = None) -> Check:
    name = name or f"{outcome}{'/' + control if control else ''}"
    return fake_check(name, outcome=Outcome(outcome), control=control)


P, F, I, E = (str(o) for o in (Outcome.PASS, Outcome.FAIL, Outcome.INCONCLUSIVE, Outcome.ERROR))
CTRL = "biases added [breaks: bias-free]"


def ctl(
    label: str = CTRL, must: tuple[str, ...] = ("odd part",), declared: bool = True
) -> ControlDeclaration:
    return ControlDeclaration(label, label.split("breaks: ")[-1][:-1], declared, must)


PRINTED = Erratum("printed wrongly")  # an erratum that names no checks: any failure reproduces it


def verdict(checks, *, erratum=None, crashed=False, controls=None, regimes=(), scale=None) -> Verdict:
    if controls is None:
        controls = [ctl(label) for label in dict.fromkeys(c.control for c in checks if c.control)]
    v, reason = decide(
        checks, erratum=erratum, crashed=crashed, controls=controls, regimes=regimes, scale=scale
    )
    assert isinstance(reason, str) and reason and "\n" not in reason
    return v


def test_pass_needs_the_named_conclusion_to_fail_in_the_control():
    ok = [check(P, name="odd part"), check(P)]
    assert verdict([*ok, check(F, CTRL, "odd part")]) == Verdict.PASS
    assert verdict([*ok, check(P, CTRL, "other"), check(F, CTRL, "odd part")]) == Verdict.PASS
    # a control that fails some *other* check backs nothing in particular
    v, reason = decide(
        [*ok, check(F, CTRL, "other"), check(P, CTRL, "odd part")],
        erratum=None,
        crashed=False,
        controls=[ctl()],
    )
    assert v == Verdict.INCONCLUSIVE and "did not break 'odd part'" in reason


def test_control_conclusions_may_be_patterns_and_one_failing_instance_breaks_them():
    ok = [check(P, name="odd part [alpha=0]"), check(P, name="odd part [alpha=1]")]
    inside = [check(P, CTRL, "odd part [alpha=0]"), check(F, CTRL, "odd part [alpha=1]")]
    assert verdict([*ok, *inside], controls=[ctl(must=("odd part [[]*",))]) == Verdict.PASS


def test_control_must_name_a_declared_hypothesis_and_a_conclusion():
    checks = [check(P, name="odd part"), check(F, CTRL, "odd part")]
    for bad, words in (
        (ctl(declared=False), "not a declared hypothesis"),
        (ctl(must=()), "names no conclusion"),
        (ctl(must=("nonexistent",)), "not a conclusion"),
    ):
        v, reason = decide(checks, erratum=None, crashed=False, controls=[bad])
        assert v == Verdict.INCONCLUSIVE and words in reason
    # the conclusion must also have been run inside the control
    v, reason = decide([*checks[:1], check(F, CTRL, "x")], erratum=None, crashed=False, controls=[ctl()])
    assert v == Verdict.INCONCLUSIVE and "did not run" in reason


def test_control_that_does_not_fail_is_inconclusive():
    v, reason = decide(
        [check(P, name="odd part"), check(P, CTRL, "odd part")],
        erratum=None,
        crashed=False,
        controls=[ctl()],
    )
    assert v == Verdict.INCONCLUSIVE and "did not break" in reason and "biases added" in reason


def test_every_control_must_fail():
    other = "alpha = 3 [breaks: alpha in [0,1]]"
    base = [check(P, name="odd part"), check(F, CTRL, "odd part")]
    assert verdict([*base, check(P, other, "odd part")]) == Verdict.INCONCLUSIVE
    assert verdict([*base, check(F, other, "odd part")]) == Verdict.PASS


def test_regime_not_reached_is_inconclusive_even_for_a_failing_check():
    regime = [HypothesisRecord("p << n", "p << n", "p <= n / 4", False, "p = 25, n = 12")]
    checks = [check(F, name="odd part"), check(F, CTRL, "odd part")]
    v, reason = decide(checks, erratum=None, crashed=False, controls=[ctl()], regimes=regime)
    assert v == Verdict.INCONCLUSIVE and "regime not reached" in reason and "p <= n / 4" in reason
    reached = [replace(regime[0], reached=True)]
    assert verdict([check(P, name="odd part"), check(F, CTRL, "odd part")], regimes=reached) == Verdict.PASS


def test_failure_at_reduced_scale_needs_persistence_to_be_a_fail():
    checks = [check(F, name="odd part")]
    scale = Scale("reduced scale", "n = 300 instead of 3000", persists=False)
    assert verdict(checks, scale=scale) == Verdict.INCONCLUSIVE
    assert verdict(checks, scale=replace(scale, persists=True)) == Verdict.FAIL


def test_an_inconclusive_control_check_is_not_a_failure():
    assert verdict([check(P), check(I, CTRL)]) == Verdict.INCONCLUSIVE


def test_no_control_is_inconclusive():
    v, reason = decide([check(P), check(P)], erratum=None, crashed=False)
    assert v == Verdict.INCONCLUSIVE and "no negative control" in reason


def test_undecided_main_check_is_inconclusive():
    assert verdict([check(P, name="odd part"), check(I), check(F, CTRL, "odd part")]) == Verdict.INCONCLUSIVE


def test_failing_check_is_fail():
    v, reason = decide([check(P), check(F, name="odd part"), check(F, CTRL)], erratum=None, crashed=False)
    assert v == Verdict.FAIL and "odd part" in reason
    # a FAIL does not need a control, and beats INCONCLUSIVE
    assert verdict([check(F), check(I)]) == Verdict.FAIL


def test_fail_reason_lists_at_most_three_checks():
    _, reason = decide([check(F, name=f"c{i}") for i in range(5)], erratum=None, crashed=False)
    assert "c0" in reason and "c2" in reason and "c3" not in reason and reason.endswith("...")


def test_nan_measurement_is_error():
    for checks in ([check(E)], [check(P), check(E), check(F, CTRL)], [check(P), check(E, CTRL)]):
        assert verdict(checks) == Verdict.ERROR
    assert verdict([check(P), check(E)], erratum=PRINTED) == Verdict.ERROR  # also for errata


def test_crash_is_error_whatever_the_checks():
    assert verdict([check(P), check(F, CTRL)], crashed=True) == Verdict.ERROR
    assert verdict([], crashed=True) == Verdict.ERROR


def test_no_check_is_error():
    assert verdict([]) == Verdict.ERROR
    assert verdict([check(F, CTRL)]) == Verdict.ERROR  # only control checks


def test_erratum_reproduced_is_xfail_and_not_reproduced_is_xpass():
    assert verdict([check(P), check(F)], erratum=PRINTED) == Verdict.XFAIL
    assert verdict([check(P), check(P)], erratum=PRINTED) == Verdict.XPASS
    assert verdict([check(P), check(F, CTRL)], erratum=PRINTED) == Verdict.XPASS  # control failures: no count


def test_an_erratum_covers_only_the_checks_it_is_shown_by():
    printed = check(F, name="(15) as printed: max deviation")
    other = check(F, name="(30) solves (29)")

    def decided(*checks):
        return decide(list(checks), erratum=Erratum("printed", shown_by=("(15) as printed*",)), crashed=False)

    assert decided(check(P), printed)[0] == Verdict.XFAIL
    v, reason = decided(printed, other)  # a second fault is not the documented one
    assert v == Verdict.FAIL and "beyond the documented erratum: (30) solves (29)" in reason
    assert decided(check(P), other)[0] == Verdict.FAIL
    assert decided(check(P), check(P))[0] == Verdict.XPASS


def test_every_builtin_erratum_names_the_checks_it_is_shown_by():
    from verify.registry import all_claims

    errata = {i: c.erratum for i, c in all_claims().items() if c.erratum}
    assert errata and all(e.shown_by for e in errata.values()), [
        i for i, e in errata.items() if not e.shown_by
    ]


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


# -- the regime must be measured: a hypothesis with a quantitative test that no reading records --
TESTED = Hypothesis("p << n", "p << n", "p <= n / 4", test=lambda p, n: p <= n / 4)
WORDING = Hypothesis("bias-free")


def test_an_unmeasured_quantitative_hypothesis_keeps_a_holding_claim_from_passing():
    checks = [check(P, name="odd part"), check(F, CTRL, "odd part")]
    v, reason = decide(checks, erratum=None, crashed=False, controls=[ctl()], hypotheses=[WORDING, TESTED])
    assert v == Verdict.INCONCLUSIVE and reason == "regime not measured: p << n"
    measured = [HypothesisRecord("p << n", "p << n", "p <= n / 4", True, "p = 2, n = 12")]
    v, _ = decide(
        checks, erratum=None, crashed=False, controls=[ctl()], regimes=measured, hypotheses=[TESTED]
    )
    assert v == Verdict.PASS


def test_structural_hypotheses_alone_ask_for_no_regime_reading():
    checks = [check(P, name="odd part"), check(F, CTRL, "odd part")]
    v, _ = decide(checks, erratum=None, crashed=False, controls=[ctl()], hypotheses=[WORDING])
    assert v == Verdict.PASS


def test_a_failure_with_its_regime_unmeasured_is_inconclusive_and_names_the_failure():
    v, reason = decide([check(F, name="odd part")], erratum=None, crashed=False, hypotheses=[TESTED])
    assert v == Verdict.INCONCLUSIVE
    assert reason.startswith("regime not measured: p << n") and "failed: odd part" in reason


def test_an_erratum_is_not_subject_to_the_unmeasured_rule():
    assert decide([check(F)], erratum=PRINTED, crashed=False, hypotheses=[TESTED])[0] == Verdict.XFAIL
    assert decide([check(P)], erratum=PRINTED, crashed=False, hypotheses=[TESTED])[0] == Verdict.XPASS


def test_a_regime_outside_is_reported_before_one_unmeasured():
    other = Hypothesis("d >= n", condition="d >= n", test=lambda d, n: d >= n)
    outside = [HypothesisRecord("p << n", "p << n", "p <= n / 4", False, "p = 25, n = 12")]
    v, reason = decide([check(P)], erratum=None, crashed=False, regimes=outside, hypotheses=[TESTED, other])
    assert v == Verdict.INCONCLUSIVE and "regime not reached" in reason
