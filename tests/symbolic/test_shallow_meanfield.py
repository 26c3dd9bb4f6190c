"""Exact identities of symbolic.shallow_meanfield (dana2025)."""

from __future__ import annotations

import sympy as sp

from symbolic import shallow_meanfield as sym


def test_coordinates_balance_curvature_identities():
    res = sym.coordinate_residuals(2, 2, 2)
    for key in ("eq13", "eq14", "lemma1", "eq15"):
        assert all(e == 0 for e in res[key]), key
    for key in ("mu_C2", "mu_16", "dL_corrected"):
        assert res[key] == 0, key
    assert res["dL_printed"] != 0  # the printed dL/dt of (16) is off by 2n


def test_group_closed_forms():
    res = sym.group_residuals()
    for key in (
        "z ode",
        "z(0)",
        "F' = c z F",
        "(int F)' = F",
        "v(0)",
        "v limit",
        "(67) = corrected at z0 = 1",
    ):
        assert res[key] == 0, key
    assert abs(res["(67) printed, z ode at a point"]) > 1e-3


def test_logistic_window_and_constants():
    lw = sym.logistic_window()
    assert lw["time ratio residual"] == 0 and lw["window residual"] == 0
    assert sym.lemma3_squaring() == 0
    assert sym.theorem1_constants()["(39): 2 * 3/5 = 6/5"] == 0
    assert not sym.lemma5_constants()["(18) needs 3 log 2 <= 1"]


def test_beta0_and_moments():
    s = sp.Symbol("sigma", positive=True)
    mom = sym.gaussian_moments()
    assert sp.simplify(mom["E[g+^2]"] - s**2 / 2) == 0
    assert sym.beta0_catalog_residual(2) == 0
