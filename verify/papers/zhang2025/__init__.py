"""zhang2025 -- "When Are Bias-Free ReLU Networks Effectively Linear Networks?"

Zhang, Saxe, Latham (TMLR 2025).  Conventions of this paper, used by every claim here:

* activation :math:`\\sigma(z)=\\max(z,\\alpha z)`, :math:`\\alpha\\in[0,1]`;
  subgradient :math:`\\sigma'(0)=0` (the paper sets it explicitly in Prop. 12 and uses it
  implicitly in Prop. 18; on generic symmetric data no pre-activation is ever exactly 0);
* square loss :math:`\\tfrac12\\langle(y-f)^2\\rangle` (mean; Figs. 4, 8 sum), logistic loss
  :math:`\\langle\\ln(1+e^{-yf})\\rangle` (App. C.2; the main text's sign is a typo);
* gradient flow :math:`\\tau\\dot W=-\\nabla\\mathcal L`; GD step :math:`\\eta` = Euler step
  of size :math:`\\eta` at :math:`\\tau=1`.

Claims are grouped by topic in the submodules below; importing this package
registers all of them.
"""

from verify.papers.zhang2025 import (  # noqa: F401
    convergence,
    deep,
    early_phase,
    equivalence,
    expressivity,
    figures,
    identities,
    orthogonal,
    robustness,
    sliding,
)
from verify.registry import Paper

PAPER = Paper(
    key="zhang2025",
    title="When Are Bias-Free ReLU Networks Effectively Linear Networks?",
    authors="Yedi Zhang, Andrew Saxe, Peter E. Latham",
    venue="TMLR 2025 (arXiv 2406.12615)",
    catalog="shared/papers/zhang2025-bias-free-relu.md",
    text="shared/papers/seeds/000_90bc9a77ffe6bba3.txt",
)
