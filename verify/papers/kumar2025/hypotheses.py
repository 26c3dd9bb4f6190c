r"""The hypotheses of kumar2025, declared once; claims list the ones they assume.

``wording`` is the paper's (or, for the hypotheses a claim adds to pin its setting down,
the claim's); ``name`` is the handle a control breaks.  Theorem 7's regime is quantitative:
Lemma 8 guarantees Assumption 1 for :math:`\sigma=\max(x,\alpha x)^p` only when
:math:`\alpha=1` (exact polynomial decomposition) or :math:`p\ge4` (Taylor), and the
decomposition must be checked where it has a remainder (three layers) as well as where it
is exact (two layers).

Quantitative hypotheses carry the regime test a run must pass (``ctx.regime``), measured on the
run's own setup:

* the paper's exact inequalities as stated -- Lemma 12's threshold
  :math:`\delta^D<\zeta/\|\mathcal H\|^2`, Lemma 21's :math:`\delta<\sqrt{2|x^\top y|}` and
  :math:`\eta<1/(2|x^\top y|)`, Lemma 11's :math:`\mathcal G_i(w_{i0})>0`, Lemma 16's :math:`\beta\ge0`,
  the positivity :math:`\lambda>0` of Lemmas 9 and 19, Assumption 2's exponent
  :math:`a<L/(2(L-1))` (fitted on the restricted loss at :math:`\bar w_n`);
* exact structural conditions measured to rounding (a spectrum symmetric under :math:`M\to-M`, the
  NCF's degree from :math:`\mathcal N(2u)=2^L\mathcal N(u)`), read off the activation a run uses
  (:math:`\alpha=1` or :math:`p\ge4`), or counted (more than one positive KKT value); no sample on a
  kink as the smallest pre-activation of the active neuron;
* Łojasiewicz exponents fitted on the restricted loss (Assumption 2, Lemmas 17, 20; the ReLU saddles);
* "n large relative to d" as the necessary count :math:`n\ge k` (the target net's identifiable
  weights where the paper states the net, :math:`f_1`, :math:`f_2`; else the first layer's weights at
  the least width a bias-free net of the target needs: :math:`g_1,g_2,h_1`: 2, :math:`h_2`: 4);
* the asymptotic "small :math:`\delta`": the new weights an order of magnitude below the old ones
  (ratio <= 0.1).  Algorithm 1 inserts at :math:`0.01\|w\|` (App. C.1.1), and the orders the
  claims fit need a grid spanning about a decade above that.  At App. D.3's degenerate saddle it is
  measured on the field: what the :math:`\bar{\mathcal H}_2` flow neglects at most a tenth of it.
"""

from __future__ import annotations

from verify.hypotheses import Hypothesis

