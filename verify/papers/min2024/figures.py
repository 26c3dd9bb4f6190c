r"""min2024 Figures 7-9: two positive points in :math:`\mathbb R^2` at angle :math:`\pi/2-\beta`.

:math:`x_1=[1,0]`, :math:`x_2=[\sin\beta,\cos\beta]`, both labelled +1, so :math:`\mu=\sin\beta`:
Fig. 7 :math:`\beta=0.1` (:math:`\mu\approx0.0998`), Fig. 8 :math:`\beta=0.001`, Fig. 9
:math:`\beta=0` (orthogonal, :math:`\mu=0`).  As in the paper (Sec. 5): h = 50, *unbalanced*
Gaussian init :math:`W_{ij},v_j\sim\mathcal N(0,\alpha^2)`, :math:`\alpha=10^{-6}`, full-batch GD on
both layers with :math:`\eta=2\times10^{-3}`.  The loss is not stated in the paper; we use
the exponential loss summed over the samples.  Outside Theorem 1's hypotheses (GD,
unbalanced), so :math:`\mathcal V_+(t)=\{j:v_j(t)>0\}` is re-read at every record.
"""

from __future__ import annotations

import numpy as np

from numeric.backend import to_numpy
from numeric.data.separated_data import DEAD, PLUS, planar, regions, separation
from numeric.engine.descent import gradient_descent
from numeric.models.activation import RELU
from numeric.models.balanced_relu import PlainFlow, join, split
from numeric.models.losses import Loss
from verify.claim import claim
from verify.context import Context, Series
from verify.papers.min2024.hypotheses import ASSUMPTION_1, ORTHOGONAL_DATA, SMALL_INIT_GD

LR = 2e-3
INIT = 1e-6


def _two_points(beta: float) -> tuple[np.ndarray, np.ndarray]:
    return planar(np.array([0.0, np.pi / 2 - beta])), np.ones(2)


def _gd_run(
    ctx: Context, beta: float, seeds: int, h: int, steps: int, record: np.ndarray, stream: str = ""
) -> dict:
    """GD from the paper's init for ``seeds`` members; region codes and norms at ``record``. The init is
    drawn from the stream ``stream`` (default ``gd/{beta}``): two runs on one stream start alike."""
    X, y = _two_points(beta)
    rng = ctx.rng(stream or f"gd/{beta}").host
    W0 = rng.normal(0.0, INIT, size=(seeds, h, 2))
    v0 = rng.normal(0.0, INIT, size=(seeds, h))
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
    loss = Loss("exponential", "sum").value((v[..., None] * RELU.value(W @ X.T)).sum(2), y)
    return {"codes": codes, "v": v, "norm": np.linalg.norm(W, axis=-1), "loss": loss, "ok": tr.ok}


def _outside(r: dict, k: int) -> np.ndarray:
    """Per member: positive (v > 0), non-dead neurons NOT in S+ at record ``k``."""
    codes, v = r["codes"][:, k], r["v"][:, k]
    return ((v > 0) & (codes != DEAD) & (codes != PLUS)).sum(-1)


def _settled(r: dict, record: np.ndarray) -> np.ndarray:
    """Per member: the first record from which no non-dead positive neuron is outside S+ (inf if one still
    is at the last record)."""
    bad = np.stack([_outside(r, k) for k in range(len(record))], axis=1) > 0
    last = len(record) - 1 - np.argmax(bad[:, ::-1], axis=1)  # the last record with a neuron outside
    after = np.minimum(last + 1, len(record) - 1)
    return np.where(~bad.any(axis=1), float(record[0]), np.where(bad[:, -1], np.inf, record[after]))


def _sizes(ctx: Context) -> tuple[int, int]:
    return ctx.param("seeds", tiny=2, quick=4, full=16), ctx.param("H", tiny=50, quick=50)


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


