"""JUnit XML of a run (``verify run --junit PATH``), the format CI systems display.

One ``<testcase>`` per claim (``classname`` = paper key, ``name`` = claim id, ``time`` =
runtime in seconds), every one with a ``verdict`` property.  Verdicts map as follows:

=============  =====================================================================
PASS           passed
FAIL, XPASS    ``<failure>``: the reason, and the failing checks (or, for XPASS, the
               documented erratum that did not reproduce)
ERROR          ``<error>``: the reason and the stored traceback
INCONCLUSIVE   ``<skipped>`` with the reason (not decided either way)
XFAIL          passed, with property ``verdict = XFAIL`` (a documented erratum was
               reproduced, which is the expected outcome, as ``verify run``'s exit status
               also counts it)
=============  =====================================================================

so a CI job fails on exactly the verdicts that make ``verify run`` exit 1.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from verify.records import Record, Verdict


def _failing_checks(record: Record) -> str:
    lines = []
    for c in record.main_checks():
        if c.verdict in (Verdict.FAIL, Verdict.ERROR):
            lines.append(f"{c.name}: {c.relation} (measured {c.measured!r})")
    return "\n".join(lines)


def testcase(record: Record) -> ET.Element:
    """The ``<testcase>`` element of one results record."""
    runtime = record.provenance.runtime_s
    case = ET.Element("testcase", classname=record.paper, name=record.id, time=f"{float(runtime):.3f}")
    props = ET.SubElement(case, "properties")
    ET.SubElement(props, "property", name="verdict", value=record.verdict)
    ET.SubElement(props, "property", name="title", value=record.title)
    verdict, reason = record.verdict, record.reason
    if verdict in (Verdict.FAIL, Verdict.XPASS):
        failure = ET.SubElement(case, "failure", message=f"{verdict}: {reason}", type=str(verdict))
        failure.text = (
            _failing_checks(record)
            if verdict == Verdict.FAIL
            else (record.erratum.reason if record.erratum else "")
        )
    elif verdict == Verdict.ERROR:
        error = ET.SubElement(case, "error", message=f"ERROR: {reason}", type="ERROR")
        error.text = record.traceback or _failing_checks(record)
    elif verdict == Verdict.INCONCLUSIVE:
        ET.SubElement(case, "skipped", message=f"INCONCLUSIVE: {reason}")
    return case


def junit_xml(records: list[Record], name: str = "relu-verify") -> str:
    """A ``<testsuites>`` document with one ``<testsuite>`` holding a test case per record."""
    counts = Counter(r.verdict for r in records)
    suite = ET.Element(
        "testsuite",
        name=name,
        tests=str(len(records)),
        failures=str(counts["FAIL"] + counts["XPASS"]),
        errors=str(counts["ERROR"]),
        skipped=str(counts["INCONCLUSIVE"]),
        time=f"{sum(float(r.provenance.runtime_s) for r in records):.3f}",
    )
    suite.extend(testcase(r) for r in records)
    root = ET.Element("testsuites", name=name)
    root.append(suite)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def write_junit(path: Path, records: list[Record]) -> Path:
    path = Path(path)
    path.write_text(junit_xml(records), encoding="utf-8")
    return path
