r"""Training losses with each paper's exact normalisation.

For network outputs ``f`` and targets ``y`` (both ``(B, P)``) a loss is
:math:`\mathcal L = c\sum_{\mu}\ell(f_\mu, y_\mu)` with :math:`c = 1/P` (``"mean"``) or
:math:`c = 1` (``"sum"``).  ``dvalue`` returns :math:`\partial\mathcal L/\partial f_\mu`
*including* the factor ``c``, so backpropagation needs no further scaling.

* square:       :math:`\ell = \tfrac12 (y - f)^2` (zhang2025 Sec. 2; Figs. 4, 8 sum)
* logistic:     :math:`\ell = \ln(1 + e^{-yf})` (zhang2025 App. C.2; kou2023)
* exponential:  :math:`\ell = e^{-yf}`
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from numeric.backend import Array, array_namespace

Reduction = Literal["mean", "sum"]


@dataclass(frozen=True)
class Loss:
    """A per-sample loss ``kind`` reduced by ``reduction`` over the P samples."""

    kind: Literal["square", "logistic", "exponential"]
    reduction: Reduction = "mean"

    def __post_init__(self) -> None:
        if self.kind not in ("square", "logistic", "exponential"):
            raise ValueError(f"unknown loss kind={self.kind!r}")
        if self.reduction not in ("mean", "sum"):
            raise ValueError(f"reduction must be 'mean' or 'sum', got {self.reduction!r}")

    def _scale(self, f: Array) -> float:
        return 1.0 / f.shape[-1] if self.reduction == "mean" else 1.0

    def per_sample(self, f: Array, y: Array) -> Array:
        """:math:`\\ell(f_\\mu, y_\\mu)`, shape ``(B, P)``."""
        xp = array_namespace(f, y)
        if self.kind == "square":
            return 0.5 * (y - f) ** 2
        if self.kind == "logistic":
            return xp.logaddexp(0.0, -y * f)
        return xp.exp(-y * f)

    def value(self, f: Array, y: Array) -> Array:
        """:math:`\\mathcal L`, shape ``(B,)``."""
        return self._scale(f) * self.per_sample(f, y).sum(axis=-1)

    def dvalue(self, f: Array, y: Array) -> Array:
        """:math:`\\partial\\mathcal L/\\partial f_\\mu`, shape ``(B, P)``."""
        xp = array_namespace(f, y)
        c = self._scale(f)
        if self.kind == "square":
            return c * (f - y)
        if self.kind == "logistic":
            # -y / (1 + e^{y f}), written with a stable sigmoid of -y f
            return -c * y * _sigmoid(xp, -y * f)
        return -c * y * xp.exp(-y * f)


def _sigmoid(xp, z: Array) -> Array:
    """Overflow-free logistic function."""
    ez = xp.exp(-xp.abs(z))
    return xp.where(z >= 0, 1.0 / (1.0 + ez), ez / (1.0 + ez))


SQUARE = Loss("square")
LOGISTIC = Loss("logistic")
