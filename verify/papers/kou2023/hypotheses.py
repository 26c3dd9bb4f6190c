r"""The hypotheses of kou2023, declared once; claims list the ones they assume.

Theorem 4.1 (leaky ReLU) and Theorem 4.3 (ReLU) share the step-size and initialization
conditions; the appendix restates them with a factor :math:`\gamma` as (B.2)-(B.4). The
constants :math:`C` are unspecified, so these conditions have no quantitative regime test:
the claims choose sizes far inside them and the controls break them by orders of magnitude.
"""

from __future__ import annotations

from verify.hypotheses import Hypothesis

LEAKY = Hypothesis(
    "leaky ReLU",
    wording=r"$\sigma(z)=\max(\gamma z,z)$, $\gamma\in(0,1)$, $\sigma'(0)=1$; fixed readout $\pm1/m$",
)
RELU = Hypothesis("ReLU", wording=r"$\sigma(z)=\max(0,z)$, $\sigma'(0)=1$; fixed readout $\pm1/m$")
NEAR_ORTH = Hypothesis(
    "near orthogonality", wording=r"$R_{\min}^2\ge C\gamma^{-4}R^2np$ (nearly orthogonal, Theorem 4.1)"
)
NEAR_ORTH_RELU = Hypothesis("near orthogonality (ReLU)", wording=r"$R_{\min}^2\ge CR^2np$")
STEP = Hypothesis("small step", wording=r"$\eta\le nm/(CR_{\max}^2)$")
SMALL_INIT = Hypothesis("small init", wording=r"$\sigma_0\le(CR_{\max}\sqrt{\log(mn/\delta)})^{-1}$")
WIDTH = Hypothesis("m >= C log(n/delta)", wording=r"$m\ge C\log(n/\delta)$")
SEPARABLE = Hypothesis("nearly orthogonal (separable) data")
INIT_B2 = Hypothesis(
    "(B.2) small init", wording=r"$\sigma_0\le\gamma(CR_{\max}\sqrt{\log(mn/\delta)})^{-1}$ (B.2)"
)
STEP_B3 = Hypothesis("(B.3) small step", wording=r"$\eta\le nm/(CR_{\max}^2)$ (B.3)")
NEAR_ORTH_B4 = Hypothesis("(B.4) near orthogonality", wording=r"$R_{\min}^2\ge C\gamma^{-4}R^2np$ (B.4)")

THEOREM_4_1 = (LEAKY, NEAR_ORTH, STEP, SMALL_INIT)
THEOREM_4_3 = (RELU, NEAR_ORTH_RELU, WIDTH, STEP, SMALL_INIT)
APPENDIX_B = (LEAKY, INIT_B2, STEP_B3, NEAR_ORTH_B4)
