"""Run one command to completion or to a deadline, and leave no process of it behind.

Used by ``smoke`` and ``triage``, which start real launchers whose workers live in their own
sessions: the same tagging as the lab (see ``_procs``) finds every one of them afterwards.
Never imports paddle.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from paddle_doctor.lab import _procs

TERM_WAIT_S = 3.0  # after SIGTERM on a timeout: time for Paddle's crash dump to be written


@dataclass(frozen=True)
class BoundedRun:
    cmd: tuple[str, ...]
    returncode: int | None  # None when it was stopped at the deadline
    timed_out: bool
    wall_s: float
    output: Path  # stdout + stderr, combined


def run_bounded(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], output: Path,
                timeout: float) -> BoundedRun:
    """Start ``cmd`` in its own session (output to ``output``), wait up to ``timeout`` seconds,
    then end it and every process that inherited its tag."""
    tag = _procs.new_tag()
    env = {**env, _procs.TAG_VAR: tag}
    output.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    proc = _procs.start(cmd, cwd, env, output)
    try:
        finished = _procs.wait_until([proc], start + timeout)
        if not finished:
            _procs.terminate_gently([proc], TERM_WAIT_S)
    finally:
        _procs.end_all([proc], tag)
    code = proc.returncode if finished else None
    return BoundedRun(tuple(cmd), code, not finished, round(time.monotonic() - start, 2), output)

