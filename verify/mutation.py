r"""Mutation testing of the verdicts: inject single-edit faults, run the claims, see what changes.

A verdict is only worth something if a wrong formula would have changed it. This
harness takes a project module (a paper's formulas, a numeric kernel, a symbolic
derivation, the framework), applies one small fault at a time to its source, and runs
every claim that imports the module (``verify.sources.closure``) in a fresh interpreter
whose import system loads the mutated source instead of the file. Each mutant is

* **killed**    -- some claim's verdict changed (or it crashed: a fault caught loudly);
* **survived**  -- some number a check compared (measured, expected or bound, tolerance, the
  relation's intervals) changed but every verdict stayed: the checks sit behind enough slack
  to absorb the fault. These are the findings;
* **silent**    -- nothing any claim recorded changed: the mutated code is not exercised at
  this profile, or the mutant is equivalent. Not counted in the score.

Score = killed / (killed + survived). Operators (one edit each, on arithmetic only):
``+ <-> -``, ``* <-> /``, a power ``x**k -> x**(k+1)``, a numeric constant ``c -> 2c``,
a unary minus dropped, and a binary term dropped (``a + b -> a``). Mutants are sampled
with a fixed seed, so a run is reproducible::

    python -m verify.mutation                      # DEFAULT_TARGETS, 8 mutants each, tiny
    python -m verify.mutation numeric/data/weakly_correlated.py --per-file 20 --profile quick
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.abc
import importlib.util
import json
import os
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verify.records import Record

ROOT = Path(__file__).resolve().parent.parent

# The default targets: formulas the claims compare against (paper packages), numeric kernels,
# symbolic derivations and the framework's decision code, one or two files per layer and paper.
DEFAULT_TARGETS = (
    "verify/verdict.py",
    "verify/evidence.py",
    "numeric/measures/statistics.py",
    "numeric/models/networks.py",
    "numeric/data/weakly_correlated.py",
    "numeric/data/near_orthogonal.py",
    "numeric/models/balanced_relu.py",
    "symbolic/closed_forms.py",
    "verify/papers/dana2025/common.py",
    "verify/papers/kou2023/sequences.py",
    "verify/papers/kumar2025/saddle.py",
    "verify/papers/min2024/common.py",
    "verify/papers/zhang2025/identities.py",
)
SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    """One fault: the ``index``-th mutation site of kind ``op`` in ``path`` (at ``line``)."""

    path: str
    index: int
    op: str
    line: int
    before: str
    after: str


def _sites(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    """Every (node, operator) pair this harness can mutate, in source order."""
    out: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            if type(node.op) in SWAP:
                out.append((node, "swap"))
            if isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant):
                out.append((node, "power"))
            if isinstance(node.op, ast.Add | ast.Sub):
                out.append((node, "drop-term"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            out.append((node, "drop-minus"))
        elif (
            isinstance(node, ast.Constant)
            and type(node.value) in (int, float)
            and node.value not in (0, 1, -1)
            and not isinstance(node.value, bool)
        ):
            out.append((node, "double"))
    return sorted(out, key=lambda s: (s[0].lineno, s[0].col_offset, s[1]))


def _excluded(tree: ast.AST) -> set[int]:
    """ids of nodes that are not formulas: annotations, f-strings, subscripts, profile sizes."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and getattr(node, "annotation", None) is not None:
            skip.update(id(n) for n in ast.walk(node.annotation))
        if isinstance(node, ast.JoinedStr | ast.Subscript):  # f-strings; indices and slices
            target = node if isinstance(node, ast.JoinedStr) else node.slice
            skip.update(id(n) for n in ast.walk(target))
        if isinstance(node, ast.arguments):  # default values of parameters
            skip.update(id(n) for d in (*node.defaults, *node.kw_defaults) if d for n in ast.walk(d))
        if isinstance(node, ast.keyword):  # axis=, size=, atol=...: configuration, not formulas
            skip.update(id(n) for n in ast.walk(node.value))
        if isinstance(node, ast.Call):  # sizes chosen per profile are parameters, not formulas
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in ("param", "rng", "note", "require"):
                skip.update(id(n) for n in ast.walk(node))
    return skip


