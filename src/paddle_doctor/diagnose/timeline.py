"""What each rank did over time, recorded by diagnose's one read, for the timeline of the HTML page.

From what the scan kept of each log (its first bytes and its last 64 KiB, :mod:`.read.scan`),
parsed with the reader's own timestamp parser: the first and the last time in the log and its
last plain output line. From the events and records diagnose already has: how each rank ended.

A rank's ``end`` is set only where a source gives it: its error record's time, a FatalError's
``Aborted at`` time, or the launcher's line that names it failed (the launcher had seen it dead
by then). A log's last timestamp is when the rank was last *seen*: a rank blocked in a
collective prints nothing until it dies, so its last line can come seconds before the culprit's
(case 01: rank 0 connected to the store at +0.01 s, rank 1, the culprit, at +3.0 s). Without a
source the row keeps the order diagnose inferred (``failure_order``: 1 the root cause, 2 after
it), and the page marks it as inferred.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..findings import RankStatus
from ..redact import redact
from .read.scan import decode

# Paddle's FatalError block (on a signal) is boilerplate, not progress: its "No stack trace in paddle,
# may be caused by external reasons." and "C++ Traceback" lines.
# A line is noise when it starts so, or holds one of the words.
NOISE_START = re.compile(r"(\s|Traceback|\[paddle-doctor\]|=+|FLAGS\(|LAUNCH |-{5}|\S*Warning|warnings\.warn"
                         r"|No stack trace in paddle|C\+\+ Traceback)")
NOISE_WORDS = ("Error", "Exception", "error", "TIMEOUT")
NOISE_WORD = re.compile(f"({'|'.join(NOISE_WORDS)})\\b")
PROGRESS_CHARS = 200
# The page's per-rank log tail: bounded, so a 1024-rank job's page stays small.
TAIL_LINES, TAIL_CHARS = 40, 200
# Paddle's own glog lines (store connects, allocator notes) are not the user's progress; a line of
# Python's logging (PaddleNLP's, PaddleDetection's "loss: ... global_step") is, with its own time.
GLOG_LINE = re.compile(r"[IWEF]\d{4} ")
# Launcher lines that name a failed rank (the time is the launcher's, when it saw the rank dead).
LAUNCHER_FAILED = ("launch_container_failed", "fleet_abort", "elastic_rank_failed")
END_FROM_RECORD, END_FROM_SIGNAL, END_FROM_LAUNCHER = "error record", "fatal signal time", "launcher"
ORDER = {RankStatus.ROOT_CAUSE: 1, RankStatus.VICTIM: 2}


@dataclass(frozen=True)
class LogSpan:
    """What one log says about time: its first and last timestamp and its last output line."""

    first_time: float | None = None
    last_time: float | None = None
    last_progress: str | None = None
    last_progress_time: float | None = None
    tail: Sequence[str] = ()  # its last TAIL_LINES lines, redacted and cut to TAIL_CHARS each (when read)


def log_span(head: bytes, tail: bytes, stamp: Callable[[str], float | None]) -> LogSpan:
    """The span of a log from its first bytes and its last ones; ``stamp`` reads a line's time.

    The tail is read backwards and only as far as needed (a 1024-rank job has 1024 of them): its
    last timestamp, its last output line (a plain line, or a line of Python's logging, not glog's), and the
    timestamp of (or before) that line."""
    first = next((t for t in map(stamp, _lines_forwards(head)) if t is not None), None)
    last_time = progress = progress_time = None
    for raw in _lines_backwards(tail):
        if raw[:1] in _INDENT:
            continue  # an indented line (a traceback's frame) has no time and is no progress
        line = _decode(raw)
        if line[:1].isspace():
            continue
        t = stamp(line)
        if t is not None:
            last_time = t if last_time is None else last_time
            if progress is None and not GLOG_LINE.match(line) and not _noise(line):
                progress = _progress_text(line)  # a logging line: its own time (and no walk to the top)
            if progress is not None:
                progress_time = t
                break
        elif progress is None and line.strip() and not _noise(line):
            progress = _progress_text(line)
    return LogSpan(first, last_time, progress, progress_time, last_lines(tail))


def last_lines(tail: bytes, most: int = TAIL_LINES) -> RedactedTail:
    """The last ``most`` lines of ``tail`` (trailing blank lines dropped), each redacted before it is
    cut to TAIL_CHARS when first read: the page shows them as the rank's log tail. The bytes are
    split and decoded on first use too (a 1024-rank job has 1024 tails, and only the page reads them)."""
    return RedactedTail(raw=(_last_bytes(tail, most), most))


def _last_bytes(tail: bytes, most: int) -> bytes:
    """The end of ``tail`` that holds its last ``most`` lines as :func:`_split_tail` counts them (trailing
    blank lines not counted), cut by one ``rsplit``: a rank keeps these bytes, not its 64 KiB."""
    end, blank = len(tail), 0
    while end > 0:  # the trailing blank lines, as _split_tail skips them
        start = tail.rfind(b"\n", 0, end) + 1
        if _decode(tail[start:end]).rstrip():
            break
        end, blank = start - 1, blank + 1
    before = tail.rsplit(b"\n", blank + most)
    # from the newline before the first kept line: an empty first line still counts
    return tail[len(before[0]):] if len(before) > blank + most else tail


def _split_tail(tail: bytes, most: int) -> tuple[str, ...]:
    out: list[str] = []
    for raw in _lines_backwards(tail):
        line = _decode(raw).rstrip()
        if not out and not line:
            continue
        out.append(line)
        if len(out) == most:
            break
    return tuple(reversed(out))


class RedactedTail(Sequence[str]):
    """A log's last lines, redacted (then cut to TAIL_CHARS) when they are first read. diagnose keeps
    one per rank, and only the HTML page reads them: redacting 40 lines of each of 1024 logs up front
    was half of diagnose's CPU time on the 1024-rank bench (0.49 of 1.05 s), for a text or JSON
    report that never shows them. Every way to read a line goes through the redaction. Given ``raw``
    (the tail's bytes and how many lines to keep), even the split into lines waits for a first use."""

    def __init__(self, lines: Iterable[str] = (), raw: tuple[bytes, int] | None = None) -> None:
        self._raw = raw
        self._unread: tuple[str, ...] | None = tuple(lines)
        self._lines: tuple[str, ...] = ()

    def _split(self) -> tuple[str, ...] | None:
        if self._raw is not None:
            self._unread, self._raw = _split_tail(*self._raw), None
        return self._unread

    def _redacted(self) -> tuple[str, ...]:
        if self._split() is not None:
            self._lines, self._unread = tuple(redact(line)[:TAIL_CHARS] for line in self._unread), None
        return self._lines

    def __len__(self) -> int:
        unread = self._split()
        return len(unread) if unread is not None else len(self._lines)

    def __getitem__(self, index):
        return self._redacted()[index]

    def __iter__(self):
        return iter(self._redacted())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, str) and self._redacted() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._redacted())

    def __repr__(self) -> str:
        return f"RedactedTail({self._redacted()!r})"


