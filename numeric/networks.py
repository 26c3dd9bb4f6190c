r"""Bias-free feed-forward networks, batched over an ensemble axis.

A network with widths ``(N_0, N_1, ..., N_L)`` maps an input :math:`x\in\mathbb R^{N_0}` to

.. math::  h_1 = W_1 x,\qquad h_l = W_l\,\sigma(h_{l-1})\ (2\le l\le L),\qquad f(x) = h_L,

with :math:`\sigma(z)=\max(z,\alpha z)` (zhang2025 eqs. (1), (5)).  ``L = 2`` is the
two-layer net :math:`f = W_2\sigma(W_1x)`; ``alpha = 1`` is the linear network
:math:`f = W_L\cdots W_1 x`.  Every weight carries a leading ensemble axis ``B``:
``W_l`` has shape ``(B, N_l, N_{l-1})``; data are columns, ``XT`` of shape
``(B|1, N_0, P)``, so a forward pass is a stack of matmuls with no Python loop over
members, neurons or samples.

The slope of the activation at the kink, :math:`\sigma'(0)`, is an explicit
constructor argument (``kink``): papers differ on it and some statements depend on
it (zhang2025 Prop. 12 needs :math:`\sigma'(0)=0`; the pairing identity (38) at an
exactly-zero pre-activation needs :math:`\sigma'(0)=(1+\alpha)/2`).

Gradients are written analytically (backpropagation by hand, no autodiff) and
checked against exact SymPy derivatives in ``tests/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from numeric.backend import Array, array_namespace
from numeric.losses import Loss


def leaky_relu(z: Array, alpha: Array | float) -> Array:
    r""":math:`\sigma(z) = \max(z, \alpha z)` (for :math:`\alpha\in[0,1]` the leaky ReLU)."""
    xp = array_namespace(z)
    return xp.maximum(z, alpha * z)


def leaky_relu_slope(z: Array, alpha: Array | float, kink: float) -> Array:
    r""":math:`\sigma'(z)`: ``max(1, alpha)`` for z > 0, ``min(1, alpha)`` for z < 0, ``kink`` at 0.

    For ``alpha = 1`` the activation is the identity and its slope is 1 everywhere,
    whatever ``kink`` says.
    """
    xp = array_namespace(z)
    hi = xp.maximum(1.0, alpha)
    lo = xp.minimum(1.0, alpha)
    slope = lo + (hi - lo) * (z > 0)  # one fused pass; exact zeros are rare and patched below
    zero = z == 0
    if zero.any():
        slope = xp.where(zero, xp.where(xp.asarray(alpha) == 1.0, 1.0, kink), slope)
    return slope


@dataclass(frozen=True)
class BiasFreeNet:
    """Shapes and the subgradient convention of a bias-free (leaky) ReLU network.

    Parameters
    ----------
    widths: ``(N_0, ..., N_L)``; ``N_0`` is the input dimension D, ``N_L`` the output
        dimension (1 for every paper here).
    kink: the value used for :math:`\\sigma'(0)`.
    """

    widths: tuple[int, ...]
    kink: float

    def __post_init__(self) -> None:
        if len(self.widths) < 3:
            raise ValueError(f"a network needs at least one hidden layer, got widths={self.widths}")
        if any(int(w) < 1 for w in self.widths):
            raise ValueError(f"every width must be >= 1, got widths={self.widths}")

    @property
    def depth(self) -> int:
        return len(self.widths) - 1

    @property
    def shapes(self) -> list[tuple[int, int]]:
        return [(self.widths[i + 1], self.widths[i]) for i in range(self.depth)]

    @property
    def n_params(self) -> int:
        return sum(r * c for r, c in self.shapes)

    # -- flat state <-> weight matrices ---------------------------------------------
    def unpack(self, y: Array) -> list[Array]:
        """Views ``W_l`` of shape ``(B, N_l, N_{l-1})`` into a flat state ``y`` (B, n_params)."""
        Ws, offset = [], 0
        for r, c in self.shapes:
            Ws.append(y[:, offset : offset + r * c].reshape(y.shape[0], r, c))
            offset += r * c
        return Ws

    def pack(self, Ws: Sequence[Array]) -> Array:
        """The flat state ``(B, n_params)`` holding the weights ``Ws``."""
        xp = array_namespace(*Ws)
        return xp.concatenate([W.reshape(W.shape[0], -1) for W in Ws], axis=1)

    # -- forward and backward -------------------------------------------------------
    def forward(self, Ws: Sequence[Array], XT: Array, alpha: Array | float) -> list[Array]:
        """Pre-activations ``[h_1, ..., h_L]``, each ``(B, N_l, P)``; ``h_L`` is the output."""
        return self._forward(Ws, XT, alpha)[0]

    def _forward(
        self, Ws: Sequence[Array], XT: Array, alpha: Array | float
    ) -> tuple[list[Array], list[Array]]:
        """Pre-activations ``[h_1, ..., h_L]`` and activations ``[sigma(h_1), ..., sigma(h_{L-1})]``."""
        hs, acts = [Ws[0] @ XT], []
        for W in Ws[1:]:
            acts.append(leaky_relu(hs[-1], alpha))
            hs.append(W @ acts[-1])
        return hs, acts

    def output(self, Ws: Sequence[Array], XT: Array, alpha: Array | float) -> Array:
        """Network output ``f`` of shape ``(B, P)`` (scalar-output networks)."""
        return self.forward(Ws, XT, alpha)[-1][:, 0, :]

    def loss_and_grad(
        self,
        Ws: Sequence[Array],
        X: Array,
        XT: Array,
        y: Array,
        alpha: Array | float,
        loss: Loss,
    ) -> tuple[Array, list[Array]]:
        r"""Loss ``(B,)`` and its gradient with respect to every ``W_l``.

        Backpropagation (zhang2025 eq. (6)):
        :math:`\partial\mathcal L/\partial W_l = \delta_l\,\sigma(h_{l-1})^\top`,
        :math:`\delta_{l-1} = \sigma'(h_{l-1})\odot W_l^\top\delta_l`, with
        :math:`\delta_L = \partial\mathcal L/\partial f` and :math:`\sigma(h_0)\equiv x`.
        ``X`` is ``(B|1, P, N_0)`` and ``XT`` its transpose, both contiguous.
        """
        hs, acts = self._forward(Ws, XT, alpha)
        f = hs[-1][:, 0, :]
        value = loss.value(f, y)
        delta = loss.dvalue(f, y)[:, None, :]  # (B, 1, P)
        grads: list[Array] = [None] * self.depth  # type: ignore[list-item]
        for l in range(self.depth - 1, 0, -1):
            grads[l] = delta @ _swap(acts[l - 1])
            delta = leaky_relu_slope(hs[l - 1], alpha, self.kink) * (_swap(Ws[l]) @ delta)
        grads[0] = delta @ X
        return value, grads


def _swap(a: Array) -> Array:
    """Transpose the last two axes into a contiguous array (stacked matmul stays on BLAS)."""
    xp = array_namespace(a)
    return xp.ascontiguousarray(xp.swapaxes(a, -1, -2))
