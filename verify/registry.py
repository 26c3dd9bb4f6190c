"""The papers under verification, where they come from, and the lookup of their claims.

A *paper module* declares ``PAPER = Paper(...)``; importing it registers its claims
(``@claim``, in the module itself or in submodules it imports).  Paper modules are found,
all through :func:`load`, in three places, in this order:

1. the papers shipped with the toolkit (:data:`BUILTIN`, ``verify/papers/<key>/``);
2. the entry-point group ``relu_verify.papers`` of every installed distribution (entry
   point name = paper key, value = module), so ``pip install mypaper-claims`` registers
   a paper;
3. the sources given with ``--claims``: a ``.py`` file, a package directory or an
   importable module name (:func:`use_claims`).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import re
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from verify.claim import ID_PATTERN, Claim, registered
from verify.errors import UserError

ENTRY_POINT_GROUP = "relu_verify.papers"
BUILTIN: tuple[str, ...] = tuple(
    f"verify.papers.{key}" for key in ("zhang2025", "min2024", "kou2023", "kumar2025", "dana2025")
)


@dataclass(frozen=True)
class Paper:
    """A paper whose statements are claims.

    ``key`` is the prefix of its claim ids (``<letters><year>``, e.g. ``mypaper2026``);
    ``title``, ``authors`` and ``venue`` head its reports; ``catalog`` and ``text`` are
    optional paths to the list of its statements and to its full text (provenance for a
    reader, not read by the toolkit).
    """

    key: str
    title: str
    authors: str
    venue: str
    catalog: str = ""
    text: str = ""

    def __post_init__(self) -> None:
        if not ID_PATTERN.match(f"{self.key}:lemma-1"):  # a key is what a claim id allows before ':'
            raise ValueError(f"paper key {self.key!r} is not of the form <letters><year>, e.g. 'mypaper2026'")


PAPERS: dict[str, Paper] = {}
"""Every paper found so far, in discovery order (filled by :func:`discover` and :func:`use_claims`)."""
_MODULE_OF: dict[str, str] = {}  # paper key -> name of the module that declared it
_discovered = False


def _load_error(origin: str, error: BaseException) -> UserError:
    """One line naming the source, the exception and the user's line that raised it."""
    machinery = (__file__, importlib.__file__)  # frames of the import itself, not of the user's code
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if f.filename not in machinery and not f.filename.startswith("<frozen")
    ]
    where = f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    if isinstance(error, SyntaxError):
        where = f" ({error.filename}:{error.lineno})"
    return UserError(f"cannot load claims from {origin}: {type(error).__name__}: {error}{where}")


def load(module: str | ModuleType, origin: str) -> Paper:
    """Import a paper module (registering its claims) and record its ``PAPER``.

    ``origin`` says where the module was named (for error messages). Loading the same
    module twice is a no-op; two modules declaring one key is a :class:`UserError`.
    """
    if isinstance(module, str):
        try:
            module = importlib.import_module(module)
        except Exception as e:
            raise _load_error(origin, e) from None
    paper = getattr(module, "PAPER", None)
    if not isinstance(paper, Paper):
        raise UserError(f"{origin}: module {module.__name__} declares no PAPER = Paper(...)")
    declared_by = _MODULE_OF.setdefault(paper.key, module.__name__)
    if declared_by != module.__name__:
        raise UserError(f"{origin}: paper {paper.key!r} is already declared by module {declared_by}")
    PAPERS[paper.key] = paper
    return paper


def discover() -> None:
    """Load the built-in papers and those of installed entry points (once per process)."""
    global _discovered
    if _discovered:
        return
    for name in BUILTIN:
        load(name, "the toolkit")
    for ep in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        dist = ep.dist.name if ep.dist else "?"
        origin = f"entry point {ep.name!r} of {dist} (pip uninstall {dist} to remove it)"
        paper = load(ep.value, origin)
        if paper.key != ep.name:
            raise UserError(f"{origin}: names paper {ep.name!r} but its module declares {paper.key!r}")
    _discovered = True


