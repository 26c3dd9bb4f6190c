"""Work-precision reading: the front, interpolation on it, the shared error levels."""

from __future__ import annotations

import math

import numpy as np

from benchmarks.analysis import front_range, matched_error_levels, pareto_front, time_at_error


def test_pareto_front_drops_runs_a_cheaper_run_out_did():
    # rtol 1e-8 ended less accurate (1.2e-9) and slower than rtol 1e-7 (4e-10): dominated
    errors = [1.8e-7, 1.4e-8, 4.1e-10, 1.2e-9]
    seconds = [0.125, 0.139, 0.163, 0.183]
    e, t = pareto_front(errors, seconds)
    assert list(e) == [4.1e-10, 1.4e-8, 1.8e-7] and list(t) == [0.163, 0.139, 0.125]
    assert np.all(np.diff(t) < 0)
    assert front_range(errors, seconds) == (4.1e-10, 1.8e-7)
    # at 1e-9 the time is read between 4.1e-10 and 1.4e-8, not on the dominated run
    got = time_at_error(errors, seconds, 1e-9)
    assert 0.139 < got < 0.163


def test_time_at_error_is_exact_on_a_power_law_and_never_extrapolates():
    errors = [1e-6, 1e-7, 1e-8]
    seconds = [1.0, 2.0, 4.0]
    assert math.isclose(time_at_error(errors, seconds, 10**-7.5), 2.0 * 2**0.5, rel_tol=1e-12)
    assert math.isnan(time_at_error(errors, seconds, 1e-9))
    assert math.isnan(time_at_error([1e-6, 1e-7], [1.0, 0.5], 3e-7))  # one point on the front
    assert matched_error_levels([(1e-9, 1e-6), (3e-8, 1e-5)]) == [1e-7, 1e-6]
    assert matched_error_levels([(float("nan"), float("nan")), (1e-8, 1e-6)]) == []


def test_kink_target_judges_the_better_event_method():
    from benchmarks.targets import kink_targets

    def alt(*ratios):
        return {"matched": [{"error": 10.0**-k, "ratio": r} for k, r in enumerate(ratios, start=6)]}

    size = {
        "size": [8, 8, 8],
        "B": 256,
        "alternatives": {
            "events dopri5": alt(25.0, 21.0),
            "events dop853": alt(30.0, 12.0),
            "no events dop853": alt(3.0, 2.0),
        },
    }
    row = kink_targets({"sizes": [size]})[0]
    assert row["status"] == "PASS" and row["measured"] == 21.0  # DOPRI5's worst beats DOP853's
    size["alternatives"]["events dopri5"] = alt(25.0, 19.0)
    row = kink_targets({"sizes": [size]})[0]
    assert row["status"] == "MISS" and row["measured"] == 19.0
    size["B"] = 64
    assert kink_targets({"sizes": [size]})[0]["status"] == "not measured"
    assert kink_targets(None)[0]["status"] == "not measured"
