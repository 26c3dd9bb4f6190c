r"""Claims: one numbered statement of a paper, declared next to the code that checks it.

A claim reads like the theorem::

    @claim(
        "zhang2025:theorem-1",
        title="Two-layer bias-free nets are linear plus even",
        source="Theorem 1, eq. (8)",
        statement=r"$f(x)=\tfrac{1+\alpha}2W_2W_1x+\tfrac{1-\alpha}2\sum_h w_{2h}|w_{1h}^\top x|$",
        hypotheses=["two-layer bias-free (leaky) ReLU net", r"$\alpha\in[0,1]$"],
    )
    def theorem_1(ctx: Context) -> None:
        ...checks...
        with ctx.control("biases added", breaks="bias-free"):
            ...the same checks, which must now fail...

``erratum`` marks a printed statement that is known to be wrong: its checks are
expected to fail (XFAIL) and a pass is reported as XPASS.  The corrected statement
is a separate claim.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from verify.context import Context
from verify.hypotheses import Hypothesis, as_hypotheses
from verify.records import Erratum
from verify.sources import code_hash

__all__ = ["ID_PATTERN", "Claim", "Erratum", "claim", "registered"]

ID_PATTERN = re.compile(r"^(?P<paper>[a-z]+\d{4}):(?P<kind>[a-z]+)-(?P<number>[A-Za-z0-9.\-]+)$")


@dataclass(frozen=True)
class Claim:
    id: str
    title: str
    source: str
    statement: str
    hypotheses: tuple[Hypothesis, ...]
    body: Callable[[Context], None] = field(repr=False)
    erratum: Erratum | None = None
    tags: tuple[str, ...] = ()

    @property
    def paper(self) -> str:
        return self.id.split(":", 1)[0]

    @property
    def slug(self) -> str:
        return self.id.split(":", 1)[1]

    @property
    def source_hash(self) -> str:
        """SHA-256 of everything the claim runs: its module (which holds its body) and every
        project module that module imports, transitively (:func:`verify.sources.code_hash`).
        A stored result goes stale when any of them changes."""
        return code_hash(self.body.__module__)[:16]


_REGISTRY: dict[str, Claim] = {}


def claim(
    id: str,
    *,
    title: str,
    source: str,
    statement: str,
    hypotheses: Sequence[Hypothesis | str],
    erratum: Erratum | None = None,
    tags: Sequence[str] = (),
) -> Callable[[Callable[[Context], None]], Callable[[Context], None]]:
    """Register the decorated function as the check of claim ``id`` (``<paper>:<kind>-<number>``)."""
    if not ID_PATTERN.match(id):
        raise ValueError(f"claim id {id!r} is not of the form '<paper>:<kind>-<number>'")

    def register(body: Callable[[Context], None]) -> Callable[[Context], None]:
        if id in _REGISTRY:
            raise ValueError(f"claim {id!r} is registered twice")
        _REGISTRY[id] = Claim(
            id, title, source, statement, as_hypotheses(hypotheses), body, erratum, tuple(tags)
        )
        return body

    return register


def registered() -> dict[str, Claim]:
    """Every claim registered so far, in declaration order."""
    return dict(_REGISTRY)
