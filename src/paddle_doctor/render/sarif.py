"""SARIF 2.1.0 for code scanning (GitHub and others): rule metadata, stable ``ruleId``, fingerprints.

``partialFingerprints["pdlHash/v1"]`` is a SHA-1 of the rule, the path and the finding's source line
with whitespace removed, plus its occurrence number among identical lines, so a result keeps its
identity when lines above it move (what GitHub's ``primaryLocationLineHash`` does).
"""

from __future__ import annotations

import hashlib
import json
from urllib.parse import quote
from collections.abc import Callable, Iterable

from ..findings import Finding, Severity

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render(findings: Iterable[Finding], rules: Iterable, *, version: str,
           source_line: Callable[[str, int], str] = lambda path, line: "") -> str:
    return json.dumps(to_sarif(findings, rules, version=version, source_line=source_line), indent=2,
                      ensure_ascii=False) + "\n"


def to_sarif(findings: Iterable[Finding], rules: Iterable, *, version: str,
             source_line: Callable[[str, int], str] = lambda path, line: "") -> dict:
    rules = list(rules)
    index = {rule.code: i for i, rule in enumerate(rules)}
    seen: dict[str, int] = {}
    results = [_result(f, index, seen, source_line) for f in findings]
    driver = {"name": "paddle-doctor", "version": version, "informationUri": rules[0].url.split("#")[0] if rules
              else "", "rules": [_rule(r) for r in rules]}
    return {"version": "2.1.0", "$schema": SCHEMA, "runs": [{"tool": {"driver": driver}, "results": results}]}


def _rule(rule) -> dict:
    return {
        "id": rule.code, "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.summary} Cause: {rule.cause} (`paddle-doctor explain {rule.cause}`)."},
        "help": {"text": f"Wrong:\n{rule.wrong}\n\nRight:\n{rule.right}",
                 "markdown": f"Wrong:\n```python\n{rule.wrong}\n```\nRight:\n```python\n{rule.right}\n```"},
        "helpUri": rule.url,
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"cause": rule.cause, "tags": ["paddle", rule.cause]},
    }


def to_uri(path: str) -> str:
    """A relative URI reference for a path: ``/`` separators, and a space, ``#``, ``%`` or any
    non-ASCII character percent-encoded (RFC 3986; SARIF 2.1.0 §3.10 requires valid URIs)."""
    return quote(path.replace("\\", "/"), safe="/@!$&'()*+,;=-._~")


def _result(finding: Finding, index: dict, seen: dict, source_line) -> dict:
    loc = finding.location
    region = {"startLine": loc.line, "startColumn": loc.column}
    if loc.end_line:
        region.update(endLine=loc.end_line, endColumn=loc.end_column or loc.column)
    text = "".join(source_line(loc.path, loc.line).split())
    key = f"{finding.code}:{loc.path}:{text}"
    seen[key] = seen.get(key, 0) + 1
    digest = hashlib.sha1(f"{key}:{seen[key]}".encode()).hexdigest()
    result = {
        "ruleId": finding.code, "level": _LEVEL[finding.severity], "message": {"text": finding.message},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": to_uri(loc.path or "")},
                                            "region": region}}],
        "partialFingerprints": {"pdlHash/v1": digest},
        "properties": {"cause": finding.cause, "confidence": finding.confidence.value},
    }
    if finding.code in index:
        result["ruleIndex"] = index[finding.code]
    return result
