"""Fast, bounded scanning of log files for the few lines that matter.

A worker log can hold gigabytes of training lines and, somewhere, one traceback. Reading it line by
line in Python is the slow part, so we read big chunks and let a multi-literal matcher (Hyperscan,
or Aho-Corasick in Rust where Hyperscan has no wheel) find the trigger words; only lines that
contain one are decoded and examined.
Memory stays bounded: a line longer than ``MAX_LINE_BYTES`` is never held whole, and only a
window around each trigger is kept as evidence text.
Line numbers are counted on demand (:class:`LineIndex`): counting newlines is a second pass over
every byte (``bytes.count``: 0.2 s of ~1 s on 1024 logs of 512 KiB), yet only the lines that become
evidence (the root cause's rank, a silent peer's last line) are shown with their number. So the
scan records byte offsets, and the first question about a line number re-reads that one file once
and answers for every offset it registered.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, NamedTuple

from .literals.finders import trigger_finder
from .markdown import RECORD_START

CHUNK_BYTES = 8 << 20
MAX_LINE_BYTES = 1 << 20
WINDOW_BYTES = 600  # evidence text kept around a trigger on an over-long line
LINE_WINDOWS = 16  # at most this many windows of one over-long line, each round a trigger past the one before
SNIFF_BYTES = 8192
FIRST_WINDOW = 1 << 16  # an over-long line is searched for its first trigger in windows from this size
TAIL_KEEP_BYTES = 64 << 10  # the end of a file, kept for the timeline (its last progress line and time)


class Hit(NamedTuple):
    """One interesting line: its 1-based number (0 when the scan does not count lines), its text,
    the text of the line after it, and the byte offset where the line starts in the stream.
    A named tuple: made for every hit, and a frozen dataclass's ``__init__`` costs three times more."""

    line: int
    text: str
    next_text: str = ""
    offset: int = 0


class BinaryFileError(ValueError):
    """The file looks binary (NUL bytes near its start): not a log."""


