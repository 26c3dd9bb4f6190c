"""A strict CPU stand-in for CuPy: NumPy underneath, device semantics on top (issue 17 item 4).

:func:`strict_backend` returns a :class:`numeric.backend.Backend` called ``"strict"`` whose arrays
(:class:`StrictArray`) behave like CuPy's where the host/device boundary is concerned, and more
strictly still, so that code which would sync or break on a GPU fails on the CPU in CI:

* no implicit conversion to the host: ``__array__`` (hence ``np.asarray``) raises
  :class:`ImplicitSync` (a ``TypeError``, as CuPy's ``__array__``) everywhere; ``float()``, ``int()``,
  ``bool()`` (``if x.any():``), ``operator.index``, ``.tolist()``, iteration and ``format()``, which
  CuPy performs with a hidden device-to-host sync, raise it in the engine (``numeric/``, where each
  would stall every step; ``KNOWN_IMPLICIT_SYNCS`` lists the tolerated exceptions) and are counted
  as syncs in claim bodies (``verify/``: scalar reads of finished results);
* no mixing with host arrays: a ``numpy.ndarray`` operand of an operator, a ufunc, a NumPy function
  dispatched through ``__array_function__`` or a call on the namespace raises :class:`HostMixing`
  (CuPy: ``TypeError: Unsupported type <class 'numpy.ndarray'>``).  Python and NumPy scalars mix
  freely, and ``xp.asarray`` / ``xp.array`` take host data (the host-to-device copy);
* reductions return 0-d device arrays, not host scalars (as CuPy);
* syncs are counted: ``.get()`` (what :func:`numeric.backend.to_numpy` calls), ``.item()``,
  ``xp.asnumpy``, ``repr`` and each tolerated implicit conversion add one to :data:`SYNCS`
  (``with SYNCS.counting() as n: ...``).
"""

from __future__ import annotations

import contextlib
import linecache
import sys
import types
from collections.abc import Iterator
from typing import Any

import numpy as np

from numeric.backend import DEFAULT_DTYPE, Backend


class ImplicitSync(TypeError):
    """A device array was converted to the host implicitly."""


class HostMixing(TypeError):
    """A host (NumPy) array met a device array in one operation."""


class SyncCounter:
    """Counts device-to-host syncs: ``count`` all of them, ``implicit`` the tolerated implicit ones."""

    def __init__(self) -> None:
        self.count = 0
        self.implicit = 0

    @contextlib.contextmanager
    def counting(self) -> Iterator[list[int]]:
        """``with SYNCS.counting() as n:`` leaves the number of syncs inside the block in ``n[0]``."""
        start, box = self.count, [0]
        try:
            yield box
        finally:
            box[0] = self.count - start


SYNCS = SyncCounter()

# host-to-device transfers: the only namespace calls that accept NumPy arrays
_TRANSFERS = frozenset({"asarray", "array", "asanyarray"})


def _caller() -> str:
    """``file:line: code`` of the innermost frame outside this module."""
    frame = sys._getframe(1)
    while frame.f_code.co_filename == __file__:
        frame = frame.f_back
    code = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
    return f"{frame.f_code.co_filename}:{frame.f_lineno}: {code!r}"


# Types that pass through unwrapping and wrapping unchanged (the hot path: most operands are these)
_PLAIN = frozenset({float, int, bool, complex, str, type(None), slice, type(Ellipsis)})


def _unwrap(obj: Any, where: str) -> Any:
    """``obj`` with every StrictArray replaced by its NumPy array; NumPy arrays refused."""
    kind = type(obj)
    if kind is StrictArray:
        return obj._a
    if kind in _PLAIN:
        return obj
    if isinstance(obj, np.ndarray):
        raise HostMixing(f"{where}: a host numpy.ndarray {obj.shape} mixed with device arrays at {_caller()}")
    if isinstance(obj, (list, tuple)):
        return kind([_unwrap(o, where) for o in obj])
    if isinstance(obj, dict):
        return {k: _unwrap(v, where) for k, v in obj.items()} if obj else obj
    return obj


def _unwrap_host(obj: Any) -> Any:
    """Like :func:`_unwrap` for a host-to-device transfer (NumPy arrays are its input)."""
    kind = type(obj)
    if kind is StrictArray:
        return obj._a
    if kind in _PLAIN:
        return obj
    if isinstance(obj, (list, tuple)):  # an index: slices, integers, None, arrays
        return kind([_unwrap_host(o) for o in obj])
    return obj


