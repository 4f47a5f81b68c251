"""Bad input never ends in a traceback: one clear line and exit 2, or a partial verdict that says
what it skipped. Inputs are never modified."""

import hashlib
import os

import pytest

from paddle_doctor.diagnose import DiagnoseInputError, diagnose_paths

TRACEBACK = b"Traceback (most recent call last)"


def _one_line_error(proc):
    assert proc.returncode == 2, proc
    assert TRACEBACK not in proc.stderr
    err = proc.stderr.decode().strip()
    assert err.startswith("paddle-doctor diagnose: error:") and "\n" not in err
    return err


def test_missing_path(run_cli, tmp_path):
    err = _one_line_error(run_cli("diagnose", tmp_path / "nope"))
    assert "no such file" in err


def test_empty_dir(run_cli, tmp_path):
    err = _one_line_error(run_cli("diagnose", tmp_path))
    assert "no log files" in err


def test_binary_file(run_cli, tmp_path):
    f = tmp_path / "model.pdparams"
    f.write_bytes(b"\x80\x04\x95\x00\x00\x00" * 100)
    err = _one_line_error(run_cli("diagnose", f))
    assert "binary" in err


def test_non_utf8_bytes_are_read(run_cli, tmp_path):
    f = tmp_path / "workerlog.0"
    f.write_bytes(b"\xff\xfe caf\xe9\nTraceback (most recent call last):\nValueError: bad \xe9 value\n")
    proc = run_cli("diagnose", "--format", "json", f)
    assert proc.returncode == 0, proc.stderr
    assert b"ValueError" in proc.stdout


def test_huge_single_line(tmp_path):
    f = tmp_path / "terminal.out"
    with open(f, "wb") as out:
        out.write(b"x" * (100 << 20))
        out.write(b" MemoryError: cannot allocate\n")
    d = diagnose_paths([str(f)])
    assert d.root_cause.cause == "host_out_of_memory"
    assert len(d.root_cause.evidence[0].text) < 2000


def test_unreadable_file_is_skipped_with_partial_verdict(tmp_path, monkeypatch):
    (tmp_path / "workerlog.0").write_text("ValueError: real cause\n")
    bad = tmp_path / "workerlog.1"
    bad.write_text("x\n")
    if os.geteuid() != 0:
        bad.chmod(0)
    else:  # root reads anything: make the open fail the way a permission error does
        import paddle_doctor.diagnose.read.opener as opener

        real_open = opener.open_regular
        monkeypatch.setattr(opener, "open_regular", lambda p: (_ for _ in ()).throw(
            PermissionError(13, "Permission denied", str(p))) if str(p).endswith(".1") else real_open(p))
    d = diagnose_paths([str(tmp_path)])
    assert d.root_cause.cause == "python_exception"
    assert any("workerlog.1" in s and "Permission denied" in s for s in d.skipped)


def test_only_unreadable_input_is_an_input_error(tmp_path):
    f = tmp_path / "x.bin"
    f.write_bytes(b"\x00\x01" * 10)
    with pytest.raises(DiagnoseInputError):
        diagnose_paths([str(f)])


def test_stdin(run_cli):
    proc = run_cli("diagnose", "-", stdin=b"Out of memory error on GPU 0. Cannot allocate 80.000000MB memory on GPU 0\n")
    assert proc.returncode == 0
    assert proc.stdout.decode().splitlines()[0].startswith("VERDICT")
    assert "gpu_oom" in proc.stdout.decode()


def test_inputs_never_modified(run_cli, tmp_path):
    log = tmp_path / "log"
    log.mkdir()
    (log / "workerlog.0").write_text("RuntimeError: [/x/pair.cc:584] TIMEOUT self_rank = 0 pair_rank = 1\n")
    (log / "workerlog.1").write_text("Traceback (most recent call last):\nKeyError: 'x'\n")
    before = {p: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in log.iterdir()}
    run_cli("diagnose", log)
    after = {p: (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns) for p in log.iterdir()}
    assert before == after


def test_no_failure_found(run_cli, tmp_path):
    f = tmp_path / "workerlog.0"
    f.write_text("epoch 1 step 10 loss 0.5\nepoch 1 step 20 loss 0.4\n")
    proc = run_cli("diagnose", "--format", "json", f)
    assert proc.returncode == 0
    assert b'"verdict": "no_failure_found"' in proc.stdout
