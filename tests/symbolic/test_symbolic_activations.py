"""Exact identities of symbolic.activations (eq. 8, Theorem 1, eq. 9, Corollary 10)."""

import sympy as sp

from symbolic import activations as act


def test_leaky_relu_branches_and_kink():
    a, k = sp.Symbol("a"), sp.Symbol("k")
    assert act.leaky_relu(3, a) == 3
    assert act.leaky_relu(-3, a) == -3 * a
    assert act.leaky_relu(0, a) == 0
    assert act.leaky_relu_derivative(sp.Rational(1, 7), a, k) == 1
    assert act.leaky_relu_derivative(-2, a, k) == a
    assert act.leaky_relu_derivative(0, a, k) == k


def test_decomposition_eq8_holds_for_alpha_at_most_one():
    assert act.decomposition_residuals() == {"z>0": 0, "z<0": 0}


def test_decomposition_printed_coefficient_wrong_above_one():
    out = act.decomposition_residual_alpha_above_one()
    assert all(v != 0 for v in out["printed"].values())
    assert all(v == 0 for v in out["corrected"].values())


def test_pairing_identities_and_kink_value():
    out = act.pairing_identities()
    kink = out.pop("kink")
    assert all(v == 0 for v in out.values())
    assert len(out) == 5
    assert sp.simplify(kink - (1 + act.ALPHA) / 2) == 0


def test_theorem1_odd_even_homogeneous_all_sign_patterns():
    out = act.theorem1_residuals()
    assert len(out) == 9
    assert all(v == 0 for case in out.values() for v in case.values())


def test_eq9_odd_homogeneous_and_decided_in_every_region():
    out = act.eq9_residuals()
    assert len(out) == 17
    for case in out.values():
        assert case["odd"] == 0
        assert case["homogeneous"] == 0
        assert case["decided"] == 1


def test_eq9_is_not_linear():
    v = act.eq9_values()
    assert (v["g(1,0)"], v["g(0,1)"], v["g(1,1)"]) == (1, 0, 0)
    assert v["linearity_defect"] == -1


def test_eq9_three_layer_net_equals_g():
    W1, W2, W3 = act.eq9_three_layer_weights()
    assert (W1.shape, W2.shape, W3.shape) == ((4, 2), (2, 4), (1, 2))
    assert all(v == 0 for v in act.eq9_three_layer_residuals().values())


def test_eq9_three_layer_net_not_odd_without_mirror_units():
    """Control: dropping the mirrored half of the construction breaks oddness."""
    x = (sp.Integer(2), sp.Integer(1))
    W1, W2, _ = act.eq9_three_layer_weights()
    W3_bad = sp.Matrix([[1, 0]])

    def net(v):
        h = (W2 * (W1 * sp.Matrix(v)).applyfunc(act.relu)).applyfunc(act.relu)
        return (W3_bad * h)[0]

    assert net(x) + net((-x[0], -x[1])) != 0


def test_corollary10_cross_term_vanishes():
    assert act.corollary10_cross_term() == {"cross_term": 0, "loss_split": 0}
