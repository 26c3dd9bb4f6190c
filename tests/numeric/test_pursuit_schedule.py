"""PursuitConfig's GD schedules: App. C.1.3's step switch and App. C.2.2's learning-rate halving."""

from __future__ import annotations

import importlib
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.engine.trajectory import Status
from numeric.models.homogeneous_nets import loss_and_grad
from numeric.training.neuron_pursuit import PursuitConfig, gradient_descent, neuron_pursuit, scheduled_descent
from numeric.training.vector_pursuit import vector_pursuit


def _quadratic(h: float):
    r""":math:`f(w)=\tfrac h2\|w\|^2`: GD multiplies :math:`w` by :math:`1-\eta h` per step."""
    return (lambda W: [h * W[0]]), (lambda W: 0.5 * h * float((W[0] ** 2).sum()))


def _plain_gd(w: np.ndarray, h: float, lr: float, steps: int) -> np.ndarray:
    for _ in range(steps):
        w = w - lr * (h * w)
    return w


@settings(max_examples=30, deadline=None)
@given(
    st.floats(0.1, 3.0),
    st.floats(0.01, 0.5),
    st.integers(0, 40),
)
def test_default_is_plain_gradient_descent(h: float, lr: float, steps: int) -> None:
    """lr_check = 0 (default): exactly ``steps`` fixed-step GD steps, bit for bit."""
    grad, loss = _quadratic(h)
    w0 = np.array([1.0, -2.0])
    (w,), status = scheduled_descent([w0], grad, loss, steps, PursuitConfig(lr=lr))
    assert status == Status.SUCCESS
    np.testing.assert_array_equal(w, _plain_gd(w0, h, lr, steps))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(1, 30))
def test_halving_resets_to_the_check_and_redoes_the_segment(k: int, check: int, steps: int) -> None:
    r"""With :math:`\eta h\in(2^k,2^k+1)` the loss grows (:math:`|1-\eta h|>1`) until :math:`\eta` is halved
    k times (:math:`|1-\eta h/2^k|<1`, :math:`\eta h/2^k<1`); every rejected segment is reset, so the result
    is plain GD at :math:`\eta/2^k` from the start, ``steps`` accepted steps."""
    h, lr = 1.0, 2.0**k + 0.5
    grad, loss = _quadratic(h)
    w0 = np.array([0.5, 1.5])
    cfg = PursuitConfig(lr=lr, lr_check=check, lr_halvings=4)
    (w,), _ = scheduled_descent([w0], grad, loss, steps, cfg)
    np.testing.assert_array_equal(w, _plain_gd(w0, h, lr / 2**k, steps))


def test_an_overflowing_segment_is_rejected() -> None:
    """A segment that overflows (loss inf or nan) counts as an increase: reset, halve, no warning."""
    grad, loss = _quadratic(1.0)
    w0 = np.array([1.0, -1.0])
    cfg = PursuitConfig(lr=3.0, lr_check=2000)  # |1 - 3| = 2: 2**2000 overflows within the segment
    with np.errstate(over="raise", invalid="raise"):
        (w,), _ = scheduled_descent([w0], grad, loss, 4000, cfg)
    np.testing.assert_array_equal(w, _plain_gd(w0, 1.0, 1.5, 4000))


def test_halvings_are_capped_and_divergence_is_reported() -> None:
    """After ``lr_halvings`` halvings a growing loss is kept: 2**6 / 2**4 = 4 > 2 still diverges, reported
    as the engine's NONFINITE status with the last finite iterate (no exception, no warning); only an
    increase of the loss triggers a halving."""
    grad, loss = _quadratic(1.0)
    cfg = PursuitConfig(lr=2.0**6, lr_check=1, lr_halvings=4)
    with np.errstate(over="raise", invalid="raise"):
        (w,), status = scheduled_descent([np.ones(2)], grad, loss, 2000, cfg)
    assert status == Status.NONFINITE and np.isfinite(w).all() and np.abs(w).max() > 1e300
    (w,), status = scheduled_descent([np.ones(2)], grad, loss, 3, replace(cfg, lr_halvings=6))
    assert status == Status.SUCCESS
    # five halvings reach eta h = 2: w -> -w keeps the loss (not an increase), so it is accepted
    np.testing.assert_array_equal(w, -np.ones(2))


