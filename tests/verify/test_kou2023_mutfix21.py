"""kou2023 checks that catch the formula faults MUTFIX21 found surviving the campaign at cac89c2: Lemma
H.4's search must leave the equality sets b = a and t = s."""

from __future__ import annotations

from verify.papers.kou2023 import sequences
from verify.plugin import run

EXPLORED = "search explored the strict interior"


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
