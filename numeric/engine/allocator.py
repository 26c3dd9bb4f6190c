"""Keep freed memory in the process heap, so short-lived arrays do not page-fault.

The engine's hot loops allocate state-sized temporaries (a field evaluation of a
(B, n_params) ensemble makes a dozen of them) and free them microseconds later. glibc
serves a request above its mmap threshold (128 KiB at start, adapted up to 32 MiB) with
fresh pages from the kernel, and returns heap memory above its trim threshold to the
kernel on ``free``; either way the next array of that size starts on untouched pages,
paying one page fault and a zero fill per 4 KiB. Measured on the 2-core benchmark VM
(gradient-flow field of 1024 nets (8, 8, 8), 590 KB per temporary): 1.6-2.0 ms per
evaluation with the defaults, 0.75-0.95 ms with both thresholds raised (either one alone
gains < 20%).

:func:`keep_freed_memory` raises both (glibc ``mallopt``). It changes the whole process
and costs resident memory (up to ``trim_bytes`` of freed memory stay mapped), so it is
never called on import: the ``verify`` and ``python -m benchmarks`` entry points call it,
and a library user opts in by calling it once. It is a no-op off glibc (macOS, musl) and
irrelevant on CuPy, whose memory pool already reuses device blocks.
"""

from __future__ import annotations

import ctypes
import ctypes.util

M_TRIM_THRESHOLD = -1  # mallopt parameter numbers, glibc <malloc.h>
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_MAX = 32 * 2**20  # glibc's upper bound for M_MMAP_THRESHOLD on 64-bit
DEFAULT_TRIM_BYTES = 2**30


_settings = "default"


def keep_freed_memory(trim_bytes: int = DEFAULT_TRIM_BYTES) -> bool:
    """Raise glibc's mmap threshold to 32 MiB and its trim threshold to ``trim_bytes``.

    Returns True when both settings took effect, False off glibc (nothing changes then).
    """
    global _settings
    name = ctypes.util.find_library("c")
    try:
        mallopt = ctypes.CDLL(name).mallopt if name else None
    except (OSError, AttributeError):
        mallopt = None
    if mallopt is None:
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    ok = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX)) and bool(
        mallopt(M_TRIM_THRESHOLD, int(trim_bytes))
    )
    if ok:
        _settings = (
            f"glibc mmap threshold {MMAP_THRESHOLD_MAX >> 20} MiB, trim threshold {int(trim_bytes) >> 20} MiB"
        )
    return ok


def allocator_settings() -> str:
    """One line for provenance: ``"default"`` or the thresholds :func:`keep_freed_memory` set."""
    return _settings
