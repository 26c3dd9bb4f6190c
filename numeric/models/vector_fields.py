r"""Gradient-flow vector fields of bias-free networks, written analytically.

:class:`GradientFlow` turns a network, a loss and a dataset into the right-hand side

.. math::  \tau\,\dot W = -\nabla_W\mathcal L(W) - \lambda W

(zhang2025 eq. (2); the weight-decay term is App. C.4 with penalty
:math:`\tfrac\lambda2\|W\|^2`) on the flat ensemble state ``y`` of shape ``(B, n_params)``.
It follows the solver's field convention ``field(t, y, args)``: every per-member
quantity (data, :math:`\alpha`, :math:`\tau`, :math:`\lambda`) lives in ``args`` with a
leading axis of size ``B`` (one value per member) or ``1`` (shared).

Discrete gradient descent with learning rate :math:`\eta` is the exact map
:math:`W\leftarrow W + \eta\,F(W)` of this field with :math:`\tau = 1`
(:func:`numeric.engine.descent.gradient_descent`); paper time :math:`t = k` with
:math:`\tau = 1/\eta` is our :math:`t = \eta k` with :math:`\tau = 1`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from numeric.backend import Array, Backend, array_namespace, to_numpy
from numeric.engine.integrators.events import LIVE_KEY, PATTERN_KEY, SLIDE_KEY, Switching
from numeric.models.activation import Activation
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet


def _member_axis(backend: Backend, value: Any, extra_dims: int) -> Array:
    """``value`` (scalar or per-member sequence) as an array ``(B|1, 1, ..., 1)``."""
    a = backend.asarray(value)
    if a.ndim == 0:
        a = a.reshape(1)
    return a.reshape((a.shape[0],) + (1,) * extra_dims)


@dataclass(frozen=True)
class GradientFlow:
    """Gradient flow of ``loss`` for the network ``net`` (see module docstring)."""

    net: BiasFreeNet
    loss: Loss

    def args(
        self,
        backend: Backend,
        X: Array,
        y: Array,
        *,
        alpha: Any,
        tau: Any = 1.0,
        weight_decay: Any = 0.0,
    ) -> dict[str, Array]:
        """Solver ``args`` for data ``X`` (``(P, D)`` shared or ``(B, P, D)``) and targets ``y``.

        ``alpha``, ``tau`` and ``weight_decay`` are scalars or length-``B`` sequences.
        """
        X = backend.asarray(X)
        y = backend.asarray(y)
        if X.ndim == 2:
            X = X[None]
        if y.ndim == 1:
            y = y[None]
        if X.shape[-1] != self.net.widths[0]:
            raise ValueError(
                f"data dimension D={X.shape[-1]} does not match the network input width {self.net.widths[0]}"
            )
        xp = backend.xp
        tau = _member_axis(backend, tau, 1)
        args = {
            "X": xp.ascontiguousarray(X),
            "XT": xp.ascontiguousarray(xp.swapaxes(X, 1, 2)),
            "y": y,
            "alpha": _member_axis(backend, alpha, 2),
            "neg_inv_tau": -1.0 / tau,
        }
        if np.any(to_numpy(weight_decay) != 0):
            args["decay_rate"] = _member_axis(backend, weight_decay, 1) / tau
        return args

    def pack(self, Ws: Sequence[Array]) -> Array:
        """The flat state of the weights ``Ws`` (the network's layout)."""
        return self.net.pack(Ws)

    def unpack(self, y: Array, args: dict[str, Array] | None = None) -> tuple[Array, ...]:
        """The weights ``W_l`` ``(B, N_l, N_{l-1})`` of the flat state ``y`` (views)."""
        return self.net.unpack(y)

    def _problem(self, args: dict[str, Array]) -> tuple:
        """``(X, XT, y, alpha, loss, -1/tau)``: what the scaled gradient and the sliding weight read."""
        return args["X"], args["XT"], args["y"], args["alpha"], self.loss, args["neg_inv_tau"]

    def loss_and_grad(self, y: Array, args: dict[str, Array]) -> tuple[Array, list[Array]]:
        """Unregularised loss ``(B,)`` and its gradients, one array per layer."""
        Ws = self.net.unpack(y)
        return self.net.loss_and_grad(Ws, args["X"], args["XT"], args["y"], args["alpha"], self.loss)

    def __call__(self, t: Array, y: Array, args: dict[str, Array]) -> Array:
        """The field :math:`F(W) = -(\\nabla\\mathcal L + \\lambda W)/\\tau` on the flat state.

        :math:`-1/\\tau` scales :math:`\\partial\\mathcal L/\\partial f` inside the backward
        pass (:meth:`~numeric.models.networks.BiasFreeNet.scaled_grad`); the decay term
        :math:`(\\lambda/\\tau) W` is present in ``args`` (as ``decay_rate``) only when some
        :math:`\\lambda \\ne 0`.
        """
        out = self.net.scaled_grad(
            y, *self._problem(args), args.get(PATTERN_KEY), args.get(LIVE_KEY), args.get(SLIDE_KEY)
        )
        decay = args.get("decay_rate")
        if decay is not None:
            out -= decay * y
        return out

    @property
    def switching(self) -> Switching:
        """The flow's switching surfaces ``w_j . x_i = 0`` (two-layer nets), for
        ``solve(..., events=flow.switching)``: the field then uses the activation pattern the
        solver passes in ``args`` (:mod:`numeric.engine.integrators.events`), and integrates sliding
        entries in the Filippov sliding mode (:meth:`~numeric.models.networks.BiasFreeNet.sliding_slopes`;
        the weight-decay term, ``O(z)`` on the surface, is left out of the sliding condition)."""
        net = self.net
        if net.depth != 2:
            raise ValueError(f"switching surfaces are declared for two-layer nets, not depth {net.depth}")

        def values(y: Array, args: dict[str, Array]) -> Array:
            return net.switching_values(y, args["XT"])

        def slopes(g: Array, args: dict[str, Array]) -> Array:
            return Activation(args["alpha"][:, :, 0], net.kink).slope(g)

        def weight(t: Array, y: Array, args: dict[str, Array]) -> Array:
            return net.sliding_weight(
                y, *self._problem(args), args[PATTERN_KEY], args.get(LIVE_KEY), args[SLIDE_KEY]
            )

        return Switching(values=values, slopes=slopes, weight=weight)

    def loss_value(self, y: Array, args: dict[str, Array]) -> Array:
        """Unregularised training loss of every member, ``(B,)``."""
        Ws = self.net.unpack(y)
        f = self.net.output(Ws, args["XT"], args["alpha"])
        return self.loss.value(f, args["y"])

    def outputs(self, y: Array, args: dict[str, Array], XT: Array | None = None) -> Array:
        """Network outputs ``(B, P)`` on the training inputs (or on ``XT``)."""
        Ws = self.net.unpack(y)
        return self.net.output(Ws, args["XT"] if XT is None else XT, args["alpha"])

    def observer(self, *, weights: bool = False):
        """An ``observe(t, y, args)`` recording the loss (and optionally the weight norms)."""

        def observe(t: Array, y: Array, args: dict[str, Array]) -> dict[str, Array]:
            out = {"loss": self.loss_value(y, args)}
            if weights:
                xp = array_namespace(y)
                for l, W in enumerate(self.net.unpack(y), start=1):
                    out[f"norm_W{l}"] = xp.sqrt((W * W).sum(axis=(1, 2)))
            return out

        return observe