# ------------------------------------------------------------------ NCF flows (Lemmas 1, 2, 6, 10, 11)
NCF_HOMOGENEOUS = Hypothesis(
    "NCF homogeneous",
    wording=r"$\mathcal H$ $L$-positively homogeneous, $L\ge2$",
    condition="L >= 2 and max |N(2u) - 2^L N(u)| / (2^L max |N(u)|) <= 64 eps over the starts (scaling by 2 "
    "is exact in binary, so only the sums' rounding remains)",
    test=lambda defect, L: defect <= 64 * 2.0**-52 and L >= 2,
)
NCF_HOMOGENEOUS_LIPSCHITZ = Hypothesis(
    "NCF homogeneous, Lipschitz gradient",
    wording=r"$\mathcal H$ $L$-positively homogeneous, $L\ge2$, $\nabla\mathcal N$ locally Lipschitz",
    condition="as 'NCF homogeneous', and sigma' locally Lipschitz: p >= 2 or alpha == 1",
    test=lambda defect, L, alpha, p: defect <= 64 * 2.0**-52 and L >= 2 and (p >= 2 or alpha == 1),
)
NET_HOMOGENEOUS = Hypothesis("H homogeneous", wording=r"$\mathcal H$ $L$-homogeneous, $L\ge2$")
NET_HOMOGENEOUS_L3 = Hypothesis(
    "H homogeneous (L = 3)", wording=r"$\mathcal H$ $L$-homogeneous, $L\ge2$ (here $L=3$)"
)
SMALL_DELTA_ORIGIN = Hypothesis(
    "small delta (near the origin)",
    wording=r"square loss, small $\delta$",
    condition="max over the delta grid of E(delta) / max_tau |phi(tau)| <= 0.1, E = max_tau |psi/delta - "
    "phi|: the loss flow from delta w_0 within a tenth of the NCF flow's size over the window, so the "
    "neglected delta^L J^T H term is a perturbation of the NCF gradient and the order fit reads the "
    "asymptotic slope",
    test=lambda ratio: ratio <= 0.1,
)
G_HOMOGENEOUS = Hypothesis("g homogeneous", wording=r"$g$ $L$-positively homogeneous, $L\ge2$")
BLOCKS_2_HOMOGENEOUS = Hypothesis("blocks 2-homogeneous", wording=r"every $\mathcal G_i$ 2-homogeneous")
POSITIVE_START = Hypothesis(
    "G_i(w_i0) > 0",
    wording=r"$\mathcal G_i(w_{i0})>0$, $\|w_{i0}\|=1$",
    condition="min_i G_i(w_i0) > 0 (the paper's strict inequality, at the starts used)",
    test=lambda g_min: g_min > 0,
)
SEVERAL_KKT = Hypothesis(
    "more than one KKT point",
    wording="the NCF has more than one positive KKT point (up to its symmetries)",
    condition="count of distinct positive KKT values found >= 2",
    test=lambda distinct: distinct >= 2,
)
W_STAR_SECOND_ORDER = Hypothesis(
    "w_* second order",
    wording=r"$w_*$ a second-order positive KKT point of $\widetilde{\mathcal N}_{y,\mathcal H}$",
    condition="mu_2 / mu_1 <= 1 - 1e-6 for M = X^T diag(y) X: the balanced neuron on M's top eigenvector "
    "(the w_* of the spectral instances) is a strict local max of the constrained NCF iff mu_1 > mu_2 (the "
    "other eigenvectors give first-order KKT points); 1e-6 far above eigvalsh's rounding",
    test=lambda gap: gap <= 1 - 1e-6,
)
W0_STABLE = Hypothesis("w_0 in S(w_*)", wording=r"$w_0\in\mathcal S(w_*)$")
W0_STABLE_NET = Hypothesis("W^0 in S(W bar)", wording=r"$W^0\in\mathcal S(\bar W)$")

# ------------------------------------------------------------------ KKT points (Lemmas 3, 9, 14-19)
POSITIVE_KKT_NET = Hypothesis(
    "positive KKT point",
    condition="min lambda = D N over the KKT points tested > 0",
    test=lambda lambda_min: lambda_min > 0,
)
POSITIVE_KKT = Hypothesis(
    "positive KKT point (lambda > 0)",
    wording=r"positive KKT point ($\lambda>0$)",
    condition="min lambda = (p+1) N over the KKT points tested > 0",
    test=lambda lambda_min: lambda_min > 0,
)
F_HOMOGENEOUS = Hypothesis("f homogeneous", wording=r"$f$ positively homogeneous of degree $L>0$")
W2_HOMOGENEOUS = Hypothesis("homogeneous in w2", wording=r"$L$-positively homogeneous in $w_2$")
BETA_NONNEGATIVE = Hypothesis(
    "beta >= 0",
    wording=r"$\beta\ge0$ continuous",
    condition="min_t beta(t) >= 0 on the instances' grids",
    test=lambda beta_min: beta_min >= 0,
)
FEED_FORWARD = Hypothesis(
    "feed-forward net", wording="feed-forward net (eq. 3) with an elementwise activation"
)
BIAS_FREE = Hypothesis("bias-free", wording=r"$\sigma=\max(x,\alpha x)^p$, bias-free")
ALIGNED_INIT = Hypothesis(
    "aligned init",
    wording=r"init aligned with the dominant KKT point, $\delta<\sqrt{2|x^\top y|}$",
    condition="(v, u)(0) = delta (1, sign(x^T y))/sqrt 2 exactly and max delta / sqrt(2|x^T y|) < 1",
    test=lambda aligned, delta_ratio: bool(aligned) and delta_ratio < 1,
)
STEP_BELOW = Hypothesis(
    "step below 1/(2|x^T y|)",
    wording=r"step $\eta<1/(2|x^\top y|)$",
    condition="max eta |x^T y| < 1/2 (the lemma's strict inequality)",
    test=lambda step_c: step_c < 0.5,
)

