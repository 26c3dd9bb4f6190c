r"""Two-layer (leaky) ReLU net with a fixed :math:`\pm1/m` readout, trained in its first layer only.

The network of kou2023 eq. (3.1): :math:`2m` neurons, rows ``0..m-1`` of ``W`` are the
class :math:`j=+1` neurons, rows ``m..2m-1`` the class :math:`j=-1` neurons, and

.. math::  f(W,x)=\frac1m\sum_{r}\sigma(\langle w_{+1,r},x\rangle)
           -\frac1m\sum_r\sigma(\langle w_{-1,r},x\rangle),
           \qquad \sigma(z)=\max(\gamma z,z),\ \gamma\in[0,1]

(:math:`\gamma=0`: ReLU).  Conventions of the paper, explicit here:

* :math:`\sigma'(0)=1` (Sec. 3), so :math:`\sigma'(z)=1` for :math:`z\ge0` and
  :math:`\gamma` for :math:`z<0`; then :math:`\sigma(z)=\sigma'(z)\,z` for every :math:`z`;
* :math:`\mathrm{sign}(0)=-1` (Sec. 3, notation);
* loss :math:`L_S=\frac1n\sum_i\ell(y_if(W,x_i))`, :math:`\ell(z)=\log(1+e^{-z})`,
  :math:`|\ell'(z)|=1/(1+e^{z})` (:data:`OBJECTIVE`; of margins :math:`q_i=y_if(W,x_i)` it is
  ``OBJECTIVE.value(q, 1.0)``);
* gradient descent (3.2):
  :math:`w_{j,r}\leftarrow w_{j,r}+\frac{\eta}{nm}\sum_i|\ell_i'|\,\sigma'(\langle w_{j,r},x_i\rangle)\,
  jy_ix_i`.

Everything is batched over a leading ensemble axis ``B`` and written with
:func:`numeric.backend.array_namespace`, so it runs on NumPy and CuPy.
:class:`FixedReadoutNet` follows the solver's field convention ``field(t, y, args)`` on the
flat state ``(B, 2md)``, so :func:`numeric.engine.descent.gradient_descent` runs the exact GD map.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from numeric.backend import Array, Backend, array_namespace, matmul_add
from numeric.models.activation import Activation
from numeric.models.losses import LOGISTIC, sigmoid
from numeric.models.protocol import pack_blocks, unpack_blocks

OBJECTIVE = LOGISTIC
r"""The training loss :math:`L_S`: the logistic loss averaged over the ``n`` samples (``"mean"``)."""


def activation(gamma: Array | float) -> Activation:
    r""":math:`\sigma(z)=\max(\gamma z,z)`, :math:`\gamma\in[0,1]`, with the paper's :math:`\sigma'(0)=1`:
    :math:`\sigma'(z)=1` for :math:`z\ge0`, :math:`\gamma` for :math:`z<0`."""
    return Activation(gamma, kink=1.0)


def paper_sign(z: Array) -> Array:
    r"""The paper's sign: :math:`+1` for :math:`z>0` and :math:`-1` otherwise (so sign(0) = -1)."""
    xp = array_namespace(z)
    return xp.where(z > 0, 1.0, -1.0)


def class_of_rows(m: int) -> np.ndarray:
    r"""The class :math:`j` of every row: ``+1`` for rows ``0..m-1``, ``-1`` for rows ``m..2m-1``."""
    return np.concatenate([np.ones(m), -np.ones(m)])


def readout(m: int) -> np.ndarray:
    r"""The fixed second layer :math:`a_{j,r}=j/m`, shape ``(2m,)``."""
    return class_of_rows(m) / m


def fast_loss_derivative_magnitude(q: Array) -> Array:
    r""":math:`1/(1+e^q)` in three operations, for hot loops; ``exp`` overflows to ``inf`` (giving the exact
    0) for :math:`q>709`, so call it under ``numpy.errstate(over="ignore")``."""
    return 1.0 / (1.0 + array_namespace(q).exp(q))


def margins(Z: Array, y: Array, gamma: Array | float, m: int) -> Array:
    r"""Margins :math:`q_i=y_if(W,x_i)` from the pre-activations ``Z`` ``(B, 2m, n)``; returns ``(B, n)``."""
    xp = array_namespace(Z)
    a = xp.asarray(readout(m), dtype=Z.dtype)
    return y * xp.einsum("r,bri->bi", a, activation(gamma).value(Z))


