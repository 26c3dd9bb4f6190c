r"""The hypotheses of min2024, declared once; claims list the ones they assume.

Controls name the one they break (``ctx.control(..., breaks=H, must_break=[...])``); the
names below keep the wordings the controls have always used, so ``breaks="balanced
initialization (3)"`` still resolves.  The quantitative ones carry the regime test a run must
pass (``ctx.regime``; the measurements are :mod:`verify.papers.min2024.regimes`):

* Assumption 1 (:math:`\mu>0`) and Assumption 2 (:math:`\zeta_2>0`) are exact conditions on the
  run's data and initial shapes, measured with :func:`numeric.data.separated_data.separation` and
  :func:`~numeric.data.separated_data.zeta2` (worst over the run's data sets and members);
* balancedness (3) is measured on the initial state the integrator receives, as
  :math:`\max_j|v_j^2/\|w_j\|^2-1|` against the rounding of building it, :math:`(D+4)\epsilon_{64}`
  (one normalisation and one D-term sum of squares; the ratio is scale-free, so it is measured at any
  :math:`\epsilon`, even where :math:`e^{\rho}` underflows);
* "small initialization, :math:`\epsilon\to0`" is asymptotic.  Its operative content (Sec. 3, Lemma 2)
  is that during the alignment phase the field is the reduced field (4) up to
  :math:`|-\ell'(y,f)-y|\le2|f|`, so the regime is measured as :math:`\max_{i,t}|f(x_i;t)|\le
  5\cdot10^{-3}` over the window the claim uses: there the field is the reduced one to 1% relative
  (measured in log10, as a rigorous Grönwall bound when the run's trajectory is not at hand);
* eq. (28) is the paper's own quantitative form of "small": :math:`\log\epsilon` is measured against
  the log of (28)'s right-hand side (with the catalog's corrections, 8 for 4 and
  :math:`\zeta=\min\{\zeta_1,\zeta_2\}`), and eq. (29) against (28)'s first term;
* Lemma 1's and Lemma 3's :math:`\epsilon\le1/(4\sqrt hX_{\max}W_{\max}^2)` and :math:`t\le T`,
  Lemmas 2, 4 and 10's :math:`|f|\le1`, the leaky slope :math:`\alpha\in[0,1]`, Lemma 15's separable
  data and positive margins: exact, measured on the states, data and times the claim evaluates;
* the experiments' "small initialization" (Sec. 4, App. A) is the paper's scale
  :math:`\alpha=10^{-6}` of :math:`W_{ij},v_j\sim\mathcal N(0,\alpha^2)`: the figures are statements
  about that setting, so a run at a larger scale is outside it;
* the orthogonal control data of Fig. 9 (:math:`\mu=0`) to rounding, :math:`|\mu|\le10^{-12}`.
"""

from __future__ import annotations

import numpy as np

from verify.hypotheses import Hypothesis

EPS64 = float(np.finfo(np.float64).eps)
F_SMALL = 5e-3  # max |f| in the alignment window: Lemma 2's field error 2|f| is then <= 1% of the field

# -- the data --------------------------------------------------------------------------------
ASSUMPTION_1 = Hypothesis(
    "Assumption 1",
    wording=r"Assumption 1: $\mu>0$",
    condition="mu = min_ij <x_i y_i, x_j y_j> / (|x_i| |x_j|) > 0 on the run's data (worst data set)",
    test=lambda mu: mu > 0,
)
ASSUMPTION_2 = Hypothesis(
    "Assumption 2",
    wording=r"Assumption 2: $\max_{j\in\mathcal V_\pm}\cos(w_j(0),x_\mp)<1$, i.e. $\zeta_2>0$",
    condition="zeta_2 = 1 - max_{j in V+-} cos(w_j(0), x_-+)^2 > 0 (worst member)",
    test=lambda zeta2: zeta2 > 0,
)
ORTHOGONAL_DATA = Hypothesis(
    "mu = 0",
    wording=r"$\mu=0$ (Fig. 9: orthogonal classes)",
    condition="|mu| <= 1e-12 (rounding of the planar data)",
    test=lambda mu: abs(mu) <= 1e-12,
)


# -- the initialization --------------------------------------------------------------------------
def _balanced(imbalance: float, D: int) -> bool:
    """``max_j |v_j^2 / |w_j|^2 - 1|`` within the rounding of a normalisation and a D-term sum of squares."""
    return imbalance <= (D + 4) * EPS64


