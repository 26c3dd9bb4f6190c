"""Explicit Runge-Kutta integrators: tableaus (data), one batched step, step control.

Public API, grouped by concept:

* methods as data: :class:`ButcherTableau`; ``EULER``, ``MIDPOINT``, ``HEUN``, ``RK4``,
  ``DOPRI5``, ``DOP853``; ``ALL_METHODS``; :func:`method_by_name`;
* the step: :func:`rk_step` (:func:`rk_stages` also returns the stage buffer);
* dense output: :class:`DenseOutput` (tableau data), :mod:`numeric.engine.integrators.dense`;
* events: :class:`Switching` (a field's switching surfaces), :class:`EventTrajectory`
  (:mod:`numeric.engine.integrators.events`);
* step control: :class:`FixedStep`, :class:`AdaptiveStep`.

The solve loops that use them are :func:`numeric.engine.solve.solve` and
:func:`numeric.engine.descent.gradient_descent`.
"""

from numeric.engine.integrators.control import AdaptiveStep, FixedStep
from numeric.engine.integrators.events import EventTrajectory, Switching
from numeric.engine.integrators.methods import (
    ALL_METHODS,
    DOP853,
    DOPRI5,
    EULER,
    HEUN,
    MIDPOINT,
    RK4,
    VectorField,
    method_by_name,
    rk_stages,
    rk_step,
)
from numeric.engine.integrators.tableau import ButcherTableau, DenseOutput

__all__ = [
    "ALL_METHODS",
    "DOP853",
    "DOPRI5",
    "EULER",
    "HEUN",
    "MIDPOINT",
    "RK4",
    "AdaptiveStep",
    "ButcherTableau",
    "DenseOutput",
    "EventTrajectory",
    "FixedStep",
    "Switching",
    "VectorField",
    "method_by_name",
    "rk_stages",
    "rk_step",
]
