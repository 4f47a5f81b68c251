"""Read one source and turn its interesting lines into events: what each line means, where, when.

Timestamps are taken from the line itself when it has one (glog ``I1129 21:40:56.03``, Python
logging ``2024-03-10 00:35:50,211``, ``[2021/06/01 02:52:01]``, Paddle's ``Aborted at <unix time>``);
an event without one inherits the last time seen earlier in the same file as a lower bound.
"""

from __future__ import annotations

import bisect

import datetime as dt
import functools
import io
import os
import re
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...lazy import lazy_compile
from .scan import LineIndex
from .sources import SourceFile
from .opener import open_log
from .launches import (LAST, LaunchChoice, LaunchSplitter, Window, choose, marks_launch, newlines_before, open_window,
                       on_local_clock, since_window)
from .prefixes import SNIFF_BYTES, LinePrefix, detect
from .runners import match_runner
from .selfrank import SECTION_RE, SECTION_WORD, StatedRank
from .tracebacks import add_exception_lines, reopener, reusable
from .scan import BinaryFileError, Hit, ScanStats, decode, scan_stream
from ..signatures import Signature, match_line, match_quoted
from .markdown import ANSI_RE, plain, records, unwrapped
from ..timeline import LogSpan, log_span

# mpirun --tag-output ("...[1,31]<stderr>:") and paddle.distributed.spawn name the rank on the line.
MPI_PREFIX_RE = lazy_compile(r"^.*?\[\d+,(?P<rank>\d+)\]<std(?:err|out)>:")
SPAWN_RANK_RE = re.compile(r"Process (?P<rank>\d+) terminated with the following error")
ERROR_DETAIL = "ERROR LOG DETAIL"

_GLOG_TS = re.compile(r"^[IWEF](?P<mo>\d\d)(?P<d>\d\d) (?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d(?:\.\d+)?)")
_PYLOG_TS = re.compile(r"(?P<y>\d{4})[-/](?P<mo>\d\d)[-/](?P<d>\d\d)[ T](?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?:[,.](?P<f>\d+))?")
# Per file, of each kind of line (signature, rank), the first and last KEEP_EVENTS are kept (KeepEnds).
KEEP_EVENTS = 256  # a traceback is ~10 frame lines: the first and last 25 tracebacks keep all theirs
MAX_EVENTS = 100_000
_UNIX_TS = lazy_compile(r"Aborted at (?P<unix>\d{9,11}) \(unix time\)")


@dataclass
class Event:
    sig: Signature
    groups: dict
    file: str
    offset: int  # where the line starts in the file's text (orders the events of one file)
    text: str
    next_text: str
    time: float | None  # from this line itself
    after: float | None  # the last time seen before it in the same file
    rank: int | None  # the rank this line belongs to, when known
    index: LineIndex = field(repr=False, compare=False, default=None)  # type: ignore[assignment]

    @property
    def role(self) -> str:
        return self.sig.role

    @property
    def line(self) -> int:
        """1-based line number, counted on first use (see scan.LineIndex)."""
        return self.index.line_of(self.offset)

    @property
    def when(self) -> float | None:
        return self.time if self.time is not None else self.after


@dataclass
class FileEvents:
    source: SourceFile
    events: list[Event] = field(default_factory=list)
    last_text: str = ""  # its last non-empty line (where a silent death stopped)
    index: LineIndex | None = None
    span: LogSpan = field(default_factory=LogSpan)  # its first and last time, its last output line
    # A file whose lines carry a runner's rank prefix (mpirun, srun, kubectl) holds one log per
    # rank: the runner, and each rank seen with its last non-empty line.
    prefix: str | None = None
    rank_last_text: dict[int, str] = field(default_factory=dict)
    window: Window | None = None  # the launch read, when the file holds several (launches.py)
    notes: list[str] = field(default_factory=list)  # what was cut (input budgets), for the report

    @property
    def lines(self) -> int:
        """How many lines the file has (counted on first use)."""
        return self.index.total() if self.index is not None else 0


def read_events(source: SourceFile, year: int, choice: LaunchChoice = LAST) -> FileEvents:
    """Events of one source: of one launch's part when several launches appended to it (see
    launches.py). Raises OSError or BinaryFileError when it cannot be read, NoSuchLaunch when the
    file holds no launch ``choice`` asks for."""
    if source.path in choice.since:
        return _read_part(source, year, since_window(choice.since[source.path]))
    splitter = LaunchSplitter(worker_log=source.role == "worker")
    whole = _read_part(source, year, None, splitter)
    window = choose(splitter.windows(), choice)
    if window is None:
        raise NoSuchLaunch(f"holds {splitter.windows()[-1].count} launch(es), no launch {choice.index}")
    if window.whole:
        whole.window = window
        return whole
    return _read_part(source, year, window)


