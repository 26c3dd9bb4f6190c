"""dana2025 Theorem 1 / Corollary 1: a run below the claims' design scale (n = 400, the design member
count, T = 500) is labelled reduced scale with that scale's estimated cost; a run at it is not."""

from __future__ import annotations

from numeric.backend import get_backend
from verify.context import Context
from verify.papers.dana2025.convergence import DESIGN_N, DESIGN_T, _below_design
from verify.profiles import get_profile


def _ctx() -> Context:
    return Context("dana2025:theorem-1", get_backend("numpy"), get_profile("tiny"), 0)


def test_design_scale_is_not_labelled():
    ctx = _ctx()
    _below_design(ctx, "Theorem 1", DESIGN_N, 2000, DESIGN_T, 2000)
    assert ctx.scale is None


def test_each_reduction_is_labelled_with_the_design_cost():
    for n, members, T in ((DESIGN_N - 1, 2000, DESIGN_T), (DESIGN_N, 120, DESIGN_T), (DESIGN_N, 2000, 400.0)):
        ctx = _ctx()
        _below_design(ctx, "Theorem 1", n, members, T, 2000)
        assert ctx.scale is not None and ctx.scale.kind == "reduced scale"
        # 2000 members x 5000 steps x 0.96 ms = 9600 s
        assert "estimated 2.7 CPU-h" in ctx.scale.reason and f"{members} networks" in ctx.scale.reason
