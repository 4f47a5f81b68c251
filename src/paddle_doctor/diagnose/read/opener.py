"""Open a log the way users hand it over: gzip-compressed, UTF-16 with a BOM (what Windows
PowerShell's ``>`` writes), UTF-8 with a BOM, docker's json-file driver lines, or plain bytes.
The scanner always sees UTF-8 bytes of the log's text.

Only the first bytes decide (magic numbers and BOMs); nothing is guessed from the file name, and
the file is read as a stream, so memory stays bounded whatever its size.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
from typing import BinaryIO

GZIP_MAGIC = b"\x1f\x8b"
UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
CHUNK = 1 << 20
SNIFF = 256
# docker's json-file driver (/var/lib/docker/containers/<id>/<id>-json.log) writes one JSON object
# a line: {"log":"<text, newline included>","stream":"stderr","time":"<RFC 3339>"}.
DOCKER_JSON_HEAD = b'{"log":'


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


def open_log(path: str | None, data: bytes | None = None) -> BinaryIO:
    """A binary stream of the log's text as UTF-8 (or its raw bytes when it is not UTF-16)."""
    stream: BinaryIO = io.BytesIO(data) if data is not None else open(path, "rb")  # noqa: SIM115
    head = _peek(stream, SNIFF)
    if head.startswith(GZIP_MAGIC):
        stream = gzip.GzipFile(fileobj=stream)  # type: ignore[assignment]
        head = _peek(stream, SNIFF)
    if _is_utf16(head):
        return _Utf16Reader(stream)  # type: ignore[return-value]
    if head.startswith(codecs.BOM_UTF8):
        stream.read(len(codecs.BOM_UTF8))
    if head.lstrip(codecs.BOM_UTF8).startswith(DOCKER_JSON_HEAD):
        return _DockerJsonReader(stream)  # type: ignore[return-value]
    return stream


def _peek(stream: BinaryIO, n: int) -> bytes:
    """The first ``n`` bytes, leaving the stream where it was (gzip streams seek by re-reading)."""
    pos = stream.tell()
    head = stream.read(n)
    stream.seek(pos)
    return head
