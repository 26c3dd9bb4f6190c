r"""kumar2025 -- "Learning Neural Networks by Neuron Pursuit" (Kumar, Haupt, 2025).

Conventions used by every claim here:

* network eq. 3, :math:`\mathcal H(x;W_{1:L})=W_L\sigma(\cdots\sigma(W_1x))`,
  :math:`\sigma(x)=\max(x,\alpha x)^p` (``numeric.homogeneous_nets``); for ``p = 1`` the
  derivative at 0 is the Clarke subgradient :math:`\min(1,\alpha)` (autodiff's choice);
* square loss eq. 1 with the 1/2 (Algorithm 1 and Lemmas 12-13 omit it);
* "L" is the NCF's homogeneity degree (:math:`p+1` for the reduced NCF of a feed-forward net)
  when a statement is about homogeneity, the depth when it is about the network;
* ReLU and leaky ReLU with ``p = 1`` are outside Theorem 7 and Lemma 13; claims report them
  separately (notes) rather than as passes of the theorem.

Claims are grouped by topic: ``ncf`` (Lemmas 8, 9, 14), ``saddle`` (Theorem 7),
``examples`` (App. D.5).  Neuron Pursuit itself is ``numeric.neuron_pursuit`` and the CLI
command ``verify pursue``.
"""

from verify.papers.kumar2025 import descent, examples, ncf, saddle  # noqa: F401
