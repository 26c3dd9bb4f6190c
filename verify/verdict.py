"""Verdicts of checks and claims, and the rule that combines them.

A claim's verdict is earned:

* ERROR        -- the claim crashed, or a check measured NaN/inf (a NaN is never a PASS).
* FAIL         -- a check of the statement failed where its hypotheses hold.
* XFAIL        -- the claim is a documented erratum and its checks fail as documented.
* XPASS        -- a documented erratum whose checks pass (strict, like pytest's xfail).
* INCONCLUSIVE -- a check could not be decided (regime unreachable in float64), or the
                  claim has no negative control, or a control did not visibly fail (then the
                  check had no power to detect a violation, so it cannot earn a PASS).
* PASS         -- every check holds and every control fails visibly.
"""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"
    XFAIL = "XFAIL"
    XPASS = "XPASS"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"

    @property
    def is_failure(self) -> bool:
        """Verdicts that make ``verify run`` exit non-zero."""
        return self in (Verdict.FAIL, Verdict.XPASS, Verdict.ERROR)


class Outcome(StrEnum):
    """Outcome of one check."""

    PASS = "pass"
    FAIL = "fail"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"


def decide(checks: list[dict], *, erratum: bool, crashed: bool) -> tuple[Verdict, str]:
    """Combine check records into a claim verdict and a one-line reason.

    ``checks`` are the records of :class:`verify.context.Context`; a record with a
    non-empty ``control`` belongs to a negative control, which *must* fail.
    """
    if crashed:
        return Verdict.ERROR, "the claim raised an exception"
    main = [c for c in checks if not c["control"]]
    controls: dict[str, list[dict]] = {}
    for c in checks:
        if c["control"]:
            controls.setdefault(c["control"], []).append(c)
    if not main:
        return Verdict.ERROR, "the claim recorded no check"
    if any(c["outcome"] == Outcome.ERROR for c in checks):
        bad = next(c["name"] for c in checks if c["outcome"] == Outcome.ERROR)
        return Verdict.ERROR, f"non-finite measurement in check '{bad}'"
    failed = [c["name"] for c in main if c["outcome"] == Outcome.FAIL]
    undecided = [c["name"] for c in main if c["outcome"] == Outcome.INCONCLUSIVE]
    if erratum and failed:
        return Verdict.XFAIL, f"documented erratum reproduced ({len(failed)} failing checks)"
    if failed:
        return Verdict.FAIL, f"failed: {', '.join(failed[:3])}" + (" ..." if len(failed) > 3 else "")
    if undecided:
        return Verdict.INCONCLUSIVE, f"undecided: {', '.join(undecided[:3])}"
    if erratum:
        return Verdict.XPASS, "documented erratum did not reproduce: every check passed"
    if not controls:
        return Verdict.INCONCLUSIVE, "no negative control: the checks were never shown able to fail"
    silent = [name for name, cs in controls.items() if not any(c["outcome"] == Outcome.FAIL for c in cs)]
    if silent:
        return Verdict.INCONCLUSIVE, f"control did not fail: {', '.join(silent)}"
    return Verdict.PASS, f"{len(main)} checks hold; {len(controls)} controls fail as they must"
