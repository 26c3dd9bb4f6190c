r"""Balanced two-layer :math:`\alpha`-leaky ReLU flow and the reduced directional field (min2024 App. B).

With :math:`\sigma(z)=\max\{z,\alpha z\}`, :math:`\alpha\in[0,1]`, and the subgradient
:math:`\sigma'(z)=1` for :math:`z>0`, :math:`\sigma'(z)=\alpha` for :math:`z\le0` (the convention
of the leaky :math:`x_a` in Lemmas 1 and 4, which puts ties with the inactive data), the identity
:math:`\sigma(z)=\sigma'(z)z` still holds, so gradient flow keeps :math:`v_j^2-\|w_j\|^2` and
:math:`\mathrm{sign}\,v_j` and the log-polar form of :mod:`numeric.models.balanced_relu` stays exact:

.. math::
    \dot u_j=s_jP_{u_j}g_j,\quad \dot\rho_j=s_j\langle u_j,g_j\rangle,\quad
    g_j=\sum_i\sigma'(\langle x_i,u_j\rangle)\,r_i\,x_i,\quad
    f_i=\sum_js_je^{2\rho_j}\sigma(\langle u_j,x_i\rangle).

``alpha = 0`` is :class:`numeric.models.balanced_relu.LogPolarFlow` (ReLU with :math:`\sigma'(0)=0`).

* :func:`leaky_activated_sum` -- :math:`x_a(w)=\sum_{\langle x_i,w\rangle>0}y_ix_i
  +\alpha\sum_{\langle x_i,w\rangle\le0}y_ix_i` (Lemma 1, Lemma 4);
* :func:`reduced_direction_error` -- :math:`\|\dot{\hat w}_j-s_jP_{w_j}x_a(w_j)\|`, the left-hand
  side of Lemma 1 (9) and Lemma 4 (11).
"""

from __future__ import annotations

from dataclasses import dataclass

from numeric.backend import Array, array_namespace
from numeric.models.activation import Activation
from numeric.models.balanced_relu import LogPolarFlow, preactivations, split, unit


def leaky(alpha: float) -> Activation:
    r"""The activation with :math:`\sigma'(z)=1` for :math:`z>0`, :math:`\alpha` for :math:`z\le0`."""
    return Activation(alpha, kink=alpha)


def leaky_activated_sum(W: Array, X: Array, y: Array, alpha: float) -> Array:
    r""":math:`x_a(w_j)` of Lemma 1/4 for every row of ``W`` ``(..., h, D)``: shape ``(..., h, D)``."""
    xp = array_namespace(W, X)
    return xp.matmul(leaky(alpha).backprop(preactivations(W, X), y[..., None, :]), X)


def reduced_direction_error(u: Array, du: Array, s: Array, xa: Array) -> Array:
    r""":math:`\|\dot u_j-s_jP_{u_j}x_a\|` for unit ``u``, rates ``du`` and targets ``xa`` ``(B, h, D)``.

    ``s`` ``(B, h)`` is the per-neuron factor: the sign :math:`s_j` on the balanced manifold,
    :math:`v_j/\|w_j\|` for an unbalanced state (:math:`\dot{\hat w}_j=\frac{v_j}{\|w_j\|}P_{w_j}g_j`).
    """
    xp = array_namespace(u, du)
    target = s[..., None] * (xa - (u * xa).sum(-1, keepdims=True) * u)
    return xp.sqrt(((du - target) ** 2).sum(-1))


@dataclass(frozen=True)
class LeakyLogPolarFlow(LogPolarFlow):
    r"""The balanced log-polar flow with the :math:`\alpha`-leaky ReLU (module docstring)."""

    alpha: float = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError(f"alpha must lie in [0, 1], got alpha={self.alpha}")

    @property
    def activation(self) -> Activation:
        r""":math:`\sigma'(z)=1` for :math:`z>0`, :math:`\alpha` for :math:`z\le0` (:func:`leaky`)."""
        return leaky(self.alpha)

    def direction_error(self, state: Array, args: dict[str, Array]) -> Array:
        r"""Lemma 1/4 left-hand side ``(B, h)`` at ``state``, from this exact field."""
        h = args["s"].shape[-1]
        du, _ = split(self(0.0, state, args), h)
        u = unit(split(state, h)[0])
        return reduced_direction_error(
            u, du, args["s"], leaky_activated_sum(u, args["X"], args["y"], self.alpha)
        )
