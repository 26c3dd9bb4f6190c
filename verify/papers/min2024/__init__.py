"""min2024 -- "Early Neuron Alignment in Two-layer ReLU Networks with Small Initialization".

Min, Mallada, Vidal (ICLR 2024).  Conventions used by every claim here:

* :math:`f(x)=\\sum_jv_j\\sigma(w_j^\\top x)`, ReLU with :math:`\\sigma'(0)=0` (fixed subgradient);
* loss summed over the samples; exponential :math:`e^{-y\\hat y}` unless stated, logistic with
  App. B's factor 2, :math:`2\\log(1+e^{-y\\hat y})` (Lemma 2 needs it);
* balanced initialization (3) integrated exactly in log-polar coordinates
  (:mod:`numeric.models.balanced_relu`), so :math:`\\epsilon=e^{-10^4}` is an ordinary state;
* geometry (cones, aggregates, :math:`\\mu,\\zeta_1,\\zeta_2,\\xi`) from :mod:`numeric.data.separated_data`.
"""

from verify.papers.min2024 import (  # noqa: F401
    appendix,
    assumptions,
    balanced,
    experiments,
    figures,
    final_phase,
    geometry,
    lemmas,
    losses,
    proof,
    proof_alignment,
    random_init,
    t1_scaling,
    theorem1,
)
from verify.registry import Paper

PAPER = Paper(
    key="min2024",
    title="Early Neuron Alignment in Two-layer ReLU Networks with Small Initialization",
    authors="Hancheng Min, Enrique Mallada, René Vidal (inferred from the content)",
    venue="ICLR 2024",
    catalog="shared/papers/min2024-early-alignment.md",
    text="shared/papers/seeds/001_3d2e519e1927f769.txt",
)
