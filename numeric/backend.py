"""Array backends: NumPy on the CPU, CuPy on an NVIDIA GPU, one code path.

Numeric code never imports ``numpy`` as its computing namespace directly; it asks
:func:`array_namespace` for the module that owns its arrays and calls that, so the
same function runs on either device.

Random numbers are always drawn on the host with NumPy's PCG64 generator and then
moved to the device.  A seed therefore gives the *same* numbers on every backend,
which is what lets a claim give the same verdict on ``--backend cupy`` as on NumPy.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

DEFAULT_DTYPE = np.float64

Array = Any  # numpy.ndarray or cupy.ndarray

BACKENDS = ("numpy", "cupy")


class BackendUnavailable(RuntimeError):
    """The requested backend cannot run here (e.g. CuPy without a GPU)."""


def _cupy() -> ModuleType | None:
    try:
        cupy = importlib.import_module("cupy")
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
        return cupy
    except Exception:  # ImportError, CUDARuntimeError: no usable device
        return None


def cupy_available() -> bool:
    """True iff CuPy imports and sees at least one CUDA device."""
    return _cupy() is not None


def array_namespace(*arrays: Array) -> ModuleType:
    """The array module that owns ``arrays``: ``cupy`` for CuPy arrays, the array's own
    ``__array_namespace__()`` for other device arrays (the test suite's strict backend), else ``numpy``."""
    for a in arrays:
        if _is_device(a):
            if type(a).__module__.startswith("cupy"):
                return importlib.import_module("cupy")
            return a.__array_namespace__()
    return np


def is_host(xp: ModuleType) -> bool:
    """True for NumPy: reading a value of its arrays in Python (``if a.any():``) costs no sync."""
    return xp is np


def _is_device(a: Any) -> bool:
    """A device array: CuPy's, or a non-NumPy array with ``__array_namespace__`` and CuPy's ``.get()``."""
    if isinstance(a, (np.ndarray, np.generic)):
        return False
    return type(a).__module__.startswith("cupy") or (hasattr(a, "__array_namespace__") and hasattr(a, "get"))


def to_numpy(a: Array) -> np.ndarray:
    """Copy ``a`` to the host (no-op for NumPy arrays): the one explicit device-to-host sync."""
    if _is_device(a) and hasattr(a, "get"):
        return a.get()
    return np.asarray(a)


def matmul_add(a: Array, b: Array, out: Array) -> Array:
    """``out += a @ b`` for 2-D arrays, in place; returns ``out``.

    On NumPy with float32/float64 operands this is one BLAS GEMM with ``beta = 1``
    (``C <- A B + C``), so the product is accumulated straight into ``out``: no ``(M, N)``
    temporary is written and read back, which halves the memory traffic of a gradient
    step whose update has the shape of the weights (see :meth:`numeric.models.fixed_readout.
    FixedReadoutNet.descend`). ``out`` must be C-contiguous (it is then updated through
    its Fortran-ordered transpose, ``C^T <- B^T A^T + C^T``, without a copy). Other
    backends and dtypes take the plain ``out += a @ b``. The two differ only in rounding
    (the GEMM adds each partial product into ``out`` instead of rounding ``a @ b`` first).
    """
    if array_namespace(a, b, out) is np and out.flags.c_contiguous and out.dtype in _GEMM:
        gemm = getattr(_scipy_blas(), _GEMM[out.dtype])
        at, bt = np.asarray(a, dtype=out.dtype).T, np.asarray(b, dtype=out.dtype).T
        res = gemm(1.0, bt, at, beta=1.0, c=out.T, overwrite_c=True)
        if not np.shares_memory(res, out):  # the wrapper had to copy: write the result back
            out[...] = res.T
        return out
    out += a @ b
    return out


_GEMM = {np.dtype(np.float64): "dgemm", np.dtype(np.float32): "sgemm"}


def _scipy_blas() -> ModuleType:
    return importlib.import_module("scipy.linalg.blas")


@dataclass(frozen=True)
class Backend:
    """A named array namespace plus a float dtype.

    Attributes
    ----------
    name: ``"numpy"`` or ``"cupy"``.
    xp: the array module.
    dtype: the float dtype of every array this backend creates (float64 by default).
    """

    name: str
    xp: ModuleType
    dtype: Any = DEFAULT_DTYPE

    def asarray(self, a: Any) -> Array:
        """``a`` as a device array of this backend's dtype."""
        return self.xp.asarray(a, dtype=self.dtype)

    def rng(self, seed: int) -> Rng:
        """A seeded generator whose draws are identical on every backend."""
        return Rng(seed, self)

    def sync(self) -> None:
        """Wait for queued device work (a no-op on NumPy); use before timing."""
        if self.name == "cupy":
            self.xp.cuda.Stream.null.synchronize()


class Rng:
    """Seeded random numbers drawn on the host (PCG64) and moved to ``backend``."""

    def __init__(self, seed: int, backend: Backend):
        self.seed = seed
        self.backend = backend
        self.host = np.random.default_rng(seed)

    def normal(self, size: tuple[int, ...], scale: float = 1.0) -> Array:
        return self.backend.asarray(self.host.normal(0.0, scale, size))

    def uniform(self, size: tuple[int, ...], low: float = 0.0, high: float = 1.0) -> Array:
        return self.backend.asarray(self.host.uniform(low, high, size))

    def spawn(self, key: int) -> Rng:
        """An independent child generator, reproducible from (seed, key)."""
        child = np.random.SeedSequence([self.seed, key]).generate_state(1)[0]
        return Rng(int(child), self.backend)


def get_backend(name: str = "numpy", dtype: Any = DEFAULT_DTYPE) -> Backend:
    """Return the backend called ``name``; ``"auto"`` picks CuPy when a GPU is usable.

    Raises ``ValueError`` for an unknown name and :class:`BackendUnavailable` when
    CuPy is asked for but cannot run.
    """
    if name == "auto":
        name = "cupy" if cupy_available() else "numpy"
    if name == "numpy":
        return Backend("numpy", np, dtype)
    if name == "cupy":
        cupy = _cupy()
        if cupy is None:
            raise BackendUnavailable(
                "backend 'cupy' needs CuPy and an NVIDIA GPU; install the cuda12 or cuda13 "
                "extra on a GPU machine"
            )
        return Backend("cupy", cupy, dtype)
    raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)} or 'auto'")
