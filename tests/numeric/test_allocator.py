"""The opt-in allocator setting (numeric/engine/allocator.py)."""

from __future__ import annotations

import subprocess
import sys


def test_keep_freed_memory_is_reported_in_provenance():
    """Run in a fresh interpreter: the setting is process-global."""
    code = (
        "from numeric.engine.allocator import allocator_settings, keep_freed_memory\n"
        "assert allocator_settings() == 'default'\n"
        "ok = keep_freed_memory()\n"
        "print(ok, allocator_settings())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    if out[0] == "True":  # glibc
        assert "mmap threshold 32 MiB" in " ".join(out)
    else:  # not glibc: nothing changed and nothing is claimed
        assert out[1] == "default"
