"""``paddle-doctor lint --format json`` (and the other machine-read formats below: concise, github,
gitlab, junit, and the ``--statistics`` table): a list of findings with ruff's field names.

Each entry: ``code``, ``name``, ``cause`` (a catalog id), ``message``, ``severity``, ``confidence``,
``filename``, ``location`` ``{row, column}`` and ``end_location`` (1-based), ``fix`` (``null`` or
``{applicability, message, edits: [{content, location, end_location}]}``), ``url``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable

from ..findings import Finding


def to_records(findings: Iterable[Finding], rules: dict) -> list[dict]:
    return [_record(f, rules.get(f.code)) for f in findings]


def render(findings: Iterable[Finding], rules: dict) -> str:
    return json.dumps(to_records(findings, rules), indent=2, ensure_ascii=False) + "\n"


def _record(finding: Finding, rule) -> dict:
    loc = finding.location
    return {
        "code": finding.code,
        "name": rule.name if rule else None,
        "cause": finding.cause,
        "message": finding.message,
        "severity": finding.severity.value,
        "confidence": finding.confidence.value,
        "filename": loc.path,
        "location": {"row": loc.line, "column": loc.column},
        "end_location": {"row": loc.end_line, "column": loc.end_column},
        "fix": _fix(finding, rule),
        "url": rule.url if rule else None,
    }


def _fix(finding: Finding, rule) -> dict | None:
    if not finding.edits or finding.fixable is None:
        return None
    return {
        "applicability": finding.fixable.value,
        "message": rule.summary if rule else "",
        "edits": [{"content": e.replacement, "location": {"row": e.line, "column": e.column + 1},
                   "end_location": {"row": e.end_line, "column": e.end_column + 1}} for e in finding.edits],
    }


# --- the other machine-read formats (as ruff's ``--output-format``) ---------------------------------

_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def render_concise(findings: Iterable[Finding]) -> str:
    """``path:line:col: CODE message``, one line per finding, nothing else (editors, grep)."""
    return "".join(f"{f.location.path}:{f.location.line}:{f.location.column}: {f.code} {_one_line(f.message)}\n"
                   for f in findings)


def render_github(findings: Iterable[Finding]) -> str:
    """GitHub Actions workflow commands: ``::error file=F,line=L,...,title=T::message``.

    Property values escape ``%``, CR, LF, ``:`` and ``,``; the message escapes ``%``, CR and LF
    (the toolkit's ``escapeProperty``/``escapeData``), so no value can end the command or add one.
    """
    out = []
    for f in findings:
        loc = f.location
        level = "error" if f.severity.value == "error" else "warning" if f.severity.value == "warning" else "notice"
        props = [("title", f"paddle-doctor ({f.code})"), ("file", loc.path or ""), ("line", loc.line),
                 ("col", loc.column), ("endLine", loc.end_line or loc.line),
                 ("endColumn", loc.end_column or loc.column)]
        text = ",".join(f"{k}={_gh_property(str(v))}" for k, v in props if v is not None)
        out.append(f"::{level} {text}::{_gh_data(f'{loc.path}:{loc.line}:{loc.column}: {f.code} {f.message}')}\n")
    return "".join(out)


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def render_gitlab(findings: Iterable[Finding], relative: Callable[[str], str] = lambda p: p) -> str:
    """GitLab Code Quality: a JSON array of ``{description, check_name, fingerprint, severity,
    location: {path, lines: {begin, end}}}``; the fingerprint is stable while the finding stays."""
    records, seen = [], {}
    for f in findings:
        loc = f.location
        path = relative(loc.path or "")
        key = f"{f.code}:{path}:{f.message}"
        seen[key] = seen.get(key, 0) + 1
        records.append({
            "description": f"{f.code} {f.message}", "check_name": f.code,
            "fingerprint": hashlib.sha256(f"{key}:{seen[key]}".encode()).hexdigest(),
            "severity": _GITLAB_SEVERITY.get(f.severity.value, "minor"),
            "location": {"path": path, "lines": {"begin": loc.line or 1, "end": loc.end_line or loc.line or 1}},
        })
    return json.dumps(records, indent=2, ensure_ascii=False) + "\n"


def render_junit(findings: Iterable[Finding]) -> str:
    """JUnit XML: one test suite per file, one failing test case per finding (a clean run: one
    passing case), as ruff writes it; text is escaped by the XML writer."""
    from xml.etree import ElementTree as ET

    findings = list(findings)
    root = ET.Element("testsuites", name="paddle-doctor", tests=str(max(len(findings), 1)),
                      failures=str(len(findings)), errors="0")
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.location.path or "", []).append(f)
    if not findings:
        suite = ET.SubElement(root, "testsuite", name="paddle-doctor", tests="1", failures="0", errors="0")
        ET.SubElement(suite, "testcase", name="No errors found")
    for path, group in by_file.items():
        suite = ET.SubElement(root, "testsuite", name=path, tests=str(len(group)), failures=str(len(group)),
                              errors="0")
        for f in group:
            case = ET.SubElement(suite, "testcase", name=f"org.paddle_doctor.{f.code}", classname=path,
                                 line=str(f.location.line), column=str(f.location.column))
            failure = ET.SubElement(case, "failure", message=_one_line(f.message))
            failure.text = f"line {f.location.line}, col {f.location.column}, {f.message}"
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def render_statistics(findings: Iterable[Finding], rules: dict) -> str:
    """``--statistics``: count per code, most frequent first (ruff's table)."""
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.code] = counts.get(f.code, 0) + 1
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return "".join(f"{n:>5}\t{code}\t{rules[code].name if code in rules else ''}\n" for code, n in rows)


def _one_line(text: str) -> str:
    return " ".join(text.split())