# ------------------------------------------------------------------ Assumption 1 / Lemma 8 / Lemma 18
ALPHA_ONE_OR_P4 = Hypothesis(
    "alpha = 1 or p >= 4",
    wording=r"$\sigma=\max(x,\alpha x)^p$ with $\alpha=1$ or $p\ge4$",
    condition="alpha == 1 or p >= 4",
    test=lambda alpha, p: alpha == 1 or p >= 4,
)
LEMMA_5_ACTIVATION = Hypothesis(
    "p >= 2 (or p = 1, alpha = 1)",
    wording=r"$\sigma=\max(x,\alpha x)^p$ with $p\ge2$ (or $p=1,\alpha=1$)",
    condition="p >= 2 or (p == 1 and alpha == 1), for the activation the runs use",
    test=lambda alpha, p: p >= 2 or (p == 1 and alpha == 1),
)
TAYLOR_P4 = Hypothesis(
    "alpha != 1 needs p >= 4",
    wording=r"(i) $\alpha\ne1$, $p\ge4$ (Taylor)",
    condition="alpha == 1 or p >= 4 on every instance (Lemma 8 (i) or (ii))",
    test=lambda alpha, p: alpha == 1 or p >= 4,
)
LEMMA_18_P4 = Hypothesis(
    "p >= 4",
    wording=r"$\sigma=\max(x,\alpha x)^p$ with $p\ge4$",
    condition="p >= 4",
    test=lambda p: p >= 4,
)

# ------------------------------------------------------------------ Lojasiewicz (Assumption 2, Lemmas 17, 20)
BEST_FIT = Hypothesis("one-neuron best fit", wording="the one-neuron best fit of saddle.py")
LOJASIEWICZ_MIN = Hypothesis(
    "Lojasiewicz local min, a in (0, 1)",
    wording=r"Lojasiewicz with $a\in(0,1)$ at a local minimum",
    condition="every sampled excess > 0 (a strict local min along the directions) and the fitted exponent a "
    "(largest over directions of d log|grad| / d log(excess)) in (0, 1)",
    test=lambda a: 0 < a < 1,
)
LIPSCHITZ = Hypothesis(
    "Lipschitz gradient", wording=r"$\nabla g$ locally Lipschitz (unstated in Lemma 17; its proof uses it)"
)
LEMMA_20_MARGIN = Hypothesis(
    "margins eta > 0",
    wording=r"$y_i=(w_*^\top x_i)^p$, $w_*^\top x_i\ge\eta>0$ ($i\le d$), $\le-\eta$ ($i>d$)",
    condition="eta = min(min_{i<=d} w_*^T x_i, min_{i>d} -w_*^T x_i) > 0 (the stated signs, strict)",
    test=lambda eta: eta > 0,
)
LEMMA_20_RHO = Hypothesis(
    "rho > 0",
    wording=r"$\rho=\lambda_{\min}(X_d^\top X_d)>0$",
    condition="rho = lambda_min(X_d^T X_d) > 0",
    test=lambda rho: rho > 0,
)
LEMMA_20_POINT = Hypothesis(
    "at (alpha, beta w_*)",
    wording=r"the point examined is $(\alpha,\beta w_*)$, the minimum Lemma 20 constructs from the data",
)

