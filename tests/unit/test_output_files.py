"""Output files and streams (issue 30): a full disk is one line and exit 2, ``--html -`` is stdout,
a device node, a FIFO or a symlink is written through (never replaced by an atomic rename), errors
name the real cause, and no error echoes a file's first bytes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RUN_LOG = str(REPO / "tests" / "fixtures" / "run_records" / "log")
LINT_FILE = str(REPO / "tests" / "unit" / "lint" / "fixtures" / "checker" / "seed_001_s5_multicard_eval.py")


def _cli(*args: str, cwd: Path | None = None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60, cwd=cwd)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [("diagnose", RUN_LOG), ("lint", LINT_FILE), ("explain", "--list")])
def test_a_full_disk_on_stdout_is_one_line_and_exit_2(args):
    with open("/dev/full", "w") as full:
        proc = _cli(*args, stdout=full)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == ["paddle-doctor: error: cannot write the output: No space left on device"]


def test_a_device_node_is_written_in_place_and_stays_a_device(tmp_path):
    node = tmp_path / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))  # the numbers of /dev/full
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    proc = _cli("diagnose", "--html", str(node), RUN_LOG)
    assert proc.returncode == 2 and proc.stderr.strip() == \
        f"paddle-doctor diagnose: error: cannot write {node}: No space left on device"
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_a_fifo_gets_the_page_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    proc = _cli("diagnose", "--html", str(fifo), RUN_LOG)
    reader.join(30)
    assert proc.returncode == 0 and got and got[0].startswith("<!DOCTYPE html>")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_symlink_stays_a_link_and_its_target_gets_the_page(tmp_path):
    target, link = tmp_path / "target.html", tmp_path / "link.html"
    target.write_text("old")
    link.symlink_to(target)
    assert _cli("diagnose", "--html", str(link), RUN_LOG).returncode == 0
    assert link.is_symlink() and target.read_text().startswith("<!DOCTYPE html>")


def test_a_regular_file_is_replaced_whole_and_no_temp_file_is_left(tmp_path):
    page = tmp_path / "report.html"
    page.write_text("old")
    assert _cli("diagnose", "--html", str(page), RUN_LOG).returncode == 0
    assert page.read_text().startswith("<!DOCTYPE html>") and sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_html_dash_is_stdout_and_the_report_goes_to_stderr(tmp_path):
    proc = _cli("diagnose", "--html", "-", RUN_LOG, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("<!DOCTYPE html>")
    assert proc.stderr.startswith("VERDICT") and not (tmp_path / "-").exists()


def test_a_file_where_a_folder_should_be_is_not_a_directory(tmp_path):
    (tmp_path / "passwd").write_text("root:x:0:0\n")
    proc = _cli("diagnose", "--html", str(tmp_path / "passwd" / "x.html"), RUN_LOG)
    assert proc.returncode == 2 and proc.stderr.strip().endswith("Not a directory"), proc.stderr


def test_ckpt_errors_never_echo_the_files_first_bytes(tmp_path):
    secret = tmp_path / "keys.txt"
    secret.write_text("ghp_notARealTokenButSecretLooking1234\n")
    proc = _cli("ckpt", "inspect", str(secret))
    assert proc.returncode == 2 and "not a checkpoint" in proc.stderr
    assert "ghp_" not in proc.stderr and "Secret" not in proc.stderr
