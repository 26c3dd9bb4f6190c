r"""Geometry of well-separated binary data (min2024 Sec. 3, App. C).

For inputs ``X`` ``(n, D)`` and labels :math:`y\in\{\pm1\}^n` (host NumPy, exact):

* :func:`separation` -- :math:`\mu=\min_{i,j}\cos(y_ix_i,y_jx_j)` (Assumption 1);
* :func:`aggregates` -- :math:`x_\pm=\sum_{i\in\mathcal I_\pm}x_i`;
* :func:`activated_sum` -- :math:`x_a(w)=\sum_{i:\langle x_i,w\rangle>0}y_ix_i` (eq. (5));
* :func:`regions` -- per-neuron label :data:`PLUS` (:math:`S_+`), :data:`MINUS`
  (:math:`S_-`), :data:`DEAD` (:math:`S_{dead}`) or :data:`OTHER`, with a relative
  tolerance for ties :math:`|\langle x_i,w\rangle|\le\tau\|x_i\|\|w\|` (counted as not active);
* :func:`zeta1`, :func:`zeta2`, :func:`xi` -- the constants of Lemma 8, eq. (26), Lemma 9.
  Closed forms (catalog C5, re-derived): the cap :math:`\{\cos(z,x_+)\ge\sqrt{1-\zeta}\}`
  lies in the half-space :math:`\langle z,y_ix_i\rangle>0` iff :math:`\zeta<\cos^2(x_+,y_ix_i)`,
  so :math:`\zeta_1^{\max}=\min_i\min\{\cos^2(x_+,y_ix_i),\cos^2(-x_-,y_ix_i)\}`; the
  boundary of :math:`S_\pm` is made of hyperplanes :math:`x_i^\perp`, whose largest cosine
  with a generator :math:`y_kx_k` of :math:`K` is :math:`\sqrt{1-\cos^2(y_kx_k,y_ix_i)}`, and
  :math:`\langle\cdot,c\rangle/\|\cdot\|` is quasi-concave on :math:`K`, so :math:`\xi^{\max}=\mu^2`.
* :func:`family_f`, :func:`planar` -- the data sets of the claims.
"""

from __future__ import annotations

import numpy as np

from numeric.backend import Array, array_namespace

OTHER, PLUS, MINUS, DEAD = 0, 1, 2, 3
TIE_RTOL = 1e-12


def _unit_rows(A: np.ndarray) -> np.ndarray:
    return A / np.linalg.norm(A, axis=-1, keepdims=True)


def separation(X: np.ndarray, y: np.ndarray) -> float:
    r""":math:`\mu=\min_{i,j}\langle y_ix_i,y_jx_j\rangle/(\|x_i\|\|x_j\|)` (Assumption 1)."""
    Z = _unit_rows(y[:, None] * X)
    return float(np.min(Z @ Z.T))


def aggregates(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`(x_+,x_-)`, the sums of the positive and of the negative inputs."""
    return X[y > 0].sum(axis=0), X[y < 0].sum(axis=0)


def activated_sum(W: Array, X: Array, y: Array) -> Array:
    r""":math:`x_a(w_j)` for every row of ``W`` ``(..., h, D)``: shape ``(..., h, D)``."""
    xp = array_namespace(W, X)
    active = xp.matmul(W, xp.swapaxes(X, -1, -2)) > 0.0
    return xp.matmul(active * y[..., None, :], X)


def activation(W: Array, X: Array, rtol: float = TIE_RTOL) -> Array:
    r"""``(..., h, n)``: :math:`\langle x_i,w_j\rangle>\tau\|x_i\|\|w_j\|` (ties count as inactive)."""
    xp = array_namespace(W, X)
    Z = xp.matmul(W, xp.swapaxes(X, -1, -2))
    scale = xp.sqrt((W * W).sum(axis=-1))[..., None] * xp.sqrt((X * X).sum(axis=-1))[..., None, :]
    return Z > rtol * scale


def regions(W: Array, X: Array, y: Array, rtol: float = TIE_RTOL) -> Array:
    """Region code (:data:`PLUS`, :data:`MINUS`, :data:`DEAD`, :data:`OTHER`) per neuron, ``(..., h)``."""
    xp = array_namespace(W, X)
    act = activation(W, X, rtol)
    pos = y > 0
    plus = xp.all(act == pos, axis=-1) & xp.any(pos)
    minus = xp.all(act == ~pos, axis=-1) & xp.any(~pos)
    dead = ~xp.any(act, axis=-1)
    code = xp.where(plus, PLUS, OTHER)
    code = xp.where(minus, MINUS, code)
    return xp.where(dead, DEAD, code)


def allowed(code: Array, s: Array) -> Array:
    r"""Theorem 1's target regions.

    :math:`j\in\mathcal V_+\Rightarrow S_+\cup S_{dead}`;
    :math:`j\in\mathcal V_-\Rightarrow S_-\cup S_{dead}`.
    """
    return (code == DEAD) | ((s > 0) & (code == PLUS)) | ((s < 0) & (code == MINUS))


def zeta1(X: np.ndarray, y: np.ndarray) -> float:
    r"""Largest :math:`\zeta_1` of Lemma 8 (supremum; caps of this size touch a hyperplane)."""
    xp_, xm = aggregates(X, y)
    Z = _unit_rows(y[:, None] * X)
    c = [Z @ (a / np.linalg.norm(a)) for a in (xp_, -xm) if np.linalg.norm(a) > 0]
    return float(min(np.min(ci**2) for ci in c))


def zeta2(W0: np.ndarray, s: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    r"""Largest :math:`\zeta_2` of eq. (26): :math:`1-\max(0,\max_{j\in\mathcal V_\pm}\cos(w_j,x_\mp))^2`."""
    xp_, xm = aggregates(X, y)
    U = _unit_rows(W0)
    c = np.where(s > 0, U @ (xm / np.linalg.norm(xm)), U @ (xp_ / np.linalg.norm(xp_)))
    return float(1.0 - max(0.0, float(np.max(c))) ** 2)


def xi(X: np.ndarray, y: np.ndarray) -> float:
    r"""Largest :math:`\xi` of Lemma 9: :math:`\mu^2` (module docstring)."""
    return separation(X, y) ** 2


def family_f(theta: float, labels: np.ndarray, radii: np.ndarray | None = None) -> np.ndarray:
    r"""Family F: :math:`x_i=y_ir_i(\cos\theta e_1+\sin\theta e_{i+1})`, D = n+1, :math:`\mu=\cos^2\theta`."""
    n = len(labels)
    r = np.ones(n) if radii is None else radii
    X = np.zeros((n, n + 1))
    X[:, 0] = np.cos(theta)
    X[np.arange(n), np.arange(1, n + 1)] = np.sin(theta)
    return (labels * r)[:, None] * X


def planar(angles: np.ndarray, radii: np.ndarray | None = None) -> np.ndarray:
    r"""Points :math:`r_i(\cos\phi_i,\sin\phi_i)` in :math:`\mathbb R^2`."""
    r = np.ones(len(angles)) if radii is None else radii
    return r[:, None] * np.stack([np.cos(angles), np.sin(angles)], axis=1)
