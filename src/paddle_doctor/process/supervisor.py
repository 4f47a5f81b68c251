"""The process supervisor behind ``paddle-doctor run``: start the command, copy its output through
unchanged, watch for the old launcher's ABORT line, forward SIGTERM, and decide the exit code.

Returns data (:class:`Outcome`); printing the summary and the diagnosis is the CLI's job. No
paddle import, and only the standard library: ``run --help`` must start fast.

Exit-code policy: the command's own code (a signal death as 128+N, as a shell reports it); 1 when
it exited 0 but an old launcher printed ``ABORT!!!`` or a worker left an error record.
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from paddle_doctor.process import tree
from paddle_doctor.process.launchenv import ABORT_MARKER, RunPlan, empty_dumps, shell_code, stale_files
from paddle_doctor.process.rendezvous import RendezvousWatch

TAIL_BYTES = 1 << 20  # what is kept of the output for a diagnosis when there is no log dir


@dataclass
class Outcome:
    code: int  # what `run` exits with
    command_code: int  # what the command exited with (shell convention)
    elapsed: float
    abort_seen: bool
    records: list[Path] = field(default_factory=list)
    tail: bytes = b""
    rendezvous: str | None = None  # why the launch was ended while its nodes had not all registered
    stopped_by: str | None = None  # a signal sent to `run` itself and passed on: a stop asked for

    @property
    def failed(self) -> bool:
        return self.code != 0

    @property
    def why(self) -> str:
        if self.rendezvous:
            return self.rendezvous
        if self.command_code != 0:
            return f"exit {self.command_code}"
        if self.abort_seen:
            return "the launcher printed ABORT!!! but exited 0"
        return "a worker wrote an error record but the command exited 0"


class StartError(Exception):
    """The command could not be started; ``code`` is what a shell would exit with (126, 127)."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


class Tee:
    """Copy the child's stdout and stderr to ours unchanged, and watch for the ABORT line."""

    def __init__(self, proc: subprocess.Popen):
        self.abort_seen = False
        self.tail = bytearray()
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._copy, args=(s, fd), daemon=True)
                         for s, fd in ((proc.stdout, 1), (proc.stderr, 2))]
        for t in self._threads:
            t.start()

    def _copy(self, stream, fd: int) -> None:
        carry, out_ok = b"", True
        while chunk := os.read(stream.fileno(), 65536):
            if out_ok:
                try:
                    os.write(fd, chunk)
                except OSError:  # our own output was closed (| head): keep draining the child
                    out_ok = False
            window = carry + chunk
            with self._lock:
                self.abort_seen = self.abort_seen or ABORT_MARKER in window
                self.tail += chunk
                del self.tail[:-TAIL_BYTES]
            carry = window[-len(ABORT_MARKER):]

    def text(self) -> bytes:
        with self._lock:
            return bytes(self.tail)

    def join(self) -> None:
        for t in self._threads:
            t.join(timeout=5)


def wait_forwarding_sigterm(proc: subprocess.Popen, received: list[str] | None = None) -> int:
    """Wait for the child; SIGTERM to us goes to it (and is noted in ``received``: a stop the user
    asked for). Ctrl-C reaches it from the terminal (same process group), so we only keep waiting
    for it to end."""
    def forward(*_) -> None:
        if received is not None and "SIGTERM" not in received:
            received.append("SIGTERM")
        proc.send_signal(signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, forward)
    try:
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                continue
    finally:
        signal.signal(signal.SIGTERM, previous)


def supervise(plan: RunPlan) -> Outcome:
    """Run ``plan.cmd`` to its end under ``plan.env``; raises StartError if it cannot start."""
    for path in stale_files(plan.log_dir):
        path.unlink(missing_ok=True)
    start = time.monotonic()
    try:
        proc = tree.start(plan.cmd, None, plan.env, subprocess.PIPE, subprocess.PIPE, foreground=True)
    except OSError as exc:
        raise StartError(f"cannot run {plan.cmd[0]}: {exc.strerror or exc}",
                         127 if isinstance(exc, FileNotFoundError) else 126) from exc
    tee = Tee(proc)
    watch = None
    if plan.rendezvous_timeout:
        watch = RendezvousWatch(proc, tee.text, plan.cmd, plan.rendezvous_timeout)
        watch.start()
    received: list[str] = []
    command_code = shell_code(wait_forwarding_sigterm(proc, received))
    tee.join()
    for path in empty_dumps(plan.log_dir):
        path.unlink(missing_ok=True)
    records = [p for p in stale_files(plan.log_dir) if p.suffix == ".json"]
    ok = command_code == 0 and not tee.abort_seen and not records
    report = watch.report if watch is not None else None
    ok = ok and report is None
    return Outcome(0 if ok else (command_code or 1), command_code, time.monotonic() - start, tee.abort_seen,
                   records, bytes(tee.tail), report, received[0] if received else None)
