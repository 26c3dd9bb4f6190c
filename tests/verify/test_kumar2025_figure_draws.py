"""kumar2025:figures-1-4 runs every data draw it declares: the keys are consecutive from ``first_key``,
whatever their cost (no filter on the data), and a draw is the same whichever run reaches it."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.kumar2025.saddle_figures import _fig_draws
from verify.profiles import get_profile


def _ctx() -> Context:
    return Context("kumar2025:figures-1-4", get_backend("numpy"), get_profile("tiny"), 0)


def test_draws_are_consecutive_keys_without_a_filter() -> None:
    """Keys 3, 4, 5 in order, each with its measured ratio sharpness/N* (the GD steps per unit of escape
    time), which no longer selects draws."""
    draws = _fig_draws(_ctx(), 6, 20, 3, 3, 3)
    assert [draw[0] for draw in draws] == [3, 4, 5]
    ratios = [1 / (lr * n_star) for *_, lr, _, n_star in draws]
    assert all(np.isfinite(ratios)) and min(ratios) > 0


def test_a_draw_depends_on_its_key_only() -> None:
    """Draw 4 is the same when the run starts at key 4 or at key 3 (the data come from the key's stream)."""
    alone = _fig_draws(_ctx(), 6, 20, 3, 1, 4)[0]
    second = _fig_draws(_ctx(), 6, 20, 3, 2, 3)[1]
    np.testing.assert_array_equal(alone[1], second[1])
    np.testing.assert_array_equal(alone[2], second[2])
