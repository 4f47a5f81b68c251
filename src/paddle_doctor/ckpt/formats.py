"""Read any checkpoint Paddle users have: a ``.pdparams`` / ``.pdopt`` pickle (protocols 2-4), a
``.safetensors`` file, or a sharded checkpoint with an index JSON (PaddleNLP's
``model_state.pdparams.index.json``, ``model.safetensors.index.json``), detected by content.

:func:`read_checkpoint` returns shapes and dtypes only; :func:`load_arrays` real numpy arrays.
Both use the allowlist unpickler: nothing in the file runs.
"""

from __future__ import annotations

import json
import os
import reprlib
from typing import Any

from ..errors import CheckpointError, UnsafeCheckpointError
from ..findings import Finding, Location
from . import safe_pickle, safetensors_io
from .allowlist import ArrayStub
from .meta import Checkpoint, TensorMeta
from ..catalog.ids import CauseId

NAME_TABLE = "StructuredToParameterName@@"  # paddle.save's structured-name -> parameter-name table
SPLIT_INFO = "UnpackBigParamInfor@@"  # protocols 2-3: {key: {"OriginShape", "slices": [key@@.N]}}  # typos: disable-line
INDEX_NAMES = ("model_state.pdparams.index.json", "model.safetensors.index.json")


def missing_file(path: str, what: str = "checkpoint") -> CheckpointError:
    finding = Finding(code="ckpt-missing-file", cause=CauseId.file_not_found, message=f"{what} not found: {path}",
                      locations=(Location(path=path),))
    return CheckpointError(finding.message, finding=finding)


def resolve(path: str) -> str:
    """A file as given; for a directory, its index JSON or its one checkpoint file."""
    if not os.path.exists(path):
        raise missing_file(path)
    if not os.path.isdir(path):
        return path
    for name in INDEX_NAMES:
        if os.path.isfile(os.path.join(path, name)):
            return os.path.join(path, name)
    found = sorted(n for n in os.listdir(path) if n.endswith((".pdparams", ".safetensors")))
    if len(found) == 1:
        return os.path.join(path, found[0])
    raise CheckpointError(f"{path} is a directory with {len(found)} checkpoint files and no index JSON; "
                          "name the file")


def sniff(path: str) -> str:
    """'pickle', 'safetensors' or 'index', from the first bytes; CheckpointError otherwise."""
    with open(path, "rb") as file:
        head = file.read(safe_pickle.OLD_PICKLE_SCAN)
    if safetensors_io.looks_like_safetensors(head):
        return "safetensors"
    if head[:1] == b"{":
        return "index"
    if head[:1] != b"\x80":
        safe_pickle.refuse_old_pickle(head)
    safe_pickle.pickle_protocol(head)  # raises with the reason when it is not a pickle
    return "pickle"


def read_checkpoint(path: str) -> Checkpoint:
    """Keys, shapes and dtypes of the checkpoint at ``path``, reading no array data."""
    path = resolve(path)
    kind = sniff(path)
    if kind == "index":
        return _read_index(path)
    if kind == "safetensors":
        return _read_safetensors(path)
    return _read_pickle(path)


def _read_pickle(path: str) -> Checkpoint:
    with open(path, "rb") as file:
        protocol = safe_pickle.pickle_protocol(file.read(2))
        file.seek(0)
        obj = safe_pickle.load(file, arrays=False)
    ckpt = Checkpoint(path=path, format="pickle", files=[path], protocol=protocol)
    if not isinstance(obj, dict):
        raise CheckpointError(f"not a state dict: the pickle holds a {type(obj).__name__}, not a dict of arrays")
    for key, value in obj.items():
        meta = _tensor_meta(value)
        if meta is not None and isinstance(key, str):
            ckpt.tensors[key] = meta
        elif key != SPLIT_INFO:
            ckpt.extras[str(key)] = _describe(value)
    _join_split(ckpt, obj.get(SPLIT_INFO))
    return ckpt


def _tensor_meta(value: Any) -> TensorMeta | None:
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], ArrayStub):
        value = value[1]  # _pickle_save's (name, array) form of a Tensor
    if isinstance(value, ArrayStub):
        return TensorMeta(tuple(value.shape), value.dtype, value.nbytes)
    return None


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxdict, _REPR.maxlist, _REPR.maxtuple, _REPR.maxstring, _REPR.maxother = 3, 6, 6, 6, 60, 60


def _describe(value: Any) -> str:
    text = _REPR.repr(value)  # bounded: an extra may be a deep or shared structure
    if isinstance(value, dict) and (len(text) > 60 or any(_tensor_meta(v) for v in value.values())):
        inner = sum(_tensor_meta(v) is not None for v in value.values())
        return f"dict of {len(value)} entries" + (f" ({inner} tensors)" if inner else "")
    return text if len(text) <= 60 else text[:57] + "..."


