r"""Recording a claim's regime as the worst reading over the instances it runs.

A statement "for all data / initializations satisfying H" is checked on several instances
(seeds, data families, ensemble members); the run is inside H's regime only if *every*
instance is, so the reading recorded for H (``ctx.regime``) is that of the worst instance.

A paper measures each instance and returns, per hypothesis name, a :class:`Reading`: the
quantities the hypothesis's ``test`` reads, and ``outside``, a number that grows as the
instance moves out of the regime (on one scale for all instances of that hypothesis: e.g.
:math:`-\mu` for ":math:`\mu>0`", :math:`\kappa R^2` for ":math:`\kappa R^2\le1/C`"), so the
worst instance is the one with the largest ``outside``. A NaN ``outside`` counts as the worst
of all (an instance whose regime cannot be read is never the best evidence).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from verify.context import Context
from verify.hypotheses import Hypothesis


@dataclass(frozen=True)
class Reading:
    """One instance's reading of one hypothesis: how far ``outside`` its regime (larger: worse) and
    the ``quantities`` its ``test`` reads (keyword arguments of ``ctx.regime``)."""

    outside: float
    quantities: dict[str, Any] = field(default_factory=dict)

    def worse_than(self, other: Reading) -> bool:
        """``self`` is further out than ``other`` (NaN is further out than any number)."""
        if math.isnan(self.outside):
            return not math.isnan(other.outside)
        return not math.isnan(other.outside) and self.outside > other.outside


def worst(readings: Iterable[Mapping[str, Reading]]) -> dict[str, Reading]:
    """Per hypothesis name, the worst :class:`Reading` over the instances' ``readings``."""
    out: dict[str, Reading] = {}
    for instance in readings:
        for name, r in instance.items():
            if name not in out or r.worse_than(out[name]):
                out[name] = r
    return out


def record_worst(
    ctx: Context, readings: Iterable[Mapping[str, Reading]], hypotheses: Iterable[Hypothesis] | None = None
) -> None:
    """Record (``ctx.regime``) the worst reading over the instances of each hypothesis.

    ``readings`` holds one mapping per instance the claim's conclusions are checked on
    (never a control's), hypothesis name to :class:`Reading`. ``hypotheses`` are the ones to
    record, each of which some instance must read; ``None`` records every hypothesis of the
    claim with a quantitative ``test`` that the readings cover (a paper's measurement may read
    more hypotheses than the claim assumes; those are ignored). A hypothesis left unread is
    left unmeasured, which :func:`verify.verdict.decide` does not let pass.
    """
    found = worst(readings)
    if hypotheses is None:
        chosen = [h for h in ctx.hypotheses if h.test is not None and h.name in found]
    else:
        chosen = list(hypotheses)
        unread = [h.name for h in chosen if h.name not in found]
        if unread:
            raise ValueError(f"{ctx.claim_id}: no instance reads the regime of {', '.join(unread)}")
    for h in chosen:
        ctx.regime(h, **found[h.name].quantities)
