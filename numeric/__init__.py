"""relu-verify's numeric engine: batched ODE solves and gradient descent of network ensembles.

Layout, by concept:

* :mod:`numeric.backend` -- NumPy / CuPy array backends (one code path for both);
* :mod:`numeric.engine` -- the iteration engine: one solver (``solve``) with two kinds of method,
  explicit Runge-Kutta tableaus and the exact GD map (``gd_map``, front ``descent``), what is
  recorded (``saveat``), what the loops share (``ensemble``), results (``trajectory``), chunking
  of large ensembles, the allocator setting, and the integrators (tableaus, step, control, events);
* :mod:`numeric.models` -- networks, activations, losses and their vector fields;
* :mod:`numeric.training` -- training procedures with loops of their own (minibatch SGD,
  reduced-coordinate GD, active pairs, Neuron Pursuit);
* :mod:`numeric.data` -- data sets, Gram matrices and initial weights;
* :mod:`numeric.measures` -- measurements on weights and trajectories, statistics.

The names below are the public API, importable from here (``from numeric import solve, DOPRI5``).
They load on first use (PEP 562): ``import numeric`` itself costs nothing, and a program that
needs the engine does not pay for SciPy's statistics (~0.7 s).  The project's own modules
import from the defining modules instead, so that :mod:`verify.sources` (which follows import
statements) hashes exactly the code a claim runs.
"""

from __future__ import annotations

import importlib
from typing import Any

_API: dict[str, tuple[str, ...]] = {
    "numeric.backend": (
        "Backend",
        "BackendUnavailable",
        "Rng",
        "array_namespace",
        "cupy_available",
        "get_backend",
        "to_numpy",
    ),
    "numeric.engine.solve": ("solve", "FLOAT32_MIN_RTOL"),
    "numeric.engine.descent": ("gradient_descent",),
    "numeric.engine.gd_map": ("GradientDescent",),
    "numeric.engine.saveat": ("SaveAt",),
    "numeric.engine.trajectory": ("Status", "Trajectory"),
    "numeric.engine.integrators": (
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
        "rk_step",
    ),
    "numeric.models.protocol": ("Model",),
    "numeric.models.activation": ("Activation", "RELU"),
    "numeric.models.losses": ("Loss", "SQUARE", "LOGISTIC"),
    "numeric.models.networks": ("BiasFreeNet",),
    "numeric.models.vector_fields": ("GradientFlow",),
    "numeric.models.shallow_relu": ("ShallowReLU",),
    "numeric.models.fixed_readout": ("FixedReadoutNet",),
    "numeric.models.balanced_relu": ("LogPolarFlow", "PlainFlow"),
    "numeric.models.leaky_balanced": ("LeakyLogPolarFlow",),
    "numeric.models.homogeneous_flow": ("PolarFlow", "polar_flow"),
    "numeric.models.homogeneous_nets": ("HomogeneousNet", "NeuronNCF"),
    "numeric.training.fixed_readout_sgd": ("minibatch_sgd",),
    "numeric.training.reduced_gd": ("ReducedGD",),
    "numeric.training.orthogonal_pairs": ("ActivePairs",),
    "numeric.training.neuron_pursuit": ("PursuitConfig", "neuron_pursuit"),
    "numeric.training.vector_pursuit": ("vector_pursuit",),
    "numeric.data.datasets": ("Dataset", "gaussian_teacher", "symmetrize", "whiten"),
    "numeric.data.near_orthogonal": ("GramData",),
    "numeric.data.digits": ("digit_pair",),
    "numeric.data.initializations": ("balanced_rank_one", "gaussian"),
    "numeric.measures.statistics": ("clopper_pearson", "wilson"),
}
_MODULE_OF = {name: module for module, names in _API.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'numeric' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
