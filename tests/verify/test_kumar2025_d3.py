"""kumar2025 App. D.3: the small-delta measurement (the field the H_2 flow neglects)."""

from __future__ import annotations

import numpy as np

from verify.papers.kumar2025.experiments import _linear_saddle, _neglected


def test_neglected_field_vanishes_linearly_in_the_small_weights() -> None:
    """At (w_n bar, delta z) the loss field on w_z is the H_2-NCF field up to O(delta) relative terms (H_1's
    self-term): r(delta) / delta tends to a constant, and is far from 0 at delta = 1."""
    rng = np.random.default_rng(3)
    S = rng.normal(size=(4, 4))
    Ws, masks = _linear_saddle(S, 3)
    ybar = S - np.linalg.multi_dot(Ws[::-1])
    z = [rng.normal(size=(4, 4)) * M for M in masks]
    r = np.array(
        [
            _neglected(S, [W + dl * Z for W, Z in zip(Ws, z, strict=True)], masks, ybar)
            for dl in (1e-2, 1e-3, 1e-4)
        ]
    )
    assert np.all(np.isfinite(r)) and r[0] < 1
    np.testing.assert_allclose(r[1:] / r[:-1], 0.1, rtol=0.05)
    assert _neglected(S, [W + Z for W, Z in zip(Ws, z, strict=True)], masks, ybar) > 0.1
