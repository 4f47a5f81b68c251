"""The ckpt commands as a user runs them: output, exit codes (0 clean, 1 mismatch, 2 bad input)."""

from __future__ import annotations

import json

import pytest


def _json(proc):
    assert proc.stderr.count(b"Traceback") == 0, proc.stderr.decode()
    return json.loads(proc.stdout)


def test_inspect_text_and_json(made, run_cli):
    proc = run_cli("ckpt", "inspect", made.path("student.pdparams"))
    out = proc.stdout.decode()
    assert proc.returncode == 0, proc.stderr
    n = len(made.state)
    params = sum(v.size for v in made.state.values())
    mib = sum(v.nbytes for v in made.state.values()) / 2**20
    assert out.splitlines()[0].endswith(f"pickle protocol 4, {n} tensors, {params:,} parameters ({mib:.1f} MiB)")
    assert "prefix: 'student.' (shared by every key)" in out
    row = next(line for line in out.splitlines() if line.split()[:1] == ["student.fc.weight"])
    assert row.split()[1:] == ["[512,", "1000]", "float32"]
    data = _json(run_cli("ckpt", "inspect", made.path("module.p2.pdparams"), "--format", "json"))
    assert data["prefix"] == "module." and data["protocol"] == 2 and data["num_tensors"] == n
    assert data["tensors"]["module.fc.weight"] == {"shape": [512, 1000], "dtype": "float32", "nbytes": 2048000}
    assert "\x1b[" not in proc.stdout.decode()


def test_inspect_limit(made, run_cli):
    out = run_cli("ckpt", "inspect", made.path("resnet18.p4.pdparams"), "--limit", "3").stdout.decode()
    assert "... " in out and "more (--limit 0 shows all)" in out


def test_check_clean_and_prefixed(made, run_cli):
    ok = run_cli("ckpt", "check", made.path("resnet18.p4.pdparams"), "--model", "paddle.vision.models:resnet18", timeout=120)
    assert ok.returncode == 0 and ok.stdout.decode().startswith("OK: all"), ok.stderr
    bad = run_cli("ckpt", "check", made.path("student.pdparams"), "--model", "paddle.vision.models:resnet18",
                  "--format", "json", timeout=120)
    assert bad.returncode == 1
    data = _json(bad)
    assert data["ok"] is False and data["alignment"]["strip"] == "student."
    assert [f["code"] for f in data["findings"]] == ["ckpt-prefix"]
    assert data["findings"][0]["cause"] == "state_dict_prefix_mismatch"
    assert "paddle-doctor ckpt strip" in data["findings"][0]["fix"]


def test_check_split_pieces(made, run_cli):
    proc = run_cli("ckpt", "check", made.path("split.p2.pdparams"), "--model", "paddle.vision.models:resnet18",
                   "--format", "json", timeout=120)
    data = _json(proc)
    assert proc.returncode == 1 and [f["code"] for f in data["findings"]] == ["ckpt-prefix"]
    assert data["findings"][0]["facts"]["matched"] == len(made.state)  # fc.weight counted once, re-joined


def test_check_shape_mismatch_with_a_factory_file(made, run_cli, tmp_path):
    factory = tmp_path / "mymodels.py"
    factory.write_text("import paddle\n\ndef build():\n    return paddle.vision.models.resnet18(num_classes=10)\n")
    proc = run_cli("ckpt", "check", made.path("resnet18.p2.pdparams"), "--model", f"{factory}:build", timeout=120)
    out = proc.stdout.decode()
    assert proc.returncode == 1, proc.stderr
    assert "ckpt-shape [state_dict_shape_mismatch]" in out and "fc.weight [512, 1000] vs [512, 10]" in out
    assert out.rstrip().splitlines()[-1].startswith("MISMATCH:")


@pytest.mark.parametrize("spec,expected", [("nomodule_xyz:build", "cannot import"),
                                           ("paddle.vision.models:nothing", "no attribute"),
                                           ("paddle.vision.models", "expected module:factory"),
                                           ("json:dumps", "")])
def test_check_bad_model_spec(made, run_cli, spec, expected):
    proc = run_cli("ckpt", "check", made.path("resnet18.p4.pdparams"), "--model", spec, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert expected in err


def test_diff(made, run_cli):
    same = run_cli("ckpt", "diff", made.path("resnet18.p2.pdparams"), made.path("resnet18.safetensors"))
    assert same.returncode == 0 and same.stdout.decode().startswith("SAME:"), same.stdout
    other = run_cli("ckpt", "diff", made.path("resnet18.p4.pdparams"), made.path("mlp.pdopt"), "--format", "json")
    assert other.returncode == 1
    codes = [f["code"] for f in _json(other)["findings"]]
    assert "ckpt-only-in-target" in codes and "ckpt-only-in-source" in codes
    aligned = _json(run_cli("ckpt", "diff", made.path("module.p2.pdparams"), made.path("student.pdparams"), "--format", "json"))
    assert aligned["alignment"] == {"strip": "module.", "add": "student."}
    assert [f["code"] for f in aligned["findings"]] == ["ckpt-prefix"]


def test_strip_cli(made, run_cli, tmp_path):
    out = tmp_path / "clean.pdparams"
    proc = run_cli("ckpt", "strip", made.path("student.pdparams"), "-o", out)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith(f"stripped 'student.' from {len(made.state)} of {len(made.state)} keys")
    check = run_cli("ckpt", "check", out, "--model", "paddle.vision.models:resnet18", timeout=120)
    assert check.returncode == 0, check.stdout
    refused = run_cli("ckpt", "strip", made.path("resnet18.p4.pdparams"), "-o", tmp_path / "x.pdparams")
    assert refused.returncode == 2 and b"--prefix" in refused.stderr


def test_help_lists_ckpt(run_cli):
    out = run_cli("--help").stdout.decode()
    assert "ckpt" in out
    sub = run_cli("ckpt", "--help").stdout.decode()
    assert all(name in sub for name in ("inspect", "check", "diff", "strip"))
