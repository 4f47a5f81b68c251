"""``.safetensors`` without the safetensors package: the documented header is all ``inspect`` needs.

Layout (https://huggingface.co/docs/safetensors): 8 bytes little-endian header length N, N bytes of
JSON ``{key: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}``, then the
data, with offsets relative to its start. Reading the header costs 8 + N bytes whatever the file's
size; renaming keys rewrites only the header and copies the data block as it is.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
from typing import BinaryIO

from ..errors import CheckpointError
from .meta import TensorMeta

MAX_HEADER = 100 * 1024 * 1024  # the format's own limit
# dtype -> (name, bits per element): the safetensors library's Dtype enum (safetensors/src/tensor.rs)
_DTYPES = {"BOOL": ("bool", 8), "U8": ("uint8", 8), "I8": ("int8", 8), "I16": ("int16", 16),
           "U16": ("uint16", 16), "F16": ("float16", 16), "BF16": ("bfloat16", 16), "I32": ("int32", 32),
           "U32": ("uint32", 32), "F32": ("float32", 32), "F64": ("float64", 64), "I64": ("int64", 64),
           "U64": ("uint64", 64), "C64": ("complex64", 64), "F8_E4M3": ("float8_e4m3fn", 8),
           "F8_E5M2": ("float8_e5m2", 8), "F8_E8M0": ("float8_e8m0fnu", 8), "F4": ("float4_e2m1fn", 4),
           "F6_E2M3": ("float6_e2m3fn", 6), "F6_E3M2": ("float6_e3m2fn", 6)}
USIZE_MAX = (1 << 64) - 1  # shapes and offsets are usize there: a bigger number overflows


def looks_like_safetensors(head: bytes) -> bool:
    if len(head) < 9:
        return False
    (size,) = struct.unpack("<Q", head[:8])
    return 2 <= size <= MAX_HEADER and head[8:9] == b"{"


def read_header(file: BinaryIO, file_size: int) -> tuple[dict, int]:
    """The parsed header and the offset where data starts; CheckpointError when it is inconsistent."""
    raw = file.read(8)
    if len(raw) != 8:
        raise CheckpointError("corrupt safetensors file: shorter than its 8-byte header length")
    (size,) = struct.unpack("<Q", raw)
    if size > MAX_HEADER or 8 + size > file_size:
        raise CheckpointError(f"corrupt safetensors file: header length {size} exceeds the file")
    try:
        header = json.loads(file.read(size))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:  # nested: a bomb
        raise CheckpointError(f"corrupt safetensors file: header is not JSON ({exc})") from None
    if not isinstance(header, dict):
        raise CheckpointError("corrupt safetensors file: header is not a JSON object")
    return header, 8 + size


def tensors_of(header: dict, data_size: int) -> dict[str, TensorMeta]:
    """Every tensor's metadata, once the header passes the checks the safetensors library makes
    (``Metadata::validate``); CheckpointError (one line) for the first that fails. The library
    rejects, and so do we: an unknown dtype, a shape or offset that is not a non-negative integer
    (``-1``, ``1.5``, ``false``, over 2**64), a size that is not shape x dtype, offsets that overlap
    or leave a gap, data that does not end where the file ends, a ``__metadata__`` that is not an
    object of strings."""
    _check_metadata(header.get("__metadata__"))
    out, spans = {}, []
    for key, entry in header.items():
        if key == "__metadata__":
            continue
        name, begin, end, shape = _entry(key, entry)
        out[key] = TensorMeta(shape, name, end - begin)
        spans.append((begin, end, key))
    _check_contiguous(spans, data_size)
    return out


def _fail(what: str) -> CheckpointError:
    return CheckpointError(f"corrupt safetensors file: {what} (the safetensors library refuses it too)")


def _check_metadata(metadata) -> None:
    if metadata is None:
        return
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise _fail("__metadata__ is not an object of strings")


def _usize(value) -> bool:
    return type(value) is int and 0 <= value <= USIZE_MAX  # bool is an int to Python, not to JSON


def _entry(key: str, entry) -> tuple[str, int, int, tuple[int, ...]]:
    """(dtype name, begin, end, shape) of one tensor's entry, checked."""
    if not isinstance(entry, dict) or not {"dtype", "shape", "data_offsets"} <= entry.keys():
        raise _fail(f"the entry of {key!r} is not an object with dtype, shape and data_offsets")
    dtype, shape, offsets = entry["dtype"], entry["shape"], entry["data_offsets"]
    if not isinstance(dtype, str) or dtype not in _DTYPES:
        raise _fail(f"{key!r} has an unknown dtype {str(dtype)[:40]!r}")
    if not isinstance(shape, list) or not all(_usize(n) for n in shape):
        raise _fail(f"{key!r} has a shape that is not a list of non-negative integers")
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(_usize(n) for n in offsets):
        raise _fail(f"{key!r} has data_offsets that are not two non-negative integers")
    begin, end = offsets
    name, bits = _DTYPES[dtype]
    count = 1
    for n in shape:  # a checked product, in order, as the library's (2**62 x 2**62 x 0 overflows there)
        count *= n
        if count * bits > USIZE_MAX:
            raise _fail(f"{key!r} has a shape too large to address ({len(shape)} dimensions)")
    if count * bits % 8 or end < begin or end - begin != count * bits // 8:
        raise _fail(f"{key!r} data [{begin}, {end}) does not hold its shape {shape} of {dtype}")
    return name, begin, end, tuple(shape)


def _check_contiguous(spans: list[tuple[int, int, str]], data_size: int) -> None:
    """The tensors' data, in offset order, starts at 0, leaves no gap, overlaps nothing and ends
    where the file ends (what the library checks, so that every byte belongs to one tensor)."""
    at = 0
    for begin, end, key in sorted(spans):
        if begin != at:
            raise _fail(f"{key!r} data starts at {begin}, not at {at} where the previous tensor ends "
                        f"({'overlapping' if begin < at else 'a gap'})")
        at = end
    if at != data_size:
        raise _fail(f"the tensors' data ends at {at}, which does not fit the file's {data_size} bytes of data "
                    "(truncated?)")


def rename(src: str, dst: BinaryIO, mapping: dict[str, str]) -> None:
    """Write ``src`` to ``dst`` with keys renamed by ``mapping``; the data block is copied unchanged."""
    with open(src, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        header, data_start = read_header(file, size)
        tensors_of(header, size - data_start)  # a file the library refuses is never written "clean"
        renamed = {mapping.get(key, key): entry for key, entry in header.items()}
        blob = json.dumps(renamed, separators=(",", ":")).encode("utf-8")
        blob += b" " * (-len(blob) % 8)  # keep the data 8-byte aligned, as the writers do
        dst.write(struct.pack("<Q", len(blob)) + blob)
        file.seek(data_start)
        shutil.copyfileobj(file, dst, 1 << 20)
