"""The index's side-by-side view of runs of the same claims at other profiles or on other backends.

The default run (``reports/``, profile ``quick``), the paper-scale run (``reports/full/``,
profile ``full``) and a run on the GPU (``reports/gpu/``, ``--backend cupy``) are separate
results files. The index of each shows all of them: per claim the verdict and wall time in
each run, and whether the stored record is stale (made by other code than the current one).
A claim a run has not reached reads "not run".

The companions of a results directory ``out`` are ``out/full`` and ``out/gpu`` where they hold a
results file (the default layout); of ``out/full`` or ``out/gpu``, the parent and the other
sibling. A run's label (profile, and backend where it is not NumPy) is read from its records,
not from the directory name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from verify.records import Record
from verify.report.document import Heading, Literal, Table, Verdict, para
from verify.results import RESULTS_FILE, read

PAPER_SCALE_DIR = "full"
GPU_DIR = "gpu"
_COMPANION_DIRS = (PAPER_SCALE_DIR, GPU_DIR)
_PROFILE_ORDER = ("tiny", "quick", "full")


@dataclass(frozen=True)
class Companion:
    """Records of the other run, where they are relative to this index, and which are stale."""

    records: dict[str, Record]
    prefix: str  # link prefix from this index to the companion's directory, e.g. "full/"
    stale: frozenset[str]

    @property
    def profile(self) -> str:
        return _one({r.provenance.profile for r in self.records.values()})

    @property
    def label(self) -> str:
        """The profile, and the backend where it is not NumPy (``quick, cupy``)."""
        backend = _one({r.provenance.backend for r in self.records.values()})
        return self.profile if backend == "numpy" else f"{self.profile}, {backend}"


def _one(values: set[str]) -> str:
    return values.pop() if len(values) == 1 else "/".join(sorted(values))


def companion_dirs(out_dir: Path) -> list[tuple[Path, str]]:
    """The companion results directories of ``out_dir`` and the link prefix to each."""
    nested = out_dir.name in _COMPANION_DIRS and (out_dir.parent / RESULTS_FILE).is_file()
    base, up = (out_dir.parent, "../") if nested else (out_dir, "")
    found = [(base, up)] if nested else []
    for sub in _COMPANION_DIRS:
        path = base / sub
        if path.resolve() != out_dir.resolve() and (path / RESULTS_FILE).is_file():
            found.append((path, f"{up}{sub}/"))
    return found


def load_companions(out_dir: Path, is_stale: Callable[[Record], bool]) -> list[Companion]:
    """The companion runs of ``out_dir`` (none, one or several), their stale records marked."""
    runs = []
    for path, prefix in companion_dirs(Path(out_dir)):
        records = read(path / RESULTS_FILE)
        runs.append(Companion(records, prefix, frozenset(i for i, r in records.items() if is_stale(r))))
    return runs


def _rank(run: Companion) -> tuple[int, str]:
    """Profiles in increasing size, NumPy before other backends."""
    profile = run.profile
    order = _PROFILE_ORDER.index(profile) if profile in _PROFILE_ORDER else len(_PROFILE_ORDER)
    return order, run.label


def scale_mark(record: Record) -> str:
    """`` [reduced scale]`` / `` [stand-in data]`` for a record run below the paper's scale or on
    stand-in data, where its reason does not already carry the label (every verdict but PASS and
    FAIL/XFAIL leaves it out); empty otherwise."""
    scale = record.scale
    if scale is None or f"[{scale.kind}:" in record.reason:
        return ""
    return f" [{scale.kind}]"


def _cells(run: Companion, cid: str) -> tuple:
    """Verdict and linked wall time of claim ``cid`` in ``run``."""
    record, stale, prefix = run.records.get(cid), cid in run.stale, run.prefix
    if record is None:
        return Literal("not run"), Literal("")
    mark = scale_mark(record) + (" (stale)" if stale else "")
    wall = record.provenance.runtime_s
    link = f"[{wall:.1f}]" if wall < 10 else f"[{wall:.0f}]"
    link += f"({prefix}{record.paper}/{record.slug}.md)"
    return Verdict(record.verdict), link + mark


def side_by_side(records: list[Record], stale: set[str], others: list[Companion], papers: list[str]) -> list:
    """A section with one table per paper: verdict and wall time (s) of each claim in every run."""
    this = Companion({r.id: r for r in records}, "", frozenset(stale))
    runs = sorted((this, *others), key=_rank)
    ids = list(dict.fromkeys(i for run in (this, *others) for i in run.records))
    totals = "; ".join(
        f"`{run.label}`: {len(run.records)} claims, "
        f"{sum(r.provenance.runtime_s for r in run.records.values()) / 60:.0f} min of wall time, "
        f"{len(run.stale & set(run.records))} stale"
        for run in runs
    )
    blocks: list = [
        Heading(2, "Profiles side by side", anchor="profiles"),
        para(
            "Each claim's verdict and wall time (s, linked to its page) in every stored run. The "
            "paper-scale run (`full`) goes on across sessions with `--resume`, a GPU run (`cupy`) only in "
            "sessions lent a GPU; a claim a run has not reached reads *not run*, and a *stale* record was "
            "made by code that has changed since (its verdict is that of the commit in its provenance); "
            "*[reduced scale]* or *[stand-in data]* marks a run below the paper's scale or on stand-in "
            "data (its page says which). "
            f"{totals}."
        ),
    ]
    head = ("claim", *(h for run in runs for h in (f"at {run.label}", "wall (s)")))
    for key in papers:
        rows = tuple(
            (Literal(cid), *(cell for run in runs for cell in _cells(run, cid)))
            for cid in ids
            if cid.partition(":")[0] == key
        )
        if rows:
            blocks += [Heading(3, key), Table(head, rows)]
    return blocks
