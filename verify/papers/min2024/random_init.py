r"""min2024 Sec. 3.1, "Merits of random initialization": how likely :math:`S_\pm` are populated at t1.

With :math:`[W_0]_{ij}\sim\mathcal N(0,1/D)` a neuron :math:`j\in\mathcal V_+` starts in
:math:`U_+=\bigcup_{i\in\mathcal I_+}\{w:\langle w,x_i\rangle>0\}` with probability :math:`p_+\ge1/2`
(:math:`U_+` contains the half-space of any one positive datum, of probability 1/2 since :math:`w` and
:math:`-w` are equally likely), with equality when the positive data share one direction. Theorem 1 puts
every such neuron in :math:`S_+` at :math:`t_1`, so with :math:`m` independent neurons in
:math:`\mathcal V_+`, :math:`P(S_+\text{ holds a neuron at }t_1)\ge1-(1-p_+)^m\ge1-2^{-m}`; mirror for
:math:`S_-`.

For two positive data at angle :math:`\theta` the value is exact: :math:`U_+` meets their plane in a
wedge of angle :math:`\pi+\theta`, and the projection of an isotropic Gaussian onto the plane is
isotropic, so :math:`p_+=1/2+\theta/(2\pi)` in any dimension.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import numpy as np

from numeric.data.separated_data import MINUS, PLUS, activation, aggregates, separation
from verify.claim import claim
from verify.context import Context
from verify.papers.min2024.common import (
    REDUCED_LOG_EPS,
    Problem,
    cone_problem,
    family_problem,
    log_eps_threshold,
)
from verify.papers.min2024.hypotheses import ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28, SYMMETRIC_INIT
from verify.papers.min2024.instances import SEARCH_CONE, cone_instance, cone_starts
from verify.papers.min2024.regimes import record
from verify.papers.min2024.theorem1 import _alignment_run

Sampler = Callable[[np.random.Generator, tuple[int, ...], np.ndarray, np.ndarray, np.ndarray], np.ndarray]
WIDTHS = (1, 2, 3)  # m, the neurons per sign: 1 - 2^-m = 1/2, 3/4, 7/8
# The search's allowance for its own sampling error, in standard errors of p at 1/2: a one-sided normal
# tail of 3.4e-6 per instance, so < 2e-3 over the full profile's ~500 evaluations at the equality case.
SEARCH_Z = 4.5
BIAS = 2.0  # the control's shift of each w_j against its own aggregate, in units of the draw's scale


def gaussian(rng: np.random.Generator, shape: tuple[int, ...], X, y, s) -> np.ndarray:
    r"""The paper's shapes: :math:`[W_0]_{ij}\sim\mathcal N(0,1/D)` i.i.d. (``shape`` = (..., h, D))."""
    return rng.normal(size=shape) / np.sqrt(shape[-1])


def biased(rng: np.random.Generator, shape: tuple[int, ...], X, y, s) -> np.ndarray:
    r"""Not symmetric: each :math:`w_j` shifted by ``BIAS`` standard deviations against its own
    aggregate :math:`\hat x_{s_j}` (:math:`w`, :math:`-w` not equally likely); ``s`` shaped ``shape[:-1]``."""
    xp, xm = (a / np.linalg.norm(a) for a in aggregates(X, y))
    own = np.where(np.asarray(s)[..., None] > 0, xp, xm)
    return gaussian(rng, shape, X, y, s) - BIAS / np.sqrt(shape[-1]) * own


def starts_own(W: np.ndarray, X: np.ndarray, y: np.ndarray, label: float) -> np.ndarray:
    r"""Whether each row of ``W`` activates a datum of class ``label``: :math:`w\in U_{\pm}`."""
    return activation(W, X)[..., y == label].any(-1)


def collinear_positives(rng: np.random.Generator, n: int, D: int = 3) -> tuple[np.ndarray, np.ndarray]:
    r"""Data whose positive points share the direction :math:`e_1` (radii in [0.5, 1.5]): :math:`p_+=1/2`
    exactly, the equality case. Negatives :math:`-r_i(e_1+\tan(1/2)z_i)`, :math:`z_i\perp e_1` unit: every
    generator within 1/2 rad of :math:`e_1`, so :math:`\mu\ge\cos1>0`."""
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    z = rng.normal(size=(n, D - 1))
    z /= np.linalg.norm(z, axis=1, keepdims=True)
    G = np.concatenate([np.ones((n, 1)), np.tan(0.5) * z * (y < 0)[:, None]], axis=1)
    return (y * rng.uniform(0.5, 1.5, n))[:, None] * G, y


def two_positives(angle: float, D: int = 4) -> tuple[np.ndarray, np.ndarray]:
    r"""Two positive data at ``angle`` (< pi/2) and two negatives whose generators lie between them, tilted
    off their plane by +-0.3: :math:`\mu>0`, :math:`p_+=1/2+\text{angle}/(2\pi)`."""
    e = np.eye(D)
    mid = np.cos(angle / 2) * e[0] + np.sin(angle / 2) * e[1]
    X = np.stack(
        [e[0], np.cos(angle) * e[0] + np.sin(angle) * e[1], -(mid + 0.3 * e[2]), -(mid - 0.3 * e[2])]
    )
    return X, np.array([1.0, 1.0, -1.0, -1.0])


