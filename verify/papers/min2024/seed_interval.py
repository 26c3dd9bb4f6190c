r"""The spread over seeds of a min2024 figure measurement: mean and 95% Student-t interval.

Each seed of a figure claim is an independent draw of the paper's random init, so one run's
measurement :math:`x_b` (b = 1..B) is an i.i.d. sample; the interval for its mean is
:math:`\bar x\pm t_{0.975,B-1}\,s/\sqrt B` with :math:`s` the sample standard deviation
(ddof = 1). With B = 4 (the digit figures at ``full``) the t quantile is 3.18, so the interval is
wide on purpose: four seeds say little about the mean. One seed has no interval. The checks
themselves still bound the worst seed; the interval says where a typical run lies and whether it
is clear of a threshold read off the paper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import t as student_t

CONF = 0.95


@dataclass(frozen=True)
class SeedInterval:
    """Mean of ``seeds`` values and its Student-t interval (``lo``/``hi`` None for one seed)."""

    mean: float
    lo: float | None
    hi: float | None
    seeds: int

    def straddles(self, threshold: float) -> bool:
        """Whether ``threshold`` lies inside the interval (a non-finite interval counts as straddling:
        it cannot place the mean on either side). False for one seed: there is no interval."""
        if self.lo is None or self.hi is None:
            return False
        if not (math.isfinite(self.lo) and math.isfinite(self.hi)):
            return True
        return self.lo <= threshold <= self.hi

    def text(self) -> str:
        """``mean +- half-width (95% t-interval [lo, hi], B seeds)``: the half-width shows a spread that
        four significant digits of the ends would round away (cosines within 1e-7 of 1)."""
        if self.lo is None or self.hi is None:
            return f"{self.mean:.4g} (one seed: no interval)"
        half = (self.hi - self.lo) / 2
        ends = f"[{self.lo:.4g}, {self.hi:.4g}]"
        return f"{self.mean:.4g} +- {half:.2g} (95% t-interval {ends}, {self.seeds} seeds)"

    def details(self) -> dict:
        return {"seed mean": self.mean, "95% t-interval": [self.lo, self.hi], "seeds": self.seeds}


def seed_interval(values: np.ndarray) -> SeedInterval:
    """The mean of the per-seed ``values`` and its 95% Student-t interval (B - 1 degrees of freedom)."""
    x = np.asarray(values, dtype=float).ravel()
    mean = float(x.mean())
    if x.size < 2:
        return SeedInterval(mean, None, None, int(x.size))
    half = float(student_t.ppf(0.5 + CONF / 2, x.size - 1)) * float(x.std(ddof=1)) / math.sqrt(x.size)
    return SeedInterval(mean, mean - half, mean + half, int(x.size))


def spread_note(spreads: dict[str, SeedInterval]) -> str:
    """One note for a claim's per-seed measurements: each mean with its interval (or, for one seed, the
    values, with no interval)."""
    if all(s.lo is None for s in spreads.values()):
        values = "; ".join(f"{name} {s.mean:.4g}" for name, s in spreads.items())
        return f"One seed at this profile, so no interval over seeds: {values}"
    listed = "; ".join(f"{name} {s.text()}" for name, s in spreads.items())
    return (
        "Seed spread (mean, 95% Student-t interval over the seeds; the checks bound the worst seed): "
        + listed
    )
