"""The ``verify`` command: list, run, show, report and diff claims.

Exit status (every command):

* 0 -- no selected claim is FAIL, XPASS or ERROR (``run``), or the command did its job;
* 1 -- some claim is FAIL, XPASS or ERROR (``run``; the closing summary line names them);
* 2 -- bad input: one line on stderr, before anything runs, and no stored result is lost
  (unknown claim, invalid ``--set``, an ``--out`` that is not a writable directory, a
  ``results.json`` that cannot be read: ``--fresh`` moves it aside);
* 3 -- the tool itself crashed (an unexpected exception outside a claim; a claim's own
  exception is an ERROR verdict): one line on stderr naming the file that holds the
  traceback;
* 130 -- interrupted (Ctrl-C); ``verify run`` first stores and renders what finished and
  prints the ``--resume`` command that continues.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
import traceback
from collections import Counter
from contextlib import nullcontext
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column, Table
from threadpoolctl import threadpool_limits

from numeric.backend import BackendUnavailable, get_backend
from numeric.engine.allocator import keep_freed_memory
from verify import distributed, results, scaffold
from verify.claim import Claim
from verify.diff import diff
from verify.display import check_lines, value
from verify.errors import UserError
from verify.junit import write_junit
from verify.params import PROFILE_NAMES, format_value, parse_assignments
from verify.plan import parameter_rows, plan_claims
from verify.profiles import DEFAULT_PROFILE, get_profile
from verify.records import Record
from verify.registry import all_claims, select, use_claims
from verify.report.render import BADGE, render
from verify.runner import check_time_limit, exit_status, run_claims
from verify.verdict import Verdict

try:  # typer >= 0.2x vendors its own click (and does not install click itself)
    from typer._click import exceptions as _click_exceptions
except ImportError:  # older typer depends on click and raises click's own exceptions
    from click import exceptions as _click_exceptions

_USAGE_ERRORS = (_click_exceptions.UsageError,)
_CLICK_ERRORS = (_click_exceptions.ClickException,)
_ABORTS = (typer.Abort, *filter(None, [getattr(_click_exceptions, "Abort", None)]))

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Verify theorems about training two-layer (leaky) ReLU networks.",
)
console = Console()

DEFAULT_OUT = Path("reports")
# One BLAS thread per process: the claims' products are small, and on a shared or loaded machine
# multi-threaded OpenBLAS stalls (README "CLI": measured); --workers is the way to use more cores.
DEFAULT_THREADS = 1
Selectors = Annotated[list[str] | None, typer.Argument(help="paper keys and/or claim ids")]
OutDir = Annotated[Path, typer.Option("--out", help="directory of results.json and reports")]
ClaimSources = Annotated[
    list[str] | None,
    typer.Option("--claims", help="also load claims from a .py file, package directory or module name"),
]


def _verdict(v: str) -> str:
    return f"[bold {BADGE.get(v, 'white')}]{v}[/]"


@app.command("list")
def list_claims(selectors: Selectors = None, claim_sources: ClaimSources = None) -> None:
    """List the registered claims (all, or those of the given papers / ids)."""
    use_claims(claim_sources)
    table = Table("id", "title", "source", "erratum")
    for c in select(selectors or []):
        table.add_row(c.id, c.title, c.source, "yes" if c.erratum else "")
    console.print(table)


@app.command()
def params(selectors: Selectors = None, claim_sources: ClaimSources = None) -> None:
    """Every parameter of the given claims / papers: value per profile, type, domain, --set."""
    use_claims(claim_sources)
    table = Table("claim", "parameter", *PROFILE_NAMES, "type", "domain", "--set")
    for row in parameter_rows(select(selectors or [])):
        shown = [format_value(row.values[p]) if p in row.values else "-" for p in PROFILE_NAMES]
        table.add_row(row.claim_id, row.name, *shown, row.type.describe(), row.type.domain_text(), row.reach)
    console.print(table)


@app.command()
def run(
    selectors: Selectors = None,
    backend: Annotated[str, typer.Option(help="numpy | cupy | auto")] = "numpy",
    profile: Annotated[str, typer.Option(help="tiny | quick | full")] = DEFAULT_PROFILE,
    seed: Annotated[int, typer.Option(help="base seed of every random draw")] = 0,
    out: OutDir = DEFAULT_OUT,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="override a parameter for every selected claim, NAME=VALUE"),
    ] = None,
    threads: Annotated[
        int,
        typer.Option(help="BLAS threads per process; 0: the BLAS library's default (all cores). README"),
    ] = DEFAULT_THREADS,
    resume: Annotated[
        bool,
        typer.Option(
            help="skip claims whose stored result is fresh (same code, profile, seed, --set, backend)"
        ),
    ] = False,
    fresh: Annotated[
        bool,
        typer.Option(
            help="start a new results.json; the old one is moved aside to results.json.<why>-<time>"
        ),
    ] = False,
    junit: Annotated[
        Path | None, typer.Option(help="also write JUnit XML of the run's claims to this file")
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="run the claims in N local worker processes (Dask; README)")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="run the claims on the Dask cluster at this scheduler address")
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            help="stop a claim still running after this many seconds and record it unfinished "
            "(INCONCLUSIVE, with the limit); in-process runs only"
        ),
    ] = None,
    claim_sources: ClaimSources = None,
) -> None:
    """Run claims, write results.json and the reports, print a summary."""
    use_claims(claim_sources)
    if seed < 0:
        raise UserError(f"--seed must be >= 0, got {seed}")
    if threads < 0:
        raise UserError(f"--threads must be >= 0, got {threads}")
    if resume and fresh:
        raise UserError("--resume keeps the stored results and --fresh sets them aside: choose one")
    check_time_limit(time_limit)
    runner = partial(run_claims, time_limit=time_limit)
    if workers is not None or scheduler is not None:
        distributed.check_options(workers, scheduler)
        if time_limit is not None:
            raise UserError("--time-limit stops claims in this process: not with --workers/--scheduler")
        runner = partial(distributed.run_claims, workers=workers, scheduler=scheduler, threads=threads)
    overrides = parse_assignments(set_ or [])
    prof = get_profile(profile)
    try:
        be = get_backend(backend)
    except (ValueError, BackendUnavailable) as e:
        raise UserError(str(e)) from None
    claims = select(selectors or [])
    plan_claims(claims, prof, overrides)  # every parameter checked before anything runs
    results.ensure_writable(out, "--out")
    if junit is not None:
        _ensure_writable_file(junit, "--junit")
    stored = _load_or_set_aside(out, fresh)
    order = list(all_claims())
    settings = {
        "profile": prof.name,
        "seed": seed,
        "overrides": overrides,
        "backend": be.name,
        "time_limit": time_limit,
    }
    kept = {c.id: stored[c.id] for c in claims if resume and _is_fresh(stored.get(c.id), c, settings)}
    todo = [c for c in claims if c.id not in kept]
    finished: list[Record] = []
    running: list[Claim] = []

    def keep(record: Record) -> None:
        finished.append(record)
        stored.update(results.store(out, [record], order))
        progress.advance(task)

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )
    if kept:
        console.print(f"--resume: {len(kept)} of {len(claims)} claims have a fresh stored result, not rerun")
    interrupted = False
    try:
        with progress, threadpool_limits(threads) if threads else nullcontext():
            task = progress.add_task("verifying", total=len(todo))
            runner(
                todo,
                backend=be,
                profile=prof,
                seed=seed,
                overrides=overrides,
                on_start=lambda c: (running.append(c), progress.update(task, description=f"{c.id:<32}")),
                on_done=keep,
            )
    except KeyboardInterrupt:
        interrupted = True
        stored.update(results.store(out, finished, order))  # complete, should the interrupt have hit a save
    render(out, _in_order(stored, order), all_claims())
    this_run = {**kept, **{r.id: r for r in finished}}
    done = [this_run[c.id] for c in claims if c.id in this_run]
    _summary(finished)
    console.print(_summary_line(done, len(kept)), soft_wrap=True, highlight=False)  # one line, for logs
    if junit is not None:
        write_junit(junit, done)
    console.print(f"results: {out / results.RESULTS_FILE}; reports: {out / 'index.md'}")
    if interrupted:
        _report_interruption(out, claims, this_run, len(finished), running)
        raise typer.Exit(130)
    raise typer.Exit(exit_status(done))


def _is_fresh(record: Record | None, c: Claim, settings: dict) -> bool:
    return results.is_fresh(record, source_hash=c.source_hash, **settings)


def _load_or_set_aside(out: Path, fresh: bool) -> dict[str, Record]:
    """The stored records; with ``fresh`` none, and any results.json is moved aside (never deleted)."""
    if not fresh:
        return results.load(out)
    try:
        results.load(out)
        tag = "previous"
    except UserError:
        tag = "broken"
    moved = results.move_aside(out, tag)
    if moved is not None:
        console.print(f"--fresh: moved {out / results.RESULTS_FILE} aside to {moved}")
    return {}


def _ensure_writable_file(path: Path, option: str) -> None:
    if path.is_dir():
        raise UserError(f"{option} {path} is a directory, not a file")
    results.ensure_writable(path.parent, option)


def _report_interruption(
    out: Path, claims: list[Claim], done: dict[str, Record], finished: int, started: list[Claim]
) -> None:
    """Say on stderr what an interrupted run kept, what it lost, and how to continue it."""
    lost = [c.id for c in started if c.id not in done]
    lost_text = (
        f"{', '.join(lost)} started and {'is' if len(lost) == 1 else 'are'} not stored; " if lost else ""
    )
    left = sum(c.id not in done for c in claims)
    argv = [a for a in sys.argv[1:] if a != "--fresh"]
    again = shlex.join(["verify", *argv, *([] if "--resume" in argv else ["--resume"])])
    print(
        f"verify: interrupted: {finished} claims finished this run and are stored in "
        f"{out / results.RESULTS_FILE} (reports rendered); {lost_text}{left} not done; "
        f"continue with: {again}",
        file=sys.stderr,
    )


def _in_order(stored: dict[str, Record], order: list[str]) -> list[Record]:
    """Every stored record, registered claims first (in registry order), then the rest."""
    return [stored[i] for i in order if i in stored] + [r for i, r in stored.items() if i not in order]


def _summary(records: list[Record]) -> None:
    table = Table("claim", "verdict", "reason", "s")
    for r in records:
        table.add_row(r.id, _verdict(r.verdict), r.reason, f"{r.provenance.runtime_s:.1f}")
    console.print(table)


def _summary_line(records: list[Record], resumed: int = 0) -> str:
    """``N claims: counts per verdict``, then the ids behind a non-zero exit status."""
    counts = Counter(r.verdict for r in records)
    line = f"{len(records)} claims: " + ", ".join(f"{counts[v]} {v}" for v in Verdict if counts[v])
    if resumed:
        line += f" ({resumed} kept by --resume)"
    for v in (v for v in Verdict if v.is_failure):
        ids = [r.id for r in records if r.verdict == v]
        if ids:
            line += f"; {v}: {', '.join(ids)}"
    return line


@app.command()
def show(
    claim_id: Annotated[str, typer.Argument(help="a claim id")],
    out: OutDir = DEFAULT_OUT,
    claim_sources: ClaimSources = None,
) -> None:
    """Show a claim's statement and its last stored result."""
    use_claims(claim_sources)
    claims = all_claims()
    if claim_id not in claims:
        select([claim_id])  # raises a UserError with suggestions
        raise UserError(f"{claim_id!r} is a paper, not a claim; see 'verify list {claim_id}'")
    c = claims[claim_id]
    console.print(
        f"[bold]{c.id}[/]: {escape(c.title)}\nsource: {escape(c.source)}\n\n{escape(c.statement)}\n"
    )
    console.print("hypotheses:\n" + "\n".join(f"  - {h}" for h in c.hypotheses), markup=False)
    if c.erratum:
        console.print(f"\nknown erratum: {c.erratum.reason}", markup=False)
    record = results.load(out).get(claim_id)
    if record is None:
        console.print(f"\nno stored result in {out}; run: verify run {claim_id}")
        return
    console.print(f"\nverdict: {_verdict(record.verdict)} ({escape(record.reason)})")
    console.print(f"regime: {record.regime.state}: {record.regime.reason}", markup=False, highlight=False)
    if record.scale:
        console.print(f"scale: {record.scale.kind}: {record.scale.reason}", markup=False, highlight=False)
    console.print(f"\nchecks ({len(record.checks)}):", highlight=False)
    for ch in record.checks:
        console.print("\n".join(f"  {line}" for line in check_lines(ch)), markup=False, highlight=False)
    if record.controls:
        console.print(f"\ncontrols ({len(record.controls)}):", highlight=False)
    for ctl in record.controls:
        status = "breaks what it must" if ctl.ok else "; ".join(ctl.problems)
        broke = set(ctl.broke)
        lines = [
            f"- {ctl.label}: {status}",
            *(f"    must break: {n} ({'broke' if n in broke else 'held'})" for n in ctl.must_break),
        ]
        console.print("\n".join(f"  {line}" for line in lines), markup=False, highlight=False)


