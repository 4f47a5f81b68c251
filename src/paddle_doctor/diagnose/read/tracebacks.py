"""A traceback's exception line, found by the traceback's structure rather than by its type's name.

CPython's ``traceback.print_exception`` writes the header, then each frame at two spaces
(``  File "...", line N, in f``) with its source line at four (and, from 3.11, a caret line), then
the exception at the start of a line: ``<qualified type>: <message>``, or the type alone. The type is
whatever was raised: ``Exception`` (PaddleOCR's datasets raise it plain), ``cv2.error``,
``StopIteration``, ``SystemExit``, a user's ``MyCustomErr``. The signatures name only the usual
spellings (``...Error``, ``...Exception``), and the scanner keeps only lines with a trigger word, so
when the frames of a traceback are followed by no exception event, the line after them is read
from the file here and, when it has the shape of an exception line, becomes one.
"""

from __future__ import annotations

import bisect
import contextlib
import io
import re
from collections.abc import Callable
from typing import Any, BinaryIO

from ..signatures import SIGNATURES

READ_BYTES = 8192  # how far after a traceback's last frame its exception line may start
FOLLOWING_LINES = 12  # how many lines after an indented last frame may hold its exception line
# ``<type>`` or ``<type>: <message>``: a dotted identifier, nothing else before the colon.
_EXCEPTION_LINE = re.compile(r"^(?P<exc>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::\s?(?P<msg>.*)|\s*)$")
_FRAME_LINE = re.compile(r'^\s*File "[^"]+", line \d+')
_EXCEPTION_SIG = next(s for s in SIGNATURES if s.name == "exception")
_TOLD = ("exception", "cause")
# Logging levels (Python's ``INFO:root:...``, ``WARNING: ...``) printed by another thread between the
# frames and the exception: the shape of an exception line, never one.
_LEVELS = frozenset({"DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "CRITICAL", "FATAL", "TRACE"})  # roles of a line that already says what was raised


def exception_after(frame_text: str, following: list[str]) -> tuple[str, dict] | None:
    """(the line, its exc/msg groups) for the exception line among ``following`` (the lines after a
    traceback's last frame), or None. It is the first line indented less than the frame (frames are
    printed two spaces in from the exception); where a paste lost that indentation, one of the next
    few non-frame lines that reads ``<Type>: ...`` or is a capitalised bare type."""
    indent = _indent(frame_text)
    for line in following[:FOLLOWING_LINES if indent else 3]:
        if not line.strip():
            continue
        if _FRAME_LINE.match(line):
            return None  # another frame: not the last one
        if indent and _indent(line) >= indent:
            continue  # the frame's source line or its carets
        m = _EXCEPTION_LINE.match(line.strip())
        if m is not None and m["exc"] not in _LEVELS and (m["msg"] is not None or _capitalised(m["exc"])):
            return line.rstrip(), {k: v for k, v in m.groupdict().items() if v is not None}
        if indent:
            return None  # the first line out of the traceback says nothing was raised
    return None


def _capitalised(name: str) -> bool:
    """A bare type is a class name: its last dotted part is capitalised (``StopIteration``,
    ``_queue.Empty``, ``queue.Full``), unlike a lowercase source word."""
    return name.rsplit(".", 1)[-1][:1].isupper()


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def add_exception_lines(events: list, reopen: Callable[[], BinaryIO], split: Callable[[str], str],
                        make_event: Callable[..., object]) -> None:
    """Insert, in file order, an exception event after each traceback whose last frame is followed
    by none. ``split`` strips a line's runner prefix; ``make_event(sig, groups, offset, text, like)``
    builds the event (``like``: the frame whose rank and time it shares)."""
    # the frames themselves, not their places: a generic line replaced below shifts the places after it
    lasts = [e for i, e in enumerate(events) if e.role == "frame" and _is_last_frame(events, i)]
    if not lasts:
        return
    found, seen = [], {e.offset: e for e in events}
    for frame in lasts:
        lines, offsets = _lines_after(reopen, frame.offset)
        hit = exception_after(split(frame.text), [split(line) for line in lines])
        if hit is None:
            continue
        text, groups = hit
        at = offsets[next(k for k, line in enumerate(lines) if split(line).rstrip() == text)]
        if at in seen and seen[at].role != "error_line":
            continue  # a signature already read that line (a victim's line, a known error): keep its reading
        if at in seen:
            events.remove(seen[at])  # "an error happened" says less than the exception it is
        found.append(make_event(_EXCEPTION_SIG, groups, at, text.strip(), frame))
    for event in found:
        _insert(events, event)


def _is_last_frame(events: list, i: int) -> bool:
    nxt = events[i + 1] if i + 1 < len(events) else None
    if nxt is None:
        return True
    if nxt.role == "frame" and nxt.file == events[i].file:
        return False
    return not (nxt.role in _TOLD and nxt.file == events[i].file and nxt.offset - events[i].offset < READ_BYTES)


def reopener(stream: BinaryIO, start: int, fresh: Callable[[], Any]) -> Callable[[], Any]:
    """How this pass reads a file again, positioned where the scan began (its offsets count from
    there): a plain file or in-memory log through the stream just scanned, rewound to ``start`` (not
    a fresh open of each of 1024 logs: issue 29's bench); a wrapped one (decompressed, re-encoded, one
    launch's part) through ``fresh()``, a new open."""
    if reusable(stream):
        return lambda: _rewound(stream, start)
    return fresh


def reusable(stream: BinaryIO) -> bool:
    plain_file = type(stream) is io.BufferedReader and type(stream.raw) is io.FileIO  # not a budget's reader
    return (plain_file or type(stream) is io.BytesIO) and stream.seekable()


def _rewound(stream: BinaryIO, start: int):
    stream.seek(start)
    return contextlib.nullcontext(stream)


def _lines_after(reopen: Callable[[], BinaryIO], offset: int) -> tuple[list[str], list[int]]:
    """The first FOLLOWING_LINES lines after the one that starts at ``offset``, with their offsets
    (within READ_BYTES)."""
    with reopen() as stream:  # positioned where the scan's offsets begin (after a BOM, a window's start)
        if stream.seekable():
            stream.seek(stream.tell() + offset)
        else:
            _skip(stream, offset)
        data = stream.read(READ_BYTES)
    raw = data.split(b"\n")[:-1] if len(data) == READ_BYTES else data.split(b"\n")
    lines, offsets, pos = [], [], offset
    for k, chunk in enumerate(raw[:FOLLOWING_LINES + 1]):  # exception_after reads no further
        if k:
            lines.append(chunk.decode("utf-8", errors="replace").rstrip("\r"))
            offsets.append(pos)
        pos += len(chunk) + 1
    return lines, offsets


def _skip(stream: BinaryIO, count: int) -> None:
    while count > 0:
        chunk = stream.read(min(count, 1 << 20))
        if not chunk:
            return
        count -= len(chunk)


def _insert(events: list, event) -> None:
    """Put ``event`` in file order (the events of one file are ordered by offset), and register its
    offset, in order, for its line number."""
    events.insert(bisect.bisect_right([e.offset for e in events], event.offset), event)
    if event.index is not None:
        bisect.insort(event.index.offsets, event.offset)
