r"""Adversarial instance search for the kou2023 trajectory lemmas (issue 14: "for every nearly
orthogonal data set and every small initialization").

An *instance* is a small data set (:math:`n=4` points, alternating labels), an explicit small
initialization and a slope :math:`\gamma`, all inside the hypotheses of Theorems 4.1 / 4.3 as the
claims instantiate them (:class:`Region`), and the exact GD run on it (:mod:`numeric.training.reduced_gd`,
step scale :math:`\eta R_{\max}^2/(nm)=0.05`, i.e. :math:`T_1=20` steps, as in every claim).
:func:`instance` maps *any* :math:`\theta\in\mathbb R^8` into the region:

* ``theta[0]`` -- the draw (rounded to an integer; the search holds it fixed, its rounding makes it
  piecewise constant): the random parts below, :math:`E\sim N(0,1)^{2m\times n}`, signs
  :math:`S^{f}_{ik}=\pm1` and the norm pattern :math:`u\in[0,1]^n` (:math:`u_0=0`, :math:`u_{n-1}=1`);
* ``theta[1]`` -- :math:`\kappa=np/R_{\min}^2=\kappa_{\max}\,\mathrm{sigmoid}(\theta_1)`, with
  :math:`\kappa_{\max}` the smaller of the claim's own :math:`\kappa` and the theorems' near
  orthogonality with the regime's :math:`C=10` (:func:`kappa_cap`);
* ``theta[2]`` -- the correlation pattern :math:`S=\cos\theta_2\,S^{adv}+\sin\theta_2\,S^f`
  (normalised to :math:`\max|S_{ik}|=1`), :math:`S^{adv}_{ik}=-y_iy_k` (opposite labels positively
  correlated: the hardest case for the margins);
* ``theta[3]`` -- norms :math:`\|x_i\|=R_{\mathrm{eff}}^{u_i}`,
  :math:`R_{\mathrm{eff}}=R^{\mathrm{sigmoid}(\theta_3)}`;
  :math:`G=\mathrm{diag}(\|x_i\|^2)+pS` with :math:`p=\kappa R_{\min}^2/n` (positive definite by
  Gershgorin for :math:`\kappa<1`);
* ``theta[4]`` -- :math:`\sigma_0=\sigma_{\max}10^{-2\,\mathrm{sigmoid}(\theta_4)}`;
* ``theta[5]``, ``theta[6]`` -- the initial projections
  :math:`\langle w^{(0)}_{j,r},x_i\rangle=3\sigma_0\|x_i\|\tanh(E_{jr,i}-2\theta_5\,jy_i+2\theta_6)`:
  ``theta[5] > 0`` turns every neuron against its class's sign :math:`jy_i` (the pattern must flip),
  ``theta[6] > 0`` switches every neuron on (ReLU: cross-class neurons active). Every projection is
  within :math:`3\sigma_0R_{\max}`, inside Lemma A.1's event :math:`|\langle w^{(0)},x_i\rangle|\le
  \sqrt{2\log(8mn/\delta)}\sigma_0R_{\max}` for :math:`\delta\le0.7`; the rows' parts orthogonal to the
  data are mutually orthogonal with :math:`\|\cdot\|^2=\sigma_0^2(d-n)`, :math:`d=2000` (the norm event);
* ``theta[7]`` -- :math:`\gamma=\gamma_{lo}+(\gamma_{hi}-\gamma_{lo})\,\mathrm{sigmoid}(\theta_7)`.

ReLU instances are projected onto the lemmas' event :math:`S_i^{(0)}\ne\emptyset` (the constants
:math:`c'=m/\min_i|S_i^{(0)}|` of Lemmas E.1, G.1 are then finite): where no neuron of class :math:`y_i`
is active on :math:`x_i`, the most active one has its projection's sign flipped. The violation of an
instance is the largest ratio over the claim's own conclusion checks, run on it unchanged through a
:class:`Probe` (so the search tests exactly what the claim checks): ``measured/bound`` for a positive
bound (``bound/measured`` for a lower bound), ``exp(excess)`` for a check stated as a margin against 0
(positive and monotone, so a comfortable margin still guides the search), and 0 for an exact count or
residual that is exactly 0 (nothing to climb); each is :math:`\le1` iff the check holds.

An instance on which every conclusion is *undecided* -- outside the regime the conclusion needs (the check
function calls ``undecided``), or with an undefined (NaN) measurement -- is no violation: it scores 0 and is
counted per family (a note). A family with more than half of its evaluations undecided makes the search
undecided (INCONCLUSIVE): the budget (:func:`budget`) is sized for decided instances, and such a family has
searched fewer than half of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatch
from typing import Any

import numpy as np

from numeric.data.near_orthogonal import GramData, alternating_labels
from numeric.models.fixed_readout import class_of_rows
from numeric.training.reduced_gd import InitialState, ReducedGD, log_grid
from verify.context import Context
from verify.papers.kou2023.common import Ens, Setup
from verify.papers.kou2023.hypotheses import NEAR_ORTH_C
from verify.search import squash

N = 4  # points per instance
D = 2000  # nominal input dimension (only the init's orthogonal part depends on it)
SCALE = 0.05  # eta R_max^2 / (nm): T_1 = 20 steps, as in the claims
DRAW_SALT = 20231127  # the draws' seeds, fixed before any search was run
# the ratio of a violated check with no finite ratio (a measurement <= 0 against a positive lower bound, an
# infinite one against an upper bound): a violation the search can climb. NaN is undecided, never this.
NONFINITE = 1e6


@dataclass(frozen=True)
class Region:
    """The hypotheses an instance must satisfy (the claims' own instantiation of the constants C)."""

    gammas: tuple[float, float]  # slope range; (0, 0) is ReLU
    kappa: float  # max n p / R_min^2
    R: float = 1.3  # max R_max / R_min
    sigma0: float = 1e-3  # max sigma0 (R_min = 1)
    m: int = 2
    steps: int = 2000
    early: bool = False  # run only to T_1 = 1/SCALE, every step recorded

    @property
    def relu(self) -> bool:
        return self.gammas[1] == 0

    def describe(self) -> str:
        g = "ReLU" if self.relu else f"gamma in [{self.gammas[0]:g}, {self.gammas[1]:g}]"
        horizon = f"t <= T_1 = {round(1 / SCALE)}" if self.early else f"{self.steps} steps"
        return (
            f"n = {N}, m = {self.m}, {g}, "
            f"kappa <= min({self.kappa:g}, {'0.1' if self.relu else '0.1 gamma^4'}/R^2), R <= {self.R:g}, "
            f"sigma0 <= {self.sigma0:g}, eta R^2/(nm) = {SCALE:g}, {horizon}"
        )


def kappa_cap(region: Region, gamma: float, R: float) -> float:
    r"""Largest :math:`\kappa` of an instance: the claim's own (``region.kappa``) and the theorem's
    near orthogonality with the regime's :math:`C` (:data:`NEAR_ORTH_C`):
    :math:`\kappa\le\gamma^4/(CR^2)` (Theorem 4.1, (B.4)) or :math:`\kappa\le1/(CR^2)` (ReLU, Theorem 4.3)."""
    return min(region.kappa, (1.0 if region.relu else gamma**4) / (NEAR_ORTH_C * R**2))


def instance(ctx: Context, theta: np.ndarray, region: Region, *, kappa_fraction: float = 1.0) -> Ens:
    r"""The GD run of the instance ``theta`` describes (module docstring); ``kappa_fraction`` scales its
    :math:`\kappa` (a sweep in :math:`\kappa` over one data pattern and init: only :math:`p` changes)."""
    theta = np.asarray(theta, float)
    m, n = region.m, N
    rng = np.random.default_rng(DRAW_SALT + int(np.round(theta[0])))
    E = rng.normal(size=(2 * m, n))
    U = np.triu(rng.choice([-1.0, 1.0], size=(n, n)), 1)
    u = np.concatenate([[0.0], rng.uniform(size=n - 2), [1.0]])
    y = alternating_labels(n)
    S = np.cos(theta[2]) * -np.outer(y, y) + np.sin(theta[2]) * (U + U.T)
    np.fill_diagonal(S, 0.0)
    S /= max(float(np.abs(S).max()), 1e-300)
    s = region.R ** (squash(theta[3]) * u)
    gamma = squash(theta[7], *region.gammas)
    kappa = kappa_cap(region, gamma, s.max() / s.min()) * squash(theta[1]) * kappa_fraction
    G = np.diag(s**2) + kappa * s.min() ** 2 / n * S
    data = GramData(G, y, D, "search instance")
    sigma0 = region.sigma0 * 10 ** (-2 * squash(theta[4]))
    J = class_of_rows(m)[:, None] * y[None, :]
    Z0 = 3 * sigma0 * s * np.tanh(E - 2 * theta[5] * J + 2 * theta[6])
    if region.relu:  # project onto S_i(0) nonempty: the most active own-class neuron is switched on
        rows = np.where(y > 0, np.argmax(Z0[:m], axis=0), m + np.argmax(Z0[m:], axis=0))
        Z0[rows, np.arange(n)] = np.abs(Z0[rows, np.arange(n)])
    K0 = Z0 @ np.linalg.solve(G, Z0.T) + sigma0**2 * (D - n) * np.eye(2 * m)
    eta = SCALE * n * m / data.R_max**2
    model = ReducedGD(ctx.backend, data, m, gamma, eta, InitialState(Z0[None], K0[None]))
    if region.early:
        T1 = round(1 / SCALE)
        red = model.run(T1, np.arange(T1 + 1), accelerate=False)
    else:
        T1 = region.steps
        red = model.run(T1, log_grid(T1), accelerate=True)
    return Ens(Setup(data, m, (gamma,), 1, SCALE, sigma0, T1, "search instance"), red)


def ratio(measured: float, bound: float, side: str) -> float:
    """The violation ratio of one check: <= 1 iff ``measured side bound`` (module docstring)."""
    if bound == 0 and measured == 0:
        return 0.0
    if bound > 0:
        if side == "<=":
            return measured / bound
        return bound / measured if measured > 0 else np.inf
    return float(np.exp(np.clip(measured - bound if side == "<=" else bound - measured, -700, 700)))


class Probe:
    """Stands in for the :class:`Context` in a claim's check function on a search instance: keeps the
    violation ratio of every bound whose name matches one of ``conclusions``, and the reason of every
    matching conclusion that is undecided on the instance."""

    def __init__(self, conclusions: Sequence[str]):
        self.conclusions = list(conclusions)
        self.ratios: dict[str, float] = {}
        self.skipped: dict[str, str] = {}

    def _matches(self, name: str) -> bool:
        return any(fnmatch(name, c) for c in self.conclusions)

    def bound(self, name: str, measured, bound, *, side: str = "<=", **_) -> bool:
        if self._matches(name):
            r = ratio(float(np.max(measured) if side == "<=" else np.min(measured)), float(bound), side)
            if np.isnan(r):
                self.undecided(name, f"undefined measurement ({measured!r} {side} {bound!r})")
            else:
                self.ratios[name] = r if np.isfinite(r) else NONFINITE
        return True

    def undecided(self, name: str, reason: str, **_) -> None:
        """Not decidable on this instance (outside the regime the conclusion needs, a time beyond its
        horizon, an undefined measurement): no ratio, the reason kept."""
        if self._matches(name):
            self.skipped[name] = reason

    def note(self, text: str) -> None:
        """Notes of the check functions are not kept."""

    def worst(self) -> float | None:
        """The largest ratio; ``None`` when every matching conclusion was undecided."""
        if not self.ratios:
            if self.skipped:
                return None
            raise RuntimeError(f"no check matched the conclusions {self.conclusions}")
        return max(self.ratios.values())


def starts(region: Region) -> dict[str, list[np.ndarray]]:
    """Three structurally different families, one start each (``theta`` as in the module docstring)."""
    on = (0.0, 1.0) if region.relu else (1.0, 0.0)  # (wrong, positive): ReLU keeps S_i(0) nonempty
    return {
        "Gaussian-like (kappa = kappa_max/2, random correlation signs, mid init)": [
            np.array([0, 0.0, np.pi / 2, 0.0, 0.0, 0.0, 0.0, 0.0])
        ],
        "hypothesis edge (kappa -> kappa_max, S = -y y^T, largest init, low gamma)": [
            np.array([1, 4.0, 0.0, 0.0, -4.0, 0.0, 0.0, -2.0])
        ],
        "ill-conditioned norms (R -> R_max), init against j y_i (ReLU: all on)": [
            np.array([2, 0.0, np.pi / 4, 4.0, -4.0, *on, 2.0])
        ],
    }


# Violations already computed in this process, by (search name, region, conclusions, theta): a claim
# that restates another's statement (Corollary E.3 of Lemma E.2) runs the same deterministic search.
_SEEN: dict[tuple, float] = {}


def search(
    ctx: Context,
    name: str,
    region: Region,
    checks: Callable[[Probe, Any], None],
    conclusions: Sequence[str],
    *,
    budget: int,
    why: str,
    build: Callable[[Context, np.ndarray, Region], Any] = instance,
) -> bool:
    """``ctx.search`` of the worst instance in ``region`` for the conclusions ``checks`` tests; undecided
    instances score 0, are counted per family (a note) and decide the search's coverage (module
    docstring). ``build`` makes what ``checks`` is given from ``theta`` (default: the :func:`instance`
    run; e.g. a sweep of such runs)."""
    families = starts(region)
    # each family's minimisation begins by evaluating its start, so the family of an evaluation is
    # the one whose start was evaluated last
    start_of = {np.asarray(t, float).tobytes(): family for family, ts in families.items() for t in ts}
    tally = {family: [0, 0] for family in families}  # evaluations, undecided
    current = [next(iter(families))]

    def violation(theta: np.ndarray) -> float:
        theta_key = np.asarray(theta, float).tobytes()
        current[0] = start_of.get(theta_key, current[0])
        key = (name, region, tuple(conclusions), theta_key)
        if key not in _SEEN:
            probe = Probe(conclusions)
            checks(probe, build(ctx, theta, region))
            _SEEN[key] = probe.worst()
        tally[current[0]][0] += 1
        if _SEEN[key] is None:
            tally[current[0]][1] += 1
            return 0.0
        return _SEEN[key]

    held = ctx.search(
        name,
        violation,
        families,
        budget=budget,
        why=f"{why}; instances: {region.describe()} (kou2023.instances); the claim's own checks "
        f"{list(conclusions)}; an instance on which they are all undecided scores 0 and is counted",
    )
    counts = "; ".join(f"{family}: {u} of {e}" for family, (e, u) in tally.items())
    if any(u for _, u in tally.values()):
        ctx.note(f"{name}: undecided instances (every conclusion outside its regime or undefined) {counts}")
    short = [family for family, (e, u) in tally.items() if 2 * u > e]
    if short:
        ctx.undecided(
            f"{name}: decided instances per family",
            f"more than half of the evaluations undecided in {short} ({counts}): the budget is sized for "
            "decided instances",
        )
    return held and not short


def budget(ctx: Context) -> int:
    """Nelder-Mead evaluations per start (3 starts; an instance costs 10-20 ms): a smoke test at tiny,
    27 instances at quick (the simplex around each start: the paper's quick total grows by < 30%), a
    real search at full."""
    return ctx.param("budget", tiny=4, quick=8, full=200)
