"""Array backends: reproducible host-side randomness, names, CuPy availability."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.backend import (
    DEFAULT_DTYPE,
    BackendUnavailable,
    array_namespace,
    cupy_available,
    get_backend,
    to_numpy,
)


def test_same_seed_same_numbers(backend):
    a, b = backend.rng(123), backend.rng(123)
    x, y = a.normal((3, 4), scale=2.0), b.normal((3, 4), scale=2.0)
    np.testing.assert_array_equal(to_numpy(x), to_numpy(y))
    np.testing.assert_array_equal(to_numpy(a.uniform((5,), -1, 1)), to_numpy(b.uniform((5,), -1, 1)))
    assert x.dtype == DEFAULT_DTYPE
    assert array_namespace(x) is backend.xp


def test_draws_equal_numpy_pcg64(backend):
    """Random numbers are drawn on the host, so every backend gives NumPy's numbers."""
    x = to_numpy(backend.rng(7).normal((4,), scale=3.0))
    np.testing.assert_array_equal(x, np.random.default_rng(7).normal(0.0, 3.0, (4,)))


def test_different_seeds_and_spawn():
    be = get_backend("numpy")
    assert not np.array_equal(be.rng(1).normal((8,)), be.rng(2).normal((8,)))
    r = be.rng(5)
    c1, c2, c1b = r.spawn(0), r.spawn(1), be.rng(5).spawn(0)
    np.testing.assert_array_equal(c1.normal((6,)), c1b.normal((6,)))
    assert not np.array_equal(be.rng(5).spawn(0).normal((6,)), c2.normal((6,)))


def test_unknown_backend_raises_value_error():
    with pytest.raises(ValueError, match="unknown backend 'nope'"):
        get_backend("nope")


@pytest.mark.skipif(cupy_available(), reason="a GPU is usable here")
def test_cupy_without_gpu_is_unavailable():
    with pytest.raises(BackendUnavailable, match="cupy"):
        get_backend("cupy")
    assert get_backend("auto").name == "numpy"


@pytest.mark.gpu
def test_auto_picks_cupy_on_a_gpu():
    if not cupy_available():
        pytest.skip("CuPy with a usable NVIDIA GPU is not available")
    assert get_backend("auto").name == "cupy"


def test_numpy_backend_basics():
    be = get_backend("numpy")
    a = be.asarray([1, 2, 3])
    assert a.dtype == np.float64 and array_namespace(a) is np
    assert to_numpy(a) is a or np.array_equal(to_numpy(a), a)
    be.sync()  # a no-op on the CPU
    f32 = get_backend("numpy", dtype=np.float32)
    assert f32.asarray([1.0]).dtype == np.float32
