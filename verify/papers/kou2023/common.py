r"""Shared setup of the kou2023 claims: data, ensembles, measurements and exact predictions.

Ensembles.  A :class:`Setup` is one data set with an ensemble of ``len(gammas) x seeds``
members (member ``k*seeds + s`` has slope ``gammas[k]`` and initialization seed ``s``); the
probability in the theorems is over the initialization only, so all members share the data.
:func:`run` draws the exact initial law (:func:`numeric.training.reduced_gd.draw_initial`) and runs
the exact GD map in coefficient form on a log-spaced record grid.

Step size.  The paper's condition :math:`\eta\le nm/(CR_{\max}^2)` says that each
coefficient moves by at most :math:`\eta R_{\max}^2/(nm)\le1/C` per step; a setup is given
by this *step scale* ``s`` and uses :math:`\eta=s\,nm/R_{\max}^2`.

Exact predictions used for the sharp checks (catalog [D1]-[D4], derived in
:mod:`symbolic.data_correlated`).  Once the leaky pattern is frozen at
:math:`\mathrm{sign}\langle w_{j,r},x_i\rangle=jy_i` the margins obey
:math:`q\leftarrow q+K|\ell'(q)|` with :math:`K=\frac{\eta}{nm}G\odot M`; if
:math:`\lambda=K^{-1}\mathbf 1>0` then :math:`q=\log t\,\mathbf 1+c+o(1)` with
:math:`e^{-c}=\lambda`, so :math:`tL_S\to\frac1n\sum_i\lambda_i`,
:math:`\rho_{j,r,i}/\log t\to\frac{\eta}{nm}\|x_i\|^2\lambda_i\,(1\text{ or }-\gamma)` and every
neuron grows like :math:`\|u_j\|\log t`, :math:`u_j=\sum_i\frac{\eta}{nm}jy_is_{j,i}\lambda_ix_i`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from numeric.data.near_orthogonal import GramData, block_labels
from numeric.models.fixed_readout import class_of_rows
from numeric.training.reduced_gd import (
    ReducedGD,
    ReducedRun,
    class_blocks,
    draw_initial,
    log_grid,
    stable_rank_from_gram,
)
from verify.context import Context
from verify.hypotheses import Hypothesis
from verify.papers.kou2023.hypotheses import (
    INIT_B2,
    LEAKY,
    NEAR_ORTH,
    NEAR_ORTH_B4,
    NEAR_ORTH_C,
    NEAR_ORTH_RELU,
    RELU,
    SMALL_INIT,
    STEP,
    STEP_B3,
    WIDTH,
)
from verify.regimes import Reading, record_worst

EPS = float(np.finfo(np.float64).eps)
# Richardson factor: an error shrinking at least 3x per decade (O(log t / t) predicts ~8x at
# t >= 1e3) is at most r/(1-r) = 1/2 times the change of the quantity over the last decade.
RICHARDSON = 0.5


def appendix_sizes(ctx: Context) -> tuple[int, int, int, int, int]:
    """``n, m, d, steps, seeds`` of the appendix A-E claims (``appendix``, ``appendix_bcd``)."""
    n = ctx.param("n", tiny=6, quick=10, full=20)
    m = ctx.param("m", tiny=8, quick=20, full=50)
    d = ctx.param("d", tiny=2000, quick=20000, full=200000)
    steps = ctx.param("steps", tiny=5_000, quick=50_000, full=1_000_000)
    seeds = ctx.param("seeds", tiny=2, quick=3, full=8)
    ctx.require(d >= n, f"need d >= n, got d={d}, n={n}")
    return n, m, d, steps, seeds


def eta_for(data: GramData, m: int, scale: float) -> float:
    r""":math:`\eta` with per-step coefficient change :math:`\eta R_{\max}^2/(nm)=` ``scale``."""
    return scale * data.n * m / data.R_max**2


@dataclass
class Setup:
    """One data set and an ensemble ``gammas x seeds`` (module docstring)."""

    data: GramData
    m: int
    gammas: tuple[float, ...]
    seeds: int
    scale: float
    sigma0: float
    steps: int
    label: str = ""

    @property
    def eta(self) -> float:
        return eta_for(self.data, self.m, self.scale)

    @property
    def gamma(self) -> np.ndarray:
        """Slope of every member, ``(B,)``."""
        return np.repeat(np.asarray(self.gammas, float), self.seeds)

    def members(self, k: int) -> slice:
        """Members with slope ``gammas[k]``."""
        return slice(k * self.seeds, (k + 1) * self.seeds)

    def describe(self) -> str:
        return (
            f"{self.label or self.data.name}: n={self.data.n}, m={self.m}, d={self.data.d}, "
            f"kappa={self.data.kappa:.3g}, eta R^2/(nm)={self.scale:g}, sigma0={self.sigma0:g}, "
            f"{self.seeds} seeds, {self.steps} steps"
        )


# Why no claim keeps a big-step control (its former one): a float64 artefact, not the dynamics.
FROZEN_STEP = (
    "a step of eta R^2/(nm) = 100 (this claim's former control) freezes the loss in float64 after its "
    "first step (|l'| ~ e^-50, every later increment below the rounding of the coefficients: norm "
    "increments exactly 0, loss order -2e-15), which is not the dynamics of a large step"
)


@dataclass
class Ens:
    """A finished run of a :class:`Setup` with cached measurements (host arrays, records ``R``)."""

    setup: Setup
    run: ReducedRun
    _cache: dict = field(default_factory=dict)

    @property
    def t(self) -> np.ndarray:
        return self.run.t

    def _get(self, key: str, fn):
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    def gram(self) -> np.ndarray:
        return self._get("gram", self.run.gram)

    def stable_rank(self) -> np.ndarray:
        r""":math:`\mathrm{sr}(W_j^{(t)})` ``(B, R, 2)`` (``j=+1`` first)."""
        return self._get("sr", lambda: stable_rank_from_gram(class_blocks(self.gram(), self.setup.m)))

    def norms(self) -> np.ndarray:
        r""":math:`\|w_{j,r}^{(t)}\|` ``(B, R, 2m)``."""
        return self._get("norms", lambda: np.sqrt(np.einsum("btii->bti", self.gram())))

    def learned(self) -> np.ndarray:
        r"""Size of the learned part :math:`\|W_j^{(t)}-W_j^{(0)}\|_F/\sqrt m` ``(B, R, 2)``."""

        def f():
            blocks = class_blocks(self.run.increment_gram(), self.setup.m)
            return np.sqrt(np.einsum("btjii->btj", blocks) / self.setup.m)

        return self._get("learned", f)

    def at(self, t: float) -> int:
        """Index of the record nearest to step ``t``."""
        return int(np.argmin(np.abs(self.t - t)))

    def own_class_active(self) -> np.ndarray:
        r""":math:`r\in S_i^{(0)}`: ``(B, m, n)`` booleans, neuron ``r`` of class :math:`y_i` active on
        :math:`x_i` at init."""
        m, y = self.setup.m, self.setup.data.y
        act = self.run.act0
        return np.where(y[None, None, :] > 0, act[:, :m, :], act[:, m:, :])

    def balance_constant(self) -> np.ndarray:
        r"""Lemma E.1's :math:`c_1` measured per member ``(B,)``: the smallest, over records
        :math:`t\ge1`, of :math:`\min_i\min_{r\in S_i^{(0)}}\overline\rho_{y_i,r,i}/\max|\rho_{j,r',i'}|`."""

        def f():
            m, y = self.setup.m, self.setup.data.y
            P = self.run.P[:, 1:]
            own = np.where(y[None, None, None] > 0, P[:, :, :m], P[:, :, m:])
            bar = np.nanmin(np.where(self.own_class_active()[:, None], own, np.nan), axis=(2, 3))
            return np.nanmin(bar / np.abs(P).max(axis=(2, 3)), axis=1)

        return self._get("c1", f)

    def cprime(self) -> np.ndarray:
        r"""The width constant :math:`c'=m/\min_i|S_i^{(0)}|` measured per member ``(B,)``."""
        return self.setup.m / np.maximum(self.own_class_active().sum(axis=1).min(axis=1), 1)

    def e1_premise(self) -> float:
        r"""Lemma E.1's premise :math:`2c'\kappa/c_1` (needs :math:`\le1/2`), largest over members, with
        the measured :math:`c'=m/\min_i|S_i^{(0)}|` and :math:`c_1` (:meth:`balance_constant`)."""
        kappa = self.setup.data.kappa
        if kappa == 0:
            return 0.0
        return float((2 * self.cprime() * kappa / self.balance_constant()).max())