def _noise(line: str) -> bool:
    """Whether ``line`` is noise. The words are looked for as plain substrings before the regex: a
    regex search over a long step line costs ~10 us, and each of 1024 logs has a few such lines."""
    if NOISE_START.match(line):
        return True
    for word in NOISE_WORDS:  # a loop, not any(genexpr): most lines hold none
        if word in line:
            return NOISE_WORD.search(line) is not None
    return False


def _progress_text(line: str) -> str:
    return redact(line.strip())[:PROGRESS_CHARS]  # redact before cutting


def _lines_forwards(data: bytes):
    """The lines of ``data`` one at a time (the first timestamp is usually on the first line)."""
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        yield _decode(data[start:end])
        start = end + 1


_INDENT = (b" ", b"\t")  # a line starting so is skipped before it is decoded


def _decode(raw: bytes) -> str:
    """A line as the scanner decodes it: UTF-8, else GBK/GB18030 (a Chinese Windows console's log, no
    BOM), so the last progress line and the tail read as the evidence does."""
    return decode(raw)


def _lines_backwards(data: bytes):
    """The raw lines of ``data``, last first."""
    end = len(data)
    while end > 0:
        start = data.rfind(b"\n", 0, end) + 1
        yield data[start:end]
        end = start - 1


@dataclass(frozen=True)
class RankEnd:
    """How one rank ended, as far as a source says: the time (None: none says), where it came
    from, and what ended it."""

    time: float | None
    source: str
    kind: str


def rank_end(record, signal_times: Iterable[float], launcher_time: float | None, exit_code: int | None,
             status: RankStatus) -> RankEnd:
    """The end from the best source: the error record, then the fatal signal's time, then the
    launcher's line. ``record`` is the rank's :class:`~.records.RecordFile` or None."""
    kind = (record.kind if record is not None and record.kind else
            f"exit {exit_code}" if exit_code not in (None, 0) else
            "ok" if status == RankStatus.OK else "failed" if status == RankStatus.ROOT_CAUSE else "")
    if record is not None and record.time:
        return RankEnd(record.time, END_FROM_RECORD, kind)
    signals = sorted(signal_times)
    if signals:
        return RankEnd(signals[0], END_FROM_SIGNAL, kind or "signal")
    if launcher_time is not None:
        return RankEnd(launcher_time, END_FROM_LAUNCHER, kind)
    return RankEnd(None, "", kind)


def launcher_times(events: Iterable) -> dict[int, float]:
    """Per rank, the time of the first launcher line that names it failed."""
    seen: dict[int, float] = {}
    for e in events:
        if e.sig.name not in LAUNCHER_FAILED or e.when is None:
            continue
        for rank in _named_ranks(e):
            seen.setdefault(rank, e.when)
    return seen


def _named_ranks(e) -> list[int]:
    if e.sig.name in ("launch_container_failed", "elastic_rank_failed"):
        return [int(e.groups["rank"])]
    return [int(r) for r in (x.strip() for x in e.groups.get("ranks", "").split(",")) if r.isdigit()]


def progress_of(span: LogSpan, record) -> str | None:
    """The rank's last progress: the step its error record names, else its log's last output line."""
    if record is not None and record.step is not None:
        return f"step {record.step}" + (f" ({record.phase})" if record.phase else "")
    return span.last_progress
