r"""Adversarial instance search: look for the instance that violates a statement the most.

A statement "for all data / initialisations satisfying X" is checked on several
structurally different families *and* by optimising the instance: maximise the
violation ratio :math:`r(\theta)=\text{measured}/\text{bound}` over parameters
:math:`\theta` that keep the hypotheses satisfied (the caller's ``violation`` maps any
:math:`\theta\in\mathbb R^k` into the hypothesis set, e.g. by normalising or squashing).
The statement is contradicted when some :math:`r>1`.

Derivative-free (Nelder--Mead) from every start, because the ratios are only piecewise
smooth in the instance (activation patterns switch); the budget is per start.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize


@dataclass(frozen=True)
class Worst:
    """The most violating instance found: its family, ratio and parameters."""

    family: str
    ratio: float
    theta: np.ndarray
    evaluations: int
    per_family: dict[str, float]


def worst_instance(
    violation: Callable[[np.ndarray], float],
    starts: Mapping[str, Sequence[np.ndarray]],
    *,
    budget: int = 200,
) -> Worst:
    """Maximise ``violation`` by Nelder--Mead from every start of every family."""
    best: tuple[float, str, np.ndarray] = (-np.inf, "", np.zeros(0))
    per_family: dict[str, float] = {}
    evaluations = 0

    def objective(theta: np.ndarray) -> float:
        r = float(violation(theta))
        return -r if np.isfinite(r) else np.inf

    for family, thetas in starts.items():
        per_family[family] = -np.inf
        for theta0 in thetas:
            res = minimize(
                objective,
                np.asarray(theta0, float),
                method="Nelder-Mead",
                options={"maxfev": budget, "xatol": 1e-6, "fatol": 1e-9},
            )
            evaluations += int(res.nfev)
            ratio = max(-float(res.fun), float(violation(np.asarray(theta0, float))))
            per_family[family] = max(per_family[family], ratio)
            if ratio > best[0]:
                best = (ratio, family, np.asarray(res.x if -res.fun >= ratio else theta0, float))
    return Worst(best[1], best[0], best[2], evaluations, per_family)
