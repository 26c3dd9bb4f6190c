"""Proposition 12 on the exact manifold (18) (symbolic.deep)."""

import sympy as sp

from symbolic import deep
from symbolic.exact import all_zero


def test_manifold_intermediate_weights_nonnegative_and_balanced():
    Ws = deep.manifold_weights(u=1)
    assert all(v >= 0 for v in Ws[1])
    for h in deep.R_HIDDEN:
        pos = sum(v**2 for v in h if v > 0)
        neg = sum(v**2 for v in h if v < 0)
        assert pos == neg == sp.Rational(1, 2)


def test_prop12_network_is_linear_eq19():
    out = deep.prop12_output_residuals()
    assert len(out) == 6
    assert all(v == 0 for v in out.values())


def test_prop12_gradients_eq55_57_exact():
    out = deep.prop12_gradient_residuals(kink=0)
    assert all_zero(*out["residuals"], *out["offdiag"])


def test_prop12_kink_one_feeds_offdiagonal_blocks():
    out = deep.prop12_gradient_residuals(kink=1)
    assert not all_zero(*out["offdiag"])
    assert not all_zero(*out["residuals"])


def test_eq20_differs_from_exact_only_in_intermediate_offdiagonal_blocks():
    res = deep.eq20_residuals()
    assert all_zero(res[0], res[-1])
    assert not all_zero(res[1])
    mask = deep.same_sign_mask(deep.R_HIDDEN[1], deep.R_HIDDEN[0])
    assert all_zero(res[1].multiply_elementwise(mask))
