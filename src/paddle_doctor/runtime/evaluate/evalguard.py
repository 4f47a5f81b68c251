"""The guards ``evaluate()`` runs under: a watchdog-guarded region, and a pre-flight of the plan.

Why: evaluate's ranks wait for each other on the TCP store without a timeout (a slow rank is
fine), so a rank that dies or freezes would leave the others waiting forever; inside the region
the watchdog ends them with the missing rank's name instead. The pre-flight stops an evaluation
whose ranks hold different data or weights.

Why the pre-flight is split (``PlanCheck``): a blocking exchange at the start waits for the last
rank to arrive and costs ~1 ms per call even when the ranks start together, and a thread for it
costs as much again in start-up and GIL hand-offs. Instead each rank announces its plan on
evaluate's own store barrier (two store calls: 0.05-0.4 ms, measured, depending on how busy rank
0's process, which hosts the store server, is), reads the verdict after its first
batches (one store read each, only until all ranks have announced), and waits for it before
anything crosses ranks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

from paddle_doctor.runtime.channel.barrier import open_barrier
from paddle_doctor.runtime.channel.rendezvous import FINGERPRINT_BITS, Rendezvous
from paddle_doctor.runtime.guards.preflight import build_plan, mismatch_error, plan_digest
from paddle_doctor.runtime.guards.watchdog import guarded

PHASE = "preflight"


class PlanCheck:
    """This rank's pre-flight for one evaluate() call: ``announce()`` first; then ``check()``
    raises PreflightError if the verdict is in and says the ranks differ (never waits), and
    ``wait()`` waits for the verdict."""

    def __init__(self, barrier: Any, items: dict, model: Any = None, dataset: Any = None) -> None:
        # Without a store barrier (one process, or the collective fallback) there is nothing to compare over.
        self._barrier = barrier if isinstance(barrier, Rendezvous) else None
        self.barrier = barrier
        self._items, self._model, self._dataset = items, model, dataset
        self._digest = 0

    def announce(self) -> None:
        """Build this rank's plan (it reads samples and weights, so it may raise) and publish it."""
        if self._barrier is None:
            return
        plan = {**self._items, **build_plan(model=self._model, dataset=self._dataset)}
        self._digest = plan_digest(plan, FINGERPRINT_BITS)
        self._barrier.publish(PHASE, json.dumps({"plan": plan, "local": {}}, default=str))
        self._barrier.arrive(PHASE, self._digest)

    def check(self) -> None:
        if self._barrier is not None:
            self._judge(self._barrier.fingerprints(PHASE, wait=False))

    def wait(self) -> None:
        if self._barrier is not None:
            self._judge(self._barrier.fingerprints(PHASE))

    def _judge(self, digest_sum: int | None) -> None:
        if digest_sum is None:
            return  # not every rank has announced its plan yet
        barrier, self._barrier = self._barrier, None  # one verdict per call
        if digest_sum != self._digest * barrier.world:
            plans = {r: json.loads(text) for r, text in enumerate(barrier.texts(PHASE))}
            raise mismatch_error(plans)


@contextmanager
def evaluation_guard(*, world: int, rank: int, comm: Any, model: Any, dataset: Any, batch_size: int,
                     metric_names: Sequence[str], strategy: str, progress: Callable[[], Any] | None = None):
    """``with evaluation_guard(...) as plan_check:`` around everything evaluate does after choosing
    its data: a guarded region (the watchdog watches every wait inside, opening the store
    barrier too), and this call's pre-flight (``announce()`` first, ``check()`` between batches,
    ``wait()`` before anything crosses ranks). ``plan_check.barrier`` is the call's barrier."""
    items = {"batch_size": batch_size, "strategy": strategy, "metrics": list(metric_names), "world_size": world}
    with guarded("evaluate", step_fn=progress):
        barrier = open_barrier(world, rank, comm)
        yield PlanCheck(barrier, items, model if hasattr(model, "state_dict") else None, dataset)
