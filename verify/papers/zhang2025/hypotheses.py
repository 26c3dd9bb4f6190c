r"""The hypotheses of zhang2025, declared once; claims list the ones they assume.

Controls name the one they break (``ctx.control(..., breaks=H, must_break=[...])``).
Quantitative ones carry the regime test a run must pass (``ctx.regime``):

* Condition 3 is exact for finite data -- the multiset of pairs :math:`(x,y)` equals that of
  :math:`(-x,-y)` -- so it is measured by the exact checker ``numeric.data.datasets.is_symmetric``;
* "small initialisation" (:math:`w_{\rm init}\ll1`, Lemma 6, Assumption 17, Conjecture 11,
  Figs. 3-9) is measured as :math:`w_{\rm init}\le10^{-2}`: the early-phase error terms are
  :math:`O(w_{\rm init})` relative, so the regime starts where they are at most percent level;
* Assumption 7's rank-one form and balance are measured on the states a run starts from,
  in units of their float64 rounding bound;
* white input :math:`\Sigma=I` (Corollary 9) to rounding, :math:`\|\Sigma-I\|_\max\le10^{-12}`;
* orthogonal inputs (Figs. 4, 8, 9) to rounding: every two inputs orthogonal or antiparallel (the
  XOR-like points of Fig. 4c), :math:`\max_{\mu\ne\nu}\min(|\cos|,1-|\cos|)\le10^{-12}`;
* orthonormal inputs (Assumption 17, Proposition 18) to rounding: :math:`\max|XX^\top-I|` divided by
  its float64 bound :math:`\gamma_{D+2}` (``regimes.orthonormal_ratio``);
* the learning-rate stability of App. C.5 as :math:`\eta\lambda_{\max}<2`.
"""

from __future__ import annotations

from verify.hypotheses import Hypothesis

# -- the network ---------------------------------------------------------------------------
BIAS_FREE = Hypothesis("bias-free", wording=r"bias-free network: no bias in any layer")
TWO_LAYER = Hypothesis("two-layer", wording=r"two-layer net $f(x)=W_2\sigma(W_1x)$")
DEPTH_3 = Hypothesis("depth 3", wording="bias-free ReLU net of depth 3 (eq. 9)")
ALPHA_01 = Hypothesis(
    "alpha in [0,1]",
    wording=r"$\sigma(z)=\max(z,\alpha z)$ with $\alpha\in[0,1]$",
    condition="0 <= alpha <= 1",
    test=lambda alpha: 0 <= alpha <= 1,
)
KINK = Hypothesis(
    "no pre-activation on the kink",
    wording=r"no pre-activation exactly 0, or $\sigma'(0)=\tfrac{1+\alpha}2$ (implicit in Lemmas 5, 14)",
)

# -- the data ------------------------------------------------------------------------------
EVEN_INPUTS = Hypothesis(
    "even inputs", wording=r"Condition 3 (i): even empirical input distribution $p(x)=p(-x)$"
)
ODD_TARGET = Hypothesis("odd target", wording=r"Condition 3 (ii): odd target $y(-x)=-y(x)$")
CONDITION_3 = Hypothesis(
    "Condition 3",
    wording=r"Condition 3: even input distribution and odd target; finite data: $(x,y)$ present "
    r"$\Rightarrow(-x,-y)$ present with the same multiplicity",
    condition="the multiset {(x, y)} equals {(-x, -y)} exactly (numeric.data.datasets.is_symmetric)",
    test=lambda symmetric: bool(symmetric),
)
OFF_HYPERPLANE = Hypothesis(
    "no point on the hyperplane",
    wording=r"no data point on the hyperplane $r^\top x=0$ (implicit in Lemma 5: each half space has "
    r"mass 1/2)",
)
WHITE = Hypothesis(
    "white input",
    wording=r"white input $\Sigma=\langle xx^\top\rangle=I$ (Corollary 9)",
    condition="max |Sigma - I| <= 1e-12",
    test=lambda sigma_dev: sigma_dev <= 1e-12,
)
SEPARABLE = Hypothesis("separable", wording="linearly separable data (logistic part of Corollary 10)")

# -- the initialisation --------------------------------------------------------------------
RANK_ONE = Hypothesis(
    "rank one",
    wording=r"Assumption 7 (i): $W_1=W_2^\top r^\top$, $\|r\|=1$",
    condition="||W1 - W2^T W2 W1/||W2||^2|| / ||W1|| within its float64 bound (ratio <= 1)",
    test=lambda ratio: ratio <= 1,
)
BALANCED = Hypothesis(
    "balanced",
    wording=r"Assumption 7 (ii): $\|W_2^+\|=\|W_2^-\|$",
    condition="| ||W2+||^2/||W2-||^2 - 1 | within its float64 bound (ratio <= 1)",
    test=lambda ratio: ratio <= 1,
)
SMALL_INIT = Hypothesis(
    "small init",
    wording=r"small initialisation $w_{\rm init}\ll1$",
    condition="w_init <= 1e-2 (App. H's largest 'small' scale, Figs. 1, 5; early-phase terms are O(w_init))",
    test=lambda w_init: w_init <= 1e-2,
)

