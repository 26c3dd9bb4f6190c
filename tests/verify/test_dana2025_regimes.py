"""dana2025's regime tests at their edges: orthogonality to rounding, widths, (9), Delta, (89), (46), law."""

from __future__ import annotations

import numpy as np

from numeric.data.weakly_correlated import appendix_b_init_reduced, appendix_b_norms
from verify.papers.dana2025 import hypotheses as H
from verify.papers.dana2025.common import make_data, p_theorem1


def test_orthogonal_is_exact_up_to_rounding() -> None:
    rng = np.random.default_rng(0)
    data = make_data(rng, 8, "orthogonal")
    assert H.ORTHOGONAL.evaluate(off_ratio=data.off / float(data.norms.max()) ** 2)
    near = make_data(rng, 8, "equicorrelated", rho=1e-9)
    assert not H.ORTHOGONAL.evaluate(off_ratio=near.off / float(near.norms.max()) ** 2)


def test_lemma_5_width_is_its_formula() -> None:
    # ceil(4 log(4n/eps)) at theorem-1's n (tiny, quick, full), eps = 0.1: 4 log 240 = 21.92, 4 log 6400 =
    # 35.06, 4 log 16000 = 38.73
    assert [p_theorem1(n, 0.1) for n in (6, 160, 400)] == [22, 36, 39]


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


def _sweep_state(rng: np.random.Generator, *, gram_power: int = 2, scale: float = 1.0):
    """One App. B sample on x_i = c_i e_i (n = 32, p = 23, d = 128, 8 members), its Gram drawn as
    diag(c^gram_power) (2: the law; 4: the scale fault of the orthogonal sweep), w scaled by ``scale``."""
    c = appendix_b_norms(rng, 32)
    V, a, wperp2 = appendix_b_init_reduced(rng, np.diag(c**gram_power), 128, 8, 23, scale)
    return V, a, np.diag(c**2), wperp2


def _law(*state, d: int = 128) -> dict:
    """APP_B's reading of one state (V, a, G, wperp2) in R^d, as one of 4 tests."""
    return H.app_b_statistics(*state, d) | {"tests": 4}


def test_app_b_law_is_read_on_the_initial_state() -> None:
    rng = np.random.default_rng(3)
    stats = _law(*_sweep_state(rng))
    assert H.APP_B.evaluate(**stats) and H.app_b_outside(stats) < 1
    faulty = _law(*_sweep_state(rng, gram_power=4))  # <w|x>^2 variance x c^2
    assert not H.APP_B.evaluate(**faulty) and faulty["gap"] < 0 and faulty["z_span"] > 20
    assert H.app_b_outside(faulty) == np.inf
    V, a, G, wperp2 = _sweep_state(rng, scale=1.05)  # w ~ N(0, 1.1 I/d): |a| - ||w|| drawn from it
    big = _law(V, a, G, wperp2)
    assert big["gap"] >= 0 and big["z_perp"] > 5 and not H.APP_B.evaluate(**big)
    V, a, G, wperp2 = _sweep_state(rng)
    one_sign = _law(V, np.abs(a), G, wperp2)  # sign(a) not uniform
    assert one_sign["z_sign"] > 5 and not H.APP_B.evaluate(**one_sign)
    shifted = _law(V, np.sign(a) * (np.abs(a) + 0.5), G, wperp2)  # Exp(1) + 1/2
    assert not H.APP_B.evaluate(**shifted)


def test_law_critical_values_are_familywise() -> None:
    z1, ks1 = H.law_critical(1)
    assert abs(z1 - 3.29) < 0.01 and abs(ks1 - 1.95) < 0.01  # level 0.001, one test
    z12, ks12 = H.law_critical(12)
    assert z12 > z1 and ks12 > ks1
    edge = {"gap": 0.0, "z_span": z12 * 0.999, "z_perp": 0.0, "z_sign": 0.0, "ks": 0.0, "tests": 12}
    assert H.APP_B.evaluate(**edge) and not H.APP_B.evaluate(**(edge | {"tests": 1}))


def test_app_b_law_in_gram_coordinates() -> None:
    rng = np.random.default_rng(4)
    data = make_data(rng, 12, "boundary", d=48)
    V, a, wperp2 = appendix_b_init_reduced(rng, data.G, 48, 40, 10)
    stats = _law(V, a, data.G, wperp2, d=48)
    assert H.APP_B.evaluate(**stats)
    wrong = _law(V, a, np.diag(np.diag(data.G)), wperp2, d=48)  # the correlations ignored
    assert not H.APP_B.evaluate(**wrong)


def test_kink_of_section_c2() -> None:
    assert H.KINK.evaluate(pre=0.0, ar_min=0.3)
    assert not H.KINK.evaluate(pre=1e-3, ar_min=0.3)  # not at the kink (the claim's control)
    assert not H.KINK.evaluate(pre=0.0, ar_min=-1e-9)  # a_j r_i changes sign inside the branching window
