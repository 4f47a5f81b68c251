"""The data a diagnosis returns. Renderers (text, JSON) read these; nothing here prints."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Evidence:
    file: str
    line: int
    text: str

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "text": self.text}


@dataclass(frozen=True)
class RootCause:
    category: str  # a cause id from the catalog
    rank: int | None
    title: str
    evidence: tuple[Evidence, ...]
    fix: str
    confidence: str  # "high" | "medium" | "low"
    why_confident: str  # one sentence: what the confidence rests on
    time_source: str = ""  # where the failure time came from, if any
    confirm: str = ""  # how to confirm it (from the catalog)

    def to_dict(self) -> dict:
        return {
            "category": self.category,
            "rank": self.rank,
            "title": self.title,
            "evidence": [e.to_dict() for e in self.evidence],
            "fix": self.fix,
            "confidence": self.confidence,
            "why_confident": self.why_confident,
            "time_source": self.time_source,
            "confirm": self.confirm,
        }


@dataclass(frozen=True)
class RankReport:
    rank: int
    status: str  # "root_cause" | "victim" | "ok" | "unknown"
    exit_code: int | None
    first_error: str | None
    log: str | None
    why: str = ""  # for a victim: why it died

    def to_dict(self) -> dict:
        return {
            "rank": self.rank,
            "status": self.status,
            "exit_code": self.exit_code,
            "first_error": self.first_error,
            "log": self.log,
            "why": self.why,
        }


@dataclass(frozen=True)
class Diagnosis:
    verdict: str  # "failure" | "no_failure_found"
    root_cause: RootCause | None
    ranks: tuple[RankReport, ...]
    files_read: int
    skipped: tuple[str, ...] = ()  # "path: reason" for inputs that could not be read
    notes: tuple[str, ...] = ()  # what the reader should know (e.g. where the cause must be)
    launcher: str | None = None  # "launch" | "fleet.launch" | None

    def to_dict(self) -> dict:
        return {
            "verdict": self.verdict,
            "root_cause": self.root_cause.to_dict() if self.root_cause else None,
            "ranks": [r.to_dict() for r in self.ranks],
            "files_read": self.files_read,
            "skipped": list(self.skipped),
            "notes": list(self.notes),
            "launcher": self.launcher,
        }


@dataclass
class SourceFile:
    """One input: a worker log, the launcher's own log, a terminal capture, or an env dump."""

    path: str  # as shown to the user
    role: str  # "worker" | "launcher_log" | "terminal" | "env"
    local_rank: int | None = None
    node: str = ""  # the directory that holds this node's logs
    rank: int | None = None  # global rank, once known
    data: bytes | None = None  # for stdin