class NoSuchLaunch(ValueError):
    """The file holds fewer launches than the one asked for."""


def _read_part(source: SourceFile, year: int, window: Window | None,
               splitter: LaunchSplitter | None = None) -> FileEvents:
    """Events of the whole file (``window`` None) or of one launch's part of it."""
    index = _WindowIndex(source, window)
    result = FileEvents(source, index=index, window=window)
    stats = ScanStats()
    with _open_part(source, window, result.notes) as stream:
        start = stream.tell() if reusable(stream) else 0  # past a UTF-8 BOM: offsets count from here
        prefix = index.prefix = _detect_prefix(stream, source)
        # Only a log with no rank from its name or its runner's prefixes is asked what it states.
        stated = StatedRank() if source.rank is None and (prefix is None or not prefix.names_ranks) else None
        state = _SectionState(source.rank)
        last_time = last_naive = None
        kept = KeepEnds(KEEP_EVENTS, MAX_EVENTS)
        for hit, text, prefix_rank, own in _records(scan_stream(stream, stats, count_lines=False,
                                                              self_rank=stated is not None), prefix):
            own = own if own is not None else _timestamp(text, year)
            unix = own is not None and "Aborted at " in text  # UTC; the log's other stamps are its host's local time
            own = on_local_clock(own, last_naive) if unix else own
            rank = state.rank_for(text, prefix_rank)
            if stated is not None:
                stated.add(text)
            if splitter is not None:
                splitter.feed(hit.offset, text, None if unix else own)
            matched = match_runner(text) or match_line(text)
            if matched is None or matched[0].role == "error_line":
                quoted = match_quoted(text)  # an error quoted in a sentence: read as the line it quotes
                if quoted is not None:
                    matched, text = quoted[:2], quoted[2]
            if matched is None and marks_launch(text):
                continue  # scanned only for the launch split: its time stays out of the events' bounds
            if matched is not None:
                sig, m = matched
                groups = {k: v for k, v in m.groupdict().items() if v is not None}
                if sig.role == "signal_time" and own is None:
                    own = float(groups["unix"])
                # the line after a blank one (a double-spaced paste) is read only as a frame's source or an exception's
                # next line (its C++ position, its summary); other lines keep "" as before
                after = hit.next_text if sig.role in ("frame", "exception") or not hit.next_text.startswith("\n") else ""
                kept.add((sig.name, rank, groups.get("rank")), functools.partial(
                    Event, sig, groups, source.path, hit.offset, text,
                    _next_of_same_rank(after, prefix, prefix_rank), own, last_time, rank, index))
            if own is not None:
                last_time, last_naive = own, (last_naive if unix else own)
        result.events = _kept_events(kept, index, result.notes)
        add_exception_lines(result.events, reopener(stream, start, lambda: _open_part(source, window)),
                            lambda line: _strip_prefix(plain(line), prefix)[0],
                            lambda sig, groups, offset, text, like: _exception_event(sig, groups, source, offset,
                                                                                     text, like, index))
    index.trailing = stats.trailing
    # the last line as the rules read any line: without a prefix that names no rank (a ranked one is split below)
    result.last_text = _strip_prefix(stats.last_text, prefix)[0] if prefix is not None else stats.last_text
    result.span = log_span(stats.head, stats.tail, lambda line: _timestamp(line, year))
    if prefix is not None and prefix.names_ranks:
        result.prefix = prefix.name
        result.rank_last_text = _last_text_by_rank(source, prefix, result.events)
    elif stated is not None:
        _apply_stated_rank(result, stated.rank())
    return result


def _records(hits: Iterable[Hit], prefix: LinePrefix | None) -> Iterator[tuple[Hit, str, int | None, float | None]]:
    """Each hit with its line's text cleaned (:func:`.markdown.plain`) and without its runner prefix, and the rank and
    time that prefix names; once per record a run-together line holds, each with the prefix's rank and time. A later
    record's offset is moved into the line by the bytes before it: an offset may point inside its line, which orders
    the events of one line (their line number is the line's)."""
    for hit in hits:
        text, prefix_rank, own = _strip_prefix(plain(hit.text), prefix)
        for start, record in records(text):
            moved = len(text[:start].encode("utf-8", "replace")) if start else 0
            yield (hit._replace(offset=hit.offset + moved) if moved else hit), record, prefix_rank, own


