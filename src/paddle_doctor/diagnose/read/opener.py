"""Open a log the way users hand it over: gzip-compressed, UTF-16 with a BOM (what Windows
PowerShell's ``>`` writes), UTF-8 with a BOM, docker's json-file driver lines, or plain bytes.
The scanner always sees UTF-8 bytes of the log's text.

Only the first bytes decide (magic numbers and BOMs); nothing is guessed from the file name, and
the file is read as a stream, so memory stays bounded whatever its size.

Bounded on any input (issue 28): only a regular file is ever read (a FIFO would block forever, a
device such as ``/dev/zero`` never ends, even behind a symlink), and each file's text is read up to a
stated budget: ``MAX_FILE_BYTES`` of any file and ``MAX_GZIP_BYTES`` decompressed from a ``.gz``
(1.5 MB of gzip can hold 1 GiB). What was cut is reported, not silently dropped.
"""

from __future__ import annotations

import codecs
import errno
import gzip
import io
import json
import os
import stat
from typing import BinaryIO

GZIP_MAGIC = b"\x1f\x8b"
UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
CHUNK = 1 << 20
SNIFF = 256
# docker's json-file driver (/var/lib/docker/containers/<id>/<id>-json.log) writes one JSON object
# a line: {"log":"<text, newline included>","stream":"stderr","time":"<RFC 3339>"}.
DOCKER_JSON_HEAD = b'{"log":'
MAX_FILE_BYTES = 256 << 20  # text bytes read from one log; of a longer one, its first and last halves of this
MAX_GZIP_BYTES = 64 << 20  # bytes decompressed from one .gz log
MAX_STDIN_BYTES = 256 << 20  # bytes of standard input (held in memory)


