"""Bias-free networks: analytic gradients, conventions, and zhang2025's identities as properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    alphas,
    balanced_rank_one_weights,
    data_matrices,
    symmetric_datasets,
    weights,
)

from numeric.backend import get_backend, to_numpy
from numeric.data.datasets import symmetrize
from numeric.data.initializations import balanced_rank_one, gaussian
from numeric.measures.metrics import sign_imbalance
from numeric.models.activation import Activation
from numeric.models.losses import Loss
from numeric.models.networks import BiasFreeNet
from numeric.models.vector_fields import GradientFlow

EPS = np.finfo(float).eps
NP = get_backend("numpy")

WIDTHS = {2: (3, 4, 1), 3: (3, 4, 3, 1), 4: (2, 3, 4, 2, 1)}


def _problem(depth: int, kind: str, *, B: int = 3, P: int = 5, per_member_data: bool = False, seed: int = 0):
    """Weights, data (X, XT), targets and per-member alpha for a gradient check."""
    rng = np.random.default_rng(seed)
    net = BiasFreeNet(WIDTHS[depth], kink=0.0)
    Ws = [rng.normal(size=(B, r, c)) * (0.7 / np.sqrt(c)) for r, c in net.shapes]
    X = rng.normal(size=(B if per_member_data else 1, P, net.widths[0]))
    y = rng.normal(size=(B if per_member_data else 1, P))
    if kind != "square":
        y = np.where(y >= 0, 1.0, -1.0)
    alpha = np.array([0.0, 0.3, 1.0][:B] + [0.5] * max(0, B - 3)).reshape(B, 1, 1)
    return net, Ws, np.ascontiguousarray(X), np.ascontiguousarray(X.swapaxes(1, 2)), y, alpha


def _finite_difference(net, Ws, X, XT, y, alpha, loss, h=1e-6):
    """Central differences of every member's loss with respect to every weight, flat (B, n_params)."""
    flat = net.pack(Ws)
    grad = np.zeros_like(flat)
    for j in range(flat.shape[1]):
        up, down = flat.copy(), flat.copy()
        up[:, j] += h
        down[:, j] -= h
        lu, _ = net.loss_and_grad(net.unpack(up), X, XT, y, alpha, loss)
        ld, _ = net.loss_and_grad(net.unpack(down), X, XT, y, alpha, loss)
        grad[:, j] = (lu - ld) / (2 * h)
    return grad


def _min_abs_preactivation(net, Ws, XT, alpha) -> float:
    return min(float(np.min(np.abs(h))) for h in net.forward(Ws, XT, alpha)[:-1])


# -- analytic gradient vs finite differences ---------------------------------------------
@pytest.mark.parametrize("per_member_data", [False, True], ids=["shared-data", "per-member-data"])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("kind", ["square", "logistic", "exponential"])
@pytest.mark.parametrize("depth", [2, 3, 4])
def test_gradient_matches_finite_differences(depth, kind, reduction, per_member_data):
    net, Ws, X, XT, y, alpha = _problem(depth, kind, per_member_data=per_member_data, seed=depth)
    # a central difference of step h is only valid away from the kinks
    assert _min_abs_preactivation(net, Ws, XT, alpha) > 1e-4
    loss = Loss(kind, reduction)
    value, grads = net.loss_and_grad(Ws, X, XT, y, alpha, loss)
    assert value.shape == (len(Ws[0]),)
    assert [g.shape for g in grads] == [W.shape for W in Ws]
    fd = _finite_difference(net, Ws, X, XT, y, alpha, loss)
    analytic = net.pack(grads)
    # truncation O(h^2) and rounding O(eps L / h): both far below 1e-7 of the gradient scale
    np.testing.assert_allclose(analytic, fd, rtol=0, atol=1e-7 * max(1.0, np.abs(fd).max()))


