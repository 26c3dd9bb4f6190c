"""Where the time goes: a cProfile summary that fits in a report table.

cProfile attributes the time of operators (``a @ b``, ``a + b``) to the Python
function that executes them, so ``tottime`` of a field function is its matmuls plus
its elementwise work plus its interpreter overhead. The benchmarks therefore pair a
profile with *direct* micro-timings of the matmuls alone (see
:func:`benchmarks.hardware.matmul_rate`), which split that time further.
"""

from __future__ import annotations

import cProfile
import pstats
import time
from collections.abc import Callable, Sequence


def _label(func: tuple[str, int, str]) -> str:
    filename, line, name = func
    if filename == "~":
        return name  # a built-in, e.g. "<method 'reduce' of 'numpy.ufunc' objects>"
    parts = filename.replace("\\", "/").split("/")
    short = "/".join(parts[-2:])
    return f"{short}:{line}({name})"


def profile(fn: Callable[[], object], top: int = 12, track: Sequence[str] = ()) -> dict:
    """Run ``fn`` under cProfile; return its wall time and the ``top`` functions by own time.

    Each row: ``function``, ``calls``, ``tottime`` (own seconds), ``cumtime`` and
    ``share`` (``tottime`` / total profiled time). ``tracked`` maps each substring in
    ``track`` to the share of the profiled time spent *inside* the functions whose
    label contains it (their largest ``cumtime``, so nesting is not double counted).
    Profiling slows Python-heavy code, so shares, not absolute seconds, are the result.
    """
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    fn()
    prof.disable()
    wall = time.perf_counter() - t0
    stats = pstats.Stats(prof)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = []
    for func, (_cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append({"function": _label(func), "calls": nc, "tottime": tt, "cumtime": ct})
    rows.sort(key=lambda r: r["tottime"], reverse=True)
    for r in rows:
        r["share"] = r["tottime"] / total if total else 0.0
    tracked = {}
    for name in track:
        inside = max((r["cumtime"] for r in rows if name in r["function"]), default=0.0)
        tracked[name] = inside / total if total else 0.0
    return {"wall_s": wall, "profiled_s": total, "top": rows[:top], "tracked": tracked}
