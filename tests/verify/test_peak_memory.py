"""Per-claim peak memory in the provenance: the high-water mark of the block, reset on entry."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from verify.provenance import PeakMemory

MIB = 2**20


def _touch(nbytes: int) -> None:
    a = np.ones(nbytes // 8)  # written, so resident
    assert a[-1] == 1.0


def test_peak_covers_an_allocation_inside_the_block():
    with PeakMemory() as small:
        pass
    with PeakMemory() as big:
        _touch(96 * MIB)
    assert big.mib["host_peak_rss"] >= small.mib["host_peak_rss"] + 90


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="VmHWM reset is Linux-only")
def test_the_mark_is_reset_on_entry():
    with PeakMemory() as big:
        _touch(96 * MIB)
    with PeakMemory() as after:
        pass
    assert after.mib["host_peak_rss"] < big.mib["host_peak_rss"] - 60
