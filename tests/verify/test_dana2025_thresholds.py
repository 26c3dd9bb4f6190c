"""Helpers of the dana2025 threshold figures (4, 5) and of Lemma 6."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.papers.dana2025.figures import threshold
from verify.papers.dana2025.initial_loss import p_min


@settings(max_examples=30, deadline=None)
@given(N=st.floats(20.0, 80.0), w=st.floats(2.0, 8.0))
def test_threshold_recovers_a_logistic_curve(N, w):
    ns = np.linspace(1.0, 100.0, 25)
    freq = 1 / (1 + np.exp((ns - N) / w))
    Nf, wf = threshold(ns, freq)
    assert abs(Nf - N) < 1e-3 * N and abs(wf - w) < 1e-3 * w


@given(i=st.integers(0, 8))
def test_threshold_of_a_step_is_between_the_grid_points(i):
    ns = np.arange(10.0) * 10
    freq = (np.arange(10) <= i).astype(float)
    N, w = threshold(ns, freq)
    if i < 9:
        assert ns[i] <= N <= ns[i + 1] and w > 0


def test_p_min_is_one_past_the_last_bad_width():
    freq = np.array([0.5, 0.2, 0.04, 0.06, 0.01, 0.0])  # widths 1..6
    assert p_min(freq, 0.05) == 5
    assert p_min(np.zeros(4), 0.05) == 1
