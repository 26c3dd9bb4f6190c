r"""Deep feed-forward nets with the homogeneous activation :math:`\sigma(x)=\max(x,\alpha x)^p`.

The network (kumar2025 eq. 3) is :math:`\mathcal H(x;W_{1:L})=W_L\sigma(W_{L-1}\sigma(\cdots\sigma(W_1x)))`
with :math:`W_l\in\mathbb R^{k_l\times k_{l-1}}`, :math:`k_L=1`.  Weights are batched over a
leading ensemble axis ``B``: ``Ws[l]`` has shape ``(B, k_{l+1}, k_l)``; data ``X`` is
``(n, d)`` shared by every member, or ``(B, n, d)`` / ``(1, n, d)`` with a member axis (the
:class:`HomogeneousNet` ``args`` convention).  The net is positively homogeneous of degree
:math:`D(L,p)=\sum_{k<L}p^k` in all weights.

Everything here is analytic back-propagation on one code path for NumPy and CuPy:

* :func:`forward` / :func:`backward` -- outputs and the gradient of
  :math:`c^\top\mathcal H(X;W)` for any per-sample coefficient ``c``; the NCF (eq. 4)
  is ``c = z`` and the square loss (eq. 1) is ``c = H - y``;
* :func:`sensitivities` -- :math:`\delta_l(x)=\partial\mathcal H/\partial h_l`, the
  :math:`\nabla_s f_{L,l+1}` of eq. 21 (:math:`\delta_L\equiv1`);
* :class:`NeuronNCF` -- the per-neuron candidate NCF of Sec. 3.3,
  :math:`h(a,b)=\sum_i q_i^\top b\,\sigma(a^\top g_i)` (Lemma 19's form);
* :func:`projected_gradient_ascent` -- batched restarts on the unit sphere (eq. 5);
* :func:`kkt_cosine` -- :math:`\cos\angle(\nabla\mathcal N(u),u)`, the KKT-ness measure.

The activation is :class:`numeric.models.activation.Activation` (:func:`homogeneous`); for ``p = 1`` and
``alpha != 1`` its derivative at 0 is the Clarke subgradient :math:`\min(1,\alpha)` (0 for ReLU),
as autodiff would choose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from numeric.backend import Array, Backend, array_namespace
from numeric.engine.descent import gradient_descent
from numeric.engine.trajectory import Status
from numeric.models.activation import Activation
from numeric.models.losses import Loss
from numeric.models.protocol import Observer, loss_observer

# the flat parameter vector of a weight list: the one layout of every model (Ws <-> (B, n_params))
from numeric.models.protocol import pack_blocks as pack
from numeric.models.protocol import unpack_blocks as unpack

_SQUARE_SUM = Loss("square", "sum")


def degree(depth: int, p: int) -> int:
    r"""Homogeneity degree :math:`D(L,p)=\sum_{k=0}^{L-1}p^k` of the whole net in all weights."""
    return sum(p**k for k in range(depth))


def homogeneous(alpha: float, p: int) -> Activation:
    r""":math:`\sigma(z)=\max(z,\alpha z)^p` with the Clarke/autodiff :math:`m'(0)=\min(1,\alpha)`."""
    return Activation(alpha, kink=min(1.0, alpha), p=p)


def forward(Ws: Sequence[Array], X: Array, alpha: float, p: int) -> tuple[list[Array], list[Array]]:
    r"""Pre-activations ``hs[l]`` (B, k_{l+1}, n) and inputs ``gs[l]`` of layer ``l``.

    ``gs[0] = X^T`` (d, n), or (B|1, d, n) for ``X`` with a member axis, and ``gs[l] = sigma(hs[l-1])``;
    the output is ``hs[-1][:, 0, :]``.
    """
    gs: list[Array] = [array_namespace(X).swapaxes(X, -1, -2)]
    hs: list[Array] = []
    for layer, W in enumerate(Ws):
        h = W @ gs[-1]
        hs.append(h)
        if layer < len(Ws) - 1:
            gs.append(homogeneous(alpha, p).value(h))
    return hs, gs


def output(Ws: Sequence[Array], X: Array, alpha: float, p: int) -> Array:
    r""":math:`\mathcal H(X;W)` of every member, shape (B, n)."""
    return forward(Ws, X, alpha, p)[0][-1][:, 0, :]


def backward(
    Ws: Sequence[Array], hs: Sequence[Array], gs: Sequence[Array], coeff: Array, alpha: float, p: int
) -> list[Array]:
    r"""Gradients of :math:`\sum_i c_i\mathcal H(x_i;W)` w.r.t. every ``Ws[l]`` (``coeff`` (B, n))."""
    xp = array_namespace(coeff)
    grads: list[Array] = [xp.zeros(0)] * len(Ws)
    upstream = coeff[:, None, :]  # d objective / d h_L, (B, 1, n)
    for layer in range(len(Ws) - 1, -1, -1):
        g = gs[layer]
        grads[layer] = upstream @ xp.swapaxes(g, -1, -2)
        if layer:
            slope = homogeneous(alpha, p).slope(hs[layer - 1])
            upstream = (xp.swapaxes(Ws[layer], -1, -2) @ upstream) * slope
    return grads


def ncf_and_grad(Ws: Sequence[Array], X: Array, z: Array, alpha: float, p: int) -> tuple[Array, list[Array]]:
    r"""The NCF :math:`\mathcal N_{z,\mathcal H}(W)=z^\top\mathcal H(X;W)` (eq. 4) and its gradient."""
    hs, gs = forward(Ws, X, alpha, p)
    coeff = z + 0.0 * hs[-1][:, 0, :]
    return (coeff * hs[-1][:, 0, :]).sum(axis=-1), backward(Ws, hs, gs, coeff, alpha, p)


def loss_and_grad(Ws: Sequence[Array], X: Array, y: Array, alpha: float, p: int) -> tuple[Array, list[Array]]:
    r"""Square loss :math:`\tfrac12\|\mathcal H(X;W)-y\|^2` (eq. 1) and its gradient, per member.

    ``Loss("square", "sum")``: the same numbers as :math:`\tfrac12\sum_i r_i^2` summed first (halving
    is exact) and :math:`r = \mathcal H - y` (the factor ``c = 1`` is exact)."""
    hs, gs = forward(Ws, X, alpha, p)
    f = hs[-1][:, 0, :]
    return _SQUARE_SUM.value(f, y), backward(Ws, hs, gs, _SQUARE_SUM.dvalue(f, y), alpha, p)


def sensitivities(Ws: Sequence[Array], X: Array, alpha: float, p: int) -> tuple[list[Array], list[Array]]:
    r"""``(deltas, gs)``: :math:`\delta_{l}(x_i)=\partial\mathcal H(x_i)/\partial h_{l}` for the
    pre-activation of every layer (``deltas[l]`` (B, k_{l+1}, n); the last is 1) and the
    layer inputs ``gs`` of :func:`forward`.
    Eq. 46: :math:`\delta_l=\mathrm{diag}(\sigma'(h_l))W_{l+1}^\top\delta_{l+1}`.
    """
    xp = array_namespace(Ws[0])
    hs, gs = forward(Ws, X, alpha, p)
    deltas = [xp.ones_like(hs[-1])]
    for layer in range(len(Ws) - 1, 0, -1):
        deltas.insert(
            0, (xp.swapaxes(Ws[layer], -1, -2) @ deltas[0]) * homogeneous(alpha, p).slope(hs[layer - 1])
        )
    return deltas, gs


# ---------------------------------------------------------------- the net as a Model


@dataclass(frozen=True)
class HomogeneousNet:
    r"""The net trained on the square loss (eq. 1) as a :class:`~numeric.models.protocol.Model`:
    the flat state holds the weights of per-member ``shapes`` ``[(k_1, d), ..., (1, k_{L-1})]``,
    ``args`` the data ``X`` ``(1, n, d)`` and targets ``y`` ``(1|B, n)`` with the member axis of every
    model's ``args`` (size 1: shared), and the field is the gradient flow
    :math:`\dot w=-\nabla\mathcal L(w)` (eqs. 14-15)."""

    shapes: tuple[tuple[int, int], ...]
    alpha: float
    p: int

    def pack(self, blocks: Sequence[Array]) -> Array:
        """The flat state ``(B, n_params)`` of the weights ``blocks``."""
        return pack(blocks)

    def unpack(self, y: Array, args: dict[str, Array] | None = None) -> tuple[Array, ...]:
        """The weights ``(B, k_{l+1}, k_l)`` of the flat state ``y`` (views)."""
        return unpack(y, self.shapes)

    def args(self, backend: Backend, X: Any, y: Any) -> dict[str, Array]:
        """``X`` ``(n, d)`` shared or ``(B, n, d)``, the targets ``y`` ``(n,)`` shared or ``(B, n)``, as
        ``args`` with a leading member axis: ``X`` ``(1|B, n, d)``, ``y`` ``(1|B, n)``."""
        X, y = backend.asarray(X), backend.asarray(y)
        return {"X": X[None] if X.ndim == 2 else X, "y": y[None] if y.ndim == 1 else y}

    def loss_and_grad(self, y: Array, args: dict[str, Array]) -> tuple[Array, Array]:
        """The loss ``(B,)`` and its gradient as a flat state ``(B, n_params)``."""
        value, grads = loss_and_grad(self.unpack(y), args["X"], args["y"], self.alpha, self.p)
        return value, pack(grads)

    def ncf_and_grad(self, y: Array, args: dict[str, Array]) -> tuple[Array, Array]:
        r"""The NCF :math:`\mathcal N_{z,\mathcal H}(W)=z^\top\mathcal H(X;W)` (eq. 4) of ``z = args["y"]``
        (the residual the new weights are to fit), ``(B,)``, and its gradient as a flat state: the NCF
        flows (eqs. 5, 17) and projected ascent read the net through this."""
        value, grads = ncf_and_grad(self.unpack(y), args["X"], args["y"], self.alpha, self.p)
        return value, pack(grads)

    def loss_value(self, y: Array, args: dict[str, Array]) -> Array:
        r""":math:`\tfrac12\|\mathcal H(X;W)-y\|^2` of every member, ``(B,)``."""
        return _SQUARE_SUM.value(output(self.unpack(y), args["X"], self.alpha, self.p), args["y"])

    def __call__(self, t: Any, y: Array, args: dict[str, Array]) -> Array:
        r"""The field :math:`-\nabla\mathcal L` on the flat state."""
        return -self.loss_and_grad(y, args)[1]

    def observer(self) -> Observer:
        """``observe(t, y, args)`` recording the loss."""
        return loss_observer(self)


# ---------------------------------------------------------------- per-neuron candidate NCF


@dataclass(frozen=True)
class NeuronNCF:
    r"""One new neuron's NCF :math:`h(a,b)=\sum_i q_i^\top b\,\sigma(a^\top g_i)` (Sec. 3.3, Lemma 19).

    ``G`` (B, k_in, n) are the neuron's inputs :math:`g_{l-1}(x_i)`; ``Q`` (B, k_out, n) are
    :math:`q_i=\bar y_i\delta_{l+1}(x_i)` (residual times back-propagated signal).  The
    state ``u = (a, b)`` is (B, R, k_in + k_out): ``R`` restarts per member.  ``h`` is
    ``p``-homogeneous in ``a``, linear in ``b``, so :math:`(p+1)`-homogeneous in ``u``.
    """

    G: Array
    Q: Array
    alpha: float
    p: int

    @property
    def k_in(self) -> int:
        return self.G.shape[1]

    def value_and_grad(self, u: Array) -> tuple[Array, Array]:
        """``(h(u), grad h(u))`` with shapes (B, R) and (B, R, k_in + k_out)."""
        xp = array_namespace(u)
        a, b = u[..., : self.k_in], u[..., self.k_in :]
        s = a @ self.G  # (B, R, n)
        qb = b @ self.Q  # (B, R, n): q_i^T b
        sigma = homogeneous(self.alpha, self.p)
        act = sigma.value(s)
        value = (qb * act).sum(axis=-1)
        grad_a = (qb * sigma.slope(s)) @ xp.swapaxes(self.G, -1, -2)
        grad_b = act @ xp.swapaxes(self.Q, -1, -2)
        return value, xp.concatenate([grad_a, grad_b], axis=-1)


def layer_candidates(Ws: Sequence[Array], X: Array, resid: Array, alpha: float, p: int) -> list[NeuronNCF]:
    r"""The :math:`L-1` candidate NCFs :math:`\bar y^\top\mathcal H_{1,l}` of Algorithm 1 (eq. 21):
    a new neuron in hidden layer ``l`` reads ``g_{l-1}`` and writes into ``h_{l+1}``."""
    deltas, gs = sensitivities(Ws, X, alpha, p)
    B = Ws[0].shape[0]
    out = []
    for layer in range(len(Ws) - 1):
        G = gs[layer] if gs[layer].ndim == 3 else gs[layer][None].repeat(B, axis=0)
        out.append(NeuronNCF(G, resid[:, None, :] * deltas[layer + 1], alpha, p))
    return out


# ---------------------------------------------------------------- constrained maximization


def normalize(u: Array) -> Array:
    """Rows of ``u`` (last axis) scaled to unit norm."""
    xp = array_namespace(u)
    return u / xp.linalg.norm(u, axis=-1, keepdims=True)


def projected_gradient_ascent(
    value_and_grad: Callable[[Array], tuple[Array, Array]], u0: Array, *, step: float, iters: int
) -> tuple[Array, Array]:
    r"""Maximize :math:`\mathcal N(u)` s.t. :math:`\|u\|=1` (eq. 5) from every row of ``u0``:
    :math:`u\leftarrow (u+\eta\nabla\mathcal N(u))/\|u+\eta\nabla\mathcal N(u)\|`.

    Rows are independent restarts; returns the final points and their values.  It runs on the
    engine as projected GD on the field :math:`\nabla\mathcal N` (every row a member,
    ``project=normalize``); a row that left the finite numbers (a zero step, an overflow) is NaN.
    """
    xp = array_namespace(u0)
    shape = u0.shape
    rows = normalize(u0).reshape(-1, shape[-1])
    M = rows.shape[0]

    def ascent(t: Array, y: Array, args: dict[str, Array]) -> Array:
        if y.shape[0] == M:
            return value_and_grad(y.reshape(shape))[1].reshape(y.shape)
        full = xp.full((M, shape[-1]), xp.nan)  # stopped rows are NaN (they do not mix with others)
        full[args["row"]] = y
        return value_and_grad(full.reshape(shape))[1].reshape(M, -1)[args["row"]]

    traj = gradient_descent(
        ascent,
        rows,
        lr=step,
        steps=iters,
        record=[iters],
        args={"row": xp.arange(M)},
        save_state=False,
        project=normalize,
    )
    ok = xp.asarray(traj.status == Status.SUCCESS)[:, None]
    u = xp.where(ok, traj.y_stop, xp.nan).reshape(shape)
    return u, value_and_grad(u)[0]


def kkt_cosine(u: Array, grad: Array) -> Array:
    r"""KKT-ness :math:`\nabla\mathcal N(u)^\top u/(\|\nabla\mathcal N(u)\|\|u\|)` (1 at a KKT point with
    :math:`\lambda>0`); NaN where the gradient vanishes, where the cosine is undefined."""
    xp = array_namespace(u)
    den = xp.linalg.norm(grad, axis=-1) * xp.linalg.norm(u, axis=-1)
    return xp.where(den > 0, (grad * u).sum(axis=-1) / xp.where(den > 0, den, 1.0), xp.nan)
