r"""Training losses with each paper's exact normalisation.

For network outputs ``f`` and targets ``y`` (both ``(B, P)``) a loss is
:math:`\mathcal L = c\sum_{\mu}\ell(f_\mu, y_\mu)` with :math:`c = 1/P` (``"mean"``) or
:math:`c = 1` (``"sum"``).  ``dvalue`` returns :math:`\partial\mathcal L/\partial f_\mu`
*including* the factor ``c``, so backpropagation needs no further scaling.

* square:       :math:`\ell = \tfrac12 (y - f)^2` (zhang2025 Sec. 2; Figs. 4, 8 sum)
* logistic:     :math:`\ell = \ln(1 + e^{-yf})` (zhang2025 App. C.2; kou2023; min2024 main text)
* logistic2:    :math:`\ell = 2\ln(1 + e^{-yf})` (min2024 App. B: Lemma 2 needs the 2)
* exponential:  :math:`\ell = e^{-yf}` (min2024)

The gradient flows of min2024 write :math:`r=-\partial\mathcal L/\partial f` with the sum
reduction (:math:`r = y e^{-yf}`, :math:`2y\,\mathrm{sigmoid}(-yf)`, :math:`y\,\mathrm{sigmoid}(-yf)`,
:math:`y - f`): ``-Loss(kind, "sum").dvalue(f, y)``, bit for bit (a negation and a multiplication
by ``c = 1`` are exact).

Overflow.  The exponential loss's value and derivative contain :math:`c\,e^{z}`,
:math:`z=-yf`.  Written as ``c * exp(z)`` it overflows spuriously when :math:`e^z` exceeds the
largest float but :math:`c\,e^z` (:math:`c=1/P`) does not.  :func:`scaled_exp` evaluates
:math:`c\,e^z=e^{z+\ln c}` there instead, so the loss is finite whenever its true value is
representable; where it is not (:math:`z+\ln c>\ln(\text{max float})`, e.g. :math:`yf=-1300`) the
result is ``inf`` with NumPy's overflow warning, the correctly rounded answer: no formulation
can make it finite, and the solvers turn it into a non-finite member status.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from numeric.backend import Array, array_namespace

Reduction = Literal["mean", "sum"]
LossKind = Literal["square", "logistic", "logistic2", "exponential"]
LOSS_KINDS: tuple[str, ...] = ("square", "logistic", "logistic2", "exponential")


@dataclass(frozen=True)
class Loss:
    """A per-sample loss ``kind`` reduced by ``reduction`` over the P samples."""

    kind: LossKind
    reduction: Reduction = "mean"

    def __post_init__(self) -> None:
        if self.kind not in LOSS_KINDS:
            raise ValueError(f"unknown loss kind={self.kind!r}; choose one of {LOSS_KINDS}")
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
        if self.kind == "logistic2":
            return 2.0 * xp.logaddexp(0.0, -y * f)
        return xp.exp(-y * f)

    def value(self, f: Array, y: Array) -> Array:
        """:math:`\\mathcal L`, shape ``(B,)``."""
        if self.kind == "exponential":
            # c e^{z} term by term: the terms are positive, so no partial sum exceeds the total
            return scaled_exp(array_namespace(f, y), -y * f, self._scale(f)).sum(axis=-1)
        return self._scale(f) * self.per_sample(f, y).sum(axis=-1)

    def dvalue(self, f: Array, y: Array) -> Array:
        """:math:`\\partial\\mathcal L/\\partial f_\\mu`, shape ``(B, P)``."""
        xp = array_namespace(f, y)
        c = self._scale(f)
        if self.kind == "square":
            return c * (f - y)
        if self.kind == "logistic":
            # -y / (1 + e^{y f}), written with a stable sigmoid of -y f
            return -c * y * sigmoid(-y * f)
        if self.kind == "logistic2":
            return -2.0 * c * y * sigmoid(-y * f)
        return -y * scaled_exp(xp, -y * f, c)


def _log_max(dtype) -> float:
    """A float ``M`` just below :math:`\\ln(\\text{max float})` of ``dtype``: ``exp(M)`` is finite."""
    m = np.log(np.finfo(dtype).max)
    return float(np.nextafter(m, m.dtype.type(0)))


def scaled_exp(xp, z: Array, c: float) -> Array:
    r""":math:`c\,e^{z}` for :math:`0<c\le1` without spurious overflow (module docstring).

    ``c * exp(z)`` wherever :math:`e^z` is finite (bit-identical to the plain product), and
    :math:`e^{z+\ln c}` where only :math:`e^z` overflows; ``inf`` only where :math:`c\,e^z` itself
    exceeds the largest float, NaN only from a NaN ``z``.
    """
    if c == 1.0:
        return xp.exp(z)
    m = _log_max(z.dtype)
    big = z > m
    return xp.where(big, xp.exp(xp.where(big, z, 0.0) + float(np.log(c))), c * xp.exp(xp.minimum(z, m)))


def sigmoid(z: Array) -> Array:
    r"""Overflow-free :math:`1/(1+e^{-z})`; e.g. :math:`|\ell'(q)| = 1/(1+e^q)` of the logistic loss is
    ``sigmoid(-q)`` (exactly 0 only where it underflows, :math:`q\gtrsim745`)."""
    xp = array_namespace(z)
    ez = xp.exp(-xp.abs(z))
    return xp.where(z >= 0, 1.0 / (1.0 + ez), ez / (1.0 + ez))


SQUARE = Loss("square")
LOGISTIC = Loss("logistic")
