r"""dana2025 Section 5 and App. B: convergence-probability experiments (Figures 3, 4, 5).

Protocol of App. B: sphere directions, :math:`\|x_i\|\sim\mathcal U[1,2]`, labels
:math:`\pm\mathcal U[1,2]`, :math:`p=\lfloor\log(n/0.05)/\log\frac43\rfloor+1`, GD with step 1 on
:math:`pL` for :math:`t_\infty=1.5\frac{\sqrt{np}}4\log(np)`, converged iff :math:`L<C_y^-/(2n)`
(early stop).  Every (n, seed) pair is one member of a single padded array program.

Figures 4 and 5 fix the width (or the dimension), fit one sigmoid threshold N per curve and test
the log-log order of N against d (or p) within a band derived from a seed bootstrap and the grid.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.statistics import fit_sigmoid
from verify.claim import claim
from verify.context import Context, Series
from verify.papers.dana2025.common import converged_by, p_of_n, size_sweep, t_infinity

CONF = 0.99


def _sweep(ctx: Context, key: str, d: int, ns: np.ndarray, seeds: int, widths: np.ndarray):
    """Convergence indicator and final/initial loss of ``seeds`` networks per n (one program)."""
    sweep = size_sweep(ctx.backend, ctx.rng(key).host, d, ns, seeds, widths)
    T = t_infinity(sweep.sizes[:, 1], sweep.sizes[:, 0])
    conv, ratio = converged_by(sweep, T)
    return conv.reshape(len(ns), seeds), ratio.reshape(len(ns), seeds)


def crossing(ns: np.ndarray, freq: np.ndarray) -> tuple[float, float]:
    """Linear interpolation of the 1/2 crossing after the last size with frequency >= 1/2, and a
    quarter of the local grid spacing as width."""
    i = int(np.nonzero(freq >= 0.5)[0][-1]) if (freq >= 0.5).any() else 0
    j = min(i + 1, len(ns) - 1)
    f0, f1 = freq[i], freq[j]
    N = ns[i] + (ns[j] - ns[i]) * (f0 - 0.5) / (f0 - f1) if f0 != f1 else float(ns[i])
    return float(N), float(max(ns[j] - ns[i], 1) / 4)


def threshold(ns: np.ndarray, freq: np.ndarray) -> tuple[float, float]:
    """Sigmoid threshold N and width w of a decreasing frequency curve.

    A curve that jumps from >= 1/2 to < 1/2 between two grid points with no intermediate value has
    no finite least-squares width; then :func:`crossing` (the transition is narrower than the grid)."""
    if freq.min() == freq.max():
        return float(ns.max()), 1.0
    try:
        return fit_sigmoid(ns, freq)
    except RuntimeError:
        return crossing(ns, freq)


def _transition_checks(ctx: Context, ns: np.ndarray, conv: np.ndarray, label: str) -> tuple[float, float]:
    """Sigmoid threshold N, width w; P >= 0.9 below N - 2w and P <= 0.1 above N + 2w (CP intervals)."""
    seeds = conv.shape[1]
    k = conv.sum(axis=1)
    N, w = threshold(ns, k / seeds)
    below, above = ns <= N - 2 * w, ns >= N + 2 * w
    _side_of_threshold(
        ctx,
        f"likely convergence below the threshold (N = {N:.1f}, w = {w:.1f}) [{label}]",
        k[below],
        seeds,
        True,
    )
    _side_of_threshold(ctx, f"unlikely convergence above the threshold [{label}]", k[above], seeds, False)
    return N, w


def _side_of_threshold(ctx: Context, name: str, k: np.ndarray, seeds: int, likely: bool) -> None:
    """P(convergence) >= 0.9 at every n below the threshold (or <= 0.1 above it), pooled over those n:
    if each satisfies it so does the pooled frequency, so a pooled rejection rejects one of them. The
    violation to catch is no transition at all (P = 1/2 there). No n on that side: nothing to test."""
    if k.size == 0:
        ctx.undecided(name, "no sampled size on this side of the fitted threshold")
        return
    bound = {"at_least": 0.9} if likely else {"at_most": 0.1}
    ctx.probability(
        name, int(k.sum()), seeds * k.size, **bound, detect=0.5, conf=CONF, why="exact binomial test, pooled"
    )


@claim(
    "dana2025:figure-3",
    title="Figure 3: the probability of converging to zero loss drops sharply at a threshold N(d, p)",
    source="Figure 3, Section 5.1; App. B (Experiment 1)",
    statement=r"For $d=100$ and $p=\lfloor\log(n/\varepsilon)/\log\frac43\rfloor+1$, convergence is likely "
    r"for "
    r"$n\le2900$ and almost never for $n\ge3100$: a sharp transition at $N(d,p)\approx3000$; above it the "
    r"final "
    r"loss is about 0.6% of the initial loss.",
    hypotheses=[
        "App. B protocol (GD step 1 for t_inf, early stop at L < C_y^-/(2n))",
        r"$p\approx\log(n/\varepsilon)/\log\frac43$",
    ],
)
def figure_3(ctx: Context) -> None:
    d = ctx.param("d", tiny=10, quick=10, full=100)
    seeds = ctx.param("seeds", tiny=5, quick=12, full=25)
    lo_n, hi_n = (2500, 3500) if d == 100 else (d // 2, 6 * d)
    if d < 100:
        ctx.reduced_scale(f"d = {d} instead of the paper's d = 100 (n up to {hi_n} instead of ~3500)")
    ns = np.unique(np.linspace(lo_n, hi_n, 8 if d < 100 else 11).astype(int))
    conv, ratio = _sweep(ctx, "fig3", d, ns, seeds, p_of_n(ns))
    N, w = _transition_checks(ctx, ns, conv, f"d = {d}, {seeds} seeds per n")
    freq = conv.mean(axis=1)
    ctx.figure(
        f"Figure 3 (left): P(convergence) vs n, d = {d}",
        xlabel="n",
        ylabel="P(converge)",
        series=[
            Series("measured", ns, freq, "o"),
            Series("sigmoid fit", ns, 1 / (1 + np.exp((ns - N) / w)), "--"),
        ],
    )
    ctx.figure(
        f"Figure 3 (right): final / initial loss, d = {d}",
        xlabel="n",
        ylabel="L(t_inf)/L(0)",
        logy=True,
        series=[Series("median", ns, np.maximum(np.median(ratio, axis=1), 1e-300), "o")],
    )
    if d == 100:
        ctx.close(
            "threshold N(100, p) vs 3000", N, 3000.0, atol=200.0, why="the text: likely <= 2900, ~0 >= 3100"
        )
    ctx.note(
        f"d = {d}: sigmoid threshold N = {N:.1f} (N/d = {N / d:.2f}), width w = {w:.2f} (w/N = {w / N:.2f}); "
        "the paper's location n ~ 3000 at d = 100 (N/d ~ 30) is checked by the full profile only. The final/"
        "initial loss above the threshold is a median over seeds; the text's '0.6%, equivalent to fitting "
        "all "
        "but one example' is inconsistent (one unfitted example is ~0.03%; 0.6% is ~20 examples)."
    )
    with ctx.control(
        "p = 3 neurons",
        breaks=r"$p\approx\log(n/\varepsilon)/\log\frac43$",
        must_break=["likely convergence below the threshold*"],
    ):
        conv3, _ = _sweep(ctx, "fig3-p3", d, ns, seeds, np.full(len(ns), 3))
        below = ns <= N - 2 * w
        _side_of_threshold(
            ctx,
            f"likely convergence below the threshold N = {N:.1f} [p = 3]",
            conv3.sum(axis=1)[below],
            seeds,
            True,
        )


# ------------------------------------------------------------------ Figures 4 and 5


@dataclass
class Curve:
    """One convergence-probability curve: sizes, per-seed indicators, fitted threshold and width."""

    ns: np.ndarray
    conv: np.ndarray  # (len(ns), seeds)
    N: float
    w: float


def _thresholds(ctx: Context, key: str, pairs, seeds: int, span: float, k: int) -> list[Curve]:
    """Sigmoid threshold N(d, p) for each (d, p) in ``pairs`` (App. B protocol, fixed width p).

    Each curve has ``k`` sample sizes in [d, span d] (one padded program per pair; below n = d the
    budget t_inf is a few dozen steps) and its own transition checks."""
    curves = []
    for d, p in pairs:
        ns = np.unique(np.linspace(d, span * d, k).astype(int))
        conv, _ = _sweep(ctx, f"{key}-{d}-{p}", d, ns, seeds, np.full(len(ns), p))
        N, w = _transition_checks(ctx, ns, conv, f"d = {d}, p = {p}, {seeds} seeds per n")
        ctx.holds(
            f"the transition lies inside the sampled sizes (d = {d}, p = {p})",
            bool(ns.min() < N < ns.max()),
            measured=round(N, 1),
            expected=f"in ({ns.min()}, {ns.max()})",
            why="a threshold fitted outside the sampled n is an extrapolation, not a measurement",
        )
        curves.append(Curve(ns, conv, N, w))
    return curves


def order_band(x: np.ndarray, curves: list[Curve], rng: np.random.Generator, boots: int = 40):
    """Log-log order of N against ``x``, its band (two standard deviations) and the two parts.

    Seeds: bootstrap over the seeds of every curve, each resample located by its 1/2 crossing
    (:func:`crossing`; a least-squares refit of a step-like resample can take 10^4 evaluations).
    Grid: a transition narrower than the spacing dn is located only within its cell, standard
    deviation dn/sqrt(12) per point, i.e. sqrt(2) dn/(sqrt(12) N) / log(x_max/x_min) on the order.
    """
    lx = np.log(x)
    order = float(np.polyfit(lx, np.log([c.N for c in curves]), 1)[0])

    def resampled(c: Curve) -> float:
        cols = rng.integers(0, c.conv.shape[1], c.conv.shape[1])
        return max(crossing(c.ns, c.conv[:, cols].mean(axis=1))[0], 1.0)

    boot = [np.polyfit(lx, np.log([resampled(c) for c in curves]), 1)[0] for _ in range(boots)]
    rel = max((c.ns[1] - c.ns[0]) / np.sqrt(12) / c.N for c in curves)
    grid = np.sqrt(2) * rel / np.log(x.max() / x.min())
    return order, float(2 * np.hypot(np.std(boot), grid)), float(np.std(boot)), float(grid)


BAND_WHY = (
    "two standard deviations of the fitted order: seed bootstrap of every probability curve "
    "({sd_boot:.2f}) and the grid term sqrt(2) dn/(sqrt(12) N)/log(x_max/x_min) ({grid:.2f})"
)


def _curve_figure(ctx: Context, title: str, curves: list[Curve], labels) -> None:
    series = []
    for c, lab in zip(curves, labels, strict=True):
        series += [
            Series(f"{lab} measured", c.ns, c.conv.mean(axis=1), "o"),
            Series(
                f"{lab} sigmoid N = {c.N:.1f}",
                c.ns,
                1 / (1 + np.exp(np.clip((c.ns - c.N) / c.w, -500, 500))),
                "--",
            ),
        ]
    ctx.figure(title, xlabel="n", ylabel="P(converge)", series=series)


def _order_check(
    ctx: Context, name: str, x: np.ndarray, curves: list[Curve], *, sub_linear: bool, boots: int
) -> float:
    """Figure 4: order = 1 within its band; Figure 5: order + band < 1 and order - band > 0."""
    order, band, sd_boot, grid = order_band(x, curves, ctx.rng(name).host, boots)
    Ns = np.array([c.N for c in curves])
    why = f"band {band:.2f} = " + BAND_WHY.format(sd_boot=sd_boot, grid=grid)
    if band >= 1.0:
        ctx.undecided(
            name,
            f"measured order {order:.2f} with a band of {band:.2f} >= 1: the fit cannot tell a constant "
            f"threshold (order 0) from linear growth (order 1); more seeds or sizes are needed ({why})",
            measured=order,
        )
        return order
    if not sub_linear:
        ctx.order(name, x, Ns, expected=1.0, tol=band, why=why, xlabel="x", ylabel="N")
        return order
    ctx.bound(
        f"{name}: order + band below 1 (sub-linear)",
        order + band,
        1.0,
        why=why,
        details={"x": x, "N": Ns, "order": order, "band": band},
    )
    ctx.bound(f"{name}: order - band above 0 (increasing)", order - band, 0.0, side=">=", why=why)
    return order


@claim(
    "dana2025:figure-4",
    title="Figure 4: at fixed width the convergence threshold is linear in d, N(d, p) = C(p) d",
    source="Figure 4, Section 5.1; App. B (scaling law on d)",
    statement=r"With $p=30$ fixed, $d\in[10,100]$ and $n\in[N-15d,N+15d]$, the sigmoid threshold of the "
    r"convergence probability scales as $N(d,p)\simeq C(p)\,d$.",
    hypotheses=["App. B protocol (GD step 1 for t_inf, early stop at L < C_y^-/(2n))", "p fixed"],
)
def figure_4(ctx: Context) -> None:
    ds = np.array(ctx.param("d_grid", tiny=[6, 8], quick=[10, 20, 30], full=[10, 20, 40, 70, 100]))
    dc = np.array(ctx.param("d_control", tiny=[6, 8], quick=[10, 14], full=[10, 20]))
    p = ctx.param("p", tiny=30, quick=30, full=30)
    seeds = ctx.param("seeds", tiny=3, quick=6, full=12)
    k = ctx.param("sizes", tiny=5, quick=10, full=16)
    span = ctx.param("span", tiny=7.0, quick=7.0, full=35.0)  # n in [d, span d]; paper: N ~ 30 d at d = 100
    boots = ctx.param("boots", tiny=20, quick=40, full=200)
    if ds.max() < 100:
        ctx.reduced_scale(f"d up to {ds.max()} instead of the paper's d in [10, 100]")
    curves = _thresholds(ctx, "fig4", [(int(d), p) for d in ds], seeds, span, k)
    _curve_figure(ctx, f"Figure 4: P(convergence) vs n, p = {p}", curves, [f"d = {d}" for d in ds])
    order = _order_check(
        ctx, f"threshold N(d, p = {p}) vs d: log-log order 1", ds, curves, sub_linear=False, boots=boots
    )
    Ns = np.array([c.N for c in curves])
    ctx.note(
        f"N(d, {p}) = {dict(zip(ds.tolist(), np.round(Ns, 1).tolist(), strict=True))}; N/d = "
        f"{np.round(Ns / ds, 2).tolist()}, order {order:.2f}. Exploratory runs with the same protocol at "
        "p = 30 (8-10 seeds): N = 10.3, 31.6, 62.1, 83.4, 177.7 at d = 5, 10, 15, 20, 30 (order 1.6); "
        "the paper's Figure 3 gives N ~ 3000 at d = 100 (N/d ~ 30, p ~ 39), far above a linear "
        "continuation of these (N/d ~ 3-6), so N/d keeps growing. Protocol differences from the authors' "
        "code: w ~ N(0, I/d) as App. B states (the code uses PyTorch's uniform default, variance "
        "1/(3d)) and float64 (the code is float32)."
    )
    with ctx.control(
        "width growing with d, p = 3d",
        breaks="p fixed",
        must_break=["threshold N(d, p = *) vs d: log-log order 1"],
    ):
        cc = _thresholds(ctx, "fig4c", [(int(d), 3 * int(d)) for d in dc], seeds, span, k)
        _order_check(
            ctx, "threshold N(d, p = 3d) vs d: log-log order 1", dc, cc, sub_linear=False, boots=boots
        )


@claim(
    "dana2025:figure-5",
    title="Figure 5: at fixed d the convergence threshold grows sub-linearly in p",
    source="Figure 5, Section 5.1; App. B (scaling law on p; the caption says d for p)",
    statement=r"With $d=30$ fixed and $p\in[50,400]$, the threshold $N(d,p)=C(p)d$ grows sub-linearly in "
    r"$p$ (polynomial or logarithmic growth cannot be told apart).",
    hypotheses=["App. B protocol (GD step 1 for t_inf, early stop at L < C_y^-/(2n))", "d fixed"],
)
def figure_5(ctx: Context) -> None:
    d = ctx.param("d", tiny=8, quick=10, full=30)
    ps = np.array(ctx.param("p_grid", tiny=[24, 48], quick=[24, 48, 96], full=[50, 100, 200, 400]))
    seeds = ctx.param("seeds", tiny=3, quick=6, full=12)
    k = ctx.param("sizes", tiny=5, quick=9, full=16)
    span = ctx.param("span", tiny=8.0, quick=8.0, full=15.0)  # n in [d, span d]
    boots = ctx.param("boots", tiny=20, quick=40, full=200)
    if d < 30 or ps.max() < 400:
        ctx.reduced_scale(f"d = {d}, p up to {ps.max()} instead of the paper's d = 30, p in [50, 400]")
    curves = _thresholds(ctx, "fig5", [(d, int(p)) for p in ps], seeds, span, k)
    _curve_figure(ctx, f"Figure 5: P(convergence) vs n, d = {d}", curves, [f"p = {p}" for p in ps])
    order = _order_check(ctx, f"threshold N(d = {d}, p) vs p", ps, curves, sub_linear=True, boots=boots)
    Ns = [round(c.N, 1) for c in curves]
    ctx.note(f"N({d}, p) = {dict(zip(ps.tolist(), Ns, strict=True))}, order {order:.2f}.")
    with ctx.control(
        "dimension growing with p, d = p/4",
        breaks="d fixed",
        must_break=["threshold N(d = *, p) vs p: order + band below 1*"],
    ):
        pc = ps[:2]  # larger p would cost p neurons x 2p samples
        cc = _thresholds(ctx, "fig5c", [(int(p) // 4, int(p)) for p in pc], seeds, span, k)
        _order_check(ctx, "threshold N(d = p/4, p) vs p", pc, cc, sub_linear=True, boots=boots)
