"""Split a log that several launches appended to into one part per launch.

Paddle's launcher opens ``workerlog.N`` for appending (``--log_overwrite`` is off by default), and
``nohup ... >> train.log`` does the same with a terminal's output: after a failed launch and a
passing rerun in the same folder, the old traceback is still in the file. A diagnosis of the whole
file would report the old failure. So the scan reports the lines that start a launch, and the
diagnosis reads only one launch's part (the last, or the one ``--launch K`` asks for).

Where a launch starts (each checked on the real launcher, ``tests/fixtures/reruns/record.py``):
- the launcher's own start: ``-----------  Configuration  ---`` (``paddle.distributed.launch``) or
  ``-----------  Configuration Arguments -----------`` (``fleet.launch`` and launchers before 2.3),
  in a terminal capture: one per launcher start, so always a boundary;
- a worker process starting: Paddle's import-time banners (``Modified FLAGS detected``, the
  ``No ccache found`` warning). A process that ``multiprocessing`` spawns (a DataLoader worker, a
  script without a main guard) prints them too, so a banner starts a new launch only when the part
  after it joins the job again (the TCP store's ``Successfully connected to``, once per worker and
  launch) and the part before it had joined already, or its times go back, or the
  ``PADDLE_TRAINER_ID`` lines of an env dump come a second time.
``run`` knows more: the size of every file before its launch (:class:`LaunchChoice` ``since``).
"""

from __future__ import annotations

import io
import math
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

LAUNCHER_START = ("-----------  Configuration",)
PROCESS_START = ("Modified FLAGS detected", "No ccache found")
JOINED = ("Successfully connected to",)
ENV_RANK = ("PADDLE_TRAINER_ID=", "PADDLE_TRAINER_ID:")
# The scanner's extra literals (read/scan.py adds them to its triggers).
TRIGGERS: tuple[str, ...] = LAUNCHER_START + PROCESS_START + JOINED
# One search for all the literals feed looks for: most lines hold none, and four any() a line were a
# fifth of diagnose's reading time on the 1024-rank bench (issue 29).
_ANY_LITERAL = re.compile("|".join(re.escape(m) for m in TRIGGERS + ENV_RANK))
TIME_BACK_S = 60.0  # a clock that goes back further than this between two lines is a new launch
ZONE_STEP_S = 900.0  # UTC offsets are whole quarter hours
CRASH_GAP_S = 120.0  # a crash dump follows the process's last stamped line within this
MAX_ZONE_S = 14 * 3600.0  # UTC-12 to UTC+14


def on_local_clock(unix: float, previous: float | None) -> float:
    """A crash dump's ``Aborted at <unix>`` time (UTC) on the clock of the log's other stamps (its host's local time,
    read as naive), where the gap back from the last local stamp is a host's UTC offset (a whole quarter hour) less a
    crash's few seconds (at most CRASH_GAP_S): then the offset is that quarter hour. Any other gap (a hang's SIGTERM
    minutes later, a dump on one clock) leaves the time as it is. Without this, a crash dump on a host in China stood
    8 h before the other ranks' stamps."""
    if previous is None:
        return unix
    zone = math.ceil((previous - unix) / ZONE_STEP_S) * ZONE_STEP_S
    fits = 0 < abs(zone) <= MAX_ZONE_S and zone - (previous - unix) <= CRASH_GAP_S
    return unix + zone if fits else unix  # (a glog stamp has no year: another year's dump fits no zone)


def marks_launch(text: str) -> bool:
    """Whether the line holds one of this module's literals (scanned for the split alone)."""
    return any(m in text for m in TRIGGERS)


@dataclass(frozen=True)
class LaunchChoice:
    """Which launch to diagnose: ``index`` 1-based (None: the last); ``since``: path -> the byte
    size the file had before this launch (``run``), which then decides alone."""

    index: int | None = None
    since: Mapping[str, int] = field(default_factory=dict)


