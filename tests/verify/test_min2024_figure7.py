"""min2024 Figure 7: the entry bound k* of a sign-preserving neuron, and the sign-flip exception."""

import numpy as np

from numeric.backend import get_backend
from numeric.data.separated_data import PLUS
from verify.context import Context
from verify.papers.min2024 import figures
from verify.profiles import get_profile


def _ctx() -> Context:
    return Context("min2024:figure-7", get_backend("numpy"), get_profile("tiny"), 0)


def test_the_gd_entry_bound_tends_to_the_flow_time_asinh_cot_beta():
    k = figures._entry_bound(0.1)
    assert k == 1499
    assert abs(k * figures.LR - np.arcsinh(1 / np.tan(0.1))) < 3 * figures.LR  # GD's sh_eta vs sinh


def test_a_start_on_the_dead_boundary_enters_at_the_bound_and_not_later():
    h, steps = 10, 1600
    r = figures._gd_run(_ctx(), 0.1, 1, h, steps, np.arange(steps + 1), init=figures._boundary_starts(0.1, h))
    entered = r["codes"][0] == PLUS
    assert entered.any(0).all()
    entry = np.argmax(entered, axis=0)
    assert entry.max() <= figures._entry_bound(0.1) and entry.max() >= 0.9 * figures._entry_bound(0.1)


def test_a_neuron_whose_v_changes_sign_stays_outside_s_plus():
    record = np.arange(0, figures.FIG7_STEPS + 1, 250)
    start = figures._flipping_start(0.1, 1e-4)
    r = figures._gd_run(_ctx(), 0.1, 1, 1, figures.FIG7_STEPS, record, init=start)
    assert r["v"][0, 0, 0] < 0 < r["v"][0, -1, 0]
    assert figures._outside(r, -1)[0] == 1
