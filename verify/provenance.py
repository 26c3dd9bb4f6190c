"""Where a result came from: seed, backend, profile, versions, commit, machine."""

from __future__ import annotations

import importlib.metadata
import platform
import subprocess
from functools import lru_cache
from pathlib import Path

PACKAGES = ("numpy", "scipy", "sympy", "mpmath", "matplotlib", "cupy", "relu-verify")


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """Installed versions of the packages a verdict depends on (absent ones omitted)."""
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        candidates = [name] if name != "cupy" else ["cupy-cuda12x", "cupy-cuda13x", "cupy"]
        for c in candidates:
            try:
                out[name] = importlib.metadata.version(c)
                break
            except importlib.metadata.PackageNotFoundError:
                continue
    return out


@lru_cache(maxsize=1)
def git_commit() -> str:
    """The checked-out commit, suffixed ``-dirty`` when tracked files differ; ``unknown`` outside git."""
    root = Path(__file__).resolve().parent.parent
    try:
        sha = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            [
                "git",
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "symbolic",
                "numeric",
                "verify",
            ],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return sha + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine() -> dict[str, str]:
    return {"platform": platform.platform(), "processor": platform.machine()}
