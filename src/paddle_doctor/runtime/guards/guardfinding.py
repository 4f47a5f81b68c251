"""The Finding a runtime guard produces (watchdog, collective check, pre-flight).

The guards name culprit ranks and a cause; this is the one place that turns that into the record
(``paddle_doctor.findings.Finding``), with the guard kind as ``code`` and the kind's default cause
from ``contract.GUARD_KINDS`` unless the guard knows a more precise one. Nothing here imports paddle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from paddle_doctor.contract import GUARD_KINDS
from paddle_doctor.findings import Confidence, Finding


def guard_finding(kind: str, ranks: Iterable[int], message: str, *, cause: str | None = None,
                  confidence: Confidence | str = Confidence.HIGH, why: str = "",
                  facts: Mapping[str, Any] | None = None) -> Finding:
    if kind not in GUARD_KINDS:
        raise ValueError(f"unknown guard kind {kind!r} (see contract.GUARD_KINDS)")
    return Finding(code=kind, cause=cause or GUARD_KINDS[kind], message=message, ranks=tuple(sorted(set(ranks))),
                   confidence=confidence, why=why, facts=facts or {})


def merged(found: list[Finding]) -> Finding:
    """Several findings of one kind (two dead peers) as one naming them all."""
    if len(found) == 1:
        return found[0]
    first = found[0]
    return guard_finding(first.code, [r for f in found for r in f.ranks], "; ".join(f.message for f in found),
                         cause=first.cause, confidence=first.confidence, why=first.why, facts=first.facts)
