"""Diagnose what a launch left behind: the one "launch, then diagnose" of ``run``, ``smoke`` and
``triage``.

A launch failed when it exited non-zero or a worker left an error record (the rule of
``paddle-doctor run``'s supervisor). What it left is its log dir and what it printed: a file
(``smoke``, ``triage``: ``terminal.out`` beside ``log/``), or only a tail in memory when the output
went straight to the user's terminal (``run``). Diagnose is imported when a diagnosis is made, so
that starting a launch stays cheap; nothing here imports paddle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from paddle_doctor.contract import RECORD_PREFIX
from paddle_doctor.process.bounded_run import BoundedRun, run_bounded

if TYPE_CHECKING:
    from paddle_doctor.findings import Diagnosis


@dataclass(frozen=True)
class DiagnosedLaunch:
    """One bounded launch and, when it failed, the diagnosis of its logs (None: it passed, or it
    left nothing diagnose can read)."""

    launch: BoundedRun
    log_dir: Path
    records: tuple[Path, ...]  # the workers' error records in log_dir
    diagnosis: Diagnosis | None

    @property
    def passed(self) -> bool:
        return self.launch.returncode == 0 and not self.records


def error_records(log_dir: Path) -> tuple[Path, ...]:
    return tuple(sorted(log_dir.glob(f"{RECORD_PREFIX}*.json"))) if log_dir.is_dir() else ()


def diagnose_launch(log_dir: Path, output: Path | bytes) -> Diagnosis:
    """The diagnosis of a finished launch; raises ``DiagnoseInputError`` when nothing is readable.

    ``output`` is the file its output went to (read beside the log dir), or the tail of an
    output that went to the terminal: that tail is read only when the log dir holds no worker
    log, since the worker logs hold the same lines and more.
    """
    from ..diagnose.paths import diagnose_paths

    if isinstance(output, Path):
        return diagnose_paths([str(p) for p in (log_dir, output) if p.exists()])
    return diagnose_paths([str(log_dir)]) if has_worker_logs(log_dir) else diagnose_paths(["-"], stdin=output)


def has_worker_logs(log_dir: Path) -> bool:
    return log_dir.is_dir() and any(p.name.startswith("workerlog") for p in log_dir.iterdir())


def launch_then_diagnose(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], log_dir: Path,
                         output: Path, timeout: float) -> DiagnosedLaunch:
    """Run ``cmd`` bounded by ``timeout`` s (its output to ``output``; its ``--log_dir`` is
    ``log_dir``), then diagnose what it left when it failed."""
    from ..diagnose.read.sources import DiagnoseInputError

    launch = run_bounded(cmd, cwd=cwd, env=env, output=output, timeout=timeout)
    records = error_records(log_dir)
    diagnosis = None
    if launch.returncode != 0 or records:
        try:
            diagnosis = diagnose_launch(log_dir, output)
        except DiagnoseInputError:
            pass  # nothing readable: the caller reports the exit code alone
    return DiagnosedLaunch(launch, log_dir, records, diagnosis)
