"""The one record every lens produces (lint, env, ckpt, runtime guards, diagnose), and the diagnosis
that groups them.

Renderers (text, JSON, SARIF, HTML) are pure functions of these records; nothing here prints.
A runtime error record is a serialised :class:`Finding` plus process facts, so ``diagnose`` reads it
back with :meth:`Finding.from_dict`, without translation.

Shapes::

    Finding      code, cause, message, severity, locations, evidence, ranks, fix,
                 confidence, why, alternatives, fixable, edits, status, facts, outcome
    Location     path, line, column, end_line, end_column, rank
    EvidenceLine path, line, text            (already redacted by the lens that quotes it)
    Alternative  cause, confidence, why, confirm
    Edit         path, line, column, end_line, end_column, replacement   (a lint fix)
    Diagnosis    verdict, root_cause (Finding | None), ranks (one Finding per rank), rows, files_read, ...
    RankRow      rank, status, exit_code, first_error, log, why   (diagnose's JSON ``ranks[]``)
                 start, last_seen, end, end_source, ... failure_order   (what the timeline draws)
    Facts        a dict that refuses changes (and pickles, unlike a mapping proxy)

This module is a leaf: it imports nothing of paddle_doctor.
"""

from __future__ import annotations

import copy
import enum
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, NoReturn


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Confidence(str, enum.Enum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class Fixable(str, enum.Enum):
    SAFE = "safe"  # applied by ``--fix``
    UNSAFE = "unsafe"  # applied only with ``--unsafe-fixes``


class Outcome(str, enum.Enum):
    """How a check ended: one of smoke's checks, one of triage's variations."""

    PASS = "pass"
    FAIL = "fail"
    SKIP = "skip"  # it need not run (triage: a variation that cannot tell anything here)


class RankStatus(str, enum.Enum):
    """diagnose's role for one rank (the JSON contract's ``ranks[].status``)."""

    ROOT_CAUSE = "root_cause"
    VICTIM = "victim"
    OK = "ok"
    UNKNOWN = "unknown"


class Facts(dict):
    """A Finding's ``facts``: a plain dict (JSON-able, picklable, equal to a dict with the same
    items) that refuses changes, as the frozen Finding that holds it."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a Finding's facts are read-only; build a new Finding (dataclasses.replace)")

    __setitem__ = __delitem__ = __ior__ = _refuse  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __reduce__(self):
        return (Facts, (dict(self),))

    def __copy__(self) -> Facts:
        return self

    def __deepcopy__(self, memo: dict) -> Facts:
        return Facts(copy.deepcopy(dict(self), memo))


_EMPTY: Mapping[str, Any] = Facts()


@dataclass(frozen=True)
class Location:
    """Where a finding points: a source span (lint), a file (ckpt, env) or a rank's log line (diagnose)."""

    path: str | None = None
    line: int | None = None
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None
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
class EvidenceLine:
    """One quoted line of input (a log line, a source line), already redacted."""

    path: str
    line: int
    text: str


@dataclass(frozen=True)
class Alternative:
    """Another cause that fits the facts less well, and the check that tells the two apart."""

    cause: str
    confidence: Confidence
    why: str
    confirm: str = ""

    def __post_init__(self) -> None:
        _coerce(self, "confidence", Confidence)


@dataclass(frozen=True)
class Edit:
    """A text replacement that fixes a finding (1-based lines, 0-based columns, end exclusive)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    replacement: str


@dataclass(frozen=True)
class Finding:
    """One result of any lens.

    ``code`` names what produced it (a lint code ``PDL101``, an env check name, a guard kind, a
    diagnose rule); ``cause`` is a catalog id. ``status`` is set by diagnose on per-rank findings,
    ``outcome`` by the lenses that run checks (smoke, triage).
    ``facts`` holds JSON-able details of the lens (exit code, log file, time, measured values);
    it is read-only (a :class:`Facts`).
    """

    code: str
    cause: str  # a catalog CauseId once the catalog is loaded (see read_cause)
    message: str
    severity: Severity = Severity.ERROR
    locations: tuple[Location, ...] = ()
    evidence: tuple[EvidenceLine, ...] = ()
    ranks: tuple[int, ...] = ()
    fix: str = ""
    confidence: Confidence = Confidence.HIGH
    why: str = ""
    alternatives: tuple[Alternative, ...] = ()
    fixable: Fixable | None = None
    edits: tuple[Edit, ...] = ()
    status: RankStatus | None = None
    facts: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, hash=False)
    outcome: Outcome | None = None

    def __post_init__(self) -> None:
        # Accept plain strings and dicts from callers and from JSON; store the canonical types.
        _coerce_cause(self)
        _coerce(self, "severity", Severity)
        _coerce(self, "confidence", Confidence)
        if self.fixable is not None:
            _coerce(self, "fixable", Fixable)
        if self.status is not None:
            _coerce(self, "status", RankStatus)
        if self.outcome is not None:
            _coerce(self, "outcome", Outcome)
        if not isinstance(self.facts, Facts):
            object.__setattr__(self, "facts", Facts(self.facts))

    @property
    def location(self) -> Location:
        """The first location (or an empty one): what a one-line renderer shows."""
        return self.locations[0] if self.locations else Location()

    def fact(self, name: str, default: Any = None) -> Any:
        return self.facts.get(name, default)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able; ``outcome`` only when set (the records and reports of other lenses keep their keys)."""
        out = {
            "code": self.code,
            "cause": self.cause,
            "message": self.message,
            "severity": self.severity.value,
            "locations": [_plain(loc) for loc in self.locations],
            "evidence": [_plain(ev) for ev in self.evidence],
            "ranks": list(self.ranks),
            "fix": self.fix,
            "confidence": self.confidence.value,
            "why": self.why,
            "alternatives": [_plain(alt) for alt in self.alternatives],
            "fixable": self.fixable.value if self.fixable else None,
            "edits": [_plain(edit) for edit in self.edits],
            "status": self.status.value if self.status else None,
            "facts": dict(self.facts),
        }
        if self.outcome is not None:
            out["outcome"] = self.outcome.value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Finding:
        """The inverse of :meth:`to_dict`; unknown keys are ignored (newer writers may add some).
        ``cause`` comes back as the catalog's ``CauseId`` member; an id this version does not know
        (a newer writer's) as ``unknown``, with the id as written kept in ``facts["written_cause"]``
        (``__post_init__``, as for every Finding)."""
        return cls(
            code=str(data.get("code", "")),
            cause=str(data.get("cause", "unknown")),
            message=str(data.get("message", "")),
            severity=data.get("severity") or Severity.ERROR,
            locations=tuple(_build(Location, d) for d in data.get("locations") or ()),
            evidence=tuple(_build(EvidenceLine, d) for d in data.get("evidence") or ()),
            ranks=tuple(int(r) for r in data.get("ranks") or ()),
            fix=str(data.get("fix") or ""),
            confidence=data.get("confidence") or Confidence.HIGH,
            why=str(data.get("why") or ""),
            alternatives=tuple(_build(Alternative, d) for d in data.get("alternatives") or ()),
            fixable=data.get("fixable"),
            edits=tuple(_build(Edit, d) for d in data.get("edits") or ()),
            status=data.get("status"),
            facts=dict(data.get("facts") or {}),
            outcome=data.get("outcome") or None,
        )


ROW_CONTRACT_KEYS = ("rank", "status", "exit_code", "first_error", "log", "why")


@dataclass(frozen=True)
class RankRow:
    """One rank in diagnose's report: the JSON contract's ``ranks[]`` (its first six fields) and
    what the timeline draws, all from diagnose's one read of the logs and records.

    Times are unix seconds, None where no source gives them. ``last_seen`` is the rank's last
    timestamp, not its end: a rank blocked in a collective prints nothing until it dies. ``end``
    is set only from a source that gives it (``end_source``: its error record, a FatalError's
    ``Aborted at`` time, the launcher's line naming it failed); otherwise ``failure_order`` is
    diagnose's inferred order (1: the root cause; 2: failed after it) and nothing more is known.
    """

    rank: int | None
    status: RankStatus = RankStatus.UNKNOWN
    exit_code: int | None = None
    first_error: str | None = None
    log: str | None = None
    why: str = ""
    start: float | None = None
    last_seen: float | None = None
    end: float | None = None
    end_source: str = ""
    end_kind: str = ""  # exception, signal, watchdog, exit 1, ok, ...
    last_progress: str | None = None  # the rank's last plain output line
    last_progress_time: float | None = None
    last_collective: str | None = None
    failure_order: int | None = None
    # its log's last lines (redacted, bounded; diagnose gives a lazy sequence), for the HTML page only
    tail: Sequence[str] = ()

    def __post_init__(self) -> None:
        _coerce(self, "status", RankStatus)

    def to_dict(self) -> dict[str, Any]:
        """The contract's keys first, then the timeline's (extra keys are allowed by the contract).
        The log tail stays out: 40 lines per rank would swell a 1024-rank JSON for no reader."""
        out = _plain(self)
        del out["tail"]
        return out

    @classmethod
    def from_finding(cls, f: Finding) -> RankRow:
        """The row of a per-rank Finding built without one (its facts hold the contract's values)."""
        return cls(rank=f.ranks[0] if f.ranks else None, status=f.status or RankStatus.UNKNOWN,
                   exit_code=f.fact("exit_code"), first_error=f.fact("first_error"), log=f.fact("log"),
                   why=f.fact("why") or "")


@dataclass(frozen=True)
class Diagnosis:
    """What ``diagnose`` returns: a verdict, the root-cause Finding, and one Finding and one
    :class:`RankRow` per rank (``rows`` defaults to rows read from ``ranks``)."""

    verdict: str  # "failure" | "no_failure_found"
    root_cause: Finding | None
    ranks: tuple[Finding, ...]
    files_read: int
    skipped: tuple[str, ...] = ()  # "path: reason" for inputs that could not be read
    notes: tuple[str, ...] = ()  # what the reader should know (e.g. where the cause must be)
    launcher: str | None = None  # "launch" | "fleet.launch" | None
    rows: tuple[RankRow, ...] = ()

    def __post_init__(self) -> None:
        if not self.rows and self.ranks:
            object.__setattr__(self, "rows", tuple(RankRow.from_finding(f) for f in self.ranks))


WRITTEN_CAUSE = "written_cause"  # the facts key of a cause id this version's catalog does not hold
CATALOG_IDS = "paddle_doctor.catalog.ids"


def read_cause(written: Any, facts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(the catalog's member for ``written``, facts): a cause given as a string (read back from
    JSON, or built from a table of ids), with ``facts[written_cause]`` when the catalog lacks it.

    This module is a leaf and may not import the catalog (a leaf too), so it takes ``CauseId`` from
    the loaded modules: every lens that builds Findings, and every reader of records and reports
    (diagnose, lint, env, the guards), imports the catalog first. Without it the id stays a plain
    string."""
    ids = sys.modules.get(CATALOG_IDS)
    text = str(written)
    if ids is None:
        return text, facts
    try:
        return ids.CauseId(text), facts
    except ValueError:
        return ids.CauseId.unknown, {**facts, WRITTEN_CAUSE: text}


def _coerce_cause(finding: Finding) -> None:
    """Every Finding's ``cause`` is the catalog's member, whoever built it (a lens, ``from_dict``,
    a schema-1 record's hint): an unknown id becomes ``unknown``, the id as written kept in facts."""
    ids = sys.modules.get(CATALOG_IDS)
    if ids is None or isinstance(finding.cause, ids.CauseId):
        return
    cause, facts = read_cause(finding.cause, finding.facts)
    object.__setattr__(finding, "cause", cause)
    if facts is not finding.facts:
        object.__setattr__(finding, "facts", facts)


def _coerce(obj: Any, name: str, kind: type[enum.Enum]) -> None:
    value = getattr(obj, name)
    if not isinstance(value, kind):
        object.__setattr__(obj, name, kind(value))


def _plain(record: Any) -> dict[str, Any]:
    out = {}
    for f in fields(record):
        value = getattr(record, f.name)
        out[f.name] = value.value if isinstance(value, enum.Enum) else value
    return out


def _build(kind: type, data: Mapping[str, Any]) -> Any:
    names = {f.name for f in fields(kind)}
    return kind(**{k: v for k, v in data.items() if k in names})
