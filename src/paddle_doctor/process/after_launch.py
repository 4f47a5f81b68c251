"""Diagnose what a launch left behind: the one "launch, then diagnose" of ``run``, ``smoke`` and
``triage``.

A launch failed when it exited non-zero or a worker left an error record (the rule of
``paddle-doctor run``'s supervisor). What it left is its log dir and what it printed: a file
(``smoke``, ``triage``: ``terminal.out`` beside ``log/``), or only a tail in memory when the output
went straight to the user's terminal (``run``). Diagnose is imported when a diagnosis is made, so
that starting a launch stays cheap; nothing here imports paddle.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from paddle_doctor.contract import FAULT_PREFIX, RECORD_PREFIX
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


def sizes_before(log_dir: Path) -> dict[str, int]:
    """The size of every file under ``log_dir`` before a launch (paths as diagnose names them):
    the launcher appends to ``workerlog.N``, so only what lies past them is this launch's."""
    sizes: dict[str, int] = {}
    for dirpath, _, names in os.walk(str(log_dir)):
        for name in names:
            if name.startswith((RECORD_PREFIX, FAULT_PREFIX)):
                continue  # removed before every launch: a record there is this launch's
            try:
                sizes[str(Path(dirpath, name))] = os.stat(os.path.join(dirpath, name)).st_size
            except OSError:
                continue
    return sizes


def diagnose_launch(log_dir: Path, output: Path | bytes, before: Mapping[str, int] | None = None) -> Diagnosis:
    """The diagnosis of a finished launch; raises ``DiagnoseInputError`` when nothing is readable.

    ``output`` is the file its output went to (read beside the log dir), or the tail of an
    output that went to the terminal: that tail is read only when the log dir holds no worker
    log, since the worker logs hold the same lines and more. ``before`` (:func:`sizes_before`):
    only what the launch added to the files is read.
    """
    from ..diagnose.paths import diagnose_paths
    from ..diagnose.read.launches import LaunchChoice
    from ..diagnose.read.sources import DiagnoseInputError

    choice = LaunchChoice(since=dict(before or {}))
    if isinstance(output, Path):
        return diagnose_paths([str(p) for p in (log_dir, output) if p.exists()], launch=choice)
    if has_worker_logs(log_dir, before):
        return diagnose_paths([str(log_dir)], launch=choice)
    if not output.strip():
        raise DiagnoseInputError(f"the command printed nothing and wrote nothing to {log_dir}")
    return diagnose_paths(["-"], stdin=output)


def has_worker_logs(log_dir: Path, before: Mapping[str, int] | None = None) -> bool:
    """Whether ``log_dir`` holds a worker log (one this launch wrote to, given ``before``)."""
    if not log_dir.is_dir():
        return False
    logs = [p for p in log_dir.iterdir() if p.name.startswith("workerlog")]
    if before is None:
        return bool(logs)
    return any(_grew(p, before) for p in logs)


def _grew(path: Path, before: Mapping[str, int]) -> bool:
    try:
        return path.stat().st_size != before.get(str(path), -1)
    except OSError:
        return False


def launch_then_diagnose(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], log_dir: Path,
                         output: Path, timeout: float) -> DiagnosedLaunch:
    """Run ``cmd`` bounded by ``timeout`` s (its output to ``output``; its ``--log_dir`` is
    ``log_dir``), then diagnose what it left when it failed."""
    from ..diagnose.read.sources import DiagnoseInputError

    before = sizes_before(log_dir)
    launch = run_bounded(cmd, cwd=cwd, env=env, output=output, timeout=timeout)
    records = error_records(log_dir)
    diagnosis = None
    if launch.returncode != 0 or records:
        try:
            diagnosis = diagnose_launch(log_dir, output, before)
        except DiagnoseInputError:
            pass  # nothing readable: the caller reports the exit code alone
    return DiagnosedLaunch(launch, log_dir, records, diagnosis)
