r"""dana2025 Lemma 6 (App. A.1, eqs. (19)-(22)): the loss at initialization is bounded.

With :math:`K=\|a\langle w|\bar x\rangle_+\|_{\psi_1}C_x^+/C_y^+` and an absolute constant
:math:`c` (Bernstein), :math:`p\ge\frac1c\log\frac2\varepsilon\max(K^2,K)` gives
:math:`\Pr(L(\theta_0)\le2(C_y^+)^2)\ge1-\varepsilon`.

The constant :math:`c` is not given, so the lemma is tested through what it does fix:

* at the App. B law the event holds for every width (K is of order :math:`1/\sqrt d`);
* scaling the App. B pair :math:`(a,w)\to(sa,sw)` (Assumption 1 is kept) multiplies the
  output by :math:`s^2`, hence :math:`K` by :math:`s^2`; the smallest width
  :math:`p_{\min}(s)` with failure frequency :math:`\le\varepsilon` must then grow at most
  like :math:`K^2\propto s^4` (order 2 in :math:`s^2`; measured, the order is sharp);
* the width found for one example suffices for ``n`` examples of the same constants
  (the proof bounds the loss by its worst example :math:`I`, a random index, without a
  union bound: the catalog's [ERROR?]);
* control: a tenth of the required width.

All networks of widths :math:`1..p` come from one draw: the width-:math:`p` network is the
first :math:`p` neurons, so :math:`h^{(p)}=\frac1p\sum_{j\le p}a_j\langle w_j|x\rangle_+`
is a cumulative mean (common random numbers across widths and scales).
"""

from __future__ import annotations

import numpy as np

from numeric.data.weakly_correlated import appendix_b_init_reduced
from numeric.models.activation import RELU
from verify.claim import claim
from verify.context import Context
from verify.papers.dana2025.common import Data, make_data, order_at_most
from verify.papers.dana2025.hypotheses import WIDTH_L6

CONF = 0.99
EPS_PROB = 0.05  # the lemma's epsilon


def outputs(rng: np.random.Generator, data: Data, M: int, p: int, *, nested: bool) -> np.ndarray:
    r"""Outputs :math:`h(x_i)` of ``M`` App.-B networks at initialization.

    ``nested``: all widths ``1..p`` at once, ``(M, p, n)``; otherwise width ``p`` only, ``(M, n)``.
    """
    V, a, _ = appendix_b_init_reduced(rng, data.G, data.d, M, p)
    terms = a[:, :, None] * RELU.value(V)
    if nested:
        return np.cumsum(terms, axis=1) / np.arange(1, p + 1)[None, :, None]
    return terms.mean(axis=1)


def fails(h: np.ndarray, data: Data, s2: float) -> np.ndarray:
    r""":math:`L(\theta_0)>2(C_y^+)^2` for outputs ``h`` (last axis: examples) at scale :math:`s^2`."""
    L0 = 0.5 * ((data.y - s2 * h) ** 2).mean(axis=-1)
    return L0 > 2 * data.cy[1] ** 2


def p_min(freq: np.ndarray, eps: float) -> int:
    """Smallest width p with failure frequency <= eps at p and every larger width measured."""
    bad = np.nonzero(freq > eps)[0]
    return int(bad[-1]) + 2 if len(bad) else 1


def _successes(h: np.ndarray, data: Data, s2: float) -> tuple[int, int]:
    """Draws with L0 <= 2 (C_y^+)^2, out of how many."""
    return int((~fails(h, data, s2)).sum()), h.shape[0]


