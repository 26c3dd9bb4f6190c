r"""The hypotheses of kou2023, declared once; claims list the ones they assume.

Theorem 4.1 (leaky ReLU) and Theorem 4.3 (ReLU) share the step-size and initialization
conditions; the appendix restates them with a factor :math:`\gamma` as (B.2)-(B.4). The
paper never gives its "sufficiently large" constant :math:`C`; the regime tests
(``ctx.regime``, measured by :func:`verify.papers.kou2023.common.record_regime` on the setup a
claim actually runs) fix it where the paper's own explicit constants do:

* near orthogonality: Lemma E.1 needs :math:`2c'c_1^{-1}R_{\min}^{-2}pn\le\frac12` for its stated
  :math:`c_2\ge0.3`, :math:`c_3\le5`. With :math:`c'=2.5` (Lemma A.2) and the balance constant at its
  largest, :math:`c_1\le R_{\min}^2/R_{\max}^2` (E.12), this reads :math:`R^2\kappa\le0.1`
  (:math:`\kappa=np/R_{\min}^2`, :math:`C=10`): a necessary condition only, since a smaller
  :math:`c_1` or a larger :math:`c'` asks for a smaller :math:`\kappa`. The ReLU regime therefore
  also reads the premise itself with the run's measured constants (:math:`c'=m/\min_i|S_i^{(0)}|`,
  :math:`c_1` the smallest balance ratio over its records; typically :math:`c'\approx3`-:math:`4`,
  :math:`c_1\approx0.4`-:math:`0.6`, so :math:`\kappa\lesssim0.03`). Theorem 4.1 and (B.4) state the
  leaky condition with the same :math:`C` and the factor :math:`\gamma^{-4}`:
  :math:`\gamma^{-4}R^2\kappa\le0.1` at the smallest slope run (the necessary reading: the leaky
  proofs' balance constants are not instantiated here);
* step size: :math:`\eta R_{\max}^2/(nm)` bounds every coefficient's per-step change, the
  :math:`C_2` of the sequence lemma (5.6)/H.1, whose upper bound carries :math:`e^{C_2}`; the regime
  is :math:`\eta R_{\max}^2/(nm)\le0.1` (:math:`e^{C_2}\le1.11`);
* initialization: the proofs use :math:`\sigma_0` only through
  :math:`\beta=\max|\langle w^{(0)}_{j,r},x_i\rangle|` ((B.5) :math:`\beta\le c\gamma`, (E.5)
  :math:`\beta\le c`), and the rate bounds (B.31)-(B.34), (E.13)-(E.23) carry :math:`e^{2\beta}`,
  :math:`e^{-(\gamma+1)\beta}`: the regime is :math:`\beta\le0.01` (factors within 2%), and
  :math:`\beta\le0.01\gamma` for (B.2);
* width: :math:`m\ge C\log(n/\delta)` exists to make every point activate a neuron of its own class
  at initialization (:math:`P(|S_i^{(0)}|=0)=2^{-m}`, so :math:`m\ge\log_2(n/\delta)` is the union
  bound); without it a point is never fitted (the controls). The regime is measured as that event,
  :math:`\min_i|S_i^{(0)}|\ge1` on every member; the rest of the condition only sets the constant
  :math:`c'=m/\min_i|S_i^{(0)}|`, which the claims instantiate with its measured value (the explicit
  :math:`c'=2.5` of Lemma A.2 is not required: Lemmas E.1, G.1 are checked with the measured :math:`c'`).
"""

from __future__ import annotations

import numpy as np

from verify.hypotheses import Hypothesis

# C of the near-orthogonality conditions, from Lemma E.1's explicit constants (module docstring).
NEAR_ORTH_C = 10.0
# Largest per-step coefficient change eta R_max^2/(nm) in the regime: e^(0.1) <= 1.11 in (5.6)/H.1.
STEP_MAX = 0.1
# Largest beta = max |<w0, x_i>| in the regime: e^(2 beta) <= 1.02 in the rate bounds.
BETA_MAX = 0.01