@app.command()
def report(
    out: OutDir = DEFAULT_OUT,
    claim_sources: ClaimSources = None,
    junit: Annotated[
        Path | None, typer.Option(help="also write JUnit XML of every stored claim to this file")
    ] = None,
) -> None:
    """Re-render the reports from the stored results.json (runs nothing)."""
    use_claims(claim_sources)
    stored = results.load(out)
    if not stored:
        raise UserError(f"no results in {out}; run 'verify run' first")
    results.ensure_writable(out, "--out")
    if junit is not None:
        _ensure_writable_file(junit, "--junit")
    records = _in_order(stored, list(all_claims()))
    written = render(out, records, all_claims())
    if junit is not None:
        write_junit(junit, records)
        written.append(junit)
    console.print(f"wrote {len(written)} report files under {out}")


@app.command()
def new(
    paper: Annotated[str, typer.Argument(help="the paper's key, e.g. mypaper2026")],
    dir_: Annotated[Path | None, typer.Option("--dir", help="where (default ./PAPER-claims)")] = None,
) -> None:
    """Scaffold an installable package of claims for a paper of your own (see the README)."""
    written = scaffold.create(paper, dir_)
    console.print("\n".join(f"wrote {p}" for p in written), highlight=False)
    console.print(f"next: pip install -e {written[0].parent} && verify run {paper} --profile tiny")


