"""kou2023 Lemma F.1: the (F.2) growth step is scored only inside the premise q_j <= 1/2, where the chain
gives the cancellation ratio >= 2 (1 - q_j) (so that step is recorded, never checked); outside it (the full
profile's search instance that read 1e6) the instance is undecided and counted, and there the cancellation
ratio goes negative; a search whose instances are all undecided is undecided, not a pass."""

from __future__ import annotations

from fnmatch import fnmatch

import numpy as np

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.kou2023 import appendix_ef
from verify.papers.kou2023.instances import Probe, Region, instance, search
from verify.profiles import get_profile

CTX = Context("kou2023:lemma-F.1", get_backend("numpy"), get_profile("tiny"), 0)
STEP1 = "(F.2) sum_r sum_i rho_(j,r,i)*"
# the worst instance of the full profile's search in the record of 17:52 (git 984d3a4; ratio 1e6), to 5
# digits: kappa = 0.082 inside the claim's old region R^2 kappa <= 0.1, m = 3, min |S_i(0)| = 1,
# c1 = 0.475: q_- = 1.05
FULL_WORST = np.array([0.32901, 1.58128, 1.95473, -3.38189, -1.02156, 0.64307, 0.67915, 0.77321])
OLD_REGION = Region((0.0, 0.0), 0.2, m=3, steps=1000)


def test_the_full_profile_instance_is_outside_the_premise_and_undecided():
    ens = instance(CTX, FULL_WORST, OLD_REGION)
    q = appendix_ef._f2_premise(ens)
    assert q.max() > 1.0
    probe = Probe(["(F.2)*"])
    appendix_ef._f1_checks(probe, ens, "instance")
    assert probe.worst() is None and probe.skipped
    # outside the premise the cancellation sum is negative (t = 3): the step is not implied there
    cancel, _ = appendix_ef._f2_ratios(ens)
    assert np.nanmin(cancel[:, 1:]) < 0


def test_the_cancellation_step_is_recorded_not_checked():
    ctx = Context("kou2023:lemma-F.1", get_backend("numpy"), get_profile("tiny"), 0)
    ens = instance(ctx, np.r_[3, np.zeros(7)], Region((0.0, 0.0), 0.025, m=3, steps=300))
    appendix_ef._f1_checks(ctx, ens, "instance")
    assert not any(fnmatch(c.name, STEP1) for c in ctx.checks)
    assert "min ratio over the E.3 window" in appendix_ef._step1_reading(ens)


def test_inside_the_premise_the_cancellation_ratio_is_at_least_two_times_one_minus_q():
    rng = np.random.default_rng(3)
    region = Region((0.0, 0.0), 0.025, m=3, steps=300)
    seen = 0
    for _ in range(12):
        ens = instance(CTX, np.r_[rng.integers(0, 50), rng.normal(size=7)], region)
        q = appendix_ef._f2_premise(ens)
        window = appendix_ef._e3_window(ens)
        cancel, _ = appendix_ef._f2_ratios(ens)
        for j in range(2):
            if q[0, j] <= 0.5 and window[0].any():
                seen += 1
                assert cancel[0, window[0], j].min() >= 2 * (1 - q[0, j]) * (1 - 1e-12)
    assert seen >= 6


def test_a_search_with_every_instance_undecided_is_undecided():
    ctx = Context("kou2023:lemma-F.1", get_backend("numpy"), get_profile("tiny"), 0)
    search(
        ctx,
        "search: test",
        Region((0.0, 0.0), 0.025, m=3, steps=100),
        lambda probe, e: probe.undecided("kept: a", "outside"),
        ["kept*"],
        budget=2,
        why="test",
    )
    outcome = {c.name: c.outcome for c in ctx.checks}
    assert outcome["search: test"] == "pass"  # every instance scored 0 ...
    assert outcome["search: test: decided instances per family"] == "inconclusive"  # ... and counted
    assert any("undecided instances" in n for n in ctx.notes)
