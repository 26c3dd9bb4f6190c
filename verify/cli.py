"""The ``verify`` command: list, run, show and report claims.

Exit status: 0 when no claim is FAIL, XPASS or ERROR; 1 otherwise; 2 on bad input
(one line on stderr, never a traceback, and no stored result is lost).
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from threadpoolctl import threadpool_limits

from numeric.allocator import keep_freed_memory
from numeric.backend import BackendUnavailable, get_backend
from verify import distributed, results, scaffold
from verify.errors import UserError
from verify.params import PROFILE_NAMES, format_value, parse_assignments
from verify.plan import parameter_rows, plan_claims
from verify.profiles import DEFAULT_PROFILE, get_profile
from verify.registry import all_claims, select, use_claims
from verify.report.render import BADGE, render
from verify.runner import exit_status, run_claims

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
        int | None,
        typer.Option(help="cap the BLAS threads (steadier on a shared or loaded machine)"),
    ] = None,
    workers: Annotated[
        int | None, typer.Option(help="run the claims in N local worker processes (Dask; README)")
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option(help="run the claims on the Dask cluster at this scheduler address")
    ] = None,
    claim_sources: ClaimSources = None,
) -> None:
    """Run claims, write results.json and the reports, print a summary."""
    use_claims(claim_sources)
    if seed < 0:
        raise UserError(f"--seed must be >= 0, got {seed}")
    if threads is not None and threads < 1:
        raise UserError(f"--threads must be >= 1, got {threads}")
    runner = run_claims
    if workers is not None or scheduler is not None:
        distributed.check_options(workers, scheduler)
        runner = partial(distributed.run_claims, workers=workers, scheduler=scheduler, threads=threads)
    overrides = parse_assignments(set_ or [])
    prof = get_profile(profile)
    try:
        be = get_backend(backend)
    except (ValueError, BackendUnavailable) as e:
        raise UserError(str(e)) from None
    claims = select(selectors or [])
    plan_claims(claims, prof, overrides)  # every parameter checked before anything runs
    stored = results.load(out)
    order = list(all_claims())

    def keep(record: dict) -> None:
        stored[record["id"]] = record
        results.save(out, stored, order)

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
        transient=False,
    )
    with progress, threadpool_limits(threads) if threads else nullcontext():
        task = progress.add_task("verifying", total=len(claims))
        done = runner(
            claims,
            backend=be,
            profile=prof,
            seed=seed,
            overrides=overrides,
            on_start=lambda c: progress.update(task, description=f"{c.id:<32}"),
            on_done=lambda r: (keep(r), progress.advance(task)),
        )
    render(out, _in_order(stored, order), all_claims())
    _summary(done)
    console.print(f"results: {out / results.RESULTS_FILE}; reports: {out / 'index.md'}")
    raise typer.Exit(exit_status(done))


def _in_order(stored: dict[str, dict], order: list[str]) -> list[dict]:
    """Every stored record, registered claims first (in registry order), then the rest."""
    return [stored[i] for i in order if i in stored] + [r for i, r in stored.items() if i not in order]


def _summary(records: list[dict]) -> None:
    table = Table("claim", "verdict", "reason", "s")
    for r in records:
        table.add_row(r["id"], _verdict(r["verdict"]), r["reason"], f"{r['provenance']['runtime_s']:.1f}")
    console.print(table)


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
    console.print(f"[bold]{c.id}[/]: {c.title}\nsource: {c.source}\n\n{c.statement}\n")
    console.print("hypotheses:\n" + "\n".join(f"  - {h}" for h in c.hypotheses))
    if c.erratum:
        console.print(f"\nknown erratum: {c.erratum.reason}")
    record = results.load(out).get(claim_id)
    if record is None:
        console.print(f"\nno stored result in {out}; run: verify run {claim_id}")
        return
    console.print(f"\nverdict: {_verdict(record['verdict'])} ({record['reason']})")
    table = Table("check", "control", "measured", "expected", "tol", "outcome")
    for ch in record["checks"]:
        table.add_row(
            ch["name"],
            ch["control"].split(" [")[0],
            str(ch["measured"])[:40],
            str(ch["expected"])[:30],
            str(ch["tolerance"])[:12],
            ch["verdict"],
        )
    console.print(table)


@app.command()
def report(out: OutDir = DEFAULT_OUT, claim_sources: ClaimSources = None) -> None:
    """Re-render the reports from the stored results.json (runs nothing)."""
    use_claims(claim_sources)
    stored = results.load(out)
    if not stored:
        raise UserError(f"no results in {out}; run 'verify run' first")
    written = render(out, _in_order(stored, list(all_claims())), all_claims())
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
    keep_freed_memory()  # the engine's temporaries stay paged in (numeric/allocator.py)
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
    sys.exit(status if isinstance(status, int) else 0)
