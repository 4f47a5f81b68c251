"""``paddle-doctor lint --format json``: a list of findings with ruff's field names.

Each entry: ``code``, ``name``, ``cause`` (a catalog id), ``message``, ``severity``, ``confidence``,
``filename``, ``location`` ``{row, column}`` and ``end_location`` (1-based), ``fix`` (``null`` or
``{applicability, message, edits: [{content, location, end_location}]}``), ``url``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

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
