r"""Search instances of the min2024 trajectory claims: ``theta`` -> data and a balanced initialisation.

Every map sends any :math:`\theta\in\mathbb R^k` inside the claim's hypotheses, so the
adversarial search (:mod:`verify.search`) never leaves them:

* :func:`separated_problem` -- data with :math:`\mu>0` (:func:`cone_instance`: generators
  squashed strictly within 45 degrees of :math:`e_1`), free shapes :math:`W_0`, signs from
  logits, :math:`\log\epsilon` squashed into a given interval;
* :func:`trapped_problem` -- the same data, every neuron of :math:`\mathcal V_+` in :math:`S_+`
  and of :math:`\mathcal V_-` in :math:`S_-` (a free :math:`z_j` shifted along :math:`\hat x_+`
  until its margin is :math:`e^{\delta_j}\|z_j\|\,y_i\langle x_i,\hat x_+\rangle>0`);
* :func:`free_problem` -- any data (Lemmas 1 and 3 assume nothing of the data).

:func:`starts` gives the structurally different families: the three data families of
:func:`cone_starts` with Gaussian shapes, plus a family at the hypothesis' edge
that the caller describes.
"""

from __future__ import annotations

import numpy as np

from numeric.data.separated_data import aggregates
from verify.papers.min2024.common import Problem
from verify.search import squash

SEARCH_CONE = (5, 3)  # (n, D) of the conic instance searches (Lemmas 5 and 7)