LAST = LaunchChoice()


@dataclass(frozen=True)
class Window:
    """The part of one file that one launch wrote: bytes ``start`` to ``end`` (None: the end)."""

    start: int
    end: int | None
    started: float | None  # the time of its first line that has one
    number: int  # 1-based
    count: int  # launches in the file

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end is None


@dataclass
class _Part:
    start: int
    by_launcher: bool = False
    joined: bool = False
    env_rank: bool = False
    first_time: float | None = None
    last_time: float | None = None


class LaunchSplitter:
    """Fed every scanned line (offset, text, its own time) in file order; says where launches start."""

    def __init__(self, worker_log: bool = True) -> None:
        # A terminal capture replays a worker's start in the launcher's ERROR LOG DETAIL, and
        # interleaves ranks: there, only the launcher's own start counts.
        self.check_time = self.by_process = worker_log
        self.launches = [_Part(0)]
        self.candidate: _Part | None = None  # a process start not yet known to be a new launch
        self.last_was_start = False

    def feed(self, offset: int, text: str, when: float | None) -> None:
        current = self.launches[-1]
        marked = _ANY_LITERAL.search(text) is not None
        if marked and any(m in text for m in LAUNCHER_START):
            self._launcher_start(offset)
            return
        if marked and self.by_process and any(m in text for m in PROCESS_START):
            if not self.last_was_start:
                self._settle()
                self.candidate = _Part(offset)
            self.last_was_start = True
            return
        self.last_was_start = False
        part = self.candidate or current
        if marked and any(m in text for m in JOINED):
            part.joined = True
        if marked and any(m in text for m in ENV_RANK):
            if self.by_process and self.candidate is None and current.env_rank and offset > current.start:
                self.launches.append(_Part(offset, env_rank=True))  # a second env dump: a new launch
                return
            part.env_rank = True
        if when is not None:
            if self.check_time and self.candidate is None and current.last_time is not None \
                    and when < current.last_time - TIME_BACK_S:
                self.launches.append(_Part(offset, first_time=when, last_time=when))
                return
            part.first_time = when if part.first_time is None else part.first_time
            part.last_time = when if part.last_time is None else max(part.last_time, when)

    def _launcher_start(self, offset: int) -> None:
        """A launcher prints its own import banners, then its configuration: both start the launch.
        The first one seen belongs to the part the file starts with."""
        start = self.candidate.start if self.candidate is not None and self.last_was_start else offset
        if self.candidate is not None and self.last_was_start:
            self.candidate = None
        self._settle()
        current = self.launches[-1]
        if current.by_launcher or current.joined or current.env_rank:
            self.launches.append(_Part(start, by_launcher=True))
        else:
            current.by_launcher = True
        self.last_was_start = False

    def _settle(self) -> None:
        """Decide whether the pending process start began a new launch, or belongs to the current one."""
        part, self.candidate = self.candidate, None
        if part is None:
            return
        current = self.launches[-1]
        went_back = (self.check_time and part.first_time is not None and current.last_time is not None
                     and part.first_time < current.last_time - TIME_BACK_S)
        if part.start > 0 and ((part.joined and current.joined) or (part.env_rank and current.env_rank) or went_back):
            self.launches.append(part)
            return
        current.joined |= part.joined
        current.env_rank |= part.env_rank
        if current.first_time is None:
            current.first_time = part.first_time
        if part.last_time is not None:
            current.last_time = max(current.last_time or part.last_time, part.last_time)

    def windows(self) -> list[Window]:
        self._settle()
        parts = self.launches
        return [Window(p.start, parts[i + 1].start if i + 1 < len(parts) else None, p.first_time, i + 1, len(parts))
                for i, p in enumerate(parts)]


def choose(windows: list[Window], choice: LaunchChoice) -> Window | None:
    """The window ``choice`` asks for; None when the file has no such launch."""
    if choice.index is None:
        return windows[-1]
    return windows[choice.index - 1] if 1 <= choice.index <= len(windows) else None


