"""Data: the papers' data sets and Gram matrices, built exactly on the host, and initial weights.

* :mod:`~numeric.data.datasets` -- :class:`~numeric.data.datasets.Dataset` and its generators;
* :mod:`~numeric.data.digits` -- scikit-learn's digits as an MNIST stand-in;
* :mod:`~numeric.data.separated_data` -- geometry of well-separated binary data;
* :mod:`~numeric.data.near_orthogonal`, :mod:`~numeric.data.weakly_correlated` -- Gram matrices
  of (nearly) orthogonal and correlated inputs;
* :mod:`~numeric.data.initializations` -- initial weights of bias-free nets.
"""
