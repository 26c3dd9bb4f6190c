"""Theorem 1's proof step at its width (dana2025 lemma-5-corrected): P(I) >= 1 - eps at p_theorem1."""

import verify.papers.dana2025.convergence as conv
from verify.papers.dana2025.common import p_theorem1


def test_the_width_meets_eps_and_half_of_it_does_not(monkeypatch):
    union, exact, rows = conv.theorem1_width_failure()
    assert 0 < exact <= union * (1 + 1e-12) < 1 and len(rows) == len(conv.T1_WIDTH_CASES)  # n = 1: equal
    monkeypatch.setattr(conv, "p_theorem1", lambda n, eps: p_theorem1(n, eps) // 2)
    union, exact, _ = conv.theorem1_width_failure()
    assert union > 1 and exact > 1  # a width formula too small by 2 is caught (n = 1e6)
