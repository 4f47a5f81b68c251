"""Run one command to completion or to a deadline, and leave no process of it behind.

Used by ``smoke`` and ``triage`` (through :mod:`.after_launch`) and the tests' launch helper:
each starts a real launcher whose workers live in their own sessions, and the tagging of
:mod:`.tree` finds every one of them afterwards. Never imports paddle.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from paddle_doctor.process import tree

TERM_WAIT_S = 3.0  # after SIGTERM on a timeout: time for Paddle's crash dump to be written


@dataclass(frozen=True)
class BoundedRun:
    cmd: tuple[str, ...]
    returncode: int | None  # None when it was stopped at the deadline
    timed_out: bool
    wall_s: float
    output: Path  # stdout + stderr, combined

    def text(self) -> str:
        """What the command printed ("" when it wrote nothing, or its file is gone)."""
        try:
            return self.output.read_text(errors="replace")
        except OSError:
            return ""


def run_bounded(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], output: Path,
                timeout: float) -> BoundedRun:
    """Start ``cmd`` in its own session (output to ``output``), wait up to ``timeout`` seconds,
    then end it and every process that inherited its tag."""
    tag = tree.new_tag()
    output.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    proc = tree.start(cmd, cwd, tree.tagged_env(env, tag), output)
    try:
        finished = tree.wait_until([proc], start + timeout)
        if not finished:
            tree.terminate_gently([proc], TERM_WAIT_S)
    finally:
        tree.end_all([proc], tag)
    code = proc.returncode if finished else None
    return BoundedRun(tuple(cmd), code, not finished, round(time.monotonic() - start, 2), output)
