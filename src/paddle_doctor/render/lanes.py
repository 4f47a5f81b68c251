"""The HTML page's timeline layout: one lane per rank (ranks grouped past ``GROUP_OVER``), and
where each lane's end is drawn. Formats what diagnose recorded in ``Diagnosis.rows``; reads
nothing.

Where an end is drawn: at the row's ``end`` when a source gave it. Otherwise at the earliest
place diagnose's inferred order allows: not before the rank was last seen, and not before the
drawn end of any rank that failed earlier in that order (the root cause before its victims).
Such a mark is ``inferred``. So the root cause's failure is drawn after a victim's end only when
a time in the logs puts it there (its own end, or a line it printed after the victim ended).

The axis is broken where nothing happened for long (:func:`axis_breaks`): a 30 s gloo wait is
drawn as a short compressed gap, so that events 50 ms apart near the failure stay visibly apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..findings import Diagnosis, RankRow, RankStatus

GROUP_OVER = 32
DIGITS = re.compile(r"\d+")
GROUP_ORDER = {"root_cause": 0, "victim": 1, "unknown": 2, "ok": 3}
# An idle span is compressed when it is at least MIN_BREAK_S long and BREAK_RATIO times as long as
# all the time left on the axis; each takes BREAK_SHARE of the axis (all of them at most MAX_BREAKS_SHARE),
# more where the time left would otherwise be drawn over MAX_ZOOM times as wide as on a linear axis.
MIN_BREAK_S, BREAK_RATIO, BREAK_SHARE, MAX_BREAKS_SHARE, MAX_ZOOM = 1.0, 3.0, 0.08, 0.3, 50.0


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
    tail: Sequence[str] = ()  # its log's last lines, as diagnose read them (redacted, bounded, lazy)

    @property
    def is_group(self) -> bool:
        return len(self.ranks) > 1


@dataclass(frozen=True)
class Timeline:
    lanes: tuple[Lane, ...]
    t0: float | None
    t1: float | None
    total_ranks: int
    breaks: tuple[tuple[float, float], ...] = ()  # idle spans drawn compressed (see axis_breaks)

    def at(self, t: float) -> float:
        """Where ``t`` lies on the axis, from 0 (t0) to 1 (t1): linear within the kept stretches and
        within the breaks, each at its own scale (see :func:`_kept_share`)."""
        if self.t0 is None:
            return 0.0
        span = max((self.t1 or self.t0) - self.t0, 1e-9)
        idle = sum(b - a for a, b in self.breaks)
        kept_share = _kept_share(span, idle, len(self.breaks))
        kept_scale = kept_share / max(span - idle, 1e-9)
        idle_scale = (1 - kept_share) / idle if idle else 0.0
        pos, last = 0.0, self.t0
        for a, b in self.breaks:
            if t <= a:
                break
            pos += (a - last) * kept_scale
            if t < b:
                return pos + (t - a) * idle_scale
            pos, last = pos + (b - a) * idle_scale, b
        return pos + (t - last) * kept_scale


def _kept_share(span: float, idle: float, breaks: int) -> float:
    """The share of the axis the kept stretches take: all but BREAK_SHARE per break (at most
    MAX_BREAKS_SHARE for all), but never drawn more than MAX_ZOOM times as wide as on a linear
    axis; the breaks share the rest in proportion to their lengths."""
    if not breaks:
        return 1.0
    return min(1 - min(BREAK_SHARE * breaks, MAX_BREAKS_SHARE), (span - idle) / span * MAX_ZOOM)


def timeline_of(d: Diagnosis, group_over: int = GROUP_OVER) -> Timeline:
    root_rank = d.root_cause.ranks[0] if d.root_cause and d.root_cause.ranks else None
    lanes = place_ends([_lane(row, root_rank) for row in d.rows])
    if len(lanes) > group_over:
        lanes = group_lanes(lanes)
    times = [t for lane in lanes for t in (lane.start, lane.mark, lane.last_seen, lane.last_progress_time)
             if t is not None]
    return Timeline(tuple(lanes), min(times, default=None), max(times, default=None), len(d.rows),
                    axis_breaks(times))


def axis_breaks(times: list[float]) -> tuple[tuple[float, float], ...]:
    """The idle spans (between consecutive event times) to draw compressed: the k longest, for the
    largest k whose shortest is >= MIN_BREAK_S and >= BREAK_RATIO times the time left (at least one
    span is always kept, so an evenly spread run stays linear)."""
    points = sorted(set(times))
    gaps = sorted(zip(points, points[1:]), key=lambda g: g[0] - g[1])  # longest first
    span = points[-1] - points[0] if points else 0.0
    for k in range(len(gaps) - 1, 0, -1):
        chosen = gaps[:k]
        shortest = chosen[-1][1] - chosen[-1][0]
        left = span - sum(b - a for a, b in chosen)
        if shortest >= MIN_BREAK_S and shortest >= BREAK_RATIO * left:
            return tuple(sorted(chosen))
    return ()


def _break_share(count: int) -> float:
    return min(BREAK_SHARE, MAX_BREAKS_SHARE / count) if count else 0.0


def _lane(row: RankRow, root_rank: int | None) -> Lane:
    status = row.status.value
    order = row.failure_order
    if row.rank == root_rank and row.status != RankStatus.ROOT_CAUSE:
        status, order = RankStatus.ROOT_CAUSE.value, 1
    label = row.first_error or (row.why if row.why not in ("ok", "unknown", status) else "")
    return Lane((row.rank,) if row.rank is not None else (), status, row.start, row.end, False, row.end_source,
                row.end_kind, order, row.last_seen, row.last_progress, row.last_progress_time,
                row.last_collective, label or "", row.log, row.why or "", row.tail)


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
                   end_source=last.end_source, log=None, tail=())
