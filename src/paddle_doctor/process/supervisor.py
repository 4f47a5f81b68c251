"""The process supervisor behind ``paddle-doctor run``: start the command, copy its output through
unchanged, watch for the old launcher's ABORT line, forward SIGTERM, and decide the exit code.

Returns data (:class:`Outcome`); printing the summary and the diagnosis is the CLI's job. No
paddle import, and only the standard library at import: ``run --help`` must start fast (the records are
read by diagnose's reader, loaded once the job has ended).

Exit-code policy: the command's own code (a signal death as 128+N, as a shell reports it); 1 when
it exited 0 but an old launcher printed ``ABORT!!!`` or a worker left an error record. The
launcher exits with the first non-zero code in rank order, so when a rank fails on its own
error and the watchdog ends a lower rank a moment later (86), or the launcher's SIGTERM does,
the launcher's code is the watchdog's or the signal's, not the program's: then ``run`` exits
with the program's own (1, an uncaught Python exception's) and says so. Only when no rank failed
on its own and the watchdog ended the job does ``run`` exit with the watchdog's code, saying so.

The liveness channel's key: ``run`` makes 32 random bytes per run, writes them (hex) to a 0600 file
in a 0700 folder of its own, passes the file's PATH to the workers (``PADDLE_DOCTOR_KEY_FILE``:
Paddle's launcher logs every rank's whole environment, so never the key itself) and removes both
at the end.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from paddle_doctor.contract import CHANNEL_PREFIX, GUARD_KINDS, KEY_FILE_ENV, RECORD_PREFIX, WATCHDOG_EXIT_CODE
from paddle_doctor.process import tree
from paddle_doctor.process.launchenv import ABORT_MARKER, RunPlan, empty_dumps, shell_code, stale_files
from paddle_doctor.process.rendezvous import RendezvousWatch

TAIL_BYTES = 1 << 20  # what is kept of the output for a diagnosis when there is no log dir
OWN_ERROR_CODE = 1  # what Python exits with on an uncaught exception
GUARD_FAILED = "failed"  # the guard kind of a rank's own exception (contract.GUARD_RULES)
# Launcher codes that are not the program's when a rank failed on its own: the watchdog's end of
# another rank, or the launcher's SIGTERM to the survivors (as 128+15, or -15 seen as 241).
NOT_THE_PROGRAMS = (WATCHDOG_EXIT_CODE, 128 + signal.SIGTERM, 256 - signal.SIGTERM)


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
    ended_by: str = ""  # who ended the job, when the records say (the program's own error, the watchdog)

    @property
    def failed(self) -> bool:
        return self.code != 0

    @property
    def why(self) -> str:
        if self.rendezvous:
            return self.rendezvous
        if self.command_code != 0:
            said = f"; {self.ended_by}" if self.ended_by else ""
            if self.code != self.command_code:
                return f"exit {self.code}, the program's own: the launcher's {self.command_code} came after it{said}"
            return f"exit {self.command_code}{said}"
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
    for path in stale_files(plan.log_dir) + sorted(plan.log_dir.glob(f"{CHANNEL_PREFIX}*.json")):
        path.unlink(missing_ok=True)  # an earlier run's (its channel counters too)
    start = time.monotonic()
    with channel_key() as key_file:
        try:
            proc = tree.start(plan.cmd, None, dict(plan.env, **{KEY_FILE_ENV: key_file}), subprocess.PIPE,
                              subprocess.PIPE, foreground=True)
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
    records = [p for p in stale_files(plan.log_dir) if p.name.startswith(RECORD_PREFIX)]
    ok = command_code == 0 and not tee.abort_seen and not records
    report = watch.report if watch is not None else None
    ok = ok and report is None
    code, ended_by = exit_code(command_code, records)
    return Outcome(0 if ok else (code or 1), command_code, time.monotonic() - start, tee.abort_seen,
                   records, bytes(tee.tail), report, received[0] if received else None, ended_by)


@contextmanager
def channel_key():
    """The PATH of a fresh key file (0600, in a 0700 folder), removed at the end."""
    folder = tempfile.mkdtemp(prefix="paddle-doctor-key-")
    path = os.path.join(folder, "key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(os.urandom(32).hex())
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def exit_code(command_code: int, records: list[Path]) -> tuple[int, str]:
    """(the job's exit code, who ended it) from the launcher's code and the workers' records, read
    by diagnose's reader (so ``run`` and ``diagnose`` judge the same records; loaded here, once the
    job has ended, so that ``run --help`` stays fast)."""
    from paddle_doctor.diagnose.records import load_records

    own, fired = [], []
    for rec in load_records(records).values():
        finding = rec.finding
        guard = finding is not None and finding.code in GUARD_KINDS
        victim = guard and rec.rank not in finding.ranks
        # A guard that found what ended the rank (a mismatch, uneven batches; not the exception itself):
        # the exception came from the guards' finding (CollectiveMismatchError, or gloo's error once the
        # watchdog ended a peer), so the guards ended the job, not the program on its own.
        found = guard and finding.code != GUARD_FAILED and not victim
        if rec.kind == "exception" and not victim and not found:  # its own error, not a peer's end
            own.append(rec.rank)
        elif rec.kind == "watchdog" or found:
            fired.append((rec.rank, (finding.message if finding is not None else "")[:300]))
    if own:
        ranks = ", ".join(str(r) for r in sorted(own))
        after = f"; the watchdog ended rank(s) {', '.join(str(r) for r, _ in fired)} after it" if fired else ""
        code = OWN_ERROR_CODE if command_code in NOT_THE_PROGRAMS else command_code
        return code, f"the program's own error on rank(s) {ranks}{after}"
    if fired:
        rank, message = fired[0]
        return command_code, f"the watchdog ended the job (rank {rank}: {message})"
    return command_code, ""
