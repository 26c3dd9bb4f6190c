r"""Gradient flows of positively homogeneous functions in polar form (kumar2025 Lemmas 1, 6, 11).

For an :math:`L`-homogeneous :math:`f` the flow :math:`\dot u=\nabla f(u)` (eq. 6) splits into a
direction :math:`\theta=u/\|u\|` and a radius :math:`r=\|u\|` (Euler, Lemma 14):

.. math::

    \dot\theta=r^{L-2}\,(I-\theta\theta^\top)\nabla f(\theta),\qquad
    \frac{d\ln r}{dt}=r^{L-2}\,L f(\theta).

In the time :math:`\tau` with :math:`dt=r^{-(L-2)}d\tau` the direction follows the
:math:`r`-free spherical flow :math:`\theta'=(I-\theta\theta^\top)\nabla f(\theta)`,
:math:`(\ln r)'=Lf(\theta)` and :math:`t'=e^{-(L-2)\ln r}`.  A finite-time blow-up
(:math:`L>2`) is then a convergent integral :math:`T=\int_0^\infty e^{-(L-2)\ln r}d\tau`, computed
accurately instead of by integrating into the singularity; for :math:`L=2`, :math:`t=\tau`.

The state is ``(theta, ln r, t)``, shape (B, k + 2).  ``value_and_grad(theta, args)`` returns
:math:`f(\theta)` (B,) and :math:`\nabla f(\theta)` (B, k) for unit rows ``theta``; ``args``
carries per-member data through :func:`numeric.engine.solve.solve`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from numeric.backend import Array, array_namespace, to_numpy
from numeric.engine.integrators.control import AdaptiveStep
from numeric.engine.integrators.methods import DOPRI5
from numeric.engine.solve import solve

ValueAndGrad = Callable[[Array, Mapping[str, Array]], tuple[Array, Array]]


def polar_field(value_and_grad: ValueAndGrad, degree: int) -> Callable[[Array, Array, Mapping], Array]:
    r"""The vector field of ``(theta, ln r, t)`` in the time :math:`\tau` (module docstring).

    ``theta`` is renormalized before evaluating ``f``; the tangential projection keeps
    :math:`\|\theta\|` constant in exact arithmetic.
    """

    def field(tau: Array, y: Array, args: Mapping[str, Array]) -> Array:
        xp = array_namespace(y)
        theta = y[:, :-2]
        unit = theta / xp.linalg.norm(theta, axis=1, keepdims=True)
        value, grad = value_and_grad(unit, args)
        tangent = grad - (grad * unit).sum(axis=1, keepdims=True) * unit
        log_r = y[:, -2:-1]
        return xp.concatenate([tangent, degree * value[:, None], xp.exp(-(degree - 2) * log_r)], axis=1)

    return field


@dataclass(frozen=True)
class PolarFlow:
    """Solution of the polar flow at the output times ``taus``: ``theta`` (B, T, k) unit rows,
    ``log_r`` and ``t`` (B, T), plus the limiting value ``f_end`` = f(theta) at the last output."""

    taus: np.ndarray
    theta: np.ndarray
    log_r: np.ndarray
    t: np.ndarray
    f_end: np.ndarray


def polar_flow(
    value_and_grad: ValueAndGrad,
    u0: np.ndarray,
    degree: int,
    taus: np.ndarray,
    *,
    args: Mapping[str, Array] | None = None,
    rtol: float = 1e-11,
    atol: float = 1e-13,
) -> PolarFlow:
    r"""Integrate the flow from the rows of ``u0`` (B, k) over the times ``taus`` (adaptive DOPRI5)."""
    xp = array_namespace(u0)
    u0 = xp.asarray(u0, dtype=float)
    taus = np.asarray(to_numpy(taus), float)
    r0 = xp.linalg.norm(u0, axis=1, keepdims=True)
    y0 = xp.concatenate([u0 / r0, xp.log(r0), xp.zeros_like(r0)], axis=1)
    field = polar_field(value_and_grad, degree)
    traj = solve(
        field,
        y0,
        taus,
        method=DOPRI5,
        control=AdaptiveStep(rtol=rtol, atol=atol),
        args=args,
        max_steps=200_000,
    )
    ys = to_numpy(traj.ys)
    theta = ys[..., :-2] / np.linalg.norm(ys[..., :-2], axis=-1, keepdims=True)
    f_end = to_numpy(value_and_grad(xp.asarray(theta[:, -1]), args or {})[0])
    return PolarFlow(taus, theta, ys[..., -2], ys[..., -1], f_end)


def blow_up_time(flow: PolarFlow, degree: int) -> np.ndarray:
    r"""Blow-up time :math:`T=t(\tau_{end})+\int_{\tau_{end}}^\infty r^{-(L-2)}d\tau` of each member.

    Past the last output the radius grows like :math:`(\ln r)'=Lf(\theta)` with :math:`\theta`
    converged, so the tail is :math:`r_{end}^{-(L-2)}/((L-2)Lf(\theta_{end}))`; the caller keeps
    it negligible by integrating far enough.  NaN where :math:`f(\theta_{end})\le0` (no blow-up).
    """
    if degree <= 2:
        raise ValueError("only an L > 2 homogeneous flow blows up in finite time")
    with np.errstate(divide="ignore", invalid="ignore"):
        tail = np.exp(-(degree - 2) * flow.log_r[:, -1]) / ((degree - 2) * degree * flow.f_end)
    return np.where(flow.f_end > 0, flow.t[:, -1] + tail, np.nan)
