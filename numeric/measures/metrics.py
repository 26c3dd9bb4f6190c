r"""Measurements on ensembles of weights, all batched over the leading axis ``B``.

* :func:`relative_error` -- :math:`\|a - b\|/\|b\|` per member.
* :func:`stable_rank` -- :math:`\|W\|_F^2/\|W\|_2^2`.
* :func:`rank_one_alignment` -- :math:`\|W\|_2/\|W\|_F` (1 iff rank one).
* :func:`activation_pattern` -- signs of the pre-activations :math:`W_1 x_\mu`.
* :func:`linear_fit` -- least-squares :math:`w = \arg\min\|Xw - f(X)\|` of a network function.
* :func:`sign_imbalance` -- :math:`\|W_2^+\|^2/\|W_2^-\|^2` (zhang2025 Assumption 7 balance).
"""

from __future__ import annotations

from numeric.backend import Array, array_namespace


def frobenius(a: Array) -> Array:
    """Frobenius norm over all non-ensemble axes, ``(B,)``."""
    xp = array_namespace(a)
    return xp.sqrt((a * a).reshape(a.shape[0], -1).sum(axis=1))


def relative_error(a: Array, b: Array) -> Array:
    """:math:`\\|a-b\\|_F/\\|b\\|_F` per member."""
    return frobenius(a - b) / frobenius(b)


def singular_values(W: Array) -> Array:
    """Singular values ``(B, min(r, c))`` of a stack of matrices, descending."""
    xp = array_namespace(W)
    return xp.linalg.svd(W, compute_uv=False)


def stable_rank(W: Array) -> Array:
    r""":math:`\|W\|_F^2/\|W\|_2^2` per member (1 for rank one; NaN, undefined, for a zero matrix)."""
    s = singular_values(W)
    xp = array_namespace(W)
    top = s[:, 0] ** 2
    return xp.where(top > 0, (s * s).sum(axis=1) / xp.where(top > 0, top, 1.0), xp.nan)


def rank_one_alignment(W: Array) -> Array:
    r""":math:`\sigma_1/\|W\|_F` per member (1 iff rank one)."""
    s = singular_values(W)
    xp = array_namespace(W)
    return s[:, 0] / xp.sqrt((s * s).sum(axis=1))


def activation_pattern(W1: Array, XT: Array) -> Array:
    """Signs (-1, 0, +1) of the pre-activations ``W1 @ XT``, shape ``(B, H, P)``."""
    xp = array_namespace(W1)
    return xp.sign(W1 @ XT)


def linear_fit(X: Array, f: Array) -> Array:
    r"""Least-squares linear map of a network function: :math:`w = X^+ f`, ``(B, D)``.

    ``X`` is ``(P, D)`` (shared), ``f`` the outputs ``(B, P)``.
    """
    xp = array_namespace(X, f)
    w, *_ = xp.linalg.lstsq(X, f.T, rcond=None)
    return w.T


def sign_imbalance(W2: Array) -> Array:
    r""":math:`\|W_2^+\|^2/\|W_2^-\|^2` per member, for a second layer ``(B, 1, H)``."""
    xp = array_namespace(W2)
    pos = xp.where(W2 > 0, W2, 0.0)
    neg = xp.where(W2 < 0, W2, 0.0)
    return (pos * pos).sum(axis=(1, 2)) / (neg * neg).sum(axis=(1, 2))


def log_log_slope(x, y) -> float:
    """Least-squares slope of ``log y`` against ``log x`` (the measured order of a power law)."""
    import numpy as np

    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    return float(np.polyfit(lx, ly, 1)[0])
