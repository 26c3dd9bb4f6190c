r"""Parameters a user may override with ``verify run --set NAME=VALUE``, and their domains.

A claim reads a size or a hyper-parameter with ``ctx.param(name, ...)``; the user can
replace it for every selected claim that uses it.  Values are validated here, before
anything runs, so bad input costs nothing and loses no result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from verify.errors import UserError


@dataclass(frozen=True)
class Domain:
    description: str
    parse: Callable[[str], Any]
    valid: Callable[[Any], bool]


def _int(s: str) -> int:
    return int(s)


def _float(s: str) -> float:
    return float(s)


SIZE = Domain("an integer >= 1", _int, lambda v: v >= 1)
POSITIVE = Domain("a finite number > 0", _float, lambda v: 0 < v < float("inf"))
UNIT_INTERVAL = Domain("a number in [0, 1]", _float, lambda v: 0.0 <= v <= 1.0)

DOMAINS: dict[str, Domain] = {
    # sizes: samples, input dimension, width, depth, ensemble members, seeds, steps
    "P": SIZE,
    "n": SIZE,
    "D": SIZE,
    "d": SIZE,
    "H": SIZE,
    "m": SIZE,
    "p": SIZE,
    "L": Domain("an integer >= 2", _int, lambda v: v >= 2),
    "B": SIZE,
    "seeds": SIZE,
    "steps": SIZE,
    "trials": SIZE,
    "exact_steps": SIZE,
    "epochs": SIZE,
    "gd_steps": SIZE,  # kumar2025: GD steps per Neuron Pursuit iteration
    "max_iter": SIZE,  # kumar2025: Neuron Pursuit iterations
    "n_train": SIZE,
    "n_test": SIZE,
    "per_class": SIZE,  # min2024: digit images per class
    "starts": SIZE,  # kumar2025: NCF restarts / Monte-Carlo starts
    "draws": SIZE,  # kumar2025: independent datasets / saddles drawn
    # kumar2025 modular addition: the modulus of (a + b) mod q
    "modulus": Domain("an integer >= 2", _int, lambda v: v >= 2),
    # scales and rates
    "w_init": POSITIVE,
    "lr": POSITIVE,
    "T": POSITIVE,
    "rtol": POSITIVE,
    # min2024: the data separation mu of Assumption 1 (cosine), in (0, 1]
    "mu": Domain("a number in (0, 1]", _float, lambda v: 0.0 < v <= 1.0),
    # the leaky-ReLU slope of the papers, alpha in [0, 1]
    "alpha": UNIT_INTERVAL,
    # ratio of consecutive scales in a delta grid (kumar2025 Theorem 7)
    "delta_ratio": Domain("a number in (0, 1)", _float, lambda v: 0.0 < v < 1.0),
    # kou2023: kappa = n p / R_min^2 of controlled-Gram data (one value replaces the claim's list)
    "kappa": Domain("a number >= 0", _float, lambda v: 0.0 <= v < float("inf")),
    # kou2023's leaky slope gamma (one value replaces the claim's list of slopes; 0 = ReLU)
    "gamma": UNIT_INTERVAL,
}


def validate_param(name: str, value: Any) -> Any:
    """Parse and check one override; :class:`UserError` (exit 2) if it is out of its domain."""
    if name not in DOMAINS:
        raise UserError(f"unknown parameter {name!r}; known: {', '.join(sorted(DOMAINS))}")
    domain = DOMAINS[name]
    try:
        parsed = domain.parse(value) if isinstance(value, str) else value
    except ValueError:
        raise UserError(f"invalid value {name}={value!r}: expected {domain.description}") from None
    if not domain.valid(parsed):
        raise UserError(f"invalid value {name}={value!r}: expected {domain.description}")
    return parsed


def parse_assignments(items: list[str]) -> dict[str, Any]:
    """``["H=100", "alpha=0.5"]`` -> validated ``{"H": 100, "alpha": 0.5}``."""
    out: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise UserError(f"--set expects NAME=VALUE, got {item!r}")
        out[name.strip()] = validate_param(name.strip(), value.strip())
    return out
