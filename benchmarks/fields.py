r"""Small vector fields used only by the benchmarks (analytic gradients, NumPy).

* :class:`SingleNetFlow` -- the gradient-flow field of ONE two-layer ReLU net with
  plain 2-D matmuls, the lean per-member function a ``solve_ivp`` loop calls; it is
  the same field as :class:`numeric.vector_fields.GradientFlow` on
  ``BiasFreeNet((D, H, 1), kink=0)`` with square loss, alpha = 0.
* :class:`MeanFieldGD` -- dana2025: :math:`f(x) = \frac1p\sum_j a_j\,\mathrm{relu}(w_j\cdot x)`,
  both layers trained, square loss :math:`\frac1{2n}\sum_i (y_i - f(x_i))^2`,
  :math:`\sigma'(0)=0`; batched field :math:`-p\,\nabla L` (the p-accelerated flow) on
  the state ``[W, a]`` flattened to ``(B, p D + p)``.

(The kou2023 benchmark uses the claims' own field, :class:`numeric.fixed_readout.FixedReadoutNet`.)

Batched fields follow the solver convention ``field(t, y, args)`` with the data in
``args``: ``X`` (1, P, D), ``XT`` (1, D, P) contiguous, ``y`` (1, P).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks.work import two_layer_grad_flops


def data_args(X: np.ndarray, y: np.ndarray) -> dict[str, np.ndarray]:
    """Shared-data solver ``args``: ``X`` (1, P, D), ``XT`` (1, D, P), ``y`` (1, P)."""
    return {
        "X": np.ascontiguousarray(X[None]),
        "XT": np.ascontiguousarray(X.T[None]),
        "y": np.asarray(y, dtype=float)[None],
    }


@dataclass
class SingleNetFlow:
    """Square-loss gradient flow of one net ``f = a . relu(W x)``; state ``[W.ravel(), a]``."""

    X: np.ndarray
    y: np.ndarray

    def __post_init__(self) -> None:
        self.X = np.ascontiguousarray(self.X)
        self.XT = np.ascontiguousarray(self.X.T)
        self.P, self.D = self.X.shape

    def __call__(self, t: float, theta: np.ndarray) -> np.ndarray:
        D, P = self.D, self.P
        H = (theta.size) // (D + 1)
        W = theta[: H * D].reshape(H, D)
        a = theta[H * D :]
        Z = W @ self.XT  # (H, P)
        act = np.maximum(Z, 0.0)
        r = (a @ act - self.y) / P  # dL/df, (P,)
        out = np.empty_like(theta)
        out[H * D :] = -(act @ r)
        out[: H * D] = -(((a[:, None] * r[None, :]) * (Z > 0)) @ self.X).ravel()
        return out

    def flops(self, H: int) -> float:
        return two_layer_grad_flops(self.P, self.D, H)


@dataclass(frozen=True)
class MeanFieldGD:
    """dana2025 field ``-p grad L`` on ``[W (p, D), a (p,)]`` (see module docstring)."""

    p: int
    D: int

    @property
    def n_state(self) -> int:
        return self.p * self.D + self.p

    def split(self, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        B = y.shape[0]
        return y[:, : self.p * self.D].reshape(B, self.p, self.D), y[:, self.p * self.D :]

    def loss_value(self, y: np.ndarray, args: dict) -> np.ndarray:
        W, a = self.split(y)
        act = np.maximum(W @ args["XT"], 0.0)
        f = (a[:, None, :] @ act)[:, 0, :] / self.p
        return 0.5 * ((f - args["y"]) ** 2).mean(axis=1)

    def __call__(self, t: np.ndarray, y: np.ndarray, args: dict) -> np.ndarray:
        B, p = y.shape[0], self.p
        W, a = self.split(y)  # views; a stacked matmul on them stays on BLAS
        Z = W @ args["XT"]  # (B, p, n)
        act = np.maximum(Z, 0.0)
        f = (a[:, None, :] @ act) / p  # (B, 1, n)
        g = (f - args["y"][:, None, :]) / f.shape[-1]  # dL/df, (B, 1, n)
        out = np.empty_like(y)
        out[:, p * self.D :] = (act @ np.swapaxes(-g, 1, 2))[:, :, 0]
        delta = (a[:, :, None] * -g) * (Z > 0)
        out[:, : p * self.D] = (delta @ args["X"]).reshape(B, -1)
        return out

    def flops(self, P: int) -> float:
        return two_layer_grad_flops(P, self.D, self.p)
