"""strip: the output is what paddle.save writes (paddle.load reads it, same protocol, name table and
split table renamed), written atomically; the original is untouched unless in_place, with a backup."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil

import numpy as np
import pytest

from paddle_doctor.ckpt import StripError, read_checkpoint, strip_checkpoint
from paddle_doctor.ckpt.atomic import atomic_output

from .helpers import split_like_paddle


def _digest(path) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def _assert_state_equal(loaded: dict, made) -> None:
    loaded = {k: v for k, v in loaded.items() if not k.endswith("@@")}
    assert set(loaded) == set(made.state)
    for key, value in made.state.items():
        np.testing.assert_array_equal(np.asarray(loaded[key]), value)


@pytest.mark.parametrize("name,protocol", [("student.pdparams", 4), ("module.p2.pdparams", 2)])
def test_strip_pickle_loads_in_paddle(made, tmp_path, name, protocol):
    import paddle

    src = made.path(name)
    before = _digest(src)
    out = tmp_path / "clean.pdparams"
    done = strip_checkpoint(str(src), out=str(out))  # prefix detected
    assert done.facts["renamed"] == len(made.state) and done.facts["backups"] == []
    assert _digest(src) == before, "the original changed"
    assert open(out, "rb").read(2) == bytes([0x80, protocol])
    _assert_state_equal(paddle.load(str(out), return_numpy=True), made)
    names = paddle.load(str(out), keep_name_table=True)["StructuredToParameterName@@"]
    assert set(names) == set(made.state)
    model = paddle.vision.models.resnet18()
    missing, unexpected = model.set_state_dict(paddle.load(str(out)))
    assert not missing and not unexpected
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


def test_strip_split_pieces_rename_the_split_table(made, tmp_path):
    import paddle
    prefixed = {f"_layers.{k}": v for k, v in made.state.items()}
    src = tmp_path / "split.pdparams"
    src.write_bytes(split_like_paddle(prefixed, "_layers.fc.weight", 2, 2))
    out = tmp_path / "clean.pdparams"
    strip_checkpoint(str(src), out=str(out), prefix="_layers.")
    assert read_checkpoint(str(out)).joined == {"fc.weight": ["fc.weight@@.0", "fc.weight@@.1"]}
    _assert_state_equal(paddle.load(str(out), return_numpy=True), made)


def test_strip_in_place_keeps_a_backup(made, tmp_path):
    import paddle

    src = tmp_path / "student.pdparams"
    shutil.copy(made.path("student.pdparams"), src)
    before = _digest(src)
    done = strip_checkpoint(str(src), in_place=True)
    assert done.facts["backups"] == [f"{src}.bak"] and _digest(f"{src}.bak") == before
    _assert_state_equal(paddle.load(str(src), return_numpy=True), made)
    shutil.copy(made.path("student.pdparams"), src)
    assert strip_checkpoint(str(src), in_place=True).facts["backups"] == [f"{src}.bak.1"]  # never overwrites a backup


def test_strip_safetensors(made, tmp_path):
    import paddle
    from safetensors.numpy import load_file

    out = tmp_path / "clean.safetensors"
    strip_checkpoint(str(made.path("module.safetensors")), out=str(out))
    _assert_state_equal(load_file(str(out)), made)
    _assert_state_equal({k: v.numpy() for k, v in paddle.load(str(out), safetensors=True).items()}, made)


def test_strip_sharded(made, tmp_path):
    import paddle

    out = tmp_path / "clean"
    done = strip_checkpoint(str(made.path("sharded")), out=str(out))
    assert done.facts["prefix"] == "model."
    index = json.loads((out / "model_state.pdparams.index.json").read_text())
    assert set(index["weight_map"]) == set(made.state)
    merged = {}
    for shard in set(index["weight_map"].values()):
        merged.update(paddle.load(str(out / shard), return_numpy=True))
    _assert_state_equal(merged, made)


def test_strip_refuses_unclear_requests(made, tmp_path):
    src = str(made.path("resnet18.p4.pdparams"))
    with pytest.raises(StripError, match="no prefix shared"):
        strip_checkpoint(src, out=str(tmp_path / "x.pdparams"))
    with pytest.raises(StripError, match="starts with"):
        strip_checkpoint(src, out=str(tmp_path / "x.pdparams"), prefix="nope.")
    with pytest.raises(StripError, match="input itself"):
        strip_checkpoint(str(made.path("student.pdparams")), out=str(made.path("student.pdparams")))
    with pytest.raises(StripError, match="-o OUT"):
        strip_checkpoint(str(made.path("student.pdparams")))
    clash = tmp_path / "clash.pdparams"
    clash.write_bytes(pickle.dumps({"m.a": np.zeros(2), "a": np.zeros(2)}, protocol=4))
    with pytest.raises(StripError, match="two keys one name"):
        strip_checkpoint(str(clash), out=str(tmp_path / "y.pdparams"), prefix="m.")
    assert not (tmp_path / "x.pdparams").exists() and not (tmp_path / "y.pdparams").exists()


def test_atomic_output_leaves_target_alone_on_failure(tmp_path):
    target = tmp_path / "model.pdparams"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_output(str(target)) as out:
            out.write(b"half of a new checkpoint")
            raise RuntimeError("killed mid-write")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["model.pdparams"]
    with atomic_output(str(target)) as out:
        out.write(b"new")
    assert target.read_bytes() == b"new" and oct(target.stat().st_mode & 0o777) != "0o600"