@app.command("diff")
def diff_runs(
    a: Annotated[Path, typer.Argument(help="results.json of the first run, or its --out directory")],
    b: Annotated[Path, typer.Argument(help="results.json of the second run, or its --out directory")],
    verdicts_only: Annotated[bool, typer.Option(help="list verdict changes only")] = False,
    rtol: Annotated[
        float, typer.Option(help="report a measured number that changed by more than this, relatively")
    ] = 1e-9,
) -> None:
    """Verdict and measured-value changes from run A to run B (two commits, profiles, backends)."""
    if not 0 <= rtol < float("inf"):
        raise UserError(f"--rtol must be a finite number >= 0, got {rtol}")
    ra, rb = _results_of(a), _results_of(b)
    verdicts, values = diff(ra, rb, rtol=rtol)
    console.print(f"A = {a}\nB = {b}", highlight=False)
    table = Table("claim", "A", "B", title="verdict changes")
    for v in verdicts:
        table.add_row(v.claim, _verdict(v.before), _verdict(v.after))
    console.print(table if verdicts else "no verdict changes")
    if not verdicts_only:
        folded = [Column(h, overflow="fold") for h in ("claim", "check", "A", "B")]  # never cut a number
        table = Table(*folded, title=f"measured values changed (relative change > {rtol:g})")
        for v in values:
            table.add_row(v.claim, escape(v.check), value(v.before), value(v.after))
        console.print(table if values else "no measured value changed")
    compared = len(set(ra) | set(rb))
    console.print(
        f"{compared} claims compared: {len(verdicts)} verdict, {len(values)} measured-value changes"
    )


