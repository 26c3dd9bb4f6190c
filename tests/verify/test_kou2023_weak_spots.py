"""kou2023 checks that must be able to fail: a weakened sequence bound, a wrong (5.9) cross term, the
init-share factor behind Theorem 4.3's width-order bound, and (5.8)'s |l'| read off an explicit GD step."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import get_backend
from numeric.data.near_orthogonal import alternating_labels, controlled_gram
from numeric.models.fixed_readout import fast_loss_derivative_magnitude
from numeric.training.reduced_gd import log_grid, stable_rank_from_gram
from verify.context import Context
from verify.papers.kou2023 import appendix_ef, explicit, sequences
from verify.papers.kou2023.common import eta_for
from verify.profiles import get_profile


def make(claim: str) -> Context:
    return Context(claim, get_backend("numpy"), get_profile("tiny"), 0)


def outcomes(ctx: Context) -> dict[str, str]:
    return {c.name.split(" [")[0]: c.outcome for c in ctx.checks}


ATTAINED = "lower bound attained: max (e^x_t/(e^x0 + C t) - 1)/remainder over t >= 1"


@pytest.mark.parametrize("x0", [0.0, 1.0])
def test_paper_lower_bound_is_valid_and_attained(x0):
    ctx = make("kou2023:lemma-H.2")
    sequences._exact_sequences(ctx, 300, 1.0, "lower", x0=x0)
    assert set(outcomes(ctx).values()) == {"pass"}


@pytest.mark.parametrize(
    ("weakened", "x0"),
    [
        (lambda e0, C, t: e0 + C * t / 2, 0.0),  # the constant halved
        (lambda e0, C, t: 1 + C * t, 1.0),  # the e^x0 term dropped
    ],
)
def test_weakened_lower_bound_fails_the_attainment_check(monkeypatch, weakened, x0):
    monkeypatch.setattr(sequences, "lower_argument", weakened)
    ctx = make("kou2023:lemma-H.2")
    sequences._exact_sequences(ctx, 300, 1.0, "lower", x0=x0)
    got = outcomes(ctx)
    assert got["lower bound margin"] == "pass"  # a weaker bound still holds...
    assert got[ATTAINED] == "fail"  # ...but it is no longer attained


@pytest.fixture(scope="module")
def adversarial_run():
    ctx = make("kou2023:equation-5.9")
    n, m = 6, 8
    y = alternating_labels(n)
    data = controlled_gram(np.random.default_rng(0), y, 0.2, R0=1.5, d=2 * n, adversarial=True)
    X = explicit.points(data.G, 2 * n)
    W = explicit.explicit_gd(ctx, "t", X, y, m, 0.0, 1e-3, eta_for(data, m, 0.05), log_grid(300), 2)
    return W, X, data.p


@pytest.mark.parametrize(
    ("factor", "fails"),
    [
        (1.0, set()),
        (2.0, {"(5.9) cross term attained"}),  # a printed cross term twice too large
        (0.5, {"(5.9) F_j(W_j, x_i) <= (1/m)", "(5.9) F_j(W_j, x_i) >= (1/m)"}),  # half too small
    ],
)
def test_eq59_catches_a_wrong_cross_term(adversarial_run, factor, fails):
    W, X, p = adversarial_run
    ctx = make("kou2023:equation-5.9")
    appendix_ef._eq59_checks(ctx, W, X, 0.0, factor * p, "t", attained=True)
    failed = {k for k, v in outcomes(ctx).items() if v == "fail"}
    assert {next(f for f in fails if k.startswith(f)) for k in failed} == fails


def test_loss_derivative_from_a_gd_step_is_the_logistic_derivative():
    ctx = make("kou2023:equation-5.8")
    n, m, gamma = 6, 8, 0.5
    y = alternating_labels(n)
    data = controlled_gram(np.random.default_rng(1), y, 0.05, d=2 * n)
    X = explicit.points(data.G, 2 * n)
    eta = eta_for(data, m, 0.05)
    W = explicit.explicit_gd(ctx, "t", X, y, m, gamma, 1e-3, eta, np.array([0, 1, 50, 51]), 2)
    ell, rel = explicit.loss_derivative(W[:, [0, 2]], W[:, [1, 3]], X, gamma, eta)
    _, F = explicit.forward(W[:, [0, 2]], X, gamma, m)
    q = y * (F[..., 0, :] - F[..., 1, :])
    assert np.all(np.abs(ell / fast_loss_derivative_magnitude(q) - 1) <= rel + 1e-12)
    assert np.all(rel < 1e-9)


def test_init_share_bounds_the_stable_rank_change():
    rng = np.random.default_rng(2)
    for _ in range(200):
        L = (
            rng.normal(size=(6, 1)) @ rng.normal(size=(1, 30)) * rng.uniform(1, 5)
            + rng.normal(size=(6, 30)) * 0.1
        )
        W0 = rng.normal(size=(6, 30)) * rng.uniform(0.01, 0.3)
        fF = np.linalg.norm(W0) / np.linalg.norm(L)
        f2 = np.linalg.norm(W0, 2) / np.linalg.norm(L, 2)
        if f2 >= 1:
            continue
        ratio = stable_rank_from_gram((L + W0) @ (L + W0).T) / stable_rank_from_gram(L @ L.T)
        assert ((1 - fF) / (1 + f2)) ** 2 * (1 - 1e-12) <= ratio <= ((1 + fF) / (1 - f2)) ** 2 * (1 + 1e-12)


@pytest.mark.parametrize(("power", "holds"), [(1, True), (2, False)])
def test_balance_limit_rejects_a_balance_other_than_the_frozen_pattern_limit(monkeypatch, power, holds):
    """Lemma 5.4 beyond the horizon: the sums' growth ratio matches L = gamma min/max (||x_i||^2 lambda_i);
    a limit computed with the other class scaled by gamma^2 (the lemma's gamma^2 read as the rate) fails."""
    from verify.papers.kou2023 import common, patterns

    gamma = 0.5
    true_limit = common.leaky_limit

    def limit(data, m, g, eta):
        lim = true_limit(data, m, g, eta)
        rate = np.where(lim.rho_rate < 0, lim.rho_rate * g ** (power - 1), lim.rho_rate)
        return common.LeakyLimit(lim.lam, lim.tL, rate, lim.u_norm)

    monkeypatch.setattr(patterns, "leaky_limit", limit)
    ctx = make("kou2023:lemma-5.4")
    data = controlled_gram(np.random.default_rng(0), alternating_labels(6), 1e-4, d=2000)
    ens = common.run(ctx, "t", common.Setup(data, 8, (gamma,), 2, 0.05, 1e-3, 5000))
    patterns._balance_limit(ctx, ens, gamma, "t")
    assert (ctx.checks[-1].outcome == "pass") == holds


@pytest.mark.parametrize(("power", "holds"), [(1, True), (2, False)])
def test_relu_balance_limit_rejects_a_limit_other_than_f2s(monkeypatch, power, holds):
    """Lemma 5.5 / E.1 beyond the horizon (orthogonal data): the growth ratio matches min|S_i(0)|/max|S_i(0)|
    (F.2's rates m/|S_i(0)|); rates (m/|S_i(0)|)^2 give another limit and fail."""
    from numeric.data.near_orthogonal import orthogonal_gram
    from verify.papers.kou2023 import common, patterns

    true_rates = patterns.f2_rates

    def rates(ens):
        slope, pred, tol = true_rates(ens)
        return slope, pred**power, tol

    monkeypatch.setattr(patterns, "f2_rates", rates)
    ctx = make("kou2023:lemma-5.5")
    y = alternating_labels(6)
    data = orthogonal_gram(np.random.default_rng(0).uniform(1, 1.3, 6), y, 2000)
    ens = common.run(ctx, "t", common.Setup(data, 8, (0.0,), 2, 0.05, 1e-3, 100_000))  # F.2's r ~ 0.1
    patterns._relu_balance_limit(ctx, ens, "t")
    assert (ctx.checks[-1].outcome == "pass") == holds


@pytest.mark.parametrize("profile", ["tiny", "quick"])
def test_theorem_41_runs_the_largest_slope_at_its_own_regime_edge(profile):
    from verify.papers.kou2023 import theorems
    from verify.papers.kou2023.hypotheses import NEAR_ORTH

    ctx = Context("kou2023:theorem-4.1", get_backend("numpy"), get_profile(profile), 0)
    *families, edge, printed = theorems._leaky_setups(ctx)
    # the fifth family: the smallest slope alone at the theorem's printed init bound (beta ~ 0.01, past (B.2))
    assert printed.gammas == (min(families[0].gammas),) and printed.sigma0 > 1e-3 * min(printed.gammas)
    g = max(edge.gammas)
    assert edge.gammas == (max(families[0].gammas),)
    # half the regime's largest kappa at that slope, far above what the smallest slope allows the others
    assert edge.data.kappa / g**4 == pytest.approx(0.5 / 10)
    assert NEAR_ORTH.test(kappa=edge.data.kappa, R=1.0, gamma=g)
    assert not NEAR_ORTH.test(kappa=4 * edge.data.kappa, R=1.0, gamma=g)
    assert edge.data.kappa >= max(f.data.kappa for f in families)


def test_h3_edge_bounds_the_finite_size_departure_on_fresh_draws():
    from verify.papers.kou2023.sequences import H3_EDGE

    rng = np.random.default_rng(12345)
    for m in (16, 64):
        A = rng.integers(0, 2, size=(300, m, m // 2)) - 0.5
        r = np.sqrt(np.linalg.eigvalsh(np.swapaxes(A, 1, 2) @ A)[:, -1]) / (np.sqrt(m) + np.sqrt(m // 2))
        for read in (r.mean(), r.max()):  # the mean sits below 1/2, the worst draw above it
            assert abs(read / 0.5 - 1) <= H3_EDGE * m ** (-2 / 3)


@pytest.mark.parametrize(
    ("errors", "holds"),
    [
        (lambda k, f: 0.2 * k + f, "pass"),  # O(kappa) plus an init term within its bound
        (lambda k, f: 0.2 * k**1.5, "pass"),  # faster than kappa: allowed (one-sided)
        (lambda k, f: 0.2 * k * (1 - 0.3 * k / k.max()), "pass"),  # a next-order term: 30% lower at the top
        (lambda k, f: 0.02 * k**0.5, "fail"),  # slower than kappa
        (lambda k, f: 0.2 * k + 300 * f, "fail"),  # a floor 300x the init bound
    ],
)
def test_heuristic_order_is_one_sided_with_the_init_share_as_tolerance(monkeypatch, errors, holds):
    def fake(ctx, key, sigma0, kappas, sizes, **kw):
        k = np.asarray(kappas)
        floors = np.full(k.size, 1e-7)
        return errors(k, floors), floors

    monkeypatch.setattr(appendix_ef, "_rel_error_vs_kappa", fake)
    ctx = make("kou2023:equation-5.12-corrected")
    appendix_ef._heuristic(ctx, "(5.12) with S_i(t)", current_set=True)
    main = [c for c in ctx.checks if "O(kappa)" in c.name and not getattr(c, "control", None)]
    assert main[0].outcome == holds
