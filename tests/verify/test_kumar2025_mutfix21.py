"""kumar2025 Lemma 14: the Euler search's kink start is checked to be on the kink before it is searched from
(MUTFIX21: the campaign at cac89c2's survivor ncf.py:123 moved it off the kink unseen)."""

from __future__ import annotations

import numpy as np

from verify.papers.kumar2025 import ncf
from verify.plugin import run

KINK = "the kink start is on the kink"


def _kink_check(record):
    return next(c for c in record.checks if c.name.startswith(KINK))


def test_the_kink_start_is_on_the_kink():
    record = run("kumar2025:lemma-14", profile="tiny")
    assert record.verdict == "PASS", record.reason
    assert _kink_check(record).measured <= ncf.KINK_ROUNDING


def test_a_start_off_the_kink_fails(monkeypatch):
    """The Gaussian start unprojected (the survivor, a projection scaled by |x|^4, also left it off)."""
    monkeypatch.setattr(ncf, "_kink_start", np.copy)
    record = run("kumar2025:lemma-14", profile="tiny")
    assert record.verdict == "FAIL"
    assert _kink_check(record).outcome == "fail"
