"""The shallow 1/p-scaled ReLU model: exact reductions, the field, the curvature, padding."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from weakly_correlated_strategies import group_initializations, network_states, weakly_correlated_data

from numeric.backend import get_backend
from numeric.data.weakly_correlated import gram_to_inputs, group_init
from numeric.models.shallow_relu import ShallowReLU, gram_state

BE = get_backend("numpy")


def _full_and_gram(data, states, d):
    _, y, G = data
    W, a = states
    X = gram_to_inputs(G, d, np.random.default_rng(0))
    p = W.shape[1]
    full = ShallowReLU(p, d, "full")
    gram = ShallowReLU(p, len(y), "gram")
    V, _, wperp2 = gram_state(W, a, X)
    full_case = (full, full.pack((W, a)), full.args(BE, X, y))
    gram_case = (gram, gram.pack((V, a)), gram.args(BE, G, y, wperp2=wperp2))
    return full_case, gram_case, X


@settings(max_examples=30)
@given(data=weakly_correlated_data(), states=network_states(B=3, p=4, d=12))
def test_gram_reduction_is_exact(data, states):
    """v = X w: the Gram field equals X applied to the full field; loss, curvature, ||w|| agree."""
    (full, yf, af), (gram, yg, ag), X = _full_and_gram(data, states, 12)
    dWf, daf = full.unpack(full(None, yf, af))
    dVg, dag = gram.unpack(gram(None, yg, ag))
    scale = max(1.0, float(np.abs(dVg).max()))
    np.testing.assert_allclose(dWf @ X.T, dVg, atol=1e-11 * scale)
    np.testing.assert_allclose(daf, dag, rtol=1e-11, atol=1e-12)
    np.testing.assert_allclose(full.loss_value(yf, af), gram.loss_value(yg, ag), rtol=1e-12)
    np.testing.assert_allclose(full.curvature(yf, af), gram.curvature(yg, ag), rtol=1e-9)
    np.testing.assert_allclose(full.weight_sqnorm(yf, af), gram.weight_sqnorm(yg, ag), rtol=1e-9)


@settings(max_examples=20)
@given(states=network_states(B=2, p=3, d=5), n=st.integers(2, 5))
def test_orthogonal_reduction_equals_diagonal_gram(states, n):
    rng = np.random.default_rng(n)
    c, y = rng.uniform(1, 2, n), rng.choice([-1.0, 1.0], n) * rng.uniform(1, 2, n)
    V = states[0][:, :, :n]
    a = states[1]
    orth, gram = ShallowReLU(3, n, "orthogonal"), ShallowReLU(3, n, "gram")
    ao, ag = orth.args(BE, c, y), gram.args(BE, np.diag(c**2), y)
    s = orth.pack((V, a))
    np.testing.assert_allclose(orth(None, s, ao), gram(None, s, ag), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(orth.curvature(s, ao), gram.curvature(s, ag), rtol=1e-12)


@settings(max_examples=20)
@given(data=weakly_correlated_data(n=4), states=network_states(B=2, p=3, d=6))
def test_field_is_minus_p_grad_loss(data, states):
    """Central differences of L along random directions match -<field, direction>/p."""
    (full, yf, af), *_ = _full_and_gram(data, states, 6)
    F = full(None, yf, af)
    u = np.random.default_rng(1).normal(size=yf.shape)
    h = 1e-6
    dL = (full.loss_value(yf + h * u, af) - full.loss_value(yf - h * u, af)) / (2 * h)
    np.testing.assert_allclose(dL, -(F * u).sum(axis=1) / full.p, rtol=1e-5, atol=1e-9)


@settings(max_examples=20)
@given(data=weakly_correlated_data(n=4), states=network_states(B=2, p=3, d=6), lr=st.floats(1e-3, 0.1))
def test_gd_step_changes_balance_by_lr_squared(data, states, lr):
    """Lemma 1 in discrete time: one GD step moves a^2 - ||w||^2 by exactly lr^2 (da^2 - ||dw||^2)."""
    (full, yf, af), *_ = _full_and_gram(data, states, 6)
    F = full(None, yf, af)
    dW, da = full.unpack(F)
    lhs = full.balance(yf + lr * F, af) - full.balance(yf, af)
    rhs = lr**2 * (da**2 - (dW**2).sum(axis=2))
    np.testing.assert_allclose(lhs, rhs, atol=1e-10 * (1 + np.abs(full.balance(yf, af)).max()))


def test_padding_leaves_each_member_unchanged():
    """Members of different (p, n) padded into one program follow their own unpadded dynamics."""
    rng = np.random.default_rng(3)
    d, cases = 4, [(2, 3), (3, 5)]
    pmax, nmax = 3, 5
    Xp, Yp, Wp, Ap, sizes, singles = np.zeros((2, nmax, d)), np.zeros((2, nmax)), [], [], [], []
    for b, (p, n) in enumerate(cases):
        X, y = rng.normal(size=(n, d)), rng.normal(size=n)
        W, a = rng.normal(size=(1, p, d)), rng.normal(size=(1, p))
        Xp[b, :n], Yp[b, :n] = X, y
        Wpad, Apad = np.zeros((1, pmax, d)), np.zeros((1, pmax))
        Wpad[0, :p], Apad[0, :p] = W[0], a[0]
        Wp.append(Wpad), Ap.append(Apad), sizes.append((p, n))
        m = ShallowReLU(p, d, "full")
        singles.append((m, m.pack((W, a)), m.args(BE, X, y)))
    big = ShallowReLU(pmax, d, "full")
    yb, ab = big.pack((np.concatenate(Wp), np.concatenate(Ap))), big.args(BE, Xp, Yp, sizes=np.array(sizes))
    Fb = big.unpack(big(None, yb, ab))
    for b, (m, y1, a1) in enumerate(singles):
        p = cases[b][0]
        F1 = m.unpack(m(None, y1, a1))
        np.testing.assert_allclose(Fb[0][b, :p], F1[0][0], rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(Fb[1][b, :p], F1[1][0], rtol=1e-12, atol=1e-14)
        np.testing.assert_array_equal(Fb[0][b, p:], 0.0)
        np.testing.assert_allclose(big.loss_value(yb, ab)[b], m.loss_value(y1, a1)[0], rtol=1e-12)
        np.testing.assert_allclose(big.curvature(yb, ab)[b], m.curvature(y1, a1)[0], rtol=1e-12)


@settings(max_examples=20)
@given(group=group_initializations())
def test_group_initialization_decouples(group):
    """Off-group coordinates are exactly 0 and stay so; each group's field only involves its labels."""
    gammas, y = group
    p, k = gammas.shape
    signs = np.sign(y.reshape(p, k)[:, 0])
    V, a = group_init(gammas[None], signs[None])
    m = ShallowReLU(p, p * k, "orthogonal")
    args = m.args(BE, np.ones(p * k), y)
    dV, _ = m.unpack(m(None, m.pack((V, a)), args))
    off = np.ones((p, p * k), bool)
    for j in range(p):
        off[j, j * k : (j + 1) * k] = False
    assert np.all(dV[0][off] == 0.0)
    np.testing.assert_allclose(a[0] ** 2, (V[0] ** 2).sum(axis=1))


def test_kink_convention():
    """A pre-activation exactly at 0 with a_j r_i > 0 stays frozen for sigma'(0)=0 and moves for 1."""
    V, a = np.array([[[0.5, 0.0]]]), np.array([[1.0]])
    for kink, moves in ((0.0, False), (1.0, True)):
        m = ShallowReLU(1, 2, "orthogonal", kink=kink)
        dV, _ = m.unpack(m(None, m.pack((V, a)), m.args(BE, np.ones(2), np.ones(2))))
        assert (dV[0, 0, 1] > 0) == moves
