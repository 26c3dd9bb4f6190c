"""kumar2025 Lemma 10's instance search decides the limit statement only where its horizon reaches the
regime (issue 14): a start near a saddle's stable manifold is undecided at a short horizon, not a
violation, and a fault in the flow's radii still fails the search."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import verify.papers.kumar2025.flows as flows
from numeric.backend import get_backend
from verify.claim import registered
from verify.papers.kumar2025.flows import Lemma10Search, _quartic_blocks
from verify.profiles import get_profile
from verify.runner import run_claim


@pytest.fixture(scope="module")
def blocks() -> dict[str, np.ndarray]:
    return _quartic_blocks(np.random.default_rng(0), [1.0, 1.0, 0.3, 0.55])


@pytest.fixture(scope="module")
def slow(blocks) -> np.ndarray:
    return slow_start(blocks)


def slow_start(args: dict[str, np.ndarray]) -> np.ndarray:
    """Block 0 within ~1e-12 of the stable manifold of the saddle near its second eigenvector (found by
    bisection on which of +-w* the start ends at; G < 0 there): it shrinks until it escapes at t ~ 20
    while blocks 2 and 3 grow, so at t = 30 they still outweigh it."""
    V = np.linalg.eigh(args["S"][0])[1]
    one = {k: v[:1] for k, v in args.items()}

    def start(s: float) -> np.ndarray:
        return V[:, -2] + s * V[:, -1]

    def side(s: float) -> float:
        fl = flows.polar_flow(
            flows._quartic_vg, start(s)[None], 2, np.array([0.0, 60.0]), args=one, rtol=1e-10
        )
        return float(np.sign(fl.theta[0, -1] @ V[:, -1]))

    lo, hi = -0.5, 0.5
    assert side(lo) != side(hi)
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if side(mid) == side(lo) else (lo, mid)
    return np.concatenate([start(lo), np.random.default_rng(1).normal(size=6)])


def test_a_late_aligning_start_is_undecided_at_a_short_horizon(blocks, slow, monkeypatch) -> None:
    monkeypatch.setattr(flows, "T_SEARCH", 30.0)
    objective = Lemma10Search(blocks)
    assert objective(slow) <= 1.0
    assert objective.undecided["fraction"] == objective.undecided["rate"] == 1
    assert objective.furthest["predicted rho(T)"] > 1.0  # the non-dominant blocks still outweigh block 0


def test_the_same_start_is_decided_and_holds_at_the_search_horizon(blocks, slow) -> None:
    """Decided means the predicted departure from the limit is <= a tenth of each tolerance."""
    objective = Lemma10Search(blocks)
    assert objective(slow) <= 0.1
    assert objective.undecided == {"fraction": 0, "rate": 0, "cosine": 0}


def test_a_wrong_growth_rate_of_one_block_fails_the_search(blocks, monkeypatch) -> None:
    """Block 2's radius growing at 2 G + 0.01 (a fault in the radial part of the flow): its fraction
    decays 0.01 slower than -2 (G*_0 - G*_2), 100 x the rate tolerance, inside the regime."""
    polar = flows.polar_flow

    def faulty(*a, **k):
        fl = polar(*a, **k)
        return replace(fl, log_r=fl.log_r + 0.01 * fl.taus * np.array([0, 0, 1, 0])[:, None])

    monkeypatch.setattr(flows, "polar_flow", faulty)
    objective = Lemma10Search(blocks)
    assert objective(np.random.default_rng(2).normal(size=9)) > 50
    assert objective.undecided["rate"] == 0


def test_a_horizon_that_decides_no_instance_is_inconclusive(monkeypatch) -> None:
    """With a horizon of t = 2 no instance reaches the regime of the fraction and rate conclusions: the
    search's ratio covers none of them, so the claim records them undecided instead of passing."""
    monkeypatch.setattr(flows, "T_SEARCH", 2.0)
    record = run_claim(
        registered()["kumar2025:lemma-10"], backend=get_backend("numpy"), profile=get_profile("tiny"), seed=0
    )
    assert record.verdict == "INCONCLUSIVE"
    undecided = [c for c in record.checks if c.name.endswith("(4 blocks): fraction, rate, cosine")]
    assert [c.outcome.value for c in undecided] == ["inconclusive"]
