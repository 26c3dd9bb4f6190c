"""The balanced log-polar flow's Filippov sliding mode (``LogPolarFlow.switching.weight``).

Known sliding solution (reduced dynamics, exponential loss: :math:`\\rho(0)=-40` makes
:math:`e^{2\\rho}f` ~ 1e-35, so :math:`r_i=y_i` to the last bit). One neuron (:math:`s=+1`) in
:math:`\\mathbb R^3`, :math:`x_1=e_1` with :math:`y_1=-1`, :math:`x_2=(a,b,0)` with :math:`y_2=+1`,
:math:`0<a<1`. Active on both, :math:`g_+=x_2-x_1`: on a great circle :math:`\\dot u=P_ug_+` moves
:math:`u` towards :math:`c=g_+/|g_+|` with :math:`\\tan(\\theta/2)=\\tan(\\theta_0/2)e^{-|g_+|t}`
(:math:`\\theta` the angle to :math:`c`) and :math:`\\dot\\rho=|g_+|\\cos\\theta`, i.e.
:math:`\\rho=\\rho_0-\\log(\\sin\\theta/\\sin\\theta_0)`. It reaches :math:`u_1=0` at :math:`t_c`, where
the surface velocities are :math:`g'_+=a-1<0` and :math:`g'_-=a>0` (:math:`g'_-=a-\\alpha` for the
:math:`\\alpha`-leaky flow, :math:`\\alpha<a`): the flow slides with
:math:`p=g'_-/(g'_--g'_+)=a` (leaky: :math:`(a-\\alpha)/(1-\\alpha)`), the sliding field
:math:`g_p=x_2-ax_1=(0,b,0)` (the same for both flows), so :math:`u` moves along the great circle
:math:`u_1=0` towards :math:`e_2` by the same law with rate :math:`b`, for ever (:math:`p` is
constant).
"""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.engine.integrators import DOPRI5, AdaptiveStep
from numeric.engine.integrators.events import PATTERN_KEY, SLIDE_KEY
from numeric.engine.solve import solve
from numeric.models.balanced_relu import LogPolarFlow, join, logpolar_state, logpolar_to_plain, split, unit
from numeric.models.leaky_balanced import LeakyLogPolarFlow
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow

BE = get_backend("numpy")
FLOWS = [LogPolarFlow("exponential"), LeakyLogPolarFlow("exponential", 0.2)]
IDS = ["relu", "leaky0.2"]
A, B_ = 0.5, 1.0  # x_2 = (a, b, 0)
RHO0 = -40.0


def _great_circle(u0: np.ndarray, c: np.ndarray, rate: float, t: float) -> tuple[np.ndarray, float]:
    """``u(t)`` and ``rho(t) - rho(0)`` of ``u' = rate P_u c`` from ``u0`` (unit ``c``)."""
    th0 = np.arccos(u0 @ c)
    e = u0 - (u0 @ c) * c
    e /= np.linalg.norm(e)
    th = 2 * np.arctan(np.tan(th0 / 2) * np.exp(-rate * t))
    return np.cos(th) * c + np.sin(th) * e, -np.log(np.sin(th) / np.sin(th0))


def _known_solution(u0: np.ndarray) -> tuple[float, callable]:
    """``t_c`` and ``t -> (u(t), rho(t))`` of the module docstring's system."""
    gp = np.array([A - 1.0, B_, 0.0])
    c = gp / np.linalg.norm(gp)
    e = u0 - (u0 @ c) * c
    e /= np.linalg.norm(e)
    thq = np.arctan2(-c[0], e[0])  # u_1 = cos(th) c_1 + sin(th) e_1 = 0 on the great circle
    th0 = np.arccos(u0 @ c)
    tc = np.log(np.tan(th0 / 2) / np.tan(thq / 2)) / np.linalg.norm(gp)
    q, dq = _great_circle(u0, c, np.linalg.norm(gp), tc)

    def exact(t: float) -> tuple[np.ndarray, float]:
        if t < tc:
            u, dr = _great_circle(u0, c, np.linalg.norm(gp), t)
            return u, RHO0 + dr
        u, dr = _great_circle(q, np.array([0.0, 1.0, 0.0]), B_, t - tc)
        return u, RHO0 + dq + dr

    return tc, exact


