"""Sizes and repeat counts of each benchmark, per profile (``tiny``, ``quick``, ``full``).

``quick`` is meant to finish in about three minutes on an idle 2-core CPU; ``full`` is
the issue's scale (1e5 GD steps, more sizes, more repeats); ``tiny`` only exercises
the harness (the smoke test).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class HardwareConfig:
    gemm_n: int = 2048
    copy_mib: int = 256
    min_time: float = 0.3  # per floor measurement
    micro_time: float = 0.05  # per micro-timing (one field call, one matmul, ...)


@dataclass(frozen=True)
class FlowConfig:
    """Benchmark 1: ensemble gradient flow vs a ``solve_ivp`` loop at matched accuracy."""

    sizes: dict[tuple[int, int, int], tuple[int, ...]]  # (n, d, m) -> ensemble sizes B
    rtols_ours: tuple[float, ...]
    rtols_ivp: tuple[float, ...]
    method: str = "dop853"  # ours: the engine's batched solve with this tableau ...
    compare_method: str = "dopri5"  # ... and, at the largest B, with this one (the method's share)
    ref_rtol: float = 1e-11  # reference: our DOPRI5 at this rtol ...
    ref_members: int = 32  # ... on the first members; errors are measured on these
    check_rtol: float = 1e-13  # cross-check of the reference: DOP853 at this rtol
    check_members: int = 2
    atol_ratio: float = 1e-2  # atol = atol_ratio * rtol for every solve
    T: float = 20.0
    w_init: float = 0.1
    ivp_members: int = 8  # the solve_ivp loop is timed on this many members, scaled by B/k
    scaling_rtol: float = 1e-8  # time vs B and vs size are read at this rtol
    scaling_B: int = 64
    repeats: int = 3
    profile_B: int = 256  # "where the time goes" is profiled at every size run with this B
    seed: int = 0


@dataclass(frozen=True)
class GDConfig:
    """Benchmark 2: long GD (kou2023) batched vs a PyTorch SGD loop, one net at a time."""

    n: int = 10
    d: int = 2000
    m: int = 20  # neurons per sign: 2m = 40 in total
    alpha: float = 0.5  # leaky-ReLU slope gamma
    lr: float = 10.0
    sigma0: float = 1e-3
    steps_total: int = 100_000  # the computation being costed
    steps: int = 2_000  # steps actually timed (rates are constant per step)
    Bs: tuple[int, ...] = (1, 4, 16)
    torch_members: int = 1
    torch_dtypes: tuple[str, ...] = ("float64", "float32")
    repeats: int = 3
    seed: int = 1


@dataclass(frozen=True)
class ProbConfig:
    """Benchmark 3: a convergence-probability estimate (dana2025), batched vs PyTorch."""

    n: int = 20
    d: int = 100
    p: int = 20
    runs: int = 100
    Bs: tuple[int, ...] = (25, 100)  # time vs B (all runs at once is the estimate itself)
    max_steps: int = 2_000
    threshold: float = 1e-8  # "converged": training loss below this
    check_every: int = 25  # the batched engine drops converged runs at this granularity
    lr: float = 1.0
    torch_runs: int = 100
    torch_dtypes: tuple[str, ...] = ("float64", "float32")
    repeats: int = 3
    seed: int = 2


@dataclass(frozen=True)
class NCFConfig:
    """Benchmark 4: NCF maximization with restarts (kumar2025), batched vs loops over restarts."""

    n: int = 100
    d: int = 20
    width: int = 10  # hidden widths of the depth-3 net; k = d + width unknowns per restart
    alpha: float = 0.0
    p: int = 2
    step: float = 0.2  # App. C.1.1
    iters: int = 500  # App. C.1.1 uses 2500; every iteration costs the same
    Rs: tuple[int, ...] = (10, 100, 1000)  # restarts at once (10 is the paper's)
    loop_restarts: int = 10  # the loops are timed on this many restarts and scaled
    torch_dtypes: tuple[str, ...] = ("float64", "float32")
    repeats: int = 3
    seed: int = 3


@dataclass(frozen=True)
class KinkConfig:
    """Benchmark 5: kinked flows (issue 18), the engine with and without events vs a solve_ivp loop."""

    sizes: dict[tuple[int, int, int], int] = field(
        default_factory=lambda: {(8, 8, 8): 256, (20, 20, 20): 256}
    )
    rtols_ours: tuple[float, ...] = (1e-5, 1e-6, 1e-7, 1e-8)
    rtols_ivp: tuple[float, ...] = (1e-5, 1e-6, 1e-7, 1e-8)
    plain_B: int = 32  # the engine without events is timed on this many members, scaled to B
    ref_rtol: float = 1e-12  # reference: the engine without events (DOP853) at this rtol ...
    ref_members: int = 8  # ... on the first members; errors are measured on these
    ivp_members: int = 4  # the solve_ivp loop is timed on this many members, scaled by B/k
    atol_ratio: float = 1e-2
    T: float = 50.0
    w_init: float = 0.1
    gaussian_size: tuple[int, int, int] = (8, 8, 8)
    gaussian_T: float = 50.0  # the engine with events (sliding mode) ...
    gaussian_B: int = 8
    gaussian_rtols: tuple[float, ...] = (1e-5, 1e-6, 1e-7, 1e-8)
    gaussian_plain_T: float = 0.5  # ... and without events (it chatters: ~1/rtol steps)
    gaussian_plain_rtols: tuple[float, ...] = (1e-5, 1e-6)
    repeats: int = 1
    seed: int = 5


@dataclass(frozen=True)
class WorkersConfig:
    """Benchmark 6: claims on 1..N local Dask workers vs the serial in-process run (issue 15).

    ``claims``: the claim ids run at ``claim_profile`` (``None``: every registered claim, i.e. the
    whole profile); ``sweep``: one claim whose body hands ``seeds`` per-seed runs to ``ctx.map``,
    so that every worker beyond the first can only help through the chunks of that one sweep.
    """

    claims: tuple[str, ...] | None = (
        "zhang2025:figure-1",
        "zhang2025:figure-6",
        "min2024:figure-9",
        "min2024:lemma-1",
        "kou2023:lemma-A.1",
        "kou2023:remark-4.4",
        "kumar2025:figure-6",
        "kumar2025:theorem-7-relu",
        "dana2025:lemma-2",
        "dana2025:proposition-1",
    )
    claim_profile: str = "quick"
    sweep: str = "kumar2025:lemma-5"
    seeds: int = 16
    workers: tuple[int, ...] = (1, 2)


@dataclass(frozen=True)
class SlidingConfig:
    """Benchmark 7: min2024's log-polar flow where neurons slide (:mod:`benchmarks.logpolar_sliding`).

    Per workload, the rtols of each mode (the sliding run first: the others' walls are divided by its
    wall at its last rtol); ``max_steps`` caps the chattering solves.
    """

    gaussian: tuple[tuple[str, tuple[float, ...]], ...] = (
        ("sliding", (1e-6, 1e-8)),
        ("live", (1e-4,)),
        ("plain", (1e-4,)),
    )
    square: tuple[tuple[str, tuple[float, ...]], ...] = (
        ("sliding", (1e-6, 1e-8)),
        ("live", (1e-4, 1e-6)),
        ("plain", (1e-4, 1e-6)),
    )
    max_steps: int = 20_000


@dataclass(frozen=True)
class GPUConfig:
    """Benchmark 8: the engine on CuPy vs NumPy and per-network loops (:mod:`benchmarks.gpu`).

    One size per problem, larger ensembles than the CPU benchmarks (a GPU pays off on many
    members): the flow at ``flow_size`` with ``flow_B`` members at ``flow_rtol``; long GD with
    ``gd_B`` members; the probability estimate with ``prob.runs`` runs.
    """

    flow: FlowConfig = FlowConfig(sizes={}, rtols_ours=(), rtols_ivp=(), ivp_members=8)
    flow_size: tuple[int, int, int] = (20, 20, 20)
    flow_B: int = 2048
    flow_rtol: float = 1e-7
    gd: GDConfig = GDConfig(steps=500, torch_members=2)
    gd_B: int = 64
    prob: ProbConfig = ProbConfig(runs=2000, torch_runs=5)
    repeats: int = 2


@dataclass(frozen=True)
class Profile:
    name: str
    hardware: HardwareConfig
    flow: FlowConfig
    gd: GDConfig
    prob: ProbConfig
    ncf: NCFConfig = NCFConfig()
    kinks: KinkConfig = KinkConfig()
    workers: WorkersConfig = WorkersConfig()
    sliding: SlidingConfig = SlidingConfig()
    gpu: GPUConfig = GPUConfig()
    notes: list[str] = field(default_factory=list)


PROFILES: dict[str, Profile] = {
    "tiny": Profile(
        "tiny",
        HardwareConfig(gemm_n=256, copy_mib=16, min_time=0.01, micro_time=0.002),
        FlowConfig(
            sizes={(4, 4, 4): (2, 4)},
            rtols_ours=(1e-5, 1e-7),
            rtols_ivp=(1e-5, 1e-7),
            ref_rtol=1e-10,
            ref_members=4,
            check_rtol=1e-11,
            check_members=1,
            T=2.0,
            ivp_members=2,
            scaling_rtol=1e-5,
            scaling_B=2,
            repeats=1,
            profile_B=4,
        ),
        GDConfig(n=4, d=20, m=2, steps_total=100, steps=20, Bs=(1, 2), repeats=1),
        ProbConfig(n=4, d=8, p=4, runs=4, Bs=(2, 4), max_steps=40, check_every=10, torch_runs=2, repeats=1),
        NCFConfig(n=8, d=4, width=3, iters=20, Rs=(2, 4), loop_restarts=2, repeats=1),
        KinkConfig(
            sizes={(4, 4, 4): 4},
            rtols_ours=(1e-5, 1e-6),
            rtols_ivp=(1e-4, 1e-5, 1e-6),
            plain_B=2,
            ref_rtol=1e-10,
            ref_members=4,
            ivp_members=2,
            T=5.0,
            gaussian_size=(4, 4, 4),
            gaussian_T=2.0,
            gaussian_B=2,
            gaussian_rtols=(1e-4, 1e-5),
            gaussian_plain_T=0.1,
            gaussian_plain_rtols=(1e-4, 1e-5),
        ),
        WorkersConfig(
            claims=("zhang2025:figure-1", "kou2023:lemma-A.1", "dana2025:lemma-2"),
            claim_profile="tiny",
            seeds=3,
            workers=(2,),
        ),
        SlidingConfig(
            gaussian=(("sliding", (1e-5,)), ("live", (1e-3,)), ("plain", (1e-3,))),
            square=(("sliding", (1e-5,)), ("live", (1e-4,)), ("plain", (1e-4,))),
            max_steps=2_000,
        ),
        GPUConfig(
            flow=FlowConfig(sizes={}, rtols_ours=(), rtols_ivp=(), T=2.0, ivp_members=2),
            flow_size=(4, 4, 4),
            flow_B=4,
            flow_rtol=1e-6,
            gd=GDConfig(n=4, d=20, m=2, steps=20, torch_members=1),
            gd_B=2,
            prob=ProbConfig(n=4, d=8, p=4, runs=4, max_steps=40, check_every=10, torch_runs=2),
            repeats=1,
        ),
    ),
    "quick": Profile(
        "quick",
        HardwareConfig(),
        FlowConfig(
            sizes={
                (20, 20, 20): (16, 64, 256),
                (4, 4, 4): (16, 256, 1024),
                (8, 8, 8): (16, 256, 1024),
                (50, 50, 50): (16, 64),
            },
            rtols_ours=(1e-5, 1e-6, 1e-7, 1e-8),
            rtols_ivp=(1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8),
            scaling_B=16,
        ),
        GDConfig(),
        ProbConfig(),
    ),
    "full": Profile(
        "full",
        HardwareConfig(min_time=1.0),
        FlowConfig(
            sizes={
                (20, 20, 20): (16, 64, 256, 1024),
                (4, 4, 4): (16, 256, 1024, 4096),
                (8, 8, 8): (16, 256, 1024, 4096),
                (50, 50, 50): (16, 64, 256),
                (100, 100, 100): (16, 64),
            },
            rtols_ours=(1e-5, 1e-6, 1e-7, 1e-8, 1e-9),
            rtols_ivp=(1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9),
            ref_rtol=1e-12,
            ref_members=64,
            ivp_members=16,
            repeats=5,
        ),
        GDConfig(steps=100_000, Bs=(1, 4, 16, 64), torch_members=2, repeats=1),
        ProbConfig(runs=500, Bs=(50, 100, 250, 500), torch_runs=100, repeats=3),
        NCFConfig(iters=2500, Rs=(10, 100, 1000, 10_000), loop_restarts=20, repeats=3),
        KinkConfig(
            sizes={(8, 8, 8): 1024, (20, 20, 20): 1024, (50, 50, 50): 256},
            rtols_ours=(1e-6, 1e-7, 1e-8, 1e-9),
            rtols_ivp=(1e-5, 1e-6, 1e-7, 1e-8, 1e-9),
            ref_members=16,
            ivp_members=8,
            repeats=3,
        ),
        # the whole full profile three times (serial, 1 and 2 workers): about 3x reports/full/COST.md
        # (--claims picks a sample); the sweep: kumar2025 Lemma 5's per-seed flows at full (6 seeds in
        # its own record, 203 s with its search on a loaded core), 16 seeds here
        WorkersConfig(claims=None, claim_profile="full", seeds=16),
        SlidingConfig(max_steps=100_000),
        GPUConfig(flow_B=8192, gd_B=256, prob=ProbConfig(runs=10_000, torch_runs=20), repeats=3),
    ),
}


def get_profile(name: str) -> Profile:
    """The profile called ``name``; ``ValueError`` for an unknown one."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}") from None
