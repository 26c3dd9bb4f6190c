"""The GPU rows (``benchmarks/gpu.py``) on the strict CPU stand-in for CuPy, and on CuPy where a GPU is.

The stand-in refuses implicit host conversions, so a row that would sync a CuPy array by accident
fails here, without a GPU; the device run must agree with the NumPy run of the same members.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks import gpu, report  # noqa: E402
from benchmarks.config import get_profile  # noqa: E402
from benchmarks.timing import Probe  # noqa: E402


def test_gpu_rows_on_the_backend(backend, tmp_path):
    doc = gpu.run(get_profile("tiny").gpu, Probe(), use_torch=False, log=lambda _: None, be=backend)
    rows = {r["name"]: r for r in doc["rows"]}
    flow = rows["GPU: ensemble GF vs solve_ivp loop"]
    assert flow["agreement"]["cupy vs numpy"] < 1e-12  # the same members, the same method
    assert flow["agreement"]["cupy vs solve_ivp"] < 1e-4  # both at rtol 1e-6
    assert rows["GPU: long GD vs PyTorch (CUDA) loop"]["agreement"]["cupy vs numpy"] < 1e-12
    prob = rows["GPU: probability estimate vs PyTorch (CUDA) loop"]
    assert prob["agreement"]["steps cupy vs numpy (max |diff|)"] == 0
    assert all(r["ratio"] > 0 for r in doc["rows"])
    lines = report._gpu(doc)
    assert sum(line.startswith("| ") for line in lines) == 1 + len(doc["rows"])  # header + rows
