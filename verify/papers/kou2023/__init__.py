r"""kou2023 -- "Implicit Bias of Gradient Descent for Two-layer ReLU and Leaky ReLU Networks on
Nearly-orthogonal Data" (Kou, Chen, Gu; NeurIPS 2023).

Conventions of the paper, used by every claim here (model code: :mod:`numeric.models.fixed_readout`,
exact GD in coefficient form: :mod:`numeric.training.reduced_gd`, data: :mod:`numeric.data.near_orthogonal`):

* :math:`2m` neurons, fixed readout :math:`+1/m` (class :math:`j=+1`) and :math:`-1/m`
  (:math:`j=-1`); only the first layer :math:`W` is trained; no biases;
* :math:`\sigma(z)=\max(\gamma z,z)` (leaky slope :math:`\gamma`; ReLU :math:`\gamma=0`),
  :math:`\sigma'(0)=1`, :math:`\mathrm{sign}(0)=-1`;
* logistic loss averaged over the :math:`n` points; discrete GD with step :math:`\eta`
  (never a flow); i.i.d. :math:`N(0,\sigma_0^2)` initialization;
* data quantities :math:`R_{\min},R_{\max},p` and :math:`\kappa=np/R_{\min}^2`.

Claims are grouped by topic in the submodules below; importing this package registers all of them.
"""

from verify.papers.kou2023 import (  # noqa: F401
    appendix,
    appendix_bcd,
    appendix_ef,
    decomposition,
    digits,
    figures,
    patterns,
    sequences,
    theorems,
)
from verify.registry import Paper

PAPER = Paper(
    key="kou2023",
    title=(
        "Implicit Bias of Gradient Descent for Two-layer ReLU and Leaky ReLU Networks "
        "on Nearly-orthogonal Data"
    ),
    authors="Yiwen Kou, Zixiang Chen, Quanquan Gu (inferred from the content)",
    venue="NeurIPS 2023",
    catalog="shared/papers/kou2023-implicit-bias-gd.md",
    text="shared/papers/seeds/002_6c57c8c6cfff2055.txt",
)
