r"""Initial weights for ensembles of bias-free networks.

* :func:`gaussian` -- zhang2025 App. H: every layer i.i.d. :math:`\mathcal N(0, w^2/N_l)`,
  :math:`N_l` the number of weights of layer ``l``, so :math:`\|W_l(0)\|_F\approx w`.
* :func:`balanced_rank_one` -- zhang2025 Assumption 7:
  :math:`W_1 = W_2^\top r^\top`, :math:`\|r\| = 1`, :math:`\|W_2^+\| = \|W_2^-\|`.
"""

from __future__ import annotations

import numpy as np

from numeric.backend import Array, Rng, to_numpy
from numeric.models.networks import BiasFreeNet


def gaussian(net: BiasFreeNet, rng: Rng, B: int, scale) -> list[Array]:
    """Per-layer Gaussian weights of Frobenius norm about ``scale`` (scalar or (B,))."""
    s = np.broadcast_to(np.asarray(to_numpy(scale), dtype=float), (B,))
    Ws = []
    for r, c in net.shapes:
        W = rng.host.normal(size=(B, r, c)) * (s / np.sqrt(r * c))[:, None, None]
        Ws.append(rng.backend.asarray(W))
    return Ws


def balanced_signs(g: np.ndarray, imbalance: float = 1.0) -> np.ndarray:
    r"""Rescale the positive entries of ``g`` (..., H) so :math:`\|g^+\|^2 = \text{imbalance}\,\|g^-\|^2`.

    ``imbalance = 1`` gives Assumption 7's balance; any other value is the control.
    """
    pos = g > 0
    npos = np.sqrt((np.where(pos, g, 0.0) ** 2).sum(-1, keepdims=True))
    nneg = np.sqrt((np.where(pos, 0.0, g) ** 2).sum(-1, keepdims=True))
    return np.where(pos, g * np.sqrt(imbalance) * nneg / npos, g)


def balanced_rank_one(
    rng: np.random.Generator,
    B: int,
    H: int,
    r: np.ndarray,
    norm_W2,
    *,
    imbalance: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Host arrays ``W1`` (B, H, D), ``W2`` (B, 1, H) on the Assumption-7 manifold.

    :math:`W_2 = c\,g^\top` with :math:`g\sim\mathcal N(0, I_H)` rebalanced by
    :func:`balanced_signs` and :math:`c` chosen so :math:`\|W_2\| =` ``norm_W2``;
    :math:`W_1 = W_2^\top r^\top` with the unit vector ``r`` ((D,) or (B, D)).
    """
    if H < 2:
        raise ValueError(f"a balanced rank-one init needs H >= 2 hidden units, got H={H}")
    g = rng.normal(size=(B, H))
    g[:, 0] = np.abs(g[:, 0])
    g[:, 1] = -np.abs(g[:, 1])  # at least one unit of each sign
    g = balanced_signs(g, imbalance)
    norm = np.broadcast_to(np.asarray(to_numpy(norm_W2), float), (B,))
    g *= norm[:, None] / np.linalg.norm(g, axis=1, keepdims=True)
    r = np.asarray(to_numpy(r), float)
    r = np.broadcast_to(r, (B, r.shape[-1]))
    r = r / np.linalg.norm(r, axis=1, keepdims=True)
    W2 = g[:, None, :]
    W1 = g[:, :, None] * r[:, None, :]
    return W1, W2
