"""Smoke test of the benchmark harness: tiny sizes, every benchmark, JSON + Markdown + plots.

Benchmarks are not tests; this only checks that ``python -m benchmarks`` runs end to end
and writes a well-formed report. The PyTorch loops are skipped (importing PyTorch alone
takes seconds); the report must then say "not measured" for them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # benchmarks/ is run from the repository, not installed
    sys.path.insert(0, str(REPO_ROOT))

from benchmarks.cli import main  # noqa: E402
from numeric.backend import cupy_available  # noqa: E402


def test_tiny_run_writes_json_markdown_and_plots(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["--profile", "tiny", "--no-torch", "--out", str(out)]) == 0
    doc = json.loads(out.read_text())
    cpu = {"flow", "gd", "prob", "ncf", "kinks", "workers", "sliding"}
    assert set(doc["benchmarks"]) == (cpu | {"gpu"} if cupy_available() else cpu)
    slid = [r for w in doc["benchmarks"]["sliding"]["workloads"] for r in w["rows"] if r["mode"] == "sliding"]
    assert slid and all(r["error"] < 1e-4 for r in slid)  # the sliding mode meets its rtol 1e-5 run
    assert all(r["same"] for r in doc["benchmarks"]["workers"]["rows"])  # workers change no record
    assert doc["hardware"]["gemm_peak_gflops"] > 0 and doc["hardware"]["copy_gbytes_per_s"] > 0
    size = doc["benchmarks"]["flow"]["sizes"][0]
    assert size["reference"]["field_max_abs_diff"] < 1e-12  # batched and per-member fields agree
    assert all(p["error_median"] < 1e-3 for p in size["ivp"]["points"])
    status = {t["target"]: t["status"] for t in doc["targets"]}
    assert status["long GD (kou2023) vs PyTorch SGD loop, same precision"] == "not measured"
    assert status["NCF restarts (kumar2025): batched vs loop over restarts"] == "measured"
    assert doc["benchmarks"]["ncf"]["agreement"]["loop numpy float64"]["max_point_diff"] < 1e-12
    assert doc["benchmarks"]["gd"]["chunking"]["identical"]
    kink = doc["benchmarks"]["kinks"]["sizes"][0]
    assert kink["reference"]["events_vs_no_events"] < 1e-6  # the event solve agrees with the reference
    for p in kink["alternatives"]["events dop853"]["points"]:
        assert p["events_mean"] > 0 and p["error_median"] < 1e-3
    assert "kinks" in doc["benchmarks"] and doc["benchmarks"]["kinks"]["gaussian"]["alternatives"]
    md = (tmp_path / "bench.md").read_text()
    assert "## Targets" in md and "not measured (no GPU in this session)" in md
    assert "## 5. Kinked gradient flows" in md
    assert (tmp_path / "bench" / "scaling_B.png").stat().st_size > 0
    with pytest.raises(SystemExit) as exc:  # bad input: one line, exit status 2
        main(["--only", "nonsense", "--out", str(out)])
    assert exc.value.code == 2


def test_workers_claims_option(tmp_path):
    """``--claims`` picks the workers benchmark's claims and ``--sweep-seeds`` its sweep's size; an unknown
    id or a sweep of no seeds is bad input (exit 2, nothing run); without ``--profile`` the profile is full
    (``--quick`` shares its dest)."""
    from benchmarks.cli import _parser

    assert _parser().parse_args([]).profile == "full"
    out = tmp_path / "bench.json"
    with pytest.raises(SystemExit) as exc:
        main(["--only", "workers", "--claims", "nope:lemma-1", "--out", str(out)])
    assert exc.value.code == 2 and not out.exists()
    with pytest.raises(SystemExit) as exc:
        main(["--only", "workers", "--sweep-seeds", "0", "--out", str(out)])
    assert exc.value.code == 2 and not out.exists()
    args = ["--profile", "tiny", "--only", "workers", "--claims", "kou2023:lemma-A.1", "--sweep-seeds", "2"]
    assert main([*args, "--out", str(out)]) == 0
    rows = json.loads(out.read_text())["benchmarks"]["workers"]["rows"]
    assert rows[0]["task"] == "1 tiny claims" and all(r["same"] for r in rows)
    assert rows[-1]["task"].endswith("with seeds=2 (ctx.map)")


def test_gd_target_compares_like_with_like():
    """The long-GD target pairs each PyTorch loop with ours at its precision; the
    cross-precision ratio (ours float64 vs the fastest loop) is reported, not judged."""
    from benchmarks.targets import _gd_target

    gd = {
        "ratios": [
            {"torch": "torch float64", "B": 16, "ratio": 4.4},
            {"torch": "torch float32", "B": 16, "ratio": 2.1},
        ],
        "same_precision": [
            {"torch": "torch float64", "ours": "ours float64", "B": 16, "ratio": 4.4},
            {"torch": "torch float32", "ours": "ours float32", "B": 16, "ratio": 3.4},
        ],
    }
    row = _gd_target(gd)
    assert row["status"] == "PASS" and row["measured"] == 3.4
    assert "any precision: 2.10x" in row["detail"]
    gd["same_precision"][1]["ratio"] = 2.9
    assert _gd_target(gd)["status"] == "MISS"
