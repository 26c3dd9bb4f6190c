"""kumar2025:lemma-2: the order check separates the homogeneous net from its non-homogeneous control, and
the search objective covers both nets (sigma = x^2, L = 3; linear, L = 2)."""

from __future__ import annotations

import numpy as np

from numeric.models.homogeneous_nets import normalize
from verify.papers.kumar2025.lemmas import (
    LEMMA2_SHAPES,
    _early_phase,
    _hom,
    _lemma2_measures,
    _lemma2_order,
    _lemma2_violation,
    _poly_net,
)

DELTAS = 0.1 / 2.0 ** np.arange(6)


def _instance(seed: int = 1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(8, 3))
    y = rng.normal(size=8) + 0.5
    return X, y, normalize(rng.normal(size=8))


def test_poly_net_x2_is_the_homogeneous_net() -> None:
    """The control's polynomial net with sigma = x^2 is the lemma's L = 3 net (same packing)."""
    X, y, _ = _instance()
    W = np.random.default_rng(2).normal(size=(3, 8))
    loss_h, ncf_h = _hom(1.0, 2, LEMMA2_SHAPES)
    loss_p, ncf_p = _poly_net((0.0, 0.0, 1.0), LEMMA2_SHAPES)
    assert np.abs(loss_h(W, X, y) - loss_p(W, X, y)).max() < 1e-12
    assert np.abs(ncf_h(W, X, y) - ncf_p(W, X, y)).max() < 1e-12


def test_order_is_L_for_the_net_and_one_for_a_degree_four_remainder() -> None:
    """E = O(delta^3) for sigma = x^2; sigma = x^2 + x^3/4 adds (delta/4) grad N_3 to ds/dtau: E = O(delta),
    in the same regime (every delta kept), against the same phi and window."""
    X, y, w0 = _instance()
    m = _lemma2_measures(1.0, 2, LEMMA2_SHAPES, X, y, w0, DELTAS)
    assert m is not None
    _, order, tol, _ = _lemma2_order(DELTAS, m["E"], m["phi max"])
    assert abs(order - 3) <= tol < 0.1
    loss_c, _ = _poly_net((0.0, 0.0, 1.0, 0.25), LEMMA2_SHAPES)
    E, _, _ = _early_phase(loss_c, _hom(1.0, 2, LEMMA2_SHAPES)[1], X, y, w0, 3, DELTAS, m["T"])
    kept, order_c, _, _ = _lemma2_order(DELTAS, E, m["phi max"])
    assert kept.size == DELTAS.size
    assert abs(order_c - 1) < 0.1
    assert abs(order_c - 3) > 100 * tol


def test_lemma2_violation_dispatches_on_the_net() -> None:
    """9 entries: the L = 3 net; 10: the linear net with a label shift. Both far below 1 on a benign start."""
    X, y, w0 = _instance()
    seen: list[dict] = []
    r3 = _lemma2_violation(X, y, DELTAS, seen, np.append(w0, 0.0))
    r2 = _lemma2_violation(X, y, DELTAS, seen, np.append(w0, [0.0, 0.3]))
    assert [s["L"] for s in seen] == [3, 2]
    assert all(s["decided"] for s in seen)
    assert 0 <= r3 < 1 and 0 <= r2 < 1
