"""kou2023 checks that catch the formula faults MUTFIX21 found surviving the campaign at cac89c2: Lemma
H.4's search must leave the equality sets b = a and t = s; Definition 5.1's independence margin lies
between its Gershgorin and Rayleigh bounds; the corrected Lemma 5.3's kappa_C equals the product of the two
bounds it is derived from, and the excess floor lies below the exact excess."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.kou2023 import decomposition, sequences
from verify.plugin import run
from verify.profiles import get_profile

EXPLORED = "search explored the strict interior"


def make(claim: str) -> Context:
    return Context(claim, get_backend("numpy"), get_profile("tiny"), 0)


def _check(record, prefix: str):
    return next(c for c in record.checks if c.name.startswith(prefix))


def test_lemma_h4_search_reaches_b_far_above_a():
    record = run("kou2023:lemma-H.4", profile="tiny")
    assert record.verdict == "PASS", record.reason
    assert _check(record, EXPLORED).measured >= sequences.H4_SPREAD


def test_a_search_collapsed_onto_b_equal_a_fails(monkeypatch):
    """The campaign's survivor b = a (1 + beta^2) -> b = a: every instance on the equality set, ratio 1."""
    true = sequences._h4_instance

    def collapsed(theta):
        a, _, s, t = true(theta)
        return a, a, s, t

    monkeypatch.setattr(sequences, "_h4_instance", collapsed)
    record = run("kou2023:lemma-H.4", profile="tiny")
    assert record.verdict == "FAIL"
    assert _check(record, EXPLORED).outcome == "fail"


BRACKET = "independence margin bracketed"


def test_independence_margin_bracket():
    """Near-orthogonal rows: Gershgorin's floor is positive, and the true margin sits inside the bracket; the
    campaign's survivor lambda_min(G) R_max^2 (for / R_max^2) falls outside it; so does a wrong eigenvalue."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4, 400)) * np.array([1.0, 1.2, 0.9, 1.1])[:, None]
    lam = float(np.linalg.eigvalsh(X @ X.T).min())
    R2max = float((X * X).sum(axis=1).max())
    for margin, outcome in ((lam / R2max, "pass"), (lam * R2max, "fail"), (1.5 * lam / R2max, "fail")):
        ctx = make("kou2023:definition-5.1")
        decomposition.check_margin_bracket(ctx, X, margin)
        (check,) = ctx.checks
        assert check.name.startswith(BRACKET) and check.outcome == outcome, (margin, check.details)
        assert check.details["lower"] > 0


def test_definition_51_records_the_bracket():
    record = run("kou2023:definition-5.1", profile="tiny")
    assert record.verdict == "PASS", record.reason
    assert _check(record, BRACKET).outcome == "pass"


KAPPA = "kappa_C = (remainder / excess_floor)(T)"
ABOVE = "excess above its floor"


def _exact(x0: float) -> dict[str, str]:
    ctx = make("kou2023:lemma-5.3-corrected")
    sequences._exact_sequences(ctx, 300, 1.0, "lower", x0=x0)
    return {c.name: c.outcome for c in ctx.checks}


def _outcome(outcomes: dict[str, str], prefix: str) -> str:
    (outcome,) = [v for k, v in outcomes.items() if k.startswith(prefix)]
    return outcome


def test_kappa_identity_and_excess_floor_hold():
    for x0 in (0.0, 1.0):
        outcomes = _exact(x0)
        assert _outcome(outcomes, KAPPA) == _outcome(outcomes, ABOVE) == "pass"


def test_a_changed_kappa_is_caught(monkeypatch):
    """The campaign's survivor e^(C e^-x0) -> e^(C e^x0) inside kappa_C: equal at x0 = 0, caught at x0 = 1."""
    true = sequences.remainder_floor_factor
    monkeypatch.setattr(
        sequences,
        "remainder_floor_factor",
        lambda x0, C, T: true(x0, C, T) * np.exp(C * (np.exp(x0) - np.exp(-x0))),
    )
    assert _outcome(_exact(1.0), KAPPA) == "fail"


def test_a_floor_above_the_excess_is_caught(monkeypatch):
    true = sequences.excess_floor
    monkeypatch.setattr(sequences, "excess_floor", lambda x0, C, t: 1.01 * true(x0, C, t))
    assert _outcome(_exact(1.0), ABOVE) == "fail"
