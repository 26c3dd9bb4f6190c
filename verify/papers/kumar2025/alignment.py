r"""kumar2025 App. D.3: how fast :math:`w_z` aligns with a KKT point of the :math:`\bar{\mathcal H}_2`-NCF.

At the rank-1 saddle (55) of :math:`\tfrac12\|W_3W_2W_1-S\|_F^2` the first non-vanishing NCF is
:math:`\mathcal N(w)=\mathrm{tr}(\bar y^\top B_3C_2A_1)`, 3-homogeneous in :math:`w=(A_1,C_2,B_3)`, with
:math:`\bar y=S-s_1u_1v_1^\top=\sum_j\sigma_ja_jb_j^\top` (:math:`\sigma_1>\sigma_2>\dots` are
:math:`s_2>s_3>\dots`, and a zero for :math:`(u_1,v_1)`).  Its maximisers on the unit sphere are
:math:`A_1=c\,qb_1^\top`, :math:`C_2=c\,pq^\top`, :math:`B_3=c\,a_1p^\top`, :math:`c=3^{-1/2}`, any unit
hidden :math:`q,p` (a manifold of KKT points, value :math:`N_*=\sigma_1/(3\sqrt3)`).

Reduced dynamics.  On the flow :math:`\dot w=\nabla\mathcal N(w)`, with :math:`w=\rho\hat w` and the time
:math:`s=\ln\rho`, the direction obeys :math:`d\hat w/ds=P_{\hat w}^\perp\nabla\mathcal N(\hat w)/(3\mathcal
N(\hat w))`.  Linearised at a maximiser, a normal deviation :math:`e` along an eigenvector of the Riemannian
Hessian (eigenvalue :math:`\mu`) grows like :math:`\rho^{\lambda}`, :math:`\lambda=(\mu-3N_*)/(3N_*)`.  The
Hessian couples pairs of factors: :math:`(A_1,B_3)` through :math:`c\,(\Delta B_3p)^\top\bar y(\Delta
A_1^\top q)`, eigenvalues :math:`\pm c\sigma_j`, so :math:`\lambda=\pm\sigma_j/\sigma_1-1` (:math:`j=1`:
the manifold and the layer rescaling, :math:`0` and :math:`-2`); :math:`(A_1,C_2)` and :math:`(C_2,B_3)`
give :math:`0` and :math:`-2`; every direction no pair couples (other hidden vectors, the zero singular
value) :math:`-1`.  The slowest normal rate is therefore :math:`\lambda_2=\sigma_2/\sigma_1-1`, the *slow
pair* :math:`(q^\top A_1b_2,\;a_2^\top B_3p)`, and since :math:`1-\cos\angle(w,\nabla\mathcal N(w))` is a
quadratic form in :math:`e`, diagonal in the eigenbasis with weights :math:`\lambda_i^2/2` (the Riemannian
gradient at :math:`\hat w+e` is :math:`3N_*\lambda e`; so a mode's angle is :math:`\sqrt{2(1-\cos)}/|\lambda|`
of its share, not :math:`\sqrt{2(1-\cos)}`: :func:`slow_angle` measures it)

.. math:: 1-\cos\sim C\,g^{2(\sigma_2/\sigma_1-1)},\qquad g=|w_z|/\delta,

with corrections: the other modes, relative :math:`g^{-2(\sigma_2-\sigma_3)/\sigma_1}` or
:math:`g^{-2\sigma_2/\sigma_1}` (measured here as what the slow mode's exact share at its measured angle
leaves of :math:`1-\cos`), and the slow mode's own non-linearity, which its invariant family gives exactly
(:func:`family_misalignment`, :func:`family_angles`; relative :math:`O(\theta^2)` in the rate, but the
family's :math:`1-\cos` is :math:`\lambda_2^2\theta^2/2` only to first order).  Under gradient descent on
the full loss two more perturb the direction: the field the :math:`\bar{\mathcal H}_2` flow neglects
(relative size :math:`r`, ``SMALL_DELTA_D3``) moves the angle by :math:`r/|\lambda_2|`, and GD's error
against the flow, :math:`(\eta/2)\nabla^2\mathcal N\nabla\mathcal N`, is radial at a KKT point
(:math:`\nabla^2\mathcal N(w)w=2\nabla\mathcal N(w)`), so its tangential part is :math:`O(h\theta)`,
:math:`h` the per-step relative growth.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.models.homogeneous_nets import kkt_cosine


def h2_grads(W: list[np.ndarray], ybar: np.ndarray) -> list[np.ndarray]:
    r"""Gradient of the :math:`\bar{\mathcal H}_2`-NCF :math:`\mathrm{tr}(\bar y^\top B_3C_2A_1)` on every
    factor, zero outside :math:`(A_1,C_2,B_3)` (in :math:`w_n` and in :math:`a_2,b_2`, which it does not
    contain)."""
    A1, C2, B3 = W[0][1:], W[1][1:, 1:], W[2][:, 1:]
    g = [np.zeros_like(Wl) for Wl in W]
    g[0][1:], g[1][1:, 1:], g[2][:, 1:] = C2.T @ B3.T @ ybar, B3.T @ ybar @ A1.T, ybar @ A1.T @ C2.T
    return g


def misalignment(W: list[np.ndarray], ybar: np.ndarray) -> float:
    r""":math:`1-\cos\angle(u,\nabla\mathcal N(u))`, :math:`u=(A_1,C_2,B_3)`: 0 exactly at a KKT point of the
    :math:`\bar{\mathcal H}_2`-NCF with a positive multiplier (the quantity of the paper's Fig. 14 (d))."""
    g = h2_grads(W, ybar)
    u = np.concatenate([W[0][1:].ravel(), W[1][1:, 1:].ravel(), W[2][:, 1:].ravel()])
    grad = np.concatenate([g[0][1:].ravel(), g[1][1:, 1:].ravel(), g[2][:, 1:].ravel()])
    return float(1.0 - kkt_cosine(u[None], grad[None])[0])


def slow_angle(W: list[np.ndarray], ybar: np.ndarray) -> float:
    r"""The slow mode's deviation :math:`\theta=|\alpha+\beta|/(\sqrt2\,|u|)`, :math:`u=(A_1,C_2,B_3)`,
    from the slow pair :math:`(\alpha,\beta)=(q^\top A_1b_2,\,a_2^\top B_3p)`: :math:`q\propto A_1b_1`,
    :math:`p\propto B_3^\top a_1` the hidden directions of the maximiser ``W`` is near, :math:`(a_j,b_j)`
    the singular pairs of :math:`\bar y`.  The Hessian couples :math:`\alpha,\beta` through
    :math:`c\sigma_2\alpha\beta`, so the slow mode (rate :math:`\lambda_2`) is their symmetric
    combination, the antisymmetric one decays at :math:`-\sigma_2/\sigma_1-1`.  This is the angle the
    non-linearity and perturbation bounds are stated in; the misalignment it causes is only
    :math:`\lambda_2^2\theta^2/2` (the Riemannian gradient at :math:`\hat w+e` is
    :math:`3N_*\lambda e`), so :math:`\sqrt{2(1-\cos)}` understates it by :math:`1/|\lambda_2|`."""
    a, _, bt = np.linalg.svd(ybar)
    A1, B3 = W[0][1:], W[2][:, 1:]
    q, p = A1 @ bt[0], B3.T @ a[:, 0]
    q, p = q / np.linalg.norm(q), p / np.linalg.norm(p)
    alpha, beta = q @ A1 @ bt[1], a[:, 1] @ B3 @ p
    return float(abs(alpha + beta) / (np.sqrt(2) * h2_norm(W)))


def h2_norm(W: list[np.ndarray]) -> float:
    r""":math:`|u|`, :math:`u=(A_1,C_2,B_3)`: the part of :math:`w_z` the :math:`\bar{\mathcal H}_2`-NCF
    depends on (not :math:`a_2,b_2`)."""
    return float(np.sqrt((W[0][1:] ** 2).sum() + (W[1][1:, 1:] ** 2).sum() + (W[2][:, 1:] ** 2).sum()))


@dataclass(frozen=True)
class Rates:
    r"""The linearised angular rates of the :math:`\bar{\mathcal H}_2` flow at its maximiser, from
    :math:`\bar y`'s singular values: ``order`` the derived order of :math:`1-\cos` in :math:`g`,
    ``slow`` :math:`|\lambda_2|`, ``below`` the next candidate order (the next singular value, or the
    :math:`\lambda=-1` modes)."""

    order: float
    slow: float
    below: float


def rates(ybar: np.ndarray) -> Rates:
    """:class:`Rates` of ``ybar`` (module docstring)."""
    sigma = np.linalg.svd(ybar, compute_uv=False)
    ratio2, ratio3 = sigma[1] / sigma[0], sigma[2] / sigma[0]
    return Rates(
        order=float(2 * (ratio2 - 1)), slow=float(1 - ratio2), below=float(max(2 * (ratio3 - 1), -2.0))
    )


def profile_slope(g: np.ndarray, eps: np.ndarray) -> float:
    r"""The larger :math:`|` least-squares slope of :math:`\log(1\pm\epsilon_i)` against :math:`\log g_i|`:
    how far a relative correction with the measured profile ``eps``, of either sign, moves a fitted order;
    :math:`\infty` when some :math:`\epsilon_i\ge1` (the correction is then not smaller than the leading
    term, whose order is not reached)."""
    eps = np.asarray(eps, float)
    if np.any(eps >= 1):
        return float("inf")
    return float(max(abs(np.polyfit(np.log(g), np.log1p(s * eps), 1)[0]) for s in (1.0, -1.0)))


def family_misalignment(theta: np.ndarray, rho: float) -> np.ndarray:
    r""":math:`1-\cos` on the slow pair's invariant family, exactly.  The balanced family
    :math:`A_1=q(a\,b_1+b\,b_2)^\top`, :math:`B_3=(a\,a_1+b\,a_2)p^\top`, :math:`C_2=m\,pq^\top`,
    :math:`(a,b)=m(\cos\phi,\sin\phi)`, is invariant under the :math:`\bar{\mathcal H}_2` flow (its field
    stays in it, and :math:`m^2-a^2-b^2` is conserved, 0 from a small start); there, with
    :math:`t=\sin^2\phi=3\theta^2/2` (:func:`slow_angle` reads :math:`\theta=\sqrt{2/3}\sin\phi`),
    :math:`\bar S=1-(1-\rho)t`, :math:`Q=1-(1-\rho^2)t`, :math:`\rho=\sigma_2/\sigma_1`:
    :math:`\cos=\sqrt3\,\bar S/\sqrt{2Q+\bar S^2}` (:math:`\approx\lambda_2^2\theta^2/2` for small
    :math:`\theta`)."""
    t = 1.5 * np.asarray(theta, float) ** 2
    s_bar, q = 1 - (1 - rho) * t, 1 - (1 - rho**2) * t
    return 1 - np.sqrt(3) * s_bar / np.sqrt(2 * q + s_bar**2)


def family_angles(theta0: float, rho: float, g: np.ndarray) -> np.ndarray:
    r"""The slow angle along the invariant family's flow from :math:`\theta_0` at :math:`g_0`, at the growths
    ``g`` (:math:`g=|u|/\delta\propto m`).  In the flow's own time :math:`\tau` (:math:`\sigma_1=1`),
    :math:`\tan\phi=\tan\phi_0e^{\lambda_2\tau}` and :math:`\ln g=\ln g_0+\tau-\ln\cos\phi+\ln\cos\phi_0`
    (:math:`a\pm b` grow like :math:`e^{\sigma_{1,2}\tau}`, :math:`|u|^2=3m^2=3(a^2+b^2)`), so
    :math:`d\ln\tan\phi/d\ln g=\lambda_2/(1+\lambda_2\sin^2\phi)`: the slow mode's exact non-linearity.
    Solved for :math:`\tau` at each ``g`` by bisection to float64: the map is increasing
    (:math:`d\ln g/d\tau=1+\lambda_2\sin^2\phi>0`) and at least :math:`\tau+\ln\cos\phi_0`, so
    :math:`\tau\le\ln(g/g_0)-\ln\cos\phi_0`.  Needs :math:`\sqrt{3/2}\,\theta_0<1` (inside the family)."""
    lam = rho - 1
    phi0 = np.arcsin(np.sqrt(1.5) * theta0)
    out = []
    for target in np.log(np.asarray(g, float) / g[0]):
        lo, hi = 0.0, target - np.log(np.cos(phi0)) + 1.0
        for _ in range(200):
            tau = (lo + hi) / 2
            phi = np.arctan(np.tan(phi0) * np.exp(lam * tau))
            if tau - np.log(np.cos(phi)) + np.log(np.cos(phi0)) < target:
                lo = tau
            else:
                hi = tau
        out.append(np.sin(np.arctan(np.tan(phi0) * np.exp(lam * (lo + hi) / 2))) / np.sqrt(1.5))
    return np.array(out)
