"""Budgets for reading an untrusted pickle: what a file of N bytes may cost.

Two ways a tiny file costs gigabytes: a declared length (``BYTEARRAY8`` with 6 GB, an 8-byte
``FRAME`` size) that the reader allocates before it finds the file is short, and a graph of
memo references (a list holding the same list twice, nested 30 deep: 381 bytes, 2**30 items for
``repr`` or a copy). :class:`BoundedReader` refuses the first; :func:`check_graph` walks the loaded
graph once per distinct container and refuses the second, and nesting deeper than Paddle ever
writes. Both raise :class:`CheckpointError` naming the limit.
"""

from __future__ import annotations

import os
from typing import Any, BinaryIO

from ..errors import CheckpointError

MAX_DEPTH = 32  # Paddle writes dict -> tuple/dict -> array: 4 levels; an optimizer dict a few more
MAX_EXPANDED = 100_000  # items reachable (shared ones counted each time) beyond one per byte of the file
_CONTAINERS = (dict, list, tuple, set, frozenset)


class BoundedReader:
    """A file whose ``read(n)`` refuses, before reading, an ``n`` larger than the bytes left."""

    def __init__(self, file: BinaryIO, size: int | None):
        self._file, self._size = file, size

    def left(self) -> int | None:
        return None if self._size is None else self._size - self._file.tell()

    def read(self, n: int = -1) -> bytes:
        if n is not None and n >= 0:
            check_length(n, self.left(), "a length")
        return self._file.read(n)

    def readline(self, limit: int = -1) -> bytes:
        return self._file.readline(limit)

    def readinto(self, buf) -> int:
        check_length(len(buf), self.left(), "a length")
        return self._file.readinto(buf)

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self._file.seek(offset, whence)

    def tell(self) -> int:
        return self._file.tell()


def check_length(size: int, left: int | None, what: str) -> None:
    """Refuse a declared length longer than the bytes left to read, before anything is allocated."""
    if left is not None and size > max(left, 0):
        raise CheckpointError(f"corrupt checkpoint: the file ends early: {what} of {size:,} bytes is declared "
                              f"with {max(left, 0):,} bytes left to read (truncated? or crafted to exhaust memory)")


def check_graph(obj: Any, file_size: int) -> None:
    """Refuse a loaded object whose nesting or expanded size is out of proportion to the file."""
    limit = MAX_EXPANDED + file_size
    seen: dict[int, tuple[int, int]] = {}  # id -> (items reachable, height), each container walked once

    def walk(node: Any, depth: int) -> tuple[int, int]:
        if not isinstance(node, _CONTAINERS):
            return 1, 0
        known = seen.get(id(node))
        if known is None:
            _check_depth(depth)
            total, height = 1, 0
            for child in ([*node.keys(), *node.values()] if isinstance(node, dict) else node):
                items, below = walk(child, depth + 1)
                total, height = total + items, max(height, below + 1)
                if total > limit:
                    raise CheckpointError(f"refused: shared references expand to more than {limit:,} items "
                                          f"in a {file_size:,}-byte file (a pickle bomb)")
            known = seen[id(node)] = (total, height)
        _check_depth(depth + known[1])
        return known

    walk(obj, 0)


def _check_depth(depth: int) -> None:
    if depth > MAX_DEPTH:
        raise CheckpointError(f"refused: containers nested deeper than {MAX_DEPTH} levels "
                              "(Paddle checkpoints nest a few)")
