"""The one record every lens produces (lint, env, runtime, diagnose), and its severities.

Renderers (text, JSON, SARIF) read Findings; nothing here prints.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Confidence(str, enum.Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@dataclass(frozen=True)
class Location:
    """Where a finding points: a source position (lint) or a rank's log line (diagnose)."""

    path: str | None = None
    line: int | None = None
    column: int | None = None
    rank: int | None = None

    def __str__(self) -> str:
        place = self.path or "<unknown>"
        if self.line is not None:
            place += f":{self.line}"
            if self.column is not None:
                place += f":{self.column}"
        if self.rank is not None:
            place = f"rank {self.rank} {place}"
        return place


@dataclass(frozen=True)
class Finding:
    code: str
    cause: str
    severity: Severity
    message: str
    location: Location = field(default_factory=Location)
    evidence: str = ""
    fix: str = ""
    confidence: Confidence = Confidence.HIGH

    def to_dict(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        data["confidence"] = self.confidence.value
        return data
