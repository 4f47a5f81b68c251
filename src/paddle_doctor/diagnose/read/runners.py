"""What mpirun and srun themselves say about the rank that failed (their lines carry no prefix).

- srun (Slurm src/srun/launch.c, ``"%s: %s %s: Exited with exit code %d"``, ``"%s: %s %s: %s%s"``
  with ``strsignal()`` and `` (core dumped)``, ``"%s: %s %s: Out Of Memory"``; hosts, "task" or
  "tasks", the task ids): ``srun: error: node07: task 1: Killed``.
- mpirun (Open MPI v4.1.6 orte/tools/orterun/help-orterun.txt:634 ``[orterun:non-zero-exit]``,
  ``Process name: [[jobid,job],rank]`` then ``Exit code: N``; :139 ``... noticed that process rank
  %lu with PID %lu on node %s exited on signal %d (%s).``).

Each is a launcher fact: the rank and how it ended (an exit code, or -N for signal N), as the
Paddle launchers' ``Container rank N status failed ... code -9`` is.
"""

from __future__ import annotations

import re

from ...lazy import lazy_compile
from ..signatures import Signature

TRIGGERS = ("Process name: [[", "noticed that process rank", "srun: error: ")
SIGNALS = {"Killed": -9, "Segmentation fault": -11, "Aborted": -6, "Bus error": -7, "Terminated": -15,
           "Out Of Memory": -9}  # Slurm's cgroup OOM kill is a SIGKILL too

RUNNER_SIGNATURES = (
    Signature("srun_task_ended", lazy_compile(
        r"^srun: error: (?P<node>\S+): tasks? (?P<ranks>[\d,\-\[\]]+): (?:Exited with exit code (?P<code>\d+)|"
        r"(?P<how>Killed|Segmentation fault|Aborted|Bus error|Terminated|Out Of Memory))"), "launcher_failed",
        example="srun: error: gpu-node-07: task 1: Killed", source="Slurm src/srun/launch.c (task exit)"),
    Signature("mpirun_first_failed", lazy_compile(r"^\s*Process name: \[\[\d+,\d+\],(?P<rank>\d+)\]"),
              "launcher_failed", example="  Process name: [[40917,1],1]",
              source="Open MPI 4.1.6 help-orterun.txt:634 [orterun:non-zero-exit]"),
    Signature("mpirun_rank_signal", lazy_compile(
        r"noticed that process rank (?P<rank>\d+) with PID \d+ on node \S+ exited on signal (?P<signal>\d+)"),
        "launcher_failed", example="mpirun noticed that process rank 1 with PID 4711 on node n7 exited on "
                                   "signal 9 (Killed).", source="Open MPI 4.1.6 help-orterun.txt:139"),
)
EXIT_CODE_RE = lazy_compile(r"Exit code:\s+(-?\d+)")


def match_runner(text: str) -> tuple[Signature, re.Match] | None:
    # Called for every scanned line: three plain substring tests first (no generator: 5x cheaper).
    if "srun: error: " not in text and "Process name: [[" not in text and "noticed that process rank" not in text:
        return None
    for sig in RUNNER_SIGNATURES:
        m = sig.pattern.search(text)
        if m:
            return sig, m
    return None


def failed_ranks(name: str, groups: dict, next_text: str) -> dict[int, int | None]:
    """rank -> exit code (-N for signal N; None when not said) of a runner's line."""
    if name == "srun_task_ended":
        code = SIGNALS[groups["how"]] if groups.get("how") else int(groups["code"])
        return {r: code for r in _task_ids(groups["ranks"])}
    if name == "mpirun_first_failed":
        m = EXIT_CODE_RE.search(next_text)
        return {int(groups["rank"]): int(m.group(1)) if m else None}
    if name == "mpirun_rank_signal":
        return {int(groups["rank"]): -int(groups["signal"])}
    return {}


def _task_ids(text: str) -> list[int]:
    """Slurm's task list: ``1``, ``0-3``, ``1,3``, ``[0-1,5]``."""
    ids: list[int] = []
    for part in text.strip("[]").split(","):
        lo, _, hi = part.partition("-")
        if lo.isdigit():
            ids.extend(range(int(lo), int(hi) + 1) if hi.isdigit() else [int(lo)])
    return ids
