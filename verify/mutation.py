r"""Mutation testing of the verdicts: inject single-edit faults, run the claims, see what changes.

A verdict is only worth something if a wrong formula would have changed it. This
harness takes a project module (a paper's formulas, a numeric kernel, a symbolic
derivation, the framework), applies one small fault at a time to its source, and re-runs,
in a fresh interpreter whose import system loads the mutated source instead of the file,
the claims that *cover* the mutated line: those whose traced run executes it
(:mod:`verify.mutation_coverage`; at most ``--max-claims``, cheapest first, the rest listed
as skipped). Traces and outcomes are cached under the claims' source hashes, so a re-run
after a targeted change re-runs only what that change can affect. Each mutant is

* **killed**      -- some claim's verdict changed (or it crashed: a fault caught loudly);
* **survived**    -- some number a check compared (measured, expected or bound, tolerance, the
  relation's intervals) changed but every verdict stayed: the checks sit behind enough slack
  to absorb the fault (issue 14: a survivor);
* **unexercised** -- the covering claims ran but the mutated expression was never evaluated (a
  probe wrapped around it never fired): nothing tested it, so it is a gap, not an equivalence;
* **uncovered**   -- no claim executes the mutated line at all: a real gap, nothing is run;
* **equivalent**  -- the mutated expression was evaluated, yet no verdict and no number any
  check compared changed: on everything the claims compute the mutant behaves as the original
  (e.g. a doubled constant in a message, ``x**2 -> x**3`` on 0/1 values);
* **timeout**     -- the claims did not finish within 60 s + 10x their traced time (at most
  ``--timeout``): not caught by a verdict;
* **instance-equivalent** -- a survivor whose site is declared an instance or experiment parameter
  (:data:`verify.mutation_notes.INSTANCE`: which parameter, why every statement is invariant to it)
  and whose run shows the changed instance still admissible: every covering claim re-run, every
  measured regime reached, every control still breaking its conclusions (:func:`decide`).

Score = killed / (killed + survived + instance-equivalent + unexercised + uncovered + timeout): the
caught share of the non-equivalent mutants, where only a mutant shown to have no effect on what was
evaluated counts as equivalent; the report also gives killed / (the same minus instance-equivalent).
Operators (one edit each, on arithmetic only):
``+ <-> -``, ``* <-> /``, a power ``x**k -> x**(k+1)``, a numeric constant ``c -> 2c``,
a unary minus dropped, and a binary term dropped (``a + b -> a``). A file's mutants are its
``--per-file`` sites of smallest key, a stable hash of the seed and the site's identity
(:attr:`Mutant.site`, no line number: :func:`sample`), so a run is reproducible and an edit
elsewhere in a file leaves its drawn sites drawn::

    python -m verify.mutation                      # DEFAULT_TARGETS, 7 mutants each, tiny
    python -m verify.mutation numeric/data/weakly_correlated.py --per-file 20 --profile quick
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import importlib.abc
import importlib.util
import io
import json
import os
import subprocess
import sys
import time
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from verify import mutation_coverage, mutation_notes

if TYPE_CHECKING:
    from verify.records import Record

ROOT = Path(__file__).resolve().parent.parent

# The default targets: the modules that hold the paper formulas and bounds the claims compare
# against (each paper's formula/constant modules and the symbolic derivations) and the numeric
# kernels every claim runs on (activation, losses, networks).
DEFAULT_TARGETS = (
    "verify/papers/dana2025/model.py",
    "verify/papers/dana2025/common.py",
    "verify/papers/kou2023/sequences.py",
    "verify/papers/kou2023/decomposition.py",
    "verify/papers/kumar2025/ncf.py",
    "verify/papers/kumar2025/saddle.py",
    "verify/papers/min2024/common.py",
    "verify/papers/min2024/geometry.py",
    "verify/papers/min2024/losses.py",
    "verify/papers/zhang2025/identities.py",
    "verify/papers/zhang2025/equivalence.py",
    "symbolic/closed_forms.py",
    "symbolic/activations.py",
    "symbolic/sequence_lemmas.py",
    "symbolic/cosine_flow.py",
    "numeric/models/activation.py",
    "numeric/models/losses.py",
    "numeric/models/networks.py",
)
STATUSES = ("killed", "survived", "instance-equivalent", "unexercised", "uncovered", "timeout", "equivalent")
SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


@dataclass(frozen=True)
class Mutant:
    """One fault: the ``index``-th mutation site of kind ``op`` in ``path`` (lines ``line`` to
    ``end_line``); ``at_import`` when the site is evaluated on import (outside any function).

    ``scope`` (the dotted names of the enclosing classes and functions, empty at module level),
    ``text`` (the mutated lines, whitespace normalised) and ``occurrence`` (how many earlier sites
    of the file share scope, text, operator, before and after) make up :attr:`site`, the site's
    identity without a line number: it survives edits elsewhere in the file and moved lines."""

    path: str
    index: int
    op: str
    line: int
    end_line: int
    at_import: bool
    before: str
    after: str
    scope: str
    text: str
    occurrence: int

    @property
    def site(self) -> tuple[str, str, str, str, str, str, int]:
        """``(path, scope, text, op, before, after, occurrence)``: what the sample hash and the
        instance declarations (:data:`verify.mutation_notes.INSTANCE`) key a site by."""
        return (self.path, self.scope, self.text, self.op, self.before, self.after, self.occurrence)


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


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


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
        if isinstance(node, ast.BinOp) and any(_is_text(side) for side in (node.left, node.right)):
            skip.add(id(node))  # "label" + f"..." joins text (check names), not a formula
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


def _in_functions(tree: ast.AST) -> set[int]:
    """ids of the nodes inside a function or lambda body (evaluated when called, not on import)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            body = node.body if isinstance(node.body, list) else [node.body]
            inside.update(id(n) for b in body for n in ast.walk(b))
    return inside


