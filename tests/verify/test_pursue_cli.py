"""``verify pursue``: trains on a user's files; bad input is one line and exit status 2."""

from __future__ import annotations

import json

import numpy as np
import pytest


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = np.maximum(X @ np.array([1.0, -0.5, 0, 0]), 0)
    np.save(tmp_path / "X.npy", X)
    np.savetxt(tmp_path / "y.csv", y, delimiter=",")
    return tmp_path


def test_pursue_trains_and_writes(data, verify_main):
    out = data / "run"
    status, stdout, _ = verify_main(
        "pursue",
        str(data / "X.npy"),
        str(data / "y.csv"),
        "--depth",
        "2",
        "--restarts",
        "4",
        "--ncf-iters",
        "200",
        "--gd-steps",
        "3000",
        "--lr",
        "0.005",
        "--max-iter",
        "3",
        "--out",
        str(out),
    )
    assert status == 0
    assert "descent ok" in stdout
    log = json.loads((data / "run.json").read_text())
    assert log["steps"] and all(s["descent"] for s in log["steps"])
    assert set(np.load(data / "run.npz").files) == {"W1", "W2"}


def test_pursue_schedule_options_reach_the_config(data, verify_main):
    out = data / "sched"
    options = ["--gd-steps-late", "500", "--late-loss", "0.1", "--lr-check", "100", "--lr-halvings", "2"]
    common = ["--depth", "2", "--restarts", "2", "--ncf-iters", "50", "--gd-steps", "200", "--max-iter", "1"]
    status, _, _ = verify_main(
        "pursue",
        str(data / "X.npy"),
        str(data / "y.csv"),
        *common,
        *options,
        "--rebalance",
        "--out",
        str(out),
    )
    assert status in (0, 1)
    cfg = json.loads((data / "sched.json").read_text())["config"]
    assert (cfg["gd_steps_late"], cfg["late_loss"], cfg["lr_check"], cfg["lr_halvings"]) == (500, 0.1, 100, 2)
    assert cfg["rebalance"] is True


@pytest.mark.parametrize(
    "args",
    [
        ["missing.npy", "y.csv"],
        ["X.npy", "X.npy"],
        ["X.npy", "y.csv", "--depth", "1"],
        ["X.npy", "y.csv", "--lr", "-1"],
        ["X.npy", "y.csv", "--backend", "tpu"],
        ["X.npy", "y.txt"],
        ["X.npy", "y.csv", "--lr-check", "-1"],
        ["X.npy", "y.csv", "--late-loss", "0"],
    ],
)
def test_pursue_bad_input_exits_2(data, verify_main, args):
    (data / "y.txt").write_text("1\n")
    paths = [str(data / a) if i < 2 else a for i, a in enumerate(args)]
    status, _, stderr = verify_main("pursue", *paths)
    assert status == 2
    assert stderr.strip().count("\n") == 0 and stderr.startswith("verify: error:")
