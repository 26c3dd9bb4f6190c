r"""The one interface every model implements: parameters, data, loss and the flow they train by.

A model is the gradient flow of a training loss written on a flat ensemble state ``y`` of
shape ``(B, N)`` (one row per member), in the solver's field convention:

.. math::  \dot y = F(t, y; \text{args}),\qquad F = -c\,\nabla_y\mathcal L\ \text{(raw coordinates)},

with :math:`c > 0` the model's time scale (:math:`1/\tau`, the mean-field :math:`p`, ...); a model in
other coordinates (log-polar, Gram) is the same flow pushed forward, so along it
:math:`d\mathcal L/dt = -c\,\|\nabla_W\mathcal L\|^2 \le 0` still holds.  The pieces:

* ``pack(blocks)`` / ``unpack(y, args=None)``: the parameter blocks (each ``(B, ...)``) and the
  flat state, inverse to each other (``pack(unpack(y, args)) == y``); ``args`` supplies sizes a
  model does not fix itself (the width of the balanced flows is the length of their signs);
* ``args(backend, X, y, **hyper)``: the solver's ``args`` dict, on ``backend``, from the inputs
  ``X`` (``(P, D)`` shared or ``(B, P, D)``, or the representation the model works in), the
  targets ``y`` and keyword hyper-parameters; every per-member entry has a leading axis of size
  ``B`` or 1;
* ``loss_value(y, args)``: :math:`\mathcal L` per member, ``(B,)``;
* ``__call__(t, y, args)``: the field :math:`F`, ``(B, N)`` -- the model *is* the field
  :func:`numeric.engine.solve.solve` and :func:`numeric.engine.descent.gradient_descent` take;
* ``observer()``: ``observe(t, y, args) -> {name: (B, ...)}`` for the engines' ``observe=``;
  here the loss, and a model may record more.

Optional: ``descend(t, y, lr, args)``, the gradient-descent step ``y += lr * F(t, y, args)`` done
in place and fused (the engine uses it where a model has it).

:func:`pack_blocks` and :func:`unpack_blocks` are the one implementation of the flat layout:
the blocks' member rows, raveled and laid end to end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod
from typing import Any, Protocol, runtime_checkable

from numeric.backend import Array, Backend, array_namespace

Args = dict[str, Array]
Observer = Callable[[Array, Array, Args], dict[str, Array]]


@runtime_checkable
class Model(Protocol):
    """A model: parameters, data, loss and gradient-flow field (module docstring)."""

    def pack(self, blocks: Sequence[Array]) -> Array:
        """The flat state ``(B, N)`` holding the parameter ``blocks``."""
        ...

    def unpack(self, y: Array, args: Args | None = None) -> tuple[Array, ...]:
        """The parameter blocks of the flat state ``y`` (views where the layout allows)."""
        ...

    def args(self, backend: Backend, X: Any, y: Any, **hyper: Any) -> Args:
        """The solver's ``args`` for inputs ``X``, targets ``y`` and the hyper-parameters."""
        ...

    def loss_value(self, y: Array, args: Args) -> Array:
        """The training loss of every member, ``(B,)``."""
        ...

    def __call__(self, t: Any, y: Array, args: Args) -> Array:
        """The gradient-flow field at the flat state ``y``, ``(B, N)``."""
        ...

    def observer(self) -> Observer:
        """``observe(t, y, args)`` recording at least the loss."""
        ...


def loss_observer(model: Model) -> Observer:
    """``observe(t, y, args) -> {"loss": model.loss_value(y, args)}``: the observer of a model that
    records nothing else."""

    def observe(t: Any, y: Array, args: Args) -> dict[str, Array]:
        return {"loss": model.loss_value(y, args)}

    return observe


def pack_blocks(blocks: Sequence[Array]) -> Array:
    """The flat state ``(B, N)``: each block ``(B, ...)`` raveled per member, laid end to end."""
    xp = array_namespace(*blocks)
    return xp.concatenate([b.reshape(b.shape[0], -1) for b in blocks], axis=1)


def unpack_blocks(y: Array, shapes: Sequence[tuple[int, ...]]) -> tuple[Array, ...]:
    """Blocks of per-member ``shapes`` from the flat state ``y`` ``(B, N)``; views of ``y``.

    The inverse of :func:`pack_blocks`; the shapes must account for every column of ``y``.
    """
    B, out, start = y.shape[0], [], 0
    for shape in shapes:
        stop = start + prod(shape)
        out.append(y[:, start:stop].reshape(B, *shape))
        start = stop
    if start != y.shape[1]:
        raise ValueError(f"block shapes {list(shapes)} hold {start} parameters, the state has {y.shape[1]}")
    return tuple(out)
