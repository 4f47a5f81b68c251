"""JSON output: stable key order, UTF-8 kept readable."""

from __future__ import annotations

import json
from typing import Any

from ..findings import Diagnosis, Finding


def dumps(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def diagnosis_dict(d: Diagnosis) -> dict[str, Any]:
    """``diagnose --format json``: the contract shown in the README's "JSON contract" (its keys and values never
    change; extra keys may be added)."""
    return {
        "verdict": d.verdict,
        "root_cause": _root_cause(d.root_cause) if d.root_cause is not None else None,
        "ranks": [row.to_dict() for row in d.rows],
        "files_read": d.files_read,
        "skipped": list(d.skipped),
        "notes": list(d.notes),
        "launcher": d.launcher,
    }


def _root_cause(f: Finding) -> dict[str, Any]:
    return {
        "category": f.cause,
        "rank": f.ranks[0] if f.ranks else None,
        "title": f.message,
        "evidence": [{"file": e.path, "line": e.line, "text": e.text} for e in f.evidence],
        "fix": f.fix,
        "confidence": f.confidence.value,
        "why_confident": f.why,
        "time_source": f.fact("time_source", ""),
        "confirm": f.fact("confirm", ""),
        "alternatives": [{"category": a.cause, "confidence": a.confidence.value, "why": a.why, "confirm": a.confirm}
                         for a in f.alternatives],
        "culprit": f.fact("culprit") or {},  # host, rank, local_rank, pid, time, time_source, exit_code, signal
        "code": f.code,
        # What a rule established beyond the quoted lines (NCCL versions per rank, the launch's device lists).
        "facts": {k: v for k, v in f.facts.items() if k not in RENDERED_FACTS},
    }


RENDERED_FACTS = ("confirm", "time_source", "notes", "culprit")

