r"""Datasets of the papers, built exactly on the host (NumPy, float64).

Every generator returns a :class:`Dataset` of host arrays ``X`` (P, D) and ``y`` (P,);
claims move them to the device with ``backend.asarray``.  Exactness matters: a
symmetric dataset is built as :math:`X = [X_0; -X_0]`, :math:`y = [y_0; -y_0]` (labels
negated, not re-evaluated), so Condition 3 of zhang2025 holds bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Dataset:
    """Inputs ``X`` (P, D), targets ``y`` (P,), and a description."""

    X: np.ndarray
    y: np.ndarray
    name: str
    meta: dict = field(default_factory=dict)

    @property
    def P(self) -> int:
        return self.X.shape[0]

    @property
    def D(self) -> int:
        return self.X.shape[1]

    @property
    def Sigma(self) -> np.ndarray:
        r""":math:`\Sigma = \langle xx^\top\rangle` (zhang2025 eq. (4), uncentred)."""
        return self.X.T @ self.X / self.P

    @property
    def beta(self) -> np.ndarray:
        r""":math:`\beta = \langle yx\rangle` (zhang2025 eq. (4))."""
        return self.X.T @ self.y / self.P


def symmetrize(X0: np.ndarray, y0: np.ndarray, name: str = "symmetric") -> Dataset:
    """Condition 3 by construction: every ``(x, y)`` is joined by ``(-x, -y)``."""
    return Dataset(np.concatenate([X0, -X0]), np.concatenate([y0, -y0]), name)


def is_symmetric(X: np.ndarray, y: np.ndarray, atol: float = 0.0) -> bool:
    """Condition 3 on a finite dataset: the multiset of ``(x, y)`` equals that of ``(-x, -y)``.

    Pairs are matched after a lexicographic sort, so the test is exact for ``atol = 0``.
    """
    a = np.column_stack([X, y])
    b = -a
    a = a[np.lexsort(a.T[::-1])]
    b = b[np.lexsort(b.T[::-1])]
    return bool(np.all(np.abs(a - b) <= atol))


def whiten(ds: Dataset) -> Dataset:
    r"""Exact whitening :math:`X\leftarrow X\hat\Sigma^{-1/2}`; linear, so it keeps the ±x pairing.

    The pairing is kept bit for bit: a BLAS matmul may round two equal rows differently
    (its kernels depend on the row's position), so every row is first given a canonical
    sign (first non-zero entry positive), each distinct canonical row is transformed
    once, and the sign is restored (negation is exact).  Raises ``ValueError`` when
    :math:`\hat\Sigma` is singular (e.g. fewer ±x pairs than dimensions).
    """
    evals, evecs = np.linalg.eigh(ds.Sigma)
    if evals.min() <= ds.D * np.finfo(float).eps * max(evals.max(), 0.0):
        raise ValueError(f"whitening needs a non-singular Sigma; {ds.name!r} has rank < D={ds.D}")
    inv_sqrt = evecs @ np.diag(evals**-0.5) @ evecs.T
    X = ds.X
    nonzero = X != 0
    first = np.where(nonzero.any(axis=1), nonzero.argmax(axis=1), 0)
    sign = np.where(X[np.arange(ds.P), first] < 0, -1.0, 1.0)[:, None]
    rows, inverse = np.unique(sign * X, axis=0, return_inverse=True)
    Xw = sign * (rows @ inv_sqrt)[inverse.reshape(-1)]
    return Dataset(Xw, ds.y.copy(), ds.name + " (whitened)", dict(ds.meta))


def gaussian_teacher(
    rng: np.random.Generator, n_pairs: int, D: int, *, sine: float = 4.0, symmetric: bool = True
) -> Dataset:
    r"""zhang2025 Fig. 3 data: :math:`x\sim\mathcal N(0, I_D)`, :math:`y = w^\top x + \sin(c\, w^\top x)`.

    :math:`w_i\sim\mathcal U[-0.5, 0.5]`, ``c = sine`` (4 in the paper; 0 gives the linear
    target of Fig. 5).  With ``symmetric`` the negated pairs are appended (P = 2 n_pairs).
    """
    w = rng.uniform(-0.5, 0.5, D)
    X0 = rng.normal(size=(n_pairs, D))
    z = X0 @ w
    y0 = z + np.sin(sine * z)
    if symmetric:
        ds = symmetrize(X0, y0, "gaussian teacher")
    else:
        ds = Dataset(X0, y0, "gaussian teacher")
    return Dataset(ds.X, ds.y, ds.name, {"w": w, "sine": sine})


def orthogonal(norms: np.ndarray, labels: np.ndarray, D: int | None = None) -> Dataset:
    r"""Orthogonal inputs :math:`x_\mu = c_\mu e_\mu` in :math:`\mathbb R^D` (``D >= P``)."""
    P = len(norms)
    D = P if D is None else D
    if D < P:
        raise ValueError(f"orthogonal data need D >= P, got D={D} < P={P}")
    X = np.zeros((P, D))
    X[np.arange(P), np.arange(P)] = norms
    return Dataset(X, np.asarray(labels, dtype=float), "orthogonal")


def boursier_orthogonal() -> Dataset:
    """zhang2025 Fig. 4a: the two orthogonal points [-0.5, 1] and [2, 1] with labels ±1."""
    X = np.array([[-0.5, 1.0], [2.0, 1.0]])
    return Dataset(X, np.array([1.0, -1.0]), "orthogonal pair (Fig. 4a)")


def xor_like() -> Dataset:
    """zhang2025 Fig. 4c: [0,1], [2,0], [0,-3], [-4,0]; points on one axis share a label."""
    X = np.array([[0.0, 1.0], [2.0, 0.0], [0.0, -3.0], [-4.0, 0.0]])
    return Dataset(X, np.array([1.0, -1.0, 1.0, -1.0]), "XOR-like (Fig. 4c)")


def fan(n_pairs: int = 60, seed: int = 0) -> Dataset:
    r"""Fan dataset (Fig. 1a): :math:`x=\rho(\cos\theta,\sin\theta)`, :math:`y=\mathrm{sign}\sin 3\theta`.

    Odd and positively homogeneous; the paper draws it without giving a formula, so
    this construction (:math:`\rho\in[0.5,1]`) is ours. Symmetric by construction.
    """
    rng = np.random.default_rng(seed)
    theta = rng.uniform(0, np.pi, n_pairs)
    rho = rng.uniform(0.5, 1.0, n_pairs)
    X0 = rho[:, None] * np.column_stack([np.cos(theta), np.sin(theta)])
    y0 = np.sign(np.sin(3 * theta))
    y0[y0 == 0] = 1.0
    return symmetrize(X0, y0, "fan (Fig. 1a)")


def circle(n_pairs: int = 60, radius: float = 0.7, seed: int = 0) -> Dataset:
    """Circle dataset (Fig. 1b): label +1 inside ``radius``, -1 outside; even, not homogeneous."""
    rng = np.random.default_rng(seed)
    theta = rng.uniform(0, np.pi, n_pairs)
    rho = rng.uniform(0.2, 1.2, n_pairs)
    X0 = rho[:, None] * np.column_stack([np.cos(theta), np.sin(theta)])
    y0 = np.where(rho < radius, 1.0, -1.0)
    return Dataset(np.concatenate([X0, -X0]), np.concatenate([y0, y0]), "circle (Fig. 1b)")


def perturbed_symmetric(delta: float) -> Dataset:
    r"""zhang2025 Sec. 6.2 / Fig. 6: [1,1],[-1,-1],[1,-1],[-1,1],[-1,0],[1,δ].

    The paper gives the labels only in its figure. We label the corners by the sign of
    :math:`x_1` and the middle pair *against* them, :math:`y(-1,0)=+1`, :math:`y(1,\delta)=-1`:
    the labelling is odd at :math:`\delta=0` (Condition 3 holds exactly) and not linear,
    so the OLS loss is positive and a ReLU net has a nonlinear solution to escape to.
    (Labelling every point by :math:`x_1` would make the target exactly linear and leave
    no plateau to escape.)
    """
    X = np.array([[1, 1], [-1, -1], [1, -1], [-1, 1], [-1, 0], [1, delta]], dtype=float)
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    return Dataset(X, y, f"perturbed symmetric (delta={delta:g})", {"delta": delta})
