r"""Locating a convergence threshold (dana2025 Figures 3-5): adaptive bracket, bisection, seed bootstrap.

A threshold is measured where it is, not assumed to lie in a window. :func:`locate` samples the
convergence frequency :math:`\hat P(n)` (``seeds`` runs per size) at :math:`n_0` (halving it while
:math:`\hat P<9/10`), then at :math:`2n_0, 4n_0,\dots` until :math:`\hat P<1/10` or ``n_max``; the
curve is *bracketed* when a size with :math:`\hat P\ge9/10` lies below one with :math:`\hat P<1/10`.
It then bisects the cell of the 1/2 crossing (the last size with :math:`\hat P\ge1/2` and the next).

The sigmoid :math:`P(n)=1/(1+e^{(n-N)/w})` is fitted to every sampled size. The 95% interval of N is
the percentile interval of the interpolated 1/2 crossing (N of a logistic) over a bootstrap of seeds:
each size's seeds are resampled on their own (seeds at different sizes are independent draws). A
replicate whose crossing cell goes from >= 9/10 straight to < 1/10 is a step inside that cell, and a
step only says that N lies in the cell: its N is drawn uniformly there (the grid's share of the
uncertainty). An unbracketed curve, or a fit outside the sampled sizes, reports no threshold: a flat
curve is never a threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from numeric.measures.statistics import fit_sigmoid

HIGH, LOW = 0.9, 0.1  # "likely" and "unlikely" convergence: the bracket's two ends


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
    no finite least-squares width; then :func:`crossing` (the transition is narrower than the grid).
    So does a fit narrower than the crossing's quarter cell (:func:`grid_limited`): e.g. frequencies
    1, 1/2, 0 at three sizes are fitted exactly by every w -> 0, and the least squares return whatever
    small w they stop at (w = 0.1 at cell 25 in a Figure-5 control): the width is not measured there."""
    if freq.min() == freq.max():
        return float(ns.max()), 1.0
    try:
        N, w = fit_sigmoid(ns, freq)
    except RuntimeError:
        return crossing(ns, freq)
    return crossing(ns, freq) if grid_limited(ns, freq, w) else (N, w)


def grid_limited(ns: np.ndarray, freq: np.ndarray, w: float) -> bool:
    """Whether a width ``w`` is below the grid's resolution at the crossing: at most a quarter of the
    crossing cell (the width :func:`crossing` gives a step). A logistic of width w changes from 0.9 to
    0.1 over 2 ln(9) w = 4.4 w, so below a quarter cell the whole transition fits inside one cell and
    the sampled frequencies cannot tell it from a step."""
    return w <= crossing(ns, freq)[1]


def _cell(ns: np.ndarray, freq: np.ndarray) -> tuple[int, int]:
    """Indices of the cell of the 1/2 crossing: the last size with frequency >= 1/2 and the next."""
    i = int(np.nonzero(freq >= 0.5)[0][-1]) if (freq >= 0.5).any() else 0
    return i, min(i + 1, len(ns) - 1)


@dataclass
class Located:
    """A located (or not) threshold: sampled sizes, per-seed indicators, fit, interval, replicates."""

    ns: np.ndarray  # sampled sizes, increasing
    conv: np.ndarray  # (len(ns), seeds) bool
    N: float | None = None  # None: not bracketed in the searched range, or fitted outside it
    w: float = float("nan")
    ci: tuple[float, float] = (float("nan"), float("nan"))
    boot: np.ndarray = field(default_factory=lambda: np.empty(0))
    step: bool = False  # the width is grid-limited (a quarter of the crossing cell), not measured

    @property
    def freq(self) -> np.ndarray:
        return self.conv.mean(axis=1)

    @property
    def seeds(self) -> int:
        return self.conv.shape[1]

    @property
    def searched(self) -> str:
        return f"n in [{self.ns.min()}, {self.ns.max()}] ({len(self.ns)} sizes, {self.seeds} seeds each)"

    def describe(self) -> str:
        if self.N is None:
            f = self.freq
            return (
                f"no threshold located: {self.searched}, frequency from {f[0]:.2f} to {f[-1]:.2f} "
                f"(a bracket needs >= {HIGH} below < {LOW})"
            )
        return (
            f"N = {self.N:.0f}, 95% interval [{self.ci[0]:.0f}, {self.ci[1]:.0f}], {self.width}; "
            f"{self.searched}"
        )

    @property
    def cell(self) -> tuple[int, int]:
        """The sampled sizes around the 1/2 crossing: the last with frequency >= 1/2 and the next."""
        i, j = _cell(self.ns, self.freq)
        return int(self.ns[i]), int(self.ns[j])

    @property
    def width(self) -> str:
        if self.step:
            return f"width not resolved (a step inside one cell: w set to a quarter cell, {self.w:.1f})"
        return f"width w = {self.w:.1f}"


def _bracketed(freq: np.ndarray) -> bool:
    """Some size with frequency >= HIGH lies below some size with frequency < LOW."""
    high = np.nonzero(freq >= HIGH)[0]
    return high.size > 0 and bool((freq[high[0] :] < LOW).any())


def _replicate(ns: np.ndarray, freq: np.ndarray, rng: np.random.Generator) -> float:
    """One bootstrap threshold: the interpolated 1/2 crossing (the N of a logistic curve; a least-squares
    refit of a near-step resample can take 10^4 evaluations), or a uniform draw in the crossing cell for
    a step (whose fit is any point of the cell)."""
    i, j = _cell(ns, freq)
    if freq[i] >= HIGH and freq[j] < LOW:
        return float(rng.uniform(ns[i], ns[j]))
    return crossing(ns, freq)[0]


def locate(
    converged: Callable[[int], np.ndarray],
    *,
    start: int,
    n_min: int,
    n_max: int,
    bisections: int,
    rng: np.random.Generator,
    boots: int = 200,
) -> Located:
    """Bracket, bisect and fit the threshold of ``converged(n)`` (a ``(seeds,)`` bool array per size).

    ``start``: first size; ``n_min``/``n_max``: the search range; ``bisections``: bisection steps of
    the crossing cell after bracketing (stopped once the cell is two sizes wide)."""
    samples: dict[int, np.ndarray] = {}

    def freq_at(n: int) -> float:
        if n not in samples:
            samples[n] = np.asarray(converged(n), dtype=bool)
        return float(samples[n].mean())

    n = start
    while freq_at(n) < HIGH and n > n_min:
        n = max(n // 2, n_min)
    n = max(samples)
    while freq_at(n) >= LOW and n < n_max:
        n = min(2 * n, n_max)

    def table() -> tuple[np.ndarray, np.ndarray]:
        ns = np.array(sorted(samples))
        return ns, np.array([samples[k] for k in ns])

    ns, conv = table()
    if not _bracketed(conv.mean(axis=1)):
        return Located(ns, conv)
    for _ in range(bisections):
        i, j = _cell(ns, conv.mean(axis=1))
        if ns[j] - ns[i] < 2:
            break
        freq_at(int((ns[i] + ns[j]) // 2))
        ns, conv = table()
    freq = conv.mean(axis=1)
    N, w = threshold(ns, freq)
    if not ns.min() < N < ns.max():
        return Located(ns, conv)
    seeds = conv.shape[1]
    boot = np.array(
        [
            _replicate(
                ns, conv[np.arange(len(ns))[:, None], rng.integers(0, seeds, conv.shape)].mean(axis=1), rng
            )
            for _ in range(boots)
        ]
    )
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return Located(ns, conv, N, w, (float(lo), float(hi)), boot, grid_limited(ns, freq, w))
