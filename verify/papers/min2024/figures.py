r"""min2024 Figures 7-9: two positive points in :math:`\mathbb R^2` at angle :math:`\pi/2-\beta`.

:math:`x_1=[1,0]`, :math:`x_2=[\sin\beta,\cos\beta]`, both labelled +1, so :math:`\mu=\sin\beta`:
Fig. 7 :math:`\beta=0.1` (:math:`\mu\approx0.0998`), Fig. 8 :math:`\beta=0.001`, Fig. 9
:math:`\beta=0` (orthogonal, :math:`\mu=0`).  As in the paper (Sec. 5): h = 50, *unbalanced*
Gaussian init :math:`W_{ij},v_j\sim\mathcal N(0,\alpha^2)`, :math:`\alpha=10^{-6}`, full-batch GD on
both layers with :math:`\eta=2\times10^{-3}`.  The loss is the paper's (Sec. 2),
:math:`\mathcal L=\sum_i\ell(y_i,f(x_i))` summed over the samples; which :math:`\ell` the figures
use is not stated, we use the exponential loss.  Outside Theorem 1's hypotheses (GD,
unbalanced), so :math:`\mathcal V_+(t)=\{j:v_j(t)>0\}` is re-read at every record.

Under gradient flow :math:`v_j^2-\|w_j\|^2` is conserved (Sec. 2), so a neuron with
:math:`v_j(0)\ge\|w_j(0)\|` keeps :math:`v_j>0` and turns at a rate :math:`v_j/\|w_j\|\ge1`, as a
balanced one (Theorem 1's init is the equality case); the unbalanced init also draws neurons with
:math:`|v_j(0)|<\|w_j(0)\|`, whose :math:`v_j` can change sign or which turn slowly
(``min2024:figure-7-corrected``).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import chi

from numeric.backend import to_numpy
from numeric.data.separated_data import DEAD, PLUS, planar, regions, separation
from numeric.engine.descent import gradient_descent
from numeric.models.activation import RELU
from numeric.models.balanced_relu import PlainFlow, join, split
from numeric.models.losses import Loss
from verify.claim import Erratum, claim
from verify.context import Context, Series
from verify.order_tolerance import next_order_tolerance
from verify.papers.min2024.hypotheses import ASSUMPTION_1, ORTHOGONAL_DATA, SMALL_INIT_GD
from verify.search import squash

LR = 2e-3
INIT = 1e-6


def _two_points(beta: float) -> tuple[np.ndarray, np.ndarray]:
    return planar(np.array([0.0, np.pi / 2 - beta])), np.ones(2)


def _gd_run(
    ctx: Context,
    beta: float,
    seeds: int,
    h: int,
    steps: int,
    record: np.ndarray,
    stream: str = "",
    init: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict:
    """GD from the paper's init for ``seeds`` members; weights, region codes and norms at ``record``. The
    init is drawn from the stream ``stream`` (default ``gd/{beta}``): two runs on one stream start alike;
    ``init`` (W0 ``(seeds, h, 2)``, v0 ``(seeds, h)``) replaces the draw."""
    X, y = _two_points(beta)
    rng = ctx.rng(stream or f"gd/{beta}").host
    W0, v0 = init or (rng.normal(0.0, INIT, size=(seeds, h, 2)), rng.normal(0.0, INIT, size=(seeds, h)))
    args = PlainFlow.args(ctx.backend, X, y, s=np.ones((seeds, h)))
    tr = gradient_descent(
        PlainFlow("exponential"),
        ctx.backend.asarray(join(W0, v0)),
        lr=LR,
        steps=steps,
        record=record,
        args=args,
    )
    Y = to_numpy(tr.ys)
    W, v = split(Y.reshape(-1, Y.shape[-1]), h)
    W, v = W.reshape(seeds, len(record), h, 2), v.reshape(seeds, len(record), h)
    codes = regions(W, X, y)
    f = (v[..., None] * RELU.value(W @ X.T)).sum(2)
    loss = Loss("exponential", "sum").value(f, y)
    return {
        "W": W,
        "codes": codes,
        "v": v,
        "norm": np.linalg.norm(W, axis=-1),
        "loss": loss,
        "f": f,
        "init": (W0, v0),
        "ok": tr.ok,
    }


def _plateau_outside(W0: np.ndarray, v0: np.ndarray, X: np.ndarray, k: int, rate: float) -> np.ndarray:
    r"""Which neurons the plateau dynamics put outside S+ with :math:`v_j>0` at GD iteration ``k`` (B, h).

    On the plateau :math:`\ell'(f)=-e^{-f}\approx-`\ ``rate``, the same for every neuron. A neuron active on
    the unit point :math:`x_i` only has :math:`a=\langle w,x_i\rangle`, :math:`a_{k+1}=a_k+h v_k`,
    :math:`v_{k+1}=v_k+h a_k` (:math:`h=\eta\,` rate): :math:`a_k=A(1+h)^k+B(1-h)^k`,
    :math:`v_k=A(1+h)^k-B(1-h)^k`, :math:`A=(a_0+v_0)/2`, :math:`B=(a_0-v_0)/2`, while the other point's
    pre-activation is :math:`c+\mu a_k`, :math:`c=\langle w_0,x_o\rangle-\mu a_0` fixed. :math:`A\le0`:
    :math:`a` falls to 0 and :math:`v<0` throughout (it dies); :math:`A>0`: :math:`a` has at most one minimum
    and then grows, so the neuron is still outside S+ at ``k`` iff :math:`c+\mu a_k\le0`, positive iff
    :math:`v_k>0`. Neurons active on both points or none stay in S+ or dead."""
    h = LR * rate
    mu = float(X[0] @ X[1])
    out = np.zeros(v0.shape, bool)
    for i, o in ((0, 1), (1, 0)):
        a0, other = W0 @ X[i], W0 @ X[o]
        A, B = (a0 + v0) / 2, (a0 - v0) / 2
        a_k = A * (1 + h) ** k + B * (1 - h) ** k
        v_k = A * (1 + h) ** k - B * (1 - h) ** k
        out |= (a0 > 0) & (other <= 0) & (A > 0) & (other - mu * a0 + mu * a_k <= 0) & (v_k > 0)
    return out


def _outside_mask(r: dict, k: int) -> np.ndarray:
    """Per member and neuron: positive (v > 0), non-dead and NOT in S+ at record ``k``."""
    codes, v = r["codes"][:, k], r["v"][:, k]
    return (v > 0) & (codes != DEAD) & (codes != PLUS)


def _outside(r: dict, k: int) -> np.ndarray:
    """Per member: positive (v > 0), non-dead neurons NOT in S+ at record ``k``."""
    return _outside_mask(r, k).sum(-1)


def _keeps_sign(r: dict) -> np.ndarray:
    """Per member and neuron: v_j(0) >= |w_j(0)| (v_j^2 - |w_j|^2 >= 0, conserved: v_j stays positive and
    turns at rate v_j / |w_j| >= 1, see the module docstring)."""
    return r["v"][:, 0] >= r["norm"][:, 0]


def _norm_ratio(r: dict, outside: np.ndarray) -> np.ndarray:
    """Per member: the largest |w_j| over ``outside`` (member, neuron) at the last record, over the largest
    |w_j| of a neuron in S+ with v_j > 0 (compared with :func:`_growth_bound`)."""
    codes, v, norm = r["codes"][:, -1], r["v"][:, -1], r["norm"][:, -1]
    inside = np.where((codes == PLUS) & (v > 0), norm, 0).max(-1)
    return np.where(outside, norm, 0).max(-1) / inside


# probability that a run's largest initial |(w_j(0), v_j(0))| / alpha exceeds _growth_bound's quantile q
INIT_DELTA = 1e-3


def _growth_bound(h: int, draws: int, steps: int, mu: float, r_max: float, loss: float) -> dict | None:
    r"""Largest :math:`\|w_j\|` of a positive non-dead neuron outside S+ over the largest in S+, at GD
    iteration ``steps`` (``None`` if S+ has not fitted the data then); the bound and its parts.

    GD on neuron j: :math:`w\leftarrow w+\eta vg`, :math:`v\leftarrow v+\eta\langle w,g\rangle`,
    :math:`g=\sum_{i\,\text{active}}r_ix_i`, :math:`r_i=e^{-f(x_i)}\le` ``r_max`` (exponential loss), unit
    points with :math:`\langle x_1,x_2\rangle=\mu>0`; an exception at T is active on one point only, say
    :math:`x_1` (:math:`x_2`: the mirror image).

    (a) History. In S+ with :math:`v>0` both pre-activations grow (by :math:`\eta v(r_i+\mu r_o)`) and so
    does v: it never leaves; active on :math:`x_1` only with :math:`v>0`, v grows; on :math:`x_2` only with
    :math:`v>0`, :math:`\langle w,x_1\rangle` grows by :math:`\eta vr_2\mu`: it can only enter S+; a dead
    neuron is frozen; with :math:`v<0` on one point the other pre-activation falls, so the two one-point
    regions meet only across S+ (or the dead region). So an exception has been active on :math:`x_1` only
    since a step :math:`\tau`, and before :math:`\tau` (if :math:`\tau>0`) it was in S+ with :math:`v<0`
    (in S+ with :math:`v>0` it would have stayed). Exact for GD steps as for the flow; region labels count
    pre-activations within :math:`10^{-12}` relative as inactive, a negligible change of the cone below.

    (b) The cap. Active on :math:`x_1` only, w moves along :math:`x_1`: its component b across
    :math:`x_1` is fixed exactly, and outside S+, :math:`\langle w,x_2\rangle=a\mu+b\sqrt{1-\mu^2}\le0`
    with :math:`a=\langle w,x_1\rangle>0`, so :math:`a\le|b|\sqrt{1-\mu^2}/\mu` and
    :math:`\|w_j(T)\|\le|b|/\mu\le\|w_j(\tau)\|/\mu`. An exception cannot outgrow its start by more than
    :math:`1/\mu`: growing along :math:`x_1` (rate :math:`\le r_1`, against :math:`|x_+|` in S+, the
    picture of :func:`_norm_ratio_order`, where :math:`\mu=0` removes the cap) it crosses into S+.

    (c) Before :math:`\tau` (:math:`v\le0`, :math:`\langle w,g\rangle\ge0`):
    :math:`\|w^+\|^2\le\|w\|^2+\eta^2v^2|g|^2`. For every neuron :math:`D=v^2-\|w\|^2` (conserved by the
    flow, Sec. 2) obeys :math:`D^+=D+\eta^2(\langle w,g\rangle^2-v^2|g|^2)\le(1-\eta^2|g|^2)D`, so
    :math:`D\le\max(D(0),0)\le v_j(0)^2` (:math:`\eta|g|<1`): :math:`v^2\le\|w\|^2+v_j(0)^2`, and
    :math:`\|w^+\|^2+v_j(0)^2\le(1+\eta^2|g|^2)(\|w\|^2+v_j(0)^2)` with
    :math:`|g|^2\le r_{\max}^2|x_+|^2`, :math:`|x_+|^2=2(1+\mu)`. Over at most K = ``steps`` steps:
    :math:`\|w_j(\tau)\|\le G\,(\|w_j(0)\|^2+v_j(0)^2)^{1/2}`,
    :math:`G=\exp(K\eta^2|x_+|^2r_{\max}^2/2)` (1.068 at K = 15000).

    (d) The init law. :math:`(w_j(0),v_j(0))/\alpha` is three i.i.d. N(0, 1): its norm is
    :math:`\chi_3`; over ``draws`` neurons (every seed's h), :math:`P(\max>q)\le`
    ``draws`` :math:`P(\chi_3>q)=\delta` (:data:`INIT_DELTA`). With probability at least
    :math:`1-\delta`, every exception has :math:`\|w_j(T)\|\le B=G\alpha q/\mu`, and every
    :math:`|v_j(0)|\le V_0=\alpha q`.

    (e) The fit. :math:`L=\sum_ie^{-f(x_i)}\ge e^{-f(x_1)}`, so :math:`f(x_1)\ge\ln(1/L)` (``loss``: the
    largest over seeds), while :math:`f(x_1)\le\sum_{v_j>0,\langle w_j,x_1\rangle>0}v_j\|w_j\|\le
    \sum(\|w_j\|+V_0)\|w_j\|` by (c): at most h terms, each at most :math:`(M+V_0)M` (M the largest norm
    in S+) or :math:`(B+V_0)B` (exceptions). Once S+ fits the data, :math:`\ln(1/L)/h>(B+V_0)B`, and then
    :math:`M\ge m=\tfrac12(\sqrt{V_0^2+4\ln(1/L)/h}-V_0)`.

    So the ratio is at most :math:`B/m\approx\alpha q\sqrt h/(\mu\sqrt{\ln(1/L)})`, order
    :math:`\alpha\sqrt h/\mu`; no constant is taken from the exceptions."""
    q = float(chi(3).isf(INIT_DELTA / draws))
    gain = float(np.exp(steps * LR**2 * 2 * (1 + mu) * r_max**2 / 2))
    cap, v0 = gain * INIT * q / mu, INIT * q
    fit = float(np.log(1 / loss)) / h
    if fit <= (cap + v0) * cap:
        return None
    inside = (np.sqrt(v0**2 + 4 * fit) - v0) / 2
    return {"bound": cap / inside, "q": q, "G": gain, "cap": cap, "inside": inside, "loss": loss}


def _settled(r: dict, record: np.ndarray) -> np.ndarray:
    """Per member: the first record from which no non-dead positive neuron is outside S+ (inf if one still
    is at the last record)."""
    bad = np.stack([_outside(r, k) for k in range(len(record))], axis=1) > 0
    last = len(record) - 1 - np.argmax(bad[:, ::-1], axis=1)  # the last record with a neuron outside
    after = np.minimum(last + 1, len(record) - 1)
    return np.where(~bad.any(axis=1), float(record[0]), np.where(bad[:, -1], np.inf, record[after]))


def _sizes(ctx: Context) -> tuple[int, int]:
    return ctx.param("seeds", tiny=8, quick=32, full=128), ctx.param("H", tiny=50, quick=50)


def _gd_finite(ctx: Context, r: dict, seeds: int) -> None:
    ctx.holds(
        "GD finite", bool(r["ok"].all()), measured=int(r["ok"].sum()), expected=seeds, why="status SUCCESS"
    )


def _figure(ctx: Context, name: str, r: dict, record: np.ndarray) -> None:
    ctx.figure(
        name,
        xlabel="GD iteration",
        ylabel="positive non-dead neurons outside S+",
        series=[
            Series(f"seed {b}", record, [_outside(r, k)[b] for k in range(len(record))])
            for b in range(len(r["ok"]))
        ],
    )


FIG7_SEEDS = {"tiny": 32, "quick": 64, "full": 128}  # every seed counts; ~1 in 10 has an exception
FIG7_STEPS = 3500  # t = 7, before the norms leave O(alpha) (loss still ~ 2)
FIG7_BETA = 0.1


def _entry_bound(beta: float) -> int:
    r"""The GD iteration by which a neuron with :math:`v_j(0)\ge\|w_j(0)\|` active on one point enters S+.

    On the plateau (:math:`f\approx0`, so :math:`\ell'=-1`) a neuron active on :math:`x_1` only has, in
    :math:`x_1`'s frame :math:`w=(a,b)`, :math:`a_{k+1}=a_k+\eta v_k`, :math:`v_{k+1}=v_k+\eta a_k`,
    :math:`b` fixed, so :math:`a_k\ge v_0\,\mathrm{sh}_\eta(k)`,
    :math:`\mathrm{sh}_\eta(k)=((1+\eta)^k-(1-\eta)^k)/2` (:math:`a_0>0`); it enters S+ when
    :math:`a\sin\beta+b\cos\beta>0`, i.e. :math:`a>|b|\cot\beta`, and :math:`|b|\le\|w_0\|\le v_0`: by
    the first :math:`k` with :math:`\mathrm{sh}_\eta(k)\ge\cot\beta` (flow: :math:`t^*=\mathrm{asinh}
    \cot\beta`). Sharp: attained as :math:`a_0\to0`, :math:`v_0=\|w_0\|` (a start on the dead
    boundary). A neuron active on :math:`x_2` only is the mirror image. In S+ it moves towards
    :math:`x_+` and stays."""
    k = np.arange(1, 100_000)
    sh = ((1 + LR) ** k - (1 - LR) ** k) / 2
    return int(k[np.argmax(sh >= 1 / np.tan(beta))])


def _flipping_start(a0: float, gap: float) -> tuple[np.ndarray, np.ndarray]:
    """One neuron active on x_1 only, w_j(0) = alpha (a0, -1) in x_1's frame, with v_j(0) = -alpha (a0 - gap):
    negative, with |v_j(0)| just below w_j(0)'s x_1 component, so that v_j changes sign during alignment."""
    return INIT * np.array([[[a0, -1.0]]]), np.array([[-INIT * (a0 - gap)]])


def _boundary_starts(beta: float, h: int) -> tuple[np.ndarray, np.ndarray]:
    """One member of ``h`` neurons started near the dead boundary, |w_j(0)| = v_j(0) = alpha: half active
    on x_1 only at angle delta past w.x_1 = 0, half on x_2 only, delta from 1e-4 to 0.3 (the worst case of
    :func:`_entry_bound` is delta -> 0)."""
    delta = np.geomspace(1e-4, 0.3, h - h // 2)
    first = -np.pi / 2 + delta  # w.x_1 > 0 barely, w.x_2 < 0
    second = np.pi - beta - np.geomspace(1e-4, 0.3, h // 2)  # w.x_2 > 0 barely, w.x_1 < 0
    W0 = INIT * planar(np.concatenate([first, second]))
    return W0[None], np.full((1, h), INIT)


def _fig7_start(theta: np.ndarray, crowd: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    r"""A start inside :math:`v_j(0)\ge\|w_j(0)\|` for the Fig. 7-corrected search from ``theta`` (4 numbers).

    One searched neuron: direction :math:`\phi=\pi\tanh\theta_0` (the whole circle), norm
    :math:`\alpha\,10^{\tanh\theta_1}` (within a decade of the paper's init scale; the plateau map is
    scale-free, so :func:`_entry_bound` does not depend on it) and :math:`v_j(0)=\|w_j(0)\|(1+e^{\theta_2})`
    (the boundary :math:`v_j(0)=\|w_j(0)\|` as :math:`\theta_2\to-\infty`); then ``crowd`` (a draw
    :math:`W` ``(m, 2)``, :math:`v` ``(m,)`` at scale 1) scaled by :math:`\alpha\,\mathrm{sigmoid}(\theta_3)`:
    the paper's init at a scale below :math:`\alpha`, which sets the loss derivative :math:`e^{-f}` the
    searched neuron sees (a lone neuron as :math:`\theta_3\to-\infty`)."""
    phi, norm = np.pi * np.tanh(theta[0]), INIT * 10.0 ** np.tanh(theta[1])
    scale = INIT * squash(theta[3])
    W0 = np.vstack([norm * np.array([[np.cos(phi), np.sin(phi)]]), scale * crowd[0]])
    v0 = np.concatenate([[norm * (1 + np.exp(theta[2]))], scale * crowd[1]])
    return W0[None], v0[None]


def _settling(r: dict) -> np.ndarray:
    """Per neuron of a one-member run recorded at every iteration: the first iteration from which it is in S+
    with v_j > 0 up to the last record (one past the last record if it is not there then)."""
    good = (r["codes"][0] == PLUS) & (r["v"][0] > 0)  # (records, h)
    last_bad = len(good) - 1 - np.argmax(~good[::-1], axis=0)
    return np.where(good.all(0), 0, last_bad + 1)


def _fig7_starts(beta: float) -> dict[str, list[np.ndarray]]:
    """Start families of the Fig. 7-corrected search (:func:`_fig7_start`'s parameters): where the searched
    neuron starts (which point it is active on, how near which boundary), its balance and its crowd."""

    def start(phi: float, excess: float, crowd: float = -20.0) -> list[np.ndarray]:
        return [np.array([np.arctanh(phi / np.pi), 0.0, excess, crowd])]

    return {
        "active on x1 only, 1e-3 rad past the dead boundary, v = |w|": start(-np.pi / 2 + 1e-3, -8.0),
        "active on x2 only, 1e-3 rad past the dead boundary, v = |w|": start(np.pi - beta - 1e-3, -8.0),
        "active on x1 only, 0.01 rad short of S+": start(-beta - 0.01, -2.0),
        "near x- = x1 - x2, v_j(0) = 20 |w_j(0)|": start(-0.8, np.log(19.0)),
        "inside S+ (along x+)": start(np.pi / 4 - beta / 2, 0.0),
        "among 49 neurons of the paper's init (Fig. 7's seed 0), 0.01 rad past the dead boundary": start(
            -np.pi / 2 + 0.01, -8.0, 5.0
        ),
    }


def _mechanism(r: dict, mask: np.ndarray) -> str:
    """How the neurons of ``mask`` (member, neuron) started: v_j(0) < 0 (V_- at init, v_j changed sign)
    or 0 < v_j(0) < |w_j(0)| (unbalanced, slow turning), with the ratio |v_j(0)| / |w_j(0)|."""
    v0, n0 = r["v"][:, 0][mask], r["norm"][:, 0][mask]
    ratio = ", ".join(f"{x:.3f}" for x in np.abs(v0) / n0)
    signs = f"{int(np.sum(v0 < 0))} with v_j(0) < 0, {int(np.sum(v0 > 0))} with v_j(0) > 0"
    return f"{signs}; |v_j(0)|/|w_j(0)|: {ratio}"


@claim(
    "min2024:figure-7",
    title="Fig. 7: mu = sin 0.1 > 0, every non-dead positive neuron reaches S+ during alignment",
    source="Fig. 7 and App. A.2",
    statement=r"$x_1=[1,0]$, $x_2=[\sin0.1,\cos0.1]$ (+1, +1): at the end of the alignment phase every "
    r"non-dead neuron with $v_j>0$ activates both points ($S_+$)",
    hypotheses=[ASSUMPTION_1, SMALL_INIT_GD],
    erratum=Erratum(
        "over the paper's own random (unbalanced) init about 1 run in 10 keeps one non-dead neuron with "
        "v_j > 0 outside S+ at the end of alignment, and after: its v_j(0) < 0 changed sign during "
        "alignment, or 0 < v_j(0) << |w_j(0)| turns it slowly (Theorem 1's balanced init excludes both); "
        "such a neuron stays at norm O(alpha) while the S+ neurons fit the data "
        "(min2024:figure-7-corrected); a constructed start, w_j(0) = alpha (a_0, -1) in x_1's frame and "
        "v_j(0) = -alpha (a_0 - 1e-4), is a deterministic instance. The paper shows one run",
        via="measured here over 128 seeds chosen before looking (keys 0-127)",
        shown_by=(f"no non-dead positive neuron outside S+ at iteration {FIG7_STEPS}*",),
    ),
)
def figure_7(ctx: Context) -> None:
    h = ctx.param("H", tiny=50, quick=50)
    seeds = ctx.param("seeds", **FIG7_SEEDS)
    record = np.arange(0, FIG7_STEPS + 1, 250)
    ctx.regime(ASSUMPTION_1, mu=separation(*_two_points(0.1)))
    ctx.regime(SMALL_INIT_GD, alpha=INIT)
    r = _gd_run(ctx, FIG7_BETA, seeds, h, FIG7_STEPS, record)
    _gd_finite(ctx, r, seeds)

    def none_outside(r: dict, why: str, which: str = "every seed") -> np.ndarray:
        out = _outside(r, -1)
        ctx.holds(
            f"no non-dead positive neuron outside S+ at iteration {FIG7_STEPS}, {which}",
            bool(np.all(out == 0)),
            measured=f"{int(np.sum(out > 0))} of {len(out)} seeds with one (counts {out[out > 0].tolist()})",
            expected=0,
            why=why,
            details={"seeds with an exception": np.flatnonzero(out > 0).tolist()},
        )
        return out

    out = none_outside(
        r,
        "exact region labels (ties <= 1e-12 relative count inactive); the paper shows one run, so every seed "
        f"is a run of its experiment ({seeds} seeds, keys chosen before looking): one exception refutes "
        "'every non-dead neuron with v_j > 0'",
    )
    if out.any():
        ctx.note(
            f"Exceptions at iteration {FIG7_STEPS} ({int(out.sum())} neurons in {int(np.sum(out > 0))} of "
            f"{seeds} seeds): {_mechanism(r, _outside_mask(r, -1))}; their largest norm "
            f"{r['norm'][:, -1][_outside_mask(r, -1)].max():.3g} (alpha = {INIT:g})."
        )
    a0, gap = 0.1, 1e-4
    none_outside(
        _gd_run(ctx, FIG7_BETA, 1, 1, FIG7_STEPS, record, init=_flipping_start(a0, gap)),
        f"w_j(0) = alpha (a0, -1) in x_1's frame, v_j(0) = -alpha (a0 - {gap:g}), a0 = {a0:g}: on the "
        "plateau a - v = (a0 - v0)(1 - eta)^k and a + v = alpha gap (1 + eta)^k, so v_j turns positive near "
        f"k = ln(2 a0 / gap) / (2 eta) = {np.log(2 * a0 / gap) / (2 * LR):.0f} while a stays below |b| "
        f"cot(beta) (S+) until alpha gap e^(eta k) / 2 reaches it, k ~ "
        f"{np.log(2 / np.tan(FIG7_BETA) / gap) / LR:.0f}: a deterministic instance of the exceptions",
        which="constructed start (v_j(0) < 0, a_0 + v_j(0) = 1e-4 alpha)",
    )
    ctx.bound(
        f"still on the loss plateau at iteration {FIG7_STEPS} (loss >= 0.95 n): alignment precedes fitting",
        r["loss"][:, -1],
        0.95 * 2,
        side=">=",
        why="the loss starts at n = 2 and drops once the norms leave O(alpha); 5% marks the plateau",
    )
    _figure(ctx, "Fig. 7: neurons outside S+", r, record)
    with ctx.control(
        "orthogonal points (Fig. 9 data, mu = 0)",
        breaks=ASSUMPTION_1,
        must_break=["no non-dead positive neuron outside S+*"],
    ):
        none_outside(_gd_run(ctx, 0.0, seeds, h, FIG7_STEPS, record), "as above")


@claim(
    "min2024:figure-7-corrected",
    title="Fig. 7 corrected: every non-dead neuron with v_j(0) >= |w_j(0)| reaches S+; the exceptions never "
    "grow",
    source="Fig. 7 and App. A.2; Sec. 2 (v_j^2 - |w_j|^2 conserved); correction derived and measured here",
    statement=r"$x_1=[1,0]$, $x_2=[\sin0.1,\cos0.1]$ (+1, +1), the paper's unbalanced init: at the end of "
    r"the alignment phase every non-dead neuron with $v_j(0)\ge\|w_j(0)\|$ is in $S_+$, and every "
    r"non-dead neuron with $v_j>0$ outside $S_+$ keeps a norm $O(\alpha/\mu)$ (at most $1/\mu$ times its "
    r"initial $\|(w_j(0),v_j(0))\|$, up to GD's factor $e^{K\eta^2|x_+|^2/2}$): once $S_+$ fits the data "
    r"(loss $L$), $\max\|w_j\|$ outside $S_+$ / $\max\|w_j\|$ in $S_+$ "
    r"$\lesssim\alpha\sqrt h/(\mu\sqrt{\ln(1/L)})$.",
    hypotheses=[ASSUMPTION_1, SMALL_INIT_GD],
)
def figure_7_corrected(ctx: Context) -> None:
    h = ctx.param("H", tiny=50, quick=50)
    seeds = ctx.param("seeds", **FIG7_SEEDS)
    steps = ctx.param("steps", tiny=8000, quick=15000)
    budget = ctx.param("search_budget", tiny=6, quick=20, full=120)
    record = np.arange(0, steps + 1, 250)
    k_star = _entry_bound(FIG7_BETA)
    from_k = int(np.searchsorted(record, k_star))  # first record at or after k*
    k_align = FIG7_STEPS // 250
    X, y = _two_points(FIG7_BETA)
    mu = float(X[0] @ X[1])
    ctx.regime(ASSUMPTION_1, mu=separation(X, y))
    ctx.regime(SMALL_INIT_GD, alpha=INIT)

    def covered_in_splus(r: dict, why: str) -> None:
        codes, v = r["codes"][:, from_k : k_align + 1], r["v"][:, from_k : k_align + 1]
        live = _keeps_sign(r) & (codes[:, -1] != DEAD)
        bad = live & ~np.all((codes == PLUS) & (v > 0), axis=1)
        ctx.holds(
            f"every non-dead neuron with v_j(0) >= |w_j(0)| is in S+ with v_j > 0 from iteration "
            f"{record[from_k]} (>= k* = {k_star}) to {FIG7_STEPS}, every seed",
            not bad.any(),
            measured=f"{int(bad.sum())} of {int(live.sum())} such neurons outside ({seeds} seeds)",
            expected=0,
            why=why,
        )

    small = f"largest |w_j| of a positive non-dead neuron outside S+ / largest in S+, at iteration {steps}"

    def exceptions_stay_small(r: dict, limit: dict | None, why: str) -> None:
        outside = _outside_mask(r, -1)
        if not outside.any():
            why = "no positive non-dead neuron is outside S+ there: no exception to measure (it would read 0)"
            ctx.undecided(small, why, measured=0)
            return
        if limit is None:
            why = f"S+ has not fitted the data by iteration {steps}: ln(1/L)/h <= (B + V0) B (_growth_bound)"
            ctx.undecided(small, why, measured=float(r["loss"][:, -1].max()))
            return
        codes, v, norm = r["codes"][:, -1], r["v"][:, -1], r["norm"][:, -1]
        start = np.sqrt(r["norm"][:, 0] ** 2 + r["v"][:, 0] ** 2)  # |(w_j(0), v_j(0))|
        ctx.bound(
            small,
            _norm_ratio(r, outside)[outside.any(-1)],  # the seeds with an exception
            limit["bound"],
            why=why,
            resolution=f"a ratio above R* = B/m = {limit['bound']:.3g}: an exception above B = "
            f"{limit['cap'] / INIT:.0f} alpha when the largest S+ norm is at its floor m = "
            f"{limit['inside']:.3g} (R* times that norm otherwise), i.e. one that outgrew the cap 1/mu of "
            "its start (_growth_bound (b)), as a neuron still growing along its point does at mu = 0. The "
            "bound spends q / (the exception's start / alpha) on the init quantile, up to 1/mu on where the "
            "exception sits in its cone and (largest S+ norm) / m on the fit's floor: an excess smaller "
            "than the slack shown would not be told apart from the statement",
            details={
                "largest |w_j(T)| sin(0.1) / |(w_j(0), v_j(0))| of an exception (<= G by (b)-(c))": float(
                    (norm * mu / start)[outside].max()
                ),
                "largest |w_j| in S+ with v_j > 0, smallest over seeds": float(
                    np.where((codes == PLUS) & (v > 0), norm, 0).max(-1).min()
                ),
                "largest initial |(w_j(0), v_j(0))| / alpha": float(start.max() / INIT),
            },
        )

    r = _gd_run(ctx, FIG7_BETA, seeds, h, steps, record)
    _gd_finite(ctx, r, seeds)
    covered_in_splus(
        r,
        f"a neuron with v_j(0) >= |w_j(0)| active on one point enters S+ by the GD iteration k* = {k_star} "
        "(_entry_bound: sh_eta(k*) >= cot beta on the plateau, flow time asinh(cot beta) = "
        f"{np.arcsinh(1 / np.tan(FIG7_BETA)):.3f}) and stays; records every 250 iterations; exact region "
        "labels",
    )
    r_max = float(np.exp(-min(r["f"].min(), 0.0)))  # the largest loss derivative e^(-f) over the records
    limit = _growth_bound(h, seeds * h, steps, mu, r_max, float(r["loss"][:, -1].max()))
    why = (
        "_growth_bound (a)-(e): an exception is active on one point only, where its norm is capped at 1/mu "
        "times its start; the largest S+ norm has a floor m set by the fit"
    )
    if limit is not None:
        why += (
            f": B = G alpha q / mu = {limit['cap']:.3g} (q = {limit['q']:.3f}, the chi_3 quantile at "
            f"delta = {INIT_DELTA:g} over {seeds * h} neurons; G = {limit['G']:.4f} at r_max = e^(-min f) = "
            f"{r_max:.6g} over the records), m = {limit['inside']:.3g} from the largest final loss L = "
            f"{limit['loss']:.3g} (h = {h}); no constant taken from the exceptions"
        )
    exceptions_stay_small(r, limit, why)
    f = r["f"][:, : k_align + 1]
    rates = (float(np.exp(-f.max())), float(np.exp(-min(f.min(), 0.0))))  # l' = -e^(-f) on the plateau
    low, high = (_plateau_outside(*r["init"], X, FIG7_STEPS, rate) for rate in rates)
    surely, possibly = low & high, low | high
    measured = _outside_mask(r, k_align)
    missed, spurious = measured & ~possibly, surely & ~measured
    ctx.holds(
        f"the plateau recursion predicts the exceptions at iteration {FIG7_STEPS}: each one measured is "
        "predicted, each one predicted at every plateau rate is measured",
        not (missed.any() or spurious.any()),
        measured=f"{int(measured.sum())} measured, {int(surely.sum())}-{int(possibly.sum())} predicted, "
        f"{int(missed.sum())} missed, {int(spurious.sum())} spurious",
        expected="0 missed, 0 spurious",
        why="_plateau_outside: the closed-form GD recursion of a neuron active on one point at l' = -rate, "
        f"with rate between e^(-max f) and e^(-min f) measured up to iteration {FIG7_STEPS} "
        f"({rates[0]:.4f}, {rates[1]:.4f}); a neuron whose fate differs between the two rates is not "
        "predicted either way. The exceptions are then exactly the neurons with a_0 + v_j(0) > 0 small "
        "against the other point's pre-activation: v_j(0) < 0 (sign change) or v_j(0) << |w_j(0)|",
    )
    worst = _gd_run(
        ctx, FIG7_BETA, 1, h, FIG7_STEPS, np.arange(FIG7_STEPS + 1), init=_boundary_starts(FIG7_BETA, h)
    )
    entered = worst["codes"][0] == PLUS  # (iterations, h)
    entry = np.where(entered.any(0), np.argmax(entered, axis=0), np.inf)
    ctx.bound(
        "worst case, starts on the dead boundary with v_j(0) = |w_j(0)|: entry iteration into S+ / k*",
        float(entry.max() / k_star),
        1 + 1 / k_star,
        why="_entry_bound's sh_eta(k) is exact on the plateau up to the loss derivative e^(-f) = 1 - O(h "
        "alpha^2 e^(2 t)) ~ 1 - 1e-8 here, which delays the entry by far less than one iteration: one "
        "iteration of slack",
        details={"entry iterations": entry.tolist(), "k*": k_star},
    )
    ctx.bound(
        "the entry bound is attained: latest entry of the boundary starts / k*",
        float(entry.max() / k_star),
        0.9,
        side=">=",
        why="starts at angle 1e-4 past the dead boundary enter at sh_eta(k) ~ cot beta - O(1e-4 cosh): a "
        "bound k* loose by more than 10% would show here",
    )
    crowd = (r["init"][0][0, 1:] / INIT, r["init"][1][0, 1:] / INIT)  # seed 0's draw at scale 1, less one
    every = np.arange(FIG7_STEPS + 1)

    def settle_ratio(theta: np.ndarray, beta: float = FIG7_BETA) -> float:
        start = _fig7_start(theta, crowd)
        one = _gd_run(ctx, beta, 1, start[1].shape[1], FIG7_STEPS, every, init=start)
        if not one["ok"].all():
            return np.nan
        counted = _keeps_sign(one)[0, 0] and one["codes"][0, -1, 0] != DEAD  # the searched neuron
        return float(_settling(one)[0] / (k_star + 1)) if counted else 0.0

    search = (
        "search: iteration from which a neuron with v_j(0) >= |w_j(0)| stays in S+ with v_j > 0 to "
        f"{FIG7_STEPS} / (k* + 1)"
    )
    ctx.search(
        search,
        settle_ratio,
        _fig7_starts(FIG7_BETA),
        budget=budget,
        why=f"Nelder-Mead over starts inside v_j(0) >= |w_j(0)| (_fig7_start: the searched neuron in any "
        "direction, norm within a decade of alpha, v_j(0) down to the boundary |w_j(0)|, among 49 neurons of "
        "Fig. 7's seed-0 draw scaled by (0, 1) alpha, setting its loss derivative); every iteration "
        "recorded; ratio: the first iteration from which the searched neuron (if non-dead) stays in S+ with "
        f"v_j > 0 to {FIG7_STEPS} (one past it if not there then) over k* + 1 = {k_star + 1}, the tolerance "
        "of the boundary-start check above (k* exact on the plateau, one iteration for e^(-f) < 1). k* is "
        f"attained as a_0 -> 0 with v_j(0) = |w_j(0)|, so the search should approach {k_star}/{k_star + 1} "
        "from below; resolution: a k* two iterations too small (e.g. the flow time asinh(cot beta)/eta = "
        "1497.4 rounded down) or a neuron turning slower than v_j/|w_j| >= 1 allows (v_j(0) = 0.99 |w_j(0)| "
        "enters 5 iterations late) reads above 1",
    )
    found = ctx.checks[-1].details
    theta = np.asarray(found["worst instance"], float)
    ctx.note(
        f"Worst instance of the settling search ({found['worst family']}): phi = "
        f"{np.pi * np.tanh(theta[0]):.6g} rad, |w_j(0)| = {10.0 ** np.tanh(theta[1]):.3g} alpha, v_j(0) = "
        f"{1 + np.exp(theta[2]):.6g} |w_j(0)|, crowd at {squash(theta[3]):.3g} alpha; in S+ from iteration "
        f"{round(max(found['worst ratio per family'].values()) * (k_star + 1))} (k* = {k_star})."
    )
    outside = _outside_mask(r, k_align)
    ctx.note(
        f"Neurons with v_j(0) >= |w_j(0)|: {int(_keeps_sign(r).sum())} of {seeds * h}. "
        f"Exceptions at iteration {FIG7_STEPS}: {int(outside.sum())} neurons in {int(outside.any(1).sum())} "
        f"of {seeds} seeds ({_mechanism(r, outside) if outside.any() else 'none'}); positive non-dead "
        f"neurons outside S+ at iteration {steps}: {int(_outside_mask(r, -1).sum())}; final loss <= "
        f"{r['loss'][:, -1].max():.3g}. Boundary starts entered S+ at iterations {int(entry.min())}-"
        f"{int(entry.max())} (k* = {k_star})."
    )
    with ctx.control(
        "orthogonal points (Fig. 9 data, mu = 0)",
        breaks=ASSUMPTION_1,
        must_break=["every non-dead neuron with v_j(0) >= |w_j(0)| is in S+*", search, small],
    ):
        orthogonal = _gd_run(ctx, 0.0, seeds, h, steps, record)
        covered_in_splus(orthogonal, "as above")
        exceptions_stay_small(
            orthogonal,
            limit,
            "the main run's bound R* (mu = sin 0.1); with mu = 0 the cone of _growth_bound (b) is a whole "
            "quadrant: nothing caps the growth of a neuron along its point (Fig. 9, _norm_ratio_order)",
        )
        ctx.search(
            search,
            lambda theta: settle_ratio(theta, 0.0),
            _fig7_starts(0.0),
            budget=max(budget // 5, 1),
            why="as above, on the orthogonal points (the main run's k*); a fifth of the budget, which can "
            "only lower the worst ratio found",
        )


FIG8_STEPS = 7000
FIG8_SEEDS = {"tiny": 64, "quick": 128, "full": 128}  # P >= 1/2 vs P = 1/4: power 0.94 (64), 0.999 (128)


@claim(
    "min2024:figure-8",
    title="Fig. 8: mu = sin 0.001, alignment is slow: a typical run still has neurons outside S+ at "
    "iteration 7000",
    source="Fig. 8 and App. A.2",
    statement=r"$x_2=[\sin0.001,\cos0.001]$: '1) at iteration 7000, there are still neurons (that are not "
    r"dead) outside $S_+$, namely those aligned with either $x_1$ or $x_2$' (read as the typical run: "
    r"probability $\ge1/2$); 'as data separability $\mu$ decreases, the time needed for all neurons "
    r"(that are not dead) to reach $S_+$ increases' (every run, against $\mu=\sin0.1$ from the same init)",
    hypotheses=[r"$\mu=\sin0.001$ (tiny)", SMALL_INIT_GD],
)
def figure_8(ctx: Context) -> None:
    h = ctx.param("H", tiny=50, quick=50)
    seeds = ctx.param("seeds", **FIG8_SEEDS)
    record = np.arange(0, FIG8_STEPS + 1, 250)
    ctx.regime(SMALL_INIT_GD, alpha=INIT)
    r = _gd_run(ctx, 0.001, seeds, h, FIG8_STEPS, record)
    ref = _gd_run(ctx, 0.1, seeds, h, FIG8_STEPS, record, stream="gd/0.001")  # Fig. 7's data, the same init
    _gd_finite(ctx, r, seeds)
    _gd_finite(ctx, ref, seeds)

    def typically_outside(r: dict, why: str) -> np.ndarray:
        out = _outside(r, -1)
        ctx.probability(
            f"a run has a non-dead positive neuron outside S+ at iteration {FIG8_STEPS}: P >= 1/2",
            int(np.sum(out > 0)),
            seeds,
            at_least=0.5,
            detect=0.25,
            why=why,
        )
        return out

    def slower(r: dict, why: str) -> None:
        late, early = _settled(r, record), _settled(ref, record)
        observed = ~(np.isinf(late) & np.isinf(early))  # neither settled by 7000: no ordering observed
        ctx.probability(
            "every non-dead positive neuron reaches S+ later than at mu = sin 0.1 (same init): P >= 0.9",
            int(np.sum((late > early) & observed)),
            int(observed.sum()),
            at_least=0.9,
            detect=0.5,
            why=why,
        )
        ctx.note(
            "paired settling (iteration from which every non-dead positive neuron is in S+): seeds not "
            f"later at sin 0.001 {np.flatnonzero(~(late > early) & observed).tolist()}, censored at both "
            f"{np.flatnonzero(~observed).tolist()}"
        )

    out = typically_outside(
        r,
        "reading (fixed before looking): Fig. 8 shows one run, but the text states item 1) of the setting "
        "and flags only item 2) (a neuron still outside at iteration 21000) as 'this particular instance', "
        "so 1) is read as the typical run: a run from the paper's init has such a neuron with probability at "
        "least 1/2; the violation to catch is a displayed outcome that only one run in four shows (P = 1/4). "
        f"Every one of {seeds} seeds (keys fixed before looking) is a trial; exact region labels. Mechanism "
        "(plateau recursion, _plateau_outside): a neuron active on x1 only has a_k ~ A (1 + eta)^k, "
        "A = (a_0 + v_j(0))/2, and enters S+ once a_k > |b| cot(0.001) ~ 1000 |b|; S+ fits the data near "
        "iteration 4000-5000 (l' -> 0), after which a neuron not yet across stays outside: those with A/|b| "
        "below ~0.1 (v_j(0) < 0 or << |w_j(0)|), a race whose outcome varies from run to run",
    )
    slower(
        r,
        "the paper's conclusion of A.2 ('as data separability mu decreases, the time needed for all neurons "
        "(that are not dead) to reach S+ increases'), paired: both data sets from the same GD init, so every "
        "seed is a comparison; read as a systematic effect (later in at least 9 runs of 10), the violation to"
        " catch being no effect of mu (a paired comparison of equal times: later with P <= 1/2). Not 'every "
        "seed': a Fig. 7 exception (its erratum) can keep the sin 0.1 run unsettled past 7000 while the sin "
        "0.001 run from the same init settles (run 86 at --seed 2: never vs 6250), a counterexample of the "
        "unbalanced init, not of the effect of mu. Iteration from which no non-dead positive neuron is "
        "outside S+, records every 250 (inf: still outside at 7000; a seed still outside at 7000 for both "
        "data sets is censored, its order unobserved: ~1-3% of seeds keep a Fig. 7 exception at sin 0.1 that "
        "long); a neuron attracted by x1 crosses x2's hyperplane ~ log(0.1/0.001) / |x1| = 4.6 time units = "
        "2300 iterations later at sin 0.001 (catalog C4), 9 records",
    )
    X, _ = _two_points(0.001)
    outside = _outside_mask(r, -1)
    W = r["W"][:, -1][outside]
    off = np.degrees(np.arccos(np.clip((W @ X.T).max(-1) / np.linalg.norm(W, axis=-1), -1, 1)))
    angles = f"median {np.median(off):.3g} deg, max {off.max():.3g} deg" if off.size else "none outside"
    ctx.note(
        f"Fig. 8: {int(np.sum(out > 0))} of {seeds} seeds show neurons outside S+ at iteration {FIG8_STEPS} "
        f"(counts {out.tolist()}); {int(np.sum(_outside(ref, -1) > 0))} of {seeds} at mu = sin 0.1 from the "
        f"same init. Angle of those outside to the nearer of x1, x2: {angles} (reported, not checked: they "
        "stop turning once S+ fits the data, so no plateau bound applies). Every non-dead positive neuron "
        f"in S+ from iteration {_settled(r, record).tolist()} (mu = sin 0.001) vs "
        f"{_settled(ref, record).tolist()} (sin 0.1, same init)."
    )
    _figure(ctx, "Fig. 8: neurons outside S+", r, record)
    with ctx.control(
        "Fig. 7 data (mu = sin 0.1)",
        breaks=r"$\mu=\sin0.001$ (tiny)",
        must_break=["a run has a non-dead positive neuron outside S+*"],
    ):
        # the pairing "later than at mu = sin 0.1" holds for any mu below sin 0.1 and has no reading on
        # the reference itself (compared with itself it could only fail): not a conclusion this control
        # can break
        typically_outside(
            ref,
            "as above; at sin 0.1 a neuron active on one point crosses once a_k > |b| cot(0.1) ~ 10 |b|, by "
            "iteration ~1500 for A >= |b|/2 (_entry_bound), long before the fit: only Fig. 7's rare "
            "exceptions (about 1 run in 30 at iteration 7000) remain, far below 1/2",
        )


def _outside_ratio(r: dict) -> np.ndarray:
    """Per member: largest |w_j| of a positive neuron outside S+ (dead ones included) over the largest in S+,
    at the last record."""
    return _norm_ratio(r, (r["codes"][:, -1] != PLUS) & (r["v"][:, -1] > 0))


def _norm_ratio_order(ctx: Context, r: dict, seeds: int, h: int, steps: int, record, alphas) -> None:
    r"""Order in the init scale :math:`\alpha` of the outside/inside norm ratio (orthogonal unit points).

    On the plateau (:math:`f\approx0`, :math:`\ell'=-1`) the init :math:`\alpha\tilde W` of one draw
    evolves by a scale-free map: a neuron active on one point grows by :math:`1+\eta` per GD step once
    aligned, one in S+ by :math:`1+\eta|x_+|`, :math:`|x_+|=\sqrt2`, and the directions do not depend on
    :math:`\alpha`. S+ fits the data when its norms are O(1), after :math:`k_f` steps with
    :math:`\alpha(1+\eta\sqrt2)^{k_f}\sim1`; the fit and what follows are then the same for every
    :math:`\alpha` up to the outside neurons' own O(ratio^2) share of f. So the ratio is
    :math:`C\alpha^\kappa(1+O(\alpha^{2\kappa}))`, :math:`\kappa=1-\ln(1+\eta)/\ln(1+\eta\sqrt2)`
    (0.2926 at :math:`\eta` = 2e-3; gradient flow :math:`1-1/\sqrt2`), :math:`C` the draw's constant
    (spread of initial norms, alignment transients) that cancels in the order. A group outside S+ that
    grew with the fitting one would give order 0."""
    kappa = 1 - np.log1p(LR) / np.log1p(LR * np.sqrt(2))
    rng = ctx.rng("gd/0.0").host  # the main run's stream: its draw at scale 1
    W1, v1 = rng.normal(size=(seeds, h, 2)), rng.normal(size=(seeds, h))
    runs = [  # at alpha = INIT the scaled draw is the figure's run r itself
        r if a == INIT else _gd_run(ctx, 0.0, seeds, h, steps, record, init=(a * W1, a * v1)) for a in alphas
    ]
    ratios = np.array([_outside_ratio(run) for run in runs])
    mean = np.exp(np.log(ratios).mean(axis=1))
    tol = next_order_tolerance(alphas, mean, kappa, 3 * kappa)
    ctx.order(
        f"largest |w_j| outside S+ / largest inside S+ ~ alpha^kappa, kappa = {kappa:.4f} (geometric mean "
        f"over {seeds} seeds, one draw scaled)",
        alphas,
        mean,
        expected=kappa,
        tol=tol,
        why="neurons active on one point grow at rate |x_i| = 1 against |x_+| = sqrt 2 in S+ and stop once "
        "the S+ group fits the data (_norm_ratio_order: kappa = 1 - ln(1 + eta)/ln(1 + eta sqrt 2) for GD); "
        "tolerance (order_tolerance.next_order_tolerance): the relative O(alpha^(2 kappa)) correction of "
        "the outside neurons' own share of f, its coefficient fitted from the same points; a group outside "
        "S+ that grew as the statement denies would give order 0, one frozen at its init order 1",
        xlabel="alpha",
        ylabel="norm ratio (geometric mean)",
    )
    ctx.note(
        f"Outside/inside norm ratio (geometric mean over seeds) at alpha = {alphas.tolist()}: "
        f"{np.round(mean, 6).tolist()}; per seed at alpha = {INIT:g} (the figure's run): max "
        f"{_outside_ratio(r).max():.3g}."
    )


def _misalignment(W: np.ndarray, X: np.ndarray) -> np.ndarray:
    """Angle (rad) of each planar w_j to the nearest of the unit points x_1, x_2 and x_+ / |x_+| (the
    directions Fig. 9 names), from atan2(|w x d|, <w, d>): no loss of precision near 0."""
    plus = X.sum(0) / np.linalg.norm(X.sum(0))
    D = np.vstack([X, plus])  # (3, 2)
    cross = np.abs(W[..., :1] * D[:, 1] - W[..., 1:] * D[:, 0])
    return np.arctan2(cross, W @ D.T).min(-1)


def _alignment_bound(k: int, rate: float) -> float:
    r"""Largest angle to :math:`x_1`, :math:`x_2` or :math:`x_+` after ``k`` GD iterations of a non-dead
    neuron with :math:`v_j(0)\ge\|w_j(0)\|` (orthogonal unit points, Fig. 9).

    Active on :math:`x_1` only, in :math:`x_1`'s frame :math:`w=(a,b)`: :math:`b` is fixed exactly
    (:math:`\langle x_1,x_2\rangle=0`), :math:`a_{k+1}=a_k+\eta r_kv_k`, :math:`v_{k+1}=v_k+\eta r_ka_k`,
    :math:`r_k=-\ell'(f(x_1))=e^{-f}\ge` ``rate``; from :math:`a_0>0`, :math:`v_0\ge\|w_0\|\ge|b|`:
    :math:`a_k\ge|b|\,\mathrm{sh}_{\eta\,rate}(k)` (:func:`_entry_bound`'s
    :math:`\mathrm{sh}_\eta(k)=((1+\eta)^k-(1-\eta)^k)/2`), so :math:`\tan\angle(w_j,x_1)\le
    1/\mathrm{sh}_{\eta\,rate}(k)`, attained as :math:`a_0\to0`, :math:`v_0=\|w_0\|`. Gradient flow at rate 1
    gives the same, :math:`2\arctan e^{-t}=\arctan(1/\sinh t)` (catalog C4 from the reduced dynamics (4),
    :math:`\tan(\phi/2)=\tan(\phi_0/2)e^{-t}`, :math:`\phi_0\to\pi/2`). In :math:`S_+` the component across
    :math:`x_+` is fixed up to :math:`r_k(x_1)-r_k(x_2)=O(\max|f|)` and the one along it grows at rate
    :math:`|x_+|=\sqrt2` from at most :math:`\pi/4`: tighter. The alignment Theorem 1's balanced init (3)
    gives at iteration ``k``; no constant is taken from the data."""
    e = LR * rate
    return float(np.arctan(2 / ((1 + e) ** k - (1 - e) ** k)))


def _alignment(r: dict, record: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, str]:
    r"""At the end of the alignment phase, iteration FIG7_STEPS (t = 7, the end Fig. 7 uses; the paper names
    no iteration): each neuron's angle to the nearest of :math:`x_1`, :math:`x_2`, :math:`x_+`
    (:func:`_misalignment`), the mask of the 'positive neurons' (non-dead, :math:`v_j>0`), the theory's
    angle :math:`\theta^*` (:func:`_alignment_bound` at the run's smallest plateau rate) and its
    derivation."""
    k = int(np.searchsorted(record, FIG7_STEPS))
    live = (r["v"][:, k] > 0) & (r["codes"][:, k] != DEAD)
    angle = _misalignment(r["W"][:, k], _two_points(0.0)[0])
    max_f = float(r["f"][:, : k + 1].max())
    theta = _alignment_bound(FIG7_STEPS, float(np.exp(-max_f)))
    why = (
        f"theta* = atan(1 / sh_(eta r)({FIG7_STEPS})) = {theta:.4g} rad (_alignment_bound): the angle the "
        "paper's dynamics leave after t = 7 to a neuron started with v_j(0) >= |w_j(0)| (balanced init (3)) "
        "from the worst start, 90 degrees off; gradient flow 2 atan(e^-7) = 1.82e-3; r = e^(-max f) = "
        f"{np.exp(-max_f):.5f} the smallest plateau rate (max f = {max_f:.3g} over the records to "
        f"{FIG7_STEPS}; f grows on the plateau, so the last record holds the window's largest)"
    )
    return angle, live, theta, why


def _aligned_as_printed(ctx: Context, r: dict, record: np.ndarray) -> None:
    r"""Fig. 9's 'positive neurons are aligned with one of these directions: :math:`x_1`, :math:`x_2`,
    :math:`x_+`' on every positive neuron of every seed, at the coarsest reading that still tells the three
    directions apart (they are :math:`\pi/4` apart: within :math:`\pi/8` of one of them); how many are
    beyond the theory's :math:`\theta^*` is a note."""
    angle, live, theta, why = _alignment(r, record)
    v0, n0 = r["v"][:, 0], r["norm"][:, 0]
    far, lag = live & (angle > np.pi / 8), live & (angle > theta)
    ctx.bound(
        f"every non-dead positive neuron within pi/8 of x1, x2 or x+ at iteration {FIG7_STEPS}, every seed",
        angle[live],
        np.pi / 8,
        why="the paper gives no precision for 'aligned'; the three directions are pi/4 apart, so a neuron "
        "beyond pi/8 of each is aligned with none of them at any reading (the theory's own precision, "
        "theta* below, is 400x tighter: a note). Every seed is a run of the figure shown once (keys fixed "
        "before looking); every non-dead neuron with v_j > 0 is a 'positive neuron' (dead ones never move)",
        resolution="a positive neuron nearer to none of x1, x2, x+ (the loosest reading of 'aligned')",
        details={
            "seeds with a neuron beyond pi/8": f"{int(far.any(1).sum())} of {len(far)}",
            "of those neurons, v_j(0) < |w_j(0)|": f"{int(np.sum(far & (v0 < n0)))} of {int(far.sum())}",
            "worst angle per seed (rad)": np.where(live, angle, 0).max(1),
        },
    )
    ctx.note(
        f"Fig. 9 at iteration {FIG7_STEPS}: {int(lag.sum())} of {int(live.sum())} non-dead positive "
        f"neurons, in {int(lag.any(1).sum())} of {len(lag)} seeds, lie beyond the theory's theta* = "
        f"{theta:.3g} rad of x1, x2 and x+ ({why}); "
        f"{int((live & (angle > 0.1)).any(1).sum())} seeds have one beyond 0.1 rad, "
        f"{int(far.any(1).sum())} beyond pi/8; worst {angle[live].max():.3g} rad. "
        f"{int(np.sum(lag & (v0 < n0)))} of the {int(lag.sum())} started with v_j(0) < |w_j(0)| "
        f"({int(np.sum(lag & (v0 < 0)))} with v_j(0) < 0), which the paper's unbalanced init allows and (3) "
        "excludes: they turn at rate v_j/|w_j| < 1 (min2024:figure-9-corrected)."
    )


@claim(
    "min2024:figure-9",
    title="Fig. 9: orthogonal data (mu = 0): positive neurons align with x1, x2 or x+; those outside S+ "
    "never enter it and do not grow",
    source="Fig. 9 and App. A.3 (falsification of the mu > 0 requirement)",
    statement=r"$x_1=[1,0]$, $x_2=[0,1]$ (+1, +1): 'In the alignment phase, positive neurons are aligned "
    r"with one of these directions: $x_1$, $x_2$, $x_+$, and only those aligned with $x_+$ grow their norm "
    r"for final convergence' (Fig. 9's caption; A.3: 'at the end of the alignment phase ... it could end up "
    r"being in $S_+$, aligned with $x_1$, or aligned with $x_2$')",
    hypotheses=[ORTHOGONAL_DATA, SMALL_INIT_GD],
    erratum=Erratum(
        "over the paper's own random (unbalanced) init some runs keep, at the end of the alignment phase "
        f"(iteration {FIG7_STEPS}, t = 7), a non-dead positive neuron nearer to none of x1, x2, x+ (beyond "
        "pi/8 of each; up to 1.27 rad at the full profile's 128 seeds); every such neuron started with "
        "v_j(0) < |w_j(0)| (most with v_j(0) < 0: its sign changed during alignment), which Theorem 1's "
        "balanced init excludes, and it turns at rate v_j/|w_j| < 1: the cause of Fig. 7's erratum. With "
        "v_j(0) >= |w_j(0)| every positive neuron is aligned to the theory's precision "
        "(min2024:figure-9-corrected). The paper shows one run",
        via="measured here over the seeds of every profile, chosen before looking (keys 0..seeds-1)",
        shown_by=("every non-dead positive neuron within pi/8 of x1, x2 or x+*",),
    ),
)
def figure_9(ctx: Context) -> None:
    seeds, h = _sizes(ctx)
    steps = ctx.param("steps", tiny=8000, quick=15000)
    # init scales of the norm-ratio order, inside the regime (<= 1e-6): S+ fits the data at t ~ ln(1/(sqrt(h)
    # alpha))/sqrt 2 (9.5 for 1e-6, 12.8 for 1e-8, 16 for 1e-10), within t = eta steps (16 tiny, 30 quick)
    alphas = np.array(ctx.param("alphas", tiny=[1e-6, 1e-7, 1e-8], quick=[1e-6, 1e-8, 1e-10]))
    record = np.arange(0, steps + 1, 500)
    ctx.regime(ORTHOGONAL_DATA, mu=separation(*_two_points(0.0)))
    ctx.regime(SMALL_INIT_GD, alpha=float(alphas.max()))
    r = _gd_run(ctx, 0.0, seeds, h, steps, record)
    _gd_finite(ctx, r, seeds)

    def all_outside(r: dict, why: str) -> None:
        out = _outside(r, -1)
        ctx.holds(
            f"some non-dead positive neuron outside S+ at iteration {steps}, in every seed",
            bool(np.all(out > 0)),
            measured=out.tolist(),
            expected="> 0",
            why=why,
        )

    all_outside(
        r, "with <x1,x2> = 0 a neuron active on x1 only has d<w,x2>/dt = 0 exactly: it never enters S+"
    )
    _aligned_as_printed(ctx, r, record)
    _norm_ratio_order(ctx, r, seeds, h, steps, record, alphas)
    _figure(ctx, "Fig. 9: neurons outside S+", r, record)
    with ctx.control(
        "Fig. 7 data (mu = sin 0.1)",
        breaks=ORTHOGONAL_DATA,
        must_break=["some non-dead positive neuron outside S+*"],
    ):
        all_outside(_gd_run(ctx, 0.1, seeds, h, steps, record), "as above")


BALANCED_START = r"$v_j(0)\ge\|w_j(0)\|$ (the balanced init (3)'s sign condition)"
FIG9_SEARCH_H = 4  # neurons of one searched start


def _fig9_start(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""A start of :data:`FIG9_SEARCH_H` neurons inside :data:`BALANCED_START` from ``theta`` (3 per neuron):
    direction :math:`\phi=\pi\tanh\theta_0` (the whole circle), norm
    :math:`\alpha\,10^{\tanh\theta_1}` (within a decade of the paper's init scale) and
    :math:`v_j(0)=\|w_j(0)\|(1+e^{\theta_2})`: every start with :math:`v_j(0)>\|w_j(0)\|`, the boundary
    :math:`v_j(0)=\|w_j(0)\|` as :math:`\theta_2\to-\infty`."""
    t = theta.reshape(FIG9_SEARCH_H, 3)
    phi, norm = np.pi * np.tanh(t[:, 0]), INIT * 10.0 ** np.tanh(t[:, 1])
    W0 = (norm[:, None] * np.stack([np.cos(phi), np.sin(phi)], axis=1))[None]
    return W0, (norm * (1 + np.exp(t[:, 2])))[None]


def _fig9_starts(rng: np.random.Generator) -> dict[str, list[np.ndarray]]:
    """Start families of the Fig. 9 search (directions, log-norms, balance excess per neuron)."""

    def family(phis: np.ndarray, excess: float) -> np.ndarray:
        t = np.stack([np.arctanh(phis / np.pi), rng.normal(0, 0.5, phis.size), np.full(phis.size, excess)], 1)
        return t.ravel()

    h = FIG9_SEARCH_H
    return {
        "on the boundary v_j(0) = |w_j(0)|, random directions": [family(rng.uniform(-3, 3, h), -8.0)],
        "near the dead boundary (active on one point, 90 degrees off it)": [
            family(np.array([np.pi - 0.01, -np.pi / 2 + 0.01, 0.01 - np.pi / 2, np.pi / 2 + 0.01]), -4.0)
        ],
        "near x- = x1 - x2 and its mirror": [
            family(np.array([-np.pi / 4, -np.pi / 4 + 0.1, 3 * np.pi / 4, 2.4]), -2.0)
        ],
        "on the bisectors (x+ and the dead quadrant's)": [
            family(np.array([np.pi / 4, np.pi / 4 + 0.05, -3 * np.pi / 4 + 0.05, 0.6]), 0.0)
        ],
    }


@claim(
    "min2024:figure-9-corrected",
    title="Fig. 9 corrected: positive neurons with v_j(0) >= |w_j(0)| are aligned with x1, x2 or x+ to the "
    "theory's angle at the end of alignment",
    source="Fig. 9 and App. A.3; Sec. 2 (v_j^2 - |w_j|^2 conserved); correction derived and measured here",
    statement=r"$x_1=[1,0]$, $x_2=[0,1]$ (+1, +1), the paper's unbalanced init: at iteration 3500 (t = 7) "
    r"every non-dead neuron with $v_j>0$ and $v_j(0)\ge\|w_j(0)\|$ lies within "
    r"$\theta^*=\arctan(1/\mathrm{sh}_{\eta r}(3500))$ ($\approx2\arctan e^{-7}$) of $x_1$, $x_2$ or $x_+$.",
    hypotheses=[ORTHOGONAL_DATA, SMALL_INIT_GD, BALANCED_START],
)
def figure_9_corrected(ctx: Context) -> None:
    seeds, h = _sizes(ctx)
    budget = ctx.param("search_budget", tiny=6, quick=30, full=120)
    record = np.arange(0, FIG7_STEPS + 1, 250)
    ctx.regime(ORTHOGONAL_DATA, mu=separation(*_two_points(0.0)))
    ctx.regime(SMALL_INIT_GD, alpha=INIT)
    r = _gd_run(ctx, 0.0, seeds, h, FIG7_STEPS, record)  # figure-9's runs (same stream), to t = 7
    _gd_finite(ctx, r, seeds)
    angle, live, theta, why = _alignment(r, record)
    balanced = _keeps_sign(r)
    at = f"at iteration {FIG7_STEPS}"
    name = f"every positive neuron with v_j(0) >= |w_j(0)| within theta* of x1, x2 or x+ {at}"

    def aligned(mask: np.ndarray, why: str) -> None:
        ctx.bound(
            name,
            angle[mask],
            theta,
            why=why,
            resolution=f"a lag beyond theta* = {theta:.3g} rad: the bound is attained as a_0 -> 0 (starts "
            "near the dead boundary, which a run of 50 neurons draws), so a slower turn than v_j/|w_j| >= 1 "
            "gives, or a theta* too small by more than the slack shown, fails it",
            details={"neurons": int(mask.sum()), "seeds": seeds},
        )

    aligned(live & balanced, why + "; every seed (keys fixed before looking)")

    def ratio(theta: np.ndarray) -> float:
        one = _gd_run(ctx, 0.0, 1, FIG9_SEARCH_H, FIG7_STEPS, record, init=_fig9_start(theta))
        a, pos, th, _ = _alignment(one, record)
        return float((a[pos] / th).max()) if pos.any() else 0.0

    ctx.search(
        f"search: angle / theta* of the positive neurons with v_j(0) >= |w_j(0)| at iteration {FIG7_STEPS}",
        ratio,
        _fig9_starts(ctx.rng("fig9-search").host),
        budget=budget,
        why=f"Nelder-Mead over starts of {FIG9_SEARCH_H} neurons inside v_j(0) >= |w_j(0)| (_fig9_start: any "
        "direction, norm within a decade of alpha, v_j(0) down to the boundary |w_j(0)|), theta* of each run "
        "from its own plateau rate (_alignment); the bound is attained as a start's angle to its point -> 90 "
        "degrees with v_j(0) = |w_j(0)|, so the search should approach 1 from below, not cross it "
        "(resolution: the same four starts at 90 degrees read 0.990 with v_j(0) = |w_j(0)|, 1.10 with "
        "v_j(0) = 0.9 |w_j(0)| and 1.96 with 0.5 |w_j(0)|: a lag of a tenth of the balance is caught)",
    )
    with ctx.control(
        "the neurons with v_j(0) < |w_j(0)| of the same runs",
        breaks=BALANCED_START,
        must_break=[name],
    ):
        aligned(live & ~balanced, "as above, on the positive neurons that start unbalanced")
