"""Where and how the toolkit writes files of its own: the user cache directory and atomic writes."""

from __future__ import annotations

import os
from pathlib import Path

#: the user cache (``$XDG_CACHE_HOME`` or ``~/.cache``): staleness digests, mutation-coverage traces
CACHE_DIR = Path(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")) / "relu-verify"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: a reader (or a Ctrl-C) never
    sees a half-written file. The temporary file's name carries the process id, so processes writing
    the same path at once (a shared cache) do not write into each other's."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