def _mutable(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    skip = _excluded(tree)
    return [s for s in _sites(tree) if id(s[0]) not in skip]


def enumerate_mutants(path: Path) -> list[Mutant]:
    tree = ast.parse(path.read_text())
    rel = str(path.resolve().relative_to(ROOT))
    return [
        Mutant(rel, i, op, node.lineno, ast.unparse(node), ast.unparse(_mutate_node(copy.deepcopy(node), op)))
        for i, (node, op) in enumerate(_mutable(tree))
    ]


def _mutate_node(node: Any, op: str) -> ast.AST:
    """The mutated replacement of ``node`` (may be ``node`` itself, edited)."""
    if op == "swap":
        node.op = SWAP[type(node.op)]()
    elif op == "power":
        node.right = ast.Constant(node.right.value + 1)
    elif op == "drop-term":
        return node.left
    elif op == "drop-minus":
        return node.operand
    elif op == "double":
        node.value = node.value * 2
    return node


class _Replace(ast.NodeTransformer):
    """Replaces exactly one node object (by identity) by its mutant."""

    def __init__(self, target: ast.AST, op: str):
        self.target, self.op = target, op

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return _mutate_node(node, self.op)
        return self.generic_visit(node)


def mutated_source(path: Path, index: int) -> str:
    """The source of ``path`` with its ``index``-th mutation applied."""
    tree = ast.parse(path.read_text())
    node, op = _mutable(tree)[index]
    return ast.unparse(ast.fix_missing_locations(_Replace(node, op).visit(tree)))


# -- running one mutant in a fresh interpreter ------------------------------------------------


class _MutantFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Loads module ``name`` from mutated source instead of its file."""

    def __init__(self, name: str, source: str, origin: str):
        self.name, self.source, self.origin = name, source, origin

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        is_pkg = self.origin.endswith("__init__.py")
        spec = importlib.util.spec_from_loader(fullname, self, origin=self.origin, is_package=is_pkg)
        if is_pkg:
            spec.submodule_search_locations = [str(Path(self.origin).parent)]
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__file__ = self.origin
        exec(compile(self.source, self.origin, "exec"), module.__dict__)


def module_name(path: Path) -> str:
    rel = path.resolve().relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _worker(spec: dict) -> dict:
    """Run ``spec['claims']`` (with the mutant installed when given); records by claim id."""
    if spec.get("path"):
        path = ROOT / spec["path"]
        sys.meta_path.insert(
            0, _MutantFinder(module_name(path), mutated_source(path, spec["index"]), str(path))
        )
    from numeric.backend import get_backend
    from verify.profiles import get_profile
    from verify.registry import all_claims
    from verify.runner import run_claim

    claims = all_claims()
    out = {}
    for cid in spec["claims"]:
        try:
            r = run_claim(
                claims[cid], backend=get_backend("numpy"), profile=get_profile(spec["profile"]), seed=0
            )
            out[cid] = {"verdict": str(r.verdict), "numbers": _numbers(r)}
        except Exception as e:  # a mutant that breaks the import or the runner is caught loudly
            out[cid] = {"verdict": f"CRASH {type(e).__name__}", "numbers": []}
    return out


def _numbers(record: Record) -> list:
    """What a check compared: measured value, expected value or bound, tolerance, and the relation
    (which carries intervals and counts). A fault in a paper's bound moves ``expected``."""
    return [
        [c.name, c.control, *map(repr, (c.measured, c.expected, c.tolerance, c.relation))]
        for c in record.checks
    ]


def _run_worker(spec: dict, timeout: float) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "verify.mutation", "--worker", json.dumps(spec)],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {cid: {"verdict": "TIMEOUT", "numbers": []} for cid in spec["claims"]}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {cid: {"verdict": f"CRASH {last[:80]}", "numbers": []} for cid in spec["claims"]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def affected_claims(path: Path, limit: int, seed: int) -> list[str]:
    """Claims whose code reaches the module (:func:`verify.sources.closure` without parent packages);
    at most ``limit`` of them, a fixed random sample (framework modules reach every claim)."""
    from verify.registry import all_claims
    from verify.sources import closure

    name = module_name(path)
    hit = [cid for cid, c in all_claims().items() if name in closure(c.body.__module__, parents=False)]
    return sorted(random.Random(f"{seed}/{name}").sample(hit, min(limit, len(hit))), key=hit.index)


def classify(base: dict, mutant: dict) -> str:
    if any(base[c]["verdict"] != mutant[c]["verdict"] for c in base):
        return "killed"
    if any(base[c]["numbers"] != mutant[c]["numbers"] for c in base):
        return "survived"
    return "silent"


def run(
    paths: list[Path], per_file: int, profile: str, out: Path, seed: int, timeout: float, max_claims: int
) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for path in paths:
        claims = affected_claims(path, max_claims, seed)
        if not claims:
            print(f"{path}: no claim imports it, skipped", file=sys.stderr)
            continue
        mutants = enumerate_mutants(path)
        chosen = sorted(
            random.Random(f"{seed}/{path}").sample(mutants, min(per_file, len(mutants))),
            key=lambda m: m.index,
        )
        base = _run_worker({"claims": claims, "profile": profile}, timeout)
        for m in chosen:
            t0 = time.perf_counter()
            res = _run_worker(
                {"claims": claims, "profile": profile, "path": m.path, "index": m.index}, timeout
            )
            status = classify(base, res)
            changed = [c for c in claims if base[c]["verdict"] != res[c]["verdict"]]
            rows.append(
                {
                    **asdict(m),
                    "status": status,
                    "claims": len(claims),
                    "verdict_changes": {c: f"{base[c]['verdict']} -> {res[c]['verdict']}" for c in changed},
                    "seconds": round(time.perf_counter() - t0, 1),
                }
            )
            print(f"{m.path}:{m.line} {m.op:10s} {m.before!r:.40} -> {status}", file=sys.stderr)
    killed = sum(r["status"] == "killed" for r in rows)
    survived = sum(r["status"] == "survived" for r in rows)
    summary = {
        "profile": profile,
        "seed": seed,
        "per_file": per_file,
        "max_claims": max_claims,
        "files": [str(p.relative_to(ROOT)) for p in paths],
        "killed": killed,
        "survived": survived,
        "silent": sum(r["status"] == "silent" for r in rows),
        "score": killed / (killed + survived) if killed + survived else None,
        "mutants": rows,
    }
    (out / "mutation.json").write_text(json.dumps(summary, indent=1))
    (out / "mutation.md").write_text(_markdown(summary))
    return summary


def _markdown(s: dict) -> str:
    score = "n/a" if s["score"] is None else f"{s['score']:.1%}"
    lines = [
        "# Mutation score of the verdicts",
        "",
        f"Profile `{s['profile']}`, seed {s['seed']}, up to {s['per_file']} mutants per file. "
        f"**{s['killed']} killed, {s['survived']} survived, {s['silent']} silent** "
        f"(not exercised or equivalent). Score killed / (killed + survived) = **{score}**.",
        "",
        "Reproduce: `python -m verify.mutation " + " ".join(s["files"]) + f" --per-file {s['per_file']} "
        f"--max-claims {s['max_claims']} --profile {s['profile']} --seed {s['seed']}`",
        "",
        "| file:line | operator | before -> after | status | verdict changes |",
        "|---|---|---|---|---|",
    ]
    for r in s["mutants"]:
        ch = "; ".join(f"{c}: {v}" for c, v in r["verdict_changes"].items())[:160]
        lines.append(
            f"| {r['path']}:{r['line']} | {r['op']} | `{r['before'][:50]}` -> `{r['after'][:50]}` "
            f"| {r['status']} | {ch} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m verify.mutation", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "files", nargs="*", type=Path, help="project source files to mutate (default: DEFAULT_TARGETS)"
    )
    ap.add_argument("--per-file", type=int, default=8, help="mutants sampled per file")
    ap.add_argument("--profile", default="tiny")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=600, help="seconds per mutant run")
    ap.add_argument("--max-claims", type=int, default=12, help="claims re-run per mutant (fixed sample)")
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "mutation")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        print(json.dumps(_worker(json.loads(a.worker))))
        return 0
    files = a.files or [ROOT / f for f in DEFAULT_TARGETS]
    missing = [str(f) for f in files if not f.is_file()]
    if missing or a.per_file < 1:
        print(f"verify.mutation: error: give existing source files (missing: {missing})", file=sys.stderr)
        return 2
    s = run([f.resolve() for f in files], a.per_file, a.profile, a.out, a.seed, a.timeout, a.max_claims)
    print(f"score {s['score']}: {s['killed']} killed, {s['survived']} survived, {s['silent']} silent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
