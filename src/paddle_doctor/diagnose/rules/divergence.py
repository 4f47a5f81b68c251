"""The rank that left the common collectives first, when every rank ends waiting in a different one.

A rank that breaks out of its loop early (a per-rank early stop, an ``except`` that skips a step)
calls the next collective of the program while its peers still call the loop's. Gloo then times
every one of them out (``unbound_buffer.cc`` TIMEOUT after 30 s, measured in
cases/22_rank_breaks_early: all_reduce in the loop on rank 0, all_gather after it on rank 1), so
"the first to time out" says nothing: the rank that stayed waits as long as the one that left.

What does tell them apart is where each waits. Each timeout's traceback gives the collective (the
first Paddle frame under the user's code: ``all_reduce``, ``all_gather``, ``barrier``) and the
user's call stack. Two stacks part at one frame; when that frame is the same function of the same
file in both, the rank at the later line has gone on past the code its peer is still in: it left
first. With three ranks or more and no such order, the one call site that a single rank waits at,
against one shared by all the others, is the odd one out.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

from ...findings import EvidenceLine, Finding
from ...redact import redact
from ..ranks import RankState
from ..read.parse import Event
from ..verdict import make_verdict
from ...catalog.ids import CauseId

PROGRESS_BYTES = 4096
WAIT_ENDS = ("real_timeout", "peer_closed")
TRACEBACK_SPAN = 80  # frames further than this many lines above a timeout belong to another traceback


@dataclass(frozen=True)
class Wait:
    """Where one rank waited out the timeout."""

    rank: int
    timeout: Event  # the gloo timeout, or the closed connection, that ended the wait
    collective: str  # the Paddle API the user's code called ("all_reduce")
    stack: tuple[Event, ...]  # the user's frames, outermost first

    @property
    def site(self) -> tuple[str, str, str, str]:
        inner = self.stack[-1].groups
        return self.collective, inner.get("path", ""), inner.get("func", ""), inner.get("lineno", "")


def from_divergent_waits(ranks: dict[int, RankState], unranked, facts) -> Finding | None:
    """A rule of :func:`rootcause.decide` (its signature): see :func:`first_to_leave`."""
    return first_to_leave(ranks)


def first_to_leave(ranks: dict[int, RankState]) -> Finding | None:
    """The verdict when two or more ranks timed out in different collectives or call sites and
    one of them is known to have left the common path first; None otherwise."""
    waits = [w for s in sorted(ranks.values(), key=lambda s: s.rank) if (w := _wait_of(s)) is not None]
    if len(waits) < 2 or len({w.site for w in waits}) < 2:
        return None
    if not any(w.timeout.role == "real_timeout" for w in waits):
        return None  # only closed connections: a peer ended (died, exited), not a divergence proven
    leaver, stayer, how = _left_first(waits)
    if leaver is None:
        return None
    # Sure when the stayer is still inside a call the leaver has returned from (the loop it broke
    # out of); two collectives of one function body may also be one loop's, in either order.
    returned = how == "order" and len(stayer.stack) > _parting(leaver, stayer) + 1
    finding = make_verdict(
        "rank_left_first", CauseId.rank_divergent_collective, leaver.rank,
        [leaver.stack[-1], leaver.timeout, stayer.stack[-1]], "high" if returned else "medium",
        f"the ranks waited in different collectives until gloo's timeout: rank {leaver.rank} in "
        f"{leaver.collective} at {_where(leaver)}, rank {stayer.rank} in {stayer.collective} at {_where(stayer)}; "
        + (f"rank {leaver.rank} had gone on past the code rank {stayer.rank} was still in (it left the common "
           "collectives first)" if how == "order" else
           f"rank {leaver.rank} is the only rank at its call site"),
        title=f"rank {leaver.rank} left the common collectives first: it waits in {leaver.collective} "
              f"({_where(leaver)}) while rank {stayer.rank} still waits in {stayer.collective} ({_where(stayer)})")
    progress = _progress_line(ranks[leaver.rank], leaver, ranks)
    if progress is None:
        return finding
    return dataclasses.replace(finding, evidence=(progress,) + finding.evidence)


def waited_in(state: RankState) -> str | None:
    """The Paddle collective (``barrier``, ``all_reduce``, ...) the user's code was in when the rank's wait
    ended, where its traceback shows it; None otherwise."""
    wait = _wait_of(state)
    return wait.collective if wait is not None else None


def _wait_of(state: RankState) -> Wait | None:
    """Where the rank waited: the traceback of its gloo timeout, or of the closed connection it saw
    when the peer that timed out first exited (which of the two a rank prints is a race of a few
    ms: measured in case 22, both outcomes in three runs)."""
    timeout = next((e for e in state.events if e.role in WAIT_ENDS), None)
    if timeout is None:
        return None
    frames = [e for e in state.events if e.role == "frame" and e.file == timeout.file and e.offset < timeout.offset]
    frames = _last_traceback(frames, timeout)
    user = [i for i, f in enumerate(frames) if _is_user(f)]
    if not user:
        return None
    below = frames[user[-1] + 1:]
    collective = below[0].groups.get("func", "?") if below else _called(frames[user[-1]])
    return Wait(state.rank, timeout, collective, tuple(frames[i] for i in user))


def _last_traceback(frames: list[Event], timeout: Event) -> list[Event]:
    """The frames of the traceback that ends in ``timeout`` (the last contiguous run above it)."""
    picked: list[Event] = []
    limit = timeout.line
    for f in reversed(frames):
        if limit - f.line > TRACEBACK_SPAN:
            break
        picked.append(f)
        limit = f.line
    return picked[::-1]


def _is_user(frame: Event) -> bool:
    path = frame.groups.get("path", "")
    return not any(part in path for part in ("site-packages", "dist-packages", "/paddle/", "/lib/python"))


def _called(frame: Event) -> str:
    m = re.search(r"(\w+)\(", frame.next_text)
    return m.group(1) if m else "?"


def _left_first(waits: list[Wait]) -> tuple[Wait | None, Wait | None, str]:
    """(the rank that left, a rank that stayed, "order" | "odd_one_out")."""
    ahead = _ahead(waits)
    if ahead is not None:
        return (*ahead, "order")
    counts = Counter(w.site for w in waits)
    if len(counts) == 2 and len(waits) >= 3:
        (common, _), (odd, n) = counts.most_common()
        if n == 1:
            return (next(w for w in waits if w.site == odd), next(w for w in waits if w.site == common),
                    "odd_one_out")
    return None, None, ""


def _ahead(waits: list[Wait]) -> tuple[Wait, Wait] | None:
    """The rank whose stack is furthest on, and one rank behind it, when every pair of distinct
    call sites parts in the same function (so the lines can be compared); None otherwise."""
    by_site = {w.site: w for w in waits}
    sites = list(by_site.values())
    best = sites[0]
    for other in sites[1:]:
        order = _compare(other, best)
        if order is None:
            return None
        if order > 0:
            best = other
    behind = [w for w in sites if w is not best and _compare(best, w) == 1]
    if len(behind) != len(sites) - 1 or sum(1 for w in waits if w.site == best.site) != 1:
        return None  # not a strict order, or several ranks share the leading site
    return best, behind[0]


def _compare(a: Wait, b: Wait) -> int | None:
    """1 when ``a`` is further on in the program than ``b``, -1 when behind, None when unknown."""
    for fa, fb in zip(a.stack, b.stack):
        ga, gb = fa.groups, fb.groups
        if (ga.get("path"), ga.get("func")) != (gb.get("path"), gb.get("func")):
            return None
        la, lb = int(ga.get("lineno", 0)), int(gb.get("lineno", 0))
        if la != lb:
            return 1 if la > lb else -1
    return None


def _parting(a: Wait, b: Wait) -> int:
    """The index of the first frame where the two stacks differ."""
    return next((i for i, (fa, fb) in enumerate(zip(a.stack, b.stack)) if fa.groups != fb.groups),
                min(len(a.stack), len(b.stack)))


def _where(w: Wait) -> str:
    g = w.stack[-1].groups
    return f"{g.get('path', '?').rsplit('/', 1)[-1]}:{g.get('lineno', '?')}"


def _progress_line(state: RankState, wait: Wait, ranks: dict[int, RankState]) -> EvidenceLine | None:
    """The leaver's last line before its traceback (what it last reported doing), read from its own
    log; None when the log is shared with other ranks (a runner's interleaved output)."""
    head = next((e for e in reversed(state.events) if e.role == "traceback" and e.offset < wait.stack[0].offset), None)
    shared = any(s.log == state.log for r, s in ranks.items() if r != state.rank)
    if head is None or state.line_index is None or shared or head.offset == 0:
        return None
    start = max(0, head.offset - PROGRESS_BYTES)
    with state.line_index.reopen() as stream:
        stream.seek(start)
        before = stream.read(head.offset - start).decode("utf-8", errors="replace")
    lines = before.rstrip("\n").split("\n")
    text = lines[-1].strip() if lines else ""
    if not text:
        return None
    return EvidenceLine(head.file, head.line - 1, redact(f"(its last line before the timeout) {text}"))
