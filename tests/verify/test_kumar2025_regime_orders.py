"""kumar2025 Lemmas 2 and 5 searches: each instance's order is fitted in its own regime against a derived
tolerance (issue 14); the two instances full once reported as FAILs are pre-asymptotic / at the solver
floor, and a power law of another order is still caught."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.kumar2025 import escape, lemmas
from verify.papers.kumar2025.fitted_orders import order_tolerance
from verify.profiles import get_profile


def test_order_tolerance_catches_another_order_and_covers_a_next_order_term() -> None:
    deltas = 0.1 / 2.0 ** np.arange(5)
    order, tol, _ = order_tolerance(deltas, 3 * deltas**0.8)
    assert abs(order - 0.8) < 1e-9 and abs(order - 1) / tol > 10
    order, tol, parts = order_tolerance(deltas, 3 * deltas * (1 + 5 * deltas))
    assert abs(order - 1) < tol < 0.5 and parts["next order"] > abs(order - 1)
    floor = 1e-3 * 3 * deltas
    assert order_tolerance(deltas, 3 * deltas, floor)[2]["floor"] > 0


def _ctx(claim_id: str) -> Context:
    return Context(claim_id, get_backend("numpy"), get_profile("full"), 0)


def test_lemma5_full_fail_instance_is_decided_in_its_regime() -> None:
    """Shares 0.5 (gap T_1 - T_0 = 1.69): over 0.1..0.025 the order was 0.865 (ratio 1.35 at tol 0.1);
    from 1.69 / 60 down it is 0.974 within its derived tolerance."""
    X, y, _ = escape._problem(_ctx("kumar2025:lemma-5").rng("escape-search").host, 0)
    theta = np.array([0.891, 2.033, 1.340, -5.799, 1.967, -0.923, -1.305, -0.310, 3.893, 6.045, 4.089])
    seen: list[dict] = []
    ratio = escape._escape_violation(X, y, seen, theta)
    (rec,) = seen
    assert rec["decided"] and abs(rec["gap"] - 1.69) < 0.01 and rec["deltas"][0] < 0.03
    assert abs(rec["order"] - 1) < rec["tol"] and ratio < 1


def test_lemma2_full_fail_instance_leaves_the_solver_floor_out() -> None:
    """E(7.8e-4) = 5e-11 sat at the solver floor (slope 3.4 there); the regime keeps E >= 100x floor."""
    _, X, y, _ = lemmas._two_layer(_ctx("kumar2025:lemma-2"), "lemma-2-2")
    theta = np.array([0.966, 0.073, 0.244, 0.928, 0.284, -0.257, 0.362, -0.045, 0.100])
    seen: list[dict] = []
    ratio = lemmas._lemma2_violation(X, y, 0.1 / 2.0 ** np.arange(8), seen, theta)
    (rec,) = seen
    assert rec["decided"] and rec["deltas"].min() > 7.8e-4 and abs(rec["order"] - 3) < rec["tol"]
    assert ratio < 1


def test_lemma5_seed_deltas_follow_the_gap_and_w_z_is_the_start_s_own() -> None:
    """A seed's deltas start at ESCAPE_REGIME x its gap (<= 0.1); a start led by neuron 1 is in the stable
    set of the point with neuron 1 on top (second order by symmetry), so scored on ITS zero neurons it
    satisfies the lemma (order 1 within the derived tolerance): relabelling the neurons breaks nothing."""
    ctx = Context("kumar2025:lemma-5", get_backend("numpy"), get_profile("tiny"), 0)
    deltas, *_, gap = escape._escape(0, ctx.rng(0), deltas_n=4)
    assert gap > 0 and np.isclose(deltas[0], min(0.1, escape.ESCAPE_REGIME * gap))
    deltas, wz_max, *_, gap = escape._escape(1, ctx.rng("escape-0"), deltas_n=4)
    order, tol, _ = order_tolerance(deltas, wz_max)
    assert gap > 0 and abs(order - 1) <= tol


def test_lemma2_order_regime_excludes_the_floor_and_non_perturbative_deltas() -> None:
    """E = 0.2 delta^3 reaches the solver floor below delta ~ 0.005: those deltas are left out; an E that
    grows as delta shrinks has no perturbative delta (E <= max|phi|/10 nowhere), so no order is read."""
    deltas = 0.1 / 2.0 ** np.arange(8)
    E = 0.2 * deltas**3 + lemmas._lemma2_floor(deltas, 1.0) / 10
    kept, order, tol, _ = lemmas._lemma2_order(deltas, E, 1.0)
    assert 3 <= kept.size < deltas.size and kept.min() > 0.004 and abs(order - 3) < tol < 0.1
    grows = 0.2 * (0.1 / deltas) ** 2
    kept, order, *_ = lemmas._lemma2_order(deltas, grows, 1.0)
    assert kept.size == 0 and np.isnan(order)