def cone_instance(
    theta: np.ndarray, k: int, shape: tuple[int, int] = SEARCH_CONE
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``theta`` -> data ``(X, y)`` with :math:`\mu>0` and ``k`` points :math:`A\,(y_ix_i)_i` of K.

    Every ``theta`` lands inside Assumption 1: the generators are
    :math:`y_ix_i=r_i(e_1+p_i)`, :math:`p_i\perp e_1` squashed to :math:`\|p_i\|<1`, so each is
    strictly within 45 degrees of :math:`e_1`, any two within 90 and :math:`\mu>0`;
    :math:`r_i=e^{\theta}`, labels alternate, and the coefficients :math:`A=e^{\theta}>0`.
    """
    n, D = shape
    P = theta[: n * (D - 1)].reshape(n, D - 1)
    P = P / (1.0 + np.linalg.norm(P, axis=1, keepdims=True))
    G = np.exp(theta[n * (D - 1) : n * D])[:, None] * np.concatenate([np.ones((n, 1)), P], axis=1)
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    return y[:, None] * G, y, np.exp(theta[n * D : n * D + k * n].reshape(k, n))


def cone_starts(
    rng: np.random.Generator, k: int, shape: tuple[int, int] = SEARCH_CONE
) -> dict[str, list[np.ndarray]]:
    """Three families: spread generators with dense coefficients, clustered generators (mu near 1)
    with points of K near single generators (the equality case), and nearly orthogonal generators
    (mu near 0). With ``k = 0`` (data only) the families differ in the data alone; ``shape`` = (n, D)."""
    n, D = shape

    def theta(p_scale: float, coeff: np.ndarray) -> np.ndarray:
        P = p_scale * rng.normal(size=n * (D - 1))
        return np.concatenate([P, rng.normal(size=n), coeff.ravel()])

    one_hot = np.full((k, n), -30.0)
    one_hot[np.arange(k), rng.permutation(n)[:k]] = 0.0
    return {
        "spread generators (dense coefficients)": [theta(1.0, rng.normal(size=(k, n))) for _ in range(2)],
        "clustered generators (coefficients near single generators)": [
            theta(0.1, one_hot + 0.1 * rng.normal(size=(k, n))) for _ in range(2)
        ],
        "nearly orthogonal generators": [theta(50.0, rng.normal(size=(k, n))) for _ in range(2)],
    }


H = 2  # neurons of every search instance
N, DIM = SHAPE = (4, 3)  # data of every search instance (4 points in R^3): few parameters for Nelder-Mead
DATA = N * DIM  # parameters of the data block of theta


PROBE = (
    "at tiny and quick (<= 10 evaluations per start, fewer than the parameters) the search probes each "
    "start's neighbourhood; the full profile runs Nelder-Mead proper"
)  # what a trajectory search's budget allows below the full profile


def _signs(logits: np.ndarray) -> np.ndarray:
    return np.where(logits >= 0, 1.0, -1.0)


def _init(tail: np.ndarray, log_eps: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``tail`` = (W0 (H, D), H sign logits, one log-eps logit) -> ``(W0, s, log_eps)`` of one member."""
    W0 = tail[: H * DIM].reshape(1, H, DIM)
    s = _signs(tail[H * DIM : H * DIM + H])[None]
    return W0, s, np.array([squash(tail[H * DIM + H], *log_eps)])


INIT = H * DIM + H + 1  # parameters of :func:`_init`


def separated_problem(theta: np.ndarray, log_eps: tuple[float, float]) -> Problem:
    r"""``theta`` = (data block, :math:`W_0` (H, D), H sign logits, one log-eps logit): :math:`\mu>0`."""
    X, y, _ = cone_instance(theta[:DATA], 0, SHAPE)
    return Problem(X, y, *_init(theta[DATA:], log_eps))


def free_problem(theta: np.ndarray, log_eps: tuple[float, float]) -> Problem:
    r"""``theta`` = (X (N, D), N label logits, then as :func:`separated_problem`): any data and labels
    (Lemmas 1, 3 and 13 assume nothing of them)."""
    return Problem(
        theta[:DATA].reshape(N, DIM), _signs(theta[DATA : DATA + N]), *_init(theta[DATA + N :], log_eps)
    )


def trapped_problem(theta: np.ndarray, log_eps: tuple[float, float], log_margin: float = -30.0) -> Problem:
    r"""``theta`` = (data block, :math:`z` (H, D), H sign logits, H margin logits :math:`\delta`, one
    log-eps logit): every neuron starts in its own cone (:math:`S_+` for :math:`s_j=+1`, :math:`S_-`
    for :math:`s_j=-1`), at a margin that the logits :math:`\delta_j` may push down to
    :math:`e^{\text{log_margin}}` times the unshifted one."""
    X, y, _ = cone_instance(theta[:DATA], 0, SHAPE)
    Z = theta[DATA : DATA + H * DIM].reshape(H, DIM)
    s = _signs(theta[DATA + H * DIM : DATA + H * DIM + H])
    delta = np.exp(np.clip(theta[DATA + H * DIM + H : DATA + H * DIM + 2 * H], log_margin, 5.0))
    xp = aggregates(X, y)[0]
    xp = xp / np.linalg.norm(xp)
    G = y[:, None] * X  # generators: y_i <x_i, w> > 0 for all i  <=>  w in S+
    lift = G @ xp  # > 0 under mu > 0 (Lemma 7)
    need = np.maximum(0.0, (-(Z @ G.T) / lift).max(axis=1))
    W = s[:, None] * (Z + (need + delta * np.linalg.norm(Z, axis=1))[:, None] * xp)
    return Problem(X, y, W[None], s[None], np.array([squash(theta[-1], *log_eps)]))


def margins(U: np.ndarray, X: np.ndarray, y: np.ndarray, s: np.ndarray) -> np.ndarray:
    r"""Normalised own-cone margins :math:`\min_is_jy_i\langle x_i,u_j\rangle/\|x_i\|/\|u_j\|` of
    ``U`` ``(..., h, D)``: positive iff the neuron is in :math:`S_{\mathrm{sign}(s_j)}`."""
    G = y[:, None] * X / np.linalg.norm(X, axis=1, keepdims=True)
    return (s[..., None] * (U @ G.T)).min(-1) / np.linalg.norm(U, axis=-1)


def near_x_minus(rng: np.random.Generator, family: str, eps_logit: float) -> tuple[np.ndarray, np.ndarray]:
    """The data block of the first start of ``family`` (:func:`cone_starts`) and an init tail (shapes,
    alternating signs, ``eps_logit``) whose first neuron, in V+, lies 1e-3 from x_-: zeta_2 near 0, the
    edge of Assumption 2 (x_- is a fixed point of the reduced flow of a V+ neuron)."""
    data = cone_starts(rng, 0, SHAPE)[family][0][:DATA]
    X, y, _ = cone_instance(data, 0, SHAPE)
    xm = aggregates(X, y)[1]
    W = rng.normal(size=(H, DIM))
    W[0] = xm / np.linalg.norm(xm) + 1e-3 * rng.normal(size=DIM)
    return data, np.concatenate([W.ravel(), 1.0 - 2.0 * (np.arange(H) % 2), [eps_logit]])


def starts(
    rng: np.random.Generator, tail: int, edge: tuple[str, np.ndarray, np.ndarray] | None = None, per: int = 1
) -> dict[str, list[np.ndarray]]:
    """``per`` starts in each of the three data families of :func:`cone_starts`, each followed by
    ``tail`` Gaussian parameters (shapes, logits); ``edge`` = (name, data block, tail) adds a family at
    the edge of the hypotheses, jittered by 1e-3 per start."""
    out = {
        f"{name}, Gaussian init": [np.concatenate([th[:DATA], rng.normal(size=tail)]) for th in thetas[:per]]
        for name, thetas in cone_starts(rng, 0, SHAPE).items()
    }
    if edge is not None:
        name, data, rest = edge
        out[name] = [np.concatenate([data, rest]) + 1e-3 * rng.normal(size=DATA + tail) for _ in range(per)]
    return out
