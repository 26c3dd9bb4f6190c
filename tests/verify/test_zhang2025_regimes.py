"""zhang2025's regime readings (verify/papers/zhang2025/regimes.py) at their edges, and the derived order
tolerances of Figs. 4/8 and Conjecture 11."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.data.datasets import Dataset, boursier_orthogonal, fan, orthogonal, xor_like
from numeric.data.initializations import balanced_rank_one
from verify.papers.zhang2025 import regimes
from verify.papers.zhang2025.deep import rank_order_tolerance
from verify.papers.zhang2025.orthogonal import perturbed, plateau_tolerance


class Readings:
    """Stands in for a Context: keeps what ``ctx.regime`` was given and evaluates the hypothesis."""

    def __init__(self) -> None:
        self.read: dict[str, tuple[bool, dict]] = {}

    def regime(self, hypothesis, **measured) -> bool:
        reached = hypothesis.evaluate(**measured)
        self.read[hypothesis.name] = (reached, measured)
        return reached


def test_alpha_reading_is_the_slope_farthest_outside_the_interval() -> None:
    ctx = Readings()
    regimes.record_alphas(ctx, [0.0, 0.5, 1.0])
    assert ctx.read["alpha in [0,1]"][0]
    regimes.record_alphas(ctx, np.array([[0.3], [1.2], [-0.1]]))
    assert ctx.read["alpha in [0,1]"] == (False, {"alpha": 1.2})


def test_condition_3_needs_every_data_set_symmetric() -> None:
    ctx = Readings()
    sym = fan(10, seed=1)
    regimes.record_symmetric(ctx, [sym, sym])
    assert ctx.read["Condition 3"][0]
    regimes.record_symmetric(ctx, [sym, Dataset(sym.X[:-1], sym.y[:-1], "one point dropped")])
    assert not ctx.read["Condition 3"][0]


def test_orthogonal_accepts_orthogonal_and_antiparallel_inputs_only() -> None:
    ctx = Readings()
    fig9 = orthogonal(np.r_[np.full(10, 2.0), np.ones(10)], np.r_[np.ones(10), -np.ones(10)], 20)
    regimes.record_orthogonal(ctx, [boursier_orthogonal(), xor_like(), fig9])
    assert ctx.read["orthogonal inputs"][0]
    regimes.record_orthogonal(ctx, [perturbed(xor_like(), np.random.default_rng(0))])
    assert not ctx.read["orthogonal inputs"][0]


@pytest.mark.parametrize("H", [2, 17, 1000])
def test_manifold_ratios_are_within_rounding_on_assumption_7_and_far_off_it(H: int) -> None:
    rng = np.random.default_rng(H)
    r = rng.normal(size=(8, 5))
    W1, W2 = balanced_rank_one(rng, 8, H, r, 10.0 ** rng.uniform(-4, 4, 8))
    rank, imbalance = regimes.manifold_ratios(W1, W2)
    assert rank.max() <= 1 and imbalance.max() <= 1
    W1b, W2b = balanced_rank_one(rng, 8, H, r, 1.0, imbalance=1 + 1e-9)
    assert regimes.manifold_ratios(W1b, W2b)[1].min() > 1
    rank_off, _ = regimes.manifold_ratios(W1 + 1e-9 * np.abs(W1).max() * rng.normal(size=W1.shape), W2)
    assert rank_off.min() > 1


def test_order_tolerances_shrink_with_the_grid_and_stay_below_the_neighbour_separation() -> None:
    wide, narrow = rank_order_tolerance([0.08, 0.04, 0.02, 0.01]), rank_order_tolerance([0.08, 0.04, 0.02])
    assert wide < narrow < 0.5
    w = np.logspace(-3, -12, 4)
    gap = np.outer([1.0, 1.1], w**0.586)
    assert 0 < plateau_tolerance(w, gap) < plateau_tolerance(w[:3], gap[:, :3]) < 0.05
