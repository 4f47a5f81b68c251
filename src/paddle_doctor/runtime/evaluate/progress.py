"""A progress bar on rank 0 for the samples done over all ranks, with no communication.

Why estimated: any exchange inside the batch loop costs time (a TCP-store round trip is ~44 ms
here) or risks a hang (a collective). The shards are balanced and every rank knows the whole
plan, so rank 0's own fraction done, times the dataset size, is a good global estimate; the bar
says "est." when it is one. Quiet on other ranks, when not a TTY (under the launcher stderr is a
log file), and when progress=False: then nothing is imported or drawn.
"""

from __future__ import annotations

import sys
from typing import Any


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


def make_progress(enabled: bool, *, rank: int, world: int, local_total: int, global_total: int,
                  stream: Any = None) -> Progress:
    stream = stream if stream is not None else sys.stderr
    if not (enabled and rank == 0 and local_total > 0 and _is_tty(stream)):
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
