"""The iteration engine: every ensemble member advanced by one batched loop.

* :mod:`~numeric.engine.solve` -- explicit Runge-Kutta integration, per-member step control;
* :mod:`~numeric.engine.descent` -- the exact gradient-descent map;
* :mod:`~numeric.engine.ensemble` -- what both loops share: conventions, validation, outputs;
* :mod:`~numeric.engine.trajectory` -- the result: outputs, per-member status, statistics;
* :mod:`~numeric.engine.chunking` -- ensembles larger than memory, run in chunks;
* :mod:`~numeric.engine.allocator` -- the process allocator setting of the hot loops;
* :mod:`~numeric.engine.integrators` -- tableaus as data, one RK step, step control, events.
"""