def _start_counts(rng, sample: Sampler, X, y, draws: int) -> tuple[list[int], list[int]]:
    """Own-class starts of ``draws`` single neurons in V+ and in V-: (successes, trials) for each sign."""
    k = [
        int(starts_own(sample(rng, (draws, X.shape[1]), X, y, np.full(draws, sgn)), X, y, sgn).sum())
        for sgn in (1.0, -1.0)
    ]
    return k, [draws, draws]


def _flow(ctx: Context, sample: Sampler, X, y, m: int, trials: int, rng) -> tuple[Problem, dict]:
    """``trials`` members of m neurons per sign from ``sample``, run to t1 (:func:`theorem1._alignment_run`,
    eps = (28)'s threshold / e); per member: S+ / S- populated at the horizon, own-class starts, misses."""
    s = np.broadcast_to(np.r_[np.ones(m), -np.ones(m)], (trials, 2 * m)).copy()
    W0 = sample(rng, (trials, 2 * m, X.shape[1]), X, y, s)
    p = Problem(X, y, W0, s, np.full(trials, REDUCED_LOG_EPS))
    p = p.with_log_eps([log_eps_threshold(p, b) - 1.0 for b in range(p.B)])
    r = _alignment_run(ctx, p, rtol=1e-7)
    codes = r["ev"].codes[np.arange(p.B), np.searchsorted(r["ts"], r["horizon"])]
    return p, {
        "ok": bool(r["ok"].all()),
        "plus": ((codes == PLUS) & (s > 0)).any(-1),
        "minus": ((codes == MINUS) & (s < 0)).any(-1),
        "missed": int(r["missed"].sum()),
        "start_plus": (starts_own(W0, X, y, 1.0) & (s > 0)).any(-1),
    }


def _families(ctx: Context) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Three data families: family F (n = 6, mu = 0.5), random cones in R^4 (n = 24 at quick, 2:1 classes)
    and collinear positive data (the equality case of the start probability)."""
    cone_n = ctx.param("cone_n", tiny=12, quick=24, full=48)
    f = family_problem(ctx.rng("data/F").host, 6, 0.5, 1, 1)
    c = cone_problem(ctx.rng("data/cones").host, cone_n, 0.5, 1, 1)
    return {
        "family F, n = 6": (f.X, f.y),
        f"random cones, n = {cone_n}": (c.X, c.y),
        "collinear positive data, n = 6": collinear_positives(ctx.rng("data/collinear").host, 6),
    }


def _conclusions(
    ctx: Context, families: dict, sample: Sampler, draws: int, trials: int, delta: float
) -> list[Problem]:
    """The start probability (>= 1/2 on the generic families, = 1/2 on collinear positives) and
    P(S+- populated at t1) >= 1 - 2^-m for m in WIDTHS on every family, with ``sample``'s shapes."""
    rng = ctx.rng("draws").host
    k, n, flows, ran = [], [], [], []
    for name, (X, y) in families.items():
        ks, ns = _start_counts(rng, sample, X, y, draws)
        if name.startswith("collinear"):
            ctx.probability(
                f"P(a V+ neuron starts in U+) = 1/2 on {name} (the bound is attained)",
                ks[0],
                ns[0],
                equals=0.5,
                detect=0.5 - delta,
                why="the positive data share one ray, so U+ is one half-space; Gaussian draws, exact counts",
            )
            ks, ns = ks[1:], ns[1:]
        k += ks
        n += ns
        for m in WIDTHS:
            p, row = _flow(ctx, sample, X, y, m, trials, rng)
            ran.append(p)
            flows.append({"family": name, "m": m, **row})
    ctx.probability(
        "P(a V+ neuron starts in U+) >= 1/2 and P(a V- neuron starts in U-) >= 1/2 (family F, cones; V- on "
        "collinear positives)",
        k,
        n,
        at_least=0.5,
        detect=0.5 - delta,
        why="U+ contains the half-space of any one positive datum, of probability 1/2 by w -> -w; Gaussian "
        "draws, exact counts",
    )
    ctx.holds(
        "every run integrated to its horizon; own-class activation at 0 => the neuron in its cone at t1",
        all(r["ok"] for r in flows) and sum(r["missed"] for r in flows) == 0,
        measured=f"{sum(r['missed'] for r in flows)} misses in {len(flows)} ensembles",
        expected="0 misses, all solved",
        why="Theorem 1 part 1's 'moreover', the step from the start probability to S+- at t1; exact counts",
    )
    hits = np.array([[r["plus"].sum(), r["minus"].sum()] for r in flows]).ravel()
    bound = np.repeat([1.0 - 2.0 ** -r["m"] for r in flows], 2)
    ctx.probability(
        "P(S+ holds a neuron at t1) >= 1 - 2^-m and P(S- holds one) >= 1 - 2^-m, m = 1, 2, 3, three families",
        hits,
        np.full(hits.size, trials),
        at_least=bound,
        detect=bound - delta,
        why="balanced flow from the random shapes to min(explicit t1, 20/mu) at eps = (28)'s threshold / e; "
        "S+- read at that horizon (Lemma 12 carries the labels on to t1)",
    )
    return ran


