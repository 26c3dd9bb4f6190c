r"""zhang2025: the quantitative hypotheses measured on the data, slopes and states a claim's run uses.

Each helper records one hypothesis of :mod:`verify.papers.zhang2025.hypotheses` with
``ctx.regime``, at its worst over the run's instances:

* :func:`record_alphas` -- :math:`\alpha\in[0,1]`: the slope farthest outside the interval
  (distance :math:`\max(-\alpha,\alpha-1)`; inside it, the one nearest an end);
* :func:`record_symmetric` -- Condition 3: every data set's multiset :math:`\{(x,y)\}` equals
  :math:`\{(-x,-y)\}` exactly (``numeric.data.datasets.is_symmetric``);
* :func:`record_orthogonal` -- orthogonal inputs: every two inputs orthogonal or antiparallel;
* :func:`record_orthonormal` -- orthonormal inputs: :math:`\max|XX^\top-I|` over the data sets, divided
  by its float64 bound (:func:`orthonormal_ratio`);
* :func:`record_manifold` -- Assumption 7: rank one and balance of initial states, each
  divided by its float64 bound (:func:`manifold_ratios`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric.data.datasets import Dataset, is_symmetric
from numeric.measures.metrics import sign_imbalance
from verify.context import Context
from verify.papers.zhang2025.hypotheses import (
    ALPHA_01,
    BALANCED,
    CONDITION_3,
    ORTHOGONAL,
    ORTHONORMAL,
    RANK_ONE,
)

EPS = float(np.finfo(np.float64).eps)


def record_alphas(ctx: Context, alphas) -> None:
    """``ALPHA_01`` on the slopes the run used (any shape), worst first."""
    a = np.asarray(alphas, float).ravel()
    ctx.regime(ALPHA_01, alpha=float(a[int(np.argmax(np.maximum(-a, a - 1)))]))


def record_symmetric(ctx: Context, data: Iterable[Dataset]) -> None:
    """``CONDITION_3`` on every data set the run trained or evaluated on (all must be symmetric)."""
    ctx.regime(CONDITION_3, symmetric=all(is_symmetric(ds.X, ds.y) for ds in data))


def record_orthogonal(ctx: Context, data: Iterable[Dataset]) -> None:
    r"""``ORTHOGONAL`` at its worst over the data sets: :math:`\max_{\mu\ne\nu}\min(|\cos|,1-|\cos|)`
    (0 for orthogonal and for antiparallel pairs, e.g. the XOR-like points)."""
    worst = 0.0
    for ds in data:
        U = ds.X / np.linalg.norm(ds.X, axis=1, keepdims=True)
        cos = np.abs(U @ U.T)[~np.eye(ds.P, dtype=bool)]
        worst = max(worst, float(np.minimum(cos, 1 - cos).max(initial=0.0)))
    ctx.regime(ORTHOGONAL, cos_dev=worst)


def orthonormal_ratio(X: np.ndarray) -> float:
    r""":math:`\max|XX^\top-I|/\gamma_{D+2}` for inputs ``X`` (P, D): <= 1 iff orthonormal to rounding.

    Bound: an exactly orthonormal set stored in float64 has entries :math:`\hat x=x(1+\delta)`,
    :math:`|\delta|\le u=\epsilon/2`, so :math:`|\hat x^\top\hat y-x^\top y|\le(1+u)^2-1` (Cauchy-Schwarz,
    unit vectors); the float64 dot product of length :math:`D` adds :math:`\gamma_D\,|\hat x|^\top|\hat y|
    \le\gamma_D(1+u)^2`, :math:`\gamma_n=nu/(1-nu)` in any summation order. Together
    :math:`(1+\gamma_D)(1+u)^2-1\le\gamma_{D+2}`.
    """
    P, D = X.shape
    n = (D + 2) * EPS / 2
    return float(np.max(np.abs(X @ X.T - np.eye(P)))) / (n / (1 - n))


def record_orthonormal(ctx: Context, data: Iterable[Dataset]) -> None:
    """``ORTHONORMAL`` at its worst over the data sets the run trained or evaluated on."""
    ctx.regime(ORTHONORMAL, ratio=max(orthonormal_ratio(ds.X) for ds in data))


def rank_one_residual(W1: np.ndarray, W2: np.ndarray) -> np.ndarray:
    r"""Per state ``(B,)``: Assumption 7's rank-one residual
    :math:`\|W_1-W_2^\top W_2W_1/\|W_2\|^2\|/\|W_1\|` (Frobenius norms) of ``W1`` (B, H, D), ``W2`` (B, 1, H).

    :math:`W_2^\top W_2W_1/\|W_2\|^2` is the projection of :math:`W_1` on the rank-one matrices
    :math:`W_2^\top r^\top`, so the residual is 0 iff :math:`W_1=W_2^\top r^\top` for some :math:`r`.
    """
    n2 = np.sum(W2 * W2, axis=(1, 2))[:, None, None]
    resid = np.linalg.norm(W1 - W2.transpose(0, 2, 1) * (W2 @ W1) / n2, axis=(1, 2))
    return resid / np.linalg.norm(W1, axis=(1, 2))


def manifold_ratios(W1: np.ndarray, W2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Per state ``(B,)``: rank-one residual (:func:`rank_one_residual`) and imbalance of ``W1`` (B, H, D),
    ``W2`` (B, 1, H), each divided by its float64 bound.

    Rank one: entries :math:`g_hr_d` and the projection carry relative error :math:`\le2(H+4)\epsilon`.
    Balance: :math:`|\|W_2^+\|^2/\|W_2^-\|^2-1|`; the rescaled norms carry :math:`\le4(H+4)\epsilon`.
    A ratio <= 1 is Assumption 7 to rounding.
    """
    H = W1.shape[1]
    rank = rank_one_residual(W1, W2) / (2 * (H + 4) * EPS)
    return rank, np.abs(sign_imbalance(W2) - 1) / (4 * (H + 4) * EPS)


def record_manifold(ctx: Context, states: Iterable[tuple[np.ndarray, np.ndarray]]) -> None:
    """``RANK_ONE`` and ``BALANCED`` at their worst over batches of states (W1 (B, H, D), W2 (B, 1, H))."""
    ratios = [manifold_ratios(W1, W2) for W1, W2 in states]
    ctx.regime(RANK_ONE, ratio=max(float(rank.max()) for rank, _ in ratios))
    ctx.regime(BALANCED, ratio=max(float(imbalance.max()) for _, imbalance in ratios))
