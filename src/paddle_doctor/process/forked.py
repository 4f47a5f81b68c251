"""Work shared with forked children over pipes: one protocol for lint's workers and diagnose's reader.

Both fork children that inherit their arguments (nothing is pickled on the way in), take the next
piece of work as a 4-byte *token* from one pipe filled before the fork (so the faster process takes
more, whatever else runs on the machine), and send each result back as a length-prefixed *frame*.
A process pool (``concurrent.futures``, ``multiprocessing``) was measured slower for both: its
import, threads and pickled arguments cost more than the work they share (bench/results/
32-coldlint.md, 29-scale1024.md). What each caller does when a child fails differs (lint raises,
diagnose reads the rest itself) and stays with the caller.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Callable, Iterable

TOKEN_BYTES = 4
MAX_TOKENS = 8192  # 32 KiB of tokens: half a default pipe's 64 KiB
_LENGTH_BYTES = 8
LOADAVG = "/proc/loadavg"


def can_fork() -> bool:
    """Whether this process may fork children that run Python: fork exists, and no other thread runs
    (fork copies only the calling thread; a lock another one held stays held in the child)."""
    threading = sys.modules.get("threading")  # not imported for this question alone (start-up time)
    return hasattr(os, "fork") and (threading is None or threading.active_count() == 1)


def affinity_cores() -> int | None:
    """The cores this process may run on, or None where the system does not say."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None


def usable_cores() -> int:
    return affinity_cores() or os.cpu_count() or 1


def idle_core() -> bool:
    """Whether a core is idle now: the kernel's count of running tasks (LOADAVG's fourth field, this
    process included) is below the cores this process may use. Beside another busy process a child
    only shares the same cores and adds its own costs. As ``make -l``, but the count of this
    instant, not a minute's average. Unreadable: taken as idle."""
    try:
        with open(LOADAVG, "rb") as stream:
            running = int(stream.read(128).split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return True
    return running < usable_cores()


def token_pipe(count: int) -> int:
    """The read end of a pipe that holds the tokens 0..count-1 and is closed for writing: a reader
    that finds it empty is done. Written without blocking: a pipe that holds less (a user over the
    kernel's pipe budget gets 4 KiB ones) raises OSError, and the caller works in one process."""
    if count > MAX_TOKENS:
        raise OSError(f"{count} tokens: more than a pipe is sure to hold")
    receive, send = os.pipe()
    try:
        os.set_blocking(send, False)
        tokens = b"".join(i.to_bytes(TOKEN_BYTES, "little") for i in range(count))
        if os.write(send, tokens) != len(tokens):
            raise OSError("the pipe holds fewer tokens")
    except OSError:
        os.close(receive)
        raise
    finally:
        os.close(send)
    return receive


def take_token(fd: int) -> int | None:
    """The next token, or None when none is left (one ``os.read`` of 4 bytes takes one whole token:
    writes of up to a pipe's buffer are atomic, and every reader reads whole tokens)."""
    token = os.read(fd, TOKEN_BYTES)
    return int.from_bytes(token, "little") if token else None


def send_frame(fd: int, payload: bytes) -> None:
    """Write ``payload`` whole, after its length."""
    view = memoryview(len(payload).to_bytes(_LENGTH_BYTES, "little") + payload)
    while view:
        view = view[os.write(fd, view):]


class Frames:
    """The frames of one pipe, as its bytes come in (a frame may arrive in many reads)."""

    def __init__(self) -> None:
        self.pending = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        """The frames ``data`` completes, in order."""
        self.pending += data
        frames, at = [], 0
        while len(self.pending) - at >= _LENGTH_BYTES:
            end = at + _LENGTH_BYTES + int.from_bytes(self.pending[at:at + _LENGTH_BYTES], "little")
            if len(self.pending) < end:
                break
            frames.append(bytes(self.pending[at + _LENGTH_BYTES:end]))
            at = end
        del self.pending[:at]
        return frames


def fork_child(body: Callable[[], object], close: Iterable[int] = ()) -> int:
    """Fork a child that closes the descriptors ``close``, runs ``body`` and exits: 0 when it returned,
    1 on any exception (the parent sees what the child did not send). Returns the child's pid here;
    OSError when no process can be made. ``os._exit``: the parent's exit handlers and unflushed
    output are not the child's to run or write."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        with contextlib.suppress(BaseException):  # the exit code says it; the parent decides what follows
            import signal

            for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # the parent's handlers (one forwards
                signal.signal(stop, signal.SIG_DFL)  # SIGTERM to a launch) are not the child's to run
            for fd in close:
                os.close(fd)
            gc.freeze()  # the parent's objects stay out of the child's collections (no copy-on-write of them)
            body()
            code = 0
    finally:
        os._exit(code)


def reap(pid: int, kill: bool = False) -> None:
    """Wait for the child ``pid``, ended first when ``kill`` (its parent stops early)."""
    if kill:
        with contextlib.suppress(OSError):
            import signal

            os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
