r"""The hypotheses of kumar2025, declared once; claims list the ones they assume.

``wording`` is the paper's (or, for the hypotheses a claim adds to pin its setting down,
the claim's); ``name`` is the handle a control breaks.  Theorem 7's regime is quantitative:
Lemma 8 guarantees Assumption 1 for :math:`\sigma=\max(x,\alpha x)^p` only when
:math:`\alpha=1` (exact polynomial decomposition) or :math:`p\ge4` (Taylor), and the
decomposition must be checked where it has a remainder (three layers) as well as where it
is exact (two layers).
"""

from __future__ import annotations

from verify.hypotheses import Hypothesis

# ------------------------------------------------------------------ NCF flows (Lemmas 1, 2, 6, 10, 11)
NCF_HOMOGENEOUS = Hypothesis("NCF homogeneous", wording=r"$\mathcal H$ $L$-positively homogeneous, $L\ge2$")
NCF_HOMOGENEOUS_LIPSCHITZ = Hypothesis(
    "NCF homogeneous, Lipschitz gradient",
    wording=r"$\mathcal H$ $L$-positively homogeneous, $L\ge2$, $\nabla\mathcal N$ locally Lipschitz",
)
NET_HOMOGENEOUS = Hypothesis("H homogeneous", wording=r"$\mathcal H$ $L$-homogeneous, $L\ge2$")
NET_HOMOGENEOUS_L3 = Hypothesis(
    "H homogeneous (L = 3)", wording=r"$\mathcal H$ $L$-homogeneous, $L\ge2$ (here $L=3$)"
)
G_HOMOGENEOUS = Hypothesis("g homogeneous", wording=r"$g$ $L$-positively homogeneous, $L\ge2$")
BLOCKS_2_HOMOGENEOUS = Hypothesis("blocks 2-homogeneous", wording=r"every $\mathcal G_i$ 2-homogeneous")
POSITIVE_START = Hypothesis("G_i(w_i0) > 0", wording=r"$\mathcal G_i(w_{i0})>0$, $\|w_{i0}\|=1$")
SEVERAL_KKT = Hypothesis(
    "more than one KKT point", wording="the NCF has more than one positive KKT point (up to its symmetries)"
)
W_STAR_SECOND_ORDER = Hypothesis(
    "w_* second order",
    wording=r"$w_*$ a second-order positive KKT point of $\widetilde{\mathcal N}_{y,\mathcal H}$",
)
W0_STABLE = Hypothesis("w_0 in S(w_*)", wording=r"$w_0\in\mathcal S(w_*)$")
W0_STABLE_NET = Hypothesis("W^0 in S(W bar)", wording=r"$W^0\in\mathcal S(\bar W)$")

# ------------------------------------------------------------------ KKT points (Lemmas 3, 9, 14-19)
POSITIVE_KKT_NET = Hypothesis("positive KKT point")
POSITIVE_KKT = Hypothesis("positive KKT point (lambda > 0)", wording=r"positive KKT point ($\lambda>0$)")
F_HOMOGENEOUS = Hypothesis("f homogeneous", wording=r"$f$ positively homogeneous of degree $L>0$")
W2_HOMOGENEOUS = Hypothesis("homogeneous in w2", wording=r"$L$-positively homogeneous in $w_2$")
BETA_NONNEGATIVE = Hypothesis("beta >= 0", wording=r"$\beta\ge0$ continuous")
FEED_FORWARD = Hypothesis(
    "feed-forward net", wording="feed-forward net (eq. 3) with an elementwise activation"
)
BIAS_FREE = Hypothesis("bias-free", wording=r"$\sigma=\max(x,\alpha x)^p$, bias-free")
ALIGNED_INIT = Hypothesis(
    "aligned init", wording=r"init aligned with the dominant KKT point, $\delta<\sqrt{2|x^\top y|}$"
)

# ------------------------------------------------------------------ Assumption 1 / Lemma 8 / Lemma 18
ALPHA_ONE_OR_P4 = Hypothesis(
    "alpha = 1 or p >= 4",
    wording=r"$\sigma=\max(x,\alpha x)^p$ with $\alpha=1$ or $p\ge4$",
    condition="alpha == 1 or p >= 4",
    test=lambda alpha, p: alpha == 1 or p >= 4,
)
TAYLOR_P4 = Hypothesis("alpha != 1 needs p >= 4", wording=r"(i) $\alpha\ne1$, $p\ge4$ (Taylor)")
LEMMA_18_P4 = Hypothesis("p >= 4", wording=r"$\sigma=\max(x,\alpha x)^p$ with $p\ge4$")

# ------------------------------------------------------------------ Lojasiewicz (Assumption 2, Lemmas 17, 20)
BEST_FIT = Hypothesis("one-neuron best fit", wording="the one-neuron best fit of saddle.py")
LIPSCHITZ = Hypothesis(
    "Lipschitz gradient", wording=r"[unstated, used by the proof] $\nabla g$ locally Lipschitz"
)
LEMMA_20_POINT = Hypothesis(
    "at (alpha, beta w_*)",
    wording=r"the point examined is $(\alpha,\beta w_*)$, the minimum Lemma 20 constructs from the data",
)

# ------------------------------------------------------------------ descent lemmas 12, 13
DELTA_THRESHOLD = Hypothesis(
    "delta below the threshold",
    wording=r"$\delta^D<\zeta/\|\mathcal H(X;\hat W)\|^2$ (threshold, $D=\sum_{k<L}p^k$)",
)
DELTA_SMALL = Hypothesis("delta small", wording=r"$\delta$ small")

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
)
Z_STABLE = Hypothesis("z in S(z*)", wording=r"$z\in\mathcal S(z_*)$")
SMALL_DELTA = Hypothesis("small delta", wording=r"small $\delta$")
WN_LOCAL_MIN_PL = Hypothesis(
    "w_n bar a local min (PL, no kink)",
    wording=r"$\bar w_n$ a local min of $\widetilde{\mathcal L}$ (PL, no sample on a kink)",
)
WN_LOCAL_MIN_NO_KINK = Hypothesis(
    "w_n bar a local min (no kink)",
    wording=r"$\bar w_n$ a local min of $\widetilde{\mathcal L}$ (no sample on a kink)",
)

# ------------------------------------------------------------------ App. D and the experiments
SADDLE_56 = Hypothesis("saddle (56)")
LINEAR_3_LAYER = Hypothesis("3-layer linear net")
OMP_UNNORMALIZED = Hypothesis(
    "unnormalized OMP", wording="OMP selects by the unnormalized correlation |X_j^T r| (as NP's NCF does)"
)
REBALANCED = Hypothesis("weights rebalanced before the NCF step")
SYMMETRIC_SPECTRUM = Hypothesis(
    "symmetric spectrum",
    wording=r"the symmetric family: the spectrum of $M$ is symmetric ($M$ and $-M$ conjugate), so the "
    "top and bottom basins have probability 1/2 each",
)
INSERT_AT_L_STAR = Hypothesis(
    "insert at l*",
    wording="Algorithm 1 inserts the new neuron in the layer l* of the dominant candidate KKT point",
)
N_LARGE = Hypothesis(
    "n large relative to d", wording="n large relative to d (the sample-size transition of Fig. 7)"
)
LABEL_IS_FUNCTION = Hypothesis(
    "the label is a function of the input",
    wording="the label is a function of the input (the pointer code is part of it)",
)
MODULAR_LABELS = Hypothesis(
    "the labels are modular addition",
    wording="the labels are modular addition (a structure shared by train and test pairs)",
)
