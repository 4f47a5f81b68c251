"""``paddle-doctor diagnose``: read every rank's log and name the root cause of a failed run.

Library entry point: :func:`diagnose_paths`. It returns a :class:`Diagnosis` and never prints.
"""

from __future__ import annotations

import datetime as dt

from ..catalog import get_cause
from .model import Diagnosis, Evidence, RankReport, RootCause, SourceFile
from .parse import BinaryFileError, Event, FileEvents, read_events
from .ranks import RankState, collect
from .records import RankRecord, load_records, verdict_from_records
from .redact import redact
from .rootcause import Verdict, decide
from .sources import DiagnoseInputError, discover

__all__ = ["DiagnoseInputError", "Diagnosis", "diagnose_paths"]

TITLE_MSG_CHARS = 120


def diagnose_paths(paths: list[str], stdin: bytes | None = None) -> Diagnosis:
    """Diagnose the logs under ``paths`` (dirs, files, or "-" for ``stdin``).

    Raises DiagnoseInputError when nothing usable was given.
    """
    sources, skipped = discover([str(p) for p in paths], stdin)
    files, skipped = _read_all(sources, skipped)
    readable = [f for f in files if f.source.role != "env"]
    if not readable:
        reasons = "; ".join(skipped) or "no log files"
        raise DiagnoseInputError(f"nothing could be read ({reasons})")
    ranks, unranked, facts = collect(readable)
    records = load_records([s.path for s in sources if s.role == "record"])
    verdict = verdict_from_records(records, Verdict) or decide(ranks, unranked, facts)
    for rank in records:  # a rank known only from its error record still gets a row
        ranks.setdefault(rank, RankState(rank))
    return _build(verdict, ranks, facts, len(readable), skipped, records)


def _read_all(sources: list[SourceFile], skipped: list[str]) -> tuple[list[FileEvents], list[str]]:
    year = dt.date.today().year
    files = []
    for source in sources:
        if source.role in ("env", "aux", "record"):
            continue
        try:
            files.append(read_events(source, year))
        except BinaryFileError as exc:
            skipped.append(f"{source.path}: skipped, {exc}")
        except OSError as exc:
            skipped.append(f"{source.path}: skipped, {exc.strerror or exc}")
    return files, skipped


def _build(verdict: Verdict | None, ranks: dict[int, RankState], facts, files_read: int,
           skipped: list[str], records: dict[int, RankRecord]) -> Diagnosis:
    root = _root_cause(verdict) if verdict else None
    reports = tuple(_rank_report(s, verdict, records.get(s.rank))
                    for s in sorted(ranks.values(), key=lambda s: s.rank))
    # A root cause means failure; so does a launcher that reports one even when no cause was found.
    failed = root is not None or bool(facts.failed) or facts.exit_code not in (None, 0) or facts.killed
    notes = tuple(verdict.notes) if verdict else ()
    return Diagnosis("failure" if failed else "no_failure_found", root, reports, files_read,
                     tuple(skipped), notes, facts.kind)


def _root_cause(verdict: Verdict) -> RootCause:
    cause = get_cause(verdict.category)
    evidence = tuple(_evidence(verdict.evidence))
    if verdict.last_line is not None:
        file, line, text = verdict.last_line
        evidence += (Evidence(file, line, redact(f"(the log ends here) {text.strip()}")),)
    title = verdict.title or _title(verdict, cause.title)
    time_source = _time_source(verdict.evidence)
    return RootCause(verdict.category, verdict.rank, title, evidence, cause.fix.strip(), verdict.confidence,
                     verdict.why_confident, time_source, cause.confirm.strip())


def _evidence(events: list[Event]):
    """Quoted lines, redacted; a traceback frame brings its source line along."""
    for e in events:
        yield Evidence(e.file, e.line, redact(e.text.strip()))
        if e.role == "frame" and e.next_text.strip():
            yield Evidence(e.file, e.line + 1, redact(e.next_text.strip()))


def _title(verdict: Verdict, default: str) -> str:
    main = verdict.evidence[-1] if verdict.evidence else None
    text = default
    if main is not None and main.sig.cause == verdict.category and main.sig.title:
        try:
            text = main.sig.title.format(**main.groups)
        except (KeyError, IndexError):
            text = main.sig.title
        if verdict.category == "python_exception" and main.groups.get("msg"):
            text = f"{main.groups['exc']}: {_clip(main.groups['msg'].strip(), TITLE_MSG_CHARS)}"
    return redact(text)[:300]


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _time_source(events: list[Event]) -> str:
    for e in events:
        if e.time is not None:
            kind = "unix time of the fatal signal" if e.sig.role == "signal_time" else "log timestamp"
            if e.sig.name == "error_record":
                kind = "time in paddle-doctor's error record"
            return f"{e.file}:{e.line} ({kind})"
    return ""


def _rank_report(state: RankState, verdict: Verdict | None, record: RankRecord | None) -> RankReport:
    first = state.best_cause() or state.first("peer_closed") or state.first("real_timeout") or state.first("terminated")
    first_error = redact(first.text.strip())[:300] if first else None
    if verdict is not None and verdict.rank == state.rank and verdict.category != "unknown":
        return RankReport(state.rank, "root_cause", state.exit_code, first_error, state.log, "")
    status, why = _victim_or_ok(state, verdict)
    if record is not None and status in ("ok", "unknown"):
        status, why = "victim", _why_from_record(record, verdict)
        first_error = first_error or redact(record.exception_line or record.signal or record.kind)[:300]
    return RankReport(state.rank, status, state.exit_code, first_error, state.log, why)


def _why_from_record(record: RankRecord, verdict: Verdict | None) -> str:
    """A rank whose log shows nothing but whose error record says how it ended."""
    root = f"rank {verdict.rank}" if verdict and verdict.rank is not None else "the failing rank"
    if record.kind == "watchdog":
        return f"ended by paddle-doctor's watchdog after {root} failed (error record {record.path})"
    if record.kind == "signal":
        return f"ended by {record.signal or 'a signal'} after {root} failed (error record {record.path})"
    return f"also failed, after {root} (error record {record.path})"


def _victim_or_ok(state: RankState, verdict: Verdict | None) -> tuple[str, str]:
    root = f"rank {verdict.rank}" if verdict and verdict.rank is not None else "the failing rank"
    closed = state.first("peer_closed")
    if closed is not None:
        peer = closed.groups.get("peer")
        who = f"rank {peer}" if peer is not None else "a peer"
        return "victim", f"its collective failed because {who} closed the connection (died); not a cause"
    if state.has("terminated"):
        return "victim", f"stopped by SIGTERM (the launcher ends the other ranks after {root} failed)"
    if state.has("real_timeout"):
        return "victim", "waited the full 30 s gloo timeout in a collective that its peers never joined"
    if state.causes():
        return "victim", f"also failed, after {root}"
    if state.launcher_failed:
        return "victim", "the launcher reports it failed, with no error in its log"
    if state.log is None:
        return "unknown", "no log for this rank was given"
    return "ok", ""
