"""Run one command to completion or to a deadline, and leave no process of it behind.

Used by ``smoke`` and ``triage`` (through :mod:`.after_launch`) and the tests' launch helper:
each starts a real launcher whose workers live in their own sessions, and the tagging of
:mod:`.tree` finds every one of them afterwards. Never imports paddle.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from paddle_doctor.process import tree

TERM_WAIT_S = 3.0  # after SIGTERM on a timeout: time for Paddle's crash dump to be written
# Signals that end us without a word by default: each now ends the whole launch first, as Ctrl-C's
# KeyboardInterrupt always did (the launcher and its ranks live in sessions of their own: nothing
# else would reach them, and they kept running, reparented to init).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP) if hasattr(signal, "SIGHUP") else (signal.SIGTERM,)

T = TypeVar("T")


class StopRequested(BaseException):
    """We were sent SIGTERM or SIGHUP while a launch ran; the launch has been ended. A
    BaseException, like KeyboardInterrupt: no ``except Exception`` may take it for an error."""

    def __init__(self, signum: int):
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum  # as a shell reports a death by that signal


@contextmanager
def _stop_signals_raise() -> Iterator[None]:
    """While the block runs, SIGTERM or SIGHUP raises StopRequested (once: a second signal during
    the clean-up is ignored, so that the clean-up finishes). Only the main thread gets signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stopping: list[int] = []

    def handler(signum, _frame):
        if not stopping:
            stopping.append(signum)
            raise StopRequested(signum)

    previous = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


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
    then end it and every process that inherited its tag. Raises StopRequested (after ending them
    all) when we are sent SIGTERM or SIGHUP meanwhile; KeyboardInterrupt likewise on Ctrl-C."""
    tag = tree.new_tag()
    output.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with _stop_signals_raise():  # SIGTERM / SIGHUP: StopRequested, after every process is ended
        proc = tree.start(cmd, cwd, tree.tagged_env(env, tag), output)
        try:
            finished = tree.wait_until([proc], start + timeout)
            if not finished:
                tree.terminate_gently([proc], TERM_WAIT_S)
        finally:
            tree.end_all([proc], tag)
    code = proc.returncode if finished else None
    return BoundedRun(tuple(cmd), code, not finished, round(time.monotonic() - start, 2), output)


def call_within(call: Callable[[], T], timeout_s: float, default: T) -> T:
    """``call()``'s result, or ``default`` when it raises OSError/UnicodeError or has not returned
    within ``timeout_s``. For a blocking library call with no timeout of its own (a name lookup can
    wait seconds for DNS): it runs in a daemon thread that is left behind, never waited for."""
    result = [default]

    def run() -> None:
        try:
            result[0] = call()
        except (OSError, UnicodeError):
            pass

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout_s)
    return result[0]