def open_window(stream: BinaryIO, window: Window) -> BinaryIO:
    """The bytes of ``stream`` inside ``window`` (the stream as opened by ``open_log``)."""
    if stream.seekable():  # not a gzip log's budget reader: it reads forward only
        stream.seek(stream.tell() + window.start)  # after a UTF-8 BOM, offsets count from its end
    else:
        _skip(stream, window.start)
    return stream if window.end is None else _Limited(stream, window.end - window.start)  # type: ignore[return-value]


def newlines_before(stream: BinaryIO, offset: int) -> int:
    """How many lines the file has before byte ``offset`` (a window's line numbers start after them)."""
    count, left = 0, offset
    while left > 0 and (chunk := stream.read(min(left, 8 << 20))):
        count += chunk.count(b"\n")
        left -= len(chunk)
    return count


def _skip(stream: BinaryIO, n: int) -> None:
    while n > 0 and (chunk := stream.read(min(n, 8 << 20))):
        n -= len(chunk)


class _Limited(io.RawIOBase):
    """At most ``left`` bytes of ``raw``."""

    def __init__(self, raw: BinaryIO, left: int):
        self.raw, self.left = raw, left

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        want = self.left if size is None or size < 0 else min(size, self.left)
        data = self.raw.read(want) if want > 0 else b""
        self.left -= len(data)
        return data

    def close(self) -> None:
        self.raw.close()
        super().close()


def written_by(path: str, choice: LaunchChoice) -> bool:
    """False for a file that ``run``'s launch left as it was (the same size as before it)."""
    if path not in choice.since:
        return True
    try:
        return os.stat(path).st_size != choice.since[path]
    except OSError:
        return True  # the reader reports it


def launcher_logs_of_launch(sources: list, choice: LaunchChoice) -> list:
    """The new launcher writes one ``<job>.<pod>.log`` per launch into the same dir; keep, per
    node dir, the one of the launch diagnosed (by modification time: the last, or the K-th)."""
    if choice.since:
        return sources
    by_node: dict[str, list] = {}
    for s in sources:
        if s.role == "launcher_log" and s.data is None:
            by_node.setdefault(s.node, []).append(s)
    dropped = set()
    for logs in by_node.values():
        if len(logs) < 2:
            continue
        ordered = sorted(logs, key=lambda s: _mtime(s.path))
        kept = choose([Window(0, None, None, i + 1, len(ordered)) for i in range(len(ordered))], choice)
        dropped |= {id(s) for i, s in enumerate(ordered) if kept is None or i + 1 != kept.number}
    return [s for s in sources if id(s) not in dropped]


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def launch_started(windows: list[Window]) -> float | None:
    """When the diagnosed launch started, where a file was split (its error records from before
    then are an earlier launch's)."""
    starts = [w.started for w in windows if w.count > 1 and w.number > 1 and w.started is not None]
    return min(starts) if starts else None


def since_window(size_before: int) -> Window:
    """What a file gained during ``run``'s own launch."""
    return Window(size_before, None, None, 1, 1)


def clock(when: float | None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(when)) if when is not None else "at an unknown time"


def launches_note(chosen: Mapping[str, Window], choice: LaunchChoice) -> str | None:
    """"N launches in this log; diagnosing the last, started HH:MM:SS" when a file held several."""
    split = {path: w for path, w in chosen.items() if w.count > 1}
    if not split:
        return None
    count = max(w.count for w in split.values())
    starts = [w.started for w in split.values() if w.started is not None]
    started = clock(min(starts) if starts else None)
    which = "the last" if choice.index is None else f"launch {choice.index}"
    where = "this log" if len(split) == 1 else f"these logs ({len(split)} files)"
    other = "--launch K picks another" if choice.index is None else "without --launch: the last"
    return f"{count} launches in {where}; diagnosing {which}, started {started} ({other})"