# ------------------------------------------------------------------ descent lemmas 12, 13
DELTA_THRESHOLD = Hypothesis(
    "delta below the threshold",
    wording=r"$\delta^D<\zeta/\|\mathcal H(X;\hat W)\|^2$ (threshold, $D=\sum_{k<L}p^k$)",
    condition="max over the delta grid of delta^D |H(X; W_hat)|^2 / zeta < 1 (the lemma's threshold)",
    test=lambda ratio: ratio < 1,
)
DELTA_SMALL = Hypothesis(
    "delta small",
    wording=r"$\delta$ small",
    condition="max delta |(a, b)| / |W_bar| <= 0.1: the inserted neuron an order of magnitude below the "
    "old net (Algorithm 1 inserts at 0.01 |w|, App. C.1.1)",
    test=lambda ratio: ratio <= 0.1,
)

# ------------------------------------------------------------------ Theorem 7 and the saddle experiments
ASSUMPTION_1 = Hypothesis(
    "Assumption 1",
    wording=r"Assumption 1: $\mathcal H=\mathcal H(w_n,0)+\mathcal H_1+O(\delta^K)$, $K>L$ (Lemma 8: "
    r"$\alpha=1$, or $\alpha\ne1$ with $p\ge4$)",
    condition="alpha == 1 or p >= 4",
    test=lambda alpha, p: alpha == 1 or p >= 4,
)
ASSUMPTION_2 = Hypothesis(
    "Assumption 2",
    wording=r"Assumption 2: $\bar w_n$ a local min of $\widetilde{\mathcal L}$ with Lojasiewicz exponent "
    r"< L/(2(L-1))",
    condition="a local min (min excess >= -64 eps) whose fitted exponent a (largest over directions of "
    "d log|grad| / d log(excess), rho = 1e-5..1e-2) is < L/(2(L-1))",
    test=lambda excess_min, a, L: excess_min >= -64 * 2.0**-52 and a < L / (2 * (L - 1)),
)
Z_STABLE = Hypothesis("z in S(z*)", wording=r"$z\in\mathcal S(z_*)$")
SMALL_DELTA = Hypothesis(
    "small delta",
    wording=r"small $\delta$",
    condition="ratio = max_delta delta |u| / |w_n bar| <= 0.1, |u| the largest rescaled small weights the "
    "claim's window predicts (Theorem 7: max_s |u_1(s)|; the figures' GD from the saddle: |z| = 1 at the "
    "start): the small weights an order of magnitude below the saddle's (Algorithm 1 inserts at 0.01 |w|, "
    "App. C.1.1)",
    test=lambda ratio: ratio <= 0.1,
)
W_N_CRITICAL = Hypothesis(
    "w_n bar a critical point of L~",
    wording=r"$\bar w_n$ a critical point of $\widetilde{\mathcal L}$ (the saddle $(\bar w_n,0)$ of Sec. 4)",
    condition="|grad L~(w_n bar)| <= 1e-6 for the one-neuron fit (BFGS, gtol 1e-10): it moves w_n bar by "
    "~1e-6/curvature, far below the delta^3 drift the figures' checks resolve",
    test=lambda grad: grad <= 1e-6,
)
WN_LOCAL_MIN_PL = Hypothesis(
    "w_n bar a local min (PL, no kink)",
    wording=r"$\bar w_n$ a local min of $\widetilde{\mathcal L}$ (PL, no sample on a kink)",
    condition="no sample on a kink (min_i |u_bar^T x_i| > 0) and a local min with fitted exponent a <= 0.55 "
    "(PL's 1/2 up to the O(rho_max) = 1e-2 shift of the cubic terms; a = NaN if some excess <= 0)",
    test=lambda margin, a: margin > 0 and a <= 0.55,
)
WN_LOCAL_MIN_NO_KINK = Hypothesis(
    "w_n bar a local min (no kink)",
    wording=r"$\bar w_n$ a local min of $\widetilde{\mathcal L}$ (no sample on a kink)",
    condition="no sample on a kink of the active layer-1 neuron: min_i |N_1 x_i| > 0 (a dead sample's "
    "layer-2 pre-activation is exactly 0 for every w_n nearby, so the restricted loss stays smooth); the "
    "local minimum is the fit's (gradient checked), not measured here",
    test=lambda margin: margin > 0,
)

