r"""kumar2025 Theorem 7: gradient flow started near a sparse saddle stays there for
:math:`T_\epsilon/\delta^{L-2}` while the small weights follow the NCF flow and align with a
non-negative KKT point of the constrained NCF (eq. 19).

System (catalog Sec. 3, Theorem 7 (b)): a two-layer net with :math:`\sigma(x)=x^2`
(:math:`\alpha=1,p=2`, so the NCF degree is :math:`L=p+1=3` and the window is :math:`T/\delta`),
``d = 3``, ``n = 10``, one active neuron fitted to :math:`y=(u^\top x)^2-(v^\top x)^2` (:math:`u\perp v`) and
two new neurons (:math:`w_z`).  For two layers the decomposition is exact
(:math:`\mathcal H_1=\sum_jb_j(a_j^\top x)^2`, no remainder), Assumption 2 holds with the PL
exponent 1/2 at the fitted minimum (Morse--Bott along the rescaling orbit).

[derived] orders: the initial offset of :math:`w_n` is :math:`\delta` and relaxes (PL), the
forcing from :math:`w_z` is :math:`O(\delta^3)` over a window :math:`T/\delta`, so
:math:`\max_t\|w_n-\bar w_n\|=\Theta(\delta)` (theorem: :math:`O(\delta^{1/2})`); the residual
seen by :math:`w_z` differs from :math:`\bar y` by :math:`O(\delta e^{-ct})+O(\delta^2)`, so in the
rescaled time :math:`s=\delta t` the error :math:`\|w_z/\delta-u_1(s)\|` is :math:`\Theta(\delta^2)`
(theorem: :math:`O(\delta^{\beta_2})`, :math:`\beta_2=1/2`).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from numeric.homogeneous_nets import (
    kkt_cosine,
    loss_and_grad,
    ncf_and_grad,
    normalize,
    output,
    pack,
    projected_gradient_ascent,
    unpack,
)
from numeric.integrators.control import AdaptiveStep
from numeric.integrators.methods import DOPRI5
from numeric.solve import solve
from numeric.trajectory import Status, Trajectory
from verify.claim import claim
from verify.context import Context, Series

ALPHA, P = 1.0, 2
RTOL, ATOL = 1e-9, 1e-13


def _one_neuron_fit(
    X: np.ndarray, y: np.ndarray, rng: np.random.Generator, alpha: float = ALPHA, p: int = P
) -> np.ndarray:
    """Best one-neuron fit (a, b) of the restricted loss (BFGS, 20 restarts, Newton polish)."""
    d = X.shape[1]

    def fun(w: np.ndarray) -> tuple[float, np.ndarray]:
        value, grads = loss_and_grad(unpack(w[None], [(1, d), (1, 1)]), X, y, alpha, p)
        return float(value[0]), pack(grads)[0]

    fits = [
        minimize(fun, rng.normal(size=d + 1), jac=True, method="BFGS", options={"gtol": 1e-13})
        for _ in range(20)
    ]
    w = min(fits, key=lambda f: f.fun).x
    step = 1e-6  # Newton with a central-difference Hessian of the analytic gradient (error ~1e-10 relative);
    for _ in range(6):  # lstsq's minimum-norm step ignores the rescaling orbit's null direction
        hess = np.column_stack(
            [(fun(w + step * e)[1] - fun(w - step * e)[1]) / (2 * step) for e in np.eye(d + 1)]
        )
        w = w - np.linalg.lstsq(0.5 * (hess + hess.T), fun(w)[1], rcond=1e-9)[0]
    return w


def _flows(X, y, wn, shapes_z, alpha: float = ALPHA, p: int = P):
    """Fields of the full loss flow (eqs. 14-15) and of the reduced NCF flow (eq. 17)."""
    d = X.shape[1]
    full_shapes = [(1 + shapes_z[0][0], d), (1, 1 + shapes_z[0][0])]
    ybar = y - output(unpack(wn[None], [(1, d), (1, 1)]), X, alpha, p)[0]

    def full(t, w, args):
        return -pack(loss_and_grad(unpack(w, full_shapes), X, y, alpha, p)[1])

    def reduced(t, u, args):
        return pack(ncf_and_grad(unpack(u, shapes_z), X, ybar, alpha, p)[1])

    return full, reduced, full_shapes, ybar


def _assemble(wn: np.ndarray, z: np.ndarray, d: int, new: int) -> np.ndarray:
    """Flat full state from w_n = (a_1, b_1) and w_z = (A rows, B entries)."""
    A, B = z[: new * d].reshape(new, d), z[new * d :]
    return np.concatenate([np.vstack([wn[:d], A]).ravel(), np.concatenate([wn[d:], B])])


def _split(w: np.ndarray, d: int, new: int) -> tuple[np.ndarray, np.ndarray]:
    """(w_n, w_z) from flat full states (..., n_params)."""
    W1, W2 = w[..., : (1 + new) * d], w[..., (1 + new) * d :]
    wn = np.concatenate([W1[..., :d], W2[..., :1]], axis=-1)
    wz = np.concatenate([W1[..., d:], W2[..., 1:]], axis=-1)
    return wn, wz


def _solve(field, y0, ts, args=None) -> tuple[np.ndarray, Trajectory]:
    """Adaptive DOPRI5 on the host: this 14-parameter system is far too small to gain from a GPU."""
    traj = solve(
        field,
        np.asarray(y0, float),
        ts,
        method=DOPRI5,
        control=AdaptiveStep(rtol=RTOL, atol=ATOL),
        args=args,
        max_steps=200_000,
    )
    return np.asarray(traj.ys), traj


@claim(
    "kumar2025:theorem-7",
    title="Near a sparse saddle: stay T/delta^(L-2); small weights follow the NCF flow to a KKT point",
    source="Theorem 7, eqs. 14-19, 37, 42",
    statement=r"$\|w_n(t)-\bar w_n\|=O(\delta^{\beta_1})$, $\|w_z(t)\|=O(\delta)$ on "
    r"$[0,T_\epsilon/\delta^{L-2}]$; "
    r"$z\in\mathcal S(z_*)$ $\Rightarrow$ $\|w_z\|\ge\delta\eta_1$ and "
    r"$z_*^\top w_z/\|w_z\|=1-O(\epsilon)$ at "
    r"$T_\epsilon/\delta^{L-2}$; $\|w_z(t)-\delta u_1(\delta^{L-2}t)\|=O(\delta^{1+\beta_2})$ (eq. 42)",
    hypotheses=[
        "Assumption 1 (here exact: two layers)",
        r"Assumption 2: $\bar w_n$ a local min of "
        r"$\widetilde{\mathcal L}$ with Lojasiewicz exponent < L/(2(L-1))",
        r"$z\in\mathcal S(z_*)$",
        r"$\sigma=x^2$ ($L=p+1=3$)",
    ],
)
def theorem_7(ctx: Context) -> None:
    iters = ctx.param("steps", tiny=2000, quick=10_000)
    ratio = ctx.param("delta_ratio", tiny=0.7, quick=0.5, full=0.5)
    trials = ctx.param("trials", tiny=3, quick=5, full=8)
    rng = ctx.rng("data").host
    n, d, new = 10, 3, 2
    X = rng.normal(size=(n, d))
    u, v = normalize(rng.normal(size=(2, d)))
    u, v = np.linalg.qr(np.stack([u, v], axis=1))[0].T  # orthonormal: the residual is a full quadratic
    y = (X @ u) ** 2 - (X @ v) ** 2
    wn = _one_neuron_fit(X, y, rng)
    grad_n = pack(loss_and_grad(unpack(wn[None], [(1, d), (1, 1)]), X, y, ALPHA, P)[1])[0]
    ctx.bound(
        "|grad L~(w_n bar)| (the saddle is critical)",
        float(np.linalg.norm(grad_n)),
        1e-10,
        why="Newton polish reaches ~1e-14 (sums of n = 10 terms of size |y| |J| ~ 1e2 round at ~1e-13); "
        "1e-10 displaces the minimizer by < 1e-9, far below the smallest delta",
    )
    shapes_z = [(new, d), (1, new)]
    full, reduced, _, ybar = _flows(X, y, wn, shapes_z)
    z = normalize(rng.normal(size=new * d + new))

    def ncf(w):
        value, grads = ncf_and_grad(unpack(w, shapes_z), X, ybar, ALPHA, P)
        return value, pack(grads)

    # u_1 blows up in finite time (Lemma 11, L = 3); its direction near blow-up, refined by PGA, is z*
    _, traj = _solve(reduced, z[None], np.linspace(0, 10.0, 3))
    t_blow = float(traj.t_stop[0])
    ctx.holds(
        "u_1 blows up in finite time (L = 3)",
        traj.status[0] != Status.SUCCESS,
        measured=t_blow,
        expected="finite blow-up",
        why="Lemma 11 / Lemma 1, L > 2",
    )
    late = _solve(reduced, z[None], np.array([0.0, 0.999 * t_blow]))[0][0, -1]
    z_star, n_star = projected_gradient_ascent(ncf, late[None], step=1e-3, iters=iters)
    cos_kkt = float(kkt_cosine(z_star, ncf(z_star)[1])[0])
    ctx.holds(
        "z* is a non-negative KKT point",
        n_star[0] >= 0 and cos_kkt > 1 - 1e-8,
        measured={"N(z*)": float(n_star[0]), "kkt cosine": cos_kkt},
        expected="N >= 0, cosine > 1-1e-8",
        why="Lemma 1: the NCF flow from z diverges in direction of a non-negative KKT point",
    )
    T = 0.7 * t_blow
    s_grid = np.linspace(0.0, T, 41)
    u1 = _solve(reduced, z[None], s_grid)[0][0]
    eps = 1 - float(u1[-1] @ z_star[0] / np.linalg.norm(u1[-1]))
    # |w_z| = delta |u_1| must stay small: the largest delta keeps it below 0.1
    top = 0.1 / float(np.linalg.norm(u1, axis=1).max())
    deltas = top * ratio ** np.arange(trials)
    E, drift, zmax, cos_end, norm_end = _run_deltas(ctx, full, wn, z, deltas, s_grid, u1, z_star[0], d, new)
    ctx.order(
        "E(delta) = max_t |w_z(t)/delta - u_1(delta t)| (eq. 42)",
        deltas,
        E,
        expected=2.0,
        tol=0.35,
        why="[derived, module docstring] Theta(delta^2) for this exact two-layer decomposition (theorem "
        "guarantees >= beta_2 = 1/2); solver error (rtol 1e-9, atol 1e-13) is < 1e-3 of E at the "
        "smallest delta; "
        "tol 0.35 covers the "
        "next-order term over the grid",
        xlabel="delta",
        ylabel="E",
    )
    ctx.order(
        "max_t |w_n(t) - w_n bar|",
        deltas,
        drift,
        expected=1.0,
        tol=0.2,
        why="[derived] the initial offset delta n relaxes under PL; the O(delta^3) forcing adds O(delta^2); "
        "the theorem guarantees at least beta_1 = 1/2",
        xlabel="delta",
        ylabel="drift",
    )
    ctx.bound(
        "max_t |w_z(t)|/delta (bounded)",
        zmax,
        float(np.linalg.norm(u1, axis=1).max()) + E.max(),
        why="|w_z/delta| <= |u_1| + E by the triangle inequality",
    )
    ctx.bound(
        "|w_z(T/delta)| / (delta eta_1), eta_1 = |u_1(T)|/2",
        norm_end / (0.5 * np.linalg.norm(u1[-1])),
        1.0,
        side=">=",
        why="eta_1 := |u_1(T)|/2 is delta-free; holds once E < |u_1(T)|/2",
    )
    ctx.bound(
        "cos(w_z(T_eps/delta), z*) >= 1 - 2 eps",
        cos_end,
        1 - 2 * eps,
        side=">=",
        why=f"eps = 1 - cos(u_1(T_eps), z*) = {eps:.3g}; factor 2 is the O(eps) constant, "
        "the deviation E(delta)/|u_1(T)| being far smaller",
    )
    ctx.figure(
        "w_z/delta against the reduced NCF flow",
        xlabel="s = delta t",
        ylabel="|.|",
        series=[Series("|u_1(s)|", s_grid, np.linalg.norm(u1, axis=1))],
    )
    ctx.note(
        "ReLU / leaky ReLU (p = 1) are outside Theorem 7 (L = 2; Assumption 1's Lipschitz gradients fail). "
        "An exploratory run of this experiment with leaky ReLU (alpha = 0.5) gave a fitted E(delta) order of "
        "about 0.36 and an adaptive solver slowed down at kinks; it is not verified here."
    )
    with ctx.control(
        "z = -z*: a negative KKT point, from which the NCF flow dies out", breaks=r"$z\in\mathcal S(z_*)$"
    ):
        z2 = -z_star[0]
        *_, cos2, _ = _run_deltas(ctx, full, wn, z2, deltas[-1:], s_grid, u1, z_star[0], d, new)
        ctx.bound("cos(w_z(T_eps/delta), z*) >= 1 - 2 eps", cos2, 1 - 2 * eps, side=">=", why="as above")
    with ctx.control(
        "(w_n bar, 0) not critical: b_1 scaled by 1.3", breaks="Assumption 2 (saddle, local min)"
    ):
        wn_bad = wn.copy()
        wn_bad[d] *= 1.3
        _, drift_bad, *_ = _run_deltas(ctx, full, wn_bad, z, deltas, s_grid, u1, z_star[0], d, new)
        ctx.order(
            "max_t |w_n(t) - w_n bar|",
            deltas,
            drift_bad,
            expected=1.0,
            tol=0.2,
            why="as above",
            xlabel="delta",
            ylabel="drift",
        )


def _run_deltas(ctx, full, wn, z, deltas, s_grid, u1, z_star, d, new):
    """Per delta: E, max drift of w_n, max |w_z|/delta, cos(w_z(T/delta), z*), |w_z(T/delta)|/delta.

    All deltas are one batched solve in the rescaled time s = delta^(L-2) t: dw/ds = field(w)/delta^(L-2).
    """
    n_dir = normalize(ctx.rng("n").host.normal(size=d + 1))
    y0 = np.stack([_assemble(wn + delta * n_dir, delta * z, d, new) for delta in deltas])
    rate = (1.0 / np.asarray(deltas) ** (P - 1))[:, None]
    ys = _solve(lambda t, w, args: full(t, w, args) * args["rate"], y0, s_grid, {"rate": rate})[0]
    wn_t, wz_t = _split(ys, d, new)
    scale = np.asarray(deltas)[:, None, None]
    E = np.linalg.norm(wz_t / scale - u1, axis=2).max(axis=1)
    drift = np.linalg.norm(wn_t - wn, axis=2).max(axis=1)
    zmax = (np.linalg.norm(wz_t, axis=2) / scale[..., 0]).max(axis=1)
    end = wz_t[:, -1]
    cos_end = end @ z_star / np.linalg.norm(end, axis=1)
    return E, drift, zmax, cos_end, np.linalg.norm(end, axis=1) / np.asarray(deltas)
