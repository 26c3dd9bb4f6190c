"""kou2023's ReLU near-orthogonality regime reads Lemma E.1's premise 2 c' kappa / c1 <= 1/2 with the run's
measured constants (Ens.cprime, Ens.balance_constant, Ens.e1_premise)."""

from __future__ import annotations

import numpy as np

from numeric.backend import get_backend
from numeric.data.near_orthogonal import alternating_labels, controlled_gram
from verify.context import Context
from verify.papers.kou2023.common import Setup, regime_readings, run
from verify.papers.kou2023.hypotheses import NEAR_ORTH_RELU
from verify.profiles import get_profile


def _ens(kappa: float):
    ctx = Context("kou2023:lemma-E.2", get_backend("numpy"), get_profile("tiny"), 0)
    y = alternating_labels(6)
    data = controlled_gram(np.random.default_rng(0), y, kappa, d=2000)
    return run(ctx, "t", Setup(data, 8, (0.0,), 2, 0.05, 1e-3, 300))


def test_premise_is_the_formula_of_the_measured_constants():
    ens = _ens(0.05)
    S = ens.own_class_active().sum(axis=1)  # (B, n): |S_i(0)|
    assert np.array_equal(ens.cprime(), ens.setup.m / np.maximum(S.min(axis=1), 1))
    c1 = ens.balance_constant()
    assert np.all((c1 > 0) & (c1 <= 1 + 1e-12))
    assert np.isclose(ens.e1_premise(), float((2 * ens.cprime() * ens.setup.data.kappa / c1).max()))


def test_orthogonal_data_meet_the_premise_and_a_large_kappa_does_not():
    assert _ens(0.0).e1_premise() == 0.0
    reading = regime_readings(_ens(0.09))[NEAR_ORTH_RELU.name]
    # R^2 kappa = 0.09 <= 0.1 passes the old reading; the measured premise (c' >= 2, c1 <= 1) does not
    assert reading.quantities["e1_premise"] > 0.5
    assert not NEAR_ORTH_RELU.test(**reading.quantities)
