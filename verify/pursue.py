"""``verify pursue``: train a network by Neuron Pursuit (kumar2025, Algorithm 1) on a user's data.

Input files are ``.npy`` or ``.csv`` (comma-separated numbers): ``X`` of shape (n, d), ``y``
of n values.  Every bad input is a :class:`~verify.errors.UserError` (one line, exit 2).
The result is written as ``<out>.npz`` (weights ``W1..WL``) and ``<out>.json`` (the log).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from numeric.backend import BackendUnavailable, get_backend, to_numpy
from numeric.training.neuron_pursuit import PursuitConfig, PursuitResult, PursuitStep, neuron_pursuit
from verify.errors import UserError


def load_array(path: Path, what: str) -> np.ndarray:
    """A finite float array from ``.npy`` or ``.csv``."""
    if not path.is_file():
        raise UserError(f"{what} file not found: {path}")
    try:
        if path.suffix == ".npy":
            a = np.load(path, allow_pickle=False)
        elif path.suffix == ".csv":
            a = np.loadtxt(path, delimiter=",", ndmin=1)
        else:
            raise UserError(f"{what} must be a .npy or .csv file, got {path.name}")
        a = np.asarray(a, dtype=float)
    except (ValueError, OSError) as e:
        raise UserError(f"cannot read {what} from {path}: {' '.join(str(e).split())}") from None
    if not np.all(np.isfinite(a)):
        raise UserError(f"{what} in {path} contains NaN or infinite values")
    return a


def load_data(x_path: Path, y_path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``X`` (n, d) and ``y`` (n,), validated."""
    X, y = load_array(x_path, "X"), load_array(y_path, "y")
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2 or X.shape[0] < 1 or X.shape[1] < 1:
        raise UserError(f"X must be a 2-D array (n samples, d features), got shape {X.shape}")
    y = y.reshape(-1) if y.ndim == 2 and 1 in y.shape else y
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise UserError(f"y must hold one value per row of X ({X.shape[0]}), got shape {y.shape}")
    if not np.any(y):
        raise UserError("y is identically zero: there is nothing to fit (the NCF vanishes)")
    return X, y


def make_config(**options) -> PursuitConfig:
    """A :class:`PursuitConfig`, its validation errors turned into one-line user errors."""
    try:
        return PursuitConfig(**options)
    except ValueError as e:
        raise UserError(str(e)) from None


def describe(step: PursuitStep) -> str:
    """One progress line per NP iteration."""
    where = "first direction" if step.layer == 0 else f"layer {step.layer}"
    check = "descent ok" if step.descent else "NO DESCENT at insertion"
    return (
        f"iter {step.iteration:>3}  {where:<15} NCF max {step.ncf_max:.4g}  delta {step.delta:.3g}  "
        f"{check}  loss {step.loss_after:.4g}  rel. error {step.rel_error:.3g}  widths {step.widths}"
    )


def run(x_path: Path, y_path: Path, out: Path, backend: str, seed: int, echo, **options) -> PursuitResult:
    """Load, train with progress lines through ``echo``, save ``out``.npz/.json; the result."""
    if seed < 0:
        raise UserError(f"--seed must be >= 0, got {seed}")
    cfg = make_config(**options)
    X, y = load_data(x_path, y_path)
    try:
        be = get_backend(backend)
    except (ValueError, BackendUnavailable) as e:
        raise UserError(str(e)) from None
    result = neuron_pursuit(
        be.asarray(X), be.asarray(y), cfg, np.random.default_rng(seed), progress=lambda s: echo(describe(s))
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out.with_suffix(".npz"), **{f"W{i + 1}": to_numpy(W) for i, W in enumerate(result.weights)})
    log = {
        "config": asdict(cfg),
        "reason": result.reason,
        "steps": [asdict(s) | {"descent": s.descent} for s in result.steps],
    }
    out.with_suffix(".json").write_text(json.dumps(log, indent=1))
    echo(f"stopped: {result.reason}; weights: {out.with_suffix('.npz')}; log: {out.with_suffix('.json')}")
    return result
