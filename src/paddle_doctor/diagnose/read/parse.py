"""Read one source and turn its interesting lines into events: what each line means, where, when.

Timestamps are taken from the line itself when it has one (glog ``I1129 21:40:56.03``, Python
logging ``2024-03-10 00:35:50,211``, ``[2021/06/01 02:52:01]``, Paddle's ``Aborted at <unix time>``);
an event without one inherits the last time seen earlier in the same file as a lower bound.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from .scan import LineIndex
from .sources import SourceFile
from .opener import open_log
from .scan import BinaryFileError, ScanStats, scan_stream
from ..signatures import Signature, match_line
from ..timeline import LogSpan, log_span

# mpirun --tag-output ("...[1,31]<stderr>:") and paddle.distributed.spawn name the rank on the line.
MPI_PREFIX_RE = re.compile(r"^.*?\[\d+,(?P<rank>\d+)\]<std(?:err|out)>:")
SPAWN_RANK_RE = re.compile(r"Process (?P<rank>\d+) terminated with the following error")
ERROR_DETAIL = "ERROR LOG DETAIL"
# Colour codes (Paddle's glog and the launcher colour some lines on a TTY; pastes keep them).
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")

_GLOG_TS = re.compile(r"^[IWEF](?P<mo>\d\d)(?P<d>\d\d) (?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d(?:\.\d+)?)")
_PYLOG_TS = re.compile(r"(?P<y>\d{4})[-/](?P<mo>\d\d)[-/](?P<d>\d\d)[ T](?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?:[,.](?P<f>\d+))?")
_UNIX_TS = re.compile(r"Aborted at (?P<unix>\d{9,11}) \(unix time\)")


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

    @property
    def lines(self) -> int:
        """How many lines the file has (counted on first use)."""
        return self.index.total() if self.index is not None else 0


def read_events(source: SourceFile, year: int) -> FileEvents:
    """Events of one source. Raises OSError or BinaryFileError when it cannot be read."""
    index = LineIndex(lambda: _open(source))
    result = FileEvents(source, index=index)
    stats = ScanStats()
    with _open(source) as stream:
        state = _SectionState(source.rank)
        last_time = None
        for hit in scan_stream(stream, stats, count_lines=False):
            clean = ANSI_RE.sub("", hit.text) if "\x1b" in hit.text else hit.text
            text, prefix_rank = _strip_prefix(clean)
            own = _timestamp(clean, year)
            rank = state.rank_for(text, prefix_rank)
            matched = match_line(text)
            if matched is not None:
                sig, m = matched
                groups = {k: v for k, v in m.groupdict().items() if v is not None}
                if sig.role == "signal_time" and own is None:
                    own = float(groups["unix"])
                next_text = ANSI_RE.sub("", hit.next_text) if "\x1b" in hit.next_text else hit.next_text
                index.add(hit.offset)
                result.events.append(Event(sig, groups, source.path, hit.offset, text, next_text, own, last_time,
                                           rank, index))
            if own is not None:
                last_time = own
    index.trailing = stats.trailing
    result.last_text = stats.last_text
    result.span = log_span(stats.head, stats.tail, lambda line: _timestamp(line, year))
    return result


def _open(source: SourceFile):
    return open_log(source.path if source.data is None else None, source.data)


def _strip_prefix(text: str) -> tuple[str, int | None]:
    m = MPI_PREFIX_RE.match(text)
    if m:
        return text[m.end():], int(m.group("rank"))
    return text, None


class _SectionState:
    """Which rank a terminal line belongs to.

    A worker log belongs to its rank. In the new launcher's terminal output the lines after
    "ERROR LOG DETAIL" are the tail of the failed container's log (the rank named in the header);
    the lines before are rank 0's streamed log. ``paddle.distributed.spawn`` names the rank.
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
        return self.current


def _timestamp(text: str, year: int) -> float | None:
    m = _UNIX_TS.search(text)
    if m:
        return float(m.group("unix"))
    m = _GLOG_TS.match(text)
    if m:
        return _epoch(year, m["mo"], m["d"], m["h"], m["mi"], m["s"])
    m = _PYLOG_TS.search(text[:80])
    if m:
        frac = "." + m["f"] if m["f"] else ""
        return _epoch(int(m["y"]), m["mo"], m["d"], m["h"], m["mi"], m["s"] + frac)
    return None


def _epoch(year, month, day, hour, minute, second) -> float | None:
    try:
        base = dt.datetime(int(year), int(month), int(day), int(hour), int(minute))
    except ValueError:
        return None
    return base.timestamp() + float(second)


__all__ = ["BinaryFileError", "Event", "FileEvents", "read_events"]
