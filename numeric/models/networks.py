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
from functools import cached_property

import numpy as np

from numeric.backend import Array, array_namespace, is_host
from numeric.models.activation import Activation
from numeric.models.losses import Loss
from numeric.models.protocol import pack_blocks, unpack_blocks


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

    @cached_property
    def shapes(self) -> list[tuple[int, int]]:
        return [(self.widths[i + 1], self.widths[i]) for i in range(self.depth)]

    @property
    def n_params(self) -> int:
        return sum(r * c for r, c in self.shapes)

    # -- flat state <-> weight matrices ---------------------------------------------
    def unpack(self, y: Array, args: dict[str, Array] | None = None) -> tuple[Array, ...]:
        """Views ``W_l`` of shape ``(B, N_l, N_{l-1})`` into a flat state ``y`` (B, n_params)."""
        return unpack_blocks(y, self.shapes)

    def pack(self, Ws: Sequence[Array]) -> Array:
        """The flat state ``(B, n_params)`` holding the weights ``Ws``."""
        return pack_blocks(Ws)

    # -- forward and backward -------------------------------------------------------
    def forward(self, Ws: Sequence[Array], XT: Array, alpha: Array | float) -> list[Array]:
        """Pre-activations ``[h_1, ..., h_L]``, each ``(B, N_l, P)``; ``h_L`` is the output."""
        return self._forward(Ws, XT, alpha)[0]

    def _forward(
        self,
        Ws: Sequence[Array],
        XT: Array,
        alpha: Array | float,
        pattern: Array | None = None,
        live: Array | None = None,
    ) -> tuple[list[Array], list[Array], Array | None]:
        """Pre-activations ``[h_1, ..., h_L]``, activations ``[sigma(h_1), ..., sigma(h_{L-1})]``
        and the first layer's slopes under an activation ``pattern`` (``None`` without one).

        With a ``pattern`` (B, N_1 P) of first-layer slopes (the smooth piece of the
        switched flow, :mod:`numeric.engine.integrators.events`), ``sigma(h_1) = pattern * h_1``
        (equal to :meth:`Activation.value` where the pattern is the slope of ``h_1``'s side, and
        its linear continuation across the surface elsewhere); entries marked ``live``
        (B, N_1 P) take :meth:`Activation.slope` of ``h_1`` instead.
        """
        hs, acts = [_first_layer(Ws[0], XT)], []
        sigma = Activation(alpha, self.kink)
        slope1 = None if pattern is None else sigma.frozen_slope(hs[0], pattern, live)
        for W in Ws[1:]:
            acts.append(sigma.value(hs[-1]) if slope1 is None or acts else slope1 * hs[-1])
            hs.append(_layer(W, acts[-1]))
        return hs, acts, slope1

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
        hs, acts, _ = self._forward(Ws, XT, alpha)
        f = hs[-1][:, 0, :]
        grads = self._backward(Ws, X, hs, acts, alpha, loss.dvalue(f, y))
        return loss.value(f, y), grads

    def scaled_grad(
        self,
        state: Array,
        X: Array,
        XT: Array,
        y: Array,
        alpha: Array | float,
        loss: Loss,
        scale: Array,
        pattern: Array | None = None,
        live: Array | None = None,
        sliding: Array | None = None,
    ) -> Array:
        r"""``scale`` times the loss gradient, as a flat state ``(B, n_params)``.

        The gradient flow's hot path (:class:`numeric.models.vector_fields.GradientFlow`): the same
        backpropagation as :meth:`loss_and_grad` without the loss value, with ``scale``
        ``(B|1, 1)`` (e.g. :math:`-1/\tau`) applied to :math:`\partial\mathcal L/\partial f`
        (a ``(B, P)`` array, so the scaling is nearly free), each layer's gradient written
        straight into its slice of the flat result. ``pattern`` and ``live``: the first
        layer's activation pattern of a switched flow (see :meth:`_forward`); ``sliding``
        (B, N_1 P) bool: entries in a Filippov sliding mode, whose slopes are
        :meth:`sliding_slopes` (clipped to the two sides' slopes).
        """
        xp = array_namespace(state)
        Ws = self.unpack(state)
        hs, acts, slope1 = self._forward(Ws, XT, alpha, pattern, live)
        out = xp.empty_like(state)
        dL_df = loss.dvalue(hs[-1][:, 0, :], y) * scale
        if sliding is not None:
            back = _backprop(Ws[1], dL_df[:, None, :])
            slope1 = self.sliding_slopes(slope1, back, sliding, X @ XT, alpha)[0]
        self._backward(Ws, X, hs, acts, alpha, dL_df, self.unpack(out), slope1)
        return out

    @staticmethod
    def sliding_slopes(
        slope1: Array, back: Array, sliding: Array, gram: Array, alpha: Array | float
    ) -> tuple[Array, Array]:
        r"""First-layer slopes that keep every sliding pre-activation at zero (two-layer nets).

        With ``b_{jk} = (W_2^T \delta)_{jk}`` (``back``, (B, N_1, P)) the first layer's
        gradient is :math:`\dot w_j \propto \sum_k s_{jk} b_{jk} x_k`, so the pre-activation
        :math:`z_{ij} = w_j\cdot x_i` moves at :math:`\dot z_{ij} \propto \sum_k G_{ik} s_{jk} b_{jk}`
        (``gram`` :math:`G = X X^\top`, (B|1, P, P)). On the surface (:math:`z_{ij} = 0`) the
        field is affine in :math:`s_{ij}` (the forward pass sees :math:`s_{ij} z_{ij} = 0`), and the
        Filippov sliding mode is the convex combination of the two sides' fields, i.e. the slope
        :math:`s^*_{ij} \in [\min(1,\alpha), \max(1,\alpha)]` with :math:`\dot z_{ij} = 0`. For the
        sliding set :math:`S_j` of neuron ``j`` the unknowns :math:`u_k = s_{jk} b_{jk}`,
        :math:`k \in S_j`, solve
        :math:`\sum_{k\in S_j} G_{ik} u_k = -\sum_{k\notin S_j} G_{ik} s_{jk} b_{jk}`,
        :math:`i \in S_j` (one small batched solve per neuron with a sliding entry).

        Returns ``(slopes, unclipped)``: ``slope1`` with the sliding entries replaced by
        :math:`s^*` clipped to the two sides' slopes, and (B, N_1 P) the unclipped :math:`s^*`
        (NaN off the sliding entries; :math:`s^*` outside the range means the flow leaves
        the surface, on the side of the nearer end). Entries with :math:`b_{jk} = 0` keep
        their slope (it does not act). Linearly dependent sliding inputs (``x`` and ``-x`` on one
        neuron's surface, which mirror-symmetric data put there together) make the block
        singular; the system stays consistent and every solution gives the same field
        :math:`\sum_k u_k x_k` (the null space of :math:`G_{SS} = X_S X_S^\top` is that of
        :math:`X_S^\top`), so :func:`_consistent_solve` takes the minimum-norm one (the field does not
        depend on how it splits between dependent entries; their clipping, and so the exit
        test, does: a split inside the slopes' box may exist where this one is not). A clipped
        entry's coupling to the other sliding entries of its neuron is not re-solved (exact for
        one sliding entry per neuron and for orthogonal data; otherwise until the solver moves
        the entry off the sliding set at its located exit).

        A static method: the balanced log-polar flow
        (:class:`~numeric.models.balanced_relu.LogPolarFlow`) has the same surface velocities,
        with :math:`b_{jk} = r_k`, and solves its sliding mode here too.
        """
        xp = array_namespace(back)
        S = sliding.reshape(back.shape)
        unclipped = xp.full(back.shape, xp.nan, dtype=back.dtype)
        b, j = xp.nonzero(S.any(axis=2))
        if b.shape[0] == 0:
            return slope1, unclipped.reshape(sliding.shape)
        m = S[b, j].astype(back.dtype)  # (n, P)
        bp, s0 = back[b, j], slope1[b, j]
        G = gram[b] if gram.shape[0] != 1 else gram[0][None]
        known = (1 - m) * s0 * bp
        rhs = -m * (G @ known[..., None])[..., 0]
        eye = xp.eye(m.shape[1], dtype=back.dtype)
        A = m[:, :, None] * G * m[:, None, :] + eye * (1 - m)[:, None, :]
        u = _consistent_solve(xp, A, rhs)
        act = (m > 0) & (bp != 0)
        star = xp.where(act, u / xp.where(act, bp, 1.0), xp.nan)
        a = xp.asarray(alpha, dtype=back.dtype)
        a = a.reshape(-1)[b][:, None] if a.ndim and a.reshape(-1).shape[0] != 1 else a.reshape(-1)[:1]
        lo, hi = xp.minimum(1.0, a), xp.maximum(1.0, a)
        out = slope1.copy()
        out[b, j] = xp.where(act, xp.minimum(xp.maximum(star, lo), hi), s0)
        unclipped[b, j] = star
        return out, unclipped.reshape(sliding.shape)

    def sliding_weight(
        self,
        state: Array,
        X: Array,
        XT: Array,
        y: Array,
        alpha: Array | float,
        loss: Loss,
        scale: Array,
        pattern: Array,
        live: Array | None,
        sliding: Array,
    ) -> Array:
        """(B, N_1 P): the Filippov weight ``p = (s* - alpha) / (1 - alpha)`` of the positive
        side's piece (slope 1; the negative side's is ``alpha``) for the unclipped sliding slope
        ``s*`` of :meth:`sliding_slopes` (NaN off the sliding entries): in [0, 1] while the
        entry slides, above 1 / below 0 where the flow leaves to the positive / negative side."""
        xp = array_namespace(state)
        Ws = self.unpack(state)
        hs, _, slope1 = self._forward(Ws, XT, alpha, pattern, live)
        back = _backprop(Ws[1], (loss.dvalue(hs[-1][:, 0, :], y) * scale)[:, None, :])
        star = self.sliding_slopes(slope1, back, sliding, X @ XT, alpha)[1]
        a = xp.asarray(alpha, dtype=state.dtype).reshape(-1)[:, None]
        return (star - a) / xp.where(a == 1, xp.nan, 1 - a)  # alpha = 1: both sides equal, no sliding

    def switching_values(self, state: Array, XT: Array) -> Array:
        """The first-layer pre-activations ``w_j . x_i`` as ``(B, N_1 P)`` (entry ``j P + i``):
        the switching functions of the gradient flow, linear in the state (two-layer nets)."""
        if self.depth != 2:
            raise ValueError(
                f"switching surfaces are declared for two-layer nets (depth 2), not depth {self.depth}: "
                "deeper pre-activations are not linear in the state"
            )
        h1 = _first_layer(self.unpack(state)[0], XT)
        return h1.reshape(h1.shape[0], -1)

    def _backward(
        self,
        Ws: Sequence[Array],
        X: Array,
        hs: Sequence[Array],
        acts: Sequence[Array],
        alpha: Array | float,
        dL_df: Array,
        out: list[Array] | None = None,
        slope1: Array | None = None,
    ) -> list[Array]:
        """Backpropagate ``dL_df`` (B, P); the gradients go into ``out`` (views) if given;
        ``slope1``: the first layer's slopes under a pattern (``None``: its own)."""
        grads: list[Array] = [None] * self.depth if out is None else out  # type: ignore[list-item]
        delta = dL_df[:, None, :]  # (B, 1, P)
        for l in range(self.depth - 1, 0, -1):
            _store(grads, l, _weight_grad(delta, acts[l - 1]))
            slope = Activation(alpha, self.kink).slope(hs[l - 1]) if l > 1 or slope1 is None else slope1
            delta = slope * _backprop(Ws[l], delta)
        _store(grads, 0, _first_layer_grad(delta, X))
        return grads


