"""kumar2025 saddle_figures: hypotheses read as regimes, not scored as conclusions.

Lemma 18's hypotheses on c, c' are a regime (``LEMMA_18_C``); its search scores only the conclusions and
leaves a point outside the hypotheses out (ratio 0), never a violation.  ``W0_STABLE`` reads the blow-up
gap T_1 - T_0 of lemma-4's starts.
"""

from __future__ import annotations

import math

import pytest

from verify.papers.kumar2025 import saddle_figures as sf
from verify.papers.kumar2025.saddle_figures import LEMMA_18_C, W0_STABLE


def _stated(p: int) -> dict[str, float]:
    return {k: float(v) for k, v in (sf._l18_hypothesis(p) | sf._l18_conclusions(p)).items()}


def test_w0_stable_reads_the_blow_up_gap() -> None:
    assert W0_STABLE.condition
    assert W0_STABLE.evaluate(gap=1e-3)
    assert W0_STABLE.evaluate(gap=math.inf)  # neuron 1 never blows up
    assert not W0_STABLE.evaluate(gap=0.0)  # the control's split start: both neurons blow up together


def test_lemma_18_c_edges() -> None:
    inside = {
        "p": 4,
        "c": 5,
        "grad_z_c": 4,
        "grad_n_c": 5,
        "c_prime": 5,
        "grad_z_c_prime": 4,
        "grad_n_c_prime": 5,
    }
    assert LEMMA_18_C.evaluate(**inside)
    assert LEMMA_18_C.evaluate(**(inside | {"c": math.inf}))  # c identically 0
    for key in ("c", "grad_z_c", "grad_n_c", "c_prime", "grad_z_c_prime", "grad_n_c_prime"):
        assert not LEMMA_18_C.evaluate(**(inside | {key: inside[key] - 1}))


def test_hypotheses_and_conclusions_are_disjoint() -> None:
    assert not set(sf._l18_hypothesis(4)) & set(sf._l18_conclusions(4))
    assert set(sf._l18_hypothesis(4)) == set(sf._L18_C_KEYS)


def test_ratio_scores_the_conclusions_only() -> None:
    orders = _stated(4)
    assert sf._l18_ratio(orders, 4) == 1.0  # the stated powers attained: tight, not violated
    assert sf._l18_ratio(orders | {"grad_n a": 9.0}, 4) == pytest.approx(10 / 9)  # a conclusion fails
    assert sf._l18_ratio(orders | {"c": 4.0}, 4) is None  # outside the hypotheses: no verdict
    assert sf._l18_ratio(orders | {"c": 4.0, "a": 1.0}, 4) is None


def test_search_excludes_points_outside_the_hypotheses(monkeypatch: pytest.MonkeyPatch) -> None:
    theta = [0.0] * (sf.L18_SIZE + 1)
    excluded: list = []
    outside = _stated(4) | {"grad_z c'": 3.0, "a": 9.0}  # a conclusion short, but the hypothesis fails too
    monkeypatch.setattr(sf, "_l18_orders", lambda *args: outside)
    assert sf._l18_violation(theta, excluded) == 0.0
    assert len(excluded) == 1
    monkeypatch.setattr(sf, "_l18_orders", lambda *args: _stated(4) | {"a": 9.0})
    assert sf._l18_violation(theta, excluded) == pytest.approx(10 / 9)
    assert len(excluded) == 1