def _scopes(tree: ast.AST) -> dict[int, str]:
    """id of every node -> the dotted names of the classes and functions enclosing it ("" at module
    level)."""
    out: dict[int, str] = {}

    def visit(node: ast.AST, scope: str) -> None:
        out[id(node)] = scope
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope = f"{scope}.{node.name}" if scope else node.name
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(tree, "")
    return out


def _code_lines(source: str) -> list[str]:
    """The lines of ``source`` without their comments (a comment edit leaves a site's identity)."""
    lines = source.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    return lines


def enumerate_mutants(path: Path) -> list[Mutant]:
    source = path.read_text()
    tree = ast.parse(source)
    lines = _code_lines(source)
    rel = str(path.resolve().relative_to(ROOT))
    inside, scopes = _in_functions(tree), _scopes(tree)
    seen: dict[tuple, int] = {}
    out = []
    for i, (node, op) in enumerate(_mutable(tree)):
        end = node.end_lineno or node.lineno
        before, after = ast.unparse(node), ast.unparse(_mutate_node(copy.deepcopy(node), op))
        text = " ".join(" ".join(lines[node.lineno - 1 : end]).split())
        same = (scopes[id(node)], text, op, before, after)
        seen[same] = seen.get(same, -1) + 1
        out.append(
            Mutant(rel, i, op, node.lineno, end, id(node) not in inside, before, after, *same[:2], seen[same])
        )
    return out


def sample(mutants: list[Mutant], per_file: int, seed: int) -> list[Mutant]:
    """The ``per_file`` mutants with the smallest keys blake2b(seed, :attr:`Mutant.site`) (bottom-k
    hashing), in source order. A site's key depends on the site alone, so a drawn site stays drawn
    when the rest of its file changes, unless a new site's key is smaller (then it displaces the
    drawn site of largest key): edits elsewhere no longer redraw a file's whole sample."""

    def key(m: Mutant) -> bytes:
        return hashlib.blake2b(json.dumps([seed, *m.site]).encode(), digest_size=16).digest()

    return sorted(sorted(mutants, key=key)[:per_file], key=lambda m: m.index)


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


