"""zhang2025 Conjecture 11: the structure residuals of a trained deep net (deep.structure_metrics)."""

import numpy as np

from verify.papers.zhang2025.deep import structure_metrics


def test_a_net_with_an_empty_half_reads_imbalance_1():
    """Conjecture 11's uneven-input control trains such nets (full profile): ||r_1^+|| = 0 must read as
    the largest imbalance, 1, not divide by zero in the next layer's ratio."""
    rng = np.random.default_rng(0)
    W1 = np.abs(rng.normal(size=(6, 3)))
    Ws = [W1, rng.normal(size=(6, 6)), rng.normal(size=(1, 6))]
    assert structure_metrics(Ws, rng.normal(size=(3, 20)))["imbalance"] == 1.0
