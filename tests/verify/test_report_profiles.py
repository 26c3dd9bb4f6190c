"""The index shows the default run and the paper-scale run side by side (``verify.report.profiles``)."""

from __future__ import annotations

import dataclasses
import shutil

from verify.results import load, save


def _as_full(out):
    """A paper-scale companion of the tiny run in ``out/full``: the same record, profile ``full``."""
    (record,) = load(out).values()
    full = dataclasses.replace(
        record, provenance=dataclasses.replace(record.provenance, profile="full", runtime_s=123.0)
    )
    save(out / "full", {full.id: full}, [full.id])
    return full


def test_the_index_of_either_run_shows_both_profiles(tiny_run_copy, verify_main):
    out = tiny_run_copy
    full = _as_full(out)
    assert verify_main("report", "--out", str(out))[0] == 0
    index = (out / "index.md").read_text()
    section = index[index.index("## Profiles side by side") :]
    assert "| claim | at tiny | wall (s) | at full | wall (s) |" in section
    assert f"[123](full/{full.paper}/{full.slug}.md)" in section

    shutil.copytree(out / full.paper, out / "full" / full.paper)  # the pages the full index links to
    assert verify_main("report", "--out", str(out / "full"))[0] == 0
    index = (out / "full" / "index.md").read_text()
    section = index[index.index("## Profiles side by side") :]
    assert "| claim | at tiny | wall (s) | at full | wall (s) |" in section  # profiles in order, not by dir
    assert f"(../{full.paper}/{full.slug}.md)" in section


def test_a_claim_the_other_run_has_not_reached_reads_not_run(tiny_run_copy, verify_main):
    out = tiny_run_copy
    (record,) = load(out).values()
    other = dataclasses.replace(record, id=record.id + "-other")
    save(out / "full", {other.id: other}, [other.id])
    assert verify_main("report", "--out", str(out))[0] == 0
    section = (out / "index.md").read_text().split("## Profiles side by side")[1]
    assert f"| {record.id} | **{record.verdict}** |" in section and "not run" in section


def test_no_companion_no_section(tiny_run_copy, verify_main):
    assert verify_main("report", "--out", str(tiny_run_copy))[0] == 0
    assert "Profiles side by side" not in (tiny_run_copy / "index.md").read_text()


def test_a_gpu_run_is_a_third_column_labelled_by_its_backend(tiny_run_copy, verify_main):
    out = tiny_run_copy
    full = _as_full(out)
    gpu = dataclasses.replace(
        full, provenance=dataclasses.replace(full.provenance, profile="tiny", backend="cupy")
    )
    save(out / "gpu", {gpu.id: gpu}, [gpu.id])
    assert verify_main("report", "--out", str(out))[0] == 0
    section = (out / "index.md").read_text().split("## Profiles side by side")[1]
    assert "| claim | at tiny | wall (s) | at tiny, cupy | wall (s) | at full | wall (s) |" in section
    assert f"(gpu/{gpu.paper}/{gpu.slug}.md)" in section
    assert verify_main("report", "--out", str(out / "gpu"))[0] == 0
    section = (out / "gpu" / "index.md").read_text().split("## Profiles side by side")[1]
    assert "| claim | at tiny | wall (s) | at tiny, cupy | wall (s) | at full | wall (s) |" in section
    assert f"(../full/{full.paper}/{full.slug}.md)" in section and f"(../{full.paper}/" in section


def test_a_reduced_scale_record_says_so_whatever_its_verdict(tiny_run_copy, verify_main):
    from verify.records import Scale, Verdict

    out = tiny_run_copy
    (record,) = load(out).values()
    reduced = dataclasses.replace(
        record,
        verdict=Verdict.INCONCLUSIVE,
        reason="undecided: a threshold reading",
        scale=Scale("reduced scale", "n = 40 of the paper's 2000", False),
    )
    save(out, {reduced.id: reduced}, [reduced.id])
    _as_full(out)
    assert verify_main("report", "--out", str(out))[0] == 0
    index = (out / "index.md").read_text()
    assert "undecided: a threshold reading [reduced scale]" in index  # the claims table's reason
    section = index[index.index("## Profiles side by side") :]
    assert section.count(".md) [reduced scale]") == 2  # the wall-time cell of each profile
