"""``COST.md``: each stored claim's cost and state (fresh, stale, unfinished), the claims not run, notes."""

from __future__ import annotations

from dataclasses import replace

from cli_support import fake_record

from verify.report.cost import cost_page
from verify.report.document import to_markdown


def _record(claim_id: str, runtime: float, stopped: float | None = None):
    r = fake_record(id=claim_id)
    return replace(r, provenance=replace(r.provenance, runtime_s=runtime, stopped_at_s=stopped))


def test_cost_page_states_each_claim_the_missing_ones_and_the_total():
    records = [
        _record("fake2025:lemma-1", 12.0),
        _record("fake2025:lemma-2", 1500.0, stopped=1500.0),
        _record("fake2025:lemma-3", 30.0),
    ]
    registered = [r.id for r in records] + ["fake2025:lemma-4"]
    notes = "A GPU would take minutes.\n\nSecond."
    md = to_markdown(cost_page(records, {"fake2025:lemma-3"}, registered, notes))
    row = {line.split(" | ")[0].strip("| "): line for line in md.splitlines() if line.startswith("| fake")}
    assert row["fake2025:lemma-1"].endswith("| fresh |")
    assert row["fake2025:lemma-2"].endswith("| unfinished: stopped at 1500 s |")
    assert row["fake2025:lemma-3"].endswith("| stale |")
    assert list(row) == ["fake2025:lemma-2", "fake2025:lemma-3", "fake2025:lemma-1"]  # costliest first
    assert "3 claims stored (1 fresh, 1 stale, 1 unfinished at a time limit), 1 registered" in md
    assert "1542 s (0.4 h)" in md and "Not run: fake2025:lemma-4." in md
    assert md.index("## Notes") < md.index("A GPU would take minutes.") < md.index("Second.")
