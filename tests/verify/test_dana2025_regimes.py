"""dana2025's regime tests at their edges: orthogonality to rounding, widths, (9), Delta, (89), (46)."""

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


def test_off_ratio_reads_the_worst_gram_of_a_batch() -> None:
    G = np.stack([np.diag([1.0, 4.0]), np.array([[1.0, 0.4], [0.4, 4.0]])])
    assert H.off_ratio(G[:1]) == 0.0
    assert np.isclose(H.off_ratio(G), 0.1)  # ||E|| = 0.4 over max ||x_i||^2 = 4


def test_group_initialization_needs_every_part_of_9() -> None:
    assert H.GROUP_INIT.evaluate(on_min=0.2, off_max=0.0, asym=0.0)
    assert not H.GROUP_INIT.evaluate(on_min=0.0, off_max=0.0, asym=0.0)  # a neuron dead on its own group
    assert not H.GROUP_INIT.evaluate(on_min=0.2, off_max=1e-9, asym=0.0)  # active off its group
    assert not H.GROUP_INIT.evaluate(on_min=0.2, off_max=0.0, asym=1e-6)  # |a_j| != ||w_j||
    assert not H.ONE_SIGN.evaluate(sy_min=-1.5)
    assert H.ORTHONORMAL.evaluate(gram_dev=1e-15) and not H.ORTHONORMAL.evaluate(gram_dev=1e-9)


def test_delta_event_and_time_of_proposition_2() -> None:
    assert H.DELTA.evaluate(gap=0.5, delta=0.5)
    assert not H.DELTA.evaluate(gap=0.49, delta=0.5)
    assert not H.DELTA.evaluate(gap=1.0, delta=0.0)  # Delta must be > 0
    assert not H.EVENT_I.evaluate(members_with_I=0)
    assert H.PROP2_TIME.evaluate(ratio=1.0) and not H.PROP2_TIME.evaluate(ratio=0.99)


def test_proposition_3_and_lemma_3_conditions() -> None:
    assert H.SMALL_A.evaluate(ratio=0.01) and not H.SMALL_A.evaluate(ratio=0.5)
    assert H.WINDOW_89.evaluate(lo_ratio=1.0, hi_ratio=1.0)
    assert not H.WINDOW_89.evaluate(lo_ratio=0.9, hi_ratio=1.0)
    assert not H.WINDOW_89.evaluate(lo_ratio=1.0, hi_ratio=1.1)
    assert H.D_LEMMA3.evaluate(d=100, necessary=100) and not H.D_LEMMA3.evaluate(d=99, necessary=100)
    assert not H.NONZERO_LABELS.evaluate(cy_min=0.0)


def test_unspecified_constants_carry_no_test() -> None:
    for h in (H.WIDTH_L6, H.D_LEMMA8):
        assert h.test is None and "not" in h.condition
