r"""Two-layer ReLU gradient flow on the balanced manifold, in log-polar coordinates.

The network is :math:`f(x)=\sum_{j=1}^h v_j\,\sigma(w_j^\top x)`, :math:`\sigma(z)=\max(z,0)`
with the fixed subgradient :math:`\sigma'(0)=0` (min2024 eq. (1)), trained on the *sum*
loss :math:`\mathcal L=\sum_i\ell(y_i,f(x_i))` (min2024 eq. (2)).  Gradient flow keeps
:math:`v_j^2-\|w_j\|^2` and :math:`\mathrm{sign}(v_j)` constant, so from a balanced start
(eq. (3)) the state is exactly

.. math::  w_j=e^{\rho_j}u_j,\qquad v_j=s_je^{\rho_j},\qquad \|u_j\|=1,\ s_j\in\{\pm1\},

and the flow becomes (catalog C1, C2; exact, no approximation)

.. math::
    \dot u_j=s_jP_{u_j}g_j,\qquad \dot\rho_j=s_j\langle u_j,g_j\rangle,\qquad
    g_j=\sum_i\mathbb 1_{\langle x_i,u_j\rangle>0}\,r_i\,x_i,\qquad r_i=-\partial_{\hat y}\ell(y_i,f_i),

with :math:`f_i=\sum_js_je^{2\rho_j}\sigma(\langle u_j,x_i\rangle)`.  Because only
:math:`\rho` carries the scale, :math:`\rho(0)=\log\epsilon` may be :math:`-10^4`: then
:math:`e^{2\rho}` underflows to 0, :math:`r_i=y_i` exactly (for the exponential and the
factor-2 logistic loss) and the flow *is* the reduced dynamics (eq. (4)).

State layout (solver convention ``field(t, y, args)``): ``y`` is ``(B, h*D + h)``,
``[U.ravel(), rho]`` per member; ``args`` (:meth:`LogPolarFlow.args`, the same for every flow
here) holds ``X`` ``(B|1, n, D)``, ``y`` ``(B|1, n)`` and the signs ``s`` ``(B|1, h)``.
:class:`PlainFlow` is the same flow on the raw state ``[W.ravel(), v]`` (no balancedness
assumed), for cross-checks.

Losses (``kind``, :class:`numeric.models.losses.Loss` with the sum reduction; the flow uses
:math:`r=-\partial_{\hat y}\ell`, ``-loss.dvalue(f, y)``):

* ``"exponential"``: :math:`e^{-y\hat y}`, :math:`r=ye^{-y\hat y}`;
* ``"logistic2"``: :math:`2\log(1+e^{-y\hat y})` (min2024 App. B; Lemma 2 needs the 2);
* ``"logistic"``: :math:`\log(1+e^{-y\hat y})` (main text; :math:`r(y,0)=y/2`);
* ``"square"``: :math:`\tfrac12(y-\hat y)^2` (Remark 4), :math:`r=y-\hat y`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from numeric.backend import Array, Backend, array_namespace
from numeric.engine.integrators.events import LIVE_KEY, PATTERN_KEY, SLIDE_KEY, Switching
from numeric.models.activation import RELU, Activation
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.protocol import Observer, loss_observer, pack_blocks, unpack_blocks


def split(state: Array, h: int) -> tuple[Array, ...]:
    """``(U or W, last)``: the ``(B, h, D)`` block and the ``(B, h)`` tail of a flat state."""
    return unpack_blocks(state, ((h, (state.shape[1] - h) // h), (h,)))


def join(U: Array, tail: Array) -> Array:
    """The flat state ``(B, h*D + h)`` from ``(B, h, D)`` and ``(B, h)``."""
    return pack_blocks((U, tail))


def unit(U: Array) -> Array:
    """Rows of ``U`` normalised to unit length (the solver may drift off the sphere)."""
    xp = array_namespace(U)
    return U / xp.sqrt((U * U).sum(axis=-1, keepdims=True))


def logpolar_state(W: Array, s: Array | None = None) -> Array:
    r"""Log-polar state :math:`[u,\log\|w\|]` of a balanced net with first layer ``W`` ``(B, h, D)``."""
    xp = array_namespace(W)
    norm = xp.sqrt((W * W).sum(axis=-1))
    return join(W / norm[..., None], xp.log(norm))


def logpolar_to_plain(state: Array, s: Array) -> tuple[Array, Array]:
    r"""``(W, v)`` with :math:`w_j=e^{\rho_j}u_j`, :math:`v_j=s_je^{\rho_j}` (may underflow)."""
    xp = array_namespace(state)
    U, rho = split(state, s.shape[-1])
    scale = xp.exp(rho)
    return unit(U) * scale[..., None], s * scale


def preactivations(U: Array, X: Array) -> Array:
    r""":math:`\langle u_j,x_i\rangle`, shape ``(B, h, n)``."""
    xp = array_namespace(U, X)
    return xp.matmul(U, xp.swapaxes(X, -1, -2))


@dataclass(frozen=True)
class _SumLossFlow:
    """A flow of the network trained on the sum loss of ``kind`` (min2024 eq. (2)); subclasses
    give ``outputs(state, args)`` ``(B, n)`` and the field (the :class:`~numeric.models.protocol.Model`
    protocol)."""

    kind: str = "exponential"

    def __post_init__(self) -> None:
        _ = self.objective  # an unknown kind is refused here, not at the first field call

    @cached_property
    def objective(self) -> Loss:
        """The training loss: ``kind`` summed over the samples."""
        return Loss(self.kind, "sum")

    @property
    def activation(self) -> Activation:
        r"""The ReLU with :math:`\sigma'(0)=0` (min2024 eq. (1))."""
        return RELU

    @classmethod
    def args(cls, backend: Backend, X: Any, y: Any, *, s: Any) -> dict[str, Array]:
        """Solver ``args``: data ``X`` ``(n, D)`` or ``(B, n, D)``, labels, signs ``s`` ``(h,)`` or
        ``(B, h)`` (the flow's width is the length of ``s``); the same for every loss, so also
        callable on the class (``PlainFlow.args(backend, X, y, s=s)``)."""
        X, y, s = backend.asarray(X), backend.asarray(y), backend.asarray(s)
        return {
            "X": X[None] if X.ndim == 2 else X,
            "y": y[None] if y.ndim == 1 else y,
            "s": s[None] if s.ndim == 1 else s,
        }

    def pack(self, blocks: Sequence[Array]) -> Array:
        """The flat state from the ``(B, h, D)`` block and the ``(B, h)`` tail."""
        return join(*blocks)

    def unpack(self, state: Array, args: dict[str, Array] | None = None) -> tuple[Array, ...]:
        """The ``(B, h, D)`` block and the ``(B, h)`` tail; ``h`` is the length of ``args["s"]``."""
        if args is None:
            raise ValueError("a balanced flow's width is that of its signs: unpack(state, args) needs args")
        return split(state, args["s"].shape[-1])

    def outputs(self, state: Array, args: dict[str, Array]) -> Array:
        raise NotImplementedError

    def loss_value(self, state: Array, args: dict[str, Array]) -> Array:
        """Training loss ``(B,)``."""
        return self.objective.value(self.outputs(state, args), args["y"])

    def observer(self) -> Observer:
        """``observe(t, y, args)`` recording the loss."""
        return loss_observer(self)


@dataclass(frozen=True)
class LogPolarFlow(_SumLossFlow):
    """Balanced two-layer ReLU gradient flow in log-polar coordinates (module docstring)."""

    def _parts(self, state: Array, args: dict[str, Array]) -> tuple[Array, Array, Array, Array | None]:
        r"""Unit directions ``u`` (B, h, D), pre-activations ``Z`` (B, h, n), outputs ``f`` (B, n)
        and the frozen pattern's slopes (B, h, n) when ``args`` carry one (a solve with
        ``events=flow.switching``), else ``None``."""
        xp = array_namespace(state)
        U, rho = split(state, args["s"].shape[-1])
        u = unit(U)
        Z = preactivations(u, args["X"])
        pattern = args.get(PATTERN_KEY)
        slope = None if pattern is None else self.activation.frozen_slope(Z, pattern, args.get(LIVE_KEY))
        act = self.activation.value(Z) if slope is None else slope * Z
        f = xp.matmul((args["s"] * xp.exp(2.0 * rho))[:, None, :], act)[:, 0, :]
        return u, Z, f, slope

    def outputs(self, state: Array, args: dict[str, Array]) -> Array:
        r""":math:`f_i=\sum_js_je^{2\rho_j}\sigma(\langle u_j,x_i\rangle)`, shape ``(B, n)``."""
        return self._parts(state, args)[2]

    def drive(self, state: Array, args: dict[str, Array]) -> tuple[Array, Array]:
        r"""Directions ``u`` and :math:`g_j=\sum_i\mathbb 1_{\langle x_i,u_j\rangle>0}r_ix_i` (B, h, D)
        (under a frozen pattern: its slopes, the sliding entries' from :meth:`_sliding`)."""
        xp = array_namespace(state)
        u, Z, f, slope = self._parts(state, args)
        r = -self.objective.dvalue(f, args["y"])
        if slope is None:
            back = self.activation.backprop(Z, r[:, None, :])
        else:
            if SLIDE_KEY in args:
                slope = self._sliding(slope, r, args)[0]
            back = slope * r[:, None, :]
        return u, xp.matmul(back, args["X"])

    def _sliding(self, slope: Array, r: Array, args: dict[str, Array]) -> tuple[Array, Array]:
        r"""The Filippov slopes of the entries sliding in ``args[SLIDE_KEY]`` (:attr:`switching`):
        ``(slopes, unclipped)`` of :meth:`numeric.models.networks.BiasFreeNet.sliding_slopes` with
        :math:`b_{jk}=r_k` and the Gram matrix :math:`XX^\top`."""
        xp = array_namespace(slope)
        X = args["X"]
        back = xp.broadcast_to(r[:, None, :], slope.shape)
        gram = xp.matmul(X, xp.swapaxes(X, -1, -2))
        return BiasFreeNet.sliding_slopes(slope, back, args[SLIDE_KEY], gram, self.activation.alpha)

    def __call__(self, t: Array, state: Array, args: dict[str, Array]) -> Array:
        """The field: :math:`(\\dot u,\\dot\\rho)` on the flat state."""
        u, g = self.drive(state, args)
        ug = (u * g).sum(axis=-1)
        s = args["s"]
        return join(s[..., None] * (g - ug[..., None] * u), s * ug)

    @property
    def switching(self) -> Switching:
        r"""The flow's switching surfaces :math:`\langle u_j,x_i\rangle=0` (entry ``e = j n + i``; the
        values :math:`g_e=\langle U_j,x_i\rangle` of the unnormalised block, linear in the state, with
        the same signs), for ``solve(..., events=flow.switching)``: the field then uses the
        activation pattern the solver passes in ``args`` (:mod:`numeric.engine.integrators.events`),
        and integrates the entries marked sliding in the Filippov sliding mode.

        **Normal velocities.** Along the field
        :math:`g_e'=\langle\dot U_j,x_i\rangle=s_j\langle P_{u_j}g_j,x_i\rangle
        =s_j\langle g_j,x_i\rangle-\dot\rho_j z_{ji}`, :math:`z_{ji}=\langle u_j,x_i\rangle`
        (:math:`|U_j|=1`). On the surface (:math:`z_{ji}=0`) the second term vanishes and
        :math:`g_e'=s_j\sum_k\sigma'_{jk}r_k\langle x_k,x_i\rangle` is affine in each slope
        :math:`\sigma'_{jk}` (:math:`r` does not see :math:`\sigma'_{ji}`: its term in :math:`f_i` is
        :math:`\sigma'_{ji}z_{ji}=0`). The surface velocities decide sliding, not those at the
        state, which sits off the surface by the event's residual :math:`z` (~1e-13): on the dead
        side of a neuron whose active data are orthogonal to :math:`x_i`, :math:`g_e'=-\dot\rho_jz_{ji}`
        points into the surface whenever the neuron grows, yet vanishes on it (the surface is
        invariant for that piece: a tangency, not sliding).

        **Sliding weight.** For one sliding entry, the combination :math:`pf_++(1-p)f_-` of the two
        sides' pieces (slopes 1 and :math:`\alpha`) is the field with slope
        :math:`\sigma^*=\alpha+p(1-\alpha)` (the field is affine in it on the surface), so its normal
        velocity :math:`pg'_++(1-p)g'_-` is affine in :math:`p` and vanishes at
        :math:`p=g'_-/(g'_--g'_+)`: in (0, 1) exactly when the two sides' surface velocities have
        opposite signs (the solver starts sliding only where they point strictly into the surface,
        :math:`p\in(0,1)`: the tangency above has :math:`p=0`; on data orthogonal only to rounding
        its :math:`g'_-` is rounding noise, and such a death may still be recorded as sliding, with
        :math:`|p|` at rounding level and the dead piece as its sliding mode -- setting such a
        :math:`p` to 0 instead made the entry cross the surface back and forth: 124 events where 4
        were located, on tests/numeric/test_logpolar_sliding.py's orthogonal data rotated).
        Several sliding entries :math:`S_j` of neuron ``j`` solve :math:`\sum_{k\in S_j}G_{ik}\sigma^*_kr_k=
        -\sum_{k\notin S_j}G_{ik}\sigma'_kr_k`, :math:`i\in S_j`, :math:`G=XX^\top` (the sign
        :math:`s_j` cancels): :meth:`numeric.models.networks.BiasFreeNet.sliding_slopes` with
        :math:`b_{jk}=r_k`, whose clipped slopes the field uses. ``weight`` is the unclipped
        :math:`p=(\sigma^*-\alpha)/(1-\alpha)` (``alpha = 1`` has no surfaces to slide on: both
        pieces are equal and the solver monitors none).

        The sliding mode zeroes the surface part of :math:`g_e'`, which is
        :math:`e^{-\rho_j}\frac{d}{dt}\langle w_j,x_i\rangle`: it holds the plain pre-activation
        :math:`\langle w_j,x_i\rangle=e^{\rho_j}z_{ji}` at the event's residual, as the
        :class:`~numeric.models.vector_fields.GradientFlow`'s sliding mode does, so :math:`z_{ji}` changes
        by the factor :math:`e^{\rho_j(t_0)-\rho_j(t)}` while it slides."""
        activation = self.activation
        flow = self

        def values(state: Array, args: dict[str, Array]) -> Array:
            Z = preactivations(split(state, args["s"].shape[-1])[0], args["X"])
            return Z.reshape(Z.shape[0], -1)

        def slopes(g: Array, args: dict[str, Array]) -> Array:
            return activation.slope(g)

        def weight(t: Array, state: Array, args: dict[str, Array]) -> Array:
            _, _, f, slope = flow._parts(state, args)
            star = flow._sliding(slope, -flow.objective.dvalue(f, args["y"]), args)[1]
            return (star - activation.alpha) / (1.0 - activation.alpha)

        return Switching(values=values, slopes=slopes, weight=weight)


@dataclass(frozen=True)
class PlainFlow(_SumLossFlow):
    r"""The same gradient flow on the raw state ``[W.ravel(), v]`` (balancedness not assumed).

    :math:`\dot w_j=v_j\sum_i\mathbb 1_{\langle x_i,w_j\rangle>0}r_ix_i`,
    :math:`\dot v_j=\sum_ir_i\sigma(\langle w_j,x_i\rangle)` (catalog §2.1).  ``args`` as
    for :class:`LogPolarFlow` (the signs are unused).
    """

    def outputs(self, state: Array, args: dict[str, Array]) -> Array:
        W, v = split(state, args["s"].shape[-1])
        return (v[..., None] * self.activation.value(preactivations(W, args["X"]))).sum(axis=1)

    def __call__(self, t: Array, state: Array, args: dict[str, Array]) -> Array:
        xp = array_namespace(state)
        W, v = split(state, args["s"].shape[-1])
        Z = preactivations(W, args["X"])
        r = -self.objective.dvalue((v[..., None] * self.activation.value(Z)).sum(axis=1), args["y"])
        dW = v[..., None] * xp.matmul(self.activation.backprop(Z, r[:, None, :]), args["X"])
        dv = (self.activation.value(Z) * r[:, None, :]).sum(axis=-1)
        return join(dW, dv)


def direction_rate(W: Array, dW: Array) -> Array:
    r""":math:`\frac{d}{dt}\frac{w_j}{\|w_j\|}=P_{w_j}\dot w_j/\|w_j\|`, shape ``(B, h, D)``."""
    xp = array_namespace(W, dW)
    norm = xp.sqrt((W * W).sum(axis=-1, keepdims=True))
    u = W / norm
    return (dW - (u * dW).sum(axis=-1, keepdims=True) * u) / norm