PROBE = "__mutant_hit__"


class _Replace(ast.NodeTransformer):
    """Replaces exactly one node object (by identity) by its mutant, wrapped in ``PROBE(...)``
    when ``probe`` (an identity call that records that the mutated expression was evaluated)."""

    def __init__(self, target: ast.AST, op: str, probe: bool = False):
        self.target, self.op, self.probe = target, op, probe

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            new = _mutate_node(node, self.op)
            return ast.Call(ast.Name(PROBE, ast.Load()), [new], []) if self.probe else new
        return self.generic_visit(node)


def mutated_source(path: Path, index: int, probe: bool = False) -> str:
    """The source of ``path`` with its ``index``-th mutation applied (and probed, see :class:`_Replace`)."""
    tree = ast.parse(path.read_text())
    node, op = _mutable(tree)[index]
    return ast.unparse(ast.fix_missing_locations(_Replace(node, op, probe).visit(tree)))


# -- running one mutant in a fresh interpreter ------------------------------------------------


class _MutantFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Loads module ``name`` from mutated source instead of its file."""

    def __init__(self, name: str, source: str, origin: str):
        self.name, self.source, self.origin = name, source, origin
        self.hit = False  # set by the probe when the mutated expression is evaluated

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
        module.__dict__[PROBE] = self._probe
        exec(compile(self.source, self.origin, "exec"), module.__dict__)

    def _probe(self, value: Any) -> Any:
        self.hit = True
        return value


def module_name(path: Path) -> str:
    rel = path.resolve().relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _worker(spec: dict) -> dict:
    """Run ``spec['claims']`` (with the probed mutant installed when given); records by claim id and,
    for a mutant, ``hit`` (was the mutated expression evaluated). With ``spec['base']`` (verdicts by
    claim) the run stops at the first changed verdict: the mutant is killed, the rest need not run.
    With ``spec['trace']`` (files) it answers the claims' line coverage (:mod:`.mutation_coverage`)."""
    if spec.get("trace"):
        return {"trace": mutation_coverage.trace(spec["claims"], spec["trace"], spec["profile"], ROOT)}
    finder = None
    if spec.get("path"):
        path = ROOT / spec["path"]
        finder = _MutantFinder(module_name(path), mutated_source(path, spec["index"], probe=True), str(path))
        sys.meta_path.insert(0, finder)
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
            out[cid] = {
                "verdict": str(r.verdict),
                "numbers": _numbers(r),
                "regimes": [[h.name, h.reached] for h in r.hypotheses],
                "controls": [[c.label, c.ok] for c in r.controls],
            }
        except Exception as e:  # a mutant that breaks the import or the runner is caught loudly
            out[cid] = {"verdict": f"CRASH {type(e).__name__}", "numbers": [], "regimes": [], "controls": []}
        if spec.get("base", {}).get(cid, out[cid]["verdict"]) != out[cid]["verdict"]:
            break
    return {"claims": out, "hit": None if finder is None else finder.hit}


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
        return {"claims": {}, "hit": None, "timeout": True}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"claims": {cid: {"verdict": f"CRASH {last[:80]}", "numbers": []} for cid in spec["claims"]}}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def reaching_claims(path: Path) -> list[str]:
    """Claims whose code imports the module (:func:`verify.sources.closure` without parent packages)."""
    from verify.registry import all_claims
    from verify.sources import closure

    name = module_name(path)
    return [cid for cid, c in all_claims().items() if name in closure(c.body.__module__, parents=False)]


TRACE_CHUNK = 12  # claims per traced worker: a crash or timeout loses one chunk's coverage only


