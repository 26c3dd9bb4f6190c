"""Benchmarks of the batched numeric engine against the alternatives people use.

Run them with ``python -m benchmarks`` (``--quick`` for a run of a few minutes). Every
comparison runs its alternatives in the same process, interleaved, on the same
machine, and reports ratios next to the hardware floor measured in that run:

* :mod:`benchmarks.vs_solve_ivp` -- ensemble gradient flow (batched DOP853) against a
  ``scipy.integrate.solve_ivp(method="DOP853")`` loop over members, at matched accuracy;
* :mod:`benchmarks.long_gd` -- long full-batch gradient descent (kou2023 setting)
  against a PyTorch ``SGD`` loop, one network at a time;
* :mod:`benchmarks.probability` -- a convergence-probability estimate over many
  initialisations (dana2025 setting) against the same PyTorch per-run loop;
* :mod:`benchmarks.ncf` -- constrained NCF maximization (kumar2025) with all restarts
  batched against a loop over restarts (NumPy, and PyTorch autograd).

Layering: ``benchmarks`` uses ``numeric`` (never ``verify`` or ``symbolic``), SciPy,
Matplotlib and, when importable, PyTorch.
"""