@dataclass(frozen=True)
class FixedReadoutNet:
    r"""Shapes of the kou2023 network: :math:`2m` neurons on inputs of dimension ``d``.

    The flat state of one member is ``W.reshape(2m*d)`` with ``W`` of shape ``(2m, d)``.
    ``args`` (from :meth:`args`) hold the data ``X`` ``(B|1, n, d)``, labels ``y``
    ``(B|1, n)`` and the leaky slope ``gamma`` ``(B|1, 1, 1)``.
    """

    m: int
    d: int

    @property
    def n_params(self) -> int:
        return 2 * self.m * self.d

    def unpack(self, y: Array, args: dict[str, Array] | None = None) -> tuple[Array, ...]:
        """Flat states ``(B, 2md)`` as the one block, weights ``(B, 2m, d)`` (a view)."""
        return unpack_blocks(y, ((2 * self.m, self.d),))

    def pack(self, blocks: Sequence[Array]) -> Array:
        """The weights ``(W,)``, ``W`` ``(B, 2m, d)``, as flat states ``(B, 2md)``."""
        return pack_blocks(blocks)

    def args(self, backend: Backend, X: Any, y: Any, *, gamma: Any) -> dict[str, Array]:
        """Solver ``args``: ``X`` ``(n, d)`` or ``(B, n, d)``, ``y`` ``(n,)`` or ``(B, n)``, ``gamma`` scalar
        or ``(B,)``."""
        X, y = backend.asarray(X), backend.asarray(y)
        X = X[None] if X.ndim == 2 else X
        y = y[None] if y.ndim == 1 else y
        if X.shape[-1] != self.d:
            raise ValueError(f"data dimension {X.shape[-1]} does not match d={self.d}")
        g = backend.asarray(gamma)
        g = g.reshape(-1, 1, 1) if g.ndim else g.reshape(1, 1, 1)
        xp = backend.xp
        return {"X": X, "XT": xp.ascontiguousarray(xp.swapaxes(X, 1, 2)), "y": y, "gamma": g}

    def preactivations(self, y: Array, args: dict[str, Array]) -> Array:
        r""":math:`Z_{j,r,i}=\langle w_{j,r},x_i\rangle`, shape ``(B, 2m, n)``."""
        return self.unpack(y)[0] @ args["XT"]

    def margins(self, y: Array, args: dict[str, Array]) -> Array:
        r""":math:`q_i=y_if(W,x_i)`, shape ``(B, n)``."""
        return margins(self.preactivations(y, args), args["y"], args["gamma"], self.m)

    def loss_value(self, y: Array, args: dict[str, Array]) -> Array:
        """Training loss :math:`L_S` of every member, ``(B,)``."""
        return OBJECTIVE.value(self.margins(y, args), 1.0)

    def coefficients(self, y: Array, args: dict[str, Array], scale: Array | float) -> Array:
        r"""``scale`` times :math:`S_{j,r,i}=\frac1{nm}|\ell_i'|\,\sigma'(Z_{j,r,i})\,jy_i`,
        shape ``(B, 2m, n)``, so that :math:`-\nabla_W L_S=S\,X` (3.2); ``scale``: a scalar or
        ``(B, 1, 1)``."""
        xp = array_namespace(y)
        Z = self.preactivations(y, args)
        n = Z.shape[-1]
        q = margins(Z, args["y"], args["gamma"], self.m)
        j = xp.asarray(class_of_rows(self.m), dtype=Z.dtype)[None, :, None]
        # every scalar goes on the small (B, 2m, n) factor, not on the (B, 2m, d) product: one pass less
        c = sigmoid(-q) * args["y"] / (n * self.m)
        return j * activation(args["gamma"]).slope(Z) * c[:, None, :] * scale

    def __call__(self, t: Array, y: Array, args: dict[str, Array]) -> Array:
        r"""The field :math:`-\nabla L_S` on flat states (GD with step :math:`\eta` is ``y + eta * field``).

        :math:`-\nabla_{w_{j,r}}L_S=\frac1{nm}\sum_i|\ell_i'|\,\sigma'(Z_{j,r,i})\,jy_ix_i` (3.2).
        """
        # the flat layout of the one block (pack) as a view: the product is a fresh array, and
        # pack_blocks' concatenate would copy all B*2md entries again (2.8x the field's time)
        return (self.coefficients(y, args, 1.0) @ args["X"]).reshape(y.shape)

    def descend(self, t: Array, y: Array, lr: float | Array, args: dict[str, Array]) -> None:
        r"""One GD step (3.2) in place, ``y += lr * self(t, y, args)``, fused.

        :math:`W\leftarrow W+(\eta S)X`: with data shared by the members (``X`` of shape
        ``(1, n, d)``) the ``B`` stacked products are one ``(B\,2m, n) \times (n, d)`` GEMM that
        accumulates into ``W`` (:func:`numeric.backend.matmul_add`), so the ``(B, 2m, d)``
        gradient is never stored: per step the weights are read twice and written once. ``lr``:
        a scalar or ``(B, 1)``; ``y``: C-contiguous ``(B, 2md)``, updated in place.
        """
        xp = array_namespace(y)
        scale = lr if isinstance(lr, float) else xp.reshape(lr, (-1, 1, 1))
        S = self.coefficients(y, args, scale)
        X = args["X"]
        if X.shape[0] == 1:
            matmul_add(S.reshape(-1, S.shape[-1]), X[0], y.reshape(-1, self.d))
        else:
            y += (S @ X).reshape(y.shape)

    def observer(self):
        """``observe(t, y, args)`` recording the loss and the margins."""

        def observe(t: Array, y: Array, args: dict[str, Array]) -> dict[str, Array]:
            q = self.margins(y, args)
            return {"loss": OBJECTIVE.value(q, 1.0), "margins": q}

        return observe