def _kept_events(kept: KeepEnds, index: LineIndex, notes: list[str]) -> list[Event]:
    """The events kept within the memory budget (their lines registered for numbering), and a note
    of how many matched lines were left out."""
    events = kept.items()
    for e in events:
        index.add(e.offset)
    if kept.dropped:
        notes.append(f"cut: {kept.dropped} of its {kept.count} matched lines left out (kept the first and last "
                     f"{KEEP_EVENTS} of each kind, at most {MAX_EVENTS} in all: diagnose's memory budget)")
    return events


def _exception_event(sig: Signature, groups: dict, source: SourceFile, offset: int, text: str, like: Event,
                     index: LineIndex) -> Event:
    """An exception line found by its traceback's structure (tracebacks.py), numbered like the rest
    (the index counts its offsets in ascending order, in one pass)."""
    bisect.insort(index.offsets, offset)
    return Event(sig, groups, source.path, offset, text, "", None, like.when, like.rank, index)


def _apply_stated_rank(result: FileEvents, rank: int | None) -> None:
    """A log that states its own rank and shows no launcher's report is that rank's log. (With a
    launcher's report, the file is its terminal: its lines are sorted into ranks by the report.)"""
    if rank is None or any(e.rank is not None or e.role.startswith("launcher") for e in result.events):
        return
    for e in result.events:
        e.rank = rank
    result.rank_last_text = {rank: result.last_text}


def _open(source: SourceFile, notes: list[str] | None = None):
    return open_log(source.path if source.data is None else None, source.data, notes)


def _open_part(source: SourceFile, window: Window | None, notes: list[str] | None = None):
    return _open(source, notes) if window is None else open_window(_open(source, notes), window)


class _WindowIndex(LineIndex):
    """Line numbers of one launch's part, counted from the top of the whole file."""

    def __init__(self, source: SourceFile, window: Window | None) -> None:
        super().__init__(functools.partial(_open_part, source, window))  # picklable (readall's fork)
        self.before = 0
        if window is not None and window.start > 0:
            with _open(source) as stream:
                self.before = newlines_before(stream, window.start)

    def line_of(self, offset: int) -> int:
        return super().line_of(offset) + self.before


def _next_of_same_rank(raw: str, prefix: LinePrefix | None, rank: int | None) -> str:
    """The next line's text (a frame's source line), without its prefix; "" when another rank
    wrote it (interleaved output), since it then says nothing about this line."""
    clean = ANSI_RE.sub("", raw) if "\x1b" in raw else raw
    if prefix is None:
        return clean
    gap = "\n" if clean.startswith("\n") else ""  # the blank line of a double-spaced paste (scan._next_line)
    text, next_rank, _ = _strip_prefix(clean[len(gap):], prefix)
    return gap + text if next_rank == rank else ""


def _detect_prefix(stream, source: SourceFile) -> LinePrefix | None:
    """The runner's line prefix the file's first lines carry. A plain or gzip file is peeked at
    (its buffer, no extra read); a transcoded one is opened once more for its first bytes."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        return detect(peek(SNIFF_BYTES)[:SNIFF_BYTES])
    with _open(source) as again:
        return detect(again.read(SNIFF_BYTES))


def _strip_prefix(text: str, prefix: LinePrefix | None) -> tuple[str, int | None, float | None]:
    """The line without its runner prefix, the rank that prefix names, and its time."""
    if prefix is not None:
        split = prefix.split(text)
        if split is not None:  # the bold of a quoted or indented error line is inside the prefix
            return unwrapped(split[0]), split[1], split[2]
    m = MPI_PREFIX_RE.match(text) if "]<std" in text else None
    if m:
        return text[m.end():], int(m.group("rank")), None
    return text, None, None


TAIL_BYTES = 256 << 10


def _last_text_by_rank(source: SourceFile, prefix: LinePrefix, events: list[Event]) -> dict[int, str]:
    """Each rank's last non-empty line in the file's tail (where a rank that died silently stopped);
    a rank seen only in an earlier event still counts, with that event's line."""
    last: dict[int, str] = {e.rank: e.text for e in events if e.rank is not None}
    with _open(source) as stream:
        if isinstance(stream, io.BufferedReader) and stream.seekable():  # a plain file: only its tail is read
            stream.seek(max(0, os.fstat(stream.fileno()).st_size - TAIL_BYTES))
        tail = b""
        while chunk := stream.read(TAIL_BYTES):
            tail = (tail + chunk)[-TAIL_BYTES:]
    for line in map(decode, tail.splitlines()):  # each line as the scanner reads it (GBK included)
        split = prefix.split(ANSI_RE.sub("", line) if "\x1b" in line else line)
        if split is not None and split[1] is not None and split[0].strip():
            last[split[1]] = split[0].strip()
    return last


