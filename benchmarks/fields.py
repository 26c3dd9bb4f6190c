r"""The per-member field of the solve_ivp loop (analytic gradient, NumPy).

:class:`SingleNetFlow` is the gradient-flow field of ONE two-layer ReLU net with plain
2-D matmuls, the lean per-member function a ``solve_ivp`` loop calls; it is the same
field as :class:`numeric.models.vector_fields.GradientFlow` on ``BiasFreeNet((D, H, 1), kink=0)``
with square loss, alpha = 0.  The batched engine is always timed on the library's own
fields (the kou2023 and dana2025 benchmarks use the claims' fields,
:class:`numeric.models.fixed_readout.FixedReadoutNet` and :class:`numeric.models.shallow_relu.ShallowReLU`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks.work import two_layer_grad_flops


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
