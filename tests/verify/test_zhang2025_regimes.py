"""zhang2025's regime readings (verify/papers/zhang2025/regimes.py) at their edges, the derived order
tolerances of Figs. 4/8/9 and Conjecture 11, and the vanishing-lag rule of Figs. 4/8/9."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.data.datasets import Dataset, boursier_orthogonal, fan, orthogonal, xor_like
from numeric.data.initializations import balanced_rank_one
from numeric.models.losses import Loss
from verify.context import Context
from verify.papers.zhang2025 import regimes
from verify.papers.zhang2025.deep import rank_order_tolerance
from verify.papers.zhang2025.orthogonal import (
    Overlay,
    Problem,
    a17_datasets,
    check_lag,
    fig9_data,
    lag_limit,
    order_tolerance,
    perturbed,
    plateau_tolerance,
    prop18_data,
)
from verify.profiles import get_profile


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


def test_orthonormal_ratio_is_within_rounding_on_orthonormal_inputs_and_far_off_them() -> None:
    ctx = Readings()
    hadamard = np.array([[1.0]])
    for _ in range(3):
        hadamard = np.block([[hadamard, hadamard], [hadamard, -hadamard]])
    rotated = Dataset(hadamard / np.sqrt(8), np.ones(8), "normalised Hadamard rows (entries rounded)")
    regimes.record_orthonormal(ctx, [*a17_datasets(), prop18_data(), rotated])
    assert ctx.read["orthonormal inputs"][0]
    assert 0 < regimes.orthonormal_ratio(rotated.X) <= 1
    off = Dataset(rotated.X + 1e-13 * np.eye(8), rotated.y, "perturbed by 1e-13")
    for ds in (off, orthogonal(np.r_[1.0, 1.0 + 1e-13], np.ones(2)), fig9_data(20)):
        regimes.record_orthonormal(ctx, [prop18_data(), ds])
        assert not ctx.read["orthonormal inputs"][0], ds.name


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


def test_drop_time_order_tolerance_is_the_fit_interval_plus_the_o_w_drift() -> None:
    w = np.logspace(-3, -9, 3)
    x = 1 / np.log(1 / w)
    drift = 2 * np.log1p(1e-3) / np.log(x.max() / x.min())
    assert order_tolerance(x, 0.2 * x, w) == pytest.approx(drift, rel=1e-6)
    noisy = 0.2 * x**0.5 * np.array([1.0, 1.01, 1.0])
    assert drift < order_tolerance(x, noisy, w) < 0.25


def _overlay(t_lin: np.ndarray, t_relu: np.ndarray, w: np.ndarray, lr: float) -> Overlay:
    """An overlay of one single-point group whose losses halve at the given drop times, (S, W) each."""
    t = np.linspace(0.0, 1.5 * t_relu.max(), 20001)
    problem = Problem("pair", boursier_orthogonal(), [np.array([0])], Loss("square", "sum"))
    relu, lin = (1 / (1 + np.exp((t - drop[..., None]) / 0.3)) for drop in (t_relu, t_lin))
    return Overlay(problem, t, w, relu[None], lin[None], False, lr)


def _lag_outcome(factor: float, per_lr: float) -> tuple[bool | None, str]:
    """check_lag on drop times t_ReLU = (1 + factor + per_lr * lr) t_lin + 3 at lr 0.02 and 0.01."""
    w = np.logspace(-3, -12, 4)
    t_lin = np.log(1 / w)[None, :] + np.array([[1.0], [1.2]])  # two seeds
    ctx = Context("zhang2025:figure-4", get_backend("numpy"), get_profile("tiny"), 0)
    runs = [_overlay(t_lin, (1 + factor + per_lr * lr) * t_lin + 3, w, lr) for lr in (0.02, 0.01)]
    ok, _ = check_lag(ctx, "lag", *runs, 0, why="test")
    return ok, ctx.checks[-1].outcome.value


def test_lag_limit_check_passes_a_bounded_offset_and_fails_a_constant_factor() -> None:
    assert _lag_outcome(0.0, 0.0)[0] is True  # bounded offset: r = 3/t_lin -> 0
    assert _lag_outcome(0.05, 0.0)[0] is False  # a lag by a constant factor 1.05
    assert _lag_outcome(0.0, 0.5)[0] is True  # a limit proportional to lr: GD's, extrapolated away
    assert _lag_outcome(np.nan, 0.0)[1] == "error"  # NaN is never PASS


def test_lag_limit_reads_a_constant_factor_and_a_bounded_offset() -> None:
    w = np.logspace(-3, -12, 4)
    x = 1 / np.log(1 / w)
    limit, spread = lag_limit(x, 0.2 + 3 * x, w)  # rate mismatch: r -> 0.2
    assert limit == pytest.approx(0.2, abs=1e-9) and spread < 0.01
    limit, spread = lag_limit(x, 3 * x, w)  # bounded offset: r -> 0 within the O(w_init) drift
    assert abs(limit) < 1e-9 and 0 < spread < 0.01