def _join_split(ckpt: Checkpoint, info: Any) -> None:
    """Re-join protocol 2-3's ``key@@.N`` pieces into one tensor of the original shape."""
    if info is None:
        return
    if not isinstance(info, dict):
        raise CheckpointError(f"corrupt checkpoint: {SPLIT_INFO} is not a dict")
    for key, entry in info.items():
        try:
            shape, slices = tuple(int(n) for n in entry["OriginShape"]), list(entry["slices"])
            parts = [ckpt.tensors.pop(name) for name in slices]
        except (KeyError, TypeError, ValueError):
            raise CheckpointError(f"corrupt checkpoint: the pieces of {key!r} listed in {SPLIT_INFO} "
                                  "are not all in the file") from None
        meta = TensorMeta(shape, parts[0].dtype, sum(p.nbytes or 0 for p in parts))
        if sum(p.numel for p in parts) != meta.numel:
            raise CheckpointError(f"corrupt checkpoint: the pieces of {key!r} do not add up to {list(shape)}")
        ckpt.tensors[key] = meta
        ckpt.joined[key] = slices


def _read_safetensors(path: str) -> Checkpoint:
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        header, data_start = safetensors_io.read_header(file, size)
    ckpt = Checkpoint(path=path, format="safetensors", files=[path])
    ckpt.tensors = safetensors_io.tensors_of(header, size - data_start)
    for key, value in (header.get("__metadata__") or {}).items():
        ckpt.extras[f"__metadata__.{key}"] = str(value)
    return ckpt


def read_index(path: str) -> dict[str, str]:
    """An index JSON's ``weight_map`` (key -> shard file)."""
    try:
        with open(path, encoding="utf-8") as file:
            weight_map = json.load(file)["weight_map"]
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, RecursionError) as exc:
        raise CheckpointError(f"not a checkpoint index: {path} has no JSON weight_map ({exc})") from None
    if not isinstance(weight_map, dict):
        raise CheckpointError(f"not a checkpoint index: weight_map in {path} is not an object")
    return weight_map


def shard_path(index_path: str, shard: Any) -> str:
    """The file a ``weight_map`` entry names, refused unless it is a plain file name that resolves
    (symlinks followed) inside the index's folder: a downloaded index must not make ``strip`` write,
    or ``inspect`` read, anywhere else (``../.venv/.../x.pth``, ``/etc/...``)."""
    folder = os.path.dirname(os.path.abspath(index_path))
    if not isinstance(shard, str) or not _plain_name(shard):
        raise _unsafe_entry(index_path, shard, "is not a plain file name in the index's folder")
    full = os.path.join(folder, shard)
    real_folder = os.path.realpath(folder)
    if os.path.commonpath([real_folder, os.path.realpath(full)]) != real_folder:
        raise _unsafe_entry(index_path, shard, "resolves outside the index's folder (a symlink)")
    if not os.path.isfile(full):
        raise missing_file(full, f"shard named in {os.path.basename(index_path)}")
    return full


def _plain_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and not any(c in name for c in "/\\\0:") \
        and not os.path.isabs(name)


def _unsafe_entry(index_path: str, shard: Any, why: str) -> UnsafeCheckpointError:
    shown = repr(shard)[:120]
    finding = Finding(code="ckpt-unsafe-path", cause=CauseId.checkpoint_unsafe,
                      message=f"refused: the shard name {shown} in {os.path.basename(index_path)} {why}; "
                              "nothing was read or written",
                      locations=(Location(path=index_path),), facts={"entry": str(shard)[:500]})
    return UnsafeCheckpointError(finding.message, finding=finding)


def shard_paths(index_path: str, weight_map: dict) -> list[tuple[str, str]]:
    """``(name, path)`` of every shard of an index, each checked by :func:`shard_path` first."""
    for value in weight_map.values():
        if not isinstance(value, str):
            raise _unsafe_entry(index_path, value, "is not a file name")
    return [(name, shard_path(index_path, name)) for name in sorted(set(weight_map.values()))]


def _read_index(path: str) -> Checkpoint:
    weight_map = read_index(path)
    ckpt = Checkpoint(path=path, format="sharded", files=[path])
    for _, shard_path_ in shard_paths(path, weight_map):
        if sniff(shard_path_) == "index":
            raise CheckpointError(f"corrupt sharded checkpoint: the shard {shard_path_} is itself an index")
        part = read_checkpoint(shard_path_)
        ckpt.format = f"sharded-{part.format}"
        ckpt.files.append(shard_path_)
        ckpt.tensors.update(part.tensors)
        ckpt.joined.update(part.joined)
    absent = [key for key in weight_map if key not in ckpt.tensors]
    if absent:
        raise CheckpointError(f"corrupt sharded checkpoint: {len(absent)} keys of the index are in no shard "
                              f"(first: {absent[0]!r})")
    return ckpt
