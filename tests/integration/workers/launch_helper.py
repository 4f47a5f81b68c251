"""Run a worker script under the real launcher and always clean up (used by the evaluate tests).

The launcher runs in its own session (start_new_session) and its workers in sessions of their
own (Paddle calls setsid), so the end kills the launcher's process group and every process that
carries this run's tag in its environment, by id (``paddle_doctor.lab._procs``); never by name.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from paddle_doctor.lab import _procs

WORKERS = Path(__file__).resolve().parent


def run_launcher(worker: str, nproc: int, work: Path, args: list[str], timeout: float) -> tuple[int | None, str, float]:
    """(launcher exit code or None on timeout, what it printed, wall seconds)."""
    tag = _procs.new_tag()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    env.update({_procs.TAG_VAR: tag, "PYTHONUNBUFFERED": "1", "OMP_NUM_THREADS": "1"})
    cmd = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", str(nproc),
           "--log_dir", str(work / "log"), str(WORKERS / worker), *args]
    terminal = work / "terminal.out"
    start = time.monotonic()
    proc = _procs.start(cmd, work, env, terminal)
    try:
        finished = _procs.wait_until([proc], time.monotonic() + timeout)
        code = proc.returncode if finished else None
    finally:
        _procs.end_all([proc], tag)
    return code, terminal.read_text(errors="replace"), time.monotonic() - start


def run_plain(worker: str, work: Path, args: list[str], timeout: float) -> subprocess.CompletedProcess:
    """The same worker in one process, without the launcher."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    return subprocess.run([sys.executable, str(WORKERS / worker), *args], cwd=work, env=env,
                          capture_output=True, text=True, timeout=timeout)


def worker_logs(work: Path) -> str:
    """Every workerlog's tail, for assertion messages."""
    logs = sorted((work / "log").glob("workerlog.*"))
    return "\n".join(f"--- {p.name}\n" + p.read_text(errors="replace")[-3000:] for p in logs)
