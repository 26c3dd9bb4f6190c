"""``COST.md``: what a stored run cost, claim by claim, and what it could not afford.

Read from the records alone (``provenance.runtime_s``, ``peak_memory_mib``, ``machine``,
``stopped_at_s``), so ``verify report`` rewrites it without running anything: per paper, each
claim's verdict, wall time, peak host memory, commit and state -- *fresh*, *stale* (made by
code that has changed since), or *unfinished* (stopped at a ``--time-limit``: its wall time is
a lower bound on its cost) -- the registered claims without a record, and the totals, with the
wall time the stored claims would take on N local workers (:func:`makespan`).
What only a person can add (estimates of what a GPU or a cluster would take, the load the
machine was under) goes in ``COST-notes.md`` beside ``results.json``; its paragraphs follow the
tables.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from pathlib import Path

from verify.records import Record
from verify.report.document import Heading, Literal, Page, Para, Table, Verdict, para
from verify.report.pages import paper_title, short_commit

NOTES_FILE = "COST-notes.md"
WORKERS = (1, 2, 4, 8, 16)  # the worker counts of the predicted-wall table


def makespan(walls: Sequence[float], workers: int) -> float:
    """Wall time of handing tasks of durations ``walls``, in order, each to the first worker that is free.

    This is how ``verify run --workers N`` runs claims: it submits them in registry order and the Dask
    scheduler gives the next one to the next free worker (one task per single-threaded worker). Start-up,
    transfers and contention between workers are not modelled, so it is a prediction from measured walls,
    bounded below by ``max(sum(walls) / workers, max(walls))``.
    """
    free = [0.0] * workers
    for wall in walls:
        heapq.heappush(free, heapq.heappop(free) + wall)
    return max(free)


def _workers_table(records: Sequence[Record], registered: Sequence[str]) -> tuple[Heading, Para, Table]:
    """Predicted wall on N local workers of the stored claims, in registry order (:func:`makespan`)."""
    order = {claim_id: k for k, claim_id in enumerate(registered)}
    walls = [r.provenance.runtime_s for r in sorted(records, key=lambda r: order.get(r.id, len(order)))]
    total, longest = sum(walls), max(walls)
    spans = {n: makespan(walls, n) for n in WORKERS}
    rows = tuple(
        (
            Literal(str(n)),
            _hours(spans[n]),
            _hours(max(total / n, longest)),
            Literal(f"{total / spans[n]:.2f}x" if spans[n] > 0 else "-"),  # records of no measured time
        )
        for n in WORKERS
    )
    head = ("workers", "predicted wall", "lower bound max(total / N, longest)", "speed-up")
    text = para(
        f"Predicted from the stored walls, not measured: the {len(walls)} stored claims handed in registry "
        "order to the first free worker, as `verify run --workers N` submits them (start-up, transfers and "
        "contention not modelled; the walls are the records' own, measured on a machine that may have run "
        f"other jobs beside them: see the notes). The longest claim ({_hours(longest)}) bounds any number of "
        "workers: only splitting it (`ctx.map` over its seeds or sizes) would go below."
    )
    return Heading(2, "Wall time on N local workers (predicted)", anchor="workers"), text, Table(head, rows)


def _state(record: Record, stale: set[str]) -> str:
    stopped = record.provenance.stopped_at_s
    if stopped is not None:
        return f"unfinished: stopped at {stopped:g} s"
    return "stale" if record.id in stale else "fresh"


def _hours(seconds: float) -> str:
    return f"{seconds:.0f} s ({seconds / 3600:.1f} h)"


def _machine(records: Sequence[Record]) -> str:
    """The distinct platforms (and processors) the records were made on."""
    seen = {
        " ".join(str(r.provenance.machine[k]) for k in ("platform", "processor") if k in r.provenance.machine)
        for r in records
    }
    return "; ".join(sorted(seen - {""})) or "not recorded"


def cost_page(records: Sequence[Record], stale: set[str], registered: Sequence[str], notes: str) -> Page:
    """The cost page of ``records``; ``registered`` are the claim ids that should have one,
    ``notes`` the text of ``COST-notes.md`` (paragraphs separated by blank lines; may be empty)."""
    profiles = sorted({r.provenance.profile for r in records})
    title = f"Cost of the `{'/'.join(profiles) or 'empty'}` run"
    stored = {r.id for r in records}
    missing = [i for i in registered if i not in stored]
    unfinished = [r for r in records if r.provenance.stopped_at_s is not None]
    total = sum(r.provenance.runtime_s for r in records)
    fresh = sum(1 for r in records if _state(r, stale) == "fresh")
    page = Page(title).add(
        Heading(1, title),
        para(
            f"**{len(records)} claims stored ({fresh} fresh, {len(records) - fresh - len(unfinished)} stale, "
            f"{len(unfinished)} unfinished at a time limit), {len(missing)} registered claims not run; "
            f"{_hours(total)} of wall time in all** (the sum of the stored records' `runtime_s`; an "
            "unfinished claim counts its time up to the limit, a lower bound on its cost)."
        ),
        para(f"Machines (from the records' provenance): {_machine(records)}."),
    )
    if records:
        page.add(*_workers_table(records, registered))
    papers = list(dict.fromkeys([r.paper for r in records] + [i.partition(":")[0] for i in missing]))
    for key in papers:
        mine = [r for r in records if r.paper == key]
        absent = [i for i in missing if i.partition(":")[0] == key]
        spent = sum(r.provenance.runtime_s for r in mine)
        page.add(
            Heading(2, f"{key}: {paper_title(key)}", anchor=key),
            para(f"{len(mine)} claims stored, {len(absent)} not run; {_hours(spent)} of wall time."),
        )
        rows = tuple(
            (
                Literal(r.id),
                Verdict(str(r.verdict)),
                Literal(f"{r.provenance.runtime_s:.0f}"),
                Literal(f"{r.provenance.peak_memory_mib.get('host_peak_rss', 0):.0f}"),
                Literal(short_commit(r.provenance.git_commit), code=True),
                _state(r, stale),
            )
            for r in sorted(mine, key=lambda r: -r.provenance.runtime_s)
        )
        if rows:
            head = ("claim", "verdict", "wall (s)", "peak RSS (MiB)", "commit", "state")
            page.add(Table(head, rows))
        if absent:
            page.add(para("Not run: " + ", ".join(absent) + "."))
    if notes.strip():
        page.add(Heading(2, "Notes", anchor="notes"))
        page.add(*(para(p.strip()) for p in notes.split("\n\n") if p.strip()))
    return page


def read_notes(out_dir: Path) -> str:
    """The hand-written ``COST-notes.md`` of ``out_dir`` ('' when there is none)."""
    path = Path(out_dir) / NOTES_FILE
    return path.read_text() if path.is_file() else ""
