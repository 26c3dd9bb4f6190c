"""``python -m benchmarks``: run the benchmarks, write JSON, Markdown and PNG plots.

Bad input (unknown benchmark, unreadable ``--render`` file) prints one line and exits
with status 2, like ``verify``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.config import PROFILES
from benchmarks.report import render
from benchmarks.runner import BENCHMARKS, UserError, load, outputs, run, write
from numeric.engine.allocator import keep_freed_memory
from verify.registry import all_claims

DEFAULT_OUT = Path("reports/benchmarks.json")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Benchmarks of the batched engine against solve_ivp and PyTorch loops, with the "
        "hardware floor measured in the same run.",
    )
    p.add_argument(
        "--quick",
        action="store_const",
        const="quick",
        dest="profile",
        help="the quick profile (a few minutes on a 2-core CPU)",
    )
    p.add_argument(
        "--profile",
        choices=sorted(PROFILES),
        default="full",
        help="sizes and repeats (default: full; --quick is --profile quick)",
    )
    p.add_argument(
        "--only",
        default=",".join(BENCHMARKS),
        help=f"comma-separated subset of {', '.join(BENCHMARKS)} (default: all)",
    )
    p.add_argument(
        "--no-torch", action="store_true", help="skip the PyTorch loops (reported as not measured)"
    )
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        metavar="N",
        help="cap NumPy's BLAS and PyTorch at N threads each (default: their own defaults); "
        "--threads 1 keeps a shared, oversubscribed machine from distorting the ratios",
    )
    p.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="JSON results; the Markdown report and plots go beside it "
        "(default: reports/benchmarks.json, reports/benchmarks.md, reports/benchmarks/)",
    )
    p.add_argument(
        "--claims",
        default=None,
        metavar="IDS",
        help="the workers benchmark's claims: comma-separated claim ids, or 'all' for every claim at the "
        "profile's claim profile (default: the profile's list; see benchmarks/config.py WorkersConfig)",
    )
    p.add_argument(
        "--sweep-seeds",
        type=int,
        default=None,
        metavar="S",
        help="the workers benchmark's sweep: S per-seed runs handed to ctx.map (default: the profile's; "
        "see benchmarks/config.py WorkersConfig)",
    )
    p.add_argument("--render", action="store_true", help="re-render the report from --out without running")
    p.set_defaults(profile="full")  # --quick shares the dest: without this its default (None) would win
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    args = parser.parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(only) - set(BENCHMARKS))
    if unknown or not only:
        parser.error(
            f"--only: unknown benchmark(s) {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(BENCHMARKS)}"
        )
    md, plot_dir = outputs(args.out)
    if args.render:
        try:
            doc = load(args.out)
        except (OSError, ValueError) as exc:
            print(f"error: cannot re-render: {exc}", file=sys.stderr)
            return 2
        render(doc, md, plot_dir)
        print(f"wrote {md}")
        return 0
    keep_freed_memory()  # the engine's temporaries stay paged in (numeric/engine/allocator.py)
    t0 = time.perf_counter()

    def log(msg: str) -> None:
        print(f"[{time.perf_counter() - t0:6.1f} s] {msg}", flush=True)

    command = "python -m benchmarks " + shlex.join(argv) if argv else "python -m benchmarks"
    if args.threads is not None and args.threads < 1:
        parser.error(f"--threads must be >= 1, got {args.threads}")
    profile = PROFILES[args.profile]
    if args.claims is not None:
        claims = (
            None if args.claims == "all" else tuple(c.strip() for c in args.claims.split(",") if c.strip())
        )
        if claims == ():
            parser.error("--claims: give claim ids or 'all'")
        unknown_claims = sorted(set(claims or ()) - set(all_claims()))
        if unknown_claims:
            parser.error(f"--claims: unknown claim(s) {', '.join(unknown_claims)}")
        profile = replace(profile, workers=replace(profile.workers, claims=claims))
    if args.sweep_seeds is not None:
        if args.sweep_seeds < 1:
            parser.error(f"--sweep-seeds must be >= 1, got {args.sweep_seeds}")
        profile = replace(profile, workers=replace(profile.workers, seeds=args.sweep_seeds))
    try:
        doc = run(profile, only, use_torch=not args.no_torch, threads=args.threads, command=command, log=log)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    md, plot_dir = write(doc, args.out)
    log(f"wrote {args.out}, {md} and plots in {plot_dir}/")
    for t in doc["targets"]:
        measured = "" if t["measured"] is None else f" ({t['measured']:.3g})"
        print(f"  {t['status']:>22}  {t['target']}{measured}")
    return 0
