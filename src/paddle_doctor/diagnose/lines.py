"""Line numbers on demand: count a file's newlines only when one of its lines is shown.

Counting newlines is a second pass over every byte (``bytes.count``: 0.2 s of ~1 s on 1024 logs of
512 KiB), yet only the lines that become evidence (the root cause's rank, a silent peer's last line)
are ever shown with their number. So the scan records byte offsets, and the first question about
a line number re-reads that one file once and answers for every offset it registered.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import BinaryIO

CHUNK_BYTES = 8 << 20


class LineIndex:
    """Line numbers of the registered byte offsets of one stream, computed on first use.

    ``line_of(offset)`` is 1 + the number of newlines before ``offset`` (the number of the line that
    holds that byte); ``total()`` is the file's line count as the scanner defines it (its newlines,
    plus one for a last line without a newline that the scanner kept)."""

    def __init__(self, reopen: Callable[[], BinaryIO]) -> None:
        self.reopen = reopen
        self.offsets: list[int] = []  # ascending: the scanner registers them in file order
        self.trailing = False  # the stream ends with a line that has no newline
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