@pytest.mark.parametrize("lr_check", [0, 7])
def test_np_descent_on_the_engine_is_the_old_loop_bit_for_bit(lr_check: int) -> None:
    """NP's GD (now the engine's GD map on the packed parameters) against the loop it replaced, written
    out here: ``W <- W - lr * g`` per layer, App. C.2.2's halving every ``lr_check`` steps."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(12, 3))
    y = np.maximum(X[:, 0], 0.0) - 0.5 * X[:, 1]
    Ws = [rng.normal(size=(1, 2, 3)), rng.normal(size=(1, 2, 2)), rng.normal(size=(1, 1, 2))]
    cfg = PursuitConfig(depth=3, alpha=0.1, lr=0.3 if lr_check else 0.01, lr_check=lr_check)

    def old_loop(params: list[np.ndarray], steps: int) -> list[np.ndarray]:
        lr, halvings, done = cfg.lr, 0, 0
        seg = cfg.lr_check or steps
        last = float(loss_and_grad(params, X, y, cfg.alpha, cfg.p)[0][0])
        with np.errstate(over="ignore", invalid="ignore"):
            while done < steps:
                k = min(seg, steps - done)
                trial = params
                for _ in range(k):
                    grads = loss_and_grad(trial, X, y, cfg.alpha, cfg.p)[1]
                    trial = [W - lr * g for W, g in zip(trial, grads, strict=True)]
                if cfg.lr_check:
                    now = float(loss_and_grad(trial, X, y, cfg.alpha, cfg.p)[0][0])
                    if not now <= last and halvings < cfg.lr_halvings:
                        lr, halvings = lr / 2, halvings + 1
                        continue
                    last = now
                params, done = trial, done + k
        return params

    new, status = gradient_descent(Ws, X, y, cfg, 150)
    assert status == Status.SUCCESS
    for u, v in zip(new, old_loop(Ws, 150), strict=True):
        np.testing.assert_array_equal(u, v)


@given(st.floats(1e-6, 10.0), st.floats(1e-3, 1.0))
def test_step_switch(mean_loss: float, threshold: float) -> None:
    """App. C.1.3: ``gd_steps`` until the mean loss is below ``late_loss``, then ``gd_steps_late``."""
    cfg = PursuitConfig(gd_steps=100, gd_steps_late=300, late_loss=threshold)
    assert cfg.steps_for(mean_loss) == (300 if mean_loss < threshold else 100)
    assert replace(cfg, gd_steps_late=0).steps_for(mean_loss) == 100


@pytest.mark.parametrize(
    "kw", [{"gd_steps_late": -1}, {"lr_check": -5}, {"lr_halvings": -1}, {"late_loss": 0.0}]
)
def test_invalid_schedules_are_rejected(kw: dict) -> None:
    with pytest.raises(ValueError):
        PursuitConfig(**kw)


def _same(a, b) -> None:
    assert [s.rel_error for s in a.steps] == [s.rel_error for s in b.steps]
    for u, v in zip(a.weights, b.weights, strict=True):
        np.testing.assert_array_equal(u, v)


def test_pursuits_use_the_late_budget_below_the_threshold() -> None:
    """A threshold above every loss switches every iteration to ``gd_steps_late``: the same run as
    ``gd_steps = gd_steps_late``; a threshold below every loss changes nothing (scalar and vector NP)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 3))
    y = np.maximum(X[:, 0], 0.0) - 0.5 * np.maximum(X[:, 1], 0.0)
    Y = np.stack([y, X[:, 2] ** 2], axis=1)
    base = PursuitConfig(depth=2, restarts=3, ncf_iters=50, gd_steps=5, max_iter=3, lr=0.01)
    late = replace(base, gd_steps_late=40, late_loss=1e9)
    never = replace(base, gd_steps_late=40, late_loss=1e-300)
    for run, target in ((neuron_pursuit, y), (vector_pursuit, Y)):
        _same(
            run(X, target, late, np.random.default_rng(0)),
            run(X, target, replace(base, gd_steps=40), np.random.default_rng(0)),
        )
        _same(run(X, target, never, np.random.default_rng(0)), run(X, target, base, np.random.default_rng(0)))


def test_pga_schedule() -> None:
    """App. C.2.2: PGA step/iterations of iteration 1, then the ``*_later`` values (0: unchanged)."""
    cfg = PursuitConfig(ncf_step=0.25, ncf_iters=60, ncf_step_later=0.5, ncf_iters_later=40)
    assert cfg.pga(first=True) == (0.25, 60) and cfg.pga(first=False) == (0.5, 40)
    plain = PursuitConfig(ncf_step=0.25, ncf_iters=60)
    assert plain.pga(first=True) == plain.pga(first=False) == (0.25, 60)
    with pytest.raises(ValueError):
        PursuitConfig(ncf_step_later=-1.0)


@pytest.mark.parametrize("module", ["numeric.training.neuron_pursuit", "numeric.training.vector_pursuit"])
def test_pursuits_follow_the_pga_schedule(module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both pursuits run PGA with the first iteration's (step, iters), then the later ones."""
    mod = importlib.import_module(module)
    calls: list[tuple[float, int]] = []
    real = mod.projected_gradient_ascent

    def spy(fn, u0, *, step, iters):
        calls.append((step, iters))
        return real(fn, u0, step=step, iters=iters)

    monkeypatch.setattr(mod, "projected_gradient_ascent", spy)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(15, 3))
    y = np.maximum(X[:, 0], 0.0) + 0.3 * X[:, 1] ** 2
    cfg = PursuitConfig(
        depth=2,
        restarts=2,
        ncf_step=0.25,
        ncf_iters=30,
        ncf_step_later=0.5,
        ncf_iters_later=20,
        gd_steps=3,
        max_iter=3,
        lr=0.01,
    )
    scalar = module.endswith("neuron_pursuit")
    run = mod.neuron_pursuit if scalar else mod.vector_pursuit
    run(X, y if scalar else y[:, None], cfg, np.random.default_rng(0))
    assert calls[0] == (0.25, 30) and set(calls[1:]) == {(0.5, 20)} and len(calls) >= 3
