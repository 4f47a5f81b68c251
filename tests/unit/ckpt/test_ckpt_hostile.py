"""Hostile and broken files: a clear one-line error and exit 2, and proof that nothing ran.

Each payload is first loaded by the standard ``pickle.load`` in a child process, which must create
its canary file (so the payload is real), then by ``paddle-doctor ckpt inspect`` (and the
array loader behind ``strip`` / ``load_clean``), after which its canary must not exist.
"""

from __future__ import annotations

import marshal
import pickle
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from paddle_doctor.ckpt import read_checkpoint
from paddle_doctor.ckpt.arrays import load_arrays
from paddle_doctor.errors import CheckpointError, UnsafeCheckpointError


def _text(s: str) -> bytes:  # BINUNICODE
    data = s.encode()
    return b"X" + struct.pack("<I", len(data)) + data


def _global(module: str, name: str) -> bytes:
    return b"c" + module.encode() + b"\n" + name.encode() + b"\n"


def _wrap(value: bytes) -> bytes:
    """A protocol-2 state dict {'fc.weight': <value>} around a payload, as a real file would hide it."""
    return b"\x80\x02}" + _text("fc.weight") + value + b"s."


def _touch_code(canary: str) -> str:
    return f"open({canary!r}, 'w').write('ran')"


def payload_os_system(canary: str) -> bytes:
    return _wrap(_global("os", "system") + b"(" + _text(f"touch {canary}") + b"tR")


def payload_posix_system(canary: str) -> bytes:  # what pickle writes for os.system on Linux
    return _wrap(_global("posix", "system") + b"(" + _text(f"touch {canary}") + b"tR")


def payload_eval(canary: str) -> bytes:
    return _wrap(_global("builtins", "eval") + b"(" + _text(_touch_code(canary)) + b"tR")


def payload_eval_with_data_namespace(canary: str) -> bytes:
    # Paddle's own eval('data', {'data': ...}) shape, with another expression: must still be refused.
    return _wrap(_global("builtins", "eval") + b"(" + _text(_touch_code(canary)) + b"}" + _text("data")
                 + b"K\x01stR")


def payload_subprocess(canary: str) -> bytes:
    return _wrap(_global("subprocess", "Popen") + b"((" + _text("touch") + _text(canary) + b"ltR")


def payload_marshal_function(canary: str) -> bytes:
    code = marshal.dumps(compile(_touch_code(canary), "<x>", "exec"))
    code_obj = _global("marshal", "loads") + b"(B" + struct.pack("<I", len(code)) + code + b"tR"
    function = _global("types", "FunctionType") + b"(" + code_obj + b"}tR"
    return _wrap(function + b")R")


def payload_nested_reduce(canary: str) -> bytes:
    os_module = _global("builtins", "__import__") + b"(" + _text("os") + b"tR"
    system = _global("builtins", "getattr") + b"(" + os_module + _text("system") + b"tR"
    return _wrap(system + b"(" + _text(f"touch {canary}") + b"tR")


def payload_hidden_in_array(canary: str) -> bytes:
    # numpy's _reconstruct is allowed; a call hidden in its arguments is not.
    evil = _global("os", "system") + b"(" + _text(f"touch {canary}") + b"tR"
    return _wrap(_global("numpy._core.multiarray", "_reconstruct") + b"(" + evil + b"tR")


def payload_inst_opcode(canary: str) -> bytes:
    # INST: build an instance of any class by name; Paddle never writes it.
    return _wrap(b"(" + _text(f"touch {canary}") + b"ios\nsystem\n")


