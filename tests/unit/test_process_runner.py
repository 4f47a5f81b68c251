"""The one process runner (paddle_doctor.process), with trivial non-paddle scripts: a worker that
left the launcher's session is still ended, a deadline ends the command gently first, and
"launch, then diagnose" diagnoses exactly the launches that failed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.process import tree
from paddle_doctor.process.after_launch import diagnose_launch, launch_then_diagnose
from paddle_doctor.process.bounded_run import TERM_WAIT_S, run_bounded

# A "launcher" that starts a "worker" in a session of its own (as Paddle's launchers do with
# os.setsid), writes the worker's pid, and exits at once: only the tag can find the worker.
LEAVES_A_WORKER = textwrap.dedent("""
    import subprocess, sys
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
    open(sys.argv[1], "w").write(str(worker.pid))
""")


def _alive(pid: int) -> bool:
    """True while the process runs (a zombie, waiting for init to reap it, is not alive)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2:].split()[0] not in ("Z", "X")


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "script.py"
    path.write_text(body)
    return str(path)


def test_a_worker_in_its_own_session_is_ended_with_the_launch(tmp_path):
    pid_file = tmp_path / "worker.pid"
    run = run_bounded([sys.executable, _script(tmp_path, LEAVES_A_WORKER), str(pid_file)], cwd=tmp_path,
                      env=os.environ, output=tmp_path / "out.txt", timeout=30)
    assert run.returncode == 0 and not run.timed_out, run.text()
    worker = int(pid_file.read_text())
    assert os.getpgid(os.getpid()) != worker  # it really was in a group of its own
    deadline = time.monotonic() + 5
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker), f"worker {worker} outlived its launch"


def test_a_deadline_ends_the_command_gently_first(tmp_path):
    """SIGTERM first (Paddle writes its crash dump then), the command's own handler runs."""
    body = textwrap.dedent("""
        import signal, sys, time
        def dump(*_):
            print("crash dump written", flush=True)
            sys.exit(143)
        signal.signal(signal.SIGTERM, dump)
        print("started", flush=True)
        time.sleep(120)
    """)
    start = time.monotonic()
    run = run_bounded([sys.executable, _script(tmp_path, body)], cwd=tmp_path, env=os.environ,
                      output=tmp_path / "out.txt", timeout=2)
    assert run.timed_out and run.returncode is None
    assert "crash dump written" in run.text(), run.text()
    assert time.monotonic() - start < 2 + TERM_WAIT_S + 5


def _wait_stopped(pid: int, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat") as stat:
            if stat.read().rsplit(")", 1)[1].split()[0] == "T":
                return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} did not stop within {limit} s")


def test_grace_zero_kills_a_stopped_process_at_once(tmp_path):
    """A SIGSTOPped rank never handles SIGTERM: with grace 0 nothing waits for it to."""
    tag = tree.new_tag()
    proc = tree.start([sys.executable, "-c", "import time; time.sleep(120)"], tmp_path,
                      tree.tagged_env(os.environ, tag), subprocess.PIPE, subprocess.PIPE)
    os.kill(proc.pid, signal.SIGSTOP)
    # Stopped means its exec is over: Popen returns when the exec closes its error pipe, which the kernel does before
    # it sets the new program's environment, so /proc/PID/environ can read empty for a moment on a loaded machine.
    _wait_stopped(proc.pid)
    assert tree.tagged_pids(tag) == [proc.pid]
    tree.end_all([proc], tag, grace=0)
    assert proc.returncode == -signal.SIGKILL and tree.tagged_pids(tag) == []


def test_only_a_failed_launch_is_diagnosed(tmp_path):
    ok = launch_then_diagnose([sys.executable, "-c", "print('fine')"], cwd=tmp_path, env=os.environ,
                              log_dir=tmp_path / "ok" / "log", output=tmp_path / "ok" / "terminal.out", timeout=30)
    assert ok.passed and ok.diagnosis is None and ok.launch.text() == "fine\n"
    failed = launch_then_diagnose([sys.executable, "-c", "raise ValueError('boom')"], cwd=tmp_path,
                                  env=os.environ, log_dir=tmp_path / "bad" / "log",
                                  output=tmp_path / "bad" / "terminal.out", timeout=30)
    assert not failed.passed and failed.launch.returncode == 1
    assert failed.diagnosis is not None and failed.diagnosis.root_cause.cause == CauseId.python_exception


def test_an_error_record_fails_a_launch_that_exited_0(tmp_path):
    """The rule of `paddle-doctor run`: a worker's error record is a failure whatever the exit code."""
    log_dir = tmp_path / "log"
    body = f"import pathlib; d = pathlib.Path({str(log_dir)!r}); d.mkdir(); (d / 'paddle_doctor_error.0.json').write_text('{{}}')"
    done = launch_then_diagnose([sys.executable, "-c", body], cwd=tmp_path, env=os.environ, log_dir=log_dir,
                                output=tmp_path / "terminal.out", timeout=30)
    assert done.launch.returncode == 0 and done.records == (log_dir / "paddle_doctor_error.0.json",)
    assert not done.passed


def test_a_tail_is_read_only_where_the_log_dir_has_no_worker_log(tmp_path):
    tail = b"Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\nValueError: boom\n"
    from_tail = diagnose_launch(tmp_path / "no_log_dir", tail)
    assert from_tail.root_cause.cause == CauseId.python_exception
    log_dir = tmp_path / "log"
    log_dir.mkdir()
    (log_dir / "workerlog.0").write_text("I1201 10:00:00.000000  1 init.cc:1] all good\n")
    from_logs = diagnose_launch(log_dir, tail)  # the worker logs only: they say nothing failed
    assert from_logs.root_cause is None, from_logs.root_cause
