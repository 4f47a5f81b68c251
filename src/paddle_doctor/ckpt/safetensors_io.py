"""``.safetensors`` without the safetensors package: the documented header is all ``inspect`` needs.

Layout (https://huggingface.co/docs/safetensors): 8 bytes little-endian header length N, N bytes of
JSON ``{key: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__": {...}}``, then the
data, with offsets relative to its start. Reading the header costs 8 + N bytes whatever the file's
size; renaming keys rewrites only the header and copies the data block as it is.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
from typing import BinaryIO

from ..errors import CheckpointError
from .meta import TensorMeta

MAX_HEADER = 100 * 1024 * 1024  # the format's own limit
_DTYPES = {"BOOL": ("bool", 1), "U8": ("uint8", 1), "I8": ("int8", 1), "I16": ("int16", 2),
           "U16": ("uint16", 2), "F16": ("float16", 2), "BF16": ("bfloat16", 2), "I32": ("int32", 4),
           "U32": ("uint32", 4), "F32": ("float32", 4), "F64": ("float64", 8), "I64": ("int64", 8),
           "U64": ("uint64", 8), "F8_E4M3": ("float8_e4m3fn", 1), "F8_E5M2": ("float8_e5m2", 1)}


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
    out = {}
    for key, entry in header.items():
        if key == "__metadata__":
            continue
        try:
            name, itemsize = _DTYPES.get(entry["dtype"], (str(entry["dtype"]).lower(), 0))
            shape = tuple(int(n) for n in entry["shape"])
            begin, end = (int(n) for n in entry["data_offsets"])
        except (KeyError, TypeError, ValueError):
            raise CheckpointError(f"corrupt safetensors file: bad header entry for {key!r}") from None
        if not 0 <= begin <= end <= data_size or (itemsize and end - begin != math.prod(shape) * itemsize):
            raise CheckpointError(f"corrupt safetensors file: {key!r} data [{begin}, {end}) does not fit "
                                  f"its shape {list(shape)} {name} or the file (truncated?)")
        out[key] = TensorMeta(shape, name, end - begin)
    return out


def rename(src: str, dst: BinaryIO, mapping: dict[str, str]) -> None:
    """Write ``src`` to ``dst`` with keys renamed by ``mapping``; the data block is copied unchanged."""
    with open(src, "rb") as file:
        header, data_start = read_header(file, os.fstat(file.fileno()).st_size)
        renamed = {mapping.get(key, key): entry for key, entry in header.items()}
        blob = json.dumps(renamed, separators=(",", ":")).encode("utf-8")
        blob += b" " * (-len(blob) % 8)  # keep the data 8-byte aligned, as the writers do
        dst.write(struct.pack("<Q", len(blob)) + blob)
        file.seek(data_start)
        shutil.copyfileobj(file, dst, 1 << 20)