class _SectionState:
    """Which rank a terminal line belongs to.

    A worker log belongs to its rank. In the new launcher's terminal output the lines after
    "ERROR LOG DETAIL" are the tail of the failed container's log (the rank named in the header);
    the lines before are rank 0's streamed log. ``paddle.distributed.spawn`` names the rank. A paste of
    several worker logs names each one's file in a heading line (SECTION_RE).
    """

    def __init__(self, fixed_rank: int | None):
        self.fixed = fixed_rank
        self.current: int | None = None
        self.header_rank: int | None = None

    def rank_for(self, text: str, prefix_rank: int | None) -> int | None:
        if self.fixed is not None:
            return self.fixed
        if prefix_rank is not None:
            return prefix_rank
        m = re.search(r"Container rank (\d+) status failed", text)
        if m:
            self.header_rank = int(m.group(1))
        if ERROR_DETAIL in text:
            self.current = self.header_rank
        m = SPAWN_RANK_RE.search(text)
        if m:
            self.current = int(m.group("rank"))
        m = SECTION_RE.match(text) if SECTION_WORD in text else None
        if m:
            self.current = int(m.group(1))
        return self.current


def _timestamp(text: str, year: int) -> float | None:
    # Each search runs only where a literal its pattern needs is present (called for every hit).
    m = _UNIX_TS.search(text) if "Aborted at " in text else None
    if m:
        return float(m.group("unix"))
    m = _GLOG_TS.match(text)
    if m:
        return _epoch(year, m["mo"], m["d"], m["h"], m["mi"], m["s"])
    head = text[:80]
    m = _PYLOG_TS.search(head) if ":" in head else None
    if m:
        frac = "." + m["f"] if m["f"] else ""
        return _epoch(int(m["y"]), m["mo"], m["d"], m["h"], m["mi"], m["s"] + frac)
    return None


def _epoch(year, month, day, hour, minute, second) -> float | None:
    base = _minute_epoch(year, month, day, hour, minute)
    return None if base is None else base + float(second)


@functools.lru_cache(maxsize=4096)
def _minute_epoch(year, month, day, hour, minute) -> float | None:
    """The local time's epoch at the start of that minute, once per minute seen: a naive datetime's
    timestamp() asks the C library for the zone each time (a fifth of _timestamp's cost on 1024 logs)."""
    try:
        return dt.datetime(int(year), int(month), int(day), int(hour), int(minute)).timestamp()
    except ValueError:
        return None


class KeepEnds:
    """The first and last ``keep`` items of each kind, in the order they came, at most ``most`` in
    all: memory bounded per kind, not per line (48 MiB of ``RuntimeError: x`` lines were 2.4 GB).
    A diagnosis reads a kind's first line (the first error) and its last (where a rank stopped)."""

    def __init__(self, keep: int = 64, most: int = 100_000) -> None:
        self.keep, self.most = keep, most
        self.first: dict[Hashable, list[tuple[int, Any]]] = {}
        self.last: dict[Hashable, deque[tuple[int, Any]]] = {}
        self.count = self.kept = self.dropped = 0

    def add(self, kind: Hashable, make: Callable[[], Any]) -> None:
        """Keep ``make()`` as the next item of ``kind`` when the budget allows (it is made only then)."""
        self.count += 1
        firsts = self.first.get(kind)
        if firsts is None or len(firsts) < self.keep:
            if self.kept >= self.most:
                self.dropped += 1
                return
            self.first.setdefault(kind, []).append((self.count, make()))
            self.kept += 1
            return
        ring = self.last.setdefault(kind, deque(maxlen=self.keep))
        if len(ring) == self.keep or self.kept >= self.most:
            self.dropped += 1  # the oldest of the last ones gives way (over budget, nothing does)
            if len(ring) < self.keep:
                return
        else:
            self.kept += 1
        ring.append((self.count, make))  # made in items(): most of the last ones give way before

    def items(self) -> list[Any]:
        """Every kept item, in the order they were added."""
        every = [x for group in self.first.values() for x in group]
        every += [(n, make()) for ring in self.last.values() for n, make in ring]
        return [item for _, item in sorted(every, key=lambda pair: pair[0])]


__all__ = ["BinaryFileError", "Event", "FileEvents", "NoSuchLaunch", "read_events"]
