"""What this rank is doing right now, shared by the guards (trace, watchdog, heartbeat, record).

Why a module of its own: the heartbeat thread reports it to peers, the watchdog judges with it
and error records save it, while only the main thread writes it. Plain attribute reads and
writes are atomic under the GIL, so no lock is needed for these snapshots.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paddle_doctor.contract import WATCHDOG_TIMEOUT_ENV

DEFAULT_DEADLINE_S = 10.0
STOP_FRACTION = 0.5  # a process seen stopped (state T) this fraction of the deadline is stuck


@dataclass
class Region:
    name: str
    step_fn: Callable[[], Any] | None = None
    deadline: float | None = None
    since: float = field(default_factory=time.monotonic)
    hold: float = 0.0  # s a peer's failure is left to the region's own code to raise (evaluate does)
    hint: str = ""  # added to "rank R has not been heard from": the region's likely fix


@dataclass
class State:
    regions: list[Region] = field(default_factory=list)
    current: Any = None  # the trace Entry of the collective in progress, if any
    last: Any = None  # the last trace Entry started
    step: Any = None  # set by note_step() when no region gives a step_fn
    unwound: tuple | None = None  # (phase, step) an exception left, for its record
    checking: bool = False  # the main thread waits for the peers' fingerprints (check mode)
    fired: bool = False  # the watchdog or a signal handler is ending this process
    # The watchdog is ending this process (its record, its line, then os._exit): a SIGTERM that
    # comes meanwhile waits for it instead of handing the process to Paddle's handler.
    watchdog_ending: bool = False

    def phase(self) -> str | None:
        return self.regions[-1].name if self.regions else None

    def current_step(self) -> Any:
        for region in reversed(self.regions):
            if region.step_fn is not None:
                try:
                    return region.step_fn()
                except Exception:  # a step_fn must never break the guard thread
                    return None
        return self.step

    def guarded(self) -> bool:
        """Inside a guarded region: evaluate, pre-flight, or a traced collective."""
        return bool(self.regions) or self.current is not None

    def hold(self) -> float:
        """How long the watchdog leaves a failed or missing peer to the region's own error."""
        return max((region.hold for region in self.regions), default=0.0)

    def deadline(self) -> float:
        for region in reversed(self.regions):
            if region.deadline is not None:
                return region.deadline
        return default_deadline()

    def stop_after(self) -> float:
        return self.deadline() * STOP_FRACTION


STATE = State()


def default_deadline() -> float:
    try:
        value = float(os.environ.get(WATCHDOG_TIMEOUT_ENV, DEFAULT_DEADLINE_S))
    except ValueError:
        return DEFAULT_DEADLINE_S
    return value if value > 0 else DEFAULT_DEADLINE_S


def note_step(step: Any) -> None:
    """Tell the guards which evaluation step this rank is on (shown when it goes missing)."""
    STATE.step = step
