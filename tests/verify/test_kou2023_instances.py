"""kou2023 instance searches: every theta maps into the hypotheses the claims instantiate, and a
Probe scores a check <= 1 exactly when it holds."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from numeric.backend import get_backend
from verify.papers.kou2023.instances import (
    NONFINITE,
    SCALE,
    Probe,
    Region,
    instance,
    kappa_cap,
    ratio,
    starts,
)

CTX = SimpleNamespace(backend=get_backend("numpy"))
REGIONS = [Region((0.2, 0.5), 0.2), Region((0.0, 0.0), 0.3, m=3, steps=200), Region((0.5, 0.8), 0.02)]


def _thetas(region: Region) -> list[np.ndarray]:
    """The search's starts and wild values (saturated squashings, huge init tilts)."""
    rng = np.random.default_rng(7)
    wild = [rng.normal(scale=s, size=8) for s in (1.0, 10.0, 100.0)]
    return [t for ts in starts(region).values() for t in ts] + [np.r_[3.0, w[1:]] for w in wild]


@pytest.mark.parametrize("region", REGIONS, ids=["leaky", "relu", "leaky-small-kappa"])
def test_instances_lie_inside_the_hypotheses(region):
    for theta in _thetas(region):
        ens = instance(CTX, theta, region)
        data, g = ens.setup.data, ens.setup.gammas[0]
        R = data.R_max / data.R_min
        assert R <= region.R * (1 + 1e-12)
        assert data.kappa <= kappa_cap(region, g, R) * (1 + 1e-12)
        assert np.linalg.eigvalsh(data.G).min() > 0
        assert region.gammas[0] <= g <= region.gammas[1]
        assert region.sigma0 / 100 * (1 - 1e-12) <= ens.setup.sigma0 <= region.sigma0
        Z0 = ens.run.model.init.Z0
        assert np.abs(Z0).max() <= 3 * ens.setup.sigma0 * data.R_max * (1 + 1e-12)
        assert np.isclose(ens.run.model.eta_host[0] * data.R_max**2 / (data.n * region.m), SCALE)
        if region.relu:  # Lemma A.2's event as the claims use it: every S_i(0) nonempty
            own = np.where(data.y[None, :] > 0, Z0[0, : region.m], Z0[0, region.m :]) >= 0
            assert own.any(axis=0).all()


def test_ratio_is_at_most_one_iff_the_check_holds():
    assert ratio(0.5, 1.0, "<=") <= 1 < ratio(1.5, 1.0, "<=")
    assert ratio(2.0, 1.0, ">=") <= 1 < ratio(0.5, 1.0, ">=")
    assert ratio(-0.1, 0.0, "<=") <= 1 < ratio(0.1, 0.0, "<=")
    assert ratio(0.1, 0.0, ">=") <= 1 < ratio(-0.1, 0.0, ">=")
    assert ratio(0.0, 0.0, "<=") == 0.0  # an exact zero count: nothing to climb
    assert ratio(0.0, 1.0, ">=") == np.inf


def test_probe_keeps_only_the_named_conclusions_and_flags_nonfinite():
    probe = Probe(["kept*"])
    probe.bound("kept: a", 0.5, 1.0)
    probe.bound("ignored", 10.0, 1.0)
    assert probe.worst() == 0.5
    probe.bound("kept: nan", float("nan"), 1.0)  # undefined: undecided, never a violation
    assert probe.worst() == 0.5 and "kept: nan" in probe.skipped
    probe.bound("kept: negative", -0.1, 1.0, side=">=")  # measured below a positive floor: violated
    assert probe.worst() == NONFINITE
    undecided = Probe(["kept*"])
    undecided.undecided("kept: a", "outside its regime")
    undecided.undecided("ignored", "not a conclusion")
    assert undecided.worst() is None and list(undecided.skipped) == ["kept: a"]
    with pytest.raises(RuntimeError):
        Probe(["nothing*"]).worst()