def _import_path(path: Path, source: str) -> ModuleType:
    """Import a ``.py`` file or a package directory by its own name, its parent on ``sys.path``
    (so its imports of sibling modules work and its source can be hashed)."""
    if path.is_dir() and not (path / "__init__.py").is_file():
        raise UserError(f"--claims {source}: directory {path} is not a package (no __init__.py)")
    if path.is_file() and path.suffix != ".py":
        raise UserError(f"--claims {source}: {path} is not a .py file")
    if path.is_file() and (path.parent / "__init__.py").is_file():
        raise UserError(f"--claims {source}: {path.name} belongs to package {path.parent}: name the package")
    name = path.stem if path.is_file() else path.name
    if not name.isidentifier():
        raise UserError(f"--claims {source}: {name!r} is not a valid module name")
    parent = str(path.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)
    try:
        module = importlib.import_module(name)
    except Exception as e:
        raise _load_error(source, e) from None
    expected = path / "__init__.py" if path.is_dir() else path
    if Path(module.__file__ or "").resolve() != expected:
        raise UserError(f"--claims {source}: module name {name!r} is already taken by {module.__file__}")
    return module


def use_claims(sources: Sequence[str] | None) -> None:
    """Load the papers of ``--claims`` sources: a ``.py`` file, a package directory, or a module name."""
    discover()
    for source in sources or []:
        path = Path(source).expanduser()
        if path.exists():
            load(_import_path(path.resolve(), source), f"--claims {source}")
        elif source.endswith(".py") or "/" in source:
            raise UserError(f"--claims {source}: no such file or directory")
        else:
            load(source, f"--claims {source}")


def builtin_keys() -> list[str]:
    """Keys of the papers shipped with the toolkit."""
    discover()
    return [key for key, module in _MODULE_OF.items() if module in BUILTIN]


# Kinds that are not numbered statements come after them, in this order.
_TRAILING_KINDS = ("equation", "section", "figure")


def paper_order(claim: Claim) -> tuple:
    """Sort key following the paper: numbered statements by number, then equations,
    appendix sections and figures; ``-corrected`` variants right after their original."""
    kind, _, number = claim.slug.partition("-")
    group = _TRAILING_KINDS.index(kind) + 1 if kind in _TRAILING_KINDS else 0
    parts = re.findall(r"\d+|[A-Za-z]+", number)
    key = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts)
    return (list(PAPERS).index(claim.paper) if claim.paper in PAPERS else len(PAPERS), group, key)


def all_claims() -> dict[str, Claim]:
    """Every claim of every discovered paper, by id, in paper order.

    A claim whose paper no module declared is a :class:`UserError`.
    """
    discover()
    claims = registered()
    orphans = sorted({c.paper for c in claims.values()} - set(PAPERS))
    if orphans:
        first = next(c for c in claims.values() if c.paper == orphans[0])
        raise UserError(
            f"claim {first.id} (module {first.body.__module__}) belongs to paper {orphans[0]!r}, "
            "which no module declares: add PAPER = Paper(...) to it"
        )
    return {c.id: c for c in sorted(claims.values(), key=paper_order)}


def select(selectors: list[str]) -> list[Claim]:
    """Claims named by paper keys and/or claim ids (all claims when empty).

    Raises :class:`UserError` for a selector that matches nothing.
    """
    claims = all_claims()
    if not selectors:
        return list(claims.values())
    chosen: dict[str, Claim] = {}
    for s in selectors:
        if s in PAPERS:
            chosen.update({i: c for i, c in claims.items() if c.paper == s})
        elif s in claims:
            chosen[s] = claims[s]
        else:
            close = [i for i in claims if s in i][:3]
            hint = f"; did you mean {', '.join(close)}?" if close else "; see 'verify list'"
            raise UserError(f"unknown claim or paper {s!r}{hint}")
    return list(chosen.values())