@claim(
    "dana2025:lemma-6",
    title="Lemma 6: p >~ log(2/eps) max(K^2, K) neurons give L(theta_0) <= 2 (C_y^+)^2 w.p. 1 - eps",
    source="Lemma 6, App. A.1, eqs. (19)-(22)",
    statement=r"If $p\ge\frac1c\log\frac2\varepsilon\max(K^2,K)$, $K=\|a\langle w|\bar x\rangle_+\|_{\psi_1}"
    r"\frac{C_x^+}{C_y^+}$, then $\Pr(L(\theta_0)\le2(C_y^+)^2)\ge1-\varepsilon$ (19).",
    hypotheses=[
        r"$(a_j,w_j)$ i.i.d., centred, rotation invariant, sub-Gaussian (App. B law, scaled by s)",
        WIDTH_L6,
    ],
)
def lemma_6(ctx: Context) -> None:
    M = ctx.param("trials", tiny=600, quick=3000, full=8000)
    ns = ctx.param("n_grid", tiny=[1, 10], quick=[1, 10, 100], full=[1, 10, 100, 300])
    # s^2 over 1.5..8 at every profile: the order's tolerance below is derived for that range (log 5.3 =
    # 1.67); tiny had 1.5..4 (range 0.98, where the same error budget allows 0.51)
    s2_max = ctx.param("s2_max", tiny=8.0, quick=8.0, full=8.0)
    rng = ctx.rng("lemma6").host
    _app_b_grid(ctx, rng, [n for n in ns if n >= 10], M)
    # Scaling of the required width with K: one example, |y| = ||x|| = 1, d = 1 (K largest).
    one = make_data(rng, 1, "orthogonal", unit=True)
    s2 = np.geomspace(1.5, s2_max, 5)
    pmax = int(40 * s2.max() ** 2)
    h1 = outputs(rng, one, M, pmax, nested=True)
    pm = np.array([p_min(fails(h1, one, s).mean(axis=0), EPS_PROB) for s in s2])
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
    s2_mid, p_req = float(s2[2]), int(pm[2])
    # p_min is where n = 1 fails with frequency eps: a fresh n = 1 sample there sits on the bound by
    # construction (a coin flip, no evidence either way); the lemma's content at p_min is that the width
    # set by one example serves n examples of the same constants, so the check runs on n > 1
    _uniform_in_n(ctx, rng, [n for n in ns if n > 1], M, s2_mid, p_req, f"p = p_min(n = 1) = {p_req}")
    table = dict(zip(np.round(s2, 2).tolist(), pm.tolist(), strict=True))
    ctx.note(
        f"p_min(s^2) = {table} (n = 1, eps = {EPS_PROB}): fitted order {fit.slope:.3f} [{fit.lo:.2f}, "
        f"{fit.hi:.2f}] in K, so the K^2 width of the lemma is sharp here (the CLT gives exactly 2; not part "
        "of the statement, which bounds the order from above only). The proof's worst-index bound (20)-(21) "
        "treats the random index I as fixed; with the width set by one example, n examples of the same "
        "constants fail less often (the loss is a mean), so the missing union bound is harmless here."
    )
    with ctx.control(
        f"width p = p_min/10 at s^2 = {s2_mid:.2f}",
        breaks=WIDTH_L6,
        must_break=["P(L0 <= 2 (C_y^+)^2) >= 1 - 0.05 at s^2 = *"],
    ):
        _uniform_in_n(ctx, rng, ns[:2], M, s2_mid, max(p_req // 10, 1), f"p = {max(p_req // 10, 1)}")


def _app_b_grid(ctx: Context, rng: np.random.Generator, ns, M: int) -> None:
    """App. B law (s = 1) on sphere data, n in ``ns`` (>= 10), d in {n, 4n}, p in {1, 4, 16}: the event's
    frequency, recorded.

    For n = d = 1 the App. B K is of order 1 and about 20 neurons are needed (frequency 0.81 at p = 1,
    0.94 at p = 16): that regime is the scaled test of :func:`lemma_6`.
    """
    lows = []
    for n in ns:
        for d in (n, 4 * n):
            data = make_data(rng, n, "sphere", d=d)
            for p in (1, 4, 16):
                k, m = _successes(outputs(rng, data, max(M // n, 100), p, nested=False), data, 1.0)
                lows.append((n, d, p, k, m))
    worst = min(lows, key=lambda r: r[3] / r[4])
    ctx.note(
        f"App. B law (s = 1), n in {list(ns)}, d in {{n, 4n}}, p in {{1, 4, 16}}: the lowest frequency of "
        f"L0 <= 2 (C_y^+)^2 is {worst[3]}/{worst[4]} (n = {worst[0]}, d = {worst[1]}, p = {worst[2]}). "
        "Recorded, not checked: K = O(1/sqrt d) for this law, so every width meets the lemma's condition and "
        "any sensible initialization passes; the scaled runs (K >= 1) are the lemma's test."
    )


def _uniform_in_n(ctx: Context, rng: np.random.Generator, ns, M: int, s2: float, p: int, label: str) -> None:
    """Unit norms and |y| = 1 (K as for one example), sphere inputs in d = n: P(L0 <= 2) at width p."""
    his, freqs = [], []
    for n in ns:
        data = make_data(rng, n, "sphere", d=max(n, 1), unit=True)
        k, m = _successes(outputs(rng, data, max(M // max(n // 10, 1), 200), p, nested=False), data, s2)
        his.append(m), freqs.append(k)
    ctx.probability(
        f"P(L0 <= 2 (C_y^+)^2) >= 1 - {EPS_PROB} at s^2 = {s2:.2f}, {label} (n in {list(ns)})",
        freqs,
        his,
        at_least=1 - EPS_PROB,
        detect=1 - 3 * EPS_PROB,
        conf=CONF,
        why="same K for every n (unit norms, |y| = 1); exact binomial test per n",
    )
