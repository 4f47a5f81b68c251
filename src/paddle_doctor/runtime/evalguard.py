"""The guards ``evaluate()`` runs under: a watchdog-guarded region, and a pre-flight of the plan.

Why: evaluate's ranks wait for each other on the TCP store without a timeout (a slow rank is
fine), so a rank that dies or freezes would leave the others waiting forever; inside the region
the watchdog ends them with the missing rank's name instead. The pre-flight stops an evaluation
whose ranks hold different data or weights: its exchange runs while the first batches do (it
waits for the last rank to arrive, which costs ~1 ms even when ranks start together), and
evaluate checks its verdict after every batch and waits for it before any cross-rank step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

from .preflight import preflight_in_background
from .watchdog import guarded


@contextmanager
def evaluation_guard(*, model: Any, dataset: Any, batch_size: int, metric_names: Sequence[str], strategy: str,
                     world: int, progress: Callable[[], Any] | None = None):
    """``with evaluation_guard(...) as pending:`` around everything evaluate does after choosing its
    data; ``pending`` is the pre-flight (``check()`` between batches, ``wait()`` before syncing)."""
    with guarded("evaluate", step_fn=progress):
        plan = {"batch_size": batch_size, "strategy": strategy, "metrics": list(metric_names), "world_size": world}
        pending = preflight_in_background(plan, model=model if hasattr(model, "state_dict") else None,
                                          dataset=dataset, name="evaluate")
        try:
            yield pending
        finally:
            pending.cancel()  # a no-op once it has its verdict; after an error, stop waiting for peers
