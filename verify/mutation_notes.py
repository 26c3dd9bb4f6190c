"""Why each surviving mutant of the committed campaign left every verdict unchanged.

Issue 14 item 9: a mutant that moves a number some check compared but no verdict is a
*survivor*, and it stays one here -- a note says why, it never reclassifies. The renderer of
``reports/mutation/mutation.md`` (:func:`verify.mutation._markdown`) looks each survivor up by
``(path, before, after)`` (stable under edits elsewhere in the file) and prints
``**not explained**`` for any survivor without a note.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = (
    "Kinds. **A**: a tolerance or rounding allowance of the toolkit (an ulps factor, an O(.) constant, a "
    "safety factor) sitting above the rounding actually met: a passing check cannot see its own "
    "tolerance grow, only a control that must break on the same check could. **B**: an instance or "
    "experiment parameter (sizes, grids, search starts, a control's data): the statement holds on the "
    "changed instance too, so a changed verdict would be the defect. **C**: a paper constant moved in "
    "its safe direction (a sufficient threshold, a training time): the statement stays true. **D**: a "
    "formula fault a check should have caught -- tightened, or the resolution is stated."
)


@dataclass(frozen=True)
class Note:
    kind: str  # A, B, C or D (see KINDS)
    why: str
    action: str


NOTES: dict[tuple[str, str, str], Note] = {}


def explain(row: dict) -> Note | None:
    """The note for a survivor row of :func:`verify.mutation.run`, if one was written."""
    return NOTES.get((row["path"], row["before"], row["after"]))
