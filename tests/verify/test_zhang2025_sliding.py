"""zhang2025:equation-2-sliding: its independent reading of the sliding condition agrees with the toolkit's
sliding weight, and faults in the sliding mode (the slope on the surface, the exit weight) fail the claim
(mutplan19 items 30-34: these sites were run by no claim)."""

from __future__ import annotations

import types

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.engine.integrators.events import PATTERN_KEY, SLIDE_KEY
from numeric.models.networks import BiasFreeNet
from verify.papers.zhang2025 import sliding
from verify.plugin import run

CLAIM = "zhang2025:equation-2-sliding"


@pytest.fixture(scope="module")
def path():
    """The instance's located Filippov solve on the fine grid: (flow, args, times, trajectory)."""
    ctx = types.SimpleNamespace(backend=get_backend("numpy"))
    _, flow, args, y0 = sliding._problem(ctx)
    ts = np.linspace(0.0, sliding.T, 2**sliding.FINE + 1)
    return flow, args, ts, sliding._filippov(flow, y0, args, ts, sliding.RTOL)


def test_one_sided_velocities_give_the_sliding_weight(path):
    """Mid-segment, the weight p of the positive side's piece (``BiasFreeNet.sliding_weight``) is
    v_- / (v_- - v_+) of the plain field's one-sided normal velocities (the claim's reading), to rounding."""
    flow, args, ts, fil = path
    t_s, t_e = fil.sliding["t_start"][0], fil.sliding["t_end"][0]
    i = int(np.searchsorted(ts, (t_s + t_e) / 2))
    state = fil.ys[0][i : i + 1]
    v_plus, v_minus = sliding._one_sided(flow, args, state)
    assert v_plus[0] < 0 < v_minus[0]
    sw = flow.switching
    on = np.zeros((1, 4), dtype=bool)
    on[0, sliding.ENTRY] = True
    p = sw.weight(ts[i], state, {**args, PATTERN_KEY: sw.slopes(sw.values(state, args), args), SLIDE_KEY: on})
    assert p[0, sliding.ENTRY] == pytest.approx(v_minus[0] / (v_minus[0] - v_plus[0]), rel=1e-9)


def test_first_root():
    ts = np.linspace(0.0, 1.0, 11)
    assert sliding._first_root(ts, ts - 0.37, 0.0) == pytest.approx(0.37)
    assert sliding._first_root(ts, np.abs(ts - 0.5) - 0.2, 0.5) == pytest.approx(0.7)  # after 0.5 only
    assert np.isnan(sliding._first_root(ts, -np.ones(11), 0.0))


def test_the_claim_passes_and_its_control_breaks():
    record = run(CLAIM, profile="tiny")
    assert record.verdict == "PASS", record.reason
    assert all(c.ok for c in record.controls), record.controls


_SLOPES = BiasFreeNet.sliding_slopes


def _midpoint_slopes(slope1, back, slides, gram, alpha):
    """The fixed convention sigma'(0) = (1 + alpha)/2 on the surface in place of s*."""
    out, star = _SLOPES(slope1, back, slides, gram, alpha)
    S = slides.reshape(out.shape)
    return np.where(S, (1 + np.asarray(alpha).reshape(-1)[0]) / 2, out), star


def _exit_weight_over_1_plus_alpha(self, state, X, XT, y, alpha, *rest):
    """(s* - alpha) / (1 + alpha) in place of / (1 - alpha): the exit to the positive side is missed."""
    a = np.asarray(alpha).reshape(-1)[0]
    return _WEIGHT(self, state, X, XT, y, alpha, *rest) * (1 - a) / (1 + a)


_WEIGHT = BiasFreeNet.sliding_weight


@pytest.mark.parametrize(
    ("name", "fault", "fails"),
    [
        ("sliding_slopes", staticmethod(_midpoint_slopes), f"{sliding.ORDER} [sliding mode (Filippov)]"),
        ("sliding_weight", _exit_weight_over_1_plus_alpha, sliding.EXIT),
    ],
    ids=["slope-on-surface", "exit-weight"],
)
def test_a_fault_in_the_sliding_mode_fails_the_claim(monkeypatch, name, fault, fails):
    monkeypatch.setattr(BiasFreeNet, name, fault)
    record = run(CLAIM, profile="tiny")
    assert record.verdict == "FAIL", record.reason
    assert fails in [c.name for c in record.checks if c.outcome == "fail" and not c.control]
