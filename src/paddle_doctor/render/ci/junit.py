"""JUnit XML of check Findings (``smoke --junit FILE``): one ``testcase`` per check, a ``failure``
for a failed one, ``skipped`` for one that did not run. CI systems (GitHub test reporters, GitLab,
Jenkins) read this format; the text is escaped by the XML writer."""

from __future__ import annotations

from collections.abc import Iterable
from xml.etree import ElementTree as ET

from ...findings import Finding, Outcome


def junit_xml(findings: Iterable[Finding], suite: str, seconds: float, name_of=lambda f: f.code.split(".", 1)[-1],
              outcome_of=lambda f: f.outcome) -> str:
    cases = list(findings)
    outcomes = [outcome_of(f) for f in cases]
    root = ET.Element("testsuite", name=suite, tests=str(len(cases)), time=f"{seconds:.3f}",
                      failures=str(sum(o is Outcome.FAIL for o in outcomes)),
                      skipped=str(sum(o is Outcome.SKIP for o in outcomes)), errors="0")
    for f, outcome in zip(cases, outcomes):
        case = ET.SubElement(root, "testcase", classname=suite, name=name_of(f), time="0")
        if outcome is Outcome.FAIL:
            failure = ET.SubElement(case, "failure", message=_printable(f.message), type=str(f.cause))
            failure.text = _printable(f"{f.message}\nmore: paddle-doctor explain {f.cause}")
        elif outcome is Outcome.SKIP:
            ET.SubElement(case, "skipped", message=_printable(f.message))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _printable(text: str) -> str:
    """XML 1.0 allows no control characters but tab and newlines (a log line may hold any)."""
    return "".join(c if c in "\t\n\r" or ord(c) >= 0x20 else "\ufffd" for c in text)
