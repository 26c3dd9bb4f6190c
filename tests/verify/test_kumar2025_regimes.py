"""kumar2025's regime measurements: the Lojasiewicz exponent fitted at a minimum, and the edges of the
hypotheses' quantitative tests."""

from __future__ import annotations

import numpy as np
import pytest

from verify.papers.kumar2025 import hypotheses as H
from verify.papers.kumar2025.flows import homogeneity_defect, rows, spectral_neuron
from verify.papers.kumar2025.saddle import RHOS, lojasiewicz_exponent, restricted_loss, samples


def test_exponent_of_a_quadratic_minimum_is_one_half() -> None:
    """g = |w|^2 / 2 on a line fit (a Morse minimum): |grad| ~ rho, excess ~ rho^2, so a = 1/2."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(8, 3))
    w_star = rng.normal(size=3)
    y = X @ w_star  # sigma = x (alpha = 1, p = 1): the one-neuron net is linear, u v, fitted exactly
    fun = restricted_loss(X, y, [(1, 3), (1, 1)], 1.0, 1)
    w_bar = np.concatenate([w_star, [1.0]])
    excess, grad = samples(fun, w_bar, rng, 12)
    assert excess.shape == grad.shape == (len(RHOS), 12)
    # the rescaling orbit (c u, v / c) is flat: directions along it have a smaller excess, not a
    # larger exponent; every random direction leaves it, so the exponent is 1/2 up to the cubic terms
    assert lojasiewicz_exponent(excess, grad) == pytest.approx(0.5, abs=0.02)


def test_exponent_sees_a_degenerate_minimum_and_a_non_minimum() -> None:
    """g = |w|^4: |grad| ~ rho^3, excess ~ rho^4, a = 3/4; a negative excess (a saddle) gives NaN."""
    rho = RHOS[:, None] * np.ones((1, 3))
    assert lojasiewicz_exponent(rho**4, 4 * rho**3) == pytest.approx(0.75, abs=1e-12)
    excess = rho**2
    excess[0, 1] = -excess[0, 1]
    assert np.isnan(lojasiewicz_exponent(excess, 2 * rho))


def test_homogeneity_defect_is_rounding_for_a_neuron_and_large_otherwise() -> None:
    """b a^T M a is 3-homogeneous (defect at rounding); read as 2-homogeneous it is off by 1/2; a squared
    ReLU neuron is 3-homogeneous too."""
    rng = np.random.default_rng(1)
    u = rng.normal(size=(16, 4))
    for alpha in (1.0, 0.0):
        vg = rows(spectral_neuron(rng, alpha, 2, (1, -1, 1)))
        assert homogeneity_defect(vg, u, 3) <= 64 * np.finfo(float).eps
        assert homogeneity_defect(vg, u, 2) == pytest.approx(1.0, rel=1e-12)


def test_assumption_2_threshold_depends_on_the_degree() -> None:
    """a < L/(2(L-1)): 3/4 for L = 3, 5/8 for L = 5; NaN (no strict minimum) is outside."""
    assert H.ASSUMPTION_2.evaluate(excess_min=0.0, a=0.7, L=3)
    assert not H.ASSUMPTION_2.evaluate(excess_min=0.0, a=0.7, L=5)
    assert not H.ASSUMPTION_2.evaluate(excess_min=0.0, a=float("nan"), L=3)
    assert not H.ASSUMPTION_2.evaluate(excess_min=-1e-10, a=0.5, L=3)


@pytest.mark.parametrize(
    ("hypothesis", "inside", "outside"),
    [
        (H.DELTA_THRESHOLD, {"ratio": 0.99}, {"ratio": 1.0}),
        (H.DELTA_SMALL, {"ratio": 0.1}, {"ratio": 0.11}),
        (H.SMALL_DELTA, {"ratio": 0.1}, {"ratio": 0.41}),
        (H.STEP_BELOW, {"step_c": 0.49}, {"step_c": 0.5}),
        (H.ALIGNED_INIT, {"aligned": True, "delta_ratio": 0.9}, {"aligned": False, "delta_ratio": 0.9}),
        (H.POSITIVE_START, {"g_min": 1e-3}, {"g_min": 0.0}),
        (H.POSITIVE_KKT, {"lambda_min": 1e-3}, {"lambda_min": float("nan")}),
        (H.BETA_NONNEGATIVE, {"beta_min": 0.0}, {"beta_min": -1e-12}),
        (H.SEVERAL_KKT, {"distinct": 2}, {"distinct": 1}),
        (H.SYMMETRIC_SPECTRUM, {"asymmetry": 1e-15}, {"asymmetry": 1e-10}),
        (H.TAYLOR_P4, {"alpha": 0.5, "p": 4}, {"alpha": 0.5, "p": 3}),
        (H.LEMMA_18_P4, {"p": 4}, {"p": 2}),
        (H.LEMMA_20_MARGIN, {"eta": 0.3}, {"eta": -0.1}),
        (H.LEMMA_20_RHO, {"rho": 0.1}, {"rho": 0.0}),
        (H.LOJASIEWICZ_MIN, {"a": 0.5}, {"a": float("nan")}),
        (H.WN_LOCAL_MIN_PL, {"margin": 1e-3, "a": 0.5}, {"margin": 0.0, "a": 0.5}),
        (H.WN_LOCAL_MIN_NO_KINK, {"margin": 1e-3}, {"margin": 0.0}),
        (H.N_LARGE, {"n": 20, "k": 20}, {"n": 15, "k": 20}),
        (H.SMALL_DELTA_ORIGIN, {"ratio": 0.1}, {"ratio": 0.11}),
        (H.SMALL_DELTA_D3, {"r": 0.1}, {"r": 0.11}),
        (H.W_STAR_SECOND_ORDER, {"gap": 0.9}, {"gap": 1.0}),
        (H.NCF_HOMOGENEOUS, {"defect": 0.0, "L": 2}, {"defect": 0.0, "L": 1}),
        (H.NCF_HOMOGENEOUS, {"defect": 1e-15, "L": 3}, {"defect": 1e-10, "L": 3}),
        (
            H.NCF_HOMOGENEOUS_LIPSCHITZ,
            {"defect": 0.0, "L": 3, "alpha": 0.0, "p": 2},
            {"defect": 0.0, "L": 2, "alpha": 0.5, "p": 1},
        ),
        (H.POSITIVE_KKT_NET, {"lambda_min": 0.1}, {"lambda_min": 0.0}),
        (H.LEMMA_5_ACTIVATION, {"alpha": 1.0, "p": 1}, {"alpha": 0.0, "p": 1}),
    ],
)
def test_regime_edges(hypothesis, inside: dict, outside: dict) -> None:
    assert hypothesis.condition
    assert hypothesis.evaluate(**inside)
    assert not hypothesis.evaluate(**outside)