def test_gradient_of_member_does_not_depend_on_other_members():
    """Per-member alpha (B,1,1) and per-member data give each member its own, independent gradient."""
    net, Ws, X, XT, y, alpha = _problem(3, "square", per_member_data=True, seed=7)
    loss = Loss("square")
    value, grads = net.loss_and_grad(Ws, X, XT, y, alpha, loss)
    for b in range(len(alpha)):
        vb, gb = net.loss_and_grad(
            [W[b : b + 1] for W in Ws], X[b : b + 1], XT[b : b + 1], y[b : b + 1], float(alpha[b, 0, 0]), loss
        )
        np.testing.assert_allclose(vb, value[b : b + 1], rtol=1e-13)
        for g, g1 in zip(grads, gb, strict=True):
            np.testing.assert_allclose(g1[0], g[b], rtol=1e-12, atol=1e-15)


def test_shared_data_equals_broadcast_data():
    net, Ws, X, XT, y, alpha = _problem(2, "logistic", seed=3)
    loss = Loss("logistic", "sum")
    B = len(Ws[0])
    v1, g1 = net.loss_and_grad(Ws, X, XT, y, alpha, loss)
    Xb = np.ascontiguousarray(np.broadcast_to(X, (B, *X.shape[1:])))
    XTb = np.ascontiguousarray(np.broadcast_to(XT, (B, *XT.shape[1:])))
    v2, g2 = net.loss_and_grad(Ws, Xb, XTb, np.broadcast_to(y, (B, y.shape[1])), alpha, loss)
    np.testing.assert_allclose(v1, v2, rtol=1e-14)
    for a, b in zip(g1, g2, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_two_layer_gradient_closed_form():
    """Square loss, two layers: dL/dW2 = <(f-y) sigma(W1x)^T>, dL/dW1 = <sigma'(W1x) W2^T (f-y) x^T>."""
    net, Ws, X, XT, y, alpha = _problem(2, "square", B=2, seed=11)
    W1, W2 = Ws
    h = W1 @ XT
    sigma = Activation(alpha, kink=0.0)
    f = (W2 @ sigma.value(h))[:, 0, :]
    r = (f - y)[:, None, :] / X.shape[1]
    _, (g1, g2) = net.loss_and_grad(Ws, X, XT, y, alpha, Loss("square"))
    np.testing.assert_allclose(g2, r @ sigma.value(h).swapaxes(1, 2), rtol=1e-12)
    np.testing.assert_allclose(g1, (sigma.slope(h) * (W2.swapaxes(1, 2) @ r)) @ X, rtol=1e-12, atol=1e-16)


# -- conventions ---------------------------------------------------------------------------
@pytest.mark.parametrize("depth", [2, 3, 4])
def test_alpha_one_is_the_linear_network(depth):
    net, Ws, _X, XT, _y, _ = _problem(depth, "square", seed=5)
    f = net.output(Ws, XT, 1.0)
    nested = XT
    for W in Ws:
        nested = W @ nested
    # sigma = identity: the nested products, to rounding (the output layer sums in einsum's order)
    np.testing.assert_allclose(f, nested[:, 0, :], rtol=1e-14, atol=1e-16)
    product = Ws[0]
    for W in Ws[1:]:
        product = W @ product
    np.testing.assert_allclose(f, (product @ XT)[:, 0, :], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kink", [0.0, 0.5, 1.0])
def test_kink_value_enters_the_gradient_at_a_zero_preactivation(kink):
    """W1 x = 0 exactly: dL/dW1 = sigma'(0) W2^T (f - y) x^T uses the chosen sigma'(0)."""
    net = BiasFreeNet((2, 1, 1), kink=kink)
    W1, W2 = np.array([[[1.0, -1.0]]]), np.array([[[2.0]]])
    X = np.array([[[1.0, 1.0]]])
    y = np.array([[1.0]])
    _, (g1, g2) = net.loss_and_grad([W1, W2], X, X.swapaxes(1, 2).copy(), y, 0.3, Loss("square"))
    np.testing.assert_array_equal(g1, kink * 2.0 * -1.0 * X)
    np.testing.assert_array_equal(g2, [[[0.0]]])


@given(
    widths=st.lists(st.integers(1, 4), min_size=3, max_size=5).map(tuple),
    B=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_pack_unpack_round_trip(widths, B, seed):
    net = BiasFreeNet(widths, kink=0.0)
    rng = np.random.default_rng(seed)
    Ws = [rng.normal(size=(B, r, c)) for r, c in net.shapes]
    y = net.pack(Ws)
    assert y.shape == (B, net.n_params)
    back = net.unpack(y)
    assert len(back) == net.depth
    for W, V in zip(Ws, back, strict=True):
        np.testing.assert_array_equal(W, V)
        assert np.shares_memory(V, y)  # unpack gives views of the flat state
    np.testing.assert_array_equal(net.pack(back), y)


@pytest.mark.parametrize("widths", [(3,), (3, 1), (3, 0, 1), (0, 2, 1)])
def test_invalid_widths_raise(widths):
    with pytest.raises(ValueError):
        BiasFreeNet(widths, kink=0.0)


# -- the gradient-flow field ---------------------------------------------------------------
def test_gradient_flow_field_includes_weight_decay_and_tau(backend):
    net = BiasFreeNet((3, 4, 1), kink=0.0)
    field = GradientFlow(net, Loss("square"))
    rng = np.random.default_rng(2)
    B = 3
    X, y = rng.normal(size=(6, 3)), rng.normal(size=6)
    tau, wd, alpha = [1.0, 0.5, 4.0], [0.0, 0.1, 2.0], [0.0, 0.5, 1.0]
    args = field.args(backend, X, y, alpha=alpha, tau=tau, weight_decay=wd)
    assert args["X"].shape == (1, 6, 3) and args["XT"].shape == (1, 3, 6)
    assert args["alpha"].shape == (B, 1, 1) and args["neg_inv_tau"].shape == (B, 1)
    state = backend.asarray(rng.normal(size=(B, net.n_params)))
    F = to_numpy(field(0.0, state, args))
    host = to_numpy(state)
    _, grads = net.loss_and_grad(
        net.unpack(host), X[None], X.T[None].copy(), y[None], np.reshape(alpha, (B, 1, 1)), Loss("square")
    )
    expected = -(net.pack(grads) + np.reshape(wd, (B, 1)) * host) / np.reshape(tau, (B, 1))
    np.testing.assert_allclose(F, expected, rtol=1e-12, atol=1e-15)
    # the loss it reports is the unregularised one
    np.testing.assert_allclose(
        to_numpy(field.loss_value(state, args)), to_numpy(field.loss_and_grad(state, args)[0]), rtol=1e-14
    )
    obs = field.observer(weights=True)(0.0, state, args)
    W1 = host[:, : 4 * 3]
    np.testing.assert_allclose(to_numpy(obs["norm_W1"]), np.linalg.norm(W1, axis=1), rtol=1e-13)


def test_gradient_flow_rejects_wrong_input_dimension():
    field = GradientFlow(BiasFreeNet((3, 4, 1), kink=0.0), Loss("square"))
    with pytest.raises(ValueError, match="does not match"):
        field.args(NP, np.zeros((5, 2)), np.zeros(5), alpha=0.0)


def test_backends_agree(backend):
    """A backend computes the numbers NumPy computes (float64 on both)."""
    net, Ws, X, XT, y, alpha = _problem(3, "logistic", seed=9)
    loss = Loss("logistic")
    v, g = net.loss_and_grad(Ws, X, XT, y, alpha, loss)
    dev = [backend.asarray(a) for a in (X, XT, y, alpha)]
    vb, gb = net.loss_and_grad([backend.asarray(W) for W in Ws], *dev[:3], dev[3], loss)
    np.testing.assert_allclose(to_numpy(vb), v, rtol=1e-12)
    for a, b in zip(g, gb, strict=True):
        np.testing.assert_allclose(to_numpy(b), a, rtol=1e-11, atol=1e-15)


# -- zhang2025 identities as properties ------------------------------------------------------
def _abs_forward_scale(W1, W2, XT):
    """|W2| |W1| |x|: the size of every partial sum in evaluating f (rounding scale)."""
    return (np.abs(W2) @ (np.abs(W1) @ np.abs(XT)))[:, 0, :]


two_layer = st.tuples(st.integers(1, 5), st.integers(1, 4), st.integers(1, 6))  # H, D, P


@given(shape=two_layer, data=st.data(), alpha=alphas())
def test_theorem_1_odd_part_is_linear(shape, data, alpha):
    r"""Theorem 1: :math:`f(x)-f(-x) = (1+\alpha)W_2W_1x` and :math:`f(x)+f(-x)=(1-\alpha)W_2|W_1x|`."""
    H, D, P = shape
    W1, W2 = data.draw(weights([(H, D), (1, H)], B=2))
    X = data.draw(data_matrices(P, D))
    XT = X.T[None].copy()
    net = BiasFreeNet((D, H, 1), kink=0.0)
    f, fm = net.output([W1, W2], XT, alpha), net.output([W1, W2], -XT, alpha)
    tol = 4 * (H + D + 2) * EPS * _abs_forward_scale(W1, W2, XT)
    np.testing.assert_array_less(np.abs(f - fm - (1 + alpha) * (W2 @ W1 @ XT)[:, 0, :]), tol + 1e-300)
    np.testing.assert_array_less(np.abs(f + fm - (1 - alpha) * (W2 @ np.abs(W1 @ XT))[:, 0, :]), tol + 1e-300)


def _ols_loss(X, y) -> float:
    w, *_ = np.linalg.lstsq(X, y, rcond=None)
    return 0.5 * float(np.mean((y - X @ w) ** 2))


@given(ds=symmetric_datasets(P=st.sampled_from([2, 4, 6, 8]), D=st.integers(1, 3)), data=st.data())
def test_square_loss_is_at_least_the_ols_loss_on_symmetric_data(ds, data):
    r"""On Condition-3 data the even part is orthogonal to odd residuals.

    Hence :math:`\mathcal L(W)\ge\mathcal L_{OLS}` for every weight, not only after training.
    """
    H = data.draw(st.integers(1, 5))
    alpha = data.draw(alphas())
    W1, W2 = data.draw(weights([(H, ds.D), (1, H)], B=1))
    net = BiasFreeNet((ds.D, H, 1), kink=0.0)
    f = net.output([W1, W2], ds.X.T[None].copy(), alpha)
    L = float(Loss("square").value(f, ds.y[None])[0])
    slack = 1e-9 * (float(np.mean(ds.y**2)) + float(np.mean(f**2))) + 1e-300
    assert L >= _ols_loss(ds.X, ds.y) - slack


def test_square_loss_below_ols_without_symmetry():
    """Control for the property above: on asymmetric data a ReLU net beats the best linear fit."""
    X = np.array([[1.0], [2.0], [-1.0]])
    y = np.array([1.0, 2.0, 1.0])  # y = |x|: even, not odd
    net = BiasFreeNet((1, 2, 1), kink=0.0)
    W1, W2 = np.array([[[1.0], [-1.0]]]), np.array([[[1.0, 1.0]]])  # f = relu(x) + relu(-x) = |x|
    f = net.output([W1, W2], X.T[None].copy(), 0.0)
    assert float(Loss("square").value(f, y[None])[0]) < _ols_loss(X, y) - 0.1


def _pairing_sides(W1, W2, X, alpha):
    """Both sides of zhang2025 eqs. (38) and (39) for one member, plus their rounding scales."""
    P = X.shape[0]
    Sigma = X.T @ X / P
    M = W2.T @ W2 @ W1  # (H, D)
    Z = W1 @ X.T  # (H, P)
    sigma = Activation(alpha, (1 + alpha) / 2)  # sigma'(0) = (1+alpha)/2: exact for z = 0 too
    slope = sigma.slope(Z)
    lhs38 = (slope * (M @ X.T)) @ X / P
    rhs38 = (alpha + 1) / 2 * M @ Sigma
    lhs39 = X.T @ sigma.value(Z).T / P
    rhs39 = (alpha + 1) / 2 * Sigma @ W1.T
    absX = np.abs(X)
    scale38 = np.abs(M) @ absX.T @ absX / P
    scale39 = absX.T @ (np.abs(W1) @ absX.T).T / P
    return (lhs38, rhs38, scale38), (lhs39, rhs39, scale39)


@given(ds=symmetric_datasets(P=st.sampled_from([2, 4, 6]), D=st.integers(1, 3)), data=st.data())
def test_pairing_identities_38_39(ds, data):
    r"""On symmetric data, any W: (38) :math:`\langle\sigma'(W_1x)\odot W_2^\top W_2W_1xx^\top\rangle
    = \tfrac{\alpha+1}2W_2^\top W_2W_1\Sigma`, (39) :math:`\langle x\sigma(W_1x)^\top\rangle
    = \tfrac{\alpha+1}2\Sigma W_1^\top`."""
    H = data.draw(st.integers(1, 4))
    alpha = data.draw(alphas())
    W1, W2 = (W[0] for W in data.draw(weights([(H, ds.D), (1, H)], B=1)))
    n = ds.P + ds.D + H + 2
    for lhs, rhs, scale in _pairing_sides(W1, W2, ds.X, alpha):
        np.testing.assert_array_less(np.abs(lhs - rhs), 8 * n * EPS * scale + 1e-300)


def test_pairing_identities_fail_without_symmetry():
    """Control: on generic (asymmetric) data both identities are off by O(1) for alpha < 1."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(7, 3)) + 0.5
    W1, W2 = rng.normal(size=(4, 3)), rng.normal(size=(1, 4))
    for lhs, rhs, scale in _pairing_sides(W1, W2, X, 0.2):
        assert np.max(np.abs(lhs - rhs)) > 1e-3 * np.max(scale)


@given(data=st.data(), alpha=alphas())
def test_balanced_rank_one_net_is_linear(data, alpha):
    r"""Assumption 7 (:math:`W_1=W_2^\top r^\top`, :math:`\|W_2^+\|=\|W_2^-\|`) makes the net linear.

    :math:`f(x)=\tfrac{\alpha+1}2W_2W_1x` for every input, not only symmetric data.
    """
    H, D, P = data.draw(st.integers(2, 6)), data.draw(st.integers(1, 4)), data.draw(st.integers(1, 5))
    W1, W2, _ = data.draw(balanced_rank_one_weights(H, D, B=2))
    X = data.draw(data_matrices(P, D))
    XT = X.T[None].copy()
    f = BiasFreeNet((D, H, 1), kink=0.0).output([W1, W2], XT, alpha)
    tol = 8 * (H + D + 2) * EPS * _abs_forward_scale(W1, W2, XT)
    np.testing.assert_array_less(np.abs(f - (alpha + 1) / 2 * (W2 @ W1 @ XT)[:, 0, :]), tol + 1e-300)


@pytest.mark.parametrize("imbalance", [1.0, 4.0])
def test_balanced_rank_one_initialization(imbalance):
    """numeric.data.initializations.balanced_rank_one lies on the Assumption-7 manifold (imbalance=1 only)."""
    rng = np.random.default_rng(0)
    B, H, D = 5, 7, 3
    r = np.array([1.0, 2.0, -2.0])
    W1, W2 = balanced_rank_one(rng, B, H, r, np.linspace(0.1, 10, B), imbalance=imbalance)
    assert W1.shape == (B, H, D) and W2.shape == (B, 1, H)
    np.testing.assert_allclose(np.linalg.norm(W2, axis=(1, 2)), np.linspace(0.1, 10, B), rtol=1e-13)
    np.testing.assert_allclose(W1, W2.swapaxes(1, 2) * (r / 3.0)[None, None, :], rtol=1e-15)
    np.testing.assert_allclose(sign_imbalance(W2), imbalance, rtol=1e-12)
    ds = symmetrize(rng.normal(size=(4, D)), rng.normal(size=4))
    XT = ds.X.T[None].copy()
    f = BiasFreeNet((D, H, 1), kink=0.0).output([W1, W2], XT, 0.0)
    err = np.max(np.abs(f - 0.5 * (W2 @ W1 @ XT)[:, 0, :]))
    if imbalance == 1.0:
        assert err < 1e-12 * np.max(np.abs(W2 @ W1 @ XT))
    else:  # the control: an unbalanced init is not linear
        assert err > 1e-2 * np.max(np.abs(W2 @ W1 @ XT))


def test_balanced_rank_one_needs_two_units():
    with pytest.raises(ValueError):
        balanced_rank_one(np.random.default_rng(0), 2, 1, np.ones(2), 1.0)


def test_gaussian_initialization_scale():
    net = BiasFreeNet((20, 50, 1), kink=0.0)
    Ws = gaussian(net, NP.rng(0), 4, [0.5, 1.0, 2.0, 8.0])
    assert [W.shape for W in Ws] == [(4, 50, 20), (4, 1, 50)]
    np.testing.assert_allclose(np.linalg.norm(Ws[0], axis=(1, 2)), [0.5, 1.0, 2.0, 8.0], rtol=0.1)
    again = gaussian(net, NP.rng(0), 4, [0.5, 1.0, 2.0, 8.0])
    for a, b in zip(Ws, again, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("depth", [2, 3, 4])
@pytest.mark.parametrize("per_member_data", [False, True])
@pytest.mark.parametrize("kind", ["square", "logistic"])
def test_scaled_grad_is_the_packed_gradient_times_scale(depth, per_member_data, kind):
    """The field's hot path (one GEMM per first layer for shared data, einsum for the scalar
    output layer, gradients written into the flat result) equals ``scale * pack(grads)`` of
    the plain backpropagation, for every depth, shared and per-member data."""
    net, Ws, X, XT, y, alpha = _problem(depth, kind, per_member_data=per_member_data, seed=7)
    loss = Loss(kind)
    scale = np.array([[-1.0], [-0.5], [-4.0]])
    _, grads = net.loss_and_grad(Ws, X, XT, y, alpha, loss)
    got = net.scaled_grad(net.pack(Ws), X, XT, y, alpha, loss, scale)
    np.testing.assert_allclose(got, scale * net.pack(grads), rtol=1e-13, atol=1e-16)


def test_sliding_slopes_on_a_mirror_pair(backend):
    """Mirror-symmetric data put ``x`` and ``-x`` on a neuron's surface together: the Filippov
    block is singular (rows/columns of ``x``, ``-x`` are negatives: the LU pivot is exactly 0).
    The minimum-norm slopes are finite and keep the surface still (``x . w' = 0`` to rounding:
    sums of ~P^2 products of O(1) terms, 1e-13), the mirror entry's slope splits the same field,
    and a regular block (the pair's second entry off the sliding set) is solved as before."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=3)
    X = np.stack([x, -x, rng.normal(size=3), rng.normal(size=3)])  # (P, D)
    back = rng.normal(size=(1, 2, 4))
    slope1 = rng.uniform(0.2, 1.0, size=(1, 2, 4))
    sliding = np.zeros((1, 8), dtype=bool)
    sliding[0, [0, 1]] = True  # neuron 0 on the surfaces of x and -x

    def slopes(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out = BiasFreeNet.sliding_slopes(*map(backend.asarray, (slope1, back, mask, (X @ X.T)[None])), 0.2)
        return to_numpy(out[0]), to_numpy(out[1])

    def normal_velocity(s: np.ndarray) -> float:
        return float(x @ ((s[0, 0] * back[0, 0]) @ X))

    _, star = slopes(sliding)
    assert np.isfinite(star[0, :2]).all() and np.isnan(star[0, 2:]).all()
    unclipped = slope1.copy()
    unclipped[0, 0, :2] = star[0, :2]
    assert abs(normal_velocity(unclipped)) < 1e-13 * np.abs(back).max() * (X**2).sum()
    one = sliding.copy()
    one[0, 1] = False
    _, star1 = slopes(one)
    single = slope1.copy()
    single[0, 0, 0] = star1[0, 0]
    assert abs(normal_velocity(single)) < 1e-13 * np.abs(back).max() * (X**2).sum()
