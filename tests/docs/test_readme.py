"""The README's worked example of a new claim runs and earns PASS (docs cannot rot)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"

RUNNER = """
import sys
from numeric.backend import get_backend
from verify.claim import registered
from verify.profiles import get_profile
from verify.runner import run_claim
exec(compile(sys.stdin.read(), "README.md", "exec"))
record = run_claim(registered()["mypaper2026:lemma-3"], backend=get_backend("numpy"),
                   profile=get_profile("tiny"), seed=0)
print(record["verdict"], record["reason"])
"""


def _example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    (block,) = [b for b in blocks if "@claim(" in b]
    return block


def test_readme_claim_example_passes():
    out = subprocess.run(
        [sys.executable, "-c", RUNNER], input=_example(), capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("PASS"), out


def test_readme_quickstart_has_exactly_two_commands():
    text = README.read_text()
    quick = text.split("## Quickstart", 1)[1].split("##", 1)[0]
    (block,) = re.findall(r"```bash\n(.*?)```", quick, flags=re.S)
    assert len([line for line in block.splitlines() if line.strip()]) == 2