LEAKY = Hypothesis(
    "leaky ReLU",
    wording=r"$\sigma(z)=\max(\gamma z,z)$, $\gamma\in(0,1)$, $\sigma'(0)=1$; fixed readout $\pm1/m$",
    condition="0 < gamma < 1 on every member (exact)",
    test=lambda gamma_min, gamma_max: 0 < gamma_min and gamma_max < 1,
)
RELU = Hypothesis(
    "ReLU",
    wording=r"$\sigma(z)=\max(0,z)$, $\sigma'(0)=1$; fixed readout $\pm1/m$",
    condition="gamma = 0 on every member (exact)",
    test=lambda gamma_max: gamma_max == 0,
)
NEAR_ORTH = Hypothesis(
    "near orthogonality",
    wording=r"$R_{\min}^2\ge C\gamma^{-4}R^2np$ (nearly orthogonal, Theorem 4.1)",
    condition="gamma^-4 R^2 kappa <= 0.1 (C = 10, Lemma E.1), kappa = n p/R_min^2, smallest slope",
    test=lambda kappa, R, gamma: gamma > 0 and R**2 * kappa / gamma**4 <= 1 / NEAR_ORTH_C,
)
NEAR_ORTH_RELU = Hypothesis(
    "near orthogonality (ReLU)",
    wording=r"$R_{\min}^2\ge CR^2np$",
    condition="Lemma E.1's premise 2 c' kappa/c1 <= 1/2 with the run's measured c' = m/min_i |S_i(0)| and "
    "balance constant c1, and R^2 kappa <= 0.1 (the same premise at c' = 2.5 and the largest c1 = R^-2)",
    test=lambda kappa, R, e1_premise: e1_premise <= 0.5 and R**2 * kappa <= 1 / NEAR_ORTH_C,
)
STEP = Hypothesis(
    "small step",
    wording=r"$\eta\le nm/(CR_{\max}^2)$",
    condition="eta R_max^2/(nm) <= 0.1 (per-step change C_2 in (5.6)/H.1, e^C_2 <= 1.11)",
    test=lambda step: step <= STEP_MAX,
)
SMALL_INIT = Hypothesis(
    "small init",
    wording=r"$\sigma_0\le(CR_{\max}\sqrt{\log(mn/\delta)})^{-1}$",
    condition="beta = max |<w0_jr, x_i>| <= 0.01 ((E.5); e^(2 beta) <= 1.02 in the rate bounds)",
    test=lambda beta: beta <= BETA_MAX,
)
WIDTH = Hypothesis(
    "m >= C log(n/delta)",
    wording=r"$m\ge C\log(n/\delta)$",
    condition="min_i |S_i(0)| >= 1 on every member (the event the width buys; c' = m/min|S_i(0)| measured)",
    test=lambda min_active: min_active >= 1,
)
INIT_B2 = Hypothesis(
    "(B.2) small init",
    wording=r"$\sigma_0\le\gamma(CR_{\max}\sqrt{\log(mn/\delta)})^{-1}$ (B.2)",
    condition="beta <= 0.01 gamma, every member ((B.5) beta <= c gamma)",
    test=lambda beta, gamma: gamma > 0 and beta <= BETA_MAX * gamma,
)
STEP_B3 = Hypothesis(
    "(B.3) small step",
    wording=r"$\eta\le nm/(CR_{\max}^2)$ (B.3)",
    condition=STEP.condition,
    test=STEP.test,
)
NEAR_ORTH_B4 = Hypothesis(
    "(B.4) near orthogonality",
    wording=r"$R_{\min}^2\ge C\gamma^{-4}R^2np$ (B.4)",
    condition=NEAR_ORTH.condition,
    test=NEAR_ORTH.test,
)
ORTHOGONAL = Hypothesis(
    "mutually orthogonal inputs",
    condition="p = max_(i != k) |<x_i, x_k>| = 0 exactly",
    test=lambda p: p == 0,
)
UNIT_ORTH_44 = Hypothesis(
    "orthogonal data $x_i=e_i$, $n/2$ points per class",
    condition="G = I exactly and y_i = +1 for i <= n/2, -1 after (gram_dev = max |G - I|, label_dev = "
    "labels off that pattern)",
    test=lambda gram_dev, label_dev: gram_dev == 0 and label_dev == 0,
)
UNIT_ORTH_F3 = Hypothesis(
    "$x_i=e_i$, $y_i=+1$ for $i\\le n/2$", condition=UNIT_ORTH_44.condition, test=UNIT_ORTH_44.test
)
LIN_INDEP = Hypothesis(
    "linearly independent inputs (implied by near orthogonality)",
    condition="lambda_min(G)/R_max^2 > 1e-12 (far above eigvalsh's rounding, ~ n eps)",
    test=lambda lam_rel: lam_rel > 1e-12,
)
MARGINS_NONNEG = Hypothesis(
    "margins $q\\ge0$",
    condition="min of the margins the check reads >= 0 (exact)",
    test=lambda q_min: q_min >= 0,
)
H4_ORDER = Hypothesis(
    "$b\\ge a>0$",
    condition="min b/a >= 1 and min a > 0 over the instances (exact)",
    test=lambda ratio_min, a_min: ratio_min >= 1 and a_min > 0,
)
# Lemma A.1's dimension condition: Laurent-Massart, P(chi2_d - d >= 2 sqrt(d x) + 2 x) <= e^-x and
# P(d - chi2_d >= 2 sqrt(d x)) <= e^-x, with x = log(8m/delta) (2m rows, both tails, half of delta), keep
# every ||w0||^2/sigma0^2 in [d/2, 3d/2] once 2 sqrt(d x) + 2x <= d/2, i.e. d >= (2 + 2 sqrt 2)^2 x.
A1_DIM = Hypothesis(
    r"$d=\Omega(\log(mn/\delta))$",
    condition="d >= (2 + 2 sqrt 2)^2 log(8m/delta) (Laurent-Massart keeps every norm in the band)",
    test=lambda d, m, delta: d >= (2 + 2 * np.sqrt(2)) ** 2 * np.log(8 * m / delta),
)
A2_WIDTH = Hypothesis(
    r"$m\ge50\log(2n/\delta)$",
    condition="m >= 50 log(2n/delta) (the lemma's explicit constant)",
    test=lambda m, n, delta: m >= 50 * np.log(2 * n / delta),
)

THEOREM_4_1 = (LEAKY, NEAR_ORTH, STEP, SMALL_INIT)
THEOREM_4_3 = (RELU, NEAR_ORTH_RELU, WIDTH, STEP, SMALL_INIT)
APPENDIX_B = (LEAKY, INIT_B2, STEP_B3, NEAR_ORTH_B4)
