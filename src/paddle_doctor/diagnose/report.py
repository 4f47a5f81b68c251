"""One Finding per rank: its role in the failure (root cause, victim, ok, unknown) and why.

``status`` is the JSON contract's ``ranks[].status``; ``facts`` holds ``exit_code``, ``first_error``,
``log`` and ``why`` (a victim's reason to have died).
"""

from __future__ import annotations

from ..findings import Finding, Location, RankStatus, Severity
from .ranks import RankState
from .records import RecordFile
from ..redact import redact

FIRST_ERROR_CHARS = 300
SEVERITY = {RankStatus.ROOT_CAUSE: Severity.ERROR, RankStatus.VICTIM: Severity.WARNING,
            RankStatus.OK: Severity.INFO, RankStatus.UNKNOWN: Severity.INFO}


def rank_findings(ranks: dict[int, RankState], root: Finding | None,
                  records: dict[int, RecordFile]) -> tuple[Finding, ...]:
    return tuple(_rank_finding(s, root, records.get(s.rank)) for s in sorted(ranks.values(), key=lambda s: s.rank))


def _rank_finding(state: RankState, root: Finding | None, record: RecordFile | None) -> Finding:
    first = (state.best_cause() or state.first("peer_closed") or state.first("real_timeout")
             or state.first("terminated"))
    first_error = redact(first.text.strip())[:FIRST_ERROR_CHARS] if first else None
    root_rank = root.ranks[0] if root is not None and root.ranks else None
    if root is not None and root_rank == state.rank and root.cause != "unknown":
        status, why = RankStatus.ROOT_CAUSE, ""
    else:
        status, why = _victim_or_ok(state, root_rank)
        if record is not None and status in (RankStatus.OK, RankStatus.UNKNOWN):
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
