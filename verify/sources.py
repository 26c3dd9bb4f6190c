"""The code a claim runs, for staleness: its module and the project modules it imports.

:func:`code_hash` follows ``import`` statements (parsed, not executed) from a module
through every module of the same top-level package and of ``symbolic``, ``numeric`` and
``verify``, and hashes their code (a paper package's imports that only register its claims are
not followed: :func:`closure`). A stored record whose hash differs was made by other code than
the current one: the report marks it stale and ``--resume`` re-runs it.

What is hashed is each module's syntax tree without docstrings, comments and positions
(:func:`_file_digest`): rewording a docstring or moving a function does not change what a claim
computes, so it stales nothing; any change to a statement, a name or a literal does. Parsing the
project's ~160 modules costs ~2.5 s of CPU a process, so each tree's digest is kept on disk under
the hash of the file's bytes (:data:`DIGESTS`; reading and hashing the files costs ~0.01 s).
"""

from __future__ import annotations

import ast
import atexit
import hashlib
import importlib.util
import json
import re
import sys
from functools import cache
from pathlib import Path

from verify.files import CACHE_DIR, write_atomic

PROJECT_PACKAGES = ("symbolic", "numeric", "verify")
#: file-bytes SHA-256 -> syntax-tree digest (hex); per Python version (``ast.dump`` varies between them)
DIGESTS = CACHE_DIR / f"code-digests-py{sys.version_info[0]}.{sys.version_info[1]}.json"
KEEP_DIGESTS = 5000  # the most recently added are kept: about 40 edits of every module


@cache
def _origin(module: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)|import[ \t]+([^\n#;]+))", re.M
)


def _names(text: str) -> list[str]:
    """``a as b, c`` or ``(a,\n b)`` -> ``["a", "c"]``."""
    return [part.split()[0] for part in text.strip("()").replace("\n", " ").split(",") if part.split()]


@cache
def _imports(module: str, path: Path) -> frozenset[str]:
    """Modules named by the import statements of ``module`` (relative ones resolved).

    A line scan rather than a parse (ten times faster over the project): an import written in a
    docstring only adds a dependency, which can make a record stale too often, never too rarely."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for dots, base, names, plain in _IMPORT.findall(path.read_text()):
        if plain:
            found.update(_names(plain))
            continue
        if dots:
            parts = package.split(".")
            parent = parts[: len(parts) - len(dots) + 1]
            base = ".".join([*parent, base] if base else parent)
        found.add(base)
        found.update(f"{base}.{name}" for name in _names(names))  # names that are submodules
    return frozenset(found)


def _registers(package: str) -> bool:
    """A paper's package (``verify.papers.<paper>``, or an external package's top level): its
    ``__init__`` imports every submodule only to register the claims they declare."""
    parts = package.split(".")
    return (parts[:2] == ["verify", "papers"] and len(parts) == 3) or (
        len(parts) == 1 and package not in PROJECT_PACKAGES
    )


@cache
def closure(module: str, parents: bool = True) -> tuple[str, ...]:
    """``module`` and every project module it imports, transitively (sorted).

    ``parents``: include the packages above each module (their ``__init__`` runs first).
    A paper package's ``__init__`` imports its submodules to register their claims: a claim
    in one submodule runs another's code only when it imports that one itself, so those
    registering imports are not followed, and editing one module of a paper stales the claims
    that reach it, not the whole paper. Without ``parents`` the closure is what the module's
    own code can reach, which is what a fault in a module can affect."""
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
        imports = _imports(name, path)
        if name != module and _registers(name):
            imports = frozenset(m for m in imports if m.rpartition(".")[0] != name)
        todo.extend(imports - seen)
        parent = name.rpartition(".")[0]
        if parent and parents:
            todo.append(parent)  # a package's __init__ runs before its submodules
    return tuple(sorted(seen))


@cache
def code_hash(module: str) -> str:
    """SHA-256 over the sources of :func:`closure` of ``module``."""
    h = hashlib.sha256()
    for name in closure(module):
        h.update(name.encode() + b"\0" + _file_digest(name) + b"\0")
    return h.hexdigest()


@cache
def _file_digest(module: str) -> bytes:
    """SHA-256 of the module's code: its syntax tree, docstrings dropped, without line numbers (kept in
    :data:`DIGESTS` under the SHA-256 of the file's bytes)."""
    path = _origin(module)
    assert path is not None
    raw = path.read_bytes()
    key = hashlib.sha256(raw).hexdigest()
    known = _known_digests()
    if key not in known:
        known[key] = hashlib.sha256(ast.dump(_without_docstrings(ast.parse(raw))).encode()).hexdigest()
        _save_at_exit()
    return bytes.fromhex(known[key])


_HEX64 = re.compile(r"[0-9a-f]{64}")


@cache
def _known_digests() -> dict[str, str]:
    """The digests stored in :data:`DIGESTS` (empty where it is missing or unreadable; an entry that is
    not a pair of SHA-256 hex strings is dropped)."""
    try:
        stored = json.loads(DIGESTS.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(stored, dict):
        return {}
    return {
        k: v for k, v in stored.items() if isinstance(v, str) and _HEX64.fullmatch(k) and _HEX64.fullmatch(v)
    }


@cache
def _save_at_exit() -> None:
    atexit.register(_save_digests)


def _save_digests() -> None:
    """Write the digests (the latest :data:`KEEP_DIGESTS`) atomically; a cache that cannot be written is
    skipped (it only saves time)."""
    known = _known_digests()
    kept = dict(list(known.items())[-KEEP_DIGESTS:])
    try:
        DIGESTS.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(DIGESTS, json.dumps(kept))
    except OSError:
        pass


_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _without_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` with the docstring of the module, each class and each function removed (in place).

    A body that held only its docstring keeps a ``pass``: the dump must still tell ``def f(): "a"``
    from a function that is gone."""
    for node in ast.walk(tree):
        if isinstance(node, _DOCUMENTED) and node.body:
            match node.body[0]:
                case ast.Expr(value=ast.Constant(value=str())):
                    node.body = node.body[1:] or [ast.Pass()]
    return tree
