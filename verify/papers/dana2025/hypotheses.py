r"""The hypotheses of dana2025, declared once; claims list the ones they assume.

Quantitative ones carry the regime test a run must pass (``ctx.regime``): Theorem 1's
width is of order :math:`\log n`, which is only a statement about *few* neurons when
:math:`p\ll n` (here :math:`p\le n/4`); Assumption 2 is measured as the ratio of
:math:`\|X^\top X-D_X\|` to its limit (4); Assumption 1 as :math:`\min_j|a_j(0)|-\|w_j(0)\|`;
orthogonality on the Gram matrix a run uses, to rounding; Theorem 1's width against its formula.
"""

from __future__ import annotations

import numpy as np

from verify.hypotheses import Hypothesis

ASSUMPTION_1 = Hypothesis(
    "Assumption 1",
    wording=r"Assumption 1: $|a_j(0)|\ge\|w_j(0)\|$ for every neuron $j$",
    condition="min_j |a_j(0)| - ||w_j(0)|| >= 0",
    test=lambda gap: gap >= 0,
)
ASSUMPTION_2 = Hypothesis(
    "Assumption 2",
    wording=r"Assumption 2 (4): $\|X^\top X-D_X\|<\frac{(C_x^-)^2}{2\sqrt n}\frac{C_y^-}{C_y^+}$",
    condition="||X^T X - D_X|| / limit(4) < 1",
    test=lambda ratio: ratio < 1,
)
WIDTH_T1 = Hypothesis(
    "width of Theorem 1",
    wording=r"$p\ge4\log(\frac{4n}\varepsilon)(1+(C_{a,w}\frac{C_x^+}{C_y^+})^2)$",
    condition="p >= ceil(4 log(4n/eps)) (the C_aw factor is 1 + O(1/d), dropped)",
    test=lambda p, n, eps: p >= np.ceil(4 * np.log(4 * n / eps)),
)
FEW_NEURONS = Hypothesis(
    "p << n",
    wording=r"few neurons: $p$ of order $\log n$, $p\ll n$ (the point of Theorem 1)",
    condition="p <= n / 4",
    test=lambda p, n: p <= n / 4,
)
ORTHOGONAL = Hypothesis(
    "orthogonal inputs",
    wording=r"orthogonal inputs: $\langle x_i|x_k\rangle=0$ for $i\ne k$",
    condition="||X^T X - D_X|| / max_i ||x_i||^2 <= 64 eps on the Gram matrix the run uses (exact up to "
    "rounding)",
    test=lambda off_ratio: off_ratio <= 64 * 2.0**-52,
)
P_FLOW = Hypothesis("p-accelerated flow (3)", wording=r"the p-accelerated flow $\dot\theta=-p\nabla L$ (3)")
APP_B = Hypothesis(
    "App. B init",
    wording=r"App. B initialization: $w_j\sim\mathcal N(0,I_d/d)$, $|a_j|-\|w_j\|\sim\mathrm{Exp}(1)$, "
    r"random sign",
)