def line_coverage(claim_ids: list[str], files: list[str], profile: str, cache: Path, timeout: float) -> dict:
    """Cached line coverage (:mod:`.mutation_coverage`) of ``claim_ids`` on ``files``; traces the
    claims whose cached entry is missing or stale, ``TRACE_CHUNK`` to a fresh interpreter."""
    from verify.registry import all_claims

    claims = all_claims()
    entries = mutation_coverage.load(cache, f"coverage-{profile}")
    hashes = {c: claims[c].source_hash for c in claim_ids}
    stale = [c for c in claim_ids if not mutation_coverage.fresh(entries.get(c), hashes[c], files)]
    for i in range(0, len(stale), TRACE_CHUNK):
        chunk = stale[i : i + TRACE_CHUNK]
        traced = _run_worker({"trace": files, "claims": chunk, "profile": profile}, timeout * len(chunk))
        for cid, e in traced.get("trace", {}).items():
            entries[cid] = {
                **e,
                "source_hash": hashes[cid],
                "files": files,
                "version": mutation_coverage.TRACE_VERSION,
            }
        mutation_coverage.save(cache, f"coverage-{profile}", entries)
        print(f"coverage: traced {min(i + TRACE_CHUNK, len(stale))}/{len(stale)} claims", file=sys.stderr)
    return entries


def classify(base: dict, mutant: dict) -> str:
    """``base``: records by claim of the unmutated run; ``mutant``: a worker's answer (records of the
    claims it ran, ``hit``, ``timeout``). See the module docstring for the outcomes."""
    runs = mutant["claims"]
    if not runs and not mutant.get("timeout"):
        return "uncovered"
    if any(base[c]["verdict"] != r["verdict"] for c, r in runs.items()):
        return "killed"
    if mutant.get("timeout"):
        return "timeout"
    if any(base[c]["numbers"] != r["numbers"] for c, r in runs.items()):
        return "survived"
    return "equivalent" if mutant.get("hit") else "unexercised"


def invariance_failures(base: dict, mutant: dict, claims: list[str], skipped: list[str]) -> list[str]:
    """Why the mutant's runs do not show its instance still inside every hypothesis (empty: they do).

    The audit behind *instance-equivalent* (:func:`decide`): every covering claim was re-run (none over
    the cap) with its verdict unchanged, every hypothesis whose regime either run measured is reached in
    the mutant's run, every control of the unmutated run is there and still breaks its ``must_break``
    conclusions (``Control.ok``), and at least one covering claim records a regime or a control, so
    that something was audited at all."""
    out = [f"covering claims over the cap, not re-run: {', '.join(skipped)}"] if skipped else []
    audited = False
    for c in claims:
        r = mutant["claims"].get(c)
        if r is None or r["verdict"] != base[c]["verdict"]:
            out.append(f"{c}: {'not run' if r is None else 'verdict changed'}")
            continue
        before, after = dict(base[c]["regimes"]), dict(r["regimes"])
        for h in sorted({h for h, v in [*before.items(), *after.items()] if v is not None}):
            if after.get(h) is not True:
                out.append(f"{c}: regime of {h} {'not recorded' if h not in after else 'not reached'}")
        ok = dict(r["controls"])
        out += [f"{c}: control '{k}' did not run" for k, _ in base[c]["controls"] if k not in ok]
        out += [f"{c}: control '{k}' no longer breaks its conclusions" for k, v in ok.items() if not v]
        audited = audited or bool(ok) or any(v is not None for v in after.values())
    if not audited:
        out.append("no covering claim records a regime or a control: nothing shows the instance admissible")
    return out


