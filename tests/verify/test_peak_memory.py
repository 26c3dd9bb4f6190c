"""Per-claim peak memory in the provenance: the high-water mark of the block, reset on entry.

Each case runs in a fresh interpreter: the resident set of the test process depends on what other tests
allocated before and on the allocator settings they left (``keep_freed_memory``), which is not what the
block measures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

MEASURE = """
import json, numpy as np
from verify.provenance import PeakMemory
def touch(nbytes):
    a = np.ones(nbytes // 8)  # written, so resident
    assert a[-1] == 1.0
with PeakMemory() as small:
    pass
with PeakMemory() as big:
    touch(96 * 2**20)
with PeakMemory() as after:
    pass
print(json.dumps({k: v.mib["host_peak_rss"] for k, v in (("small", small), ("big", big), ("after", after))}))
"""


def _measure() -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", MEASURE], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_peak_covers_an_allocation_inside_the_block():
    m = _measure()
    assert m["big"] >= m["small"] + 90


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="VmHWM reset is Linux-only")
def test_the_mark_is_reset_on_entry():
    m = _measure()
    assert m["after"] < m["big"] - 60
