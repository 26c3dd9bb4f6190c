"""symbolic.to_numeric: plain callables for NumPy, CuPy only on demand."""

import importlib.util

import numpy as np
import pytest
import sympy as sp

from symbolic.to_numeric import lambdify_numeric


def test_numpy_callable_broadcasts():
    t, a = sp.symbols("t a")
    f = lambdify_numeric([t, a], sp.exp(-a * t) * sp.sin(t))
    x = np.linspace(0, 1, 5)
    np.testing.assert_allclose(f(x, 2.0), np.exp(-2 * x) * np.sin(x))


def test_unknown_module_rejected():
    with pytest.raises(ValueError):
        lambdify_numeric([sp.Symbol("t")], sp.Symbol("t"), module="torch")


@pytest.mark.gpu
@pytest.mark.skipif(importlib.util.find_spec("cupy") is None, reason="CuPy not installed")
def test_cupy_callable():
    import cupy

    t = sp.Symbol("t")
    f = lambdify_numeric([t], sp.exp(-t), module="cupy")
    x = cupy.linspace(0, 1, 4)
    np.testing.assert_allclose(cupy.asnumpy(f(x)), np.exp(-np.linspace(0, 1, 4)))
