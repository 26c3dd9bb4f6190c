"""Helpers of the dana2025 threshold figures (3, 4, 5) and of Lemma 6."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.data.weakly_correlated import pytorch_default_init
from verify.papers.dana2025.initial_loss import p_min
from verify.papers.dana2025.threshold_search import locate, threshold


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


def _bernoulli_curve(N: float, w: float, seeds: int, rng: np.random.Generator):
    """``converged(n)`` of a logistic P(n) with threshold N, width w, and the sizes it was asked for."""
    asked = []

    def converged(n: int) -> np.ndarray:
        asked.append(n)
        return rng.random(seeds) < 1 / (1 + np.exp((n - N) / w))

    return converged, asked


def test_locate_brackets_thresholds_far_from_the_start_and_its_interval_covers_them():
    """40 logistic curves, N log-uniform in [300, 5000], 25 seeds per size (the paper's): the 95%
    interval covers N in at least 34 (P(<= 33 | coverage 0.95) = 0.014); every size runs once."""
    draw, covered = np.random.default_rng(1), 0
    for k in range(40):
        N = float(np.exp(draw.uniform(np.log(300), np.log(5000))))
        rng = np.random.default_rng(k)
        converged, asked = _bernoulli_curve(N, N / 20, 25, rng)
        loc = locate(converged, start=100, n_min=10, n_max=20_000, bisections=4, rng=rng, boots=200)
        assert loc.N is not None and loc.ns.min() < N < loc.ns.max()
        assert len(set(asked)) == len(asked)
        covered += loc.ci[0] <= N <= loc.ci[1]
    assert covered >= 34


def test_locate_reports_no_threshold_for_a_flat_curve():
    """A curve that never drops below 1/10 in the searched range is not a threshold at the last size."""
    loc = locate(
        lambda n: np.ones(25, bool),
        start=100,
        n_min=10,
        n_max=3200,
        bisections=3,
        rng=np.random.default_rng(0),
    )
    assert loc.N is None and loc.ns.max() == 3200 and "no threshold located" in loc.describe()
    loc = locate(
        lambda n: np.zeros(25, bool),
        start=100,
        n_min=10,
        n_max=3200,
        bisections=3,
        rng=np.random.default_rng(0),
    )
    assert loc.N is None and loc.ns.min() == 10


def test_a_step_between_two_sizes_gets_the_whole_cell_as_its_interval():
    loc = locate(
        lambda n: np.full(25, n <= 1000),
        start=100,
        n_min=10,
        n_max=3200,
        bisections=0,
        rng=np.random.default_rng(0),
    )
    assert loc.N is not None and loc.ns.tolist() == [100, 200, 400, 800, 1600]
    assert loc.ci[0] < 850 and loc.ci[1] > 1550  # uniform draws over the cell [800, 1600]


def test_pytorch_default_init_has_the_fan_in_bounds():
    W, a = pytorch_default_init(np.random.default_rng(0), 4, 39, 100)
    assert W.shape == (4, 39, 100) and a.shape == (4, 39)
    assert np.abs(W).max() <= 0.1 and np.abs(a).max() <= 1 / np.sqrt(39)
    assert abs((W**2).sum(axis=2).mean() - 1 / 3) < 0.02  # E||w||^2 = d (1/d)/3


def test_a_fit_narrower_than_the_grid_is_reported_as_a_step():
    """Frequencies 1, 1/2, 0 at three consecutive sizes are fitted exactly by every w -> 0 (the Figure-5
    control's w = 0.1): the width is the crossing's quarter cell and the curve is flagged as a step."""
    ns, freq = np.array([100.0, 200.0, 225.0, 250.0, 400.0]), np.array([1.0, 1.0, 0.5, 0.0, 0.0])
    assert threshold(ns, freq) == (225.0, 6.25)
    seeds = 24
    loc = locate(
        lambda n: np.arange(seeds) < seeds * {100: 1, 200: 1, 225: 0.5}.get(n, 0),
        start=100,
        n_min=10,
        n_max=400,
        bisections=3,
        rng=np.random.default_rng(0),
    )
    assert loc.ns.tolist() == [100, 200, 225, 250, 300, 400] and loc.N == 225.0
    assert loc.step and loc.w == 6.25 and "width not resolved" in loc.describe() and loc.cell == (225, 250)
    smooth = locate(
        _bernoulli_curve(1000, 50, 25, np.random.default_rng(3))[0],
        start=100,
        n_min=10,
        n_max=20_000,
        bisections=4,
        rng=np.random.default_rng(3),
    )
    assert smooth.N is not None and not smooth.step
