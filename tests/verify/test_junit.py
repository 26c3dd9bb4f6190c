"""``verify run --junit``: one test case per claim; verdicts mapped as verify/junit.py documents."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from cli_support import fake_check, fake_claim, fake_record, patch_claims
from conftest import TINY_CLAIM

from verify.junit import junit_xml
from verify.records import Erratum, Outcome, Record, Verdict

VERDICTS = ["PASS", "FAIL", "XFAIL", "XPASS", "INCONCLUSIVE", "ERROR"]


def _record(verdict: str, k: int) -> Record:
    base = fake_record()
    return replace(
        base,
        id=f"fake2025:lemma-{k}",
        title=f"claim {k} <&>",
        verdict=Verdict(verdict),
        reason=f"because {verdict}",
        checks=(fake_check("c", 2.0, Outcome.FAIL, relation="a <= b"),),
        erratum=Erratum("printed wrongly") if verdict in ("XFAIL", "XPASS") else None,
        traceback="Traceback: boom" if verdict == "ERROR" else "",
        provenance=replace(base.provenance, runtime_s=0.5),
    )


def test_verdicts_map_to_junit_elements():
    root = ET.fromstring(junit_xml([_record(v, k) for k, v in enumerate(VERDICTS)]))
    (suite,) = root.findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == (
        "6",
        "2",
        "1",
        "1",
    )
    cases = {
        c.find("properties/property[@name='verdict']").get("value"): c for c in suite.findall("testcase")
    }
    assert list(cases) == VERDICTS
    kinds = {v: [child.tag for child in c if child.tag != "properties"] for v, c in cases.items()}
    assert kinds == {
        "PASS": [],
        "FAIL": ["failure"],
        "XFAIL": [],
        "XPASS": ["failure"],
        "INCONCLUSIVE": ["skipped"],
        "ERROR": ["error"],
    }
    assert "c: a <= b" in cases["FAIL"].find("failure").text
    assert cases["XPASS"].find("failure").text == "printed wrongly"
    assert cases["ERROR"].find("error").text == "Traceback: boom"
    assert cases["INCONCLUSIVE"].find("skipped").get("message") == "INCONCLUSIVE: because INCONCLUSIVE"
    assert cases["PASS"].get("classname") == "fake2025" and cases["PASS"].get("time") == "0.500"


def _fail(ctx):
    ctx.close("x equals y", 1.0, 2.0, why="it does not")


def test_run_writes_junit(tmp_path, verify_main, monkeypatch):
    patch_claims(monkeypatch, [fake_claim(_fail)])
    junit = tmp_path / "junit.xml"
    code, out, err = verify_main("run", "--profile", "tiny", "--out", tmp_path / "out", "--junit", junit)
    assert code == 1, out + err
    (case,) = ET.parse(junit).getroot().iter("testcase")
    assert case.get("name") == "fake2025:lemma-1" and case.find("failure") is not None


def test_report_writes_junit_of_the_stored_results(tiny_run_copy, tmp_path, verify_main):
    code, _, err = verify_main("report", "--out", tiny_run_copy, "--junit", tmp_path / "all.xml")
    assert code == 0, err
    (case,) = ET.parse(tmp_path / "all.xml").getroot().iter("testcase")
    assert case.get("name") == TINY_CLAIM
