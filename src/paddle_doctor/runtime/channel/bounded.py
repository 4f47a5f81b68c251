"""Run a call that may block forever (a store call, a device query) with a deadline.

Why: Paddle's TCP store blocks on a missing key and hangs when rank 0, which hosts it, is frozen;
a CUDA query can wait on a device lock held by a stuck kernel. The call runs in a daemon thread
that we abandon on timeout: a thread blocked in C cannot be cancelled, and a daemon thread never
delays the interpreter's exit.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

_MISSING = object()


class Worker:
    """One daemon thread that runs calls in order, each with its own deadline.

    Calls are serialised on purpose: a TCP store client is one socket, not safe to share between
    threads. After a timeout the stuck thread is abandoned and the next call gets a fresh one.
    """

    def __init__(self, name: str):
        self._name = name
        self._lock = threading.Lock()
        self._jobs: queue.SimpleQueue | None = None

    def call(self, fn: Callable[..., Any], *args: Any, timeout: float) -> Any:
        """``fn(*args)``; raises TimeoutError after ``timeout`` s, or what ``fn`` raised."""
        done = threading.Event()
        box: list = [_MISSING, None]
        with self._lock:
            jobs = self._jobs or self._start()
            jobs.put((fn, args, box, done))
        if not done.wait(timeout):
            with self._lock:
                if self._jobs is jobs:
                    self._jobs = None  # abandon the stuck thread
            raise TimeoutError(f"{getattr(fn, '__name__', 'call')} did not return within {timeout:g} s")
        if box[1] is not None:
            raise box[1]
        return box[0]

    def _start(self) -> queue.SimpleQueue:
        jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(jobs,), name=self._name, daemon=True).start()
        self._jobs = jobs
        return jobs


def _serve(jobs: queue.SimpleQueue) -> None:
    while True:
        fn, args, box, done = jobs.get()
        try:
            box[0] = fn(*args)
        except BaseException as exc:  # handed to the caller, who decides
            box[1] = exc
        done.set()


def call_with_deadline(fn: Callable[..., Any], *args: Any, timeout: float, default: Any = None) -> Any:
    """``fn(*args)`` in a throwaway daemon thread; ``default`` on timeout or error."""
    try:
        return Worker("paddle-doctor-call").call(fn, *args, timeout=timeout)
    except Exception:
        return default
