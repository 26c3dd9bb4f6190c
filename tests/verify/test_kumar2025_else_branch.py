"""kumar2025 Theorem 7's else branch: the start in the origin's stable set for each activation."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from verify.papers.kumar2025.saddle import _else_start


def test_even_activation_negates_the_whole_kkt_point() -> None:
    z = np.arange(1.0, 9.0)
    label, start, level = _else_start(SimpleNamespace(alpha=1.0, p=2), z)
    np.testing.assert_array_equal(start, -z)
    assert (label, level) == ("z = -z*", 0.1)


def test_uneven_activation_negates_only_the_output_weights() -> None:
    """max(x, x/2)^4 is not even: -a would change the NCF, so only b (the last two entries) flips sign,
    which flips the sign of N (odd in b) and keeps a's direction; the level 0.75 is reached at s ~ 28."""
    z = np.arange(1.0, 9.0)
    label, start, level = _else_start(SimpleNamespace(alpha=0.5, p=4), z)
    np.testing.assert_array_equal(start[:-2], z[:-2])
    np.testing.assert_array_equal(start[-2:], -z[-2:])
    assert label == "z = (a*, -b*)" and level == 0.75
    np.testing.assert_array_equal(z, np.arange(1.0, 9.0))  # the KKT point itself is left alone
