r"""dana2025 Section 5 and App. B: convergence-probability experiments (Figures 3, 4).

Protocol of App. B: sphere directions, :math:`\|x_i\|\sim\mathcal U[1,2]`, labels
:math:`\pm\mathcal U[1,2]`, :math:`p=\lfloor\log(n/0.05)/\log\frac43\rfloor+1`, GD with step 1 on
:math:`pL` for :math:`t_\infty=1.5\frac{\sqrt{np}}4\log(np)`, converged iff :math:`L<C_y^-/(2n)`
(early stop).  Every (n, seed) pair is one member of a single padded array program.
"""

from __future__ import annotations

import numpy as np

from numeric.statistics import clopper_pearson, fit_sigmoid
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


def _transition_checks(ctx: Context, ns: np.ndarray, conv: np.ndarray, label: str) -> tuple[float, float]:
    """Sigmoid threshold N, width w; P >= 0.9 below N - 2w and P <= 0.1 above N + 2w (CP intervals)."""
    seeds = conv.shape[1]
    k = conv.sum(axis=1)
    lo, hi = clopper_pearson(k, seeds, CONF)
    freq = k / seeds
    N, w = fit_sigmoid(ns, freq) if freq.min() < freq.max() else (float(ns.max()), 1.0)
    below, above = ns <= N - 2 * w, ns >= N + 2 * w
    ctx.bound(
        f"likely convergence below the threshold: upper end of the {CONF:.0%} interval at n <= N - 2w "
        f"(N = {N:.1f}, w = {w:.1f}) [{label}]",
        hi[below] if below.any() else np.array([0.0]),
        0.9,
        side=">=",
        why="P >= 0.9 is rejected only when the whole interval lies below 0.9",
        details={"n": ns, "frequency": freq},
    )
    ctx.bound(
        f"unlikely convergence above the threshold: lower end of the interval at n >= N + 2w [{label}]",
        lo[above] if above.any() else np.array([1.0]),
        0.1,
        why="P <= 0.1 is rejected only when the whole interval lies above 0.1",
    )
    return N, w


@claim(
    "dana2025:figure-3",
    title="Figure 3: the probability of converging to zero loss drops sharply at a threshold N(d, p)",
    source="Figure 3, Section 5.1; App. B (Experiment 1)",
    statement=r"For $d=100$ and $p=\lfloor\log(n/\varepsilon)/\log\frac43\rfloor+1$, convergence is likely "
    r"for "
    r"$n\le2900$ and almost never for $n\ge3100$: a sharp transition at $N(d,p)\approx3000$; above it the "
    r"final "
    r"loss is about 0.6% of the initial loss.",
    hypotheses=["App. B protocol (GD step 1 for t_inf, early stop at L < C_y^-/(2n))"],
)
def figure_3(ctx: Context) -> None:
    d = ctx.param("d", tiny=10, quick=10, full=100)
    seeds = ctx.param("seeds", tiny=5, quick=12, full=25)
    lo_n, hi_n = (2500, 3500) if d == 100 else (d // 2, 6 * d)
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
    with ctx.control("p = 3 neurons", breaks=r"$p\approx\log(n/\varepsilon)/\log\frac43$"):
        conv3, _ = _sweep(ctx, "fig3-p3", d, ns, seeds, np.full(len(ns), 3))
        k = conv3.sum(axis=1)
        _, hi = clopper_pearson(k, seeds, CONF)
        below = ns <= N - 2 * w
        ctx.bound(
            f"likely convergence below the threshold N = {N:.1f}: upper end of the interval at n <= N - 2w",
            hi[below] if below.any() else np.array([0.0]),
            0.9,
            side=">=",
            why="as above",
            details={"frequency": k / seeds},
        )
