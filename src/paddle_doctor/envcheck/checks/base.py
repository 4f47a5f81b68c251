"""The check registry: ``@check(name, cause, what)`` registers a function Facts -> [Finding], and
:func:`finding` builds a Finding whose ``code`` is the check name and ``cause`` its catalog id."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...findings import Confidence, Finding, Severity

Facts = dict[str, Any]
MiB = 1 << 20


@dataclass(frozen=True)
class Check:
    cause: str  # catalog id
    what: str  # what it looks at, one line
    run: Callable[[Facts], list[Finding]]


REGISTRY: dict[str, Check] = {}


def check(name: str, cause: str, what: str):
    def register(func: Callable[[Facts], list[Finding]]):
        REGISTRY[name] = Check(cause, what, func)
        return func
    return register


def finding(name: str, message: str, *, severity: Severity = Severity.ERROR, fix: str = "", why: str = "",
            confidence: Confidence = Confidence.HIGH, **facts: Any) -> Finding:
    return Finding(code=name, cause=REGISTRY[name].cause, message=message, severity=severity, fix=fix, why=why,
                   confidence=confidence, facts=facts)


def compiled_with(facts: Facts) -> dict[str, Any]:
    return (facts.get("paddle") or {}).get("compiled_with") or {}


def size_text(n: int) -> str:
    return f"{n / (1 << 30):.1f} GiB" if n >= 1 << 30 else f"{n / MiB:.0f} MiB"