def _wrap(obj: Any) -> Any:
    """NumPy arrays and scalars in ``obj`` as device arrays (reductions give 0-d arrays, as CuPy)."""
    if type(obj) in _PLAIN:
        return obj
    if isinstance(obj, np.ndarray):
        return StrictArray(obj)
    if isinstance(obj, (np.number, np.bool_)):
        return StrictArray(np.asarray(obj))
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):  # a named tuple (e.g. linalg.eigh)
        return type(obj)(*(_wrap(o) for o in obj))
    if isinstance(obj, (list, tuple)):
        return type(obj)(_wrap(o) for o in obj)
    return obj


# Where implicit conversions are refused.  The numeric engine (``numeric/``) must sync explicitly:
# its loops run per step and every hidden sync stalls the device.  Claim bodies (``verify/``)
# measure finished results on the host; a scalar read there (``float(err.max())``) is what CuPy
# does with one sync, so it is allowed and counted.  ``__array__`` (``np.asarray``) is refused
# everywhere, as by CuPy itself.
REFUSE_SCALAR_SYNCS_IN = ("/numeric/",)

# Implicit scalar syncs in ``numeric/`` that are known and tolerated (counted, not refused), each a
# (file suffix, code on the line) pair, until the code that owns them syncs explicitly (issue 17).
KNOWN_IMPLICIT_SYNCS: frozenset[tuple[str, str]] = frozenset(
    {
        ("numeric/engine/solve.py", "float(dt.min())"),  # the RK loop's step-size screen
    }
)


def _implicit(a: np.ndarray, kind: str, convert):
    """``convert(a)``, counted as a sync, where the calling line may convert implicitly (above)."""
    frame = sys._getframe(2)
    path = frame.f_code.co_filename
    code = linecache.getline(path, frame.f_lineno)
    known = any(path.endswith(suffix) and fragment in code for suffix, fragment in KNOWN_IMPLICIT_SYNCS)
    tolerated = kind != "__array__" and not any(part in path for part in REFUSE_SCALAR_SYNCS_IN)
    if known or tolerated:
        SYNCS.count += 1
        SYNCS.implicit += 1
        return convert(a)
    raise ImplicitSync(
        f"implicit conversion of a device array to the host ({kind}) at "
        f"{frame.f_code.co_filename}:{frame.f_lineno}: {code.strip()!r}; sync explicitly with "
        "numeric.backend.to_numpy (CuPy: .get())"
    )


def _binary(name: str):
    op = getattr(np.ndarray, name)

    def method(self, other):
        return _wrap(op(self._a, _unwrap(other, name)))

    method.__name__ = name
    return method


def _method(name: str):
    """NumPy's ``ndarray.<name>`` on a device array: operands unwrapped, results wrapped."""

    def method(self, *args, **kwargs):
        return _wrap(getattr(self._a, name)(*_unwrap(args, name), **_unwrap(kwargs, name)))

    method.__name__ = name
    return method


