"""dana2025 quantifiers: Theorem 2's window over initializations, Theorem 1's label-opposed data family,
Proposition 3's searched window."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.data.weakly_correlated import assumption2_limit, offdiag_norm
from symbolic import shallow_meanfield
from symbolic.to_numeric import lambdify_numeric
from verify.context import Context
from verify.papers.dana2025 import orthogonal, phase
from verify.papers.dana2025.common import label_opposed_gram, make_data
from verify.papers.dana2025.orthogonal import (
    G0,
    covers_every_example,
    prop3_starts,
    prop3_violation,
    prop3_window,
)
from verify.papers.dana2025.phase import (
    sup_convergence,
    t2_deviations,
    t2_init_ratio,
    t2_instance,
    t2_starts,
)
from verify.profiles import get_profile
from verify.records import Outcome


def test_theorem2_window_search_starts_inside_and_within_tolerance():
    for name, thetas in t2_starts().items():
        z0, v0, D = t2_instance(thetas[0])
        assert 0 < z0 < 1 and phase.T2_V0[0] <= v0 <= phase.T2_V0[1] and phase.T2_D[0] <= D <= phase.T2_D[1]
        assert t2_init_ratio(thetas[0]) < 0.1, name


def test_theorem2_window_search_catches_a_constant_off_by_one_percent(monkeypatch):
    # log C(0.1) = 3.69: C x 1.01 moves the window's constant by 0.27%, 2.7x the tolerance 1e-3
    exact = phase.window_constant(phase.EPS_T2)
    monkeypatch.setattr(phase, "window_constant", lambda eps: 1.01 * exact)
    assert t2_init_ratio(t2_starts()["centre (z0 ~ 1/2, v0 ~ 1, ||D|| ~ 1)"][0]) > 2


def test_theorem2_location_reads_an_error_slower_than_one_over_log_n(monkeypatch):
    # the location limit read 1% off (t_n 1% too long): e -> const, e log(np) grows like log(np)
    assert t2_deviations(0.3, 1.0, 1.0)[1] < 1e-9
    t_n = phase.t_n
    monkeypatch.setattr(phase, "t_n", lambda n, p: 1.01 * t_n(n, p))
    assert t2_deviations(0.3, 1.0, 1.0)[1] > 10 * phase.T2_LOCATION_TOL


def test_theorem2_window_depends_on_the_initialization_before_the_cut():
    # at n = 1e9 a large first layer (v0 = 1e3) is 1.3e-2 off: why the window is read where max(1, v0)/P
    # <= 1e-4 only
    assert t2_deviations(0.3, 1e3, 1.0)[0] < phase.T2_WINDOW_TOL
    with np.errstate(over="ignore", invalid="ignore"):
        t1 = phase.crossing_times(np.array([1e9]), 2, 1.0, 0.3, 1e3, phase.EPS_T2)
        t2 = phase.crossing_times(np.array([1e9]), 2, 1.0, 0.3, 1e3, 1 - phase.EPS_T2)
    w = (t1 - t2) / phase.t_n(1e9, 2) * np.log(2e9) / (2 * np.log(phase.window_constant(phase.EPS_T2)))
    assert abs(w[0] - 1) > 1e-2


def test_theorem2_loss_is_the_symbolic_closed_form_and_finite_at_z0_one():
    # the regular form (cosh x + z0 sinh x)^2 ... equals group_loss (artanh) where both are finite, to
    # rounding of ||D||^2/2; at z0 = 1 (artanh(1) = inf) it is finite and both limits hold
    syms, expr = shallow_meanfield.group_loss()
    printed, regular = lambdify_numeric(syms, expr), phase._loss_fn()
    rng = np.random.default_rng(0)
    for _ in range(200):
        n, p, D = 10 ** rng.uniform(1, 12), int(rng.integers(1, 5)), 10 ** rng.uniform(-1, 1)
        z0, v0 = rng.uniform(1e-3, 0.999), 10 ** rng.uniform(-3, 3)
        t = rng.uniform(0, 3) * phase.t_n(n, p) / D
        assert regular(t, n, p, D, z0, v0) == pytest.approx(printed(t, n, p, D, z0, v0), abs=1e-13 * D**2)
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.isnan(printed(1.0, 1e6, 2, 1.0, 1.0, 1.0))
    assert np.isfinite(regular(1.0, 1e6, 2, 1.0, 1.0, 1.0))
    window, location = t2_deviations(1.0, 1.0, 1.0)
    assert window < phase.T2_WINDOW_TOL and location < phase.T2_LOCATION_TOL


@pytest.mark.parametrize("scale, outcome", [(1.0, Outcome.PASS), (1.001, Outcome.FAIL)])
def test_theorem2_sup_convergence_reads_a_limit_off_l_inf(monkeypatch, scale, outcome):
    # a plateau 0.1% off L_inf: the sup tends to 2.5e-4 > 0, sup x (np)^a grows instead of converging
    L_inf = phase._L_inf
    monkeypatch.setattr(phase, "_L_inf", lambda t, Ds: scale * L_inf(t, Ds))
    ctx = Context("dana2025:theorem-2-corrected", get_backend("numpy"), get_profile("tiny"), 0)
    sup_convergence(ctx, (1.0, 2.0))
    assert ctx.checks[0].outcome == outcome


@pytest.mark.parametrize("seed", [0, 1])
def test_label_opposed_data_are_at_the_assumption2_boundary_against_the_labels(seed):
    rng = np.random.default_rng(seed)
    data = make_data(rng, 40, "label-opposed", frac=0.99)
    assert offdiag_norm(data.G) / assumption2_limit(data.norms, data.y) == pytest.approx(0.99, rel=1e-12)
    corr = data.G / np.outer(data.norms, data.norms)
    s = np.sign(data.y)
    off = ~np.eye(40, dtype=bool)
    assert np.all((corr * np.outer(s, s))[off] < 0)  # same sign anti-correlated, opposite signs correlated
    assert np.linalg.eigvalsh(data.G).min() > 0
    G = label_opposed_gram(data.norms, data.y, 0.5)
    assert offdiag_norm(G) == pytest.approx(0.5, rel=1e-12)


def test_proposition3_window_leaves_out_lambda_where_y1_is_not_large_enough():
    # found by random sampling over (89) alone: lambda within 0.3% of min/max needs y_1 >= 4400 by (92);
    # at y_1 = 100 the neuron with the small ratio keeps a_j < 0, stays alive on x_2 and fits it (L -> 0)
    G = np.array([[0.29918115, 1.0], [0.50664994, 0.7347635]])
    _, hi = prop3_window(G)
    assert hi < 0.2982961505911661 < G.min() / G.max()
    lo0, hi0 = prop3_window(G0)
    assert lo0 == pytest.approx(np.sqrt(8 * G0.max() / 100)) and hi0 < G0.min() / G0.max()
    for theta in [t for ts in prop3_starts(np.random.default_rng(3)).values() for t in ts]:
        assert prop3_violation(theta) <= 1


def test_proposition3_search_reads_the_limit_loss(monkeypatch):
    # L(T)/(y_2^2/4) - 1 = r_1^2/y_2^2 sits at the solver's floor (~1e-11..3e-10 < PROP3_L_TOL = 1e-8): a
    # tolerance 1e4 x tighter must be exceeded, so the limit term is read by the search
    theta = next(iter(prop3_starts(np.random.default_rng(3)).values()))[0]
    assert prop3_violation(theta) <= 1
    monkeypatch.setattr(orthogonal, "PROP3_L_TOL", 1e-12)
    assert prop3_violation(theta) > 1


def test_proposition1_coverage_reads_an_example_without_a_neuron_of_its_sign():
    # 2 runs, 2 neurons (a > 0, a < 0), 3 examples (y = +, +, -); run 1's second example has no active
    # positive neuron
    U = np.array([[[1.0, 1.0, -1.0], [-1.0, -1.0, 1.0]], [[1.0, -1.0, 1.0], [1.0, 1.0, 1.0]]])
    run = {
        "a": np.array([[1.0, -1.0], [1.0, -1.0]]),
        "y": np.array([1.0, 2.0, -1.0]),
        "rec": [(0, None, None, U)],
    }
    assert covers_every_example(run).tolist() == [True, False]
