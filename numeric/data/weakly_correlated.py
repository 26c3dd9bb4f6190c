r"""Data and initializations for shallow ReLU nets on (weakly) correlated inputs.

All draws happen on the host (NumPy ``Generator``), batched over ``B`` members; claims
move the arrays to the device.  Inputs are described by their Gram matrix
:math:`G=XX^\top` (rows :math:`x_i`) whenever the flow only needs :math:`G`
(:mod:`numeric.models.shallow_relu`), which makes the ambient dimension ``d`` free.

* :func:`appendix_b_labels`, :func:`appendix_b_norms` -- dana2025 App. B:
  :math:`y_i\sim\mathcal U([-2,-1]\cup[1,2])`, :math:`\|x_i\|\sim\mathcal U[1,2]`.
* :func:`sphere_gram` -- exact Gram of ``n`` i.i.d. uniform unit vectors of
  :math:`\mathbb R^d` via the Bartlett decomposition of a Wishart matrix, cost
  :math:`O(n^3)` whatever ``d``.
* :func:`perturbed_gram` -- :math:`G=D_X+E` with a prescribed spectral norm
  :math:`\|E\|` (Assumption 2 tested at its boundary), :func:`equicorrelated_gram`.
* :func:`gram_to_inputs` -- an explicit ``X`` with a given Gram (for the full system).
* :func:`appendix_b_init` / :func:`appendix_b_init_reduced` -- App. B initialization
  :math:`w_j\sim\mathcal N(0,I_d/d)`, :math:`\mathrm{sign}(a_j)` uniform,
  :math:`|a_j|-\|w_j\|\sim\mathrm{Exp}(1)` (Assumption 1 by construction), in full
  coordinates or exactly in law in the Gram coordinates
  (:math:`v_j\sim\mathcal N(0,G/d)`, :math:`\|w_j^\perp\|^2\sim\chi^2_{d-n}/d`).
* :func:`pytorch_default_init` -- the authors' public code: PyTorch's default ``nn.Linear``
  law, uniform in :math:`\pm1/\sqrt{\text{fan\_in}}` for both layers.
* :func:`event_I`, :func:`prob_event_I_orthogonal` -- the event :math:`\mathcal I`
  of Lemma 5 and its exact probability for orthogonal inputs (catalog (C8)).
* :func:`group_init` -- the group initialization (9) on orthonormal inputs.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln, xlog1py

# ---------------------------------------------------------------------------- data


def appendix_b_labels(rng: np.random.Generator, size) -> np.ndarray:
    r""":math:`y\sim\mathcal U([-2,-1]\cup[1,2])` (App. B)."""
    return rng.choice([-1.0, 1.0], size=size) * rng.uniform(1.0, 2.0, size)


def appendix_b_norms(rng: np.random.Generator, size) -> np.ndarray:
    r""":math:`\|x_i\|\sim\mathcal U[1,2]` (App. B)."""
    return rng.uniform(1.0, 2.0, size)


def sphere_directions(rng: np.random.Generator, size: tuple[int, ...]) -> np.ndarray:
    """Uniform unit vectors along the last axis of ``size``."""
    g = rng.normal(size=size)
    return g / np.linalg.norm(g, axis=-1, keepdims=True)


def sphere_gram(rng: np.random.Generator, B: int, n: int, d: int) -> np.ndarray:
    r"""``(B, n, n)`` Gram matrices :math:`\bar x_i^\top\bar x_k` of i.i.d. uniform unit vectors.

    The Gram of ``n`` standard Gaussian vectors of :math:`\mathbb R^d` (``d >= n``) is
    Wishart :math:`W_n(d, I)`; Bartlett: it equals :math:`LL^\top` with :math:`L` lower
    triangular, :math:`L_{ii}^2\sim\chi^2_{d-i+1}`, :math:`L_{ik}\sim\mathcal N(0,1)` (i > k).
    Normalizing the diagonal gives the Gram of the directions, exactly in law.
    """
    if d < n:
        raise ValueError(f"sphere_gram needs d >= n, got d={d} < n={n}")
    L = np.tril(rng.normal(size=(B, n, n)), -1)
    idx = np.arange(n)
    L[:, idx, idx] = np.sqrt(rng.chisquare(d - idx, size=(B, n)))
    G = L @ np.swapaxes(L, 1, 2)
    s = 1.0 / np.sqrt(np.einsum("bii->bi", G))
    return G * s[:, :, None] * s[:, None, :]


def scale_gram(Gbar: np.ndarray, norms: np.ndarray) -> np.ndarray:
    r""":math:`G=D^{1/2}\bar GD^{1/2}` for inputs of norms ``norms`` (``(n,)`` or ``(B, n)``)."""
    return Gbar * norms[..., :, None] * norms[..., None, :]


def offdiag_norm(G: np.ndarray) -> np.ndarray:
    r"""Spectral norm :math:`\|X^\top X-D_X\|` of the off-diagonal part of ``G`` (batched)."""
    E = G - np.einsum("...ii->...i", G)[..., :, None] * np.eye(G.shape[-1])
    return np.abs(np.linalg.eigvalsh(E)).max(axis=-1)


def assumption2_limit(norms: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""Right-hand side of eq. (4): :math:`\frac{(C_x^-)^2}{2\sqrt n}\frac{C_y^-}{C_y^+}`."""
    n = norms.shape[-1]
    cy = np.abs(y)
    return norms.min(axis=-1) ** 2 / (2 * np.sqrt(n)) * cy.min(axis=-1) / cy.max(axis=-1)


