"""Issue 17: checkpoints crafted to write outside the target, or to cost gigabytes from a few
bytes, are refused with one line; the lesser defects (prefix boundary, diff wording, protocol 0,
object arrays, "No space left on device: None") stay fixed. No paddle here (see
test_ckpt_dtypes.py for the model-side checks)."""

from __future__ import annotations

import errno
import json
import os
import pickle
import struct
import subprocess
import sys

import numpy as np
import pytest

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.ckpt import read_checkpoint, strip_checkpoint
from paddle_doctor.ckpt.arrays import load_arrays
from paddle_doctor.ckpt.atomic import atomic_output
from paddle_doctor.errors import CheckpointError, UnsafeCheckpointError

from .crafted import CRAFTED, billion_laughs, bytearray8_header, reconstruct_huge


def _safetensors(path, tensors: dict) -> None:
    header, blob = {}, b""
    for key, array in tensors.items():
        data = array.tobytes()
        header[key] = {"dtype": {"float32": "F32", "int64": "I64"}[str(array.dtype)], "shape": list(array.shape),
                       "data_offsets": [len(blob), len(blob) + len(data)]}
        blob += data
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + blob)


def _sharded(folder, shard_names: dict) -> str:
    """An index over shards named as given (key -> shard name); real shards are made for the plain names."""
    folder.mkdir(exist_ok=True)
    for key, name in shard_names.items():
        if name.startswith("model-"):
            _safetensors(folder / name, {key: np.ones(3, "float32")})
    index = folder / "model.safetensors.index.json"
    index.write_text(json.dumps({"weight_map": shard_names}))
    return str(index)


# 1. every path taken from a file stays inside its folder

@pytest.mark.parametrize("entry", ["../victim.pth", "../../x/victim.pth", "/tmp/pd-doctor-abs-victim.pth",
                                   "sub/../../victim.pth", "..", "a\\..\\victim.pth", "nul\0name"])
def test_a_shard_name_outside_the_folder_is_refused_before_anything_is_written(tmp_path, entry):
    index = _sharded(tmp_path / "ckpt", {"model.a.weight": "model-1.safetensors", "model.b.weight": entry})
    out = tmp_path / "clean"
    for action in (lambda: strip_checkpoint(index, out=str(out)), lambda: read_checkpoint(index),
                   lambda: load_arrays(index)):
        with pytest.raises(UnsafeCheckpointError) as caught:
            action()
        assert caught.value.cause == CauseId.checkpoint_unsafe and repr(entry)[:40] in str(caught.value)
    assert not (tmp_path / "victim.pth").exists() and not os.path.exists("/tmp/pd-doctor-abs-victim.pth")
    assert not out.exists() or not os.listdir(out)


def test_strip_cli_refuses_a_traversal_with_one_line_naming_the_entry(tmp_path, run_cli):
    index = _sharded(tmp_path / "ckpt", {"model.a.weight": "model-1.safetensors",
                                         "model.b.weight": "../site-packages/evil.pth"})
    proc = run_cli("ckpt", "strip", index, "-o", tmp_path / "clean")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and "'../site-packages/evil.pth'" in err, err
    assert not (tmp_path / "site-packages").exists()


def test_a_shard_that_is_a_symlink_out_of_the_folder_is_refused(tmp_path):
    outside = tmp_path / "elsewhere.safetensors"
    _safetensors(outside, {"model.b.weight": np.ones(3, "float32")})
    index = _sharded(tmp_path / "ckpt", {"model.a.weight": "model-1.safetensors", "model.b.weight": "model-2.safetensors"})
    (tmp_path / "ckpt" / "model-2.safetensors").unlink()
    os.symlink(outside, tmp_path / "ckpt" / "model-2.safetensors")
    before = outside.read_bytes()
    with pytest.raises(UnsafeCheckpointError, match="symlink"):
        strip_checkpoint(index, in_place=True)
    assert outside.read_bytes() == before


def test_an_index_that_names_itself_is_not_followed(tmp_path):
    index = _sharded(tmp_path / "ckpt", {"model.a.weight": "model-1.safetensors",
                                         "model.b.weight": "model.safetensors.index.json"})
    with pytest.raises(CheckpointError, match="itself an index"):
        read_checkpoint(index)


def test_a_symlink_at_the_output_is_replaced_not_written_through(tmp_path):
    index = _sharded(tmp_path / "ckpt", {"model.a.weight": "model-1.safetensors", "model.b.weight": "model-2.safetensors"})
    out = tmp_path / "clean"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.symlink(victim, out / "model-1.safetensors")
    strip_checkpoint(index, out=str(out))
    assert victim.read_text() == "keep me"
    assert not os.path.islink(out / "model-1.safetensors")
    assert set(read_checkpoint(str(out)).tensors) == {"a.weight", "b.weight"}


