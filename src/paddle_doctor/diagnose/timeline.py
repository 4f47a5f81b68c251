"""What each rank did over time, for the HTML page: start, last progress, last collective, end.

Read from the files a diagnosis already names (each rank's log, the error records beside it);
no paddle. Times come from glog prefixes (``I1201 10:25:24.512345``; the year is the current
one, as glog omits it), the launcher's own timestamps, and the error records' unix ``time``;
a log with no time at all gets its file's modification time as its end. Big jobs stay
readable: past ``GROUP_OVER`` ranks, ranks of the same status and the same kind of ending share
one lane (the root cause always keeps its own).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from paddle_doctor.findings import Diagnosis, Finding

GROUP_OVER = 32
HEAD_BYTES = 64 << 10  # the start of a log holds its first timestamp
TAIL_BYTES = 256 << 10  # the end holds the last progress line and the failure
GLOG = re.compile(r"^[IWEF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d+)")
LAUNCHER_TIME = re.compile(r"(20\d\d-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})")
NOISE = re.compile(r"^(\s|Traceback|\[paddle-doctor\]|=+|FLAGS\(|LAUNCH |-{5}|\S*Warning|warnings\.warn)"
                   r"|(Error|Exception|error|TIMEOUT)\b")
DIGITS = re.compile(r"\d+")
MTIME_TRUST_S = 120.0  # a log's mtime this soon after its last timestamp is when the rank stopped


@dataclass(frozen=True)
class Lane:
    ranks: tuple[int, ...]  # one rank, or the ranks of a group
    status: str  # root_cause | victim | ok | unknown
    start: float | None = None  # unix seconds
    end: float | None = None
    end_kind: str = ""  # exception, signal, watchdog, exit 1, ok, ...
    last_progress: str | None = None
    last_progress_time: float | None = None
    last_collective: str | None = None
    label: str = ""  # the first error (or how it ended)
    log: str | None = None

    @property
    def is_group(self) -> bool:
        return len(self.ranks) > 1


@dataclass(frozen=True)
class Timeline:
    lanes: tuple[Lane, ...]
    t0: float | None
    t1: float | None
    total_ranks: int


def build_timeline(d: Diagnosis, group_over: int = GROUP_OVER) -> Timeline:
    root_rank = d.root_cause.ranks[0] if d.root_cause and d.root_cause.ranks else None
    lanes = [_lane(f, root_rank) for f in d.ranks]
    if len(lanes) > group_over:
        lanes = group_lanes(lanes)
    times = [t for lane in lanes for t in (lane.start, lane.end, lane.last_progress_time) if t is not None]
    return Timeline(tuple(lanes), min(times, default=None), max(times, default=None), len(d.ranks))


def _lane(f: Finding, root_rank: int | None) -> Lane:
    rank = f.ranks[0] if f.ranks else -1
    status = f.status.value if f.status else "unknown"
    if rank == root_rank and status != "root_cause":
        status = "root_cause"
    log = f.fact("log")
    start, end, progress, progress_time = _read_log(Path(log)) if log else (None, None, None, None)
    record = _record(Path(log).parent if log else None, rank)
    exit_code = f.fact("exit_code")
    kind = record.get("kind") or (f"exit {exit_code}" if exit_code not in (None, 0) else
                                  "ok" if status == "ok" else "failed" if status == "root_cause" else "")
    end = record.get("time") or end
    last_coll = _collective(record.get("last_collective") or record.get("current_collective"))
    if record.get("step") is not None:
        progress = f"step {record['step']}" + (f" ({record['phase']})" if record.get("phase") else "")
    label = f.fact("first_error") or (f.message if f.message not in ("ok", "unknown", status) else "")
    return Lane((rank,), status, start, end, kind, progress, progress_time, last_coll, label or "", log)


def _read_log(path: Path) -> tuple[float | None, float | None, str | None, float | None]:
    """First and last time in the log, and its last plain output line (with the time before it)."""
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(HEAD_BYTES)
            fh.seek(max(0, size - TAIL_BYTES))
            tail = head if size <= HEAD_BYTES else fh.read()
        mtime = path.stat().st_mtime
    except OSError:
        return None, None, None, None
    year = dt.date.fromtimestamp(mtime).year
    first = next((t for t in _times(head.decode("utf-8", "replace").splitlines(), year) if t is not None), None)
    lines = tail.decode("utf-8", "replace").splitlines()
    last_time = progress = progress_time = None
    for line in lines:
        t = _time_of(line, year)
        if t is not None:
            last_time = t
        elif line.strip() and not NOISE.search(line):
            progress, progress_time = line.strip()[:200], last_time
    return first, _end_time(last_time, mtime), progress, progress_time


def _end_time(last_time: float | None, mtime: float) -> float | None:
    """The log stopped being written at its mtime, which is later than its last timestamp when the
    rank printed a traceback after it. A copied log (a recorded fixture, an attachment) has a
    meaningless mtime, hours or days later: then the last timestamp is all we know."""
    if last_time is None:
        return mtime
    return mtime if 0 <= mtime - last_time <= MTIME_TRUST_S else last_time


def _times(lines: Iterable[str], year: int):
    return (_time_of(line, year) for line in lines)


def _time_of(line: str, year: int) -> float | None:
    m = GLOG.match(line)
    try:
        if m:
            mo, day, h, mi, s, frac = m.groups()
            return dt.datetime(year, int(mo), int(day), int(h), int(mi), int(s),
                               int(frac[:6].ljust(6, "0"))).timestamp()
        m = LAUNCHER_TIME.search(line)
        if m:
            return dt.datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").timestamp() + int(m.group(2)) / 1000
    except ValueError:
        return None
    return None


def _record(folder: Path | None, rank: int) -> dict:
    if folder is None:
        return {}
    try:
        data = json.loads((folder / f"paddle_doctor_error.{rank}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _collective(entry) -> str | None:
    if not entry:
        return None
    if isinstance(entry, dict):
        op = entry.get("op") or entry.get("name") or "collective"
        seq = entry.get("seq", entry.get("sequence"))
        return f"{op} #{seq}" if seq is not None else str(op)
    return str(entry)[:80]


def group_lanes(lanes: list[Lane]) -> list[Lane]:
    """The root cause alone; every other rank in one lane per (status, kind of ending, error
    wording with the numbers taken out)."""
    groups: dict[tuple[str, str, str], list[Lane]] = {}
    out = []
    for lane in lanes:
        if lane.status == "root_cause":
            out.append(lane)
            continue
        key = (lane.status, lane.end_kind, DIGITS.sub("N", lane.label)[:120])
        groups.setdefault(key, []).append(lane)
    order = {"root_cause": 0, "victim": 1, "unknown": 2, "ok": 3}
    for (status, _, _), members in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 9), -len(kv[1]))):
        out.append(_merge(members))
    return out


def _merge(members: list[Lane]) -> Lane:
    first = members[0]
    starts = [m.start for m in members if m.start is not None]
    ends = [m.end for m in members if m.end is not None]
    return replace(first, ranks=tuple(sorted(r for m in members for r in m.ranks)),
                   start=min(starts, default=None), end=max(ends, default=None), log=None)
