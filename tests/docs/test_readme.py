"""The README runs: the tutorial on a claim of your own, executed outside the repository,
ends in PASS (docs cannot rot); the quickstart is two commands."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verify import results

README = Path(__file__).resolve().parents[2] / "README.md"
TUTORIAL = "## Adding a claim for a new theorem"


def _tutorial_blocks() -> list[tuple[str, str]]:
    """The tutorial's ``bash`` and ``python`` code blocks, in order."""
    section = README.read_text().split(TUTORIAL, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(bash|python)\n(.*?)```", section, flags=re.S)


def _sandbox(root: Path) -> dict[str, str]:
    """Environment of a virtual environment in ``root`` layered on this Python (which has the
    toolkit installed), so the tutorial's ``pip install`` lands in ``root``; its own ``pip``,
    ``python`` and ``verify`` come first on PATH."""
    venv = root / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True
    )
    scripts = {"verify": "from verify.cli import main", "pip": "from pip._internal.cli.main import main"}
    for name, line in scripts.items():
        script = venv / "bin" / name
        script.write_text(f"#!{venv / 'bin' / 'python'}\nimport sys\n{line}\nsys.exit(main())\n")
        script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


@pytest.mark.slow
def test_readme_tutorial_runs_outside_the_repository(tmp_path):
    """``bash`` blocks run in a fresh directory outside the repository; a ``python`` block
    whose first line is ``# <path>`` is that file's content. The claim must earn PASS."""
    blocks = _tutorial_blocks()
    assert [lang for lang, _ in blocks].count("python") == 1 and len(blocks) >= 3, blocks
    work = tmp_path / "work"
    work.mkdir()
    env = _sandbox(tmp_path)
    for lang, code in blocks:
        if lang == "python":
            first = code.splitlines()[0]
            assert first.startswith("# "), f"a python block must name its file: {first!r}"
            (work / first[2:].strip()).write_text(code)
            continue
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", code], cwd=work, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, f"{code}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    (record,) = results.load(work / "mypaper2026-reports").values()
    assert (record.id, record.verdict) == ("mypaper2026:lemma-1", "PASS"), record.reason


def test_readme_quickstart_has_exactly_two_commands():
    text = README.read_text()
    quick = text.split("## Quickstart", 1)[1].split("##", 1)[0]
    (block,) = re.findall(r"```bash\n(.*?)```", quick, flags=re.S)
    assert len([line for line in block.splitlines() if line.strip()]) == 2