def _results_of(path: Path) -> dict[str, Record]:
    """Records of a results file, or of the results.json inside a directory."""
    if path.is_dir():
        path = path / results.RESULTS_FILE
    if not path.is_file():
        raise UserError(f"{path}: no such results file")
    return results.read(path)


@app.command()
def pursue(
    x_file: Annotated[Path, typer.Argument(help="inputs X (n, d): .npy or .csv")],
    y_file: Annotated[Path, typer.Argument(help="targets y (n,): .npy or .csv")],
    depth: Annotated[int, typer.Option(help="number of layers L >= 2")] = 3,
    alpha: Annotated[float, typer.Option(help="sigma(x) = max(x, alpha x)^p")] = 0.0,
    p: Annotated[int, typer.Option(help="activation exponent p >= 1")] = 1,
    restarts: Annotated[int, typer.Option(help="NCF restarts H")] = 10,
    ncf_iters: Annotated[int, typer.Option(help="projected gradient ascent steps")] = 2500,
    ncf_step: Annotated[float, typer.Option(help="projected gradient ascent step size")] = 0.2,
    lr: Annotated[float, typer.Option(help="gradient descent step size")] = 0.005,
    gd_steps: Annotated[int, typer.Option(help="gradient descent steps per iteration")] = 70_000,
    max_iter: Annotated[int, typer.Option(help="maximum NP iterations")] = 31,
    tol: Annotated[float, typer.Option(help="stop at relative training error below this")] = 1e-3,
    gd_steps_late: Annotated[
        int, typer.Option(help="GD steps per iteration once the mean loss < --late-loss (App. C.1.3; 0: off)")
    ] = 0,
    late_loss: Annotated[float, typer.Option(help="mean-loss threshold of --gd-steps-late")] = 0.05,
    lr_check: Annotated[
        int, typer.Option(help="halve lr on a loss increase, checked every N steps (App. C.2.2; 0: off)")
    ] = 0,
    lr_halvings: Annotated[int, typer.Option(help="most lr halvings per iteration")] = 4,
    rebalance: Annotated[
        bool, typer.Option(help="rebalance the neurons after every iteration (App. C.1.1, PVR)")
    ] = False,
    backend: Annotated[str, typer.Option(help="numpy | cupy | auto")] = "numpy",
    seed: Annotated[int, typer.Option(help="seed of the NCF restarts")] = 0,
    out: Annotated[Path, typer.Option("--out", help="output stem: <out>.npz weights, <out>.json log")] = Path(
        "pursuit"
    ),
) -> None:
    """Train a network greedily by Neuron Pursuit (kumar2025, Algorithm 1) on your (X, y)."""
    from verify import pursue as np_pursue

    result = np_pursue.run(
        x_file,
        y_file,
        out,
        backend,
        seed,
        console.print,
        depth=depth,
        alpha=alpha,
        p=p,
        restarts=restarts,
        ncf_iters=ncf_iters,
        ncf_step=ncf_step,
        lr=lr,
        gd_steps=gd_steps,
        max_iter=max_iter,
        tol=tol,
        gd_steps_late=gd_steps_late,
        late_loss=late_loss,
        lr_check=lr_check,
        lr_halvings=lr_halvings,
        rebalance=rebalance,
    )
    raise typer.Exit(0 if result.steps else 1)


