r"""dana2025 Lemma 6 (App. A.1, eqs. (19)-(22)): the loss at initialization is bounded.

With :math:`K=\|a\langle w|\bar x\rangle_+\|_{\psi_1}C_x^+/C_y^+` and an absolute constant
:math:`c` (Bernstein), :math:`p\ge\frac1c\log\frac2\varepsilon\max(K^2,K)` gives
:math:`\Pr(L(\theta_0)\le2(C_y^+)^2)\ge1-\varepsilon`, for any data and any i.i.d., centred,
rotation-invariant, sub-Gaussian law of :math:`(a_j,w_j)`.

The law is App. B's with its exponential excess replaced by a half-normal one (:func:`draws`):
App. B's :math:`|a_j|-\|w_j\|\sim\mathrm{Exp}(1)` is not sub-Gaussian, and
:math:`a\langle w|\bar x\rangle_+` then has tails :math:`e^{-\Theta(u^{2/3})}` and
:math:`\psi_1` norm :math:`\infty` (the lemma says nothing there). The constant :math:`c` is not given,
so the lemma is tested through what it does fix:

* scaling the pair :math:`(a,w)\to(sa,sw)` (Assumption 1 is kept) multiplies :math:`K` by
  :math:`s^2`; the smallest width :math:`p_{\min}(s)` with failure frequency :math:`\le\varepsilon`
  must then grow at most like :math:`K^2\propto s^4` (order 2 in :math:`s^2`; measured, the order is
  sharp);
* :math:`c` fitted on that sweep (one example, d = 1) serves every other instance: an adversarial
  search over data (label and norm spreads, correlated inputs) and the scale, with the width the
  lemma gives at the instance's :math:`K` (:func:`psi1_norm` computes the :math:`\psi_1` norm);
* the width found for one example suffices for ``n`` examples of the same :math:`K` (the proof
  bounds the loss by its worst example :math:`I`, a random index, without a union bound: the
  catalog's [ERROR?]). :math:`K` depends on the dimension through :math:`\kappa_d`
  (:math:`\kappa_1=2.98`, :math:`\kappa_{10}=0.647`, :math:`\kappa_{100}=0.192`), so ``n`` examples in
  :math:`d=n` run at :math:`s_n^2=s^2\kappa_1/\kappa_n`, where :math:`K` equals the one-example :math:`K`;
* control: a tenth of the required width, at ``n > 1`` (same :math:`K`).

All networks of widths :math:`1..p` come from one draw: the width-:math:`p` network is the
first :math:`p` neurons, so :math:`h^{(p)}=\frac1p\sum_{j\le p}a_j\langle w_j|x\rangle_+`
is a cumulative mean (common random numbers across widths and scales). ReLU with
:math:`\sigma(0)=0` (the value at a kink; no derivative is taken).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize, special, stats

from numeric.data.weakly_correlated import appendix_b_labels, appendix_b_norms, sphere_directions
from verify.claim import claim
from verify.context import Context
from verify.papers.dana2025.common import order_at_most
from verify.papers.dana2025.hypotheses import WIDTH_L6
from verify.search import squash

CONF = 0.99
EPS_PROB = 0.05  # the lemma's epsilon
S2_RANGE = (1.5, 8.0)  # s^2 of the sweeps and the search (K >= 4.5 at d = 1, >= 2 at d = 3: K^2 branch)
SEARCH_D = 3  # dimension of the search's multi-example instances (n = 3 inputs in general position)


@dataclass(frozen=True)
class Draws:
    r"""Standard draws of ``M`` networks of width ``p`` in dimension ``d`` at scale 1: ``Z`` ``(M, p, d)``
    (:math:`w_j=sZ_j/\sqrt d`), ``U`` ``(M, p)`` half-normal, ``S`` ``(M, p)`` signs."""

    Z: np.ndarray
    U: np.ndarray
    S: np.ndarray


def draws(rng: np.random.Generator, M: int, p: int, d: int) -> Draws:
    r"""The law at scale :math:`s`: :math:`w_j\sim\mathcal N(0,s^2I_d/d)`,
    :math:`a_j=S_j(\|w_j\|+s|G_j|)`, :math:`S_j` uniform in :math:`\{\pm1\}`, :math:`G_j\sim\mathcal N(0,1)`:
    i.i.d., centred, rotation invariant, sub-Gaussian, with Assumption 1 (:math:`|a_j|\ge\|w_j\|`)."""
    return Draws(rng.normal(size=(M, p, d)), np.abs(rng.normal(size=(M, p))), rng.choice([-1.0, 1.0], (M, p)))


def outputs(dr: Draws, X: np.ndarray, p: int, *, nested: bool) -> np.ndarray:
    r"""Outputs :math:`h(x_i)` at scale 1 (scale :math:`s` multiplies them by :math:`s^2`) of the first ``p``
    neurons, inputs ``X`` ``(n, d)``: :math:`a_j\langle w_j|x_i\rangle_+` with :math:`\sigma(0)=0`.

    ``nested``: all widths ``1..p`` at once, ``(M, p, n)``; otherwise width ``p`` only, ``(M, n)``.
    """
    Z = dr.Z[:, :p]
    d = Z.shape[-1]
    a = dr.S[:, :p] * (np.linalg.norm(Z, axis=-1) / np.sqrt(d) + dr.U[:, :p])
    terms = a[:, :, None] * np.maximum(Z @ X.T / np.sqrt(d), 0.0)
    if nested:
        return np.cumsum(terms, axis=1) / np.arange(1, p + 1)[None, :, None]
    return terms.mean(axis=1)


def fails(h: np.ndarray, y: np.ndarray, s2: float) -> np.ndarray:
    r""":math:`L(\theta_0)>2(C_y^+)^2` for outputs ``h`` (last axis: examples) at scale :math:`s^2`."""
    L0 = 0.5 * ((y - s2 * h) ** 2).mean(axis=-1)
    return L0 > 2 * np.abs(y).max() ** 2


def p_min(freq: np.ndarray, eps: float) -> int:
    """Smallest width p with failure frequency <= eps at p and every larger width measured."""
    bad = np.nonzero(freq > eps)[0]
    return int(bad[-1]) + 2 if len(bad) else 1


# psi1_norm's v grid [0, 30] holds chi_(d-1) (at sqrt(d - 1) +- 0.7) up to d ~ 700: sqrt(d) kappa_d reads
# 1.9118 at d = 640 and 1.9116 at 700; kappa_1000 would read 0.034 where ~0.060 is expected (measured)
PSI1_MAX_D = 700


def psi1_norm(d: int) -> float:
    r""":math:`\kappa_d=\|a\langle w|\bar x\rangle_+\|_{\psi_1}` of :func:`draws`' law at :math:`s=1`, the
    root of :math:`\mathbb E\,e^{X/t}=2` (:math:`X\ge0` on :math:`\langle w|\bar x\rangle>0`, else 0).

    With :math:`g=\sqrt d\langle w|\bar x\rangle\sim\mathcal N(0,1)`,
    :math:`v^2=d\|w\|^2-g^2\sim\chi^2_{d-1}` independent and :math:`\lambda=g/(t\sqrt d)`, the half-normal
    factor integrates in closed form, :math:`\mathbb E\,e^{\lambda|G|}=2e^{\lambda^2/2}\Phi(\lambda)`, so
    :math:`\mathbb E\,e^{X/t}=\frac12+\int_0^\infty\varphi(g)\,2e^{\lambda^2/2}\Phi(\lambda)\,
    \mathbb E_v e^{\lambda\sqrt{(g^2+v^2)/d}}\,dg` (trapezoid in log space on :math:`g\le60`,
    :math:`v\le30`; doubling both grids moves :math:`\kappa_d` by < 1e-5 relative; a Monte Carlo mean of
    :math:`e^{X/\kappa_d}` over 2e6 draws reads 1.94-2.05). Below the root the integral diverges (the
    exponent's :math:`g^2` coefficient turns positive): read as > 2.
    """
    if d > PSI1_MAX_D:
        raise ValueError(
            f"psi1_norm: the v grid [0, 30] holds chi_(d-1)'s mass only for d <= {PSI1_MAX_D}, got {d}"
        )
    g = np.linspace(0.0, 60.0, 3000)[:, None]
    v = np.linspace(0.0, 30.0, 1000)[None, :] if d > 1 else np.zeros((1, 1))

    def excess(t: float) -> float:
        lam = g / (t * np.sqrt(d))
        log_f = -(g**2) / 2 + lam**2 / 2 + np.log(2 / np.sqrt(2 * np.pi)) + special.log_ndtr(lam)
        log_f = log_f + lam * np.sqrt((g**2 + v**2) / d)
        if d > 1:
            log_f = log_f + stats.chi.logpdf(v, d - 1)
        top = float(log_f.max())
        f = np.exp(log_f - top)
        inner = np.trapezoid(f, v[0], axis=1) if d > 1 else f[:, 0]
        if top > 700 or f[-1].max() > 1e-12:  # divergent (or not yet decayed at the grid's end)
            return np.inf
        return float(np.log(0.5 + np.trapezoid(inner, g[:, 0]) * np.exp(top)) - np.log(2.0))

    lo = 0.5
    while excess(lo) < 0:  # E e^{X/lo} < 2: lo is already above the root
        lo /= 2
    return float(optimize.brentq(lambda t: min(excess(t), 50.0), lo, 50.0, xtol=1e-12))


def lower_bound(k: int, m: int, level: float) -> float:
    """One-sided Clopper-Pearson lower confidence bound of a probability from k of m at ``level``."""
    return float(stats.beta.ppf(level, k, m - k + 1)) if k else 0.0


@claim(
    "dana2025:lemma-6",
    title="Lemma 6: p >~ log(2/eps) max(K^2, K) neurons give L(theta_0) <= 2 (C_y^+)^2 w.p. 1 - eps",
    source="Lemma 6, App. A.1, eqs. (19)-(22)",
    statement=r"If $p\ge\frac1c\log\frac2\varepsilon\max(K^2,K)$, $K=\|a\langle w|\bar x\rangle_+\|_{\psi_1}"
    r"\frac{C_x^+}{C_y^+}$, then $\Pr(L(\theta_0)\le2(C_y^+)^2)\ge1-\varepsilon$ (19).",
    hypotheses=[
        r"$(a_j,w_j)$ i.i.d., centred, rotation invariant, sub-Gaussian (App. B law with a half-normal "
        r"$|a_j|-\|w_j\|$, scaled by s)",
        WIDTH_L6,
    ],
)
def lemma_6(ctx: Context) -> None:
    M = ctx.param("trials", tiny=600, quick=3000, full=8000)
    ns = ctx.param("n_grid", tiny=[1, 10], quick=[1, 10, 100], full=[1, 10, 100, 300])
    # s^2 over 1.5..8 at every profile: the order's tolerance below is derived for that range (log 5.3 =
    # 1.67); tiny had 1.5..4 (range 0.98, where the same error budget allows 0.51)
    s2_max = ctx.param("s2_max", tiny=8.0, quick=8.0, full=8.0)
    budget = ctx.param("budget", tiny=12, quick=40, full=120)
    rng = ctx.rng("lemma6").host
    _law_grid(ctx, rng, [n for n in ns if n >= 10], M)
    # Scaling of the required width with K: one example, |y| = ||x|| = 1, d = 1 (K largest).
    s2 = np.geomspace(S2_RANGE[0], s2_max, 5)
    pmax = int(40 * s2.max() ** 2)
    pm = _p_min_sweep(rng, M, s2, 1, pmax)
    if pm.max() >= pmax:  # the instrument's range, not the lemma (c is unspecified): no verdict either way
        ctx.undecided(
            f"p_min(s) below the largest width tried ({pmax})",
            "the failure frequency did not drop below eps inside the measured widths: p_min and its order "
            "are not measured (any finite p_min is consistent with some c)",
            measured=pm,
        )
    span = float(np.log(s2[-1] / s2[0]))  # log s^2 range of the fit
    tol = 0.3 * max(1.0, 1.67 / span)
    fit = order_at_most(
        ctx,
        f"order of the smallest width with P(L0 > 2 (C_y^+)^2) <= {EPS_PROB} in K ~ s^2 (n = 1, d = 1, {M} "
        "draws)",
        s2,
        pm.astype(float),
        order=2.0,
        tol=tol,
        why="(19) is a sufficient width, p >= (1/c) log(2/eps) max(K^2, K) with c unspecified: its content "
        "is that the required width grows at most like K^2 (K >= 1 here), so the lemma is refuted only by an "
        "order above 2 -- a smaller order is allowed (before, a two-sided 'order = 2' check would have "
        "failed the lemma on it). The order's allowance for pre-asymptotic terms is derived: p_min = z_eps^2 "
        "s^4 Var(a<w|x>_+) exactly in the CLT limit; skewness corrections O(p^-1/2) (<= 20% at p = 20) move "
        "log p_min by <= 0.18 over a log s^2 range of 1.67 (slope error <= 0.11); frequency noise "
        "sqrt(eps(1-eps)/M) <= 0.009 (M >= 600) moves each p_min by <= 10% (slope error <= 0.06); width "
        "rounding <= 5%. Sum 0.3 for the range 1.67 (s^2 = 1.5..8), scaled by 1.67/range below it (range "
        f"here {span:.2f}); the fit's own 95% interval on top",
        xlabel="s^2 (K / K(s=1))",
        ylabel="p_min",
    )
    # c of (19) as the single-example sweeps set it: the largest c whose width (1/c) log(2/eps) K^2 reaches
    # p_min at every s, in both dimensions the search uses (the sharp c depends on the law through
    # psi_1 / sd of a<w|xbar>_+: 1.85 at d = 1, 1.76 at d = 3)
    kappa = {d: psi1_norm(d) for d in sorted({1, SEARCH_D, *ns})}
    pm3 = _p_min_sweep(rng, M, s2, SEARCH_D, int(pmax * (kappa[SEARCH_D] / kappa[1]) ** 2))
    c_of = {d: np.log(2 / EPS_PROB) * (kappa[d] * s2) ** 2 / q for d, q in ((1, pm), (SEARCH_D, pm3))}
    c_fit = float(min(c.min() for c in c_of.values()))
    _search(ctx, M, budget, c_fit, kappa)
    s2_mid, p_req = float(s2[2]), int(pm[2])
    # p_min is where n = 1 fails with frequency eps: a fresh n = 1 sample there sits on the bound by
    # construction (a coin flip, no evidence either way); the lemma's content at p_min is that the width
    # set by one example serves n examples of the same K, so the check runs on n > 1, each n at the scale
    # where its K (kappa_n s_n^2, unit norms, |y| = 1) equals the one-example K (kappa_1 s^2)
    many = [n for n in ns if n > 1]
    _uniform_in_n(ctx, rng, many, M, s2_mid, kappa, p_req, f"p = p_min(n = 1) = {p_req}")
    table = dict(zip(np.round(s2, 2).tolist(), pm.tolist(), strict=True))
    ctx.note(
        f"p_min(s^2) = {table} (n = 1, eps = {EPS_PROB}): fitted order {fit.slope:.3f} [{fit.lo:.2f}, "
        f"{fit.hi:.2f}] in K, so the K^2 width of the lemma is sharp here (the CLT gives exactly 2; not part "
        "of the statement, which bounds the order from above only). psi_1 norms of a<w|xbar>_+ at s = 1: "
        f"{kappa[1]:.4f} (d = 1), {kappa[SEARCH_D]:.4f} (d = {SEARCH_D}); largest c whose width covers "
        f"p_min, per s^2: {np.round(c_of[1], 3).tolist()} (d = 1), {np.round(c_of[SEARCH_D], 3).tolist()} "
        f"(d = {SEARCH_D}, p_min {pm3.tolist()}); the search uses their minimum c = {c_fit:.4g}. The proof's "
        "worst-index bound (20)-(21) treats the random index I as "
        "fixed; with the width set by one example, n examples of the same K fail less often (the loss is a "
        "mean), so the missing union bound is harmless here."
    )
    ctx.note(
        "Law: App. B's |a_j| - ||w_j|| ~ Exp(1) is not sub-Gaussian; a<w|xbar>_+ then has tails exp(-Theta("
        "u^(2/3))) (an Exp(1) times a Gaussian), psi_1 norm infinity and K = infinity, so Lemma 6 says "
        "nothing about App. B's own initialization. The claim runs App. B's law with the excess "
        "half-normal instead (|a_j| >= ||w_j|| kept)."
    )
    p_ctl = max(p_req // 10, 1)
    with ctx.control(
        f"width p = p_min/10 = {p_ctl} at the one-example K (s^2 = {s2_mid:.2f} at d = 1), n > 1",
        breaks=WIDTH_L6,
        must_break=["P(L0 <= 2 (C_y^+)^2) >= 1 - 0.05 at K = *"],
    ):
        _uniform_in_n(ctx, rng, many, M, s2_mid, kappa, p_ctl, f"p = {p_ctl}")


def _p_min_sweep(rng: np.random.Generator, M: int, s2: np.ndarray, d: int, pmax: int) -> np.ndarray:
    """p_min at each scale s^2 for one example x = e_1, y = 1 in dimension d (widths 1..pmax, nested)."""
    x = np.eye(d)[:1]
    h = outputs(draws(rng, M, pmax, d), x, pmax, nested=True)
    return np.array([p_min(fails(h, np.ones(1), s).mean(axis=0), EPS_PROB) for s in s2])


def _instance(theta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    r"""``(s^2, X, y)`` of a search parameter: length 1, one example :math:`x=y=1` in d = 1; length 8,
    n = d = 3 with :math:`\|x_1\|=C_x^+=1`, :math:`y_1=C_y^+=1` (the event and :math:`K` see the scales only
    through :math:`s^2C_x^+/C_y^+`), norms :math:`\|x_{2,3}\|\in[0.05,1]`, labels
    :math:`y_{2,3}\in\pm[0.05,1]` of either sign (:math:`C_y^->0`) and directions :math:`e_1`,
    :math:`(\cos t_0,\sin t_0,0)`,
    :math:`(\cos t_1,\sin t_1\cos t_2,\sin t_1\sin t_2)`: every configuration up to rotation (the law is
    rotation invariant), collinear ones included."""
    s2 = squash(theta[0], *S2_RANGE)
    if len(theta) == 1:
        return s2, np.ones((1, 1)), np.ones(1)
    norms = np.array([1.0, squash(theta[1], 0.05, 1.0), squash(theta[2], 0.05, 1.0)])
    u = np.array([squash(theta[3], -1.0, 1.0), squash(theta[4], -1.0, 1.0)])
    y = np.concatenate([[1.0], np.where(u < 0, -1.0, 1.0) * np.maximum(np.abs(u), 0.05)])
    t = theta[5:8]
    X = np.array(
        [
            [1.0, 0.0, 0.0],
            [np.cos(t[0]), np.sin(t[0]), 0.0],
            [np.cos(t[1]), np.sin(t[1]) * np.cos(t[2]), np.sin(t[1]) * np.sin(t[2])],
        ]
    )
    return s2, X * norms[:, None], y


HALF_PI = np.pi / 2
ORTHO = (HALF_PI, HALF_PI, 0.0)  # angles of e_1, e_2, e_3
# Start families (theta of :func:`_instance`): centres; each gets a second start perturbed by N(0, 1/4)
SEARCH_FAMILIES = {
    "one example, K over the sweep (n = d = 1)": [0.0],
    "label-magnitude spread, C_y^-/C_y^+ ~ 0.1 (orthogonal unit inputs)": [0, 6, 6, 0.2, -0.2, *ORTHO],
    "input-norm spread, C_x^-/C_x^+ ~ 0.1 (orthogonal inputs, |y_i| = 1)": [0, -3, -3, 6, -6, *ORTHO],
    "correlated unit inputs (angles ~ 0.3), equal labels": [0, 6, 6, 6, 6, 0.3, 0.3, HALF_PI],
    "correlated unit inputs, labels of opposite signs": [0, 6, 6, -6, 6, 0.3, 0.3, HALF_PI],
}


def _search(ctx: Context, M: int, budget: int, c_fit: float, kappa: dict[int, float]) -> None:
    r"""Adversarial search over instances inside the hypotheses (:func:`_instance`): the worst
    :math:`\Pr(L_0>2(C_y^+)^2)/\varepsilon` at the lemma's width :math:`\lceil\frac1c\log\frac2\varepsilon
    \max(K^2,K)\rceil`, :math:`K=\kappa_ds^2C_x^+/C_y^+`, with the fitted :math:`c`.

    The draws are fixed per dimension (common random numbers: the ratio is a deterministic function of the
    instance); it reads the Clopper-Pearson lower bound at the Bonferroni level :math:`\alpha/N` over the
    :math:`N` instances the search may evaluate (the union bound over the visited instances; they are
    chosen on the same draws, which the bound does not model: a fresh draw at the worst instance would not
    help, the one-example instances sit at :math:`\varepsilon` by the fit of :math:`c`).
    """
    starts_rng = ctx.rng("lemma6-search-starts").host
    n_eval = len(SEARCH_FAMILIES) * 2 * budget  # Nelder-Mead evaluates <= budget instances per start
    level = (1 - CONF) / n_eval
    log_term = np.log(2 / EPS_PROB)

    def width(s2: float, X: np.ndarray) -> int:
        K = kappa[X.shape[1]] * s2 * np.linalg.norm(X, axis=1).max()  # C_y^+ = 1
        return int(np.ceil(log_term * max(K**2, K) / c_fit))

    pmax = {d: width(S2_RANGE[1], np.eye(d)) for d in (1, SEARCH_D)}
    fixed = {d: draws(ctx.rng(f"lemma6-search-d{d}").host, M, pmax[d], d) for d in pmax}

    def ratio(theta: np.ndarray) -> float:
        s2, X, y = _instance(theta)
        p = width(s2, X)
        k = int(fails(outputs(fixed[X.shape[1]], X, p, nested=False), y, s2).sum())
        return lower_bound(k, M, level) / EPS_PROB

    starts = {
        name: [np.asarray(c, float), np.asarray(c, float) + 0.5 * starts_rng.normal(size=len(c))]
        for name, c in SEARCH_FAMILIES.items()
    }
    k_min = next(k for k in range(M + 1) if lower_bound(k, M, level) > EPS_PROB)  # smallest count read > 1
    ctx.search(
        f"search: P(L0 > 2 (C_y^+)^2) / {EPS_PROB} at p = (1/c) log(2/eps) max(K^2, K), c fitted on n = 1",
        ratio,
        starts,
        budget=budget,
        why=f"the lemma's width with one absolute c must serve every instance; c = {c_fit:.4g} is the "
        f"largest c the one-example sweeps allow (d = 1 and {SEARCH_D}), psi_1 norms by quadrature (error < "
        "1e-5 relative, below the width's rounding). Instances: s^2 in [1.5, 8], n = 1 (d = 1) or n = d = 3 "
        "with norm and label spreads down to 0.05 and any input directions (Lemma 6 needs no Assumption 2). "
        "Ratio: the one-sided "
        f"Clopper-Pearson lower bound of the failure probability from {M} fixed draws per dimension, at the "
        f"Bonferroni level (1 - {CONF})/N, N = {n_eval} = 5 families x 2 starts x budget {budget}, over eps: "
        "noise maximised over the searched instances exceeds 1 with probability <= 0.01. Resolution: a "
        f"failure frequency of {k_min}/{M} = {k_min / M:.3f} or more at some instance reads > 1; the "
        "one-example instances sit at about eps by the fit of c, so a c too large by about 1.5x (widths a "
        "third short) is caught there (measured at quick, seed 0: c x 1.4 reads 0.99, x 1.55 reads 1.30, x 2 "
        "reads 1.81; max(K, K) for max(K^2, K) reads 8.7)",
    )


def _law_grid(ctx: Context, rng: np.random.Generator, ns, M: int) -> None:
    """App. B data (s = 1) on the sphere, n in ``ns`` (>= 10), d in {n, 4n}, p in {1, 4, 16}: the event's
    frequency, recorded.

    For n = d = 1 the K of the law is of order 1 and about 20 neurons are needed: that regime is the scaled
    test of :func:`lemma_6`.
    """
    lows = []
    for n in ns:
        for d in (n, 4 * n):
            X = sphere_directions(rng, (n, d)) * appendix_b_norms(rng, n)[:, None]
            y = appendix_b_labels(rng, n)
            for p in (1, 4, 16):
                m = max(M // n, 100)
                k = int((~fails(outputs(draws(rng, m, p, d), X, p, nested=False), y, 1.0)).sum())
                lows.append((n, d, p, k, m))
    worst = min(lows, key=lambda r: r[3] / r[4])
    ctx.note(
        f"App. B data, law at s = 1, n in {list(ns)}, d in {{n, 4n}}, p in {{1, 4, 16}}: the lowest "
        f"frequency of L0 <= 2 (C_y^+)^2 is {worst[3]}/{worst[4]} (n = {worst[0]}, d = {worst[1]}, "
        f"p = {worst[2]}). "
        "Recorded, not checked: K = O(1/sqrt d) for this law, so every width meets the lemma's condition and "
        "any sensible initialization passes; the scaled runs (K >= 1) are the lemma's test."
    )


def _uniform_in_n(
    ctx: Context, rng: np.random.Generator, ns, M: int, s2: float, kappa: dict[int, float], p: int, label: str
) -> None:
    r"""Unit norms and :math:`|y_i|=1`, sphere inputs in :math:`d=n`, at the scale
    :math:`s_n^2=s^2\kappa_1/\kappa_n` where :math:`K=\kappa_ns_n^2C_x^+/C_y^+` equals the one-example
    :math:`K=\kappa_1s^2`: :math:`\Pr(L_0\le2(C_y^+)^2)` at width ``p``, per ``n``."""
    trials, successes, scales = [], [], []
    for n in ns:
        X, y = sphere_directions(rng, (n, n)), rng.choice([-1.0, 1.0], n)
        s2n = s2 * kappa[1] / kappa[n]
        m = max(M // max(n // 10, 1), 200)
        successes.append(int((~fails(outputs(draws(rng, m, p, n), X, p, nested=False), y, s2n)).sum()))
        trials.append(m)
        scales.append(round(s2n, 2))
    K = kappa[1] * s2
    ctx.probability(
        f"P(L0 <= 2 (C_y^+)^2) >= 1 - {EPS_PROB} at K = {K:.3g}, {label} (n = d in {list(ns)}, "
        f"s^2 = {scales})",
        successes,
        trials,
        at_least=1 - EPS_PROB,
        detect=1 - 3 * EPS_PROB,
        conf=CONF,
        why=f"(19)'s width depends on the data through K = kappa_d s^2 C_x^+ / C_y^+ only: with unit norms "
        f"and |y_i| = 1 each n = d runs at s_n^2 = s^2 kappa_1 / kappa_n, so its K equals the one-example "
        f"K = {K:.3g} (kappa_d by quadrature: {', '.join(f'kappa_{n} = {kappa[n]:.4g}' for n in ns)}; at "
        "a common s^2, K would fall like kappa_d ~ d^(-1/2) and the one-example width would be 15-100x "
        "the lemma's for n = d = 10..100, a check that cannot fail). Exact binomial test per n; the "
        "event's failures grow as p falls (the control: a tenth of the width)",
    )
