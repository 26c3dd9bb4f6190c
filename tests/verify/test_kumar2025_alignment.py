"""kumar2025 App. D.3: the rates of the H_2-NCF's angular flow (verify/papers/kumar2025/alignment.py) -- the
order 2 (sigma_2/sigma_1 - 1) of 1 - cos, the KKT measure and the slow pair's removal."""

from __future__ import annotations

import numpy as np

from verify.papers.kumar2025.alignment import (
    h2_grads,
    misalignment,
    profile_slope,
    rates,
    slow_angle,
    without_slow_pair,
)
from verify.papers.kumar2025.experiments import _linear_saddle


def _problem(s: tuple[float, ...], seed: int = 0):
    """S = U diag(s) V^T with random orthogonal U, V; the saddle (55), its masks and y bar."""
    rng = np.random.default_rng(seed)
    d = len(s)
    U, _ = np.linalg.qr(rng.normal(size=(d, d)))
    V, _ = np.linalg.qr(rng.normal(size=(d, d)))
    S = U @ np.diag(s) @ V.T
    Ws, masks = _linear_saddle(S, 3)
    return S, Ws, masks, S - np.linalg.multi_dot(Ws[::-1]), rng


def _maximiser(Ws, ybar: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    """(c q b_1^T, c p q^T, c a_1 p^T) on w_z, c = 3^(-1/2), random unit hidden q, p; w_n as in ``Ws``."""
    a, _, bt = np.linalg.svd(ybar)
    h = Ws[0].shape[0] - 1
    q, p = (v / np.linalg.norm(v) for v in rng.normal(size=(2, h)))
    c = 3**-0.5
    W = [Wl.copy() for Wl in Ws]
    W[0][1:], W[1][1:, 1:], W[2][:, 1:] = c * np.outer(q, bt[0]), c * np.outer(p, q), c * np.outer(a[:, 0], p)
    return W


def test_rates_from_the_singular_values_of_y_bar() -> None:
    *_, ybar, _ = _problem((4.0, 3.0, 2.0, 0.5))
    rate = rates(ybar)
    assert abs(rate.order - 2 * (2 / 3 - 1)) < 1e-12 and abs(rate.slow - 1 / 3) < 1e-12
    assert abs(rate.below - 2 * (0.5 / 3 - 1)) < 1e-12
    *_, ybar, _ = _problem((4.0, 3.0, 1.0, 0.0))
    assert abs(rates(ybar).below + 2.0) < 1e-12  # y bar has no third singular value: the lambda = -1 modes


def test_misalignment_vanishes_at_a_maximiser_and_the_slow_pair_is_what_is_removed() -> None:
    _, Ws, _, ybar, rng = _problem((4.0, 3.0, 2.0, 0.5))
    W = _maximiser(Ws, ybar, rng)
    assert misalignment(W, ybar) < 1e-14
    a, _, bt = np.linalg.svd(ybar)
    q = W[0][1:] @ bt[0] / np.linalg.norm(W[0][1:] @ bt[0])
    p = W[2][:, 1:].T @ a[:, 0] / np.linalg.norm(W[2][:, 1:].T @ a[:, 0])
    slow = [Wl.copy() for Wl in W]
    slow[0][1:] += 0.01 * np.outer(q, bt[1])
    slow[2][:, 1:] += 0.02 * np.outer(a[:, 1], p)
    assert misalignment(slow, ybar) > 1e-6
    assert misalignment(without_slow_pair(slow, ybar), ybar) < 1e-12
    other = [Wl.copy() for Wl in W]
    other[0][1:] += 0.01 * np.outer(q, bt[2])
    other[2][:, 1:] += 0.02 * np.outer(a[:, 2], p)
    assert abs(misalignment(without_slow_pair(other, ybar), ybar) / misalignment(other, ybar) - 1) < 1e-6


def test_slow_angle_is_the_symmetric_pair_and_costs_lambda_squared_in_the_cosine() -> None:
    """A deviation e of the maximiser along the slow mode (alpha = beta) or its partner (alpha = -beta): the
    slow angle reads sqrt(2) e / |u| on the first and 0 on the second, and 1 - cos = lambda^2 theta^2 / 2 with
    lambda = sigma_2/sigma_1 - 1 and -sigma_2/sigma_1 - 1 (to O(e)): sqrt(2 (1 - cos)) is |lambda| theta, not
    theta (the D.3 tolerance once read the slow angle as sqrt(2 (1 - cos)), 1/|lambda_2| = 3 times too small
    here)."""
    _, Ws, _, ybar, rng = _problem((4.0, 3.0, 2.0, 0.5))
    W = _maximiser(Ws, ybar, rng)
    a, _, bt = np.linalg.svd(ybar)
    q = W[0][1:] @ bt[0] / np.linalg.norm(W[0][1:] @ bt[0])
    p = W[2][:, 1:].T @ a[:, 0] / np.linalg.norm(W[2][:, 1:].T @ a[:, 0])
    rate, eps = rates(ybar), 1e-3
    theta = np.sqrt(2) * eps / np.sqrt(1 + 2 * eps**2)  # |u| = 1 at the maximiser
    for sign, lam in ((1.0, -rate.slow), (-1.0, rate.slow - 2)):
        V = [Wl.copy() for Wl in W]
        V[0][1:] += eps * np.outer(q, bt[1])
        V[2][:, 1:] += sign * eps * np.outer(a[:, 1], p)
        assert abs(slow_angle(V, ybar) - (theta if sign > 0 else 0.0)) < 1e-12
        assert abs(misalignment(V, ybar) / (lam**2 * theta**2 / 2) - 1) < 10 * eps


def test_profile_slope_takes_either_sign_and_is_infinite_past_one() -> None:
    g = 2.0 ** np.arange(10, 14)
    eps = 0.5 * (g / g[0]) ** -0.5
    plus = abs(np.polyfit(np.log(g), np.log1p(eps), 1)[0])
    minus = abs(np.polyfit(np.log(g), np.log1p(-eps), 1)[0])
    assert minus > plus and profile_slope(g, eps) == minus
    assert profile_slope(g, np.array([1.0, 0.5, 0.2, 0.1])) == np.inf


def test_the_reduced_flow_aligns_at_the_derived_order() -> None:
    """RK4 on the direction of the H_2-NCF flow in log-norm time, d w/ds = (grad N(w) - 3 N(w) w)/(3 N(w))
    on the unit sphere: the fitted order of 1 - cos in g = |w|/|w_0| is 2 (sigma_2/sigma_1 - 1) = -2/3,
    away from the neighbours -5/3 and 0, once the slow pair dominates (the local order is -2 ... -1.8 while
    the lambda = -1 modes do, up to s ~ 6, and 0.667 from s ~ 13 on)."""
    _, Ws, masks, ybar, rng = _problem((4.0, 3.0, 2.0, 0.5))
    M = [m.astype(bool) for m in masks]

    def unpack(v: np.ndarray) -> list[np.ndarray]:
        W, i = [Wl.copy() for Wl in Ws], 0
        for Wl, m in zip(W, M, strict=True):
            Wl[m] = v[i : i + m.sum()]
            i += m.sum()
        return W

    def field(v: np.ndarray) -> np.ndarray:
        grad = np.concatenate([g[m] for g, m in zip(h2_grads(unpack(v), ybar), M, strict=True)])
        n3 = grad @ v  # 3 N(w) on the unit sphere (Euler)
        return (grad - n3 * v) / n3

    W0 = _maximiser(Ws, ybar, rng)
    v = np.concatenate([Wl[m] for Wl, m in zip(W0, M, strict=True)])
    v = v + 0.3 * rng.normal(size=v.size) / np.sqrt(v.size)
    v /= np.linalg.norm(v)
    ds, per_unit, mis = 0.01, 100, []
    s_grid = np.arange(14.0, 20.01, 1.0)
    for k in range(20 * per_unit + 1):
        if k % per_unit == 0 and k // per_unit >= 14:
            mis.append(misalignment(unpack(v), ybar))
        k1 = field(v)
        k2 = field(v + ds / 2 * k1)
        k3 = field(v + ds / 2 * k2)
        k4 = field(v + ds * k3)
        v = v + ds / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        v /= np.linalg.norm(v)
    slope = np.polyfit(s_grid, np.log(mis), 1)[0]
    assert abs(slope - rates(ybar).order) < 0.01, (slope, mis)