def run(ctx: Context, key: str, setup: Setup, *, accelerate: bool = True) -> Ens:
    """Draw the initial states (seeded by ``key``) and run the ensemble of ``setup``."""
    rng = ctx.rng(key).host
    gamma = setup.gamma
    init = draw_initial(rng, setup.data, setup.m, setup.sigma0, gamma.size)
    model = ReducedGD(ctx.backend, setup.data, setup.m, gamma, setup.eta, init)
    return Ens(setup, model.run(setup.steps, log_grid(setup.steps), accelerate=accelerate))


@dataclass(frozen=True)
class LeakyLimit:
    r"""The frozen-pattern limit of a leaky run (module docstring): :math:`\lambda=K^{-1}\mathbf 1`,
    :math:`\lim tL_S`, the :math:`\rho`-rates ``(2m, n)`` and :math:`\|u_j\|` ``(2,)``."""

    lam: np.ndarray
    tL: float
    rho_rate: np.ndarray
    u_norm: np.ndarray

    @property
    def valid(self) -> bool:
        """All points are support vectors (:math:`\\lambda>0`), as the derivation assumes."""
        return bool(np.all(self.lam > 0))


def leaky_limit(data: GramData, m: int, gamma: float, eta: float) -> LeakyLimit:
    """The :class:`LeakyLimit` of data ``data``, width ``m``, slope ``gamma``, step ``eta``."""
    y, n = data.y, data.n
    M = np.where(np.outer(y, y) > 0, 1 + gamma**2, -2 * gamma)
    K = eta / (n * m) * data.G * M
    lam = np.linalg.solve(K, np.ones(n))
    j = class_of_rows(m)
    slope_sign = np.where(j[:, None] * y[None, :] > 0, 1.0, -gamma)
    rate = (eta / (n * m)) * data.norms2[None, :] * lam[None, :] * slope_sign
    u = rate / data.norms2
    u_norm_rows = np.sqrt(np.einsum("ri,ik,rk->r", u, data.G, u))
    return LeakyLimit(lam, float(lam.mean()), rate, np.array([u_norm_rows[0], u_norm_rows[m]]))