def perturbed_gram(rng: np.random.Generator, norms: np.ndarray, off_norm: float) -> np.ndarray:
    r"""A Gram matrix :math:`D_X+E` with :math:`\|E\|=` ``off_norm`` exactly.

    :math:`E=\eta D^{1/2}SD^{1/2}` with :math:`S` symmetric Gaussian, zero diagonal, and
    :math:`\eta` chosen for the spectral norm.  Positive definite when ``off_norm`` is
    below :math:`\min_i\|x_i\|^2` (the caller's Assumption 2 guarantees it).
    """
    n = len(norms)
    S = rng.normal(size=(n, n))
    S = np.triu(S, 1)
    S = S + S.T
    E = S * norms[:, None] * norms[None, :]
    E *= off_norm / np.abs(np.linalg.eigvalsh(E)).max()
    return np.diag(norms**2) + E


def equicorrelated_gram(norms: np.ndarray, rho: float) -> np.ndarray:
    r""":math:`G_{ik}=c_ic_k(\rho+(1-\rho)\delta_{ik})`: every pair at correlation :math:`\rho`."""
    n = len(norms)
    return (rho * np.ones((n, n)) + (1 - rho) * np.eye(n)) * norms[:, None] * norms[None, :]


def gram_to_inputs(G: np.ndarray, d: int, rng: np.random.Generator | None = None) -> np.ndarray:
    r"""Inputs ``X`` ``(n, d)`` (``d >= n``) with :math:`XX^\top=G`, rotated at random if ``rng``."""
    n = G.shape[0]
    evals, evecs = np.linalg.eigh(G)
    root = evecs * np.sqrt(np.clip(evals, 0.0, None))  # root @ root.T == G
    X = np.zeros((n, d))
    X[:, :n] = root
    if rng is not None:
        Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
        X = X @ Q
    return X


# ---------------------------------------------------------------------- initializations


EXCESSES = ("exponential", "halfnormal")


def _second_layer(rng: np.random.Generator, wnorm: np.ndarray, excess: str = "exponential") -> np.ndarray:
    r""":math:`a_j=s_j(\|w_j\|+e_j)`, :math:`s_j` uniform in :math:`\{-1,1\}`, the excess :math:`e_j` drawn
    from ``excess``: ``"exponential"`` :math:`\mathrm{Exp}(1)` (App. B's law), ``"halfnormal"``
    :math:`|\mathcal N(0,1)|` (sub-Gaussian, as Section 2's Initialization paragraph assumes)."""
    if excess not in EXCESSES:
        raise ValueError(f"excess must be one of {EXCESSES}, got {excess!r}")
    signs = rng.choice([-1.0, 1.0], size=wnorm.shape)
    e = rng.exponential(1.0, wnorm.shape) if excess == "exponential" else np.abs(rng.normal(size=wnorm.shape))
    return signs * (wnorm + e)


def appendix_b_init(rng: np.random.Generator, B: int, p: int, d: int, scale: float = 1.0):
    r"""Full coordinates: ``W`` ``(B, p, d)``, :math:`w_j\sim\mathcal N(0,s^2I_d/d)`, and ``a`` ``(B, p)``."""
    W = rng.normal(size=(B, p, d)) * (scale / np.sqrt(d))
    return W, _second_layer(rng, np.linalg.norm(W, axis=2))


