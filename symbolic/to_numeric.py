"""Bridge from SymPy expressions to plain numeric callables.

Numeric code only ever receives the callables (and arrays) produced here, never SymPy
objects.  CuPy is imported lazily, only when ``module="cupy"`` is requested.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Literal

import sympy as sp

Module = Literal["numpy", "cupy"]


def array_module(module: Module) -> Any:
    """The array module named ``module`` (``numpy`` or ``cupy``), imported on demand."""
    if module not in ("numpy", "cupy"):
        raise ValueError(f"unknown module {module!r}")
    return importlib.import_module(module)


def lambdify_numeric(args: Sequence[sp.Symbol], expr: Any, module: Module = "numpy") -> Callable[..., Any]:
    """``sympy.lambdify(args, expr)`` printed for NumPy or CuPy.

    The callable evaluates elementwise on arrays of the chosen module (broadcasting as
    usual).  For ``"cupy"`` the CuPy import happens here, so a missing CuPy raises
    ``ImportError`` at construction time rather than at the first call.
    """
    array_module(module)
    return sp.lambdify(list(args), expr, modules=module)