def capped_eps(measured: float, lim: LeakyLimit, t0: float) -> float:
    r"""The remainder :math:`\varepsilon` of :math:`tL_S/\lim tL_S-1` (or of :math:`t|\ell_i'|/\lambda_i-1`)
    on ``[t0, T]`` that tolerances use: the ``measured`` largest deviation, capped by the frozen margin
    map's own remainder.

    Per point :math:`e^{q_i}=a_it-\log(a_it)+C_i` with :math:`a_i=1/\lambda_i` ([D1]/[D3];
    :math:`C_i=e^{q_i(0)}+q_i(0)\approx1` at small init, :math:`\ell(q)=e^{-q}(1-e^{-q}/2+\dots)`), so
    :math:`|tL_S/\lim-1|` and :math:`|t|\ell_i'|/\lambda_i-1|` are :math:`\le(\log(at_0)+2)/(at_0-\log(at_0))`
    on ``[t0, T]``, :math:`a=1/\max_i\lambda_i` the slowest point.  The cap keeps a tolerance from
    growing with the deviation it is meant to bound: a loss that does not decay like :math:`1/t` makes the
    measured deviation large, never the cap.
    """
    at = t0 / float(lim.lam.max())
    prior = (np.log(at) + 2) / (at - np.log(at)) if at > np.e else np.inf
    return min(measured, float(prior))