class StrictArray:
    """A device array of the strict backend (module docstring); ``_a`` is the NumPy array."""

    __slots__ = ("_a",)
    __array_priority__ = 1000
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, a: np.ndarray):
        self._a = a

    # -- the namespace, dispatch and explicit syncs -------------------------------------------
    def __array_namespace__(self, api_version: str | None = None) -> StrictNamespace:
        return xp

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        where = f"numpy.{ufunc.__name__}"
        out = kwargs.get("out")
        res = getattr(ufunc, method)(*_unwrap(inputs, where), **_unwrap(kwargs, where))
        if out is not None:
            return out[0] if len(out) == 1 else out
        return _wrap(res)

    def __array_function__(self, func, types_, args, kwargs):
        where = f"numpy.{func.__name__}"
        return _wrap(func(*_unwrap(args, where), **_unwrap(kwargs, where)))

    def get(self) -> np.ndarray:
        """The host copy (CuPy's ``.get()``): one counted sync."""
        SYNCS.count += 1
        return self._a.copy()

    def item(self) -> Any:
        SYNCS.count += 1
        return self._a.item()

    def __repr__(self) -> str:
        SYNCS.count += 1
        return f"strict({self._a!r})"

    # -- refused implicit conversions -----------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        return _implicit(self._a, "__array__", lambda a: np.asarray(a, dtype=dtype))

    def __float__(self):
        return _implicit(self._a, "float()", float)

    def __int__(self):
        return _implicit(self._a, "int()", int)

    def __complex__(self):
        return _implicit(self._a, "complex()", complex)

    def __index__(self):
        return _implicit(self._a, "operator.index", lambda a: a.__index__())

    def __bool__(self):
        return _implicit(self._a, "bool(): a Python `if` on device data", bool)

    def __iter__(self):
        return _implicit(self._a, "iteration", lambda a: iter(_wrap(list(a))))

    def __format__(self, spec: str) -> str:
        return _implicit(self._a, "format()", lambda a: format(a, spec))

    def tolist(self):
        return _implicit(self._a, ".tolist()", lambda a: a.tolist())

    # -- metadata (no sync) ---------------------------------------------------------------------
    shape = property(lambda self: self._a.shape)
    dtype = property(lambda self: self._a.dtype)
    ndim = property(lambda self: self._a.ndim)
    size = property(lambda self: self._a.size)
    nbytes = property(lambda self: self._a.nbytes)
    itemsize = property(lambda self: self._a.itemsize)
    strides = property(lambda self: self._a.strides)
    flags = property(lambda self: self._a.flags)
    T = property(lambda self: StrictArray(self._a.T))
    real = property(lambda self: StrictArray(self._a.real))
    imag = property(lambda self: StrictArray(self._a.imag))

    def __len__(self) -> int:
        return len(self._a)

    # -- indexing ------------------------------------------------------------------------------
    def __getitem__(self, key):
        return _wrap(self._a[_unwrap_host(key)])

    def __setitem__(self, key, value) -> None:
        self._a[_unwrap_host(key)] = _unwrap(value, "__setitem__")

    # -- methods: NumPy's, on device arrays ------------------------------------------------------
    def __getattr__(self, name: str):
        if name.startswith("__"):  # __array_interface__, __array_struct__, ...: NumPy would read them
            raise AttributeError(name)
        if callable(getattr(np.ndarray, name, None)):  # a method: defined on the class once, then found there
            setattr(StrictArray, name, _method(name))
            return getattr(self, name)
        return _wrap(getattr(self._a, name))

    def __neg__(self):
        return StrictArray(-self._a)

    def __pos__(self):
        return StrictArray(+self._a)

    def __abs__(self):
        return StrictArray(abs(self._a))

    def __invert__(self):
        return StrictArray(~self._a)


for _name in (
    "add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow rpow matmul rmatmul "
    "and rand or ror xor rxor lshift rlshift rshift rrshift lt le gt ge eq ne "
    "iadd isub imul itruediv ifloordiv imod ipow imatmul iand ior ixor"
).split():
    setattr(StrictArray, f"__{_name}__", _binary(f"__{_name}__"))


class StrictNamespace(types.ModuleType):
    """The ``xp`` of the strict backend: NumPy's functions on device arrays (module docstring)."""

    def __init__(self, name: str, host: types.ModuleType):
        super().__init__(name)
        self._host = host

    def __getattr__(self, name: str):
        attr = getattr(self._host, name)
        if isinstance(attr, types.ModuleType):
            sub = StrictNamespace(f"{self.__name__}.{name}", attr)
            setattr(self, name, sub)
            return sub
        if not callable(attr) or isinstance(attr, type):  # constants, dtypes, classes
            return attr
        if name in _TRANSFERS:

            def transfer(a, *args, **kwargs):
                if isinstance(a, StrictArray):
                    return _wrap(attr(a._a, *args, **kwargs))
                return _wrap(np.array(attr(_unwrap_host(a), *args, **kwargs), copy=True))  # new memory

            setattr(self, name, transfer)  # later lookups skip __getattr__
            return transfer
        where = f"{self.__name__}.{name}"

        def function(*args, **kwargs):
            return _wrap(attr(*_unwrap(args, where), **_unwrap(kwargs, where)))

        setattr(self, name, function)
        return function

    def asnumpy(self, a: Any) -> np.ndarray:
        """The host copy of a device array (CuPy's ``cupy.asnumpy``): one counted sync."""
        return a.get() if isinstance(a, StrictArray) else np.asarray(a)

    def get_default_memory_pool(self) -> _NoPool:
        return _NoPool()


class _NoPool:
    """CuPy's memory-pool interface, empty (the strict backend allocates through NumPy)."""

    def free_all_blocks(self) -> None:
        pass

    def total_bytes(self) -> int:
        return 0


xp = StrictNamespace("strict", np)


def strict_backend(dtype: Any = DEFAULT_DTYPE) -> Backend:
    """The strict backend (module docstring) as a :class:`numeric.backend.Backend`."""
    return Backend("strict", xp, dtype)
