"""Exact identities of the balanced two-layer ReLU flow (min2024 eq. (3), catalog C1-C2)."""

from symbolic.balanced_flow import balancedness_rate, direction_residual, log_norm_residual


def test_balancedness_is_conserved():
    assert balancedness_rate(2, 3) == 0


def test_directional_dynamics_exact():
    assert direction_residual(2, 2).is_zero_matrix


def test_log_norm_dynamics_exact():
    assert log_norm_residual(3, 2) == 0
