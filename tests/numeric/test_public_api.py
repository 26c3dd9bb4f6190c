"""``numeric``'s public API: every listed name resolves, and ``import numeric`` loads nothing else."""

from __future__ import annotations

import subprocess
import sys

import pytest

import numeric


@pytest.mark.parametrize("name", numeric.__all__)
def test_every_public_name_resolves_to_its_defining_module(name):
    value = getattr(numeric, name)
    module = numeric._MODULE_OF[name]
    assert value is getattr(sys.modules[module], name)
    assert name in dir(numeric)


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'solve_ivp'"):
        _ = numeric.solve_ivp


def test_import_numeric_is_lazy():
    """The names load on first use: a bare import pulls in no submodule (nor NumPy, nor SciPy)."""
    code = (
        "import sys, numeric; "
        "print(sorted(m for m in sys.modules if m.startswith(('numeric.', 'scipy', 'numpy'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
