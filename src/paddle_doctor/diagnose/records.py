"""Read paddle-doctor's error records (written by the runtime guards) and let them name the cause.

A record (``paddle_doctor_error.<rank>.json``, :mod:`paddle_doctor.contract`) says, per rank, when
it failed and how: its exception, the signal that ended it, and, for ranks ended by a guard, the
guard's Finding (the watchdog's "rank 1 died", the check mode's "rank 0 called all_reduce, rank 1
barrier"). Schema 2 carries that Finding as ``finding`` (read with :meth:`Finding.from_dict`);
schema 1 carried a ``hint`` dict (kind, category, ranks, summary), read into the same Finding. A
crash dump (``paddle_doctor_fault.<rank>.dump``, faulthandler output) marks a native crash. Logs
cannot carry this: a SIGKILLed rank prints nothing, and survivors' gloo errors look alike. The
records win when they answer; otherwise the log rules decide.

The first failure is chosen by recorded time (as torchelastic's "first observed failure").
Records of an earlier run in the same dir are ignored (their ``run_id`` differs from the newest).
Nothing here imports paddle or the runtime.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..catalog import get_cause
from ..contract import FAULT_NAME_RE, RECORD_SCHEMA_PREFIX
from ..errors import CAUSE_BY_NAME
from ..findings import EvidenceLine, Finding, Location
from ..redact import redact
from .signatures import VICTIM_ROLES, match_line
from ..catalog.ids import CauseId

DUMP_SIGNALS = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Bus error": "SIGBUS",
                "Floating-point exception": "SIGFPE", "Illegal instruction": "SIGILL"}
TITLE_CHARS = 300
# A guard's Finding with one of these says only "this rank raised": the exception itself decides.
GENERIC_CAUSES = ("", "unknown", "None", CauseId.python_exception)


@dataclass(frozen=True)
class RecordFile:
    """What one record file holds (an input, like a log): the process facts and the guard's Finding."""

    rank: int | None
    path: str
    time: float
    kind: str  # "exception" | "signal" | "watchdog" | ... | "crash_dump"
    exc_type: str | None = None
    message: str | None = None
    traceback: str | None = None
    signal: str | None = None
    finding: Finding | None = None  # the guard's own Finding (schema 2), or one read from a schema-1 hint
    run_id: str | None = None
    schema: str = ""
    phase: str | None = None  # where the rank was (for the timeline): its phase, step, collective
    step: int | str | None = None
    collective: str | None = None

    @property
    def exception_line(self) -> str:
        return f"{self.exc_type}: {self.message}" if self.exc_type else ""


def load_records(files: list[str | Path]) -> dict[int, RecordFile]:
    """Per global rank, its earliest record of the newest run (crash dumps included), from the
    record files that discovery found (``sources.discover`` gives them the role "record")."""
    records = [r for r in (_load(Path(p)) for p in files) if r is not None and r.rank is not None]
    runs = {r.run_id for r in records if r.kind != "crash_dump" and r.run_id}
    if len(runs) > 1:
        newest = max((r for r in records if r.run_id), key=lambda r: r.time).run_id
        records = [r for r in records if r.run_id in (newest, None)]
    out: dict[int, RecordFile] = {}
    for r in sorted(records, key=lambda r: r.time):
        out.setdefault(r.rank, r)
    return out


def _load(path: Path) -> RecordFile | None:
    try:
        if path.suffix == ".dump":
            return _load_dump(path)
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return None
    schema = str(data.get("schema", "")) if isinstance(data, dict) else ""
    if not schema.startswith(RECORD_SCHEMA_PREFIX):
        return None
    exc = data.get("exception") or {}
    rank = data.get("rank")
    return RecordFile(rank=rank if isinstance(rank, int) else None, path=str(path),
                      time=float(data.get("time") or 0), kind=str(data.get("kind") or ""),
                      exc_type=exc.get("type"), message=exc.get("message"), traceback=exc.get("traceback"),
                      signal=data.get("signal"), finding=_guard_finding(data, path), run_id=data.get("run_id"),
                      schema=schema, phase=_text_or_none(data.get("phase")), step=_step(data.get("step")),
                      collective=_collective(data.get("last_collective") or data.get("current_collective")))


def _text_or_none(value) -> str | None:
    return str(value) if value not in (None, "") else None


def _step(value) -> int | str | None:
    return value if isinstance(value, int) else _text_or_none(value)


def _collective(entry) -> str | None:
    """``all_reduce #12`` from a recorded collective (a dict with op and seq), else its text."""
    if not entry:
        return None
    if isinstance(entry, dict):
        op = entry.get("op") or entry.get("name") or "collective"
        seq = entry.get("seq", entry.get("sequence"))
        return f"{op} #{seq}" if seq is not None else str(op)
    return str(entry)[:80]


def _guard_finding(data: dict, path: Path) -> Finding | None:
    """Schema 2: the record's ``finding``; schema 1: its ``hint``, read into the same shape."""
    if isinstance(data.get("finding"), dict):
        try:
            return Finding.from_dict(data["finding"])
        except (TypeError, ValueError):
            return None
    hint = data.get("hint")
    if not isinstance(hint, dict) or not hint:
        return None
    summary = str(hint.get("summary") or hint.get("category") or hint.get("kind") or "")
    return Finding(code=str(hint.get("kind") or data.get("kind") or "guard"),
                   cause=str(hint.get("category") or "unknown"), message=summary,
                   ranks=tuple(int(r) for r in hint.get("ranks") or ()),
                   evidence=(EvidenceLine(str(path), 1, summary),) if summary else ())


