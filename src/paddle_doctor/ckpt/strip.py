"""``ckpt strip``: rename keys without a prefix, writing atomically; the original stays untouched
unless ``in_place`` (which keeps a backup). The output is what ``paddle.save`` itself writes: the
same pickle protocol, the name table and the split-piece table renamed with the keys."""

from __future__ import annotations

import json
import os
import pickle

from ..findings import Finding, Location, Severity
from . import arrays, formats, safetensors_io
from .atomic import atomic_output, keep_backup
from .prefixes import common_prefix
from ..catalog.ids import CauseId


class StripError(ValueError):
    """The request cannot be done as asked (no prefix to strip, output would overwrite the input)."""


def strip_checkpoint(path: str, out: str | None = None, prefix: str | None = None,
                     in_place: bool = False) -> Finding:
    """Strip ``prefix`` (detected when None) from the keys of ``path``; returns what was done."""
    path = formats.resolve(path)
    ckpt = formats.read_checkpoint(path)  # validates the whole file before anything is written
    prefix = prefix if prefix is not None else common_prefix(ckpt.tensors)
    if prefix and not prefix.endswith("."):
        prefix += "."  # a prefix ends at a component: --prefix layer must not turn layer1.0.w into 1.0.w
    if not prefix:
        raise StripError(f"no prefix shared by all {len(ckpt.tensors)} keys of {path}; name one with --prefix")
    renamed = [key for key in ckpt.tensors if key.startswith(prefix)]
    if not renamed:
        raise StripError(f"no key of {path} starts with {prefix!r}")
    target = _target(path, out, in_place, ckpt.format.startswith("sharded"))
    backups = _write(path, target, ckpt.format, prefix, in_place)
    return Finding(
        code="ckpt-strip", cause=CauseId.state_dict_prefix_mismatch, severity=Severity.INFO,
        message=f"stripped '{prefix}' from {len(renamed)} of {len(ckpt.tensors)} keys; wrote {target}",
        locations=(Location(path=target),),
        facts={"prefix": prefix, "renamed": len(renamed), "total": len(ckpt.tensors), "output": target,
               "source": path, "backups": backups, "format": ckpt.format},
    )


def _target(path: str, out: str | None, in_place: bool, sharded: bool) -> str:
    if in_place:
        if out is not None:
            raise StripError("give either -o OUT or --in-place, not both")
        return os.path.dirname(path) if sharded else path
    if out is None:
        raise StripError("give -o OUT (or --in-place, which keeps a backup)")
    source = os.path.dirname(path) if sharded else path
    if os.path.exists(out) and os.path.samefile(out, source):
        raise StripError(f"-o {out} is the input itself; use --in-place to overwrite it (with a backup)")
    if sharded:
        os.makedirs(out, exist_ok=True)
    return out


def _write(path: str, target: str, fmt: str, prefix: str, in_place: bool) -> list[str]:
    backups: list[str] = []
    if fmt.startswith("sharded"):
        weight_map = formats.read_index(path)
        for shard, src in formats.shard_paths(path, weight_map):  # plain names inside the folder only
            backups += _write(src, os.path.join(target, shard), formats.sniff(src), prefix, in_place)
        with open(path, encoding="utf-8") as file:
            index = json.load(file)
        index["weight_map"] = {_rename(k, prefix): v for k, v in weight_map.items()}
        data = json.dumps(index, indent=2).encode("utf-8")
        return backups + _commit(path, os.path.join(target, os.path.basename(path)), in_place,
                                 lambda f: f.write(data))
    if fmt == "safetensors":
        with open(path, "rb") as file:
            header, _ = safetensors_io.read_header(file, os.fstat(file.fileno()).st_size)
        mapping = _mapping(header, prefix)
        return _commit(path, target, in_place, lambda f: safetensors_io.rename(path, f, mapping))
    obj, protocol = arrays.load_pickle(path)
    stripped = _strip_pickle(obj, prefix)
    return _commit(path, target, in_place, lambda f: pickle.dump(stripped, f, protocol=protocol))


def _commit(src: str, dst: str, in_place: bool, write) -> list[str]:
    backups = [keep_backup(src)] if in_place else []
    try:
        with atomic_output(dst) as out:
            write(out)
    except OSError as exc:
        if exc.filename is None:  # a full disk says "No space left on device" and no file: name it
            exc.filename = dst
        raise
    return backups


def _rename(key, prefix: str):
    return key[len(prefix):] if isinstance(key, str) and key.startswith(prefix) else key


def _mapping(keys, prefix: str) -> dict:
    mapping = {key: _rename(key, prefix) for key in keys}
    if len(set(mapping.values())) != len(mapping):
        clash = sorted(set(k for k in mapping if list(mapping.values()).count(mapping[k]) > 1))
        raise StripError(f"stripping {prefix!r} would give two keys one name: {', '.join(map(str, clash[:4]))}")
    return mapping


def _strip_pickle(obj: dict, prefix: str) -> dict:
    mapping = _mapping(obj, prefix)
    out = {mapping[key]: value for key, value in obj.items()}
    if isinstance(out.get(formats.NAME_TABLE), dict):
        out[formats.NAME_TABLE] = {_rename(k, prefix): v for k, v in out[formats.NAME_TABLE].items()}
    if isinstance(out.get(formats.SPLIT_INFO), dict):
        out[formats.SPLIT_INFO] = {
            _rename(k, prefix): {**entry, "slices": [_rename(s, prefix) for s in entry["slices"]]}
            for k, entry in out[formats.SPLIT_INFO].items()}
    return out
