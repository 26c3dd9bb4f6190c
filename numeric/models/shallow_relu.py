r"""One-hidden-layer ReLU networks with mean-field output scaling and both layers trained.

The network and its flow (dana2025 eqs. (1)-(3), (13)-(14)):

.. math::

    h_\theta(x)=\frac1p\sum_{j=1}^p a_j\,\sigma(\langle w_j|x\rangle),\qquad
    L=\frac1{2n}\sum_i r_i^2,\quad r_i=y_i-h_\theta(x_i),\qquad
    \dot\theta=-p\,\nabla_\theta L,

so that :math:`\dot w_j=\frac{a_j}n\sum_i r_i 1_{j,i}x_i` and
:math:`\dot a_j=\frac1n\sum_i r_i\langle w_j|x_i\rangle_+`, with the subgradient
:math:`\sigma'(0)=` ``kink`` (0 in the paper: :math:`1_{j,i}=\mathbb 1[\langle w_j|x_i\rangle>0]`).

Three exact representations of the same flow (``mode``), all batched over a leading
ensemble axis ``B`` and following the solver convention ``field(t, y, args)``:

* ``"full"``: neuron coordinates :math:`w_j\in\mathbb R^d`; data ``X`` (n, d) in ``args``.
* ``"gram"``: neuron coordinates :math:`v_j=X w_j\in\mathbb R^n` (pre-activations).
  Since :math:`\dot w_j\in\mathrm{span}(x_i)`, :math:`\dot v_j=\frac{a_j}n G(1_j\odot R)`
  with :math:`G=XX^\top`; the component of :math:`w_j` orthogonal to the data is frozen
  and only enters :math:`\|w_j\|^2=v_j^\top G^{-1}v_j+\|w_j^\perp\|^2`.  The flow depends
  on the data only through :math:`G`, so :math:`d` (even :math:`10^6`) costs nothing.
* ``"orthogonal"``: :math:`G=\mathrm{diag}(c_i^2)`, the decoupled system
  :math:`\dot v_{ji}=\frac{c_i^2}n a_j r_i 1_{j,i}` (catalog (C1), paper eq. (48)).

The flat state is ``(B, p*m + p)``: the neuron block ``U`` ``(B, p, m)`` (``m = d`` or
``n``) followed by ``a`` ``(B, p)``.  The local-PL curvature (eq. (5)) is evaluated
exactly from the state (catalog (C2)):

.. math::

    \mu=p\frac{\|\nabla L\|^2}{L}=\frac{2}{np\|R\|^2}\sum_j\Big[\Big(\sum_i r_i
    \langle w_j|x_i\rangle_+\Big)^2+a_j^2\,\|X^\top(1_j\odot R)\|^2\Big].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from numeric.backend import Array, Backend, array_namespace
from numeric.engine.integrators.events import LIVE_KEY, PATTERN_KEY, Switching
from numeric.models.activation import Activation
from numeric.models.losses import Loss
from numeric.models.protocol import Observer, loss_observer, pack_blocks, unpack_blocks

MODES = ("full", "gram", "orthogonal")
_SQUARE_SUM = Loss("square", "sum")


@dataclass(frozen=True)
class ShallowReLU:
    """Shapes, representation and kink convention of the network (see module docstring).

    Parameters
    ----------
    p: number of neurons.
    m: coordinates per neuron: ``d`` for ``"full"``, ``n`` for ``"gram"``/``"orthogonal"``.
    mode: one of :data:`MODES`.
    kink: :math:`\\sigma'(0)`; 0 is the paper's choice (App. C.2).
    """

    p: int
    m: int
    mode: str = "full"
    kink: float = 0.0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {self.mode!r}")
        if self.p < 1 or self.m < 1:
            raise ValueError(f"p and m must be >= 1, got p={self.p}, m={self.m}")

    @property
    def n_params(self) -> int:
        return self.p * self.m + self.p

    # -- state and data ---------------------------------------------------------------
    def pack(self, blocks: Sequence[Array]) -> Array:
        """Flat state ``(B, p*m + p)`` from the blocks ``U`` ``(B, p, m)`` and ``a`` ``(B, p)``."""
        return pack_blocks(blocks)

    def unpack(self, y: Array, args: dict[str, Array] | None = None) -> tuple[Array, ...]:
        """Views ``U`` ``(B, p, m)`` and ``a`` ``(B, p)`` of a flat state."""
        return unpack_blocks(y, ((self.p, self.m), (self.p,)))

    def args(
        self, backend: Backend, X: Any, y: Any, *, wperp2: Any = None, sizes: Any = None
    ) -> dict[str, Array]:
        """Solver ``args``: the data ``X`` as this ``mode`` represents it and the labels ``y``
        ``(n,)``/``(B, n)``.

        ``X``: the points ``(n, d)``/``(B, n, d)`` (full), their Gram matrix
        :math:`G=XX^\top` ``(n, n)``/``(B, n, n)`` (gram) or their norms ``c`` ``(n,)``/``(B, n)``
        (orthogonal, :math:`x_i=c_ie_i`).  ``wperp2``
        ``(B, p)``: the frozen :math:`\\|w_j^\\perp\\|^2` (gram/orthogonal), needed only by
        :meth:`weight_sqnorm`.  ``sizes`` ``(B, 2)``: each member's own ``(p_b, n_b)`` when
        networks of different widths and sample sizes share one padded array program
        (padded examples have ``x = 0``, ``y = 0``; padded neurons ``a = 0``, ``w = 0``: both stay
        inert, and the 1/p, 1/n factors use the member's own sizes).
        """
        yy = backend.asarray(y)
        out = {"y": yy[None] if yy.ndim == 1 else yy}
        data = backend.asarray(X)
        if self.mode == "full":
            out["X"] = data[None] if data.ndim == 2 else data
            # contiguous X^T: a stacked matmul on a transposed view leaves BLAS (NOTES-numerics)
            out["XT"] = backend.xp.ascontiguousarray(backend.xp.swapaxes(out["X"], 1, 2))
        elif self.mode == "gram":
            out["G"] = data[None] if data.ndim == 2 else data
            out["Ginv"] = backend.xp.linalg.inv(out["G"])
        else:
            c = data[None] if data.ndim == 1 else data
            out["c2"] = (c * c)[:, None, :]
        if wperp2 is not None:
            out["wperp2"] = backend.asarray(wperp2)
        if sizes is not None:
            out["sizes"] = backend.asarray(sizes)
        return out

    def _sizes(self, args: dict[str, Array], n: int):
        """Per-member ``(p, n)``: ``(B, 1)`` arrays with ``sizes``, else the shapes' ints."""
        if "sizes" in args:
            return args["sizes"][:, :1], args["sizes"][:, 1:]
        return self.p, n

    # -- forward -----------------------------------------------------------------------
    def preact(self, U: Array, args: dict[str, Array]) -> Array:
        """Pre-activations :math:`\\langle w_j|x_i\\rangle`, ``(B, p, n)``."""
        if self.mode == "full":
            return U @ args["XT"]
        return U

    def _push(self, Q: Array, args: dict[str, Array]) -> Array:
        """:math:`\\sum_i Q_{ji}x_i` in this mode's coordinates, ``(B, p, m)``."""
        if self.mode == "full":
            return Q @ args["X"]
        if self.mode == "gram":
            return Q @ args["G"]
        return Q * args["c2"]

    def _parts(self, y: Array, args: dict[str, Array]):
        """``U, a, pre, act, slope, sigma, r`` at the state ``y`` (``sigma`` the activation;
        ``slope`` the frozen pattern's slopes when ``args`` carry one (a solve with
        ``events=model.switching``), else ``None``)."""
        U, a = self.unpack(y)
        pre = self.preact(U, args)
        sigma = Activation(0.0, self.kink)
        pattern = args.get(PATTERN_KEY)
        slope = None if pattern is None else sigma.frozen_slope(pre, pattern, args.get(LIVE_KEY))
        act = sigma.value(pre) if slope is None else slope * pre
        p_eff, _ = self._sizes(args, pre.shape[2])
        h = (a[:, None, :] @ act)[:, 0, :] / p_eff
        return U, a, pre, act, slope, sigma, args["y"] - h

    def residual(self, y: Array, args: dict[str, Array]) -> Array:
        """Residuals :math:`r_i=y_i-h_\\theta(x_i)`, ``(B, n)``."""
        return self._parts(y, args)[-1]

    def loss_value(self, y: Array, args: dict[str, Array]) -> Array:
        """Eq. (2): :math:`L=\\frac1{2n}\\sum_ir_i^2`, ``(B,)``: the summed square loss over each
        member's own ``n`` (padded examples have :math:`r_i=0`)."""
        r = self.residual(y, args)
        _, n = self._sizes(args, r.shape[1])
        return _SQUARE_SUM.value(r, 0.0) / (n if isinstance(n, int) else n[:, 0])

    def observer(self) -> Observer:
        """``observe(t, y, args)`` recording the loss."""
        return loss_observer(self)

    # -- the flow ----------------------------------------------------------------------
    def _velocity(self, y: Array, args: dict[str, Array]):
        """``(dU, da, a, Q, pushed Q, r)`` of eqs. (13)-(14) with the p-acceleration."""
        _, a, pre, act, slope, sigma, r = self._parts(y, args)
        _, n = self._sizes(args, r.shape[1])
        Q = sigma.backprop(pre, r[:, None, :]) if slope is None else slope * r[:, None, :]
        PQ = self._push(Q, args)
        dU = (a / n)[:, :, None] * PQ
        da = (act @ r[:, :, None])[:, :, 0] / n
        return dU, da, a, Q, PQ, r

    def __call__(self, t: Array, y: Array, args: dict[str, Array]) -> Array:
        """The field :math:`\\dot\\theta=-p\\nabla L` on the flat state."""
        dU, da, *_ = self._velocity(y, args)
        return self.pack((dU, da))

    def curvature(self, y: Array, args: dict[str, Array]) -> Array:
        """Eq. (5) exactly: :math:`\\mu=p\\|\\nabla L\\|^2/L`, ``(B,)`` (catalog (C2))."""
        _, da, a, Q, PQ, r = self._velocity(y, args)
        p, n = self._sizes(args, r.shape[1])
        if self.mode == "full":
            S = (PQ * PQ).sum(axis=2)
        else:
            S = (Q * PQ).sum(axis=2)
        total = ((n * da) ** 2 + a * a * S).sum(axis=1, keepdims=True)
        return (2.0 * total / (n * p * (r * r).sum(axis=1, keepdims=True)))[:, 0]

    @property
    def switching(self) -> Switching:
        """The flow's switching surfaces :math:`\\langle w_j|x_i\\rangle = 0` (entry ``j n + i``), for
        ``solve(..., events=model.switching)``: the field then uses the activation pattern the
        solver passes in ``args`` (:mod:`numeric.engine.integrators.events`). No sliding mode:
        where both sides point into a surface the entry is integrated live (its own convention,
        so the error control chatters there; orthogonal data has no sliding, the field at
        :math:`v_{ji} = 0` being 0 on the inactive side)."""
        sigma = Activation(0.0, self.kink)

        def values(y: Array, args: dict[str, Array]) -> Array:
            pre = self.preact(self.unpack(y)[0], args)
            return pre.reshape(pre.shape[0], -1)

        def slopes(g: Array, args: dict[str, Array]) -> Array:
            return sigma.slope(g)

        return Switching(values=values, slopes=slopes)

    # -- measurements ------------------------------------------------------------------
    def weight_sqnorm(self, y: Array, args: dict[str, Array]) -> Array:
        """:math:`\\|w_j\\|^2` ``(B, p)``, frozen part included in the reduced modes."""
        U, _ = self.unpack(y)
        if self.mode == "full":
            return (U * U).sum(axis=2)
        if self.mode == "gram":
            inner = ((U @ args["Ginv"]) * U).sum(axis=2)
        else:
            inner = (U * U / args["c2"]).sum(axis=2)
        return inner + args["wperp2"]

    def balance(self, y: Array, args: dict[str, Array]) -> Array:
        """Lemma 1's conserved quantity :math:`a_j^2-\\|w_j\\|^2`, ``(B, p)``."""
        a = self.unpack(y)[1]
        return a * a - self.weight_sqnorm(y, args)

    def active_mass(self, y: Array, args: dict[str, Array]) -> Array:
        r""":math:`\frac1p\sum_j|a_j|^2 1_{j,i}` per example, ``(B, n)`` (Lemma 7, Fig. 6)."""
        U, a = self.unpack(y)
        pre = self.preact(U, args)
        p, _ = self._sizes(args, pre.shape[2])
        return ((a * a)[:, None, :] @ (pre > 0))[:, 0, :] / p


# ------------------------------------------------------------------------- reductions


def gram_state(W: Array, a: Array, X: Array) -> tuple[Array, Array, Array]:
    r"""Exact reduction of full states: :math:`v_j=Xw_j` and :math:`\|w_j^\perp\|^2`.

    ``W`` ``(B, p, d)``, ``a`` ``(B, p)``, ``X`` ``(n, d)`` of rank ``n``.  Returns
    ``V`` ``(B, p, n)``, ``a`` and ``wperp2`` ``(B, p)``
    :math:`=\|w_j\|^2-v_j^\top G^{-1}v_j`, computed from an orthonormal basis of the data
    span (no cancellation).
    """
    xp = array_namespace(W, X)
    V = W @ X.T
    Qb, _ = xp.linalg.qr(X.T)  # (d, n), orthonormal basis of span(x_i)
    perp = W - (W @ Qb) @ Qb.T
    return V, a, (perp * perp).sum(axis=2)
