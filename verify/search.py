r"""Adversarial instance search: look for the instance that violates a statement the most.

A statement "for all data / initialisations satisfying X" is checked on several
structurally different families *and* by optimising the instance: maximise the
violation ratio :math:`r(\theta)=\text{measured}/\text{bound}` over parameters
:math:`\theta` that keep the hypotheses satisfied (the caller's ``violation`` maps any
:math:`\theta\in\mathbb R^k` into the hypothesis set, e.g. by normalising or squashing).
The statement is contradicted when some :math:`r>1`.

Derivative-free (Nelder--Mead) from every start, because the ratios are only piecewise
smooth in the instance (activation patterns switch); the budget is per start. The first simplex
steps at least ``step`` (default 1/2) along every coordinate: SciPy's own steps 5% of a
coordinate and 0.00025 where it is 0, which keeps a search started at 0 (a family's centre,
a squashed parameter at its midpoint) within 1e-3 of its start for the whole of a small budget.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit


@dataclass(frozen=True)
class Worst:
    """The most violating instance found: its family, ratio and parameters.

    ``ratio`` is NaN when some instance's measurement was NaN (``undefined`` counts them): the
    statement could not be evaluated there, which a search must not pass over.
    """

    family: str
    ratio: float
    theta: np.ndarray
    evaluations: int
    per_family: dict[str, float]
    undefined: int = 0


def worst_instance(
    violation: Callable[[np.ndarray], float],
    starts: Mapping[str, Sequence[np.ndarray]],
    *,
    budget: int = 200,
    step: float = 0.5,
) -> Worst:
    """Maximise ``violation`` by Nelder--Mead from every start of every family.

    Every evaluation counts (the optimiser's own result is not re-evaluated): the worst is the
    largest ratio seen anywhere, an infinite ratio included (the optimiser sees a large finite
    value instead, so its arithmetic stays finite)."""
    best: list = [-np.inf, "", np.zeros(0)]
    per_family: dict[str, float] = {}
    counts = {"evaluations": 0, "undefined": 0}
    family = ""

    def objective(theta: np.ndarray) -> float:
        r = float(violation(theta))
        counts["evaluations"] += 1
        if np.isnan(r):
            counts["undefined"] += 1
            return np.inf
        per_family[family] = max(per_family[family], r)
        if r > best[0]:
            best[:] = [r, family, np.array(theta, float)]
        return -min(r, np.finfo(float).max)

    for family, thetas in starts.items():
        per_family[family] = -np.inf
        for theta0 in thetas:
            x0 = np.asarray(theta0, float)
            steps = np.maximum(step, 0.05 * np.abs(x0))
            minimize(
                objective,
                x0,
                method="Nelder-Mead",
                options={
                    "maxfev": budget,
                    "xatol": 1e-6,
                    "fatol": 1e-9,
                    "initial_simplex": np.vstack([x0, x0 + np.diag(steps)]),
                },
            )
    ratio = np.nan if counts["undefined"] else best[0]
    return Worst(best[1], ratio, best[2], counts["evaluations"], per_family, counts["undefined"])


def squash(z: float, lo: float = 0.0, hi: float = 1.0) -> float:
    r"""The logistic map of a search parameter into ``[lo, hi]``: :math:`lo+(hi-lo)\,\mathrm{sigmoid}(z)`.

    How a :func:`worst_instance` parameter :math:`z\in\mathbb R` reaches a bounded hypothesis.  The
    sigmoid is SciPy's ``expit``: no overflow for any ``z`` (``1/(1+e^{-z})`` overflows for
    :math:`z<-709`) and accurate to a few ulp relative in both tails, so a parameter reaches values
    :math:`\sim e^{z}` near ``lo`` (the form :math:`\tfrac12(1+\tanh(z/2))` cancels there: exactly
    ``lo`` from :math:`z\approx-37`).  With the defaults the result is the sigmoid itself.
    """
    return lo + (hi - lo) * float(expit(z))


def softplus(z: np.ndarray | float) -> np.ndarray:
    r"""The map of search parameters onto :math:`(0,\infty)`: :math:`\ln(1+e^z)`, elementwise, as
    ``logaddexp(0, z)`` (no overflow; :math:`\approx z` for large z, :math:`e^z` for very negative z)."""
    return np.logaddexp(0.0, z)