def main() -> None:
    """Console entry point: one-line errors and exit status 2 on bad input."""
    keep_freed_memory()  # the engine's temporaries stay paged in (numeric/engine/allocator.py)
    try:
        status = app(standalone_mode=False)
    except UserError as e:
        print(f"verify: error: {e}", file=sys.stderr)
        sys.exit(2)
    except _USAGE_ERRORS as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # bare 'verify': show the help
            print(e.format_message())
            sys.exit(0)
        print(f"verify: error: {' '.join(e.format_message().split())}", file=sys.stderr)
        sys.exit(2)
    except _CLICK_ERRORS as e:
        print(f"verify: error: {' '.join(e.format_message().split())}", file=sys.stderr)
        sys.exit(e.exit_code)
    except _ABORTS:
        print("verify: interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as e:  # a bug in the tool itself (a claim's exceptions are ERROR verdicts)
        saved = _save_traceback()
        message = " ".join(f"{type(e).__name__}: {e}".split())
        print(
            f"verify: internal error (a bug in relu-verify): {message}; traceback: {saved}", file=sys.stderr
        )
        sys.exit(3)
    sys.exit(status if isinstance(status, int) else 0)


def _save_traceback() -> Path:
    """Write the current exception's traceback to a new file in the temporary directory; its path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    with tempfile.NamedTemporaryFile("w", prefix=f"verify-crash-{stamp}-", suffix=".txt", delete=False) as f:
        f.write(f"verify {shlex.join(sys.argv[1:])}\n\n{traceback.format_exc()}")
    return Path(f.name)


if __name__ == "__main__":  # python -m verify.cli (e.g. under cProfile), as the `verify` script
    main()
