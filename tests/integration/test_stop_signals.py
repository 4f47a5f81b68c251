"""Issue 28 item 6: SIGTERM or SIGHUP to ``smoke`` or ``triage`` ends the whole launch (launcher,
ranks, their helpers), as Ctrl-C and ``run`` do; a SIGTERM to ``run`` during start-up is reported
as the stop it is, never diagnosed as the job's failure. Real launches, 2 ranks, bounded.

Every process of a launch inherits a mark this test puts in the environment of the command it
starts, so what is left afterwards is found by that mark (only this test's processes carry it)."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="paddlepaddle is not installed")]

MARK_VAR = "PDOC_TEST_STOP_MARK"
SLEEPER = """
import pathlib, sys, time
import paddle.distributed as dist
dist.init_parallel_env()
pathlib.Path(sys.argv[1], f"up.{dist.get_rank()}").write_text("up")
time.sleep(120)
"""
STARTING = """
import os, pathlib, sys, time
pathlib.Path(sys.argv[1], "starting." + os.environ.get("PADDLE_TRAINER_ID", "x")).write_text("x")
time.sleep(120)  # still before init_parallel_env: the job is starting up
"""


def _marked(mark: str) -> list[int]:
    needle = f"{MARK_VAR}={mark}".encode()
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    pids.append(int(name))
        except OSError:
            continue
    return pids


def _cmdlines(pids: list[int]) -> list[str]:
    out = []
    for pid in pids:
        try:
            out.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            pass
    return out


def _start(args: list[str], cwd: Path) -> tuple[subprocess.Popen, str]:
    mark = uuid.uuid4().hex
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", *map(str, args)]
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONWARNINGS": "ignore", MARK_VAR: mark})
    return proc, mark


def _wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def _stop_and_check_nothing_left(proc: subprocess.Popen, mark: str, sig: int) -> tuple[int, str]:
    try:
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        _wait_for(lambda: not _marked(mark), 15, "no process of the launch left")
    finally:
        left = _marked(mark)
        for pid in left:  # never leave them to the next test, whatever failed above
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        if proc.poll() is None:
            proc.kill()
    assert not left, _cmdlines(left)
    return proc.returncode, err


def _ranks_running(mark: str, script: str, n: int = 2):
    return lambda: sum(script in c and "paddle.distributed.launch" not in c for c in _cmdlines(_marked(mark))) >= n


@pytest.mark.timeout(180)
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_to_smoke_ends_the_whole_launch(tmp_path, sig):
    proc, mark = _start(["smoke", "--out", tmp_path / "smoke", "--timeout", 120], tmp_path)
    _wait_for(_ranks_running(mark, "smoke_worker.py"), 90, "both smoke ranks")  # main: they outlive smoke
    code, err = _stop_and_check_nothing_left(proc, mark, sig)
    assert code == 128 + sig, err
    assert f"stopped by {signal.Signals(sig).name}" in err


@pytest.mark.timeout(180)
def test_sigterm_to_triage_ends_the_rerun_it_was_running(tmp_path):
    (tmp_path / "sleeper.py").write_text(SLEEPER)
    proc, mark = _start(["triage", "--timeout", 100, "--out", tmp_path / "triage", "--", sys.executable, "-m",
                         "paddle.distributed.launch", "--nproc_per_node", 2, "sleeper.py", tmp_path], tmp_path)
    _wait_for(_ranks_running(mark, "sleeper.py"), 90, "both ranks of the first rerun")
    code, err = _stop_and_check_nothing_left(proc, mark, signal.SIGTERM)
    assert code == 128 + signal.SIGTERM, err
    assert "stopped by SIGTERM" in err and "no conclusion" in err


@pytest.mark.timeout(120)
def test_sigterm_to_run_during_start_up_is_reported_as_a_stop(tmp_path):
    (tmp_path / "starting.py").write_text(STARTING)
    proc, mark = _start(["run", "--", sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", 2,
                         "--log_dir", tmp_path / "log", "starting.py", tmp_path], tmp_path)
    _wait_for(lambda: len(list(tmp_path.glob("starting.*"))) >= 2, 90, "both ranks starting")
    code, err = _stop_and_check_nothing_left(proc, mark, signal.SIGTERM)
    assert code != 0
    assert "stopped by SIGTERM sent to paddle-doctor run" in err, err
    assert "VERDICT" not in err and "residual_dist_env" not in err and "Diagnosis" not in err, err
