"""Per-neuron event extraction and the path combinatorics of min2024 App. C.2."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.measures.neuron_events import (
    all_paths,
    harmonic,
    is_path,
    max_path_time,
    maximal_path,
    path_of,
    path_time,
    segments,
)


def test_segments_bracket_the_switch_times():
    ts = np.linspace(0.0, 1.0, 11)
    act = np.zeros((11, 1, 2), bool)
    act[:4, 0, 0] = True  # pattern (1,0) on t0..t3, then (1,1)... built below
    act[:, 0, 0] = True
    act[4:, 0, 1] = True  # the second datum switches on between t3 and t4
    own = np.array([[True, False]])
    seg = segments(ts, act, own)
    assert seg.first.tolist() == [0, 4] and seg.last.tolist() == [3, 10]
    assert np.allclose(seg.dwell_lo, [0.3, 0.6]) and np.allclose(seg.dwell_hi, [0.4, 0.7])
    assert seg.censored.tolist() == [False, True]
    assert path_of(seg, 0) == [(1, 0), (1, 1)]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), T=st.integers(2, 30), h=st.integers(1, 4), n=st.integers(1, 5))
def test_segments_tile_the_grid(seed, T, h, n):
    rng = np.random.default_rng(seed)
    ts = np.sort(rng.uniform(0, 10, T))
    act = rng.random((T, h, n)) < 0.3
    act = np.cumsum(act, axis=0) % 2 == 1
    seg = segments(ts, act, rng.random((h, n)) < 0.5)
    for j in range(h):
        sel = seg.neuron == j
        first, last = seg.first[sel], seg.last[sel]
        assert first[0] == 0 and last[-1] == T - 1 and np.all(first[1:] == last[:-1] + 1)
        assert np.all(seg.dwell_lo[sel] <= seg.dwell_hi[sel])
        assert np.all(seg.n_active[sel] == act[first, j].sum(-1))


def test_is_path():
    assert is_path([(0, 2), (0, 1), (1, 1), (1, 0), (2, 0)])
    assert not is_path([(1, 0), (0, 1)])  # own-class activation lost
    assert not is_path([(1, 1), (1, 1)])  # no change


def test_maximal_path_closed_form_and_dp_agree():
    for a in range(1, 6):
        for b in range(1, 6):
            expected = harmonic(b) + Fraction(1, 2) + harmonic(a - 1)
            assert path_time(maximal_path(a, b)) == expected == max_path_time(a, b)


def test_enumeration_matches_dp_and_every_enumerated_record_is_a_path():
    for a, b in ((1, 1), (2, 1), (2, 2), (1, 3)):
        paths = list(all_paths(a, b))
        assert all(is_path(p) and p[-1] == (a, 0) and (0, 0) not in p for p in paths)
        assert max(path_time(p) for p in paths) == max_path_time(a, b)