PAYLOADS = {
    "os.system": (payload_os_system, "os.system"),
    "posix.system": (payload_posix_system, "posix.system"),
    "builtins.eval": (payload_eval, "builtins.eval"),
    "eval-in-paddle-shape": (payload_eval_with_data_namespace, "builtins.eval"),
    "subprocess.Popen": (payload_subprocess, "subprocess.Popen"),
    "marshal+FunctionType": (payload_marshal_function, "types.FunctionType"),
    "nested-reduce": (payload_nested_reduce, "builtins.getattr"),
    "reconstruct-gadget": (payload_hidden_in_array, "os.system"),
    "INST-opcode": (payload_inst_opcode, "INST"),
}


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_hostile_pickle_is_refused_and_nothing_runs(name, tmp_path, run_cli):
    make, named = PAYLOADS[name]
    stock_canary, our_canary = tmp_path / "stock-ran", tmp_path / "ours-ran"
    # The payload is real: the standard unpickler runs it.
    real = tmp_path / "real.pdparams"
    real.write_bytes(make(str(stock_canary)))
    subprocess.run([sys.executable, "-c", f"import pickle; pickle.load(open({str(real)!r}, 'rb'))"],
                   capture_output=True, timeout=60)
    assert stock_canary.exists(), f"{name}: the payload does not even run under pickle.load"

    hostile = tmp_path / "model.pdparams"
    hostile.write_bytes(make(str(our_canary)))
    proc = run_cli("ckpt", "inspect", hostile)
    err = proc.stderr.decode()
    assert proc.returncode == 2, (proc.stdout, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert named in err and "nothing from the file ran" in err, err
    with pytest.raises(UnsafeCheckpointError):
        load_arrays(str(hostile))  # the loader behind strip and load_clean
    with pytest.raises(UnsafeCheckpointError):
        read_checkpoint(str(hostile))
    assert not our_canary.exists(), f"{name}: code from the file ran"


def test_strip_and_check_refuse_too(tmp_path, run_cli):
    canary = tmp_path / "ran"
    hostile = tmp_path / "model.pdparams"
    hostile.write_bytes(payload_eval(str(canary)))
    for args in (("strip", hostile, "-o", tmp_path / "out.pdparams", "--prefix", "fc."),
                 ("check", hostile, "--model", "paddle.vision.models:resnet18"),
                 ("diff", hostile, hostile)):
        proc = run_cli("ckpt", *args, timeout=120)
        assert proc.returncode == 2 and b"builtins.eval" in proc.stderr, (args, proc.stderr)
    assert not canary.exists()
    assert not (tmp_path / "out.pdparams").exists()


@pytest.mark.needs_paddle
def test_load_clean_refuses_without_running(tmp_path):
    code = ("import paddle, paddle_doctor, sys\n"
            "m = paddle.nn.Linear(2, 2)\n"
            "try:\n    paddle_doctor.load_clean(m, sys.argv[1])\n"
            "except paddle_doctor.errors.UnsafeCheckpointError as e:\n    print('refused', e)\n")
    canary = tmp_path / "ran"
    hostile = tmp_path / "model.pdparams"
    hostile.write_bytes(payload_subprocess(str(canary)))
    proc = subprocess.run([sys.executable, "-c", code, str(hostile)], capture_output=True, text=True, timeout=120)
    assert "refused" in proc.stdout and "subprocess.Popen" in proc.stdout, proc.stderr[-2000:]
    assert not canary.exists()


def _broken_files(made, tmp_path: Path) -> dict[str, tuple[Path, str]]:
    good = made.path("resnet18.p4.pdparams").read_bytes()
    files = {
        "zero-byte": (b"", "empty"),
        "truncated-half": (good[: len(good) // 2], "ends early"),
        "truncated-header": (good[:40], "ends early"),
        "text-file": (b"model:\n  name: resnet18\n", "no pickle header"),
        "png": (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "no pickle header"),
        "garbage-after-proto": (b"\x80\x04\xfe\xfd\xfc" + b"\xff" * 8, "corrupt"),  # no such opcodes
        "huge-length": (b"\x80\x04B\xff\xff\xff\x7f" + b"\x00" * 8, "ends early"),  # BINBYTES of 2 GiB
        "protocol-0": (pickle.dumps({"a": 1}, protocol=0), "no pickle header"),
        "not-a-dict": (pickle.dumps([1, 2, 3], protocol=4), "not a state dict"),
    }
    st = made.path("resnet18.safetensors").read_bytes()
    files["safetensors-truncated"] = (st[: len(st) - 1000], "does not fit")
    out = {}
    for name, (data, expected) in files.items():
        path = tmp_path / f"{name}.pdparams"
        path.write_bytes(data)
        out[name] = (path, expected)
    return out


def test_broken_files_are_clear_errors(made, tmp_path, run_cli):
    for name, (path, expected) in _broken_files(made, tmp_path).items():
        with pytest.raises(CheckpointError) as caught:
            read_checkpoint(str(path))
        assert expected in str(caught.value), (name, str(caught.value))
        proc = run_cli("ckpt", "inspect", path)
        err = proc.stderr.decode()
        assert proc.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, (name, err)
        assert expected in err, (name, err)


def test_missing_file_is_file_not_found(tmp_path, run_cli):
    with pytest.raises(CheckpointError) as caught:
        read_checkpoint(str(tmp_path / "nope.pdparams"))
    assert caught.value.cause == "file_not_found"
    proc = run_cli("ckpt", "inspect", tmp_path / "nope.pdparams")
    assert proc.returncode == 2 and b"not found" in proc.stderr