class NotRegularFileError(OSError):
    """A FIFO, socket or device (or a symlink to one): never read, since it may never end."""


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
             (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def check_regular(path: str) -> None:
    """Raise NotRegularFileError unless ``path`` (its symlinks followed) is a regular file; an
    OSError when it cannot be looked at."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(errno.EINVAL, f"not a regular file ({_kind(mode)})")


def open_regular(path: str) -> BinaryIO:
    """``path`` opened for reading when it is a regular file. Opened without blocking (a FIFO opens
    at once) and checked on the open descriptor, so a file swapped for a FIFO or a device between a
    look and the open is refused too."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                 | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFileError(errno.EINVAL, f"not a regular file ({_kind(mode)})")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file (a side file: an env dump, a record, a config)."""
    with open_regular(path) as stream:
        return stream.read(limit)


class _Budget(io.RawIOBase):
    """At most ``limit`` bytes of ``raw``; when more were there, says so once in ``notes``. With
    ``size`` (a plain file, seekable), the first half of the budget is read from the start and the
    second half from the end: a failure is most often at the end of a log."""

    def __init__(self, raw: BinaryIO, limit: int, what: str, notes: list[str] | None, size: int | None = None):
        self.raw, self.limit, self.what, self.notes, self.size = raw, limit, what, notes, size
        self.left = limit if size is None else limit // 2  # of the part being read
        self.tail_next = size is not None

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.left == 0 and self.tail_next:
            self.tail_next = False
            self.raw.seek(self.size - self.limit // 2)
            self.left = self.limit // 2
        want = self.left if size < 0 else min(size, self.left)
        data = self.raw.read(want) if want > 0 else b""
        self.left -= len(data)
        if self.left == 0 and not self.tail_next and self.notes is not None and (self.size or self.raw.read(1)):
            self._note_cut()
        return data

    def readinto(self, buffer) -> int:  # what io.BufferedReader calls (its readline is fast; ours would not be)
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def _note_cut(self) -> None:
        if self.size is None:
            self.notes.append(f"cut: read only the first {_amount(self.limit)} of its {self.what} (diagnose's "
                              "input budget); the rest was not examined")
        else:
            self.notes.append(f"cut: read its first and last {_amount(self.limit // 2)} of {_amount(self.size)} "
                              "(diagnose's input budget); the middle was not examined and line numbers after it "
                              "are off")
        self.notes = None  # once

    def close(self) -> None:
        self.raw.close()
        super().close()


def _budgeted(raw: BinaryIO, limit: int, what: str, notes: list[str] | None, size: int | None = None) -> BinaryIO:
    return io.BufferedReader(_Budget(raw, limit, what, notes, size), CHUNK)  # type: ignore[arg-type]


def _amount(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def _is_utf16(head: bytes) -> bool:
    """A UTF-16 BOM, and NUL bytes in every other place as UTF-16 text mostly has (a Latin-1 log
    may start with the same two bytes, ``\\xff\\xfe``, without being UTF-16)."""
    return head.startswith(UTF16_BOMS) and head.count(b"\x00") * 4 >= len(head) - 2


class _Utf16Reader(io.RawIOBase):
    """A binary stream of UTF-8 bytes transcoded from a UTF-16 stream (BOM decides the order)."""

    def __init__(self, raw: BinaryIO):
        self.raw = raw
        self.decoder = codecs.getincrementaldecoder("utf-16")(errors="replace")
        self.pending = b""
        self.done = False

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        while not self.done and (size < 0 or len(self.pending) < size):
            data = self.raw.read(CHUNK)
            text = self.decoder.decode(data, final=not data)
            self.pending += text.encode("utf-8")
            self.done = not data
        if size < 0:
            out, self.pending = self.pending, b""
        else:
            out, self.pending = self.pending[:size], self.pending[size:]
        return out

    def close(self) -> None:
        self.raw.close()
        super().close()


class _DockerJsonReader(io.RawIOBase):
    """The text of a json-file log, each line prefixed with its time as ``docker logs --timestamps``
    writes it (so the same prefix reader applies). A line docker split into pieces (16 KiB each,
    the last one with the newline) keeps one time, at its start."""

    def __init__(self, raw: BinaryIO):
        self.raw = raw
        self.pending = b""
        self.at_line_start = True

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self.pending) < size:
            lines = self.raw.readlines(CHUNK)
            if not lines:
                break
            self.pending += b"".join(self._text_of(line) for line in lines)
        if size < 0:
            out, self.pending = self.pending, b""
        else:
            out, self.pending = self.pending[:size], self.pending[size:]
        return out

    def _text_of(self, line: bytes) -> bytes:
        try:
            entry = json.loads(line)
            text, when = str(entry["log"]), str(entry.get("time", ""))
        except (ValueError, KeyError, TypeError):
            return line  # not an entry (a truncated last line): kept as it is
        stamped = f"{when} {text}" if self.at_line_start and when else text
        self.at_line_start = text.endswith("\n")
        return stamped.encode("utf-8", errors="replace")

    def close(self) -> None:
        self.raw.close()
        super().close()


def open_log(path: str | None, data: bytes | None = None, notes: list[str] | None = None) -> BinaryIO:
    """A binary stream of the log's text as UTF-8 (or its raw bytes when it is not UTF-16), cut at
    the input budget; a cut is described in ``notes`` (when given) once the reader reaches it."""
    stream: BinaryIO = io.BytesIO(data) if data is not None else open_regular(path)
    head = _peek(stream, SNIFF)
    if head.startswith(GZIP_MAGIC):
        stream = _budgeted(gzip.GzipFile(fileobj=stream), MAX_GZIP_BYTES, "decompressed text", notes)  # type: ignore
        head = _peek(stream, SNIFF)
    elif data is not None and len(data) > MAX_STDIN_BYTES:
        stream = _budgeted(stream, MAX_STDIN_BYTES, "text", notes)
    elif data is None and (size := os.fstat(stream.fileno()).st_size) > MAX_FILE_BYTES:
        stream = _budgeted(stream, MAX_FILE_BYTES, "text", notes, size)
    if _is_utf16(head):
        return _Utf16Reader(stream)  # type: ignore[return-value]
    if head.startswith(codecs.BOM_UTF8):
        stream.read(len(codecs.BOM_UTF8))
    if head.lstrip(codecs.BOM_UTF8).startswith(DOCKER_JSON_HEAD):
        return _DockerJsonReader(stream)  # type: ignore[return-value]
    return stream


def _peek(stream: BinaryIO, n: int) -> bytes:
    """The first ``n`` bytes, leaving the stream where it was (gzip streams seek by re-reading)."""
    if isinstance(stream, io.BufferedReader) and isinstance(stream.raw, _Budget):  # not seekable: its buffer
        return stream.peek(n)[:n]
    pos = stream.tell()
    head = stream.read(n)
    stream.seek(pos)
    return head
