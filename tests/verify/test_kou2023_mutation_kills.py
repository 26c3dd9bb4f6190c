"""kou2023 checks added so that a wrong constant cannot pass (mutplan19 items 6, 7, 9, 14): Lemma H.2's
exact grid from t = 0, where it holds with equality; the two-sided remainder of the corrected Lemma 5.3;
Lemma H.3's threshold read against entries +-3/4; and (5.1)'s span check against an out-of-span drift."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.kou2023 import decomposition, sequences
from verify.plugin import run
from verify.profiles import get_profile

LOOSE = "remainder not loose"
FLOOR = f"{LOOSE}: min over C of kappa_C (e^x_T/(e^x0 + C T) - 1)/remainder(T), T = 300"


def make(claim: str) -> Context:
    return Context(claim, get_backend("numpy"), get_profile("tiny"), 0)


def outcomes(ctx: Context) -> dict[str, str]:
    return {c.name.split(" [")[0]: c.outcome for c in ctx.checks}


def test_the_exact_grid_starts_where_the_bounds_hold_with_equality():
    """At t = 0 both margins are 0 to 50 digits: the -1e-40 rounding allowance is what decides there."""
    ctx = make("kou2023:lemma-5.3-corrected")
    sequences._exact_sequences(ctx, 300, 1.0, "both", x0=0.0)
    margins = {c.name.split(" [")[0]: c.measured for c in ctx.checks if "bound margin" in c.name}
    assert set(margins) == {"lower bound margin", "upper bound margin"}
    assert all(abs(v) < 1e-45 for v in margins.values())


def test_a_looser_remainder_fails_the_floor(monkeypatch):
    """e^(C e^(+x0)) in place of e^(C e^(-x0)) (x110 at C = 2, x0 = 1) is caught; the true one passes."""
    ctx = make("kou2023:lemma-5.3-corrected")
    sequences._exact_sequences(ctx, 300, 1.0, "lower", x0=1.0)
    assert outcomes(ctx)[FLOOR] == "pass"

    def looser(x0, C, t):
        e = np.exp(-x0)
        return C * np.exp(C / e) * (C * e + np.log1p(C * t * e)) / (2 * (np.exp(x0) + C * t))

    monkeypatch.setattr(sequences, "equality_remainder", looser)
    ctx = make("kou2023:lemma-5.3-corrected")
    sequences._exact_sequences(ctx, 300, 1.0, "lower", x0=1.0)
    assert {k: v for k, v in outcomes(ctx).items() if k.startswith(LOOSE)} == {FLOOR: "fail"}


def test_lemma_h3_and_definition_51_controls_break():
    for claim in ("kou2023:lemma-H.3", "kou2023:definition-5.1"):
        record = run(claim, profile="tiny")
        assert record.verdict == "PASS", record.reason
        assert all(c.ok for c in record.controls), record.controls


def test_a_vacuous_span_allowance_is_caught(monkeypatch):
    """With the span check's allowance made vacuous (64/eps) the drift control no longer breaks it."""
    monkeypatch.setattr(decomposition, "EPS", 1 / decomposition.EPS)
    record = run("kou2023:definition-5.1", profile="tiny")
    assert record.verdict != "PASS"
    drift = next(c for c in record.controls if "towards a fixed random anchor" in c.label)
    assert not drift.ok
