"""verify.evidence and the Context checks built on it: margin, slack, resolution, power, orders."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import binom

from numeric.backend import get_backend
from verify import evidence
from verify.context import Context
from verify.hypotheses import Hypothesis
from verify.profiles import get_profile

P_LL_N = Hypothesis("p << n", wording=r"$p\ll n$", condition="p <= n / 4", test=lambda p, n: p <= n / 4)


def make() -> Context:
    return Context("test2025:lemma-1", get_backend("numpy"), get_profile("tiny"), 0, hypotheses=(P_LL_N,))


def test_close_records_margin_slack_and_relative_resolution():
    ctx = make()
    ctx.close("c", 1.0 + 1e-10, 1.0, rtol=1e-8, why="w")
    c = ctx.checks[-1]
    assert c.margin == pytest.approx(0.99, abs=1e-6) and c.slack == pytest.approx(100, rel=1e-5)
    assert "1e-08 relative" in c.resolution


def test_bound_slack_is_the_smallest_ratio_and_says_what_goes_unnoticed():
    ctx = make()
    ctx.bound("b", np.array([1e-4, 0.5]), np.array([1.0, 1.0]), why="w")
    c = ctx.checks[-1]
    assert c.slack == pytest.approx(2.0) and c.margin == pytest.approx(0.5)
    assert "factor < 2" in c.resolution
    ctx.bound("lower", 10.0, 1.0, side=">=", why="w")
    assert ctx.checks[-1].slack == pytest.approx(10.0)


@pytest.mark.parametrize("n, p0, p1", [(50, 0.9, 0.7), (400, 0.99, 0.95), (1000, 0.5, 0.45)])
def test_power_is_the_exact_rejection_probability(n, p0, p1):
    """Monte-Carlo check of the closed form: draw counts at p1, apply the interval test."""
    k_star = evidence.rejected_counts(n, p0, 0.99, ">=")
    draws = binom.rvs(n, p1, size=200_000, random_state=np.random.default_rng(1))
    assert evidence.power(n, p0, p1, 0.99, ">=") == pytest.approx(np.mean(draws <= k_star), abs=5e-3)


def test_probability_without_power_is_undecided_and_with_power_passes():
    ctx = make()
    # 99/100 successes for "P >= 0.95": cannot reject a true P = 0.9 with 80% power at n = 100
    assert ctx.probability("weak", 99, 100, at_least=0.95, detect=0.9, why="w") is False
    c = ctx.checks[-1]
    assert c.outcome == "inconclusive" and "no power" in c.why and "trials needed" in c.why
    assert ctx.probability("strong", 990, 1000, at_least=0.95, detect=0.9, why="w")
    assert "80% power" in ctx.checks[-1].power
    assert not ctx.probability("rejected", 800, 1000, at_least=0.95, detect=0.9, why="w")
    assert ctx.checks[-1].outcome == "fail"


def test_an_estimate_on_the_wrong_side_of_its_bound_is_undecided_not_a_pass():
    ctx = make()
    # 940/1000 for "P >= 0.95": not rejected at 99% (upper limit 0.958), but no support either
    assert ctx.probability("below", 940, 1000, at_least=0.95, detect=0.9, why="w") is False
    c = ctx.checks[-1]
    assert c.outcome == "inconclusive" and "wrong side of 0.95" in c.why
    assert ctx.probability("above", 955, 1000, at_least=0.95, detect=0.9, why="w")
    assert ctx.probability("at most", 45, 1000, at_most=0.05, detect=0.1, why="w")
    assert ctx.probability("at most, above", 55, 1000, at_most=0.05, detect=0.1, why="w") is False


@pytest.mark.parametrize("n, p0, p1", [(1000, 0.5, 0.45), (400, 0.3, 0.4)])
def test_two_sided_power_adds_the_disjoint_one_sided_rejections(n, p0, p1):
    lo_k = evidence.rejected_counts(n, p0, 0.99, ">=")
    hi_k = evidence.rejected_counts(n, p0, 0.99, "<=")
    exact = binom.cdf(lo_k, n, p1) + binom.sf(hi_k - 1, n, p1)
    assert evidence.power(n, p0, p1, 0.99, "==") == pytest.approx(exact, rel=1e-12)


def test_equality_passes_either_side_and_needs_power_both_ways():
    ctx = make()
    for k in (480, 500, 520):  # a fair coin's count either side of n/2
        assert ctx.probability(f"k={k}", k, 1000, equals=0.5, detect=0.44, why="w")
    c = ctx.checks[-1]
    assert c.relation.startswith("P = 0.5") and "P <= " in c.power and "P >= " in c.power
    assert not ctx.probability("rejected", 430, 1000, equals=0.5, detect=0.44, why="w")
    assert ctx.checks[-1].outcome == "fail"
    assert ctx.probability("no power", 50, 100, equals=0.5, detect=0.44, why="w") is False
    assert ctx.checks[-1].outcome == "inconclusive" and "no power" in ctx.checks[-1].why
    with pytest.raises(ValueError):
        ctx.probability("two bounds", 1, 2, at_least=0.1, equals=0.5, detect=0.0, why="w")


def test_order_must_separate_neighbouring_orders():
    ctx = make()
    x = np.geomspace(1, 1e3, 8)
    assert ctx.order("clean", x, 3 * x**-0.5, expected=-0.5, tol=0.1, why="w")
    c = ctx.checks[-1]
    assert c.details["neighbours"] == [-1.0, 0.0] and "95% interval" in c.relation
    # a tolerance that accepts the neighbouring order cannot pass
    assert ctx.order("too wide", x, 3 * x**-0.5, expected=-0.5, tol=0.5, why="w") is False
    assert ctx.checks[-1].outcome == "inconclusive"
    # two points give no interval: undecided
    ctx.order("two points", x[:2], 3 * x[:2] ** -0.5, expected=-0.5, tol=0.1, why="w")
    assert ctx.checks[-1].outcome == "inconclusive"
    # noisy data over a narrow range: the interval covers a neighbour
    rng = np.random.default_rng(0)
    xs = np.linspace(10, 12, 6)
    noisy = xs**-1.0 * np.exp(rng.normal(0, 0.2, xs.size))
    ctx.order("narrow", xs, noisy, expected=-1.0, tol=0.45, why="w")
    assert ctx.checks[-1].outcome in ("inconclusive", "fail")


def test_slope_shift_bounds_the_slope_of_any_bounded_relative_error_and_is_nearly_attained():
    """Relative errors |e_i| <= eps move a log-log slope by at most slope_shift (about 3 delta / ln 100 on
    two decades of a log grid, delta = -log(1 - eps)); the signs of the least-squares weights attain it; a
    per-point bound >= 1 leaves the slope unbounded and NaN stays NaN."""
    rng = np.random.default_rng(0)
    t = np.unique(np.geomspace(100, 10_000, 40).round())
    x = np.log(t)
    for eps in (1e-3, 0.05, 0.3):
        tol = evidence.slope_shift(t, eps)
        delta = -np.log1p(-eps)
        for _ in range(200):
            f = rng.choice([-delta, delta], size=x.size) * rng.uniform(0.5, 1, x.size)
            assert abs(np.polyfit(x, f, 1)[0]) <= tol * (1 + 1e-12)
        worst = delta * np.sign(x - x.mean())
        assert np.isclose(abs(np.polyfit(x, worst, 1)[0]), tol)
        assert np.isclose(tol, 3 * delta / np.log(100), rtol=0.1)
    assert evidence.slope_shift(t[:5], np.array([0.0, 0, 0, 0, 1])) == np.inf
    assert np.isnan(evidence.slope_shift(t[:5], np.array([0.0, np.nan, 0, 0, 0])))


def test_regime_records_the_measured_quantities_and_the_condition():
    ctx = make()
    assert not ctx.regime(P_LL_N, p=25, n=12)
    assert ctx.regime("p << n", p=3, n=100)
    assert [r.reached for r in ctx.regimes] == [False, True]
    assert ctx.regimes[0].measured == "p = 25, n = 12" and ctx.regimes[0].condition == "p <= n / 4"
    with pytest.raises(ValueError, match="undeclared"):
        ctx.regime("d >= n", reached=True)
    with ctx.control("p = n", breaks=P_LL_N, must_break=["x"]), pytest.raises(RuntimeError, match="inside"):
        ctx.regime(P_LL_N, p=12, n=12)  # a control's setup breaks the hypothesis on purpose


def test_search_finds_the_violating_instance_of_a_false_bound():
    """'x (1 - x) <= 0.2 for x in [0, 1]' is false near x = 1/2: the search must find it."""
    ctx = make()

    def ratio(theta):
        x = 1 / (1 + np.exp(-theta[0]))  # any real theta maps into [0, 1]
        return x * (1 - x) / 0.2

    starts = {"left": [np.array([-4.0])], "right": [np.array([3.0])]}
    assert not ctx.search("x(1-x) <= 0.2", ratio, starts, budget=100, why="w")
    c = ctx.checks[-1]
    assert c.measured == pytest.approx(1.25, rel=1e-6) and c.kind == "search"
    assert set(c.details["worst ratio per family"]) == {"left", "right"}
    assert ctx.search("x(1-x) <= 0.25", lambda t: ratio(t) * 0.2 / 0.25, starts, budget=100, why="w")