# -- the training ----------------------------------------------------------------------------
SQUARE = Hypothesis("square loss", wording=r"square loss $\tfrac12\langle(y-f)^2\rangle$")

# -- Lemma 13 (Grönwall) ---------------------------------------------------------------------
BETA_NONNEG = Hypothesis("beta >= 0", wording=r"$\beta\ge0$")
INTEGRAL_INEQ = Hypothesis(
    "integral inequality",
    wording=r"$u(t)\le\alpha(t)+\int_a^t\beta(s)u(s)\,ds$",
    condition="min over instances and times of (alpha + int beta u - u)/tol >= -1 (tol: integrator error)",
    test=lambda gap: gap >= -1,
)
CONTINUITY = Hypothesis(
    "continuity", wording=r"$\beta$, $u$ continuous, negative part of $\alpha$ locally integrable"
)

# -- Theorem 8's variants (App. C.4, C.5) ------------------------------------------------------
FLOW = Hypothesis(
    "gradient flow",
    wording=r"gradient flow $\tau\dot W=-\nabla\mathcal L$ (exactly also GD with ReLU learning rate "
    r"$2\eta/(\alpha+1)$ against linear $\eta$)",
)
DECAY = Hypothesis(
    "decay (a+1)/2 lambda",
    wording=r"ReLU weight decay $\lambda_\alpha=\frac{\alpha+1}2\lambda$ against linear decay $\lambda$",
)
STABLE_LR = Hypothesis(
    "lr below 2/lambda_max",
    wording=r"learning rate $\eta$ below the stability threshold $2/\lambda_{\max}$ of the Hessian at the "
    "solution (implicit in App. C.5: the paper's 0.6 is stable in its setting)",
    condition="lr * lambda_max < 2",
    test=lambda lr_lambda: lr_lambda < 2,
)

# -- Lemma 6, corrected window -----------------------------------------------------------------
WINDOW = Hypothesis(
    "2/3 of the window",
    wording=r"$t\le\frac23\frac{\tau}{s+\operatorname{Tr}\Sigma}\ln\frac1{w_{\rm init}}$ (the (11) part of "
    "the corrected Lemma 6)",
)

# -- deep nets (Conjecture 11, Proposition 12) ---------------------------------------------------
SMALL_INIT_DEEP = Hypothesis(
    "small init (deep)",
    wording=r"small initialisation (App. H: $\mathcal N(0,w_{\rm init}^2/N_l)$ per layer; Fig. 5 uses "
    r"$w_{\rm init}=10^{-2}$)",
    condition="w_init <= 0.1: the unlearned components of W_l stay at the init scale, so the residuals of "
    "(18) are O(w_init) (fitted order checked) and fall below the conjecture's 'approximately' (0.1) there",
    test=lambda w_init: w_init <= 0.1,
)
LINEAR_TARGET = Hypothesis("linear target", wording=r"linear target $y=w^{*\top}x$")
FORM_18 = Hypothesis("form (18b)", wording="weights of the form (18) at $t_0$ (block-diagonal (18b))")
SIGMA0 = Hypothesis("sigma'(0) = 0", wording=r"ReLU with $\sigma'(0)=0$")
BALANCED_HALVES = Hypothesis("balanced halves", wording=r"$\|r_l^+\|=\|r_l^-\|$ in every hidden layer")

# -- orthogonal data (Section 4.2, App. D) ------------------------------------------------------
RELU = Hypothesis("ReLU (alpha = 0)", wording=r"ReLU, $\alpha=0$: inactive units pass no signal")
ORTHOGONAL = Hypothesis(
    "orthogonal inputs",
    wording="pairwise orthogonal inputs (Fig. 4c: XOR-like axis-aligned pairs)",
    condition="every two inputs orthogonal or (XOR-like) antiparallel to rounding: max over pairs of "
    "min(|cos|, 1 - |cos|) <= 1e-12",
    test=lambda cos_dev: cos_dev <= 1e-12,
)
ORTHONORMAL = Hypothesis(
    "orthonormal inputs",
    wording="orthonormal inputs (Assumption 17)",
    condition="max |X X^T - I| within its float64 bound gamma_(D+2) = (D+2)u/(1-(D+2)u), u = eps/2 "
    "(ratio <= 1)",
    test=lambda ratio: ratio <= 1,
)
FORM_46 = Hypothesis("form (46)", wording="weights of the block form (46) at $t_0$ (Assumption 17)")

# -- figures -----------------------------------------------------------------------------------
HOMOGENEOUS = Hypothesis(
    "positive homogeneity", wording="the net is positively homogeneous (bias-free ReLU; the circle failure)"
)
DELTA_POS = Hypothesis("delta > 0", wording=r"$\delta>0$: Condition 3 slightly violated (Fig. 6 data)")
