"""Horizons derived from rates: kumar2025's approach to a finite NCF limit (``flows.approach_rate``,
``flows.settling_time``) and min2024's loss plateau on the digits (``experiments.plateau_iterations``).

Each is checked against the dynamics it predicts, so a wrong factor in a derivation fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

from numeric.data.digits import digit_pair
from numeric.models.homogeneous_flow import polar_flow
from verify.papers.kumar2025.flows import (
    SETTLED,
    TAU_SETTLE_MAX,
    TAU_SETTLE_MIN,
    approach_rate,
    rows,
    settling_time,
    spectral_neuron,
)
from verify.papers.min2024.experiments import INIT, first, gd, plateau_iterations, unbalanced_init


@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_approach_rate_is_the_measured_decay_of_the_gradient(alpha: float) -> None:
    """A start with one active decaying coordinate (q_k b < 0), the others frozen (ReLU) or decaying
    faster: |grad N(theta)| decays in polar time at approach_rate, to 1%, b/|u| small (a slow limit)."""
    rng = np.random.default_rng(3)
    ncf = spectral_neuron(rng, alpha, 2, (1, 1, 1))
    q, G = ncf.Q[0, 0], ncf.G[0]
    k = int(np.argmin(q))  # the slowest coordinate: the rate must pick it
    c = np.where(np.arange(3) == k, 1e-3, -0.9 if alpha == 0 else 2e-3)
    u0 = np.concatenate([G @ c, [-0.05]])[None]  # b < 0 and q > 0: every active coordinate decays
    vg = rows(ncf)
    scale = 1.0 / approach_rate(ncf, u0 / np.linalg.norm(u0))[0]  # polar time of one e-fold
    fl = polar_flow(vg, u0, 3, np.array([0.0, 3.0, 8.0]) * scale, rtol=1e-11)
    grad = [np.linalg.norm(vg(fl.theta[:, i])[1]) for i in (1, 2)]
    measured = np.log(grad[0] / grad[1]) / (5.0 * scale)
    predicted = approach_rate(ncf, fl.theta[:, 1])[0]
    assert measured == pytest.approx(predicted, rel=1e-2)
    assert predicted == pytest.approx(2 * q[k] * abs(fl.theta[0, 1, -1]), rel=1e-12)


def test_approach_rate_is_infinite_when_nothing_is_active() -> None:
    ncf = spectral_neuron(np.random.default_rng(0), 0.0, 2, (1, 1, 1))
    theta = np.concatenate([-ncf.G[0].sum(1), [0.0]])[None]  # every <a, g_i> < 0, b = 0
    assert np.isinf(approach_rate(ncf, theta / np.linalg.norm(theta))).all()


def test_settling_time_reaches_settled_and_is_clipped() -> None:
    residual, rate = np.array([1e-3, 1e-6, 0.0]), np.array([0.1, 1.0, np.inf])
    tau = settling_time(residual, rate)
    assert tau == pytest.approx(np.log(1e-3 / SETTLED) / 0.1)
    assert np.all(residual * np.exp(-rate * tau) <= SETTLED * (1 + 1e-12))
    assert settling_time(np.array([1e-12]), np.array([1.0])) == TAU_SETTLE_MIN
    assert settling_time(np.array([1.0]), np.array([1e-9])) == TAU_SETTLE_MAX


def test_plateau_iterations_predicts_when_the_digit_loss_drops() -> None:
    """Digits 3/8 at the paper's alpha and step: the loss is down 10% between 0.6 and 1.0 of the
    predicted plateau (measured 0.82 with the claim's draw), so 5 plateaus leave it well behind."""
    ds = digit_pair(3, 8, per_class=20, rng=np.random.default_rng(1))
    k_star = plateau_iterations(ds.X, ds.y, INIT)
    run = gd(
        ds.X, ds.y, *unbalanced_init(np.random.default_rng(2), 1, 64, INIT), steps=int(k_star), every=250
    )
    drop = run.steps[first(run.loss <= 0.9 * run.loss[:, :1])[0]]
    assert 0.6 * k_star <= drop <= k_star
