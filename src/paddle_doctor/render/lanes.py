"""The HTML page's timeline layout: one lane per rank (ranks grouped past ``GROUP_OVER``), and
where each lane's end is drawn. Formats what diagnose recorded in ``Diagnosis.rows``; reads
nothing.

Where an end is drawn: at the row's ``end`` when a source gave it. Otherwise at the earliest
place diagnose's inferred order allows: not before the rank was last seen, and not before the
drawn end of any rank that failed earlier in that order (the root cause before its victims).
Such a mark is ``inferred``. So the root cause's failure is drawn after a victim's end only when
a time in the logs puts it there (its own end, or a line it printed after the victim ended).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..findings import Diagnosis, RankRow, RankStatus

GROUP_OVER = 32
DIGITS = re.compile(r"\d+")
GROUP_ORDER = {"root_cause": 0, "victim": 1, "unknown": 2, "ok": 3}


@dataclass(frozen=True)
class Lane:
    ranks: tuple[int, ...]  # one rank, or the ranks of a group
    status: str  # root_cause | victim | ok | unknown
    start: float | None = None  # unix seconds
    mark: float | None = None  # where its end is drawn (see the module's docstring)
    inferred: bool = False  # no source gave that end: its place is the inferred order
    end_source: str = ""
    end_kind: str = ""  # exception, signal, watchdog, exit 1, ok, ...
    failure_order: int | None = None
    last_seen: float | None = None
    last_progress: str | None = None
    last_progress_time: float | None = None
    last_collective: str | None = None
    label: str = ""  # the first error (or how it ended)
    log: str | None = None
    why: str = ""  # a victim's why (the text report's OTHER RANKS reason)

    @property
    def is_group(self) -> bool:
        return len(self.ranks) > 1


@dataclass(frozen=True)
class Timeline:
    lanes: tuple[Lane, ...]
    t0: float | None
    t1: float | None
    total_ranks: int


def timeline_of(d: Diagnosis, group_over: int = GROUP_OVER) -> Timeline:
    root_rank = d.root_cause.ranks[0] if d.root_cause and d.root_cause.ranks else None
    lanes = place_ends([_lane(row, root_rank) for row in d.rows])
    if len(lanes) > group_over:
        lanes = group_lanes(lanes)
    times = [t for lane in lanes for t in (lane.start, lane.mark, lane.last_seen, lane.last_progress_time)
             if t is not None]
    return Timeline(tuple(lanes), min(times, default=None), max(times, default=None), len(d.rows))


def _lane(row: RankRow, root_rank: int | None) -> Lane:
    status = row.status.value
    order = row.failure_order
    if row.rank == root_rank and row.status != RankStatus.ROOT_CAUSE:
        status, order = RankStatus.ROOT_CAUSE.value, 1
    label = row.first_error or (row.why if row.why not in ("ok", "unknown", status) else "")
    return Lane((row.rank,) if row.rank is not None else (), status, row.start, row.end, False, row.end_source,
                row.end_kind, order, row.last_seen, row.last_progress, row.last_progress_time,
                row.last_collective, label or "", row.log, row.why or "")


def place_ends(lanes: list[Lane]) -> list[Lane]:
    """Give every lane without a sourced end that has an inferred order its drawn (inferred) end."""
    placed: dict[int, float] = {}  # failure order -> the latest end drawn for it
    out = list(lanes)
    for order in sorted({lane.failure_order for lane in lanes if lane.failure_order is not None}):
        floor = max((t for o, t in placed.items() if o < order), default=None)
        for i, lane in enumerate(out):
            if lane.failure_order != order:
                continue
            if lane.mark is None:
                seen = [t for t in (lane.last_seen, lane.start, floor) if t is not None]
                out[i] = lane = replace(lane, mark=max(seen) if seen else None, inferred=bool(seen))
            if lane.mark is not None:
                placed[order] = max(placed.get(order, lane.mark), lane.mark)
    return out


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
    for _, members in sorted(groups.items(), key=lambda kv: (GROUP_ORDER.get(kv[0][0], 9), -len(kv[1]))):
        out.append(_merge(members))
    return out


def _merge(members: list[Lane]) -> Lane:
    first = members[0]
    starts = [m.start for m in members if m.start is not None]
    marks = [m for m in members if m.mark is not None]
    last = max(marks, key=lambda m: m.mark, default=first)
    return replace(first, ranks=tuple(sorted(r for m in members for r in m.ranks)),
                   start=min(starts, default=None), mark=last.mark, inferred=last.inferred,
                   end_source=last.end_source, log=None)