BALANCED = Hypothesis(
    "balanced initialization (3)",
    wording=r"balanced initialization (3): $W(0)=\epsilon W_0$, $|v_j(0)|=\|w_j(0)\|$",
    condition="max_j |v_j(0)^2 / |w_j(0)|^2 - 1| <= (D + 4) eps64 (rounding of building the state)",
    test=_balanced,
)
BALANCED_STATE = Hypothesis(
    r"balanced: $v_j=\pm\|w_j\|$",
    condition="max_j |v_j^2 / |w_j|^2 - 1| <= (D + 4) eps64 over the evaluated states",
    test=_balanced,
)
SYMMETRIC_INIT = Hypothesis(
    "symmetric random W0",
    wording=r"random initial shapes, $[W_0]_{ij}\sim\mathcal N(0,1/D)$ i.i.d. (Sec. 3.1; the argument uses "
    r"only that $w$ and $-w$ are equally likely, and independence across neurons)",
)
SMALL_INIT = Hypothesis(
    "small initialization",
    wording=r"small initialization $\epsilon\to0$ (the alignment phase follows the reduced dynamics (4))",
    condition=f"log10 max_(i, t in the window) |f(x_i)| <= log10({F_SMALL:g}) = {np.log10(F_SMALL):.2f} "
    "(Lemma 2: the field is the reduced one to 2|f| <= 1%)",
    test=lambda log10_max_f: log10_max_f <= np.log10(F_SMALL),
)
EPS_28 = Hypothesis(
    r"$\epsilon$ below eq. (28)",
    wording=r"$\epsilon$ as in eq. (28) (catalog's corrections: 8 for the printed 4, "
    r"$\zeta=\min\{\zeta_1,\zeta_2\}$)",
    condition="max over members of log eps - log (28) <= 0",
    test=lambda log_eps_minus_threshold: log_eps_minus_threshold <= 0,
)
EPS_29 = Hypothesis(
    r"$\epsilon$ at most the first term of (28) (with 8; the only term (29) uses)",
    condition="max over members of log eps - log (first term of (28)) <= 0",
    test=lambda log_eps_minus_first_term: log_eps_minus_first_term <= 0,
)
EPS_LEMMA_1 = Hypothesis(
    r"$\epsilon\le1/(4\sqrt hX_{\max}W_{\max}^2)$",
    condition="max over instances of 4 sqrt(h) X_max W_max^2 eps <= 1",
    test=lambda eps_ratio: eps_ratio <= 1,
)
UNTIL_T = Hypothesis(
    r"$t\le T$",
    wording=r"$t\le T=\frac1{4nX_{\max}}\log\frac1{\sqrt h\epsilon}$",
    condition="max over the evaluated times of t / T <= 1 + 1e-12 (the rounding of T's formula)",
    test=lambda t_over_T: t_over_T <= 1 + 1e-12,
)
SMALL_INIT_GD = Hypothesis(
    "small initialization alpha = 1e-6",
    wording=r"small initialization $\alpha=10^{-6}$",
    condition="alpha <= 1e-6, alpha the scale of W_ij, v_j ~ N(0, alpha^2) (Sec. 4: the paper's "
    "experiments' scale; a larger one shortens the alignment plateau ~ log(1/alpha^2) the figures show)",
    test=lambda alpha: alpha <= 1e-6,
)

# -- the network and loss ------------------------------------------------------------------------
OUTPUT_LE_1 = Hypothesis(
    r"$\max_i|f(x_i)|\le1$",
    condition="max over the evaluated states of max_i |f(x_i)| <= 1",
    test=lambda max_f: max_f <= 1,
)
LEAKY = Hypothesis(
    r"$\alpha$-leaky ReLU, $\alpha\in[0,1]$",
    condition="0 <= alpha <= 1 for every slope used",
    test=lambda alpha_min, alpha_max: 0 <= alpha_min and alpha_max <= 1,
)

# -- Lemma 15 (linear networks) --------------------------------------------------------------------
SEPARABLE = Hypothesis(
    "linearly separable data",
    wording=r"linearly separable data: $y_i\langle z,x_i\rangle\ge\gamma>0$, $\|z\|=1$",
    condition="gamma = min_i y_i <z, x_i> > 0 for the z the check uses (worst data set)",
    test=lambda gamma: gamma > 0,
)
POSITIVE_MARGINS = Hypothesis(
    r"all margins $y_iv^\top W^\top x_i>0$",
    condition="min over the evaluated states and samples of y_i v^T W^T x_i > 0",
    test=lambda min_margin: min_margin > 0,
)
OUTPUT_RANGE_1 = Hypothesis(
    r"$|\hat y|\le1$",
    condition="max |yhat| over the evaluated outputs <= 1",
    test=lambda max_abs_yhat: max_abs_yhat <= 1,
)
