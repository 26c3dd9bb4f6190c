"""Exact GD in coefficient form: equal to explicit-weight GD, acceleration exact, decomposition invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies_near_orthogonal import kappas, leaky_slopes, nearly_orthogonal_grams

from numeric.backend import get_backend, to_numpy
from numeric.data.near_orthogonal import (
    alternating_labels,
    bartlett_wishart,
    controlled_gram,
    gram_sqrt_points,
    orthogonal_gram,
    with_flipped_duplicate,
)
from numeric.engine.descent import gradient_descent
from numeric.models.fixed_readout import FixedReadoutNet, activation, class_of_rows
from numeric.training.reduced_gd import (
    ReducedGD,
    class_blocks,
    draw_initial,
    initial_from_weights,
    log_grid,
    stable_rank_from_gram,
)

BE = get_backend("numpy")


def _full_vs_reduced(data, m, gamma, steps, seed=0):
    rng = np.random.default_rng(seed)
    X = gram_sqrt_points(data.G, data.n + 3)
    W0 = 0.05 * rng.normal(size=(2, 2 * m, X.shape[1]))
    eta = 0.05 * data.n * m / data.norms2.max()
    net = FixedReadoutNet(m, X.shape[1])
    rec = np.arange(steps + 1)
    traj = gradient_descent(
        net, W0.reshape(2, -1), lr=eta, steps=steps, record=rec, args=net.args(BE, X, data.y, gamma=gamma)
    )
    W = to_numpy(traj.ys).reshape(2, steps + 1, 2 * m, -1)
    red = ReducedGD(BE, data, m, gamma, eta, initial_from_weights(W0, X)).run(steps, rec, accelerate=False)
    P_proj = (W - W0[:, None]) @ X.T @ np.linalg.inv(data.G) * data.norms2
    return W, red, P_proj


@settings(max_examples=10)
@given(data=nearly_orthogonal_grams(5, kappas()), gamma=st.one_of(st.just(0.0), leaky_slopes()))
def test_reduced_equals_full_gd(data, gamma):
    W, red, P_proj = _full_vs_reduced(data, 3, gamma, 60)
    scale = np.abs(red.P).max() + 1
    np.testing.assert_allclose(P_proj, red.P, atol=1e-10 * scale)
    scale2 = np.abs(W).max() ** 2 + 1
    np.testing.assert_allclose(red.gram(), W @ np.swapaxes(W, -1, -2), atol=1e-10 * scale2)


@settings(max_examples=10)
@given(data=nearly_orthogonal_grams(6, kappas()), gamma=st.one_of(st.just(0.0), leaky_slopes()))
def test_decomposition_invariants(data, gamma):
    """(5.3)-(5.5) as properties: rho has the sign j y_i (or is 0) and moves monotonically, every step."""
    m = 4
    init = draw_initial(np.random.default_rng(0), data, m, 0.05, 3)
    red = ReducedGD(BE, data, m, gamma, 0.05 * data.n * m / data.norms2.max(), init).run(80, np.arange(81))
    sign = class_of_rows(m)[:, None] * data.y[None, :]
    assert np.all(red.P[:, 0] == 0)
    assert np.all(sign * red.P >= 0)
    assert np.all(sign * np.diff(red.P, axis=1) >= 0)


@pytest.mark.parametrize("gamma", [0.0, 0.3])
@pytest.mark.parametrize("kappa", [0.0, 0.3])
def test_acceleration_is_exact(gamma, kappa):
    rng = np.random.default_rng(3)
    data = controlled_gram(rng, alternating_labels(8), kappa, d=100)
    init = draw_initial(rng, data, 5, 1e-3, 4)
    model = ReducedGD(BE, data, 5, gamma, 0.05 * 8 * 5, init)
    rec = log_grid(20_000)
    fast, slow = model.run(20_000, rec), model.run(20_000, rec, accelerate=False)
    assert fast.exact_steps.max() < 20_000 or kappa > 0
    np.testing.assert_allclose(fast.P, slow.P, rtol=1e-9, atol=1e-12)
    np.testing.assert_array_equal(fast.last_flip, slow.last_flip)


def _reference_loop(model: ReducedGD, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """The coefficient-form loop as written before it ran on the engine: ``P`` at every step and
    ``last_flip`` (the pattern of every step, the last one included)."""
    Z0, H, n = model.Z0, model.H, model.data.n
    sigma = activation(model.gam)
    P = np.zeros_like(Z0)
    out, last, prev = [P.copy()], np.zeros(Z0.shape, dtype=np.int64), Z0 >= 0
    for t in range(steps + 1):
        Z = Z0 + (P.reshape(-1, n) @ H).reshape(P.shape)
        act = Z >= 0
        last[act != prev] = t
        prev = act
        if t == steps:
            break
        sp = sigma.slope(Z)
        g = 1.0 / (1.0 + np.exp(model.y * (model.a @ (Z * sp))))
        P = P + sp * model.coef * g[:, None, :]
        out.append(P.copy())
    return np.stack(out, axis=1), last


@pytest.mark.parametrize("accelerate", [False, True])
def test_engine_run_equals_the_reference_loop(accelerate):
    """Per member, bit for bit: the run on the engine (in coefficient form; with ``accelerate``, the
    chunks that fail their certificate) against the loop it replaced."""
    rng = np.random.default_rng(5)
    data = controlled_gram(rng, alternating_labels(6), 0.3, d=40)
    init = draw_initial(rng, data, 3, 0.05, 3)
    model = ReducedGD(BE, data, 3, np.array([0.0, 0.1, 0.5]), 0.5 * 6 * 3, init)
    steps = 400
    ref_P, ref_last = _reference_loop(model, steps)
    rec = log_grid(steps)
    run = model.run(steps, rec, accelerate=accelerate)
    if accelerate:  # certified frozen chunks agree to rounding (test_acceleration_is_exact)
        assert run.exact_steps.min() < steps
        np.testing.assert_allclose(run.P, ref_P[:, rec], rtol=1e-12, atol=1e-15)
    else:
        np.testing.assert_array_equal(run.P, ref_P[:, rec])
    np.testing.assert_array_equal(run.last_flip, ref_last)
    assert (ref_last > 0).any()  # the monitors saw sign changes


def test_initial_law_moments():
    rng = np.random.default_rng(0)
    data = controlled_gram(rng, alternating_labels(4), 0.4, d=50)
    init = draw_initial(rng, data, 200, 0.1, 20)
    Z = init.Z0.reshape(-1, 4)
    # sample covariance of N(0, 0.01 G): entries within ~5 standard errors 0.01 sqrt(2/N)
    np.testing.assert_allclose(
        Z.T @ Z / Z.shape[0], 0.01 * data.G, atol=5 * 0.01 * np.sqrt(2 / Z.shape[0]) * 1.5
    )
    diag = np.einsum("bii->bi", init.K0)
    assert abs(diag.mean() / (0.01 * 50) - 1) < 0.02


def test_bartlett_wishart_mean():
    A = bartlett_wishart(np.random.default_rng(0), 3, 40, 4000)
    np.testing.assert_allclose(A.mean(axis=0), 40 * np.eye(3), atol=40 * 0.05)


def test_data_generators():
    rng = np.random.default_rng(0)
    y = alternating_labels(6)
    assert controlled_gram(rng, y, 0.25).kappa == pytest.approx(0.25, rel=1e-12)
    assert orthogonal_gram(np.ones(6), y).p == 0
    dup = with_flipped_duplicate(orthogonal_gram(np.ones(6), y))
    assert dup.n == 7 and dup.y[-1] == -dup.y[0] and dup.rank == 6


def test_stable_rank_of_rank_one_gram():
    v = np.arange(1.0, 4.0)
    K = np.outer(v, v)[None]
    assert stable_rank_from_gram(K)[0] == pytest.approx(1.0)
    assert class_blocks(np.eye(4)[None], 2).shape == (1, 2, 2, 2)