def _store(grads: list[Array], l: int, g: Array) -> None:
    """``grads[l] = g``, copying into the slot when it is a view of a flat result."""
    if grads[l] is None:
        grads[l] = g
    else:
        grads[l][...] = g


def _first_layer(W: Array, XT: Array) -> Array:
    """``W @ X^T`` (B, N_1, P); shared data (``XT`` of shape (1, D, P)) is one GEMM
    ``(B N_1, D) @ (D, P)`` instead of B small ones."""
    if XT.shape[0] != 1:
        return W @ XT
    B, N1, D = W.shape
    return (W.reshape(B * N1, D) @ XT[0]).reshape(B, N1, XT.shape[2])


def _first_layer_grad(delta: Array, X: Array) -> Array:
    """``delta @ X`` (B, N_1, D); one GEMM ``(B N_1, P) @ (P, D)`` for shared data."""
    if X.shape[0] != 1:
        return delta @ X
    B, N1, P = delta.shape
    return (delta.reshape(B * N1, P) @ X[0]).reshape(B, N1, X.shape[2])


# A layer with one unit (the scalar output) makes its three products outer products and
# dot products; einsum does them in one pass each, where a stacked matmul dispatches B
# tiny BLAS calls (measured at B = 256, (8, 8, 8): 14/13/19 us vs 19/28/52 us).


