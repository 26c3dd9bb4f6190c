"""kumar2025 App. D.3: the rates of the H_2-NCF's angular flow (verify/papers/kumar2025/alignment.py) -- the
order 2 (sigma_2/sigma_1 - 1) of 1 - cos, the KKT measure and the slow pair's removal."""

from __future__ import annotations

import numpy as np

from verify.papers.kumar2025.alignment import (
    family_angles,
    family_misalignment,
    h2_grads,
    misalignment,
    profile_slope,
    rates,
    slow_angle,
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


def test_misalignment_vanishes_at_a_maximiser() -> None:
    _, Ws, _, ybar, rng = _problem((4.0, 3.0, 2.0, 0.5))
    assert misalignment(_maximiser(Ws, ybar, rng), ybar) < 1e-14


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


def _direction_flow(Ws, masks, ybar, W0, s_read: np.ndarray, per_unit: int = 100) -> list[list[np.ndarray]]:
    """RK4 on the direction of the H_2-NCF flow in log-norm time s, d w/ds = (grad N(w) - 3 N(w) w)/(3 N(w))
    on the unit sphere, from W0's direction: the weights at the (integer) times ``s_read``."""
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

    v = np.concatenate([Wl[m] for Wl, m in zip(W0, M, strict=True)])
    v /= np.linalg.norm(v)
    ds, out = 1.0 / per_unit, []
    for k in range(int(s_read.max()) * per_unit + 1):
        if k % per_unit == 0 and k // per_unit in s_read:
            out.append(unpack(v))
        k1 = field(v)
        k2 = field(v + ds / 2 * k1)
        k3 = field(v + ds / 2 * k2)
        k4 = field(v + ds * k3)
        v = v + ds / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        v /= np.linalg.norm(v)
    return out


def test_the_reduced_flow_aligns_at_the_derived_order() -> None:
    """The fitted order of 1 - cos in g = |w|/|w_0| along the H_2-NCF's direction flow is
    2 (sigma_2/sigma_1 - 1) = -2/3, away from the neighbours -5/3 and 0, once the slow pair dominates (the
    local order is -2 ... -1.8 while the lambda = -1 modes do, up to s ~ 6, and 0.667 from s ~ 13 on)."""
    _, Ws, masks, ybar, rng = _problem((4.0, 3.0, 2.0, 0.5))
    W0 = _maximiser(Ws, ybar, rng)
    M = [m.astype(bool) for m in masks]
    for Wl, m in zip(W0, M, strict=True):
        Wl[m] += 0.3 * rng.normal(size=m.sum()) / np.sqrt(sum(mm.sum() for mm in M))
    s_grid = np.arange(14.0, 20.01, 1.0)
    mis = [misalignment(W, ybar) for W in _direction_flow(Ws, masks, ybar, W0, s_grid)]
    slope = np.polyfit(s_grid, np.log(mis), 1)[0]
    assert abs(slope - rates(ybar).order) < 0.01, (slope, mis)


def _family_point(Ws, ybar, rng, phi: float) -> list[np.ndarray]:
    """The slow mode's invariant family at angle phi, m = 1: A_1 = q (cos phi b_1 + sin phi b_2)^T,
    B_3 = (cos phi a_1 + sin phi a_2) p^T, C_2 = p q^T (a_2, b_2 of the middle layer 0)."""
    a, _, bt = np.linalg.svd(ybar)
    h = Ws[0].shape[0] - 1
    q, p = (v / np.linalg.norm(v) for v in rng.normal(size=(2, h)))
    W = [Wl.copy() for Wl in Ws]
    W[0][1:] = np.outer(q, np.cos(phi) * bt[0] + np.sin(phi) * bt[1])
    W[1][1:, 1:] = np.outer(p, q)
    W[2][:, 1:] = np.outer(np.cos(phi) * a[:, 0] + np.sin(phi) * a[:, 1], p)
    return W


def test_family_misalignment_is_the_misalignment_on_the_family() -> None:
    _, Ws, _, ybar, rng = _problem((4.0, 3.0, 2.0, 0.5))
    rho = 1 - rates(ybar).slow
    for phi in (1e-3, 0.2, 0.6):
        W = _family_point(Ws, ybar, rng, phi)
        theta = slow_angle(W, ybar)
        assert abs(theta - np.sqrt(2 / 3) * np.sin(phi)) < 1e-14
        exact = family_misalignment(theta, rho)
        assert abs(misalignment(W, ybar) - exact) < 1e-9 * exact + 1e-14  # 1 - cos rounds to ~1e-16


def test_family_angles_follow_the_reduced_flow_from_a_large_slow_angle() -> None:
    """From phi = 0.6 (theta = 0.46: far from linear, lambda_2 = -1/3) the H_2-NCF's direction flow stays in
    the family and its slow angle at log-norm times s = 0..8 is family_angles at g = e^s (RK4, 1e-8); the
    first-order g^lambda_2 is 10% off at the end."""
    _, Ws, masks, ybar, rng = _problem((4.0, 3.0, 2.0, 0.5))
    rho = 1 - rates(ybar).slow
    s_read = np.arange(0.0, 8.01, 2.0)
    flow = _direction_flow(Ws, masks, ybar, _family_point(Ws, ybar, rng, 0.6), s_read)
    measured = np.array([slow_angle(W, ybar) for W in flow])
    predicted = family_angles(measured[0], rho, np.exp(s_read))
    assert np.abs(measured / predicted - 1).max() < 1e-8, (measured, predicted)
    assert abs(measured[-1] / (measured[0] * np.exp((rho - 1) * s_read[-1])) - 1) > 0.1
