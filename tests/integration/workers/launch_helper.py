"""Run a worker script under the real launcher and always clean up (used by the evaluate tests).

The launch is ``paddle_doctor.process``'s bounded run: the launcher in its own session, its
workers (which Paddle puts in sessions of their own) found by this run's tag and ended by id,
never by name. The scripts import their kits as the ``workers`` package (see ``__init__``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from paddle_doctor.process.bounded_run import run_bounded
from workers import with_test_packages

WORKERS = Path(__file__).resolve().parent


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
    return with_test_packages({**env, **extra})


def run_launcher(worker: str, nproc: int, work: Path, args: list[str], timeout: float) -> tuple[int | None, str, float]:
    """(launcher exit code or None on timeout, what it printed, wall seconds)."""
    cmd = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", str(nproc),
           "--log_dir", str(work / "log"), str(WORKERS / worker), *args]
    env = _clean_env(PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1")
    run = run_bounded(cmd, cwd=work, env=env, output=work / "terminal.out", timeout=timeout)
    return run.returncode, run.text(), run.wall_s


def run_plain(worker: str, work: Path, args: list[str], timeout: float) -> subprocess.CompletedProcess:
    """The same worker in one process, without the launcher."""
    return subprocess.run([sys.executable, str(WORKERS / worker), *args], cwd=work, env=_clean_env(),
                          capture_output=True, text=True, timeout=timeout)


def worker_logs(work: Path) -> str:
    """Every workerlog's tail, for assertion messages."""
    logs = sorted((work / "log").glob("workerlog.*"))
    return "\n".join(f"--- {p.name}\n" + p.read_text(errors="replace")[-3000:] for p in logs)