# ------------------------------------------------------------------ App. D and the experiments
SADDLE_56 = Hypothesis("saddle (56)")
SMALL_DELTA_D3 = Hypothesis(
    "small delta (degenerate NCF)",
    wording=r"$w_z$ initialised at $\delta z$ near the saddle (55), $\delta\to0$",
    condition="r = max of |grad_{w_z} L - grad_{w_z} L_2| / |grad_{w_z} L_2| over the delta grid at the end "
    "of the escape window (|w_z| = 10 delta) and along the alignment run (|w_z| = 2^k delta <= 0.1), "
    "L_2 = -tr(y bar^T B_3 C_2 A_1) the H_2-NCF part: <= 0.1, so what the H_2 flow neglects (H_1's "
    "self-term, the coupling to w_n; O(|w_z|) relative) is a tenth of the field at most and the order fits "
    "read the asymptotic slopes",
    test=lambda r: r <= 0.1,
)
LINEAR_3_LAYER = Hypothesis("3-layer linear net")
OMP_UNNORMALIZED = Hypothesis(
    "unnormalized OMP", wording="OMP selects by the unnormalized correlation |X_j^T r| (as NP's NCF does)"
)
REBALANCED = Hypothesis("weights rebalanced before the NCF step")
SYMMETRIC_SPECTRUM = Hypothesis(
    "symmetric spectrum",
    wording=r"the symmetric family: the spectrum of $M$ is symmetric ($M$ and $-M$ conjugate), so the "
    "top and bottom basins have probability 1/2 each",
    condition="max_k |mu_k + mu_(d+1-k)| / |M| <= 64 eps (exact up to the rounding of eigvalsh)",
    test=lambda asymmetry: asymmetry <= 64 * 2.0**-52,
)
INSERT_AT_L_STAR = Hypothesis(
    "insert at l*",
    wording="Algorithm 1 inserts the new neuron in the layer l* of the dominant candidate KKT point",
)
N_LARGE = Hypothesis(
    "n large relative to d",
    wording="n large relative to d (the sample-size transition of Fig. 7)",
    condition="n >= k, k the target net's weights less one rescaling per hidden neuron (f_1: 2 + 1 neurons, "
    "k = 2d; f_2: 6 + 3, k = 6d + 12, as the paper states them), or, where the paper gives no net, the "
    "first layer's r d weights for the least first-layer width r a bias-free net of the target needs "
    "(h_1: r = 2, h_2: r = 4, the rank of the target's gradients; g_1, g_2: r = 2, since one neuron "
    "gives c_+- (w^T x)_+- whose even part c |w^T x| has one sign, while g_1, g_2 are even and take "
    "both): below it the interpolating nets of the target's size are not identified, so no test error "
    "can be forced. A necessary bound, not the paper's (unstated) transition",
    test=lambda n, k: n >= k,
)
LABEL_IS_FUNCTION = Hypothesis(
    "the label is a function of the input",
    wording="the label is a function of the input (the pointer code is part of it)",
)
MODULAR_LABELS = Hypothesis(
    "the labels are modular addition",
    wording="the labels are modular addition (a structure shared by train and test pairs)",
)
