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
import time
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

from paddle_doctor.contract import WATCHDOG_TIMEOUT_ENV
from paddle_doctor.errors import PeerFailedError
from paddle_doctor.runtime.channel.barrier import open_barrier
from paddle_doctor.runtime.channel.rendezvous import FINGERPRINT_BITS, Rendezvous
from paddle_doctor.runtime.guards.preflight import build_plan, mismatch_error, plan_digest
from paddle_doctor.runtime.guards.guardstate import STATE
from paddle_doctor.runtime.guards.watchdog import guarded, mesh

PHASE = "preflight"
# The watchdog leaves a failed or never-seen peer this long to evaluate's own PeerFailedError
# (catchable, the same on every rank) before it ends the process; a forward pass longer than
# this meets the watchdog instead, with the same rank named.
HOLD_S = 2.0
MISSING_HINT = " (if it never called evaluate(): call evaluate on every rank, not under `if rank == 0:`)"
PEER_LOOK_S = 0.25  # how often the loop reads the store for a peer's failure (one read each)


class PlanCheck:
    """This rank's pre-flight for one evaluate() call: ``announce()`` first; then ``check()``
    raises PreflightError if the verdict is in and says the ranks differ, and PeerFailedError if
    a peer failed or has not entered evaluate() within the deadline (never waits); ``wait()``
    waits for the verdict, for the deadline at most."""

    def __init__(self, barrier: Any, items: dict, model: Any = None, dataset: Any = None) -> None:
        self.barrier = barrier  # the call's barrier (a store Rendezvous, the collective fallback, or None)
        # Without a store barrier (one process, or the collective fallback) there is nothing to compare over.
        self._store = barrier if isinstance(barrier, Rendezvous) else None
        self._judged = False  # one verdict per call; peers' failures are looked for all along
        self._items, self._model, self._dataset = items, model, dataset
        self._digest = 0
        self._started = time.monotonic()
        self._next_look = self._started + PEER_LOOK_S

    def _pending(self) -> bool:
        """Whether a verdict is still to come (there is a store, and it has not been judged)."""
        return self._store is not None and not self._judged

    def announce(self) -> None:
        """Build this rank's plan (it reads samples and weights, so it may raise) and publish it."""
        if self._store is None:
            return
        plan = {**self._items, **build_plan(model=self._model, dataset=self._dataset)}
        self._digest = plan_digest(plan, FINGERPRINT_BITS)
        self._store.publish(PHASE, json.dumps({"plan": plan, "local": {}}, default=str))
        self._store.arrive(PHASE, self._digest)

    def check(self) -> None:
        now = time.monotonic()
        if self._pending():
            self._judge(self._store.fingerprints(PHASE, wait=False))
        if self._store is not None and now >= self._next_look:  # a few store reads a second at most
            self._next_look = now + PEER_LOOK_S
            if self._pending() and now - self._started >= STATE.deadline():
                self._never_entered()
            self._store.fingerprints("sync", wait=False)  # raises PeerFailedError if a rank failed

    def wait(self) -> None:
        while self._pending():
            left = STATE.deadline() - (time.monotonic() - self._started)
            total = self._store.fingerprints(PHASE, timeout=max(left, PEER_LOOK_S))
            if total is not None:
                self._judge(total)
            elif time.monotonic() - self._started >= STATE.deadline():
                self._never_entered()

    def _judge(self, digest_sum: int | None) -> None:
        if digest_sum is None:
            return  # not every rank has announced its plan yet
        self._judged = True
        if digest_sum != self._digest * self._store.world:
            plans = {r: json.loads(text) for r, text in enumerate(self._store.texts(PHASE))}
            raise mismatch_error(plans)

    def _never_entered(self) -> None:
        """Some rank has not announced itself after the deadline: it never called evaluate()."""
        missing = self._store.missing(PHASE)
        since = self._started + STATE.deadline()
        if not missing or not all(busy_elsewhere(r, since) for r in missing):
            return  # all published (the arrival follows), or a rank is silent: the watchdog names it
        exc = PeerFailedError(never_entered_message(missing, time.monotonic() - self._started))
        self._store.fail(exc)  # a late rank that enters after all is told at once
        raise exc


def busy_elsewhere(rank: int, since: float) -> bool:
    """Whether ``rank`` is alive outside evaluate (its heartbeats say so) or ended cleanly: then it
    skipped this call. A silent rank (frozen, dead, or never heard) is left to the watchdog,
    which tells a death or a freeze apart from a skipped call."""
    m = mesh()
    peer = m.peers.get(rank) if m is not None else None
    if peer is None:
        return False
    if peer.end is not None:
        return bool(peer.end.get("ok"))
    # a beat after ``since`` (the deadline): it was alive all along, not frozen since then
    return peer.last_seen is not None and peer.last_seen >= since and peer.info.get("ph") != "evaluate"


def never_entered_message(ranks: Sequence[int], waited: float) -> str:
    who = f"rank {ranks[0]}" if len(ranks) == 1 else f"ranks {list(ranks)}"
    return (f"{who} never entered evaluate() ({waited:.1f} s since this rank did): call evaluate on every "
            "rank (not under `if rank == 0:`); every rank evaluates its own share and gets the same result. "
            f"A rank that is only slower to get there needs a longer {WATCHDOG_TIMEOUT_ENV}")


@contextmanager
def evaluation_guard(*, world: int, rank: int, comm: Any, model: Any, dataset: Any, batch_size: int,
                     metric_names: Sequence[str], strategy: str, progress: Callable[[], Any] | None = None):
    """``with evaluation_guard(...) as plan_check:`` around everything evaluate does after choosing
    its data: a guarded region (the watchdog watches every wait inside, opening the store
    barrier too), and this call's pre-flight (``announce()`` first, ``check()`` between batches,
    ``wait()`` before anything crosses ranks). ``plan_check.barrier`` is the call's barrier."""
    items = {"batch_size": batch_size, "strategy": strategy, "metrics": list(metric_names), "world_size": world}
    with guarded("evaluate", step_fn=progress, hold=HOLD_S, hint=MISSING_HINT):
        barrier = open_barrier(world, rank, comm)
        yield PlanCheck(barrier, items, model if hasattr(model, "state_dict") else None, dataset)