def pytorch_default_init(rng: np.random.Generator, B: int, p: int, d: int):
    r"""PyTorch's default ``nn.Linear`` initialization of both layers (the authors' public code).

    ``W`` ``(B, p, d)`` uniform in :math:`\pm1/\sqrt d` and ``a`` ``(B, p)`` uniform in :math:`\pm1/\sqrt p`
    (bound :math:`1/\sqrt{\text{fan\_in}}`), so :math:`\mathbb E\|w_j\|^2=1/3` and Assumption 1 fails for most
    neurons (:math:`|a_j|\le1/\sqrt p<\|w_j\|` once :math:`p>3`, typically)."""
    W = rng.uniform(-1.0, 1.0, (B, p, d)) / np.sqrt(d)
    return W, rng.uniform(-1.0, 1.0, (B, p)) / np.sqrt(p)


def appendix_b_init_reduced(
    rng: np.random.Generator,
    G: np.ndarray,
    d: int,
    B: int,
    p: int,
    scale: float = 1.0,
    excess: str = "exponential",
):
    r"""The same law in Gram coordinates: ``V`` ``(B, p, n)``, ``a``, ``wperp2`` ``(B, p)``; ``excess``
    as in :func:`_second_layer`.

    For :math:`w\sim\mathcal N(0,s^2I_d/d)` the projection on the data span and its
    complement are independent: :math:`v=Xw\sim\mathcal N(0,s^2G/d)` and
    :math:`\|w^\perp\|^2\sim s^2\chi^2_{d-n}/d`; :math:`\|w\|^2=v^\top G^{-1}v+\|w^\perp\|^2`.
    ``G`` is ``(n, n)`` (shared) or ``(B, n, n)``.
    """
    n = G.shape[-1]
    Z = rng.normal(size=(B, p, n)) * (scale / np.sqrt(d))
    if G.ndim == 2 and np.count_nonzero(G - np.diag(np.diag(G))) == 0:
        V = Z * np.sqrt(np.diag(G))  # orthogonal inputs: the Cholesky factor is diagonal
    else:
        L = np.linalg.cholesky(np.broadcast_to(G, (B, n, n)))
        V = Z @ np.swapaxes(L, 1, 2)
    wperp2 = scale**2 * rng.chisquare(d - n, size=(B, p)) / d if d > n else np.zeros((B, p))
    inner = (Z * Z).sum(axis=2)  # v^T G^{-1} v = ||Z||^2
    a = _second_layer(rng, np.sqrt(inner + wperp2), excess)
    return V, a, wperp2


def group_init(gammas: np.ndarray, signs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Group initialization (9) on orthonormal inputs, symmetric :math:`|a_j|=\|w_j\|`.

    ``gammas`` ``(B, p, k)`` > 0: neuron ``j`` is :math:`\sum_i\gamma_{ji}e_{(j-1)k+i}`,
    exactly 0 on the other groups.  Returns ``V`` ``(B, p, n=pk)`` and ``a`` ``(B, p)``.
    """
    B, p, k = gammas.shape
    V = np.zeros((B, p, p * k))
    for j in range(p):
        V[:, j, j * k : (j + 1) * k] = gammas[:, j]
    return V, signs * np.linalg.norm(gammas, axis=2)


# ------------------------------------------------------------------------- event I


def event_I(pre: np.ndarray, a: np.ndarray, y: np.ndarray) -> np.ndarray:
    r""":math:`\mathcal I`: every example has a correctly activated neuron, ``(B,)`` bool.

    ``pre`` ``(B, p, n)`` pre-activations, ``a`` ``(B, p)``, ``y`` ``(n,)`` or ``(B, n)``.
    """
    return covered(pre, a, y).all(axis=1)


def covered(pre: np.ndarray, a: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""Per example, :math:`\exists j`: :math:`\langle w_j|x_i\rangle>0` and :math:`a_jy_i>0`; ``(B, n)``."""
    yb = np.broadcast_to(y, (pre.shape[0], pre.shape[2]))
    good = (pre > 0) & (a[:, :, None] * yb[:, None, :] > 0)
    return good.any(axis=1)


def prob_event_I_orthogonal(n_pos: int, n_neg: int, p: int) -> float:
    r"""Exact :math:`\Pr(\mathcal I)` for orthogonal inputs (catalog (C8)).

    Given :math:`m` positive second-layer signs (Binomial(p, 1/2)), the signs of the
    coordinates :math:`\langle w_j|x_i\rangle` are independent fair coins, so
    :math:`\Pr(\mathcal I)=\sum_m\binom pm2^{-p}(1-2^{-m})^{n_+}(1-2^{-(p-m)})^{n_-}`.
    """
    m = np.arange(p + 1)
    logc = gammaln(p + 1) - gammaln(m + 1) - gammaln(p - m + 1) - p * np.log(2.0)
    with np.errstate(divide="ignore"):
        t = logc + xlog1py(n_pos, -(2.0 ** (-m))) + xlog1py(n_neg, -(2.0 ** (-(p - m))))
    return float(np.exp(t).sum())