def test_a_temp_file_left_by_a_killed_writer_is_removed_by_the_next_write(tmp_path):
    target = tmp_path / "clean.pdparams"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".clean.pdparams.{int(dead.stdout)}.k9x2.tmp"
    alive = tmp_path / f".clean.pdparams.{os.getppid()}.a1b2.tmp"  # a writer that still runs
    stale.write_bytes(b"half a checkpoint")
    alive.write_bytes(b"being written")
    with atomic_output(str(target)) as out:
        out.write(b"done")
    assert not stale.exists() and alive.exists() and target.read_bytes() == b"done"


def test_a_kill_during_strip_leaves_the_original_and_the_next_run_cleans_up(tmp_path):
    src = tmp_path / "model.pdparams"
    pickle.dump({f"module.l{i}.weight": np.ones((256, 256), "float32") for i in range(64)}, open(src, "wb"), protocol=4)
    before = src.read_bytes()
    code = ("import os, signal, pickle\nfrom paddle_doctor.ckpt import strip\n"
            "real = pickle.dump\n"
            "def dump(obj, f, protocol):\n    f.write(b'x' * 4096); f.flush(); os.kill(os.getpid(), signal.SIGKILL)\n"
            "strip.pickle.dump = dump\n"
            f"strip.strip_checkpoint({str(src)!r}, out={str(tmp_path / 'clean.pdparams')!r})\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == -9
    assert [n for n in os.listdir(tmp_path) if n.endswith(".tmp")], "the kill left no temp file to clean"
    assert src.read_bytes() == before
    strip_checkpoint(str(src), out=str(tmp_path / "clean.pdparams"))
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp")]


# 3. budgets: no file under N bytes costs more than a small multiple of N

@pytest.mark.parametrize("name", list(CRAFTED))
def test_crafted_bombs_are_refused_by_every_reader(tmp_path, name):
    path = tmp_path / "bomb.pdparams"
    path.write_bytes(CRAFTED[name]())
    assert path.stat().st_size <= 1024
    with pytest.raises(CheckpointError):
        load_arrays(str(path))  # strip and load_clean read through this one
    with pytest.raises(CheckpointError):
        read_checkpoint(str(path))


def test_the_381_byte_billion_laughs_is_refused_for_its_shared_references(tmp_path):
    path = tmp_path / "laughs.pdparams"
    path.write_bytes(billion_laughs(40))
    assert path.stat().st_size == 381
    assert pickle.loads(billion_laughs(3))["fc.wt"] == [[[[], []], [[], []]], [[[], []], [[], []]]]  # real
    with pytest.raises(CheckpointError, match="nested deeper"):
        read_checkpoint(str(path))
    path.write_bytes(billion_laughs(24))  # within the depth limit, 2**24 lists for repr
    with pytest.raises(CheckpointError, match="expand to more than"):
        read_checkpoint(str(path))


def test_bytearray8_declaring_6_gb_fails_before_allocating(tmp_path):
    path = tmp_path / "b8.pdparams"
    path.write_bytes(bytearray8_header())
    assert path.stat().st_size == 22
    # Under a 1 GiB address-space limit an allocation of 6 GB would be a MemoryError, not this message.
    code = ("import resource, sys\nresource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
            "from paddle_doctor.ckpt import read_checkpoint\n"
            "try:\n    read_checkpoint(sys.argv[1])\nexcept Exception as e:\n    print(e)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert "6,300,000,000 bytes is declared" in proc.stdout, (proc.stdout, proc.stderr[-1000:])


def test_strip_of_a_tiny_file_never_writes_hundreds_of_megabytes(tmp_path):
    path = tmp_path / "tiny.pdparams"
    path.write_bytes(reconstruct_huge())
    assert path.stat().st_size <= 82
    real = pickle.loads(path.read_bytes())["m.w"]  # the stock unpickler makes a 600 MB array of it
    assert real.nbytes == 600_000_000
    del real
    with pytest.raises(CheckpointError, match="_reconstruct with shape"):
        strip_checkpoint(str(path), out=str(tmp_path / "out.pdparams"), prefix="m.")
    with pytest.raises(CheckpointError, match="more than the whole file"):  # the array reader checks on its own
        load_arrays(str(path))
    assert not (tmp_path / "out.pdparams").exists()


def test_the_description_of_an_extra_is_bounded(tmp_path):
    path = tmp_path / "opt.pdopt"
    pickle.dump({"w": np.zeros(2, "float32"), "LR_Scheduler": {"history": list(range(5000)), "name": "x" * 10_000}},
                open(path, "wb"), protocol=4)
    assert len(read_checkpoint(str(path)).extras["LR_Scheduler"]) <= 60


def test_real_checkpoints_are_within_every_budget(made):
    for name in ("resnet18.p2.pdparams", "resnet18.p3.pdparams", "resnet18.p4.pdparams", "mlp.pdopt", "split.p2.pdparams"):
        assert read_checkpoint(str(made.path(name))).tensors
        assert load_arrays(str(made.path(name)))


# lesser items

def test_object_arrays_and_numpy_scalars_are_refused_by_both_readers(tmp_path):
    for value in (np.array([1, "a", None], dtype=object), np.float32(3.0)):
        path = tmp_path / "x.pdparams"
        pickle.dump({"w": value}, open(path, "wb"), protocol=4)
        with pytest.raises(UnsafeCheckpointError):
            load_arrays(str(path))
        with pytest.raises(UnsafeCheckpointError):
            read_checkpoint(str(path))


@pytest.mark.parametrize("protocol", [0, 1])
def test_a_hostile_protocol_0_or_1_pickle_is_reported_unsafe(tmp_path, protocol, run_cli):
    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'ran'}",))

    path = tmp_path / "old.pdparams"
    path.write_bytes(pickle.dumps({"w": Payload()}, protocol=protocol))
    proc = run_cli("ckpt", "inspect", path)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "refused" in err and "system" in err and "nothing from the file ran" in err, err
    with pytest.raises(UnsafeCheckpointError):
        load_arrays(str(path))
    assert not (tmp_path / "ran").exists()
    path.write_bytes(b"hello world, a text file\n")  # text still reads as "not a checkpoint"
    with pytest.raises(CheckpointError, match="not a checkpoint"):
        read_checkpoint(str(path))


def test_strip_prefix_ends_at_a_dot(tmp_path):
    path = tmp_path / "m.pdparams"
    pickle.dump({"layer.0.weight": np.ones(2, "float32"), "layer1.0.weight": np.ones(2, "float32")},
                open(path, "wb"), protocol=4)
    done = strip_checkpoint(str(path), out=str(tmp_path / "out.pdparams"), prefix="layer")
    assert done.facts["prefix"] == "layer." and done.facts["renamed"] == 1
    assert set(read_checkpoint(str(tmp_path / "out.pdparams")).tensors) == {"0.weight", "layer1.0.weight"}


def test_diff_names_each_side_the_same_way_whatever_the_order(tmp_path, run_cli):
    a, b = tmp_path / "a.pdparams", tmp_path / "b.pdparams"
    pickle.dump({"x.weight": np.ones(2, "float32"), "only_a.weight": np.ones(2, "float32")}, open(a, "wb"))
    pickle.dump({"x.weight": np.ones(2, "float32"), "only_b.weight": np.ones(2, "float32")}, open(b, "wb"))
    ab = json.loads(run_cli("ckpt", "diff", a, b, "--format", "json").stdout)["findings"]
    ba = json.loads(run_cli("ckpt", "diff", b, a, "--format", "json").stdout)["findings"]
    said = {f["code"]: f["message"] for f in ab}
    assert "only in A: only_a.weight" in said["ckpt-only-in-source"]
    assert "only in B: only_b.weight" in said["ckpt-only-in-target"]
    swapped = {f["code"]: f["message"] for f in ba}
    assert "only in A: only_b.weight" in swapped["ckpt-only-in-source"]
    assert {f["severity"] for f in ab} == {f["severity"] for f in ba} == {"warning"}
    assert not any("missing" in f["message"] or "unexpected" in f["message"] for f in ab + ba)


def test_a_full_disk_names_the_file_it_could_not_write(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from paddle_doctor.cli.main import cli
    from paddle_doctor.ckpt import strip

    path = tmp_path / "m.pdparams"
    pickle.dump({"module.w": np.ones(2, "float32"), "module.b": np.ones(2, "float32")}, open(path, "wb"), protocol=4)

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(strip.pickle, "dump", full)
    result = CliRunner().invoke(cli, ["ckpt", "strip", str(path), "-o", str(tmp_path / "out.pdparams")])
    assert result.exit_code == 2
    assert "No space left on device: " + str(tmp_path / "out.pdparams") in result.stderr, result.stderr
    assert "None" not in result.stderr


def test_deeply_nested_json_in_an_index_or_a_safetensors_header_is_one_clear_error(tmp_path, run_cli):
    nested = "[" * 100_000 + "]" * 100_000
    index = tmp_path / "model.safetensors.index.json"
    index.write_text('{"weight_map": ' + nested + "}")
    header = ('{"w": ' + nested + "}").encode()
    st = tmp_path / "w.safetensors"
    st.write_bytes(struct.pack("<Q", len(header)) + header)
    for path in (index, st):
        with pytest.raises(CheckpointError):
            read_checkpoint(str(path))
        err = run_cli("ckpt", "inspect", path).stderr.decode()
        assert err.count("\n") == 1 and "internal error" not in err and "Traceback" not in err, err
