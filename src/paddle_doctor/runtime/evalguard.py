"""The guards ``evaluate()`` runs under: a pre-flight of the plan, then a watchdog-guarded region.

Why: evaluate's ranks wait for each other on the TCP store without a timeout (a slow rank is
fine), so a rank that dies or freezes would leave the others waiting forever; inside the region
the watchdog ends them with the missing rank's name instead. The pre-flight stops an evaluation
whose ranks hold different data or weights before any work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

from .preflight import preflight
from .watchdog import guarded


@contextmanager
def evaluation_guard(*, model: Any, dataset: Any, batch_size: int, metric_names: Sequence[str], strategy: str,
                     world: int, progress: Callable[[], Any] | None = None):
    """``with evaluation_guard(...):`` around everything evaluate does after choosing its data."""
    if world > 1:
        plan = {"batch_size": batch_size, "strategy": strategy, "metrics": list(metric_names), "world_size": world}
        preflight(plan, model=model if hasattr(model, "state_dict") else None, dataset=dataset, name="evaluate")
    with guarded("evaluate", step_fn=progress):
        yield
