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
import os
from dataclasses import dataclass, replace
from pathlib import Path

from ..catalog import get_cause
from ..contract import FAULT_NAME_RE, RECORD_SCHEMA_PREFIX
from ..errors import CAUSE_BY_NAME
from ..findings import EvidenceLine, Finding, Location
from ..redact import redact
from .read.opener import open_regular, read_regular
from .signatures import VICTIM_ROLES, match_line
from ..catalog.ids import CauseId

DUMP_SIGNALS = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Bus error": "SIGBUS",
                "Floating-point exception": "SIGFPE", "Illegal instruction": "SIGILL"}
TITLE_CHARS = 300
# A guard's Finding with one of these causes says only "this rank raised": the rank's own exception
# decides. Not the catalog's ``generic = true`` (an error that a more specific cause explains): this
# is a guard that named no cause at all. A record's empty or missing cause reads as ``unknown``
# (Finding coerces every cause to its CauseId).
CAUSES_LEFT_TO_THE_EXCEPTION = (CauseId.unknown, CauseId.python_exception)


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
    host: str | None = None  # where the rank ran (the culprit line)
    pid: int | None = None
    local_rank: int | None = None

    @property
    def exception_line(self) -> str:
        return f"{self.exc_type}: {self.message}" if self.exc_type else ""


# The codes of the verdicts made here (beside the guards' own kinds, contract.GUARD_KINDS): a
# record's own exception, and two nodes' records that each found the other unreachable.
RECORD_CODES = ("error_record", "nodes_unreachable_both_ways")

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


MAX_RECORD_BYTES = 4 << 20  # a record holds a traceback cut to a few KiB: 4 MiB is no record of ours
MAX_DUMP_CHARS = 20000
MAX_MESSAGE_CHARS = 4000  # what the runtime writes (guards/record.py); a longer one is not kept whole
_NONE = type(None)
# The type each field a record may carry must have (a writer may add fields: those are not read).
FIELD_TYPES = {"rank": (int, _NONE), "time": (int, float, _NONE), "kind": (str, _NONE), "signal": (str, _NONE),
               "run_id": (str, _NONE), "exception": (dict, _NONE), "finding": (dict, _NONE), "hint": (dict, _NONE),
               "phase": (str, int, _NONE), "step": (int, str, _NONE), "last_collective": (dict, str, _NONE),
               "current_collective": (dict, str, _NONE)}
EXCEPTION_FIELDS = ("type", "message", "traceback")
TEXT_FIELDS = ("code", "cause", "message", "fix", "why")


def record_problem(path: Path) -> str | None:
    """Why ``path`` is not an error record diagnose can use (one line), or None when it is one.
    Every field diagnose reads is checked for its type, so one wrong field leaves the record out
    instead of ending the diagnosis."""
    if path.suffix == ".dump":
        try:
            read_regular(str(path), 0)
        except OSError as exc:
            return str(exc.strerror or exc)
        return None
    data = _read_json(path)
    if isinstance(data, str):
        return data
    wrong = next((k for k, types in FIELD_TYPES.items() if not isinstance(data.get(k), types)), None)
    if wrong is not None:
        return f"not a valid error record (its {wrong!r} is a {type(data[wrong]).__name__})"
    return _exception_problem(data.get("exception")) or _hint_problem(data.get("hint")) or \
        _finding_problem(data.get("finding"))


def _read_json(path: Path) -> dict | str:
    """The record's JSON object, or why it is none."""
    try:
        raw = read_regular(str(path), MAX_RECORD_BYTES + 1)
    except OSError as exc:
        return str(exc.strerror or exc)
    if len(raw) > MAX_RECORD_BYTES:
        return f"over {MAX_RECORD_BYTES >> 20} MiB, not an error record"
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return "not JSON, not an error record"
    if not isinstance(data, dict) or not str(data.get("schema", "")).startswith(RECORD_SCHEMA_PREFIX):
        return "not a paddle-doctor error record"
    return data


def _exception_problem(exc) -> str | None:
    bad = [k for k in EXCEPTION_FIELDS if not isinstance((exc or {}).get(k), (str, _NONE))]
    return f"not a valid error record (its exception's {bad[0]!r})" if bad else None


def _hint_problem(hint) -> str | None:
    if not hint:
        return None
    ranks = hint.get("ranks") or []
    if not isinstance(ranks, list) or not all(type(r) is int for r in ranks):
        return "not a valid error record (its hint's 'ranks')"
    return None


def _finding_problem(finding) -> str | None:
    """A guard's Finding must rebuild, with text where text is shown and numbers where lines are."""
    if not finding:
        return None
    try:
        built = Finding.from_dict(finding)
    except (TypeError, ValueError, AttributeError, KeyError):
        return "not a valid error record (its finding)"
    texts_ok = all(isinstance(getattr(built, name), str) for name in TEXT_FIELDS)
    evidence_ok = all(isinstance(e.text, str) and isinstance(e.line, (int, _NONE)) and isinstance(e.path, (str, _NONE))
                      for e in built.evidence)
    return None if texts_ok and evidence_ok else "not a valid error record (its finding)"


