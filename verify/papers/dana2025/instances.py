r"""Instances for the dana2025 adversarial searches (:meth:`verify.context.Context.search`).

Each map sends unconstrained parameters :math:`\theta` to a data set and a network state
*inside* a claim's hypotheses, so that the search may roam freely:

* :func:`any_data` -- inputs :math:`X` (n, d) and labels, no restriction (Lemma 7);
* :func:`weak_data` -- inputs whose Gram matrix is :math:`D_X+E` with :math:`\|E\|` a fraction
  :math:`\mathrm{sigmoid}(\theta)<1` of the limit (4) (Assumption 2), realised by the Cholesky
  factor of the Gram matrix (positive definite since :math:`\|E\|<(C_x^-)^2`);
* :func:`sphere_data` -- fixed unit directions (Lemma 3's random data), norms and labels free;
* :func:`balanced_state` -- first layer :math:`W` free, second layer
  :math:`a_j=s_j\sqrt{\|w_j\|^2+\mathrm{softplus}(\theta)}` (Assumption 1: :math:`|a_j|\ge\|w_j\|`,
  equality approached as :math:`\theta\to-\infty`).

A state is evaluated with the toolkit's own network (:class:`numeric.models.shallow_relu.ShallowReLU`,
full coordinates, one member), so the searched quantity is the measured one.  Inputs carry one
extra coordinate (``d = n + 1``) in which the weights have their frozen component.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from numeric.backend import get_backend
from numeric.data.weakly_correlated import assumption2_limit, offdiag_norm
from numeric.models.shallow_relu import ShallowReLU
from verify.search import softplus

HOST = get_backend("numpy")
LOG_RANGE = 3.0  # log-norms and log-scales are clipped to [-3, 3]: factors up to e^6 ~ 400 apart


@dataclass(frozen=True)
class Instance:
    """One member: data ``X`` (n, d), labels ``y``, state (W (p, d), a (p,)) and the model's args."""

    X: np.ndarray
    y: np.ndarray
    W: np.ndarray
    a: np.ndarray

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def p(self) -> int:
        return len(self.a)

    @property
    def norms(self) -> np.ndarray:
        return np.linalg.norm(self.X, axis=1)

    @property
    def off(self) -> float:
        r""":math:`\|X^\top X-D_X\|`."""
        return float(offdiag_norm(self.X @ self.X.T))

    def model(self) -> tuple[ShallowReLU, np.ndarray, dict]:
        m = ShallowReLU(self.p, self.X.shape[1], "full")
        return m, m.pack((self.W[None], self.a[None])), m.args(HOST, self.X, self.y)


def labels(t: np.ndarray) -> np.ndarray:
    r"""Non-zero labels: :math:`y_i=t_i`, magnitudes clipped below at :math:`10^{-3}`."""
    return np.where(t >= 0, 1.0, -1.0) * np.maximum(np.abs(t), 1e-3)


def norms(t: np.ndarray) -> np.ndarray:
    return np.exp(np.clip(t, -LOG_RANGE, LOG_RANGE))


def any_data(theta: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X (n, n + 1), y, rest of theta): rows of a free matrix rescaled to norms exp(t) (any data)."""
    d = n + 1
    Z = theta[: n * d].reshape(n, d)
    c = norms(theta[n * d : n * d + n])
    y = labels(theta[n * d + n : n * d + 2 * n])
    X = c[:, None] * Z / np.maximum(np.linalg.norm(Z, axis=1, keepdims=True), 1e-300)
    return X, y, theta[n * d + 2 * n :]


def weak_data(theta: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""(X (n, n + 1), y, rest of theta) with Assumption 2: :math:`\|X^\top X-D_X\|=\mathrm{sigmoid}(t)`
    times the limit (4), the direction of the off-diagonal part free (symmetric, zero diagonal)."""
    m = n * (n - 1) // 2
    S = np.zeros((n, n))
    S[np.triu_indices(n, 1)] = theta[:m]
    S = S + S.T
    frac = 1 / (1 + np.exp(-theta[m]))
    c = norms(theta[m + 1 : m + 1 + n])
    y = labels(theta[m + 1 + n : m + 1 + 2 * n])
    size = float(offdiag_norm(S)) if n > 1 else 0.0
    E = S * (frac * float(assumption2_limit(c, y)) / size) if size > 0 else S
    L = np.linalg.cholesky(np.diag(c * c) + E)
    return np.hstack([L, np.zeros((n, 1))]), y, theta[m + 1 + 2 * n :]


def sphere_data(theta: np.ndarray, Gbar: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(X (n, n + 1), y, rest of theta): fixed unit directions with Gram ``Gbar`` (e.g. uniform on a sphere,
    Lemma 3), norms exp(t) and labels from theta (a compactly supported law away from 0, Corollary 1)."""
    n = len(Gbar)
    c = norms(theta[:n])
    y = labels(theta[n : 2 * n])
    L = np.linalg.cholesky(c[:, None] * Gbar * c[None, :])
    return np.hstack([L, np.zeros((n, 1))]), y, theta[2 * n :]


def free_state(theta: np.ndarray, n: int, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Any parameters: W (p, n + 1) and a (p,) straight from theta."""
    return theta[: p * (n + 1)].reshape(p, n + 1), theta[p * (n + 1) : p * (n + 2)]


def balanced_state(theta: np.ndarray, n: int, p: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Assumption 1 state: W free (last coordinate = the frozen part), :math:`a_j=s_j\sqrt{\|w_j\|^2+
    \mathrm{softplus}(t_j)}` with the sign :math:`s_j` of a third block of theta."""
    W = theta[: p * (n + 1)].reshape(p, n + 1)
    gap = softplus(theta[p * (n + 1) : p * (n + 2)])
    s = np.where(theta[p * (n + 2) : p * (n + 3)] >= 0, 1.0, -1.0)
    return W, s * np.sqrt((W * W).sum(axis=1) + gap)


def lemma7_instance(theta: np.ndarray, n: int, p: int) -> Instance:
    X, y, rest = any_data(theta, n)
    return Instance(X, y, *free_state(rest, n, p))


def theorem1_instance(theta: np.ndarray, n: int, p: int) -> Instance:
    X, y, rest = weak_data(theta, n)
    return Instance(X, y, *balanced_state(rest, n, p))


def corollary1_instance(theta: np.ndarray, Gbar: np.ndarray, p: int) -> Instance:
    X, y, rest = sphere_data(theta, Gbar)
    return Instance(X, y, *balanced_state(rest, len(Gbar), p))


def assemble(rng: np.random.Generator, blocks: list[tuple[int, float | np.ndarray, float]]) -> np.ndarray:
    """One start: consecutive blocks of theta, block ``(size, mean, scale)`` drawn as mean + scale N(0, 1)
    (``mean`` a number or an array of ``size`` entries)."""
    return np.concatenate([mean + scale * rng.normal(size=size) for size, mean, scale in blocks])


def feasible(
    draw: Callable[[], np.ndarray], ok: Callable[[np.ndarray], bool], tries: int = 1000
) -> np.ndarray:
    """The first draw inside a claim's hypotheses (starts of a search must be instances)."""
    for _ in range(tries):
        theta = draw()
        if ok(theta):
            return theta
    raise RuntimeError(f"no start inside the hypotheses in {tries} draws")
