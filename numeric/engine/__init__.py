"""The iteration engine: every ensemble member advanced by one batched loop.

* :mod:`~numeric.engine.solve` -- the solver: validation and chunking once, then explicit
  Runge-Kutta integration (per-member step control) or the GD map;
* :mod:`~numeric.engine.gd_map` -- gradient descent as a method of the solver (``dt = lr``);
* :mod:`~numeric.engine.descent` -- ``gradient_descent``, the documented front of that method;
* :mod:`~numeric.engine.saveat` -- what a run records (times or step indices, observer, states);
* :mod:`~numeric.engine.ensemble` -- what both loops share: conventions, validation, outputs, the
  active members and the results of those that stopped (``Members``);
* :mod:`~numeric.engine.trajectory` -- the result: outputs, per-member status, statistics;
* :mod:`~numeric.engine.chunking` -- ensembles larger than memory, run in chunks;
* :mod:`~numeric.engine.allocator` -- the process allocator setting of the hot loops;
* :mod:`~numeric.engine.integrators` -- tableaus as data, one RK step, step control, events.
"""
