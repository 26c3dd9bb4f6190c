"""Training procedures with loops of their own (not yet on the engine's two loops).

* :mod:`~numeric.training.fixed_readout_sgd` -- minibatch SGD of the fixed-readout net;
* :mod:`~numeric.training.reduced_gd` -- exact GD of the fixed-readout net in data coordinates;
* :mod:`~numeric.training.orthogonal_pairs` -- GD on orthogonal inputs, on the active pairs only;
* :mod:`~numeric.training.neuron_pursuit`, :mod:`~numeric.training.vector_pursuit` -- Neuron Pursuit.
"""