def _load(path: Path) -> RecordFile | None:
    if record_problem(path) is not None:
        return None  # discovery named it in the report
    if path.suffix == ".dump":
        return _load_dump(path)
    data = _read_json(path)
    assert isinstance(data, dict)  # record_problem read it
    exc = data.get("exception") or {}
    rank = data.get("rank")
    return RecordFile(rank=rank if isinstance(rank, int) else None, path=str(path),
                      time=float(data.get("time") or 0), kind=str(data.get("kind") or ""),
                      exc_type=exc.get("type"), message=_cut(exc.get("message"), MAX_MESSAGE_CHARS),
                      traceback=_cut(exc.get("traceback"), -MAX_DUMP_CHARS),
                      signal=data.get("signal"), finding=_guard_finding(data, path), run_id=data.get("run_id"),
                      schema=str(data["schema"]), phase=_text_or_none(data.get("phase")), step=_step(data.get("step")),
                      collective=_collective(data.get("last_collective") or data.get("current_collective")),
                      host=_text_or_none(data.get("host")), pid=_int_or_none(data.get("pid")),
                      local_rank=_int_or_none(data.get("local_rank")))


def _int_or_none(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _cut(text: str | None, most: int) -> str | None:
    """The first ``most`` characters (the last ``-most`` when negative: a traceback ends with its error)."""
    if text is None:
        return None
    return text[:most] if most > 0 else text[most:]


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
                   cause=str(hint.get("category") or CauseId.unknown), message=summary,
                   ranks=tuple(int(r) for r in hint.get("ranks") or ()),
                   evidence=(EvidenceLine(str(path), 1, summary),) if summary else ())


def _load_dump(path: Path) -> RecordFile | None:
    try:
        with open_regular(str(path)) as stream:
            stat = os.fstat(stream.fileno())
            text = stream.read(MAX_DUMP_CHARS).decode("utf-8", errors="replace")
    except OSError:
        return None
    if stat.st_size == 0:
        return None
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
    partition = _partition(records)
    if partition is not None:
        return partition
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
    evidence = evidence or _own_evidence(rec, title)
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


def _own_evidence(rec: RecordFile, title: str) -> tuple[EvidenceLine, ...]:
    """The record's exception and, from its traceback, the innermost frame in the user's code
    (what a worker log's traceback shows: ``File ".../eval.py", line 49, in hits_at_1``)."""
    frame = _user_frame(rec.traceback or "")
    lines = (EvidenceLine(rec.path, 1, redact(frame)),) if frame else ()
    return lines + (EvidenceLine(rec.path, 1, redact(title)),)


def _user_frame(traceback: str) -> str:
    frames = [line.strip() for line in traceback.splitlines() if line.lstrip().startswith('File "')]
    own = [f for f in frames if "site-packages" not in f and "dist-packages" not in f and "/lib/python" not in f]
    return (own or frames or [""])[-1]


def with_log_evidence(from_records: Finding, from_logs: Finding | None) -> Finding:
    """A record's verdict that the logs reach too (same rank, same cause) quotes the logs' lines:
    the user's frame at its line in the worker log, as plain ``diagnose`` shows it."""
    if from_logs is None or not from_logs.evidence or (from_logs.ranks, from_logs.cause) != \
            (from_records.ranks, from_records.cause):
        return from_records
    return replace(from_records, evidence=from_logs.evidence, locations=from_logs.locations or from_records.locations)


def _partition(records: dict[int, RecordFile]) -> Finding | None:
    """Two ranks on different nodes whose watchdogs each declared the other's node unreachable:
    both were alive to write it, so no host froze; the network between them failed (measured on
    real hosts with a link set down, issue 31). One side's record alone cannot tell a lost host."""
    cut = {rank: rec for rank, rec in records.items()
           if rec.finding is not None and rec.finding.facts.get("unreachable_node") is not None}
    pairs = [(a, b) for a in cut.values() for b in cut.values()
             if a.rank is not None and b.rank is not None and a.rank < b.rank
             and b.rank in a.finding.ranks and a.rank in b.finding.ranks]
    if not pairs:
        return None
    a, b = pairs[0]
    entry = get_cause(CauseId.network_partition)
    evidence = tuple(EvidenceLine(rec.path, 1, redact(rec.finding.message)[:TITLE_CHARS]) for rec in (a, b))
    return Finding(code="nodes_unreachable_both_ways", cause=CauseId.network_partition,
                   message=f"the network between the hosts of rank {a.rank} and rank {b.rank} failed: each side's "
                           "node watcher found the other's node unreachable while both ran",
                   locations=tuple(Location(path=rec.path, line=1, rank=rec.rank) for rec in (a, b)),
                   evidence=evidence, ranks=(), fix=entry.fix.strip(), confidence="medium",
                   why=f"the error records of rank {a.rank} and rank {b.rank}, on different nodes, each name the "
                       "other's node unreachable: both were alive to write them",
                   facts={"confirm": entry.confirm.strip(), "notes": [],
                          "time_source": f"{a.path} (time in paddle-doctor's error record)"})


def _from_guard(rec: RecordFile, records: dict[int, RecordFile]):
    finding = rec.finding
    if finding is None or not finding.ranks:
        return None
    culprit = finding.ranks[0]
    own = records.get(culprit)
    if finding.code == "dead" and own is not None and own is not rec:
        return None  # its own record (or crash dump) says more than "it vanished"
    if finding.cause in CAUSES_LEFT_TO_THE_EXCEPTION and (culprit == rec.rank or (own is not None and own is not rec)):
        return None  # generic about itself, or the culprit's own record names the cause
    return rec.time, finding.cause, culprit, rec, finding.message or finding.cause, finding.code or "error_record"


def _from_own_exception(rec: RecordFile):
    if rec.kind != "exception" or not rec.exc_type:
        return None
    if rec.finding is not None and (rec.finding.cause not in CAUSES_LEFT_TO_THE_EXCEPTION or rec.schema.endswith("/1")):
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
