"""The code a claim runs, for staleness: its module and the project modules it imports.

:func:`code_hash` follows ``import`` statements (parsed, not executed) from a module
through every module of the same top-level package and of ``symbolic``, ``numeric`` and
``verify``, and hashes their source files. A stored record whose hash differs was made
by other code than the current one: the report marks it stale and ``--resume`` re-runs it.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
from functools import cache
from pathlib import Path

PROJECT_PACKAGES = ("symbolic", "numeric", "verify")


@cache
def _origin(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imports(module: str, path: Path) -> set[str]:
    """Modules named by the import statements of ``module`` (relative ones resolved)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)  # names that are submodules
    return found


@cache
def closure(module: str, parents: bool = True) -> tuple[str, ...]:
    """``module`` and every project module it imports, transitively (sorted).

    ``parents``: include the packages above each module (their ``__init__`` runs first, and a
    paper package's ``__init__`` imports all its modules). Without them the closure is what the
    module's own code can reach, which is what a fault in a module can affect."""
    roots = {*PROJECT_PACKAGES, module.partition(".")[0]}
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen or name.partition(".")[0] not in roots:
            continue
        path = _origin(name)
        if path is None:
            continue
        seen.add(name)
        todo.extend(_imports(name, path) - seen)
        parent = name.rpartition(".")[0]
        if parent and parents:
            todo.append(parent)  # a package's __init__ runs before its submodules
    return tuple(sorted(seen))


@cache
def code_hash(module: str) -> str:
    """SHA-256 over the sources of :func:`closure` of ``module``."""
    h = hashlib.sha256()
    for name in closure(module):
        path = _origin(name)
        assert path is not None
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()
