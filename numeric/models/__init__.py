"""Models: networks, their activation and loss, and the vector fields they train by.

* :mod:`~numeric.models.protocol` -- :class:`~numeric.models.protocol.Model`, the interface every
  model implements (pack / unpack, ``args(backend, X, y, **hyper)``, ``loss_value``, the field as
  ``__call__``, ``observer``; optional fused ``descend``) and the one flat parameter layout;
* :mod:`~numeric.models.activation`, :mod:`~numeric.models.losses` -- the shared pieces;
* :mod:`~numeric.models.networks`, :mod:`~numeric.models.vector_fields` -- deep bias-free nets and
  their gradient flow (zhang2025);
* :mod:`~numeric.models.shallow_relu` -- mean-field two-layer nets (dana2025);
* :mod:`~numeric.models.balanced_relu`, :mod:`~numeric.models.leaky_balanced` -- balanced flows
  in log-polar coordinates (min2024);
* :mod:`~numeric.models.fixed_readout` -- the fixed-readout net (kou2023);
* :mod:`~numeric.models.homogeneous_nets`, :mod:`~numeric.models.homogeneous_flow` -- deep
  homogeneous nets and polar flows of homogeneous functions (kumar2025).
"""
