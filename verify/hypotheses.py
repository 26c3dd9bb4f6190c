r"""Hypotheses as objects: declared once per paper, assumed by claims, broken by controls.

A theorem holds *under* its hypotheses, so a verification has two duties towards each:

* **regime** -- a run must reach the quantitative regime the hypothesis describes
  ("p << n", "init scale -> 0", "d >= n"); a run outside it cannot earn a PASS
  (:meth:`verify.context.Context.regime` records whether it was reached);
* **control** -- breaking the hypothesis must break the conclusions that depend on it
  (``with ctx.control(..., breaks=H, must_break=[...])``).

A paper declares its hypotheses in its package (``verify/papers/<paper>/hypotheses.py``)::

    P_LL_N = Hypothesis(
        "p << n",
        wording=r"width $p$ of order $\log n$, $p\ll n$",
        condition="p <= n / 4",
        test=lambda p, n: p <= n / 4,
    )

and a claim lists the ones it assumes (``@claim(..., hypotheses=[P_LL_N, ...])``).
A plain string in a claim's ``hypotheses`` is a hypothesis with no quantitative
condition (its name is its wording).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from verify.records import HypothesisRecord


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis of a paper.

    ``name`` is the handle controls use (``breaks=``); ``wording`` is the paper's
    (LaTeX allowed, defaults to ``name``); ``condition`` is the quantitative regime in
    words and ``test`` evaluates it from measured quantities (keyword arguments).
    """

    name: str
    wording: str = ""
    condition: str = ""
    test: Callable[..., bool] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a hypothesis needs a name")
        if not self.wording:
            object.__setattr__(self, "wording", self.name)

    def __str__(self) -> str:
        return self.wording

    def evaluate(self, **measured: Any) -> bool:
        """Whether ``measured`` lies in the regime (``test`` applied to it)."""
        if self.test is None:
            raise ValueError(f"hypothesis {self.name!r} declares no quantitative test")
        return bool(self.test(**measured))

    def reading(self, reached: bool | None, measured: str) -> HypothesisRecord:
        """This hypothesis, whether a run reached its regime (``None``: not measured), what it measured."""
        return HypothesisRecord(self.name, self.wording, self.condition, reached, measured)


def as_hypotheses(items: Iterable[Hypothesis | str]) -> tuple[Hypothesis, ...]:
    """Normalise a claim's ``hypotheses`` (objects or plain strings) to objects."""
    return tuple(h if isinstance(h, Hypothesis) else Hypothesis(str(h)) for h in items)


def resolve(breaks: Hypothesis | str, declared: Iterable[Hypothesis]) -> Hypothesis | None:
    """The declared hypothesis ``breaks`` names (by object, name or wording), else ``None``."""
    for h in declared:
        if breaks == h or (isinstance(breaks, str) and breaks in (h.name, h.wording)):
            return h
    return None
