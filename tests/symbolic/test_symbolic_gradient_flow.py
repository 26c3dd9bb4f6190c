"""symbolic.gradient_flow: the differentiated fields against hand-written (2), (3), C.2."""

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symbolic.activations import ALPHA
from symbolic.exact import all_zero, as_column, expand_matrix, moments
from symbolic.gradient_flow import deep_field, linear_field, two_layer_field

R = sp.Rational


def _sigma(z, a):
    return z if z > 0 else a * z


def _dsigma(z, a, kink):
    return 1 if z > 0 else (kink if z == 0 else a)


def _eq2(W1, W2, X, y, a, kink):
    """Eq. (2) written out sample by sample."""
    P = X.rows
    d1, d2 = sp.zeros(*W1.shape), sp.zeros(*W2.shape)
    for mu in range(P):
        x = X[mu, :].T
        z = W1 * x
        s = z.applyfunc(lambda v: _sigma(v, a))
        err = y[mu] - (W2 * s)[0]
        ds = sp.Matrix([_dsigma(v, a, kink) for v in z])
        d1 += ds.multiply_elementwise(W2.T) * err * x.T
        d2 += err * s.T
    return d1 / P, d2 / P


rationals = st.fractions(min_value=-3, max_value=3, max_denominator=5).map(sp.Rational)


@settings(max_examples=6, deadline=None, database=None)
@given(
    w1=st.lists(rationals, min_size=6, max_size=6),
    w2=st.lists(rationals, min_size=3, max_size=3),
    x=st.lists(rationals, min_size=8, max_size=8),
    y=st.lists(rationals, min_size=4, max_size=4),
    kink=st.sampled_from([0, 1, R(1, 2)]),
)
def test_two_layer_field_matches_eq2(w1, w2, x, y, kink):
    W1, W2 = sp.Matrix(3, 2, w1), sp.Matrix(1, 3, w2)
    X, yv = sp.Matrix(4, 2, x), as_column(y)
    got = two_layer_field(W1, W2, X, yv, ALPHA, kink=kink)
    want = _eq2(W1, W2, X, yv, ALPHA, kink)
    assert all_zero(*(expand_matrix(g - w) for g, w in zip(got, want, strict=True)))


def test_kink_convention_used_at_exact_zero():
    W1, W2 = sp.Matrix([[1, -1]]), sp.Matrix([[2]])
    X, y = sp.Matrix([[1, 1]]), [3]  # pre-activation exactly 0
    d0 = two_layer_field(W1, W2, X, y, ALPHA, kink=0)[0]
    d1 = two_layer_field(W1, W2, X, y, ALPHA, kink=1)[0]
    assert all_zero(d0)
    assert d1 == sp.Matrix([[6, 6]])


def test_tau_divides_the_field():
    tau = sp.Symbol("tau", positive=True)
    W1, W2, X, y = sp.Matrix([[1, 2]]), sp.Matrix([[3]]), sp.Matrix([[1, 0], [0, -1]]), [1, 2]
    a = two_layer_field(W1, W2, X, y, ALPHA, tau=tau)
    b = two_layer_field(W1, W2, X, y, ALPHA)
    assert all_zero(*(expand_matrix(u * tau - v) for u, v in zip(a, b, strict=True)))


def test_logistic_field_matches_corrected_c2_form():
    W1, W2 = sp.Matrix([[1, -2], [R(1, 2), 1]]), sp.Matrix([[1, -1]])
    X, y = sp.Matrix([[1, 1], [2, -1], [-1, 3]]), as_column([1, -1, 1])
    got = two_layer_field(W1, W2, X, y, ALPHA, loss="logistic")
    d1, d2 = sp.zeros(2, 2), sp.zeros(1, 2)
    for mu in range(3):
        x = X[mu, :].T
        z = W1 * x
        s = z.applyfunc(lambda v: _sigma(v, ALPHA))
        q = y[mu] / (1 + sp.exp(y[mu] * (W2 * s)[0]))
        ds = sp.Matrix([_dsigma(v, ALPHA, 0) for v in z])
        d1 += ds.multiply_elementwise(W2.T) * q * x.T
        d2 += q * s.T
    for g, w in zip(got, (d1 / 3, d2 / 3), strict=True):
        diff = (g - w).subs(ALPHA, R(1, 3))
        assert all(abs(sp.N(v, 30)) < 1e-25 for v in diff)


def test_deep_field_two_layers_equals_two_layer_field():
    W1, W2 = sp.Matrix([[1, -2], [R(1, 2), 1], [-1, 0]]), sp.Matrix([[1, -1, 2]])
    X, y = sp.Matrix([[1, 1], [2, -1], [-1, 3]]), [1, 0, -2]
    a = deep_field([W1, W2], X, y, ALPHA)
    b = two_layer_field(W1, W2, X, y, ALPHA)
    assert all_zero(*(u - v for u, v in zip(a, b, strict=True)))


def test_alpha_one_is_the_linear_network_eq3():
    W1, W2 = sp.Matrix([[1, -2], [R(1, 2), 1]]), sp.Matrix([[1, -1]])
    X, y = sp.Matrix([[1, 1], [2, -1], [-1, 3]]), [1, 0, -2]
    Sigma, beta = moments(X, y)
    a = two_layer_field(W1, W2, X, y, 1)
    b = linear_field(W1, W2, Sigma, beta)
    assert all_zero(*(expand_matrix(u - v) for u, v in zip(a, b, strict=True)))


def test_deep_linear_field_eq7():
    """alpha = 1 in deep_field reproduces (7) for L = 3."""
    Ws = [sp.Matrix([[1, 2], [0, -1]]), sp.Matrix([[1, 1], [-1, 2]]), sp.Matrix([[2, -1]])]
    X, y = sp.Matrix([[1, 1], [2, -1], [-1, 3]]), [1, 0, -2]
    Sigma, beta = moments(X, y)
    err = beta.T - Ws[2] * Ws[1] * Ws[0] * Sigma
    want = [(Ws[2] * Ws[1]).T * err, Ws[2].T * err * Ws[0].T, err * (Ws[1] * Ws[0]).T]
    got = deep_field(Ws, X, y, 1)
    assert all_zero(*(expand_matrix(u - v) for u, v in zip(got, want, strict=True)))
