"""zhang2025 early phase and equivalence at each profile: the sizes the claims plan to run.

Planning (``verify/plan.py``) reads a claim's parameters without running it, so these tests are cheap.
"""

from __future__ import annotations

import pytest

from verify.plan import plan_claim
from verify.profiles import get_profile
from verify.registry import all_claims

CLAIMS = all_claims()
SIZES = ("D", "H", "P")


def _params(claim_id: str, profile: str) -> dict:
    return plan_claim(CLAIMS[claim_id], get_profile(profile)).params


@pytest.mark.parametrize("profile", ["tiny", "quick", "full"])
def test_the_paired_claims_share_one_size_per_profile(profile):
    """Theorem 8, Corollaries 9 / 9-corrected / 10 and App. C.4 read ``paired_runs.searched_sizes``."""
    shared = _params("zhang2025:corollary-10", profile)
    for claim_id in (
        "zhang2025:theorem-8",
        "zhang2025:corollary-9",
        "zhang2025:corollary-9-corrected",
        "zhang2025:section-C.4",
    ):
        own = _params(claim_id, profile)
        assert {k: own[k] for k in SIZES} == {k: shared[k] for k in SIZES}, claim_id


def test_full_keeps_the_paper_init_and_a_scale_above_quick():
    """Full keeps Fig. 3's D = 20 and w_init = 1e-8 and is at least quick's size in every dimension."""
    for claim_id in (
        "zhang2025:theorem-8",
        "zhang2025:corollary-9",
        "zhang2025:corollary-9-corrected",
        "zhang2025:lemma-6",
        "zhang2025:lemma-6-corrected",
        "zhang2025:lemma-16",
    ):
        full, quick = _params(claim_id, "full"), _params(claim_id, "quick")
        assert full["D"] == 20, claim_id
        assert all(full[k] >= quick[k] for k in SIZES), claim_id
        if "w_init" in full and claim_id != "zhang2025:lemma-16":
            assert full["w_init"] == 1e-8, claim_id
