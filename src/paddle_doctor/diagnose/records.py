"""Read paddle-doctor's error records (written by the runtime guards) and let them name the cause.

A record (``paddle_doctor_error.<rank>.json``) says, per rank, when it failed and how: its
exception, the signal that ended it, and, for ranks ended by a guard, a hint naming the cause id
and the culprit ranks (the watchdog's "rank 1 died", the check mode's "rank 0 called all_reduce,
rank 1 barrier"). A crash dump (``paddle_doctor_fault.<rank>.dump``, faulthandler output) marks a
native crash. Logs cannot carry this: a SIGKILLed rank prints nothing, and survivors' gloo errors
look alike. The records win when they answer; otherwise the log rules decide.

The first failure is chosen by recorded time (as torchelastic's "first observed failure").
Records of an earlier run in the same dir are ignored (their ``run_id`` differs from the newest).
Nothing here imports paddle or the runtime.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .parse import Event
from .signatures import VICTIM_ROLES, Signature, match_line
from .sources import DUMP_RE

DUMP_SIGNALS = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Bus error": "SIGBUS",
                "Floating-point exception": "SIGFPE", "Illegal instruction": "SIGILL"}


@dataclass(frozen=True)
class RankRecord:
    rank: int | None
    path: str
    time: float
    kind: str  # "exception" | "signal" | "watchdog" | "crash_dump"
    exc_type: str | None = None
    message: str | None = None
    traceback: str | None = None
    signal: str | None = None
    hint: dict | None = None  # {"kind", "category", "ranks", "summary"}
    run_id: str | None = None
    phase: str | None = None
    step: object = None

    @property
    def exception_line(self) -> str:
        return f"{self.exc_type}: {self.message}" if self.exc_type else ""


def load_records(files: list[str | Path]) -> dict[int, RankRecord]:
    """Per global rank, its earliest record of the newest run (crash dumps included), from the
    record files that discovery found (``sources.discover`` gives them the role "record")."""
    records = [r for r in (_load(Path(p)) for p in files) if r is not None and r.rank is not None]
    runs = {r.run_id for r in records if r.kind != "crash_dump" and r.run_id}
    if len(runs) > 1:
        newest = max((r for r in records if r.run_id), key=lambda r: r.time).run_id
        records = [r for r in records if r.run_id in (newest, None)]
    out: dict[int, RankRecord] = {}
    for r in sorted(records, key=lambda r: r.time):
        out.setdefault(r.rank, r)
    return out


def _load(path: Path) -> RankRecord | None:
    try:
        if path.suffix == ".dump":
            return _load_dump(path)
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not str(data.get("schema", "")).startswith("paddle_doctor.error_record/"):
        return None
    exc = data.get("exception") or {}
    return RankRecord(rank=data.get("rank"), path=str(path), time=float(data.get("time") or 0), kind=data.get("kind", ""),
                      exc_type=exc.get("type"), message=exc.get("message"), traceback=exc.get("traceback"),
                      signal=data.get("signal"), hint=data.get("hint") or None, run_id=data.get("run_id"),
                      phase=data.get("phase"), step=data.get("step"))


def _load_dump(path: Path) -> RankRecord | None:
    stat = path.stat()
    if stat.st_size == 0:
        return None
    text = path.read_text(encoding="utf-8", errors="replace")[:20000]
    first = text.splitlines()[0] if text else ""
    name = first.replace("Fatal Python error:", "").strip()
    rank = DUMP_RE.match(path.name).group(1)
    return RankRecord(rank=int(rank) if rank.isdigit() else None, path=str(path), time=stat.st_mtime,
                      kind="crash_dump", traceback=text, signal=DUMP_SIGNALS.get(name, name or None))


# -- the verdict ------------------------------------------------------------------------------


RECORD_SIG = Signature("error_record", re.compile(""), "cause", None, 100)


def verdict_from_records(records: dict[int, RankRecord], verdict_cls):
    """A Verdict (the caller's class) from the records, or None when they do not answer.

    Candidates: a guard's hint (it names the cause id and the culprits), and a rank's own
    exception that is not a victim's symptom (a gloo error because a peer vanished). A hint that
    a rank "died" yields to that rank's own record or crash dump (a native crash is better read
    from the logs). The earliest candidate by recorded time wins.
    """
    candidates = []
    for rec in records.values():
        candidate = _from_hint(rec, records) or _from_own_exception(rec)
        if candidate is not None:
            candidates.append(candidate)
    if not candidates:
        return None
    _, category, rank, rec, title = min(candidates, key=lambda c: (c[0], c[2]))
    event = Event(RECORD_SIG, {}, rec.path, 1, title, "", rec.time, None, rank)
    why = f"paddle-doctor's error record of rank {rec.rank} ({rec.kind}, written when it failed) names it"
    return verdict_cls(category, rank, [event], "high", why, title=title)


def _from_hint(rec: RankRecord, records: dict[int, RankRecord]):
    hint = rec.hint or {}
    ranks = [int(r) for r in hint.get("ranks") or []]
    if not ranks or not hint.get("category"):
        return None
    culprit = ranks[0]
    own = records.get(culprit)
    if hint.get("kind") == "dead" and own is not None and own is not rec:
        return None  # its own record (or crash dump) says more than "it vanished"
    return rec.time, hint["category"], culprit, rec, hint.get("summary") or hint["category"]


def _from_own_exception(rec: RankRecord):
    if rec.kind != "exception" or not rec.exc_type or rec.hint:
        return None
    category = classify_exception(rec.exc_type, rec.message or "")
    if category is None:
        return None
    return rec.time, category, rec.rank, rec, rec.exception_line.splitlines()[0][:300]


def classify_exception(exc_type: str, message: str) -> str | None:
    """The cause id of an exception by diagnose's signatures; None for a victim's symptom."""
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
    return best.cause if best is not None else "python_exception"
