"""The papers under verification and the lookup of their claims.

Each paper has a module ``verify/papers/<key>.py`` whose ``@claim`` declarations
register its statements when imported.  Adding a paper = adding a :class:`Paper`
here and that module.
"""

from __future__ import annotations

import importlib
import re
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
        Paper(
            "min2024",
            "Early Neuron Alignment in Two-layer ReLU Networks with Small Initialization",
            "Hancheng Min, Enrique Mallada, René Vidal (inferred from the content)",
            "ICLR 2024",
            "shared/papers/min2024-early-alignment.md",
            "shared/papers/seeds/001_3d2e519e1927f769.txt",
        ),
        Paper(
            "kou2023",
            "Implicit Bias of Gradient Descent for Two-layer ReLU and Leaky ReLU Networks "
            "on Nearly-orthogonal Data",
            "Yiwen Kou, Zixiang Chen, Quanquan Gu (inferred from the content)",
            "NeurIPS 2023",
            "shared/papers/kou2023-implicit-bias-gd.md",
            "shared/papers/seeds/002_6c57c8c6cfff2055.txt",
        ),
        Paper(
            "kumar2025",
            "Learning Neural Networks by Neuron Pursuit",
            "Akshay Kumar, Jarvis Haupt",
            "2025",
            "shared/papers/kumar2025-neuron-pursuit.md",
            "shared/papers/seeds/003_c3c933f3f57b55ca.txt",
        ),
        Paper(
            "dana2025",
            "Convergence of Shallow ReLU Networks on Weakly Interacting Data",
            "Léo Dana, Loucas Pillaud-Vivien, Francis Bach",
            "2025",
            "shared/papers/dana2025-weakly-interacting.md",
            "shared/papers/seeds/004_429d00d8b34a8574.txt",
        ),
    )
}


# Kinds that are not numbered statements come after them, in this order.
_TRAILING_KINDS = ("equation", "section", "figure")


def paper_order(claim: Claim) -> tuple:
    """Sort key following the paper: numbered statements by number, then equations,
    appendix sections and figures; ``-corrected`` variants right after their original."""
    kind, _, number = claim.slug.partition("-")
    group = _TRAILING_KINDS.index(kind) + 1 if kind in _TRAILING_KINDS else 0
    parts = re.findall(r"\d+|[A-Za-z]+", number)
    key = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)
    return (list(PAPERS).index(claim.paper) if claim.paper in PAPERS else 99, group, key)


def all_claims() -> dict[str, Claim]:
    """Import every paper module and return all registered claims by id, in paper order."""
    for key in PAPERS:
        importlib.import_module(f"verify.papers.{key}")
    return {c.id: c for c in sorted(registered().values(), key=paper_order)}


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
