"""dana2025's regime tests at their edges: orthogonality to rounding, Theorem 1's width formula."""

from __future__ import annotations

import numpy as np

from verify.papers.dana2025 import hypotheses as H
from verify.papers.dana2025.common import make_data, p_theorem1


def test_orthogonal_is_exact_up_to_rounding() -> None:
    rng = np.random.default_rng(0)
    data = make_data(rng, 8, "orthogonal")
    assert H.ORTHOGONAL.evaluate(off_ratio=data.off / float(data.norms.max()) ** 2)
    near = make_data(rng, 8, "equicorrelated", rho=1e-9)
    assert not H.ORTHOGONAL.evaluate(off_ratio=near.off / float(near.norms.max()) ** 2)


def test_width_of_theorem_1_is_its_formula() -> None:
    for n in (6, 160, 400):
        p = p_theorem1(n, 0.1)
        assert H.WIDTH_T1.evaluate(p=p, n=n, eps=0.1)
        assert not H.WIDTH_T1.evaluate(p=p - 1, n=n, eps=0.1)


def test_assumption_1_gap() -> None:
    assert H.ASSUMPTION_1.evaluate(gap=0.0)
    assert not H.ASSUMPTION_1.evaluate(gap=-1e-12)
