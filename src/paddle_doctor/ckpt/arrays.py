"""Checkpoint contents as real numpy arrays (for ``strip`` and ``load_clean``), through the same
allowlist unpickler as ``inspect``: numpy is imported here, paddle never."""

from __future__ import annotations

import os
from typing import Any

from ..errors import CheckpointError
from . import formats, safe_pickle, safetensors_io

_NUMPY_DTYPES = {"BOOL": "bool", "U8": "uint8", "I8": "int8", "I16": "int16", "U16": "uint16",
                 "F16": "float16", "I32": "int32", "U32": "uint32", "F32": "float32", "F64": "float64",
                 "I64": "int64", "U64": "uint64", "C64": "complex64"}


def load_pickle(path: str) -> tuple[dict, int]:
    """The pickle's top-level dict exactly as stored (split pieces not joined), and its protocol."""
    with open(path, "rb") as file:
        protocol = safe_pickle.pickle_protocol(file.read(2))
        file.seek(0)
        obj = safe_pickle.load(file, arrays=True)
    if not isinstance(obj, dict):
        raise CheckpointError(f"not a state dict: the pickle holds a {type(obj).__name__}, not a dict of arrays")
    return obj, protocol


def load_arrays(path: str) -> dict[str, Any]:
    """Every tensor of the checkpoint at ``path`` as a numpy array, pieces re-joined; other entries
    dropped. A file that cannot be turned into arrays raises CheckpointError (one line), never a
    ValueError or TypeError from deep inside numpy (a split entry naming pieces that do not fit,
    a shape that does not hold the bytes)."""
    try:
        return _load_arrays(path)
    except CheckpointError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        message = " ".join(str(exc).split())[:200]
        raise CheckpointError(f"corrupt checkpoint: {path}: its tensors cannot be read as arrays "
                              f"({type(exc).__name__}: {message})") from None


def _load_arrays(path: str) -> dict[str, Any]:
    import numpy as np

    path = formats.resolve(path)
    kind = formats.sniff(path)
    if kind == "index":
        out: dict[str, Any] = {}
        for _, shard_path in formats.shard_paths(path, formats.read_index(path)):
            if formats.sniff(shard_path) == "index":
                raise CheckpointError(f"corrupt sharded checkpoint: the shard {shard_path} is itself an index")
            out.update(_load_arrays(shard_path))
        return out
    if kind == "safetensors":
        return _safetensors_arrays(path)
    obj, _ = load_pickle(path)
    info = obj.get(formats.SPLIT_INFO) or {}
    for key, entry in info.items():
        obj[key] = np.concatenate([obj.pop(name) for name in entry["slices"]]).reshape(entry["OriginShape"])
    out = {}
    for key, value in obj.items():
        if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], np.ndarray):
            value = value[1]
        if isinstance(value, np.ndarray):
            out[key] = value
    return out


def _safetensors_arrays(path: str) -> dict[str, Any]:
    import numpy as np

    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        header, start = safetensors_io.read_header(file, size)
        safetensors_io.tensors_of(header, size - start)  # validates offsets and sizes
        out = {}
        for key, entry in header.items():
            if key == "__metadata__":
                continue
            dtype = _NUMPY_DTYPES.get(entry["dtype"])
            if dtype is None:
                raise CheckpointError(f"{key!r} is {entry['dtype']}, which numpy cannot hold; "
                                      "load it with paddle.load(path, safetensors=True)")
            begin, end = entry["data_offsets"]
            file.seek(start + begin)
            out[key] = np.frombuffer(file.read(end - begin), dtype=dtype).reshape(entry["shape"])
    return out