def _layer(W: Array, act: Array) -> Array:
    """``W @ act`` (B, N_l, P)."""
    if W.shape[1] != 1:
        return W @ act
    return array_namespace(W).einsum("bj,bjp->bp", W[:, 0, :], act)[:, None, :]


def _weight_grad(delta: Array, act: Array) -> Array:
    """``delta @ act^T`` (B, N_l, N_{l-1})."""
    if delta.shape[1] != 1:
        return delta @ _swap(act)
    return array_namespace(act).einsum("bjp,bp->bj", act, delta[:, 0, :])[:, None, :]


def _backprop(W: Array, delta: Array) -> Array:
    """``W^T @ delta`` (B, N_{l-1}, P)."""
    if W.shape[1] != 1:
        return _swap(W) @ delta
    return array_namespace(W).einsum("bj,bp->bjp", W[:, 0, :], delta[:, 0, :])


def _consistent_solve(xp, A: Array, rhs: Array) -> Array:
    r"""``u`` with ``A u = rhs`` for stacked symmetric positive semi-definite ``A`` (n, P, P) whose
    systems are consistent: LU where ``A`` is regular, else :func:`_min_norm_solve`. NumPy's LU
    raises on an exactly singular block; a device LU returns non-finite values instead (checking
    them on the host would sync every field evaluation), so there each system picks its solution
    on the device."""
    try:
        u = xp.linalg.solve(A, rhs[..., None])[..., 0]
    except np.linalg.LinAlgError:
        return _min_norm_solve(xp, A, rhs)
    if is_host(xp):
        return u
    return xp.where(xp.isfinite(u).all(axis=-1, keepdims=True), u, _min_norm_solve(xp, A, rhs))


def _min_norm_solve(xp, A: Array, rhs: Array) -> Array:
    r"""The minimum-norm solution :math:`V\Lambda^+V^\top` rhs of ``A u = rhs`` (symmetric ``A``)
    from its eigendecomposition, eigenvalues at most :math:`P\,\epsilon\,\lambda_{\max}` counted
    as zero (the rounding met in forming a Gram block of P-term sums: NumPy's ``matrix_rank``
    cut)."""
    lam, V = xp.linalg.eigh(A)
    kept = lam > A.shape[-1] * np.finfo(A.dtype).eps * lam.max(axis=-1, keepdims=True)
    coef = xp.where(kept, (xp.swapaxes(V, -1, -2) @ rhs[..., None])[..., 0] / xp.where(kept, lam, 1.0), 0.0)
    return (V @ coef[..., None])[..., 0]


def _swap(a: Array) -> Array:
    """Transpose the last two axes into a contiguous array (stacked matmul stays on BLAS)."""
    xp = array_namespace(a)
    return xp.ascontiguousarray(xp.swapaxes(a, -1, -2))
