"""dana2025 Lemma 1 search: the instances satisfy Assumption 1 with neuron 0 at the kink, the toolkit's flow
(3) stays inside the rounding bound, and a field that does not conserve a^2 - ||w||^2 exceeds it."""

from __future__ import annotations

import numpy as np

from verify.papers.dana2025.balance import SHAPE, defect_ratio, field, instance, min_gap, starts
from verify.search import worst_instance


def _thetas() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    fams = [t for ts in starts(rng).values() for t in ts]
    return fams + [t + rng.normal(scale=s, size=t.shape) for t in fams for s in (0.3, 3.0)]


def test_instances_satisfy_assumption_1_with_a_neuron_at_the_kink():
    thetas = _thetas()
    assert min_gap(thetas) >= 0
    assert (
        min_gap(starts(np.random.default_rng(1))["Assumption 1 at equality, small init (residual ~ y)"])
        < 1e-9
    )
    for theta in thetas:
        inst = instance(theta, *SHAPE)
        z = inst.W[0] @ inst.X[0]
        assert abs(z) <= 1e-14 * np.linalg.norm(inst.W[0]) * np.linalg.norm(inst.X[0])


def test_the_flow_conserves_the_balance_to_rounding():
    assert max(defect_ratio(t) for t in _thetas()) <= 1


def test_a_field_that_breaks_the_balance_exceeds_the_bound():
    def scaled(eps: float):
        def flow(inst):
            dW, da, r = field(inst)
            return dW * (1 + eps), da, r

        return flow

    st = starts(np.random.default_rng(2))
    assert worst_instance(lambda t: defect_ratio(t, flow=scaled(1e-12)), st, budget=5).ratio > 1
    # the mean-field 1/p put on the first layer only (p = 2): an O(1) defect wherever a neuron is active
    assert max(defect_ratio(t, flow=scaled(1 / SHAPE[1] - 1)) for t in _thetas()) > 1e6
