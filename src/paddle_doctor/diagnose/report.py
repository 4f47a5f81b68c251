"""One Finding and one row per rank: its role in the failure (root cause, victim, ok, unknown),
why, and what the timeline draws.

The row (:class:`~paddle_doctor.findings.RankRow`) is the JSON contract's ``ranks[]`` entry; the
Finding's ``facts`` keep ``exit_code``, ``first_error``, ``log`` and ``why`` too, for readers of
the Finding alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..findings import Finding, Location, RankRow, RankStatus, Severity
from .ranks import LauncherFacts, RankState
from .read.parse import FileEvents
from .records import RecordFile
from .timeline import ORDER, LogSpan, launcher_times, progress_of, rank_end
from ..redact import redact

FIRST_ERROR_CHARS = 300
SEVERITY = {RankStatus.ROOT_CAUSE: Severity.ERROR, RankStatus.VICTIM: Severity.WARNING,
            RankStatus.OK: Severity.INFO, RankStatus.UNKNOWN: Severity.INFO}


def rank_findings(ranks: dict[int, RankState], root: Finding | None,
                  records: dict[int, RecordFile]) -> tuple[Finding, ...]:
    return tuple(_rank_finding(s, root, records.get(s.rank)) for s in sorted(ranks.values(), key=lambda s: s.rank))


def rank_rows(findings: tuple[Finding, ...], ranks: dict[int, RankState], records: dict[int, RecordFile],
              launcher: LauncherFacts, files: list[FileEvents]) -> tuple[RankRow, ...]:
    """The row of each rank's Finding, with its times from the logs' spans, the records and the
    launcher's lines (see :mod:`.timeline` for which of them may give an end)."""
    spans: Mapping[str, LogSpan] = {f.source.path: f.span for f in files}
    seen_failed = launcher_times(launcher.events)
    return tuple(_row(f, ranks[f.ranks[0]], records.get(f.ranks[0]), seen_failed.get(f.ranks[0]), spans)
                 for f in findings)


def _row(f: Finding, state: RankState, record: RecordFile | None, launcher_time: float | None,
         spans: Mapping[str, LogSpan]) -> RankRow:
    span = spans.get(state.log or "", LogSpan())
    status = f.status or RankStatus.UNKNOWN
    signals = [e.time for e in state.events if e.role == "signal_time" and e.time is not None]
    end = rank_end(record, signals, launcher_time, state.exit_code, status)
    return RankRow(rank=state.rank, status=status, exit_code=state.exit_code, first_error=f.fact("first_error"),
                   log=state.log, why=f.why, start=span.first_time, last_seen=span.last_time, end=end.time,
                   end_source=end.source, end_kind=end.kind, last_progress=progress_of(span, record),
                   last_progress_time=span.last_progress_time, tail=span.tail,
                   last_collective=record.collective if record is not None else None,
                   failure_order=ORDER.get(status))


def _rank_finding(state: RankState, root: Finding | None, record: RecordFile | None) -> Finding:
    first = (state.best_cause() or state.first("peer_closed") or state.first("real_timeout")
             or state.first("terminated"))
    first_error = redact(first.text.strip())[:FIRST_ERROR_CHARS] if first else None
    root_rank = root.ranks[0] if root is not None and root.ranks else None
    if root is not None and state.rank in root.ranks and root.cause != "unknown":
        status, why = RankStatus.ROOT_CAUSE, ""
    else:
        status, why = _victim_or_ok(state, root_rank)
        if record is not None and record.kind == "watchdog":  # its record says who ended it: no guessing
            status, why = RankStatus.VICTIM, _why_from_record(record, root_rank)
        elif record is not None and status in (RankStatus.OK, RankStatus.UNKNOWN):
            status, why = RankStatus.VICTIM, _why_from_record(record, root_rank)
            first_error = first_error or redact(record.exception_line or record.signal or record.kind)[
                :FIRST_ERROR_CHARS]
    cause = root.cause if root is not None else "unknown"
    facts = {"exit_code": state.exit_code, "first_error": first_error, "log": state.log, "why": why}
    return Finding(code="rank_role", cause=cause, message=why or first_error or status.value,
                   severity=SEVERITY[status], locations=(Location(path=state.log, rank=state.rank),),
                   ranks=(state.rank,), status=status, why=why, facts=facts)


def _why_from_record(record: RecordFile, root_rank: int | None) -> str:
    """A rank whose log shows nothing but whose error record says how it ended."""
    root = f"rank {root_rank}" if root_rank is not None else "the failing rank"
    if record.kind == "watchdog":
        return f"ended by paddle-doctor's watchdog after {root} failed (error record {record.path})"
    if record.kind == "signal":
        return f"ended by {record.signal or 'a signal'} after {root} failed (error record {record.path})"
    return f"also failed, after {root} (error record {record.path})"


def _victim_or_ok(state: RankState, root_rank: int | None) -> tuple[RankStatus, str]:
    root = f"rank {root_rank}" if root_rank is not None else "the failing rank"
    closed = state.first("peer_closed")
    if closed is not None:
        peer = closed.groups.get("peer")
        who = f"rank {peer}" if peer is not None else "a peer"
        return RankStatus.VICTIM, f"its collective failed because {who} closed the connection (died); not a cause"
    if state.has("terminated"):
        return RankStatus.VICTIM, f"stopped by SIGTERM (the launcher ends the other ranks after {root} failed)"
    if state.has("real_timeout"):
        return RankStatus.VICTIM, "waited the full 30 s gloo timeout in a collective that its peers never joined"
    if state.causes():
        return RankStatus.VICTIM, f"also failed, after {root}"
    if state.launcher_failed:
        return RankStatus.VICTIM, "the launcher reports it failed, with no error in its log"
    if state.log is None:
        return RankStatus.UNKNOWN, "no log for this rank was given"
    return RankStatus.OK, ""
