"""A progress bar on rank 0 for the samples done over all ranks, with no communication.

Why estimated: any exchange inside the batch loop costs time (a TCP-store round trip is ~44 ms
here) or risks a hang (a collective). The shards are balanced and every rank knows the whole
plan, so rank 0's own fraction done, times the dataset size, is a good global estimate; the bar
says "est." when it is one. Under the launcher rank 0's stderr is its log file, where a bar is
noise: there it writes one plain line every ``interval`` seconds (samples done, rate, ETA) and a
last one at the end, only once the evaluation has run that long. Quiet on other ranks, on a
non-TTY outside the launcher, and when progress=False: then nothing is imported or drawn.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

LOG_INTERVAL_S = 5.0
PREFIX = "paddle-doctor evaluate:"


class Progress:
    """``advance(n)`` after each local batch; ``close()`` at the end (idempotent)."""

    def __init__(self, bar: Any = None, task: Any = None, local_total: int = 0, global_total: int = 0):
        self._bar, self._task = bar, task
        self._local_total, self._global_total = local_total, global_total
        self._done = 0

    def advance(self, n: int) -> None:
        if self._bar is None:
            return
        self._done += n
        estimate = round(self._done / self._local_total * self._global_total)
        self._bar.update(self._task, completed=min(estimate, self._global_total))

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


class LogLines(Progress):
    """Plain progress lines for a log file: no cursor movement, no colour, flushed each time."""

    def __init__(self, stream: Any, interval: float, local_total: int, global_total: int, world: int,
                 clock: Any = time.monotonic) -> None:
        super().__init__(None, None, local_total, global_total)
        self._stream, self._interval, self._clock = stream, interval, clock
        self._start = self._last = clock()
        self._est = "" if local_total == global_total else f" (est. from rank 0 of {world})"
        self._lines = 0

    def advance(self, n: int) -> None:
        self._done += n
        now = self._clock()
        if now - self._last >= self._interval:
            self._last = now
            self._write(now)

    def close(self) -> None:
        if self._lines and self._stream is not None:  # a short evaluation leaves the log alone
            self._write(self._clock(), final=True)
        self._stream = None

    def _write(self, now: float, final: bool = False) -> None:
        elapsed = max(now - self._start, 1e-9)
        done = min(round(self._done / self._local_total * self._global_total), self._global_total)
        rate = done / elapsed
        if final:
            text = f"{PREFIX} {done}/{self._global_total} samples{self._est} in {elapsed:.1f} s"
        else:
            eta = (self._global_total - done) / rate if rate > 0 else float("inf")
            text = (f"{PREFIX} {done}/{self._global_total} samples{self._est}, {rate:.1f} samples/s, "
                    f"ETA {_clock_text(eta)}")
        print(text, file=self._stream, flush=True)
        self._lines += 1


def make_progress(enabled: bool | float, *, rank: int, world: int, local_total: int, global_total: int,
                  stream: Any = None) -> Progress:
    """``enabled``: False, True, or the seconds between log lines under the launcher."""
    stream = stream if stream is not None else sys.stderr
    if not (enabled and rank == 0 and local_total > 0):
        return Progress()
    if not _is_tty(stream):
        if world > 1 or "PADDLE_TRAINER_ID" in os.environ:
            interval = LOG_INTERVAL_S if enabled is True else float(enabled)
            return LogLines(stream, interval, local_total, global_total, world)
        return Progress()
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TimeRemainingColumn

    label = "evaluate" if local_total == global_total else f"evaluate ({world} ranks, est.)"
    bar = Bar("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
              TimeRemainingColumn(), console=Console(file=stream), transient=True)
    task = bar.add_task(label, total=global_total)
    bar.start()
    return Progress(bar, task, local_total, global_total)


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _clock_text(seconds: float) -> str:
    if seconds == float("inf"):
        return "unknown"
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
