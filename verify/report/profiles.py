"""The index's side-by-side view of two runs of the same claims at different profiles.

The default run (``reports/``, profile ``quick``) and the paper-scale run (``reports/full/``,
profile ``full``) are separate results files. The index of either shows both: per claim
the verdict and wall time at each profile, and whether the stored record is stale (made by
other code than the current one). A claim the other run has not reached yet reads
"not run".

The companion of a results directory ``out`` is ``out/full`` when that holds a results file
(the default layout), else ``out/..`` when ``out`` is named ``full``; its profile is read from
its records, not from the directory name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from verify.records import Record
from verify.report.document import Heading, Literal, Table, Verdict, para
from verify.results import RESULTS_FILE, read

PAPER_SCALE_DIR = "full"
_PROFILE_ORDER = ("tiny", "quick", "full")


@dataclass(frozen=True)
class Companion:
    """Records of the other run, where they are relative to this index, and which are stale."""

    records: dict[str, Record]
    prefix: str  # link prefix from this index to the companion's directory, e.g. "full/"
    stale: frozenset[str]

    @property
    def profile(self) -> str:
        profiles = {r.provenance.profile for r in self.records.values()}
        return profiles.pop() if len(profiles) == 1 else "/".join(sorted(profiles))


def companion_dir(out_dir: Path) -> tuple[Path, str] | None:
    """The companion results directory of ``out_dir`` and the link prefix to it, if there is one."""
    if (out_dir / PAPER_SCALE_DIR / RESULTS_FILE).is_file():
        return out_dir / PAPER_SCALE_DIR, f"{PAPER_SCALE_DIR}/"
    if out_dir.name == PAPER_SCALE_DIR and (out_dir.parent / RESULTS_FILE).is_file():
        return out_dir.parent, "../"
    return None


def load_companion(out_dir: Path, is_stale: Callable[[Record], bool]) -> Companion | None:
    """The companion run of ``out_dir`` (None if there is none), its stale records marked."""
    found = companion_dir(Path(out_dir))
    if found is None:
        return None
    path, prefix = found
    records = read(path / RESULTS_FILE)
    return Companion(records, prefix, frozenset(i for i, r in records.items() if is_stale(r)))


def _rank(profile: str) -> int:
    return _PROFILE_ORDER.index(profile) if profile in _PROFILE_ORDER else len(_PROFILE_ORDER)


def _cells(run: Companion, cid: str) -> tuple:
    """Verdict and linked wall time of claim ``cid`` in ``run``."""
    record, stale, prefix = run.records.get(cid), cid in run.stale, run.prefix
    if record is None:
        return Literal("not run"), Literal("")
    mark = " (stale)" if stale else ""
    wall = record.provenance.runtime_s
    link = f"[{wall:.1f}]" if wall < 10 else f"[{wall:.0f}]"
    link += f"({prefix}{record.paper}/{record.slug}.md)"
    return Verdict(record.verdict), link + mark


def side_by_side(records: list[Record], stale: set[str], other: Companion, papers: list[str]) -> list:
    """A section with one table per paper: verdict and wall time (s) of each claim at both profiles."""
    this = Companion({r.id: r for r in records}, "", frozenset(stale))
    runs = sorted((this, other), key=lambda run: _rank(run.profile))
    ids = list(this.records) + [i for i in other.records if i not in this.records]
    totals = "; ".join(
        f"`{run.profile}`: {len(run.records)} claims, "
        f"{sum(r.provenance.runtime_s for r in run.records.values()) / 60:.0f} min of wall time, "
        f"{len(run.stale & set(run.records))} stale"
        for run in runs
    )
    blocks: list = [
        Heading(2, "Profiles side by side", anchor="profiles"),
        para(
            "Each claim's verdict and wall time (s, linked to its page) in both stored runs. The "
            "paper-scale run (`full`) goes on across sessions with `--resume`; a claim it has not reached "
            "reads *not run*, and a *stale* record was made by code that has changed since (its verdict is "
            f"that of the commit in its provenance). {totals}."
        ),
    ]
    head = ("claim", *(h for run in runs for h in (f"at {run.profile}", "wall (s)")))
    for key in papers:
        rows = tuple(
            (Literal(cid), *(cell for run in runs for cell in _cells(run, cid)))
            for cid in ids
            if cid.partition(":")[0] == key
        )
        if rows:
            blocks += [Heading(3, key), Table(head, rows)]
    return blocks
