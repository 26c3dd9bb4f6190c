"""Package layering: numeric/ is plain array code, symbolic/ knows nothing of verify/.

    verify  ->  symbolic, numeric
    symbolic ->  (sympy, mpmath, numpy; may call numeric)
    numeric  ->  (numpy, scipy, cupy) only

Imports are read with ``ast`` from the source files (relative imports resolved, plus
``importlib.import_module("...")`` / ``__import__("...")`` with a literal name), and the
numeric package is also imported in a fresh interpreter to catch transitive imports.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FORBIDDEN = {
    # symbolic/ imports sympy, so numeric/ importing it would pull sympy in
    "numeric": {"sympy", "verify", "symbolic"},
    "symbolic": {"verify"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every module ``path`` imports (statically visible)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                names.add(".".join([*base, *([node.module] if node.module else [])]))
            else:
                names.add(node.module or "")
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            fname = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if fname in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    return names


def _files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_the_packages_exist():
    assert _files("numeric") and _files("symbolic")


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_forbidden_imports(package):
    offenders = []
    for path in _files(package):
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top in FORBIDDEN[package]:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, "layering violated:\n" + "\n".join(offenders)


def test_import_parser_sees_relative_and_dynamic_imports(tmp_path, monkeypatch):
    pkg = tmp_path / "numeric" / "sub"
    pkg.mkdir(parents=True)
    (tmp_path / "numeric" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from . import a\n")
    f = pkg / "mod.py"
    f.write_text(
        "import os.path\nfrom ..verify import x\nfrom . import sibling\n"
        "import importlib\nimportlib.import_module('sympy')\n__import__('verify.cli')\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert imported_modules(f) == {
        "os.path",
        "numeric.verify",
        "numeric.sub",
        "importlib",
        "sympy",
        "verify.cli",
    }
    assert imported_modules(pkg / "__init__.py") == {"numeric.sub"}


def test_importing_numeric_loads_neither_sympy_nor_verify():
    modules = [_module_name(p) for p in _files("numeric")]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}:\n    importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'verify', 'symbolic'))\n"
        "print(','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "", f"numeric pulls in: {proc.stdout.strip()}"
