"""The culprit line: where and when the root-cause rank failed, as torchrun's "Root Cause" block
gives it (host, global and local rank, pid, failure time and where that time came from, exit code
or signal).

Each field comes from a source that states it, or stays out: the rank's error record (host, pid,
local rank, time), its env dump (``PADDLE_CURRENT_ENDPOINT``'s host, ``PADDLE_LOCAL_RANK``), the
log file's name (``workerlog.N``: local rank N), Paddle's FatalError block (``received by PID N``,
``Aborted at``), the launcher's line (exit code). Stored in the root cause's facts as ``culprit``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import replace

from ..findings import Diagnosis, RankRow
from .read.sources import SourceFile

RECEIVED_BY_PID = re.compile(r"received by PID (\d+)")
# timeline.END_FROM_*: where a rank's end time came from, said for a reader
TIME_SOURCES = {"error record": "its error record", "fatal signal time": "Paddle's `Aborted at` line",
                "launcher": "the launcher's line, when it saw the rank dead"}
UNSAID_ENDINGS = ("failed", "ok", "")


def with_culprit(d: Diagnosis, records: Mapping, env: Mapping[tuple[str, int], Mapping[str, str]],
                 sources: list[SourceFile], events_by_rank: Mapping[int, list]) -> Diagnosis:
    rc = d.root_cause
    if rc is None or not rc.ranks or rc.ranks[0] is None:
        return d
    rank = rc.ranks[0]
    row = next((r for r in d.rows if r.rank == rank), RankRow(rank))
    source = next((s for s in sources if s.role == "worker" and s.rank == rank), None)
    values = env.get((source.node, rank), {}) if source is not None else {}
    facts = culprit_facts(rank, row, records.get(rank), values, source, events_by_rank.get(rank, []))
    return replace(d, root_cause=replace(rc, facts={**rc.facts, "culprit": facts}))


def culprit_facts(rank: int, row: RankRow, record, env: Mapping[str, str], source: SourceFile | None,
                  events: list) -> dict:
    local = getattr(record, "local_rank", None)
    if local is None and env.get("PADDLE_LOCAL_RANK", "").isdigit():
        local = int(env["PADDLE_LOCAL_RANK"])
    if local is None and source is not None:
        local = source.local_rank
    host = getattr(record, "host", None) or _endpoint_host(env) or None
    pid = getattr(record, "pid", None) or _pid_from_logs(events)
    out = {"rank": rank, "local_rank": local, "host": host, "pid": pid, "time": row.end,
           "time_iso": _iso(row.end), "time_source": row.end_source or None, "exit_code": row.exit_code,
           "signal": getattr(record, "signal", None) or None, "end_kind": row.end_kind or None}
    return {k: v for k, v in out.items() if v is not None}


def _endpoint_host(env: Mapping[str, str]) -> str:
    endpoint = env.get("PADDLE_CURRENT_ENDPOINT", "")
    return endpoint.rpartition(":")[0] if ":" in endpoint else ""


def _pid_from_logs(events: list) -> int | None:
    for e in events:
        m = RECEIVED_BY_PID.search(e.text) if "received by PID" in e.text else None
        if m:
            return int(m.group(1))
    return None


def _iso(t: float | None) -> str | None:
    if t is None:
        return None
    return dt.datetime.fromtimestamp(t).astimezone().isoformat(timespec="milliseconds")


def culprit_line(facts: Mapping) -> str:
    """``rank 1 (local rank 1) on node-a, pid 3143; failed 2026-12-05 00:04:32.060 (from its error
    record); exception``: the fields that are known, in torchrun's order."""
    who = f"rank {facts['rank']}"
    if "local_rank" in facts:
        who += f" (local rank {facts['local_rank']})"
    if "host" in facts:
        who += f" on {facts['host']}"
    if "pid" in facts:
        who += f", pid {facts['pid']}"
    parts = [who]
    if "time" in facts:
        when = dt.datetime.fromtimestamp(facts["time"]).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
        source = TIME_SOURCES.get(facts.get("time_source", ""), facts.get("time_source"))
        parts.append(f"failed {when}" + (f" (time from {source})" if source else ""))
    else:
        parts.append("failure time not in the logs")
    ending = [f"exit code {facts['exit_code']}"] if facts.get("exit_code") is not None else []
    ending += [f"signal {facts['signal']}"] if facts.get("signal") else []
    ending += [facts["end_kind"]] if facts.get("end_kind", "") not in UNSAID_ENDINGS and not ending else []
    return "; ".join(parts + ([", ".join(ending)] if ending else []))
