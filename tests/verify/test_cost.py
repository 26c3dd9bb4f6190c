"""``COST.md``: each stored claim's cost and state (fresh, stale, unfinished), the claims not run, notes."""

from __future__ import annotations

from dataclasses import replace

from cli_support import fake_record

from verify.report.cost import cost_page, makespan
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


def test_makespan_hands_claims_in_order_to_the_first_free_worker():
    assert makespan([5.0, 1.0, 1.0, 1.0], 2) == 5.0  # the long claim bounds it
    assert makespan([1.0, 1.0, 1.0, 5.0], 2) == 6.0  # in order: it starts last, on a worker already busy
    assert makespan([3.0, 3.0, 2.0, 2.0, 2.0], 1) == 12.0
    assert makespan([1.0] * 7, 16) == 1.0


def test_cost_page_predicts_the_wall_on_local_workers():
    records = [_record(f"fake2025:lemma-{k}", w) for k, w in enumerate([40.0, 30.0, 20.0, 10.0])]
    md = to_markdown(cost_page(records, set(), [r.id for r in records], ""))
    rows = {line.split(" | ")[0].strip("| "): line for line in md.splitlines() if line.startswith("| ")}
    assert "## Wall time on N local workers (predicted)" in md
    assert rows["1"].startswith("| 1 | 100 s") and rows["2"].startswith("| 2 | 50 s")  # 40+10 | 30+20
    assert rows["16"].startswith("| 16 | 40 s") and "| 2.50x |" in rows["16"]


def test_cost_page_of_records_without_measured_time_has_no_speed_up():
    records = [_record("fake2025:lemma-1", 0.0)]
    md = to_markdown(cost_page(records, set(), [r.id for r in records], ""))
    assert "| 2 | 0 s (0.0 h) | 0 s (0.0 h) | - |" in md
