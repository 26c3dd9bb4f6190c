"""dana2025 App. C.2 search: the family starts reach C.2's situation, GD converges there to the no-revival
flow, and a GD that lands exactly on the kink (and so revives) scores above 1."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from verify.papers.dana2025.kink_arrival import gd_limit, starts

BE = get_backend("numpy")


def test_family_starts_arrive_at_the_kink_and_gd_picks_the_no_revival_flow():
    for theta in (t for ts in starts().values() for t in ts):
        r = gd_limit(BE, theta, separation=True)
        assert r.inside and r.ar_min > 0 and r.branch_min > 0
        assert r.ratio <= 1 and r.separation > 0.1  # the revival branch is far from the flow GD follows


def test_gd_clamped_onto_the_kink_revives_and_exceeds_one():
    def clamp(y):
        out = y.copy()
        out[:, :4] = np.maximum(out[:, :4], 0.0)  # pre-activations land on 0, where sigma'(0) = 1 revives
        return out

    assert all(gd_limit(BE, t[0], project=clamp).ratio > 1 for t in starts().values())