def _load_dump(path: Path) -> RecordFile | None:
    stat = path.stat()
    if stat.st_size == 0:
        return None
    text = path.read_text(encoding="utf-8", errors="replace")[:20000]
    first = text.splitlines()[0] if text else ""
    name = first.replace("Fatal Python error:", "").strip()
    rank = FAULT_NAME_RE.match(path.name).group(1)
    return RecordFile(rank=int(rank) if rank.isdigit() else None, path=str(path), time=stat.st_mtime,
                      kind="crash_dump", traceback=text, signal=DUMP_SIGNALS.get(name, name or None))


# -- the verdict ------------------------------------------------------------------------------


TOGETHER_S = 1.0  # the same error on several ranks this close together: they failed together


def verdict_from_records(records: dict[int, RecordFile]) -> Finding | None:
    """The root-cause Finding from the records, or None when they do not answer.

    Candidates: a guard's Finding (it names the cause id and the culprits), and a rank's own
    exception that is not a victim's symptom (a gloo error because a peer vanished). A guard that
    says a rank "died" yields to that rank's own record or crash dump (a native crash is better
    read from the logs). The earliest candidate by recorded time wins.
    """
    candidates = []
    for rec in records.values():
        candidate = _from_guard(rec, records) or _from_own_exception(rec)
        if candidate is not None:
            candidates.append(candidate)
    if not candidates:
        return None
    first = min(candidates, key=lambda c: (c[0], c[2]))
    _, cause, rank, rec, title, code = first
    entry = get_cause(cause)
    why = f"paddle-doctor's error record of rank {rec.rank} ({rec.kind}, written when it failed) names it"
    together = _failed_together(first, candidates)
    if len(together) > 1:  # the same error on several ranks at once: no rank failed first
        spread = max(c[0] for c in together) - first[0]
        names = " and ".join(str(c[2]) for c in together)
        title = f"ranks {names} failed together: {title}"
        why = (f"paddle-doctor's error records of ranks {names} show the same error within {spread:.2f} s of each "
               f"other: no rank failed first")
    evidence = rec.finding.evidence if rec.finding is not None and rec.finding.cause == cause else ()
    evidence = tuple(EvidenceLine(e.path or rec.path, e.line, redact(e.text)) for e in evidence)
    evidence = evidence or (EvidenceLine(rec.path, 1, redact(title)),)
    facts = {"confirm": entry.confirm.strip(), "notes": [],
             "time_source": f"{rec.path} (time in paddle-doctor's error record)"}
    ranks = tuple(c[2] for c in together) if len(together) > 1 else (rank,) if rank is not None else ()
    return Finding(code=code, cause=cause, message=redact(title)[:TITLE_CHARS],
                   locations=(Location(path=rec.path, line=1, rank=rank),), evidence=evidence,
                   ranks=ranks, fix=entry.fix.strip(), confidence="high", why=why, facts=facts)


def _failed_together(first, candidates) -> list:
    """The ranks' own exceptions alike (same cause, same line) within ``TOGETHER_S`` of the first,
    in rank order; one rank only unless several failed alike at once."""
    alike = {c[2]: c for c in sorted(candidates, key=lambda c: (c[0], c[2]))
             if c[3].kind == "exception" and c[5] == "error_record" and c[1] == first[1] and c[4] == first[4]
             and c[2] is not None and c[0] - first[0] <= TOGETHER_S}
    return [alike[r] for r in sorted(alike)] if first[2] in alike else [first]


def _from_guard(rec: RecordFile, records: dict[int, RecordFile]):
    finding = rec.finding
    if finding is None or not finding.ranks:
        return None
    culprit = finding.ranks[0]
    own = records.get(culprit)
    if finding.code == "dead" and own is not None and own is not rec:
        return None  # its own record (or crash dump) says more than "it vanished"
    if finding.cause in GENERIC_CAUSES and (culprit == rec.rank or (own is not None and own is not rec)):
        return None  # generic about itself, or the culprit's own record names the cause
    return rec.time, finding.cause, culprit, rec, finding.message or finding.cause, finding.code or "error_record"


def _from_own_exception(rec: RecordFile):
    if rec.kind != "exception" or not rec.exc_type:
        return None
    if rec.finding is not None and (rec.finding.cause not in GENERIC_CAUSES or rec.schema.endswith("/1")):
        return None
    cause = classify_exception(rec.exc_type, rec.message or "")
    if cause is None:
        return None
    return rec.time, cause, rec.rank, rec, rec.exception_line.splitlines()[0][:TITLE_CHARS], "error_record"


def classify_exception(exc_type: str, message: str) -> str | None:
    """The cause id of an exception: ours name theirs (``errors.CAUSE_BY_NAME``), others go by
    diagnose's signatures; None for a victim's symptom."""
    ours = CAUSE_BY_NAME.get(exc_type.rsplit(".", 1)[-1])
    if ours is not None:
        return ours
    best = None
    for line in f"{exc_type}: {message}".splitlines()[:50]:
        matched = match_line(line)
        if matched is None:
            continue
        sig = matched[0]
        if sig.role in VICTIM_ROLES:
            return None
        if sig.cause and (best is None or sig.specificity > best.specificity):
            best = sig
    return best.cause if best is not None else CauseId.python_exception
