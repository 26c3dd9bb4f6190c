"""Measures: quantities computed from weights, trajectories and frequencies.

* :mod:`~numeric.measures.metrics` -- norms, ranks, alignments, fits on weight ensembles;
* :mod:`~numeric.measures.neuron_events` -- per-neuron activation events along a trajectory;
* :mod:`~numeric.measures.statistics` -- confidence intervals and threshold fits.
"""
