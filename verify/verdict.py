"""Verdicts of checks and claims, and the rule that combines them.

A claim's verdict is earned:

* ERROR        -- the claim crashed, or a check measured NaN/inf (a NaN is never a PASS).
* FAIL         -- a check of the statement failed where its hypotheses hold.
* XFAIL        -- the claim is a documented erratum and its checks fail as documented.
* XPASS        -- a documented erratum whose checks pass (strict, like pytest's xfail).
* INCONCLUSIVE -- the claim was stopped at the run's time limit before it finished; a check
                  could not be decided (regime unreachable in float64, a probability
                  without power, an order fit that cannot separate neighbouring orders); the
                  run did not reach the quantitative regime of a hypothesis, or never measured
                  it (a hypothesis with a quantitative ``test`` that no ``ctx.regime`` recorded:
                  the checks may hold or fail outside the statement's hypotheses); a failure seen
                  only at reduced scale; or the claim has no negative control, or a control
                  did not break the conclusions it names (then the checks were never shown
                  able to fail for the reason that matters, so they cannot earn a PASS).
* PASS         -- every check holds in the regime of the hypotheses, and every control breaks
                  a declared hypothesis and, with it, the conclusions that depend on it.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from verify.hypotheses import Hypothesis
from verify.records import (
    Check,
    Control,
    ControlDeclaration,
    Erratum,
    HypothesisRecord,
    Outcome,
    Scale,
    Verdict,
)

__all__ = ["Outcome", "Verdict", "control_outcomes", "decide", "matches", "outside_regime", "unmeasured"]


def control_outcomes(checks: Sequence[Check], controls: Sequence[ControlDeclaration]) -> list[Control]:
    """For each control: which of its ``must_break`` conclusions broke, which held, and why not ok.

    A conclusion (a check name or ``fnmatch`` pattern) *broke* when at least one check of
    that name recorded inside the control failed. The control is ok when it breaks a
    declared hypothesis, names at least one conclusion, every named conclusion is a check
    of the claim itself, and every one of them broke.
    """
    main_names = [c.name for c in checks if not c.control]
    out = []
    for ctl in controls:
        inside = [c for c in checks if c.control == ctl.label]
        broke, held, problems = [], [], []
        if not ctl.declared:
            problems.append(f"breaks {ctl.breaks!r}, which is not a declared hypothesis of the claim")
        if not ctl.must_break:
            problems.append("names no conclusion it must break")
        for pattern in ctl.must_break:
            mine = [c for c in inside if matches(pattern, c.name)]
            if not any(matches(pattern, n) for n in main_names):
                problems.append(f"'{pattern}' is not a conclusion (check) of the claim")
            elif not mine:
                problems.append(f"did not run the conclusion '{pattern}'")
            elif any(c.outcome == Outcome.FAIL for c in mine):
                broke.append(pattern)
            else:
                held.append(pattern)
        if held:
            problems.append(f"did not break {', '.join(repr(h) for h in held)}")
        out.append(
            Control(
                **vars(ctl), broke=tuple(broke), held=tuple(held), ok=not problems, problems=tuple(problems)
            )
        )
    return out


def outside_regime(regimes: Sequence[HypothesisRecord]) -> str:
    """``p << n: p = 22, n = 6, needs p <= n / 4; ...`` for the regime records not reached."""
    return "; ".join(f"{r.name}: {r.measured}, needs {r.condition}" for r in regimes if not r.reached)


def unmeasured(hypotheses: Sequence[Hypothesis], regimes: Sequence[HypothesisRecord]) -> list[str]:
    """Names of the ``hypotheses`` with a quantitative ``test`` that no regime reading records."""
    recorded = {r.name for r in regimes}
    return [h.name for h in hypotheses if h.test is not None and h.name not in recorded]


def _first(names: Sequence[str], count: int = 3) -> str:
    """``a, b, c ...``: the first ``count`` names, and an ellipsis when there are more."""
    return ", ".join(names[:count]) + (" ..." if len(names) > count else "")


def matches(pattern: str, name: str) -> bool:
    """Whether a check ``name`` is the conclusion ``pattern`` names (itself, or an ``fnmatch`` pattern)."""
    return name == pattern or fnmatch.fnmatchcase(name, pattern)


def decide(
    checks: Sequence[Check],
    *,
    erratum: Erratum | None,
    crashed: bool,
    stopped_at: float | None = None,
    controls: Sequence[ControlDeclaration] = (),
    regimes: Sequence[HypothesisRecord] = (),
    hypotheses: Sequence[Hypothesis] = (),
    scale: Scale | None = None,
) -> tuple[Verdict, str]:
    """Combine checks into a claim verdict and a one-line reason.

    ``checks`` are those of :class:`verify.context.Context`; a check with a non-empty
    ``control`` belongs to a negative control. ``controls`` are the control declarations
    (see :func:`control_outcomes`), ``regimes`` the regime readings of the claim's
    hypotheses, ``hypotheses`` the ones the claim assumes and ``scale`` the reduced-scale /
    stand-in label, if any; ``stopped_at`` the time limit that stopped the claim unfinished, if one
    did (its checks are a prefix of the claim's: INCONCLUSIVE); ``erratum`` the claim's documented
    erratum, if it is one: a failing check outside those it is shown by
    (:attr:`verify.records.Erratum.shown_by`) is a FAIL, not the erratum.

    The regime comes before the checks: a run outside a hypothesis's regime, or one that
    never measured a hypothesis with a quantitative ``test`` (:func:`unmeasured`), is
    INCONCLUSIVE whether its checks hold or fail -- a failure there may be the run's, not
    the statement's, exactly as outside the regime. A hypothesis with wording only (no
    ``test``) asks for no reading. A documented erratum that reproduces stays XFAIL either
    way (the printed statement is shown wrong by the failing instance itself), and one that
    did not reproduce stays XPASS (strict: the erratum documentation must be revisited).
    """
    if crashed:
        return Verdict.ERROR, "the claim raised an exception"
    if stopped_at is not None:
        return Verdict.INCONCLUSIVE, (
            f"stopped at the run's time limit of {stopped_at:g} s, unfinished (it costs more than that "
            f"here); the {len(checks)} checks recorded before the stop decide nothing"
        )
    main = [c for c in checks if not c.control]
    if not main:
        return Verdict.ERROR, "the claim recorded no check"
    if any(c.outcome == Outcome.ERROR for c in checks):
        bad = next(c.name for c in checks if c.outcome == Outcome.ERROR)
        return Verdict.ERROR, f"non-finite measurement in check '{bad}'"
    failed = [c.name for c in main if c.outcome == Outcome.FAIL]
    undecided = [c.name for c in main if c.outcome == Outcome.INCONCLUSIVE]
    outside = [r for r in regimes if not r.reached]
    missing = unmeasured(hypotheses, regimes)
    label = f" [{scale.kind}: {scale.reason}]" if scale else ""
    if erratum and failed:
        shown_by = erratum.shown_by
        beyond = [f for f in failed if shown_by and not any(matches(p, f) for p in shown_by)]
        if beyond:
            return Verdict.FAIL, f"failed beyond the documented erratum: {_first(beyond)}{label}"
        return Verdict.XFAIL, f"documented erratum reproduced ({len(failed)} failing checks){label}"
    if outside:
        return Verdict.INCONCLUSIVE, f"regime not reached at this profile ({outside_regime(outside)})"
    listed = _first(failed)
    if missing and not erratum:
        seen = f" (failed: {listed}, with the hypotheses unverified on this run)" if failed else ""
        return Verdict.INCONCLUSIVE, f"regime not measured: {', '.join(missing)}{seen}"
    if failed:
        if scale and not scale.persists:
            return Verdict.INCONCLUSIVE, (
                f"failed at {scale.kind} ({listed}), not shown to persist towards the paper's scale{label}"
            )
        return Verdict.FAIL, f"failed: {listed}{label}"
    if undecided:
        return Verdict.INCONCLUSIVE, f"undecided: {_first(undecided)}"
    if erratum:
        return Verdict.XPASS, "documented erratum did not reproduce: every check passed"
    if not controls:
        return Verdict.INCONCLUSIVE, "no negative control: the checks were never shown able to fail"
    bad = [c for c in control_outcomes(checks, controls) if not c.ok]
    if bad:
        first = bad[0]
        more = f" (+{len(bad) - 1} more controls)" if len(bad) > 1 else ""
        return Verdict.INCONCLUSIVE, f"control '{first.label}' {'; '.join(first.problems)}{more}"
    return Verdict.PASS, f"{len(main)} checks hold; {len(controls)} controls break their conclusions{label}"