@pytest.mark.parametrize("flow", FLOWS, ids=IDS)
def test_known_sliding_solution(flow):
    """The event solve slides from ``t_c`` with the weight of the docstring and follows the closed
    form to its error control: the global error of an rtol solve is 1-100 rtol |y| (cf.
    :class:`~numeric.engine.integrators.control.AdaptiveStep`; ``|u| = 1``, ``|rho| <= 41``), in
    a few dozen steps (measured 25 at rtol 1e-8; without the sliding mode the live entry chatters:
    511,470 steps at rtol 1e-6)."""
    X = np.array([[1.0, 0.0, 0.0], [A, B_, 0.0]])
    y = np.array([-1.0, 1.0])
    u0 = np.array([0.3, 0.2, 1.0]) / np.linalg.norm([0.3, 0.2, 1.0])
    tc, exact = _known_solution(u0)
    assert 0 < tc and exact(tc)[0][0] == pytest.approx(0, abs=1e-15)  # it reaches the surface at t_c
    T = tc + 2.0
    args = LogPolarFlow.args(BE, X, y, s=np.ones(1))
    rtol = 1e-8
    tr = solve(
        flow,
        join(u0[None, None], np.full((1, 1), RHO0)),
        [0.0, T],
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=1e-2 * rtol),
        args=args,
        events=flow.switching,
    )
    assert tr.ok.all() and tr.n_steps[0] <= 60
    assert tr.n_sliding.tolist() == [1] and tr.sliding["entry"].tolist() == [0]
    assert abs(tr.sliding["t_start"][0] - tc) < 100 * rtol and np.isnan(tr.sliding["t_end"][0])
    U, rho = split(tr.final, 1)
    uT, rT = exact(T)
    assert np.abs(unit(U)[0, 0] - uT).max() < 100 * rtol
    assert abs(rho[0, 0] - rT) < 100 * rtol * abs(RHO0)
    alpha = flow.activation.alpha
    p = flow.switching.weight(
        T, tr.final, {**args, PATTERN_KEY: np.array([[alpha, 1.0]]), SLIDE_KEY: np.array([[True, False]])}
    )
    assert p[0, 0] == pytest.approx((A - alpha) / (1 - alpha), rel=1e-12)


@pytest.mark.parametrize("flow", [FLOWS[0], LeakyLogPolarFlow("exponential", 0.3)], ids=["relu", "leaky0.3"])
def test_sliding_weight_keeps_the_surface_velocities_zero(flow):
    """On correlated data (reduced dynamics): neuron 0 on two surfaces at once (both entries
    sliding, solved jointly), neuron 1 on one. (i) One entry: the weight is
    ``g'_- / (g'_- - g'_+)`` of the two sides' normal velocities, each from a field evaluation
    with that side's slope (the derivation in ``LogPolarFlow.switching``; in (0, 1) only where
    they have opposite signs, not so on this draw for the leaky flow). (ii) The field with the
    weights' slopes ``alpha + p (1 - alpha)`` as its pattern (unclipped) has zero normal velocity
    on all three entries, to rounding (each a sum of ~n^2 products of O(1) terms: 1e-13), while
    the other entries move. (iii) The sliding field is that field with the slopes clipped to
    [alpha, 1]."""
    rng = np.random.default_rng(0)
    n, D = 4, 4
    X = rng.normal(size=(n, D)) + np.array([1.0, 0, 0, 0])  # correlated: a shared mean
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    W = rng.normal(size=(1, 2, D))
    for j, on in ((0, [0, 1]), (1, [2])):  # put neuron j on the surfaces of the data `on`
        Q, _ = np.linalg.qr(X[on].T)
        W[0, j] -= Q @ (Q.T @ W[0, j])
    U, rho = split(logpolar_state(W), 2)
    state = join(U, rho + RHO0)
    args = LogPolarFlow.args(BE, X, y, s=np.array([1.0, -1.0]))
    sw = flow.switching
    g = sw.values(state, args)
    entries = [0, 1, n + 2]
    assert np.abs(g[0, entries]).max() < 1e-15
    alpha = flow.activation.alpha
    pattern = sw.slopes(g, args)
    sliding = np.zeros_like(g, dtype=bool)
    sliding[0, entries] = True
    p = sw.weight(0.0, state, {**args, PATTERN_KEY: pattern, SLIDE_KEY: sliding})
    assert np.isnan(p[~sliding]).all()

    def velocity(slopes: np.ndarray, **masks) -> np.ndarray:
        return sw.values(flow(0.0, state, {**args, PATTERN_KEY: slopes, **masks}), args)[0]

    def with_slope(e: int, slope: float) -> np.ndarray:
        side = pattern.copy()
        side[0, e] = slope
        return side

    up, down = velocity(with_slope(n + 2, 1.0))[n + 2], velocity(with_slope(n + 2, alpha))[n + 2]
    assert p[0, n + 2] == pytest.approx(down / (down - up), rel=1e-12)
    star = np.where(sliding, alpha + p * (1 - alpha), pattern)
    moved = velocity(star)
    assert np.abs(moved[entries]).max() < 1e-13
    assert np.abs(moved[[2, 3]]).min() > 1e-3  # neuron 0's other entries move
    clipped = np.where(sliding, np.clip(star, alpha, 1.0), pattern)
    assert not np.array_equal(clipped, star)  # this draw clips
    np.testing.assert_array_equal(velocity(pattern, **{SLIDE_KEY: sliding}), velocity(clipped))