def decide(row: dict) -> tuple[str, list[str]]:
    """The status of outcome ``row`` (a row of :func:`run`) and, for a site declared an instance
    parameter (:data:`verify.mutation_notes.INSTANCE`) that stays a survivor, why it does.

    A survivor becomes *instance-equivalent* only when its site is declared, its invariance audit
    (:func:`invariance_failures`) found nothing and no survivor note calls it anything but an instance
    parameter (kind B: a rounding allowance or a paper constant is never reclassified). Every other
    outcome keeps its status."""
    declared = mutation_notes.INSTANCE.get(tuple(row["site"]))
    if row["status"] != "survived" or declared is None:
        return row["status"], []
    why_not = list(row["invariance"])
    note = mutation_notes.explain(row)
    if note is not None and note.kind != "B":
        why_not.append(f"its survivor note is of kind {note.kind}, not an instance parameter (B)")
    return ("survived", why_not) if why_not else ("instance-equivalent", [])


OUTCOME_VERSION = 2  # bump when what decides an outcome (classify, the worker) changes; 2: invariance


def outcome_key(m: Mutant, covering: list[str], profile: str, max_claims: int) -> str:
    """What decides a mutant's outcome: the mutant, the source of its file, the profile, the cap, and
    the covering claims with their :attr:`~verify.claim.Claim.source_hash` (all the code they run,
    the mutated module included). A cached outcome with the same key is reused."""
    from verify.registry import all_claims

    claims = all_claims()
    parts = [OUTCOME_VERSION, asdict(m), (ROOT / m.path).read_text(), profile, max_claims]
    parts.append([(c, claims[c].source_hash) for c in covering])
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


# A mutant's run may take SLOWDOWN x its claims' traced seconds plus STARTUP_S for the interpreter
# and imports (at most --timeout); a mutant that slows its claims more than that is a timeout.
STARTUP_S, SLOWDOWN = 60.0, 10.0


def _outcome(
    m: Mutant,
    covering: list[str],
    max_claims: int,
    base: dict,
    verdicts: dict,
    profile: str,
    timeout: float,
    seconds: dict[str, float],
) -> dict:
    """Run mutant ``m`` on its covering claims (at most ``max_claims``, cheapest first) and classify it;
    ``seconds``: each claim's traced run time."""
    t0 = time.perf_counter()
    claims, skipped = covering[:max_claims], covering[max_claims:]
    res: dict = {"claims": {}, "hit": None}
    if claims:
        spec = {"claims": claims, "profile": profile, "path": m.path, "index": m.index, "base": verdicts}
        res = _run_worker(spec, min(timeout, STARTUP_S + SLOWDOWN * sum(seconds[c] for c in claims)))
    changed = [c for c, r in res["claims"].items() if base[c]["verdict"] != r["verdict"]]
    status = classify(base, res)
    return {
        "status": status,
        # the instance audit of a survivor (see invariance_failures); None for every other outcome
        "invariance": invariance_failures(base, res, claims, skipped) if status == "survived" else None,
        # what that audit read per claim: [regimes reached, controls that broke their conclusions]
        "audited": {
            c: [sum(v is True for _, v in r["regimes"]), sum(bool(v) for _, v in r["controls"])]
            for c, r in res["claims"].items()
        },
        "claims": claims,  # covering claims re-run, cheapest first
        "skipped": skipped,  # covering claims over the max_claims cap, not re-run
        "verdict_changes": {c: f"{base[c]['verdict']} -> {res['claims'][c]['verdict']}" for c in changed},
        # claims whose compared numbers changed (a survivor's witnesses)
        "numbers_moved": [c for c, r in res["claims"].items() if base[c]["numbers"] != r["numbers"]],
        "seconds": round(time.perf_counter() - t0, 1),
    }


