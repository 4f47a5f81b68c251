"""Issue 28 item 8: ``ckpt`` reads a ``.safetensors`` file as the safetensors library does. Every
header the library refuses (overlapping or gapped offsets, negative, float or huge dimensions,
``false`` as an offset, a ``__metadata__`` that is not an object of strings, ...) is refused here
too, by ``inspect``, ``strip`` (which writes nothing) and ``load_arrays``, each with a one-line
``CheckpointError``; a well-formed file is read by both. Where the library is installed, each
crafted file is given to it as well, so the two are shown to agree."""

from __future__ import annotations

import importlib.util
import json
import struct

import pytest

from paddle_doctor.ckpt import read_checkpoint
from paddle_doctor.ckpt.arrays import load_arrays
from paddle_doctor.errors import CheckpointError


def _write(path, header, data: bytes) -> None:
    blob = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(blob)) + blob + data)


def _t(dtype="F32", shape=(2,), offsets=(0, 8)):
    return {"dtype": dtype, "shape": list(shape), "data_offsets": list(offsets)}


GOOD = ({"a": _t(offsets=(0, 8)), "b": _t(shape=(1,), offsets=(8, 12)), "__metadata__": {"format": "np"}}, 12)
# name: (header, bytes of data after it)
REFUSED = {
    "overlapping-offsets": ({"a": _t(offsets=(0, 8)), "b": _t(offsets=(4, 12))}, 12),
    "gap-between-tensors": ({"a": _t(offsets=(0, 8)), "b": _t(shape=(1,), offsets=(12, 16))}, 16),
    "same-bytes-twice": ({"a": _t(offsets=(0, 8)), "b": _t(offsets=(0, 8))}, 8),
    "negative-dim": ({"a": _t(shape=(-2,), offsets=(0, 8))}, 8),
    "float-dim": ({"a": _t(shape=(2.0,), offsets=(0, 8))}, 8),
    "huge-dims": ({"a": _t(shape=(1 << 62, 1 << 62, 0), offsets=(0, 0))}, 0),
    "dim-over-usize": ({"a": _t(shape=(1 << 64,), offsets=(0, 8))}, 8),
    "false-as-offset": ({"a": _t(offsets=(False, 8))}, 8),
    "float-offset": ({"a": _t(offsets=(0, 8.0))}, 8),
    "negative-offset": ({"a": _t(offsets=(-8, 0))}, 8),
    "three-offsets": ({"a": _t(offsets=(0, 8, 8))}, 8),
    "metadata-list": ({"a": _t(), "__metadata__": ["x"]}, 8),
    "metadata-string": ({"a": _t(), "__metadata__": "x"}, 8),
    "metadata-number-value": ({"a": _t(), "__metadata__": {"step": 3}}, 8),
    "unknown-dtype": ({"a": _t(dtype="F33")}, 8),
    "entry-not-object": ({"a": [1, 2]}, 8),
    "size-not-shape": ({"a": _t(shape=(3,), offsets=(0, 8))}, 8),
    "trailing-bytes": ({"a": _t()}, 12),
}


def _library_refuses(path) -> bool | None:
    """Whether the safetensors library refuses the file (None: not installed)."""
    if importlib.util.find_spec("safetensors") is None or importlib.util.find_spec("numpy") is None:
        return None
    from safetensors import safe_open

    try:
        with safe_open(str(path), framework="np") as f:
            for key in f.keys():
                f.get_tensor(key)
    except Exception:  # the library's own error types (SafetensorError, ValueError, ...)
        return True
    return False


def test_a_well_formed_file_is_read_by_both(tmp_path):
    path = tmp_path / "good.safetensors"
    _write(path, GOOD[0], bytes(GOOD[1]))
    assert set(read_checkpoint(str(path)).tensors) == {"a", "b"}
    assert {k: v.shape for k, v in load_arrays(str(path)).items()} == {"a": (2,), "b": (1,)}
    assert _library_refuses(path) in (False, None)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_the_library_refuses_is_refused_in_one_line(tmp_path, name):
    header, size = REFUSED[name]
    path = tmp_path / f"{name}.safetensors"
    _write(path, header, bytes(size))
    assert _library_refuses(path) in (True, None), "the library reads it: not a hostile file"
    for read in (read_checkpoint, load_arrays):
        with pytest.raises(CheckpointError) as caught:  # main: inspect said OK, or ValueError/TypeError leaked
            read(str(path))
        assert "\n" not in str(caught.value) and str(caught.value).startswith("corrupt safetensors file")


@pytest.mark.parametrize("name", ["overlapping-offsets", "false-as-offset", "metadata-list", "huge-dims"])
def test_cli_inspect_and_strip_refuse_and_strip_writes_nothing(run_cli, tmp_path, name):
    header, size = REFUSED[name]
    path = tmp_path / "m.safetensors"
    _write(path, header, bytes(size))
    out = tmp_path / "clean.safetensors"
    for args in (("ckpt", "inspect", path), ("ckpt", "strip", path, "-o", out, "--prefix", "m.")):
        proc = run_cli(*args)
        err = proc.stderr.decode().strip()
        assert proc.returncode == 2 and "\n" not in err and "Traceback" not in err, (args, err)
    assert not out.exists()
