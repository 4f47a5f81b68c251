"""How long to sleep between reads of a TCP-store counter while waiting for the other ranks.

Why this shape: ranks that start or finish together arrive within a millisecond or two of each
other, and a wait sits on the critical path of every rank, so the first reads come every 0.5 ms
(a read costs ~0.05 ms on a TCP_NODELAY client): the wait then ends at most 0.5 ms after the last
arrival. Doubling from the start instead overshoots by up to the time already waited. After
``FAST_FOR_S`` the pause doubles up to a cap, so that a long wait (a slow node, rank 0 evaluating
alone) costs a few reads per second, not thousands.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

FAST_S = 0.0005
FAST_FOR_S = 0.01


def pauses(cap_s: float, *, slow_after_s: float | None = None, slow_cap_s: float | None = None) -> Iterator[float]:
    """Sleep lengths: ``FAST_S`` for ``FAST_FOR_S``, then doubling up to ``cap_s`` (and up to
    ``slow_cap_s`` once ``slow_after_s`` have passed)."""
    start, pause = time.monotonic(), FAST_S
    while True:
        elapsed = time.monotonic() - start
        if elapsed >= FAST_FOR_S:
            slow = slow_after_s is not None and slow_cap_s is not None and elapsed >= slow_after_s
            pause = min(pause * 2, slow_cap_s if slow else cap_s)
        yield pause