def run(
    paths: list[Path],
    per_file: int,
    profile: str,
    out: Path,
    seed: int,
    timeout: float,
    max_claims: int,
    cache: Path = mutation_coverage.DEFAULT_CACHE,
) -> dict:
    """Mutate each of ``paths`` (``per_file`` sampled mutants) and re-run, per mutant, the (at most
    ``max_claims``, cheapest first) claims whose traced run executes the mutated line."""
    out.mkdir(parents=True, exist_ok=True)
    rels = [str(p.relative_to(ROOT)) for p in paths]
    reaching = {p: reaching_claims(p) for p in paths}
    everyone = sorted({c for cs in reaching.values() for c in cs})
    traced_files = sorted(set(rels) | set(DEFAULT_TARGETS))
    entries = line_coverage(everyone, traced_files, profile, cache, timeout)
    untraced = [c for c in everyone if c not in entries]
    outcomes = mutation_coverage.load(cache, f"outcomes-{profile}")
    rows = []
    sites = set()  # of every file: a declared instance site that is none of them is stale
    for path in paths:
        mutants = enumerate_mutants(path)
        sites |= {m.site for m in mutants}
        if not reaching[path]:
            print(f"{path}: no claim imports it, skipped", file=sys.stderr)
            continue
        chosen = sample(mutants, per_file, seed)
        plan = {
            m: mutation_coverage.covering(
                entries, m.path, range(m.line, m.end_line + 1), m.at_import, reaching[path]
            )
            for m in chosen
        }
        keys = {m: outcome_key(m, plan[m], profile, max_claims) for m in chosen}
        todo = [m for m in chosen if keys[m] not in outcomes]
        seconds = {c: entries.get(c, {}).get("seconds", float("inf")) for c in everyone}
        union = sorted({c for m in todo for c in plan[m][:max_claims]}, key=lambda c: (seconds[c], c))
        base = _run_worker({"claims": union, "profile": profile}, timeout * 4)["claims"] if union else {}
        verdicts = {c: r["verdict"] for c, r in base.items()}
        for m in chosen:
            if m in todo:
                run_one = (max_claims, base, verdicts, profile, timeout, seconds)
                outcomes[keys[m]] = _outcome(m, plan[m], *run_one)
                mutation_coverage.save(cache, f"outcomes-{profile}", outcomes)
            rows.append({**asdict(m), "site": m.site, **outcomes[keys[m]], "reaching": len(reaching[path])})
            rows[-1]["status"], rows[-1]["not_instance"] = decide(rows[-1])
            cached = "" if m in todo else " (cached)"
            print(
                f"{m.path}:{m.line} {m.op:10s} {m.before!r:.40} -> {rows[-1]['status']}{cached}",
                file=sys.stderr,
            )
    counts = {k: sum(r["status"] == k for r in rows) for k in STATUSES}
    caught, non_equivalent = counts["killed"], len(rows) - counts["equivalent"]
    admissible = non_equivalent - counts["instance-equivalent"]
    summary = {
        "commit": _commit(),
        "profile": profile,
        "seed": seed,
        "per_file": per_file,
        "max_claims": max_claims,
        "files": rels,
        "untraced": untraced,
        **counts,
        "score": caught / non_equivalent if non_equivalent else None,
        # the same without the instance-equivalent survivors (mutation_notes.INSTANCE, audited)
        "score_instance": caught / admissible if admissible else None,
        # declared instance sites of these files that are no site of their code (any more)
        "stale_instance": sorted(k for k in mutation_notes.INSTANCE if k[0] in rels and k not in sites),
        "mutants": rows,
    }
    (out / "mutation.json").write_text(json.dumps(summary, indent=1))
    (out / "mutation.md").write_text(_markdown(summary))
    return summary


