"""min2024 weak spots closed in session 17: a figure threshold read off the paper decides only when the
verdict holds over its whole declared range (otherwise an undecided check named for what moved), and
Lemma 15's instance search runs over several shapes (n up to 48, D above and below n) whose parameter
counts tell them apart."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.min2024.experiments import ALIGNED, GRAM, RANK_EXCESS, _reading_sweep
from verify.papers.min2024.proof import _lemma15_starts, _lemma15_violation, _lin_size, lin_shapes
from verify.profiles import get_profile
from verify.records import Outcome


def make() -> Context:
    return Context("min2024:figure-10", get_backend("numpy"), get_profile("tiny"), 0)


@pytest.mark.parametrize("reading", [GRAM, ALIGNED, RANK_EXCESS])
def test_declared_range_holds_the_value_used(reading):
    assert reading.lo < reading.value < reading.hi


def test_robust_verdict_is_a_note():
    ctx = make()
    _reading_sweep(ctx, "Gram", GRAM, lambda t: 0.93 >= t, lambda t: 0.5 >= t)
    assert not ctx.checks and "Same verdict over the whole range" in ctx.notes[-1]


@pytest.mark.parametrize(
    ("main", "control", "moved"),
    [(0.785, 0.5, "the run stops passing"), (0.93, 0.72, "the control stops failing")],
)  # the run fails at the top of [0.7, 0.8]; the control passes at its bottom
def test_verdict_that_moves_inside_the_range_is_undecided(main, control, moved):
    ctx = make()
    _reading_sweep(ctx, "Gram", GRAM, lambda t: main >= t, lambda t: control >= t)
    assert [c.outcome for c in ctx.checks] == [Outcome.INCONCLUSIVE]
    # named for what was found, not for the property that did not hold
    assert "verdict changes inside the declared range [0.7, 0.8]" in ctx.checks[0].name
    assert moved in ctx.checks[0].name and "same verdict" not in ctx.checks[0].name


def test_lemma15_shapes_vary_n_and_dimension_and_have_distinct_sizes():
    shapes = lin_shapes((4, 16, 48))
    assert {n for n, _, _ in shapes} == {4, 16, 48}
    assert any(D > n for n, D, _ in shapes) and any(D < n for n, D, _ in shapes)
    assert len({_lin_size(s) for s in shapes}) == len(shapes)


def test_lemma15_violation_is_finite_and_holds_at_every_start():
    shapes = lin_shapes((4, 16))
    by_size = {_lin_size(s): s for s in shapes}
    for thetas in _lemma15_starts(np.random.default_rng(1), shapes).values():
        for theta in thetas:
            assert len(theta) in by_size
            ratio = _lemma15_violation(theta, by_size[len(theta)])
            assert np.isfinite(ratio) and 0.0 < ratio <= 1.0
