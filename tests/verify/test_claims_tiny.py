"""Every built-in claim runs under the ``tiny`` profile and earns its expected verdict.

The table (``tests/expected_tiny.py``) is the project's current understanding of each
statement (see the committed reports for the evidence).  A built-in claim added without an entry fails
``test_every_builtin_claim_has_an_expected_verdict``, so the registry cannot drift from
it; papers registered from outside (an installed package of claims, ``--claims``) keep
their own tables (``verify new`` writes one).  Claims run through :func:`verify.plugin.run`,
the step the pytest plugin's items take.
"""

from __future__ import annotations

import json

import pytest
from expected_tiny import EXPECTED

from numeric.backend import cupy_available
from verify.plan import plan_claim
from verify.plugin import run
from verify.profiles import get_profile
from verify.registry import all_claims, builtin_keys

BUILTIN = [i for i, c in all_claims().items() if c.paper in builtin_keys()]


def test_every_builtin_claim_has_an_expected_verdict():
    assert set(BUILTIN) == set(EXPECTED)


@pytest.mark.parametrize("claim_id", BUILTIN)
def test_claim_tiny(claim_id):
    """The claim earns its expected verdict; its planning pass reads every parameter the run
    reads (so a bad ``--set`` is caught before anything runs); every control breaks a declared
    hypothesis and names the conclusions it must break."""
    record = run(claim_id, profile="tiny")
    assert record.verdict == EXPECTED[claim_id], (record.reason, record.traceback)
    plan = plan_claim(all_claims()[claim_id], get_profile("tiny"))
    assert json.loads(json.dumps(plan.params)) == json.loads(json.dumps(record.params)), plan.reached
    for control in record.controls:
        assert control.declared and control.must_break, control


@pytest.mark.gpu
@pytest.mark.skipif(not cupy_available(), reason="needs CuPy and an NVIDIA GPU")
@pytest.mark.parametrize("claim_id", BUILTIN)
def test_claim_tiny_same_verdict_on_cupy(claim_id):
    on_cpu = run(claim_id, profile="tiny", backend="numpy")
    on_gpu = run(claim_id, profile="tiny", backend="cupy")
    assert on_gpu.verdict == on_cpu.verdict, on_gpu.reason