def _commit() -> str:
    """The measured tree's commit, with ``+dirty`` when tracked files differ from it."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    )
    return (head or "unknown") + ("+dirty" if dirty.stdout.strip() else "")


def _command(s: dict) -> str:
    """The one command that reproduces summary ``s`` (the bare command when it used the defaults)."""
    defaults = (list(DEFAULT_TARGETS), DEFAULT_PER_FILE, DEFAULT_MAX_CLAIMS, "tiny", 0)
    if (s["files"], s["per_file"], s["max_claims"], s["profile"], s["seed"]) == defaults:
        return "python -m verify.mutation"
    return (
        "python -m verify.mutation " + " ".join(s["files"]) + f" --per-file {s['per_file']} "
        f"--max-claims {s['max_claims']} --profile {s['profile']} --seed {s['seed']}"
    )


def _cell(text: str) -> str:
    """``text`` inside a markdown table cell (a bare ``|`` would end the cell)."""
    return text.replace("|", "\\|")


def _mutant(r: dict) -> str:
    return f"{r['path']}:{r['line']} `{_cell(r['before'][:70])}` -> `{_cell(r['after'][:70])}`"


def _percent(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _markdown(s: dict) -> str:
    rows = s["mutants"]
    lines = [
        "# Mutation score of the verdicts",
        "",
        "Each mutant is one edit of a formula in a target module; the claims re-run for it are the ones",
        "whose traced run executes the mutated line (cheapest first, at most "
        f"{s['max_claims']}). *killed*: a verdict changed",
        "(a crash counts); *survived*: a number some check compared moved, no verdict did; *unexercised*:",
        "covering claims ran but the mutated expression was never evaluated; *uncovered*: no claim executes",
        "the line (a real gap); *equivalent*: evaluated, and nothing any check compared moved;",
        "*instance-equivalent*: a survivor whose site is declared an instance or experiment parameter",
        "(`verify/mutation_notes.py` INSTANCE, with its reason) and whose re-run claims all still reached",
        "every measured regime and still broke every control (listed below: the first score counts them",
        "as not killed, the second leaves them out).",
        "A file's mutants are its sites with the smallest stable hash of (seed, path, enclosing def,",
        "line text, operator, edit, occurrence), so an edit elsewhere in a file keeps its drawn sites.",
        "",
        f"Profile `{s['profile']}`, seed {s['seed']}, up to {s['per_file']} mutants per file. "
        "**" + ", ".join(f"{s[k]} {k}" for k in STATUSES) + "**. "
        f"Score killed / non-equivalent (all but equivalent) = **{_percent(s['score'])}**; "
        "killed / (non-equivalent minus instance-equivalent) = "
        f"**{_percent(s['score_instance'])}**.",
        "",
        mutation_notes.HISTORY,
        "",
        f"Measured at commit `{s['commit']}`. Reproduce: `{_command(s)}` (run it in a snapshot, "
        "`git worktree add --detach <dir> <commit>`, so edits in progress cannot leak in).",
        "",
        "| file:line | operator | before -> after | status | claims re-run / covering "
        "| verdict changes (survivors: claims whose numbers moved) |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        ch = "; ".join(f"{c}: {v}" for c, v in r["verdict_changes"].items())[:160]
        if r["status"] in ("survived", "instance-equivalent"):
            ch = "numbers moved in " + ", ".join(r["numbers_moved"])
        cover = f"{len(r['claims'])} / {len(r['claims']) + len(r['skipped'])}"
        edit = f"`{_cell(r['before'][:50])}` -> `{_cell(r['after'][:50])}`"
        lines.append(f"| {r['path']}:{r['line']} | {r['op']} | {edit} | {r['status']} | {cover} | {ch} |")
    survivors = [r for r in rows if r["status"] == "survived"]
    lines += ["", f"## Survivors, explained ({len(survivors)})", "", mutation_notes.KINDS, ""]
    lines += ["| mutant | kind | why no verdict changed | action |", "|---|---|---|---|"]
    for r in survivors:
        note = mutation_notes.explain(r)
        kind, why, action = (note.kind, note.why, note.action) if note else ("?", "**not explained**", "")
        if r["not_instance"]:  # declared an instance parameter, but the audit did not show it
            action = f"{action}; declared instance parameter, not reclassified: " + "; ".join(
                r["not_instance"]
            )
        lines.append(f"| {_mutant(r)} | {kind} | {_cell(why)} | {_cell(action)} |")
    instance = [r for r in rows if r["status"] == "instance-equivalent"]
    lines += ["", f"## Instance-equivalent ({len(instance)})", ""]
    lines += [
        "| mutant | parameter | why every statement is invariant to it | audited in |",
        "|---|---|---|---|",
    ]
    for r in instance:
        d = mutation_notes.INSTANCE[tuple(r["site"])]
        claims = "; ".join(
            f"{c} ({k} regimes reached, {j} controls broke)" for c, (k, j) in r["audited"].items()
        )
        lines.append(f"| {_mutant(r)} | {_cell(d.parameter)} | {_cell(d.why)} | {claims} |")
    if s["stale_instance"]:
        lines += ["", "Declared instance sites that are no site of the code any more (stale, unused):"]
        lines += [
            f"- {k[0]} `{k[1]}`: `{_cell(k[2][:80])}` {k[3]} `{k[4]}` -> `{k[5]}`"
            for k in s["stale_instance"]
        ]
    gaps = [r for r in rows if r["status"] in ("uncovered", "unexercised", "timeout")]
    lines += ["", f"## Gaps: uncovered, unexercised, timeout ({len(gaps)})", ""]
    lines += [f"- {r['path']}:{r['line']} `{r['before'][:60]}` ({r['status']})" for r in gaps]
    capped = [r for r in rows if r["skipped"]]
    lines += ["", f"## Covering claims over the cap, not re-run ({len(capped)} mutants)", ""]
    lines += [
        f"- {r['path']}:{r['line']} ({r['status']}): {len(r['skipped'])} skipped: "
        + ", ".join(r["skipped"][:6])
        + (", ..." if len(r["skipped"]) > 6 else "")
        for r in capped
    ]
    if s["untraced"]:
        lines += ["", "Claims whose traced run failed (coverage unknown): " + ", ".join(s["untraced"])]
    return "\n".join(lines) + "\n"


DEFAULT_PER_FILE, DEFAULT_MAX_CLAIMS = 7, 8


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m verify.mutation", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "files", nargs="*", type=Path, help="project source files to mutate (default: DEFAULT_TARGETS)"
    )
    ap.add_argument("--per-file", type=int, default=DEFAULT_PER_FILE, help="mutants sampled per file")
    ap.add_argument("--profile", default="tiny")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--timeout",
        type=float,
        default=300,
        help=f"cap on one mutant run's seconds ({STARTUP_S:g} s + {SLOWDOWN:g}x its claims' traced time)",
    )
    ap.add_argument(
        "--max-claims",
        type=int,
        default=DEFAULT_MAX_CLAIMS,
        help="covering claims re-run per mutant, cheapest first (the rest are listed as skipped)",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "mutation")
    ap.add_argument(
        "--cache",
        type=Path,
        default=mutation_coverage.DEFAULT_CACHE,
        help="cache folder (claims' line coverage, mutant outcomes; delete it to start afresh)",
    )
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        print(json.dumps(_worker(json.loads(a.worker))))
        return 0
    files = a.files or [ROOT / f for f in DEFAULT_TARGETS]
    missing = [str(f) for f in files if not f.is_file()]
    outside = [str(f) for f in files if f.is_file() and not f.resolve().is_relative_to(ROOT)]
    if missing or outside or a.per_file < 1 or a.max_claims < 1:
        print(
            f"verify.mutation: error: give project source files and counts >= 1 "
            f"(missing: {missing}, outside the project: {outside})",
            file=sys.stderr,
        )
        return 2
    s = run(
        [f.resolve() for f in files], a.per_file, a.profile, a.out, a.seed, a.timeout, a.max_claims, a.cache
    )
    print(f"score {s['score']} (without instance-equivalent: {s['score_instance']}): ", end="")
    print(", ".join(f"{s[k]} {k}" for k in STATUSES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
