r"""kumar2025 -- "Learning Neural Networks by Neuron Pursuit" (Kumar, Haupt, 2025).

Conventions used by every claim here:

* network eq. 3, :math:`\mathcal H(x;W_{1:L})=W_L\sigma(\cdots\sigma(W_1x))`,
  :math:`\sigma(x)=\max(x,\alpha x)^p` (``numeric.models.homogeneous_nets``); for ``p = 1`` the
  derivative at 0 is the Clarke subgradient :math:`\min(1,\alpha)` (autodiff's choice);
* square loss eq. 1 with the 1/2 (Algorithm 1 and Lemmas 12-13 omit it);
* "L" is the NCF's homogeneity degree (:math:`p+1` for the reduced NCF of a feed-forward net)
  when a statement is about homogeneity, the depth when it is about the network;
* ReLU and leaky ReLU with ``p = 1`` are outside Theorem 7 and Lemma 13; claims report them
  separately (notes) rather than as passes of the theorem.

Claims are grouped by topic: ``ncf`` (Lemmas 8, 9, 14, 19), ``saddle`` (Theorem 7), ``descent``
(Lemmas 12, 13), ``flows`` (NCF flows: Lemmas 1, 6, 10, 11), ``lojasiewicz`` (Assumption 2,
Lemmas 17, 20), ``lemmas`` (Lemmas 2, 3, 15, 16, 21, Assumption 1, Remarks 1-3), ``escape``
(Lemma 5), ``examples`` (App. D.5), ``experiments`` (Theorem 7 for p = 1, stable sets,
Figs. 6-7, App. D.3, D.6; D.3's alignment rates in ``alignment``), ``saddle_figures`` (Figs. 1-4,
Lemmas 4, 18, eq. 9), ``saddle_relu`` (the ReLU panels of Figs. 2, 4) and ``targets`` (NP on
f_2, g_1/g_2, h_1/h_2, modular addition, PVR: Figs. 7b, 8-11).  Neuron Pursuit itself is
``numeric.training.neuron_pursuit`` and the CLI command ``verify pursue``.
"""

from verify.papers.kumar2025 import (  # noqa: F401
    descent,
    escape,
    examples,
    experiments,
    flows,
    lemmas,
    lojasiewicz,
    ncf,
    saddle,
    saddle_figures,
    saddle_relu,
    targets,
)
from verify.registry import Paper

PAPER = Paper(
    key="kumar2025",
    title="Learning Neural Networks by Neuron Pursuit",
    authors="Akshay Kumar, Jarvis Haupt",
    venue="2025",
    catalog="shared/papers/kumar2025-neuron-pursuit.md",
    text="shared/papers/seeds/003_c3c933f3f57b55ca.txt",
)
