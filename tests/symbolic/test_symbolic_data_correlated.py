"""Exact derivations of kou2023: recursions (5.3)-(5.5), frozen increments, margin map, sequence lemmas."""

from __future__ import annotations

import mpmath
import sympy as sp

from symbolic import data_correlated as dc
from symbolic import sequence_lemmas as sl


def _all_zero(v) -> bool:
    if isinstance(v, dict):
        return all(_all_zero(x) for x in v.values())
    if hasattr(v, "is_zero_matrix"):
        return bool(v.is_zero_matrix)
    return sp.simplify(v) == 0


def test_gd_step_from_the_loss_and_projection():
    assert all(r == 0 for residuals in dc.autodiff_step().values() for r in residuals)
    assert _all_zero(dc.projection_identity_residual())


def test_frozen_increments_and_margin_map():
    assert _all_zero(dc.frozen_increment_residuals())
    assert _all_zero(dc.margin_map_residual())
    assert _all_zero(dc.orthogonal_margin_map())


def test_stable_rank_cancellation_and_exponent():
    assert dc.stable_rank_cancellation_residual() == 0
    assert dc.exponent_limit() == 0


def test_sequence_lemma_steps():
    assert _all_zero(sl.convexity_residuals())
    assert _all_zero(sl.telescoping_residuals())
    assert _all_zero(sl.h4_residuals())


def test_equality_map_obeys_bounds():
    for C in (0.01, 0.5, 2.0):
        xs = sl.iterate_equality_map(C, 300, x0=0.5)
        for t in (0, 1, 10, 300):
            e0 = mpmath.exp(mpmath.mpf(0.5))
            assert mpmath.log(e0 + C * t) - xs[t] <= mpmath.mpf(10) ** -40
            assert xs[t] - mpmath.log(e0 + C * mpmath.exp(C) * t) <= mpmath.mpf(10) ** -40
