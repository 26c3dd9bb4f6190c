r"""Shared setup of the min2024 claims: problems, log-polar runs, events, explicit constants.

* :class:`Problem` -- data ``X`` (n, D), labels, and an ensemble of balanced initial
  shapes ``W0`` (B, h, D) with signs ``s`` (B, h) and log-scales :math:`\log\epsilon` (B,);
* :func:`family_problem` -- catalog family F with random radii (a search over
  :math:`X_{\min}/X_{\max}`), Gaussian :math:`W_0` (:math:`\mathcal N(0,1/D)`), random signs;
* :func:`run` -- ONE batched DOPRI5 solve of :class:`numeric.models.balanced_relu.LogPolarFlow`;
* :func:`events` -- region labels over time, empirical :math:`t_1` (first output time at
  which every neuron is in its allowed region), trapping and monotonicity violations;
* :func:`explicit_t1`, :func:`log_eps_threshold` -- Theorem 1's :math:`t_1` and eq. (28),
  with the catalog's two corrections (:math:`\zeta=\min\{\zeta_1,\zeta_2\}`, 8 for 4).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.backend import Backend, to_numpy
from numeric.data.separated_data import (
    DEAD,
    MINUS,
    PLUS,
    activation,
    allowed,
    family_f,
    regions,
    separation,
    xi,
    zeta1,
    zeta2,
)
from numeric.engine.integrators.control import AdaptiveStep
from numeric.engine.integrators.methods import DOPRI5
from numeric.engine.solve import solve
from numeric.engine.trajectory import Trajectory
from numeric.models.balanced_relu import LogPolarFlow, join, logpolar_state, split, unit

EPS = float(np.finfo(np.float64).eps)
REDUCED_LOG_EPS = -1.0e4  # rho(0) = log eps: e^{2 rho} underflows to exactly 0


@dataclass(frozen=True)
class Problem:
    """Data (host, exact) and an ensemble of balanced initial shapes (see module docstring)."""

    X: np.ndarray
    y: np.ndarray
    W0: np.ndarray
    s: np.ndarray
    log_eps: np.ndarray

    @property
    def B(self) -> int:
        return self.W0.shape[0]

    @property
    def h(self) -> int:
        return self.W0.shape[1]

    @property
    def n(self) -> int:
        return self.X.shape[0]

    def with_log_eps(self, log_eps) -> Problem:
        """The same shapes at new scales (one per member)."""
        return Problem(
            self.X, self.y, self.W0, self.s, np.broadcast_to(np.asarray(log_eps, float), (self.B,))
        )

    def take(self, idx) -> Problem:
        """The members ``idx``."""
        return Problem(self.X, self.y, self.W0[idx], self.s[idx], self.log_eps[idx])

    def repeat(self, k: int) -> Problem:
        """Every member ``k`` times (member-major), e.g. to attach an epsilon ladder."""
        return Problem(
            self.X, self.y, np.repeat(self.W0, k, 0), np.repeat(self.s, k, 0), np.repeat(self.log_eps, k)
        )


def alternating_labels(n: int) -> np.ndarray:
    """``[+1, -1, +1, ...]`` (balanced classes)."""
    return np.where(np.arange(n) % 2 == 0, 1.0, -1.0)


def family_problem(
    rng: np.random.Generator, n: int, mu: float, h: int, B: int, *, spread: float = 0.5
) -> Problem:
    r"""Family F(:math:`\theta`, n), :math:`\cos^2\theta=\mu`, radii uniform in [1-spread, 1+spread]."""
    y = alternating_labels(n)
    X = family_f(float(np.arccos(np.sqrt(mu))), y, rng.uniform(1 - spread, 1 + spread, n))
    D = X.shape[1]
    W0 = rng.normal(size=(B, h, D)) / np.sqrt(D)
    s = rng.choice([-1.0, 1.0], size=(B, h))
    return Problem(X, y, W0, s, np.full(B, REDUCED_LOG_EPS))


def cone_problem(
    rng: np.random.Generator, n: int, theta: float, h: int, B: int, *, D: int = 4, positive: float = 2 / 3
) -> Problem:
    r"""Two random cones: :math:`x_i=y_ir_i(\cos\theta\,e_1+\sin\theta\,z_i)`, :math:`z_i` uniform unit
    vectors of :math:`e_1^\perp` in :math:`\mathbb R^D` (D small, so n > D points are far from orthogonal),
    a fraction ``positive`` of +1 labels (unbalanced classes) and radii uniform in [0.5, 1.5].
    :math:`\mu\ge\cos^2\theta-\sin^2\theta>0` for :math:`\theta<45^\circ`; its value depends on the draw."""
    y = np.where(np.arange(n) < round(positive * n), 1.0, -1.0)
    z = rng.normal(size=(n, D - 1))
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    X = np.concatenate([np.full((n, 1), np.cos(theta)), np.sin(theta) * z], axis=1)
    X = (y * rng.uniform(0.5, 1.5, n))[:, None] * X
    W0 = rng.normal(size=(B, h, D)) / np.sqrt(D)
    s = rng.choice([-1.0, 1.0], size=(B, h))
    return Problem(X, y, W0, s, np.full(B, REDUCED_LOG_EPS))


def initial_state(p: Problem) -> np.ndarray:
    r"""Log-polar state with :math:`\rho_j(0)=\log\epsilon+\log\|[W_0]_j\|`."""
    st = logpolar_state(p.W0)
    U, rho = split(st, p.h)
    return join(U, rho + p.log_eps[:, None])


def run(
    backend: Backend,
    p: Problem,
    ts: np.ndarray,
    *,
    rtol: float,
    kind: str = "exponential",
    max_steps: int = 200_000,
) -> Trajectory:
    """One batched DOPRI5 solve of the balanced log-polar flow for every member of ``p``, at most
    ``max_steps`` steps (accepted and rejected) per member.

    Every activation switch is an event (``events=flow.switching``,
    :mod:`numeric.engine.integrators.events`): each member's steps end on the surfaces its
    neurons cross, so its error is controlled by ``rtol`` through the switches. Where both
    sides point strictly into a surface (a neuron sliding along it, e.g. on correlated data or
    at large initialisation) the flow is integrated in its Filippov sliding mode
    (``LogPolarFlow.switching``) instead of chattering."""
    args = LogPolarFlow.args(backend, p.X, p.y, s=p.s)
    control = AdaptiveStep(rtol=rtol, atol=rtol * 1e-2)
    flow = LogPolarFlow(kind)
    return solve(
        flow,
        backend.asarray(initial_state(p)),
        ts,
        method=DOPRI5,
        control=control,
        args=args,
        max_steps=max_steps,
        events=flow.switching,
    )


def directions(traj: Trajectory, h: int) -> np.ndarray:
    """Unit directions ``(B, T, h, D)`` on the host."""
    ys = to_numpy(traj.ys)
    B, T, N = ys.shape
    U, _ = split(ys.reshape(B * T, N), h)
    return unit(U).reshape(B, T, h, -1)


def log_norms(traj: Trajectory, h: int) -> np.ndarray:
    r""":math:`\rho_j(t)`, ``(B, T, h)``."""
    ys = to_numpy(traj.ys)
    return ys[..., -h:]


@dataclass(frozen=True)
class Events:
    """Per-member events along a trajectory (all on the host)."""

    codes: np.ndarray  # (B, T, h) region codes
    t1_index: np.ndarray  # (B,) first output index with every neuron allowed (T if never)
    trap_violations: np.ndarray  # (B,) label changes after t1
    monotone_violations: np.ndarray  # (B,) lost own-class or gained other-class activations
    pattern_changes: np.ndarray  # (B, h) number of activation-pattern changes


def events(p: Problem, U: np.ndarray) -> Events:
    """Region labels, empirical :math:`t_1`, trapping and activation monotonicity (catalog plan b.1-5)."""
    codes = regions(U, p.X, p.y)
    s = p.s[:, None, :]
    ok = allowed(codes, s).all(axis=-1)
    T = codes.shape[1]
    t1 = np.where(ok.any(axis=1), ok.argmax(axis=1), T)
    after = np.arange(T)[None, :, None] > t1[:, None, None]
    changed = np.zeros_like(codes, dtype=bool)
    changed[:, 1:] = codes[:, 1:] != codes[:, :-1]
    trap = (changed & after).sum(axis=(1, 2))
    act = activation(U, p.X)
    own = (p.y[None, None, None, :] > 0) == (s[..., None] > 0)  # data of the neuron's own class
    lost = act[:, :-1] & ~act[:, 1:]
    gained = ~act[:, :-1] & act[:, 1:]
    mono = ((lost & own) | (gained & ~own)).sum(axis=(1, 2, 3))
    patt = (act[:, 1:] != act[:, :-1]).any(axis=-1).sum(axis=1)
    return Events(codes, t1, trap, mono, patt)


def constants(p: Problem, b: int) -> dict[str, float]:
    """:math:`\\mu,\\zeta_1,\\zeta_2,\\zeta,\\xi,X_{\\min},X_{\\max},W_{\\max},W_{\\min}` for member ``b``."""
    norms = np.linalg.norm(p.X, axis=1)
    wn = np.linalg.norm(p.W0[b], axis=1)
    z1, z2 = zeta1(p.X, p.y), zeta2(p.W0[b], p.s[b], p.X, p.y)
    return {
        "mu": separation(p.X, p.y),
        "zeta1": z1,
        "zeta2": z2,
        "zeta": min(z1, z2),
        "xi": xi(p.X, p.y),
        "Xmin": float(norms.min()),
        "Xmax": float(norms.max()),
        "Wmax": float(wn.max()),
        "Wmin": float(wn.min()),
    }


def explicit_t1(p: Problem, b: int) -> float:
    r"""Theorem 1: :math:`t_1=16\log n/(\min\{\zeta,\xi\}\sqrt\mu X_{\min})`, zeta = min(zeta_1, zeta_2)."""
    c = constants(p, b)
    return 16 * np.log(p.n) / (min(c["zeta"], c["xi"]) * np.sqrt(c["mu"]) * c["Xmin"])


def log_eps_first_term(p: Problem, b: int) -> float:
    r"""Log of the first term of (28) (with 8 for the printed 4),
    :math:`\frac{m_3\sqrt\mu X_{\min}}{8\sqrt hnX_{\max}^2W_{\max}^2}`: what (29) needs."""
    c = constants(p, b)
    m3 = min(c["mu"], c["zeta"], c["xi"])
    return float(
        np.log(m3 * np.sqrt(c["mu"]) * c["Xmin"] / (8 * np.sqrt(p.h) * p.n * c["Xmax"] ** 2 * c["Wmax"] ** 2))
    )


def log_eps_threshold(p: Problem, b: int) -> float:
    r"""Log of eq. (28) (with 8 for the printed 4, catalog): the largest admissible :math:`\log\epsilon`."""
    c = constants(p, b)
    m2 = min(c["zeta"], c["xi"])
    second = -0.5 * np.log(p.h) - 64 * p.n * c["Xmax"] * np.log(p.n) / (m2 * np.sqrt(c["mu"]) * c["Xmin"])
    return min(log_eps_first_term(p, b), float(second))


__all__ = ["DEAD", "EPS", "MINUS", "PLUS"]