def fitted_order(x: np.ndarray, y: np.ndarray) -> float:
    """Least-squares slope of ``log y`` against ``log x``; ``-inf``-safe: non-positive ``y`` gives 0."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if np.any(y <= 0):
        return 0.0
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def decades(ens: Ens) -> list[int]:
    """Record indices of the powers of ten ``10, 100, ...`` reached by the run."""
    top = int(np.floor(np.log10(ens.t[-1]) + 1e-9))
    return [ens.at(10.0**k) for k in range(1, top + 1)]


def regime_kappa(gamma: float, R: float = 1.0, fraction: float = 0.5) -> float:
    r"""``fraction`` of the largest :math:`\kappa=np/R_{\min}^2` of the near-orthogonality regime
    (:math:`\gamma^{-4}R^2\kappa\le1/C`, ReLU :math:`R^2\kappa\le1/C`) at the smallest slope ``gamma``
    (0: ReLU) and norm ratio ``R``: the :math:`\kappa` of a controlled-Gram family inside it."""
    return fraction * (gamma**4 if gamma > 0 else 1.0) / (NEAR_ORTH_C * R**2)


def regime_dimension(n: int, d: int, gamma: float, R: float = 1.0, fraction: float = 0.5) -> int:
    r"""The smallest dimension :math:`D\ge` ``d`` whose Gaussian data :math:`x_i\sim N(0,I_D/D)` (norms
    possibly rescaled into :math:`[1,R]`) lie inside the near-orthogonality regime (:math:`\kappa` below
    ``fraction`` of its largest value).

    Off-diagonal Gram entries are :math:`\approx N(0,1/D)`; the largest of the :math:`n(n-1)/2` is below
    :math:`1.5\sqrt{2\log n^2/D}` with high probability, so :math:`\kappa\le` :func:`regime_kappa` once
    :math:`D\ge(1.5\,n\sqrt{2\log n^2}/\kappa_{\rm reg})^2`. Only the Gram matrix (exact Wishart, cost
    independent of :math:`D`) and the initialization's orthogonal part depend on :math:`D`; callers keep
    :math:`\sigma_0^2D` at its value for ``d`` (:math:`\sigma_0\sqrt{d/D}`), so the initial norms are
    unchanged and :math:`\beta` only shrinks.
    """
    need = (1.5 * n * np.sqrt(2 * np.log(n * n)) / regime_kappa(gamma, R, fraction)) ** 2
    return max(d, int(np.ceil(need)))


def regime_readings(ens: Ens) -> dict[str, Reading]:
    r"""Per hypothesis name, the :class:`~verify.regimes.Reading` of one run: :math:`\kappa=np/R_{\min}^2`
    and :math:`R` of the data, the smallest positive slope, :math:`\eta R_{\max}^2/(nm)` from the run's
    :math:`\eta`, :math:`\beta=\max|\langle w^{(0)},x_i\rangle|` and :math:`\min_i|S_i^{(0)}|` from its
    initial projections (thresholds and their justification: :mod:`verify.papers.kou2023.hypotheses`)."""
    setup, data = ens.setup, ens.setup.data
    R = data.R_max / data.R_min
    Z0 = np.asarray(ens.run.model.init.Z0)
    beta = np.abs(Z0).max(axis=(1, 2))  # (B,)
    gamma = setup.gamma
    step = float(setup.eta * data.R_max**2 / (data.n * setup.m))
    premise = ens.e1_premise()
    out = {
        NEAR_ORTH_RELU.name: Reading(premise, {"kappa": data.kappa, "R": R, "e1_premise": premise}),
        STEP.name: Reading(step, {"step": step}),
        SMALL_INIT.name: Reading(float(beta.max()), {"beta": float(beta.max())}),
        LEAKY.name: Reading(
            max(float(gamma.max()) - 1, -float(gamma.min())),
            {"gamma_min": float(gamma.min()), "gamma_max": float(gamma.max())},
        ),
        RELU.name: Reading(float(np.abs(gamma).max()), {"gamma_max": float(gamma.max())}),
    }
    if np.any(gamma > 0):
        g = float(gamma[gamma > 0].min())
        out[NEAR_ORTH.name] = Reading(R**2 * data.kappa / g**4, {"kappa": data.kappa, "R": R, "gamma": g})
        b = int(np.argmax(np.where(gamma > 0, beta / np.maximum(gamma, 1e-300), -np.inf)))
        out[INIT_B2.name] = Reading(
            float(beta[b] / gamma[b]), {"beta": float(beta[b]), "gamma": float(gamma[b])}
        )
    active = ens.own_class_active().sum(axis=1).min()
    out[WIDTH.name] = Reading(-float(active), {"min_active": float(active)})
    for alias, of in ((NEAR_ORTH_B4, NEAR_ORTH), (STEP_B3, STEP)):
        if of.name in out:
            out[alias.name] = out[of.name]
    return out


def record_regime(ctx: Context, *runs: Ens) -> None:
    r"""Record (``ctx.regime``) each declared hypothesis of the claim a run measures, worst over ``runs``
    (:func:`verify.regimes.record_worst` of :func:`regime_readings`).

    ``runs`` are the setups the claim's conclusions are checked on (never a control's).
    """
    record_worst(ctx, [regime_readings(ens) for ens in runs])


def record_unit_orthogonal(ctx: Context, hypothesis: Hypothesis, data: GramData) -> None:
    """Record the exact hypothesis "x_i = e_i, y_i = +1 for i <= n/2" measured on ``data`` (Lemma F.3)."""
    ctx.regime(
        hypothesis,
        gram_dev=float(np.abs(data.G - np.eye(data.n)).max()),
        label_dev=float(np.sum(data.y != block_labels(data.n))),
    )