def test_a_dead_side_tangency_is_no_sliding():
    """Orthogonal data (``X`` diagonal): on the dead side of ``x_i`` the field's normal velocity is
    ``-rho_j' z_ji`` (the normalisation's), which points into the surface while the neuron grows but
    vanishes on it: a tangency, weight exactly 0 (the dead side's surface velocity is a sum of
    products with ``<x_k, x_i> = 0``). No death is recorded as sliding (before: 12 sliding
    records at the 13 events of 3 members by T = 3), every entry that died stays on the dead side
    without crossing back (its pre-activation stays within the event's residual of the surface,
    <= 100 rtol: the global error of an rtol solve, ``|U_j| = 1``), and the same deaths are located."""
    n, h, B = 4, 4, 3
    rng = np.random.default_rng(11)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = np.diag(y * rng.uniform(0.5, 1.5, n))
    flow = LogPolarFlow("exponential")
    args = LogPolarFlow.args(BE, X, y, s=rng.choice([-1.0, 1.0], (B, h)))
    U, rho = split(logpolar_state(rng.normal(size=(B, h, n))), h)
    y0 = join(U, rho + np.log(0.1))
    sw = flow.switching
    tr = solve(
        flow,
        y0,
        [0.0, 3.0],
        method=DOPRI5,
        control=AdaptiveStep(rtol=1e-8, atol=1e-10),
        args=args,
        events=sw,
    )
    assert tr.ok.all() and tr.n_events.tolist() == [5, 4, 4]
    assert tr.n_sliding.tolist() == [0, 0, 0] and tr.sliding["member"].size == 0
    g0, gT = sw.values(y0, args), sw.values(tr.final, args)
    died = (g0 > 0) & (gT <= 0)
    assert died.sum() >= 10 and (gT[died] > -100 * 1e-8).all()  # on the dead side, next to the surface
    dead = {**args, PATTERN_KEY: sw.slopes(gT, args), SLIDE_KEY: died}
    assert (sw.weight(3.0, tr.final, dead)[died] == 0).all()


def test_sliding_agrees_with_the_plain_coordinates():
    """Correlated data (Gaussian, n = 8 in R^4, alternating labels), exponential sum loss, a
    balanced start at scale 0.3: min2024's flow in log-polar coordinates and the same net as a
    :class:`~numeric.models.vector_fields.GradientFlow` on ``(W, v)`` (sliding mode of its own, in
    other coordinates) slide on the same (member, entry) pairs from the same times, and the 5
    segments that end do so at the same times (exits located on each solve's own weight); the
    final weights agree to both solves' errors, <= 100 rtol |W| each (measured 5e-11 at 1e-9)."""
    rng = np.random.default_rng(0)
    n, D, h, B = 8, 4, 6, 3
    X = rng.normal(size=(n, D))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    W0 = rng.normal(size=(B, h, D)) / np.sqrt(D) * 0.3
    s = rng.choice([-1.0, 1.0], (B, h))
    net = BiasFreeNet((D, h, 1), kink=0.0)
    plain = GradientFlow(net, Loss("exponential", "sum"))
    flow = LogPolarFlow("exponential")
    v0 = (s * np.linalg.norm(W0, axis=2))[:, None, :]
    rtol = 1e-8
    runs = [
        solve(
            model,
            y0,
            [0.0, 2.0],
            method=DOPRI5,
            control=AdaptiveStep(rtol=rtol, atol=1e-2 * rtol),
            args=args,
            events=model.switching,
        )
        for model, y0, args in (
            (flow, logpolar_state(W0), LogPolarFlow.args(BE, X, y, s=s)),
            (plain, net.pack([W0, v0]), plain.args(BE, X, y, alpha=0.0)),
        )
    ]
    a, b = (tr.sliding for tr in runs)
    assert runs[0].n_sliding.sum() >= 10 and np.isfinite(a["t_end"]).sum() == 5
    for key in ("member", "entry"):
        np.testing.assert_array_equal(a[key], b[key])
    for key in ("t_start", "t_end"):
        np.testing.assert_allclose(a[key], b[key], rtol=0, atol=100 * rtol)
    W = net.unpack(runs[1].final)[0]
    assert np.abs(logpolar_to_plain(runs[0].final, s)[0] - W).max() < 200 * rtol * np.abs(W).max()
