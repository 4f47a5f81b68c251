"""Crafted files of at most 1 KiB that cost gigabytes to a naive reader (issue 17), built by hand
from pickle opcodes: the tests and ``bench/bench_ckpt_hostile.py`` use the same ones. No paddle,
no numpy here."""

from __future__ import annotations

import struct


def _text(s: str) -> bytes:  # BINUNICODE
    data = s.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def _global(module: str, name: str) -> bytes:
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def billion_laughs(levels: int = 40) -> bytes:
    """{'fc.wt': L} where L0 = [] and Li = [Li-1, Li-1] by memo reference: 2**levels lists for
    ``repr`` or a deep copy, in 9 bytes a level (40 levels: 381 bytes)."""
    out = b"\x80\x02}" + _text("fc.wt") + b"]q\x000"  # EMPTY_LIST, BINPUT 0, POP
    for i in range(1, levels + 1):
        out += b"(h" + bytes([i - 1]) + b"h" + bytes([i - 1]) + b"lq" + bytes([i]) + b"0"
    return out + b"h" + bytes([levels]) + b"s."


def bytearray8_header(size: int = 6_300_000_000) -> bytes:
    """Protocol 5: a BYTEARRAY8 that declares ``size`` bytes in a 22-byte file."""
    out = b"\x80\x05}" + b"\x8c\x01w" + b"\x96" + struct.pack("<Q", size) + b"s."
    return out + b"." * (22 - len(out))


def reconstruct_huge(numel: int = 600_000_000) -> bytes:
    """{'m.w': numpy _reconstruct(ndarray, (numel,), b'b')} with no BUILD: an uninitialised array of
    ``numel`` bytes that a re-save (``strip``) writes out in full; about 82 bytes."""
    shape = b"J" + struct.pack("<i", numel) + b"\x85"  # BININT, TUPLE1
    call = (_global("numpy.core.multiarray", "_reconstruct") + b"(" + _global("numpy", "ndarray")
            + shape + b"C\x01b" + b"tR")  # SHORT_BINBYTES b'b', TUPLE, REDUCE
    return b"\x80\x03}" + _text("m.w") + call + b"s."


def deep_nesting(levels: int = 200) -> bytes:
    """{'w': [[[...]]]} nested ``levels`` deep: ``repr`` recurses past Python's limit."""
    return b"\x80\x02}" + _text("w") + b"(" * levels + b"l" * levels + b"s."


def frame_header(size: int = 1 << 40) -> bytes:
    """Protocol 4 whose first FRAME declares ``size`` bytes."""
    return b"\x80\x04\x95" + struct.pack("<Q", size) + b"}."


def long4_header(size: int = 0x7FFFFFFF) -> bytes:
    """A LONG4 integer declaring 2 GiB of digits."""
    return b"\x80\x02}" + _text("w") + b"\x8b" + struct.pack("<i", size) + b"s."


def binstring_header(size: int = 0x7FFFFFFF) -> bytes:
    """A BINSTRING (protocol 1 string opcode) declaring 2 GiB, inside a protocol-2 pickle."""
    return b"\x80\x02}" + _text("w") + b"T" + struct.pack("<i", size) + b"s."


def binbytes8_header(size: int = 1 << 40) -> bytes:
    return b"\x80\x04}" + _text("w") + b"\x8e" + struct.pack("<Q", size) + b"s."


def wide_memo(count: int = 20) -> bytes:
    """A dict whose value is a list of one list referenced ``count`` times, each holding the
    previous: a wide and deep fan-out of shared references."""
    out = b"\x80\x02}" + _text("w") + b"]q\x000"
    for i in range(1, count + 1):
        out += b"(" + (b"h" + bytes([i - 1])) * 3 + b"lq" + bytes([i]) + b"0"
    return out + b"h" + bytes([count]) + b"s."


CRAFTED = {
    "billion-laughs": billion_laughs,
    "laughs-24-levels": lambda: billion_laughs(24),  # within the depth limit: the expansion one refuses it
    "bytearray8-6GB": bytearray8_header,
    "reconstruct-600MB": reconstruct_huge,
    "deep-nesting": deep_nesting,
    "frame-1TiB": frame_header,
    "long4-2GiB": long4_header,
    "binstring-2GiB": binstring_header,
    "binbytes8-1TiB": binbytes8_header,
    "wide-memo": wide_memo,
}