def decode(raw: bytes) -> str:
    """A line's text: UTF-8, else GBK/GB18030 (what a Chinese Windows console writes, no BOM), else
    UTF-8 with the bad bytes replaced. A UTF-8 line cut inside a character at a window's edge is
    still UTF-8 (its one or two broken edge characters are not read as GBK)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = _not_utf8(raw)
    return text.replace("\x00", "").rstrip("\r\n")


def _not_utf8(raw: bytes) -> str:
    lossy = raw.decode("utf-8", errors="replace")
    inner = lossy[3:-3]
    if "\ufffd" in inner or len(lossy) <= 6:
        try:
            return raw.decode("gb18030")
        except UnicodeDecodeError:
            pass
    return lossy


@dataclass
class ScanStats:
    """Filled in when a scan finishes: how many lines the file has (-1 when lines are not counted),
    whether its last line lacks a newline, and its last non-empty line."""

    lines: int = 0
    last_text: str = ""
    trailing: bool = False
    head: bytes = b""  # the file's first bytes (its first timestamp), and its last ones
    tail: bytes = b""


def scan_stream(stream: BinaryIO, stats: ScanStats | None = None, count_lines: bool = True,
                self_rank: bool = False) -> Iterator[Hit]:
    """Yield a Hit for every line containing a trigger (with ``self_rank``, also the lines where a
    worker states its rank), in file order.

    With ``count_lines=False`` the hits carry only their byte offset (``line`` is 0) and
    ``stats.lines`` is -1: counting newlines is a second pass over every byte, which diagnose
    leaves to :class:`LineIndex` for the few lines it shows."""
    head = stream.read(SNIFF_BYTES)
    # Paddle's own signal handlers write a stray NUL into a worker log ("\0ERROR: Unexpected BUS
    # error ..."), so a few NULs in text are a log; binary data has them everywhere.
    if b"\x00" in head and head.count(b"\x00") * 100 > len(head):  # memchr first: count is 5x slower
        raise BinaryFileError("binary data (NUL bytes)")
    scanner = _ChunkScanner(count_lines, trigger_finder(self_rank))
    data = head
    while data:
        yield from scanner.feed(data)
        data = _next_chunk(stream, scanner)
    yield from scanner.finish()
    if stats is not None:
        stats.lines = scanner.line_no - 1 if count_lines else -1
        stats.last_text, stats.trailing = _last_line(scanner.tail), scanner.trailing
        stats.head, stats.tail = head, scanner.kept


def _next_chunk(stream: BinaryIO, scanner: _ChunkScanner) -> bytes:
    """The next CHUNK_BYTES. From a plain file, the unfinished line the scanner carries is read
    again with them (a seek back by its length), so that the scanner need not copy the chunk to
    put that line in front of it: the bytes it examines are the same, one copy of every chunk
    fewer (512 MiB of memcpy on 1024 logs, where the head's last line is always carried)."""
    carry = scanner.carry
    if carry and isinstance(stream, (io.BufferedReader, io.BytesIO)) and stream.seekable():
        end = stream.tell()
        stream.seek(end - len(carry))
        data = stream.read(len(carry) + CHUNK_BYTES)
        if len(data) > len(carry) and data.startswith(carry):
            scanner.carry = b""
            return data
        stream.seek(end)  # at the end (or the file changed under us): read on as before
    return stream.read(CHUNK_BYTES)


class _ChunkScanner:
    """Carries the unfinished last line from one chunk to the next, counting lines as it goes
    (when asked to) and the byte offset of every line it yields."""

    def __init__(self, count_lines: bool = True, finder: Callable[[bytes, int], list[int]] | None = None) -> None:
        self.count_lines = count_lines
        self.finder = finder or trigger_finder()
        self.carry = b""
        self.base = 0  # stream offset of carry[0]
        self.line_no = 1  # number of the line that starts at carry[0] (when counting)
        self.tail = b""  # the end of what was examined last (for the file's last line)
        self._kept: list[bytes] = []  # the last chunks examined, at least TAIL_KEEP_BYTES of them
        self._kept_len = 0
        self.trailing = False

    def feed(self, data: bytes) -> Iterator[Hit]:
        buf = self.carry + data if self.carry else data
        cut = buf.rfind(b"\n") + 1
        if cut == 0 and len(buf) < MAX_LINE_BYTES:
            self.carry = buf
            return
        if cut == 0:
            # One enormous line: examine what we have now and drop it, so memory stays bounded.
            # The rest of that line keeps the same line number. Only its first trigger is wanted
            # (one hit a line), so no list of every trigger on it is made (1.4 million on 8 MiB of
            # "Error ").
            yield from self._hits_in(buf, _first_trigger_end(self.finder, buf))
            self.carry, self.base = b"", self.base + len(buf)
            return
        yield from self._hits_in(buf, cut)
        if self.count_lines:
            # _hits_in counted the newlines up to its last hit: count only the rest once more.
            self.line_no = self._hit_line_no + buf.count(b"\n", self._hit_counted_to, cut)
        self.tail = buf[max(0, cut - WINDOW_BYTES):cut]
        self._keep(buf[max(0, cut - TAIL_KEEP_BYTES):cut])
        self.carry, self.base = buf[cut:], self.base + cut

    def finish(self) -> Iterator[Hit]:
        if self.carry:
            yield from self._hits_in(self.carry, len(self.carry))
            self.tail = self.carry[-WINDOW_BYTES:]
            self._keep(self.carry[-TAIL_KEEP_BYTES:])
            self.line_no += 1
            self.carry, self.trailing = b"", True

    def _keep(self, data: bytes) -> None:
        # Chunks are listed, not joined: a join per chunk copied the whole kept tail every time.
        self._kept.append(data)
        self._kept_len += len(data)
        while len(self._kept) > 1 and self._kept_len - len(self._kept[0]) >= TAIL_KEEP_BYTES:
            self._kept_len -= len(self._kept.pop(0))

    @property
    def kept(self) -> bytes:
        """The last TAIL_KEEP_BYTES examined (fewer in a shorter file)."""
        return b"".join(self._kept)[-TAIL_KEEP_BYTES:]

    def _hits_in(self, buf: bytes, end: int) -> Iterator[Hit]:
        counted_to, line_no = 0, self.line_no
        line_end = -1  # where the line of the last hit ends: hits before it are on that line
        long: _LongLine | None = None  # the windows of an over-long line
        for start in self.finder(buf, end):
            if start < line_end:  # another trigger on a line already yielded: no search back (linear time)
                if long is not None and start >= long.shown_to:
                    yield from long.window_at(buf, start, line_end)
                continue
            if long is not None:
                yield from long.last_window(buf, line_end)
            line_start = buf.rfind(b"\n", 0, start) + 1
            if self.count_lines:
                line_no += buf.count(b"\n", counted_to, line_start)
                counted_to = line_start
            text, line_end, shown_to = _line_text(buf, line_start, start, end)
            hit = Hit(line_no if self.count_lines else 0, text, _next_line(buf, line_end, end), self.base + line_start)
            long = _LongLine(hit, line_start, shown_to) if shown_to < line_end else None
            yield hit
        if long is not None:
            yield from long.last_window(buf, line_end)
        self._hit_line_no, self._hit_counted_to = line_no, counted_to


@dataclass
class _LongLine:
    """The windows of an over-long line (see ``LINE_WINDOWS``): its first hit, where the line starts, where the last
    window shown ends, how many were shown, and the line's last trigger past them once the cap is reached (a paste
    that lost its line breaks ends on its error: that trigger's window is always shown)."""

    first: Hit
    line_start: int
    shown_to: int
    shown: int = 1
    last: int = -1

    def window_at(self, buf: bytes, match: int, line_end: int) -> Iterator[Hit]:
        if self.shown >= LINE_WINDOWS - 1:
            self.last = match
            return
        hit, self.shown_to = _next_window(buf, self.first, self.line_start, match, self.shown_to, line_end)
        self.shown += 1
        yield hit

    def last_window(self, buf: bytes, line_end: int) -> Iterator[Hit]:
        if self.last >= 0:
            yield _next_window(buf, self.first, self.line_start, self.last, self.shown_to, line_end)[0]


def _first_trigger_end(finder: Callable[[bytes, int], list[int]], buf: bytes) -> int:
    """Where ``_hits_in`` may stop on a buffer that is one line: past its first trigger's window,
    found in windows doubling from FIRST_WINDOW (linear); the buffer's end when it has none."""
    end = min(FIRST_WINDOW, len(buf))
    while True:
        found = finder(buf, end)
        if found:
            return min(len(buf), found[0] + WINDOW_BYTES)
        if end == len(buf):
            return end
        end = min(2 * end, len(buf))


def _last_line(tail: bytes) -> str:
    lines = [line for line in tail.splitlines() if line.strip()]
    return decode(lines[-1]) if lines else ""


def _next_window(buf: bytes, first: Hit, line_start: int, match: int, after: int, line_end: int) -> tuple[Hit, int]:
    """The next window of an over-long line, round a trigger past the previous window (``after``), and where it ends:
    a paste that lost its line breaks holds the warning and the error that follows it on one line. The window's offset
    points inside the line, where it starts (the same line; read in order)."""
    lo = _window_start(buf, max(line_start, after), match)
    hi = min(line_end, lo + WINDOW_BYTES)
    return first._replace(text="…" + decode(buf[lo:hi]) + "…", offset=first.offset + (lo - line_start)), hi


def _window_start(buf: bytes, floor: int, match: int) -> int:
    """Where a window round ``match`` starts: at the start of the record the trigger is in, where one is that near
    (a glog record or a traceback of a run-together line), else half a window before it; never before ``floor``."""
    starts = [m.start() for m in _RECORD_START.finditer(buf, max(floor, match - WINDOW_BYTES * 2 // 3), match + 1)]
    return starts[-1] if starts else max(floor, match - WINDOW_BYTES // 2)


_RECORD_START = re.compile(RECORD_START.encode())


def _line_text(buf: bytes, line_start: int, match: int, end: int) -> tuple[str, int, int]:
    """The text of the line ``match`` is on (a window of it when over-long), where the line ends, where the text ends."""
    nl = buf.find(b"\n", match, end)
    line_end = nl if nl != -1 else end
    if line_end - line_start <= 2 * WINDOW_BYTES:
        return decode(buf[line_start:line_end]), line_end, line_end
    lo = _window_start(buf, line_start, match)
    hi = min(line_end, max(match + WINDOW_BYTES // 2, lo + WINDOW_BYTES))
    return "…" + decode(buf[lo:hi]) + "…", line_end, hi


def _next_line(buf: bytes, line_end: int, end: int) -> str:
    """The line after a hit (a traceback frame's source line), when it is in this chunk. A paste that puts a
    blank line after every line (copied from a page or a mail) keeps a frame's source one line further: an
    indented line after one blank line is taken, with a newline in front for the line it skipped."""
    text, nl = _line_from(buf, line_end + 1, end)
    if text.strip() or nl == -1 or buf[nl + 1:nl + 2] not in (b" ", b"\t"):
        return text
    after, _ = _line_from(buf, nl + 1, end)  # one blank line only: no walk over a run of them
    return "\n" + after if after.strip() and not after.lstrip().startswith('File "') else text


def _line_from(buf: bytes, start: int, end: int) -> tuple[str, int]:
    """The line that starts at ``start`` (at most WINDOW_BYTES of it) and where its newline is (-1: none)."""
    if start >= end:
        return "", -1
    nl = buf.find(b"\n", start, min(end, start + WINDOW_BYTES))
    return decode(buf[start:nl if nl != -1 else min(end, start + WINDOW_BYTES)]), nl


class LineIndex:
    """Line numbers of the registered byte offsets of one stream, computed on first use.

    ``line_of(offset)`` is 1 + the number of newlines before ``offset`` (the number of the line that
    holds that byte); ``total()`` is the file's line count as the scanner defines it (its newlines,
    plus one for a last line without a newline that the scanner kept)."""

    def __init__(self, reopen: Callable[[], BinaryIO]) -> None:
        self.reopen = reopen
        self.offsets: list[int] = []  # ascending: the scanner registers them in file order
        self.trailing = False  # the stream ends with a line that has no newline
        self.prefix = None  # the runner's or paste's line prefix the reader took off (read.prefixes.LinePrefix)
        self._lines: dict[int, int] | None = None
        self._newlines = 0

    def add(self, offset: int) -> None:
        self.offsets.append(offset)

    def line_of(self, offset: int) -> int:
        lines = self._count()
        if offset in lines:
            return lines[offset]
        return self._count_to(offset)

    def total(self) -> int:
        self._count()
        return self._newlines + int(self.trailing)

    def _count(self) -> dict[int, int]:
        if self._lines is None:
            self._lines, self._newlines = _count_lines(self.reopen, self.offsets)
        return self._lines

    def _count_to(self, offset: int) -> int:
        """An offset that was not registered (never happens in diagnose): one more pass."""
        return _count_lines(self.reopen, [offset])[0][offset]


def _count_lines(reopen: Callable[[], BinaryIO], offsets: list[int]) -> tuple[dict[int, int], int]:
    """{offset: line number} for ``offsets`` (ascending), and the stream's number of newlines."""
    out: dict[int, int] = {}
    pos, newlines, i = 0, 0, 0
    with reopen() as stream:
        while chunk := stream.read(CHUNK_BYTES):
            end = pos + len(chunk)
            stop = bisect_right(offsets, end - 1, i)  # offsets that fall inside this chunk
            counted_to = 0
            for offset in offsets[i:stop]:
                newlines += chunk.count(b"\n", counted_to, offset - pos)
                counted_to = offset - pos
                out[offset] = newlines + 1
            newlines += chunk.count(b"\n", counted_to)
            i, pos = stop, end
    for offset in offsets[i:]:  # at or past the end
        out[offset] = newlines + 1
    return out, newlines