@claim(
    "min2024:figure-7",
    title="Fig. 7: mu = sin 0.1 > 0, every non-dead positive neuron reaches S+ during alignment",
    source="Fig. 7 and App. A.2",
    statement=r"$x_1=[1,0]$, $x_2=[\sin0.1,\cos0.1]$ (+1, +1): at the end of the alignment phase every "
    r"non-dead neuron with $v_j>0$ activates both points ($S_+$)",
    hypotheses=[ASSUMPTION_1, SMALL_INIT_GD],
)
def figure_7(ctx: Context) -> None:
    seeds, h = _sizes(ctx)
    steps = 3500
    record = np.arange(0, steps + 1, 250)
    ctx.regime(ASSUMPTION_1, mu=separation(*_two_points(0.1)))
    ctx.regime(SMALL_INIT_GD, alpha=INIT)
    r = _gd_run(ctx, 0.1, seeds, h, steps, record)
    _gd_finite(ctx, r, seeds)

    def none_outside(r: dict, why: str, details: dict | None = None) -> None:
        out = _outside(r, -1)
        ctx.holds(
            "no non-dead positive neuron outside S+ at iteration 3500",
            bool(np.all(out == 0)),
            measured=out.tolist(),
            expected=0,
            why=why,
            details=details,
        )

    none_outside(
        r,
        "exact region labels (ties <= 1e-12 relative count inactive); iteration 3500 = t 7, before the "
        "norms leave O(alpha) (loss still ~ 2)",
        details={"loss_at_3500": r["loss"][:, -1].tolist()},
    )
    ctx.bound(
        "still on the loss plateau at iteration 3500 (loss >= 0.95 n): alignment precedes fitting",
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
        none_outside(_gd_run(ctx, 0.0, seeds, h, steps, record), "as above")


@claim(
    "min2024:figure-8",
    title="Fig. 8: mu = sin 0.001, alignment is slow: neurons still outside S+ at iteration 7000",
    source="Fig. 8 and App. A.2",
    statement=r"$x_2=[\sin0.001,\cos0.001]$: at iteration 7000 some non-dead positive neurons are still "
    r"outside $S_+$ (aligned with $x_1$ or $x_2$): as $\mu$ decreases, the time for every non-dead "
    r"neuron to reach $S_+$ increases",
    hypotheses=[r"$\mu=\sin0.001$ (tiny)", SMALL_INIT_GD],
)
def figure_8(ctx: Context) -> None:
    seeds, h = _sizes(ctx)
    steps = 7000
    record = np.arange(0, steps + 1, 250)
    ctx.regime(SMALL_INIT_GD, alpha=INIT)
    r = _gd_run(ctx, 0.001, seeds, h, steps, record)
    ref = _gd_run(ctx, 0.1, seeds, h, steps, record, stream="gd/0.001")  # Fig. 7's data, the same init
    _gd_finite(ctx, r, seeds)
    _gd_finite(ctx, ref, seeds)

    def some_outside(r: dict, why: str) -> np.ndarray:
        out = _outside(r, -1)
        ctx.holds(
            "some seed has a non-dead positive neuron outside S+ at iteration 7000",
            bool(np.any(out > 0)),
            measured=out.tolist(),
            expected="> 0 in some seed",
            why=why,
        )
        return out

    def slower(r: dict, why: str) -> None:
        late, early = _settled(r, record), _settled(ref, record)
        ctx.holds(
            "every non-dead positive neuron reaches S+ later than at mu = sin 0.1 (same init), every seed",
            bool(np.all(late > early)),
            measured={"mu small": late.tolist(), "mu = sin 0.1": early.tolist()},
            expected="later in every seed",
            why=why,
        )

    out = some_outside(
        r,
        "exact region labels; the x2-hyperplane lies 0.001 rad from x1, so a neuron attracted by x1 "
        "crosses "
        "only after ~ log(angle/0.001) / |x1| (catalog C4), which exceeds 7000 x 2e-3 = 14 only for neurons "
        "that start close to x1: seed-dependent (the paper reports one run), so 'some seed', not 'every'",
    )
    slower(
        r,
        "the paper's conclusion of A.2 ('as data separability mu decreases, the time needed for all neurons "
        "(that are not dead) to reach S+ increases'), paired: both data sets from the same GD init, so every "
        "seed is a comparison. Iteration from which no non-dead positive neuron is outside S+, records every "
        "250 (inf: still outside at 7000); a neuron attracted by x1 crosses x2's hyperplane ~ log(0.1/0.001) "
        "/ |x1| = 4.6 time units = 2300 iterations later at sin 0.001 (catalog C4), 9 records",
    )
    ctx.note(
        f"Fig. 8: {int(np.sum(out > 0))} of {seeds} seeds show neurons outside S+ at iteration 7000 "
        f"(counts {out.tolist()}); every non-dead positive neuron in S+ from iteration "
        f"{_settled(r, record).tolist()} (mu = sin 0.001) vs {_settled(ref, record).tolist()} (sin 0.1, "
        "same init)."
    )
    _figure(ctx, "Fig. 8: neurons outside S+", r, record)
    with ctx.control(
        "Fig. 7 data (mu = sin 0.1)",
        breaks=r"$\mu=\sin0.001$ (tiny)",
        must_break=[
            "some seed has a non-dead positive neuron outs*",
            "every non-dead positive neuron reaches*",
        ],
    ):
        some_outside(ref, "as above")
        slower(ref, "as above")


@claim(
    "min2024:figure-9",
    title="Fig. 9: orthogonal data (mu = 0): neurons aligned with x1 or x2 never enter S+ and do not grow",
    source="Fig. 9 and App. A.2 (falsification of the mu > 0 requirement)",
    statement=r"$x_1=[1,0]$, $x_2=[0,1]$ (+1, +1): positive neurons end aligned with $x_1$, $x_2$ or $x_+$; "
    r"only those in $S_+$ grow",
    hypotheses=[ORTHOGONAL_DATA, SMALL_INIT_GD],
)
def figure_9(ctx: Context) -> None:
    seeds, h = _sizes(ctx)
    steps = ctx.param("steps", tiny=8000, quick=15000)
    record = np.arange(0, steps + 1, 500)
    ctx.regime(ORTHOGONAL_DATA, mu=separation(*_two_points(0.0)))
    ctx.regime(SMALL_INIT_GD, alpha=INIT)
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
    codes, v, norm = r["codes"][:, -1], r["v"][:, -1], r["norm"][:, -1]
    grown_in = np.where((codes == PLUS) & (v > 0), norm, 0).max(-1)
    grown_out = np.where((codes != PLUS) & (v > 0), norm, 0).max(-1)
    # Norms grow like alpha e^{lambda t}, lambda = |x_a|: 1 on one point, |x_+| = sqrt 2 in S+. The S+ group
    # (at most h neurons) fits the data when h alpha^2 e^{2 sqrt2 t} ~ 1; then |w_in| ~ h^{-1/2} and
    # |w_out| ~ alpha (h alpha^2)^{-1/(2 sqrt2)}: ratio ~ alpha^{1 - 1/sqrt2} h^{1/2 - 1/(2 sqrt2)}, times 3
    # for the spread of the initial norms (the largest of each group) and the slow growth after the fit
    bound = 3 * INIT ** (1 - 1 / np.sqrt(2)) * h ** (0.5 - 1 / (2 * np.sqrt(2)))
    ctx.bound(
        "largest |w_j| outside S+ / largest inside S+",
        grown_out / grown_in,
        bound,
        why=f"neurons active on one point grow at rate |x_i| = 1 against |x_+| = sqrt 2 in S+ and stop once "
        f"the S+ group fits the data: ratio ~ alpha^(1 - 1/sqrt 2) h^(1/2 - 1/(2 sqrt 2)) = {bound / 3:.2g}, "
        "x 3 for the initial norms' spread (derivation beside it); a group outside S+ that grew as the "
        "statement denies would give O(1)",
        details={"ratios": (grown_out / grown_in).tolist()},
    )
    _figure(ctx, "Fig. 9: neurons outside S+", r, record)
    with ctx.control(
        "Fig. 7 data (mu = sin 0.1)",
        breaks=ORTHOGONAL_DATA,
        must_break=["some non-dead positive neuron outside S+*"],
    ):
        all_outside(_gd_run(ctx, 0.1, seeds, h, steps, record), "as above")
