"""kumar2025's search objectives are shortfalls over allowances: no constant floor (issue 14)."""

from __future__ import annotations

import numpy as np

import verify.papers.kumar2025.lemmas as lemmas
from verify.papers.kumar2025.lemmas import _lemma21_violation


def test_lemma21_violation_is_far_below_one_on_a_benign_instance() -> None:
    """The invariant |v| <= sqrt|x^T y| is attained in the limit; its plain ratio sat at 1 on every
    instance. As an overshoot over 4 eps it is 0 there, so the objective shows the fit's own margin."""
    assert _lemma21_violation(np.array([1.0, 0.0, 0.0, 0.0])) < 1e-2


def test_lemma21_violation_sees_a_step_past_the_threshold(monkeypatch) -> None:
    """A step above 1/(2|x^T y|) (outside the hypotheses the search squashes into) breaks the lemma: the
    same objective on such a step exceeds 1."""
    squash = lemmas.squash
    monkeypatch.setattr(
        lemmas, "squash", lambda t, lo=0.0, hi=1.0: 1.2 if (lo, hi) == (0.01, 0.49) else squash(t, lo, hi)
    )
    assert _lemma21_violation(np.array([1.0, 0.0, 0.0, 0.0])) > 1
