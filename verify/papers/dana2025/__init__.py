r"""dana2025 -- "Convergence of Shallow ReLU Networks on Weakly Interacting Data".

Dana, Pillaud-Vivien, Bach (NeurIPS 2025, arXiv 2502.16977).  Conventions of every claim:

* network :math:`h_\theta(x)=\frac1p\sum_ja_j\sigma(\langle w_j|x\rangle)` (1/p output scaling,
  both layers trained, no biases), ReLU with :math:`\sigma'(0)=0`;
* mean square loss :math:`L=\frac1{2n}\sum_i(y_i-h_\theta(x_i))^2` (2);
* the p-accelerated flow :math:`\dot\theta=-p\nabla L` (3), integrated either by adaptive
  DOPRI5 (where activation surfaces are only crossed transversally) or by the exact GD map
  with a small step (the paper's own experiments: GD on :math:`pL`);
* App. B: :math:`w_j\sim\mathcal N(0,I_d/d)`, :math:`\mathrm{sign}(a_j)` uniform,
  :math:`|a_j|-\|w_j\|\sim\mathrm{Exp}(1)` (Assumption 1), :math:`y_i\sim\mathcal U([-2,-1]\cup[1,2])`,
  :math:`\|x_i\|\sim\mathcal U[1,2]`;
* the flow is integrated in Gram coordinates (:mod:`numeric.models.shallow_relu`), exact for any d.

Submodules group the claims by topic; importing this package registers all of them.
"""

from verify.papers.dana2025 import convergence, figures, initial_loss, model, orthogonal, phase  # noqa: F401
from verify.registry import Paper

PAPER = Paper(
    key="dana2025",
    title="Convergence of Shallow ReLU Networks on Weakly Interacting Data",
    authors="Léo Dana, Loucas Pillaud-Vivien, Francis Bach",
    venue="2025",
    catalog="shared/papers/dana2025-weakly-interacting.md",
    text="shared/papers/seeds/004_429d00d8b34a8574.txt",
)
