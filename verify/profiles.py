"""Run profiles: how large and how many.

* ``tiny``  -- seconds per claim; used by the test suite.
* ``quick`` -- the default: the whole suite on a 2-core CPU in a few minutes.
* ``full``  -- paper-scale sizes; a GPU (``--backend cupy``) is recommended.

A claim picks its sizes with ``ctx.param(name, tiny=..., quick=..., full=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from verify.errors import UserError


@dataclass(frozen=True)
class Profile:
    name: str
    description: str


PROFILES = {
    p.name: p
    for p in (
        Profile("tiny", "smallest sizes that still exercise every check (tests)"),
        Profile("quick", "default: whole suite on a 2-core CPU in a few minutes"),
        Profile("full", "paper-scale sizes; GPU recommended"),
    )
}

DEFAULT_PROFILE = "quick"


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise UserError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}") from None
