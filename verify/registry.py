"""The papers under verification and the lookup of their claims.

Each paper has a module ``verify/papers/<key>.py`` whose ``@claim`` declarations
register its statements when imported.  Adding a paper = adding a :class:`Paper`
here and that module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from verify.claim import Claim, registered
from verify.errors import UserError


@dataclass(frozen=True)
class Paper:
    key: str
    title: str
    authors: str
    venue: str
    catalog: str
    text: str


PAPERS: dict[str, Paper] = {
    p.key: p
    for p in (
        Paper(
            "zhang2025",
            "When Are Bias-Free ReLU Networks Effectively Linear Networks?",
            "Yedi Zhang, Andrew Saxe, Peter E. Latham",
            "TMLR 2025 (arXiv 2406.12615)",
            "shared/papers/zhang2025-bias-free-relu.md",
            "shared/papers/seeds/000_90bc9a77ffe6bba3.txt",
        ),
    )
}


def all_claims() -> dict[str, Claim]:
    """Import every paper module and return all registered claims by id."""
    for key in PAPERS:
        importlib.import_module(f"verify.papers.{key}")
    return registered()


def select(selectors: list[str]) -> list[Claim]:
    """Claims named by paper keys and/or claim ids (all claims when empty).

    Raises :class:`UserError` for a selector that matches nothing.
    """
    claims = all_claims()
    if not selectors:
        return list(claims.values())
    chosen: dict[str, Claim] = {}
    for s in selectors:
        if s in PAPERS:
            chosen.update({i: c for i, c in claims.items() if c.paper == s})
        elif s in claims:
            chosen[s] = claims[s]
        else:
            close = [i for i in claims if s in i][:3]
            hint = f"; did you mean {', '.join(close)}?" if close else "; see 'verify list'"
            raise UserError(f"unknown claim or paper {s!r}{hint}")
    return list(chosen.values())