def _start_ratio(theta: np.ndarray, draws: int) -> float:
    r"""(1/2 - ``SEARCH_Z`` standard errors) / the sampled :math:`p_+` of the data of ``theta``
    (:func:`instances.cone_instance`, :math:`\mu>0`): > 1 iff :math:`p_+<1/2` beyond sampling error. Fresh
    draws per instance, seeded by the instance, so the search cannot fit one sample's fluctuations."""
    X, y, _ = cone_instance(theta, 0, SEARCH_CONE)
    rng = np.random.default_rng(zlib.crc32(np.asarray(theta, float).tobytes()))
    p = float(starts_own(gaussian(rng, (draws, X.shape[1]), X, y, None), X, y, 1.0).mean())
    return (0.5 - SEARCH_Z * 0.5 / np.sqrt(draws)) / p


@claim(
    "min2024:random-init",
    title="Random init: a neuron starts with own-class activation w.p. >= 1/2, so S+- are populated at t1 "
    "w.p. >= 1 - 2^-m",
    source="Sec. 3.1, 'Merits of random initialization' (after Theorem 1)",
    statement=(
        r"With $[W_0]_{ij}\sim\mathcal N(0,1/D)$ a neuron of $\mathcal V_+$ starts in "
        r"$\bigcup_{i\in\mathcal I_+}\{w:\langle w,x_i\rangle>0\}$ with probability $\ge1/2$; "
        r"with $m$ neurons in $\mathcal V_+$, $P(S_+$ holds a neuron at $t_1)\ge1-2^{-m}$; the same for $S_-$"
    ),
    hypotheses=[SYMMETRIC_INIT, ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28, "exponential loss (sum)"],
)
def random_init(ctx: Context) -> None:
    draws = ctx.param("draws", tiny=4000, quick=40000, full=400000)
    trials = ctx.param("trials", tiny=96, quick=300, full=2000)
    delta = ctx.param("delta", tiny=0.2, quick=0.1, full=0.04)
    search_draws = ctx.param("search_draws", tiny=4000, quick=20000, full=100000)
    budget = ctx.param("budget", tiny=20, quick=100, full=400)
    families = _families(ctx)
    ran = _conclusions(ctx, families, gaussian, draws, trials, delta)
    record(ctx, ran, ASSUMPTION_1, ASSUMPTION_2, BALANCED, EPS_28)
    X, y = two_positives(np.pi / 3)
    k, n = _start_counts(ctx.rng("draws/two").host, gaussian, X, y, draws)
    ctx.probability(
        "two positive data at 60 degrees: P(a V+ neuron starts in U+) = 1/2 + theta / (2 pi) = 2/3",
        k[0],
        n[0],
        equals=2 / 3,
        detect=2 / 3 - delta,
        why="U+ meets the data's plane in a wedge of angle pi + theta, and the Gaussian's projection onto "
        "the plane is isotropic; checks that the sampled probability resolves the geometry",
    )
    ctx.search(
        "search: worst (1/2 - 4.5 standard errors) / P(a V+ neuron starts in U+) over data with mu > 0",
        lambda theta: _start_ratio(theta, search_draws),
        cone_starts(ctx.rng("search").host, 0, SEARCH_CONE),
        budget=budget,
        why=f"Nelder-Mead over {SEARCH_CONE[0]} data in R^{SEARCH_CONE[1]} (alternating labels, mu > 0 by "
        f"construction), {search_draws} fresh Gaussian draws per instance; the infimum 1/2 is approached as "
        "the positive generators close up on one ray",
    )
    with ctx.control(
        f"W0 shifted {BIAS:g} standard deviations against the own aggregate",
        breaks=SYMMETRIC_INIT,
        must_break=["P(a V+ neuron starts in U+) >= 1/2*", "P(a V+ neuron starts in U+) = 1/2 on*"],
    ):
        _conclusions(ctx, families, biased, draws, trials, delta)
    ctx.note(
        "the flow's P(S+- populated at t1) lies far above 1 - 2^-m, and stays above it under the biased "
        "control: a V+ neuron without positive activation at 0 is driven toward -x_i of its active negative "
        "data, which correlate positively with the positive data (mu > 0), and gains positive activation; so "
        "the start probability is a sufficient route, not the only one, and only it depends on the symmetry"
    )
    ctx.note(
        "mu of the families: "
        + ", ".join(f"{name}: {separation(*data):.3f}" for name, data in families.items())
    )
