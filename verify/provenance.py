"""Where a result came from: seed, backend, profile, versions, commit, machine."""

from __future__ import annotations

import importlib.metadata
import platform
import subprocess
from functools import lru_cache
from pathlib import Path
from types import ModuleType

import numpy as np

from numeric.engine.allocator import allocator_settings

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
    return {
        "platform": platform.platform(),
        "processor": platform.machine(),
        "allocator": allocator_settings(),
    }


class PeakMemory:
    """Peak memory of the code run inside ``with PeakMemory(xp) as pm:``, in MiB (``pm.mib``).

    Host: the process's resident-set high-water mark (``VmHWM``), reset on entry through
    ``/proc/self/clear_refs`` (Linux); where that is unavailable, the lifetime maximum RSS
    from ``getrusage`` (an upper bound for the block). Device (CuPy): the bytes held by
    CuPy's memory pool at exit after freeing its cached blocks on entry (the pool only
    grows while the block runs, so this is the block's peak pool size).
    """

    def __init__(self, xp: ModuleType = np):
        self.xp = xp
        self.mib: dict[str, float] = {}

    def __enter__(self) -> PeakMemory:
        try:
            Path("/proc/self/clear_refs").write_text("5")
        except OSError:
            pass
        if self.xp is not np:
            self.xp.get_default_memory_pool().free_all_blocks()
        return self

    def __exit__(self, *exc: object) -> None:
        self.mib["host_peak_rss"] = round(_host_peak_bytes() / 2**20, 1)
        if self.xp is not np:
            self.mib["device_pool"] = round(self.xp.get_default_memory_pool().total_bytes() / 2**20, 1)


def _host_peak_bytes() -> int:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
