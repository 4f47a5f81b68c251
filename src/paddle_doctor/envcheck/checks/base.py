"""The check registry: ``@check(name, cause, what, trips=..., passes=...)`` declares a function
Facts -> [Finding] in one place, with its documentation, and registers it; :func:`finding` builds a
Finding whose ``code`` is the check name and ``cause`` its catalog id.

A :class:`Check` is a rule of the shared protocol (:mod:`paddle_doctor.rules`): ``trips`` are facts
it reports on and ``passes`` the same facts fixed (its ``docs.wrong`` and ``docs.right``, as JSON);
a test runs every check on both, so the documentation cannot drift from the code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...catalog.ids import CauseId
from ...findings import Confidence, Finding, Severity
from ...rules import Docs

Facts = dict[str, Any]
MiB = 1 << 20


@dataclass(frozen=True)
class Check:
    code: str  # the check's name: the Finding's ``code``
    cause: CauseId  # catalog id
    what: str  # what it looks at, one line
    run: Callable[[Facts], list[Finding]]
    trips: Facts  # facts from a machine this check reports on
    passes: Facts  # the same facts, fixed: the check reports nothing

    # --- the rule protocol (paddle_doctor.rules.Rule) ---
    @property
    def message(self) -> str:
        return self.what

    @property
    def check(self) -> Callable[[Facts], list[Finding]]:
        return self.run

    @property
    def docs(self) -> Docs:
        reported = self.run(self.trips)
        return Docs(wrong=json.dumps(self.trips, sort_keys=True), right=json.dumps(self.passes, sort_keys=True),
                    source=f"{self.run.__module__}.{self.run.__qualname__}",
                    example=reported[0].message if reported else "")


REGISTRY: dict[str, Check] = {}


def check(name: str, cause: CauseId, what: str, *, trips: Facts, passes: Facts):
    def register(func: Callable[[Facts], list[Finding]]):
        if name in REGISTRY:
            raise ValueError(f"env check {name!r} declared twice")
        REGISTRY[name] = Check(name, cause, what, func, trips, passes)
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
