"""inspect reads every format Paddle users have, from real paddle.save files, with shapes and dtypes
equal to the model's and without reading array data or importing paddle or numpy."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import numpy as np
import pytest

from paddle_doctor.ckpt import common_prefix, read_checkpoint
from paddle_doctor.ckpt import safe_pickle
from paddle_doctor.ckpt.arrays import load_arrays

from .helpers import split_like_paddle


def _expected(made, prefix=""):
    return {prefix + k: (tuple(v.shape), str(v.dtype)) for k, v in made.state.items()}


@pytest.mark.parametrize("name,fmt,protocol", [
    ("resnet18.p2.pdparams", "pickle", 2), ("resnet18.p3.pdparams", "pickle", 3),
    ("resnet18.p4.pdparams", "pickle", 4), ("resnet18.safetensors", "safetensors", None)])
def test_resnet18_every_format(made, name, fmt, protocol):
    ckpt = read_checkpoint(str(made.path(name)))
    assert ckpt.format == fmt and ckpt.protocol == protocol
    assert {k: (m.shape, m.dtype) for k, m in ckpt.tensors.items()} == _expected(made)
    assert ckpt.num_parameters == sum(v.size for v in made.state.values())
    assert ckpt.nbytes == sum(v.nbytes for v in made.state.values())
    assert common_prefix(ckpt.tensors) == ""


def test_safetensors_header_agrees_with_the_safetensors_package(made):
    from safetensors import safe_open

    ckpt = read_checkpoint(str(made.path("resnet18.safetensors")))
    with safe_open(str(made.path("resnet18.safetensors")), framework="numpy") as f:
        theirs = {k: tuple(f.get_slice(k).get_shape()) for k in f.keys()}
    assert {k: m.shape for k, m in ckpt.tensors.items()} == theirs


def test_arrays_equal_paddle_load(made):
    import paddle

    for name in ("resnet18.p2.pdparams", "resnet18.p4.pdparams", "resnet18.safetensors"):
        ours = load_arrays(str(made.path(name)))
        theirs = paddle.load(str(made.path(name)), return_numpy=True, safetensors=name.endswith("safetensors"))
        theirs.pop("StructuredToParameterName@@", None)
        assert set(ours) == set(theirs)
        for key, value in theirs.items():
            np.testing.assert_array_equal(ours[key], value)


def test_optimizer_state(made):
    ckpt = read_checkpoint(str(made.path("mlp.pdopt")))
    assert "LR_Scheduler" in ckpt.extras and "last_epoch" in ckpt.extras["LR_Scheduler"]
    moments = [k for k in ckpt.tensors if "moment1" in k]
    assert len(moments) == 4 and all(ckpt.tensors[k].dtype == "float32" for k in moments)


@pytest.mark.parametrize("name,prefix", [("student.pdparams", "student."), ("module.p2.pdparams", "module."),
                                         ("module.safetensors", "module.")])
def test_prefix_is_detected(made, name, prefix):
    ckpt = read_checkpoint(str(made.path(name)))
    assert common_prefix(ckpt.tensors) == prefix
    assert {k: (m.shape, m.dtype) for k, m in ckpt.tensors.items()} == _expected(made, prefix)


def test_sharded_index(made):
    ckpt = read_checkpoint(str(made.path("sharded")))  # a directory resolves to its index JSON
    assert ckpt.format == "sharded-pickle" and len(ckpt.files) == 3
    assert {k: (m.shape, m.dtype) for k, m in ckpt.tensors.items()} == _expected(made, "model.")


def test_sharded_safetensors_index(made, tmp_path):
    import json

    import paddle

    sd = made.model.state_dict()
    keys = list(sd)
    weight_map = {}
    for i, part in enumerate((keys[:10], keys[10:]), start=1):
        shard = f"model-0000{i}-of-00002.safetensors"
        paddle.save({k: sd[k] for k in part}, str(tmp_path / shard), safetensors=True)
        weight_map.update(dict.fromkeys(part, shard))
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    ckpt = read_checkpoint(str(tmp_path / "model.safetensors.index.json"))
    assert ckpt.format == "sharded-safetensors"
    assert {k: (m.shape, m.dtype) for k, m in ckpt.tensors.items()} == _expected(made)
    assert set(load_arrays(str(tmp_path))) == set(sd)


def test_missing_shard_is_file_not_found(made, tmp_path):
    import json
    import shutil

    folder = tmp_path / "sharded"
    shutil.copytree(made.path("sharded"), folder)
    index = json.loads((folder / "model_state.pdparams.index.json").read_text())
    os.unlink(folder / sorted(set(index["weight_map"].values()))[0])
    from paddle_doctor.errors import CheckpointError

    with pytest.raises(CheckpointError) as caught:
        read_checkpoint(str(folder))
    assert caught.value.cause == "file_not_found"


@pytest.mark.parametrize("protocol", [2, 3])
def test_split_pieces_are_rejoined_as_paddle_load_does(made, tmp_path, protocol):
    import paddle

    path = tmp_path / "split.pdparams"
    path.write_bytes(split_like_paddle(made.state, "fc.weight", 3, protocol))
    theirs = paddle.load(str(path), return_numpy=True)  # Paddle itself re-joins the same file
    ckpt = read_checkpoint(str(path))
    assert ckpt.joined == {"fc.weight": ["fc.weight@@.0", "fc.weight@@.1", "fc.weight@@.2"]}
    assert ckpt.tensors["fc.weight"].shape == theirs["fc.weight"].shape == made.state["fc.weight"].shape
    assert set(ckpt.tensors) == set(made.state)
    np.testing.assert_array_equal(load_arrays(str(path))["fc.weight"], theirs["fc.weight"])


@pytest.mark.skipif(os.environ.get("PADDLE_DOCTOR_BIG_TESTS") != "1", reason="writes a 1 GiB file; PADDLE_DOCTOR_BIG_TESTS=1")
def test_real_split_over_1gib(tmp_path):
    import paddle

    big = paddle.zeros([2**30 + 64], dtype="uint8")
    path = tmp_path / "big.pdparams"
    paddle.save({"emb.weight": big, "fc.bias": paddle.ones([3])}, str(path), protocol=2)
    del big
    ckpt = read_checkpoint(str(path))
    assert ckpt.joined == {"emb.weight": ["emb.weight@@.0", "emb.weight@@.1"]}
    assert ckpt.tensors["emb.weight"].shape == (2**30 + 64,) and ckpt.tensors["emb.weight"].dtype == "uint8"


class CountingFile(io.FileIO):
    """A file that counts the bytes handed out by read()."""

    taken = 0

    def readinto(self, buffer):
        n = super().readinto(buffer)
        CountingFile.taken += n or 0
        return n


@pytest.mark.needs_paddle
def test_inspect_steps_over_array_data(tmp_path):
    import paddle

    net = paddle.nn.Sequential(*[paddle.nn.Linear(1024, 1024) for _ in range(8)])  # 32 MiB of weights
    path = tmp_path / "mlp.pdparams"
    paddle.save(net.state_dict(), str(path))
    CountingFile.taken = 0
    with io.BufferedReader(CountingFile(str(path))) as file:
        tree = safe_pickle.load(file, arrays=False)
    assert len([k for k in tree if k.endswith("weight")]) == 8
    # What is read: keys, headers, the 4 KiB biases, and one 8 KiB buffer refill after each seek.
    assert CountingFile.taken < os.path.getsize(path) / 100, f"read {CountingFile.taken} of {os.path.getsize(path)} bytes"


def test_inspect_imports_neither_paddle_nor_numpy(made):
    code = ("import sys; from paddle_doctor.ckpt import read_checkpoint; "
            f"c = read_checkpoint({str(made.path('resnet18.p2.pdparams'))!r}); "
            f"d = read_checkpoint({str(made.path('sharded'))!r}); "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('paddle', 'numpy')]; "
            "assert not bad, bad[:5]; print(len(c.tensors), len(d.tensors))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    n = len(made.state)
    assert proc.stdout.split() == [str(n), str(n)]


def test_numpy1_spelling_and_tensor_tuples(made, tmp_path):
    """Files written with numpy < 2 name ``numpy.core.multiarray``; ``paddle.save`` of a dict that is
    not a plain state dict reduces Tensors to ``(name, array)`` tuples (``_pickle_save``)."""
    import paddle

    old = made.path("resnet18.p2.pdparams").read_bytes().replace(b"numpy._core.multiarray", b"numpy.core.multiarray")
    assert b"numpy.core.multiarray" in old
    (tmp_path / "old.pdparams").write_bytes(old)
    assert read_checkpoint(str(tmp_path / "old.pdparams")).tensors.keys() == made.state.keys()
    np.testing.assert_array_equal(load_arrays(str(tmp_path / "old.pdparams"))["fc.weight"], made.state["fc.weight"])

    mixed = {"fc.weight": paddle.to_tensor(made.state["fc.weight"]), "meta": {"step": paddle.to_tensor([3])}}
    paddle.save(mixed, str(tmp_path / "mixed.pdparams"))
    ckpt = read_checkpoint(str(tmp_path / "mixed.pdparams"))
    assert ckpt.tensors["fc.weight"].shape == (512, 1000) and "meta" in ckpt.extras
    np.testing.assert_array_equal(load_arrays(str(tmp_path / "mixed.pdparams"))["fc.weight"], made.state["fc.weight"])
