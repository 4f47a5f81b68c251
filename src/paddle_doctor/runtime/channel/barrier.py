"""Wait for every rank on the TCP store, not inside a collective.

Why: gloo collectives time out after 30 s, hard-coded (measured on Paddle 3.3.1). A rank that
reaches the final sync while another still evaluates (a slower node, a heavier shard, or
strategy="rank0" where rank 0 does all the work) must not sit in a collective meanwhile. It polls
a rendezvous counter (``rendezvous.py``) on the job's TCP store and enters the collective only
once every rank has arrived. A rank that raises marks the counter, so the others raise
``PeerFailedError`` naming it instead of waiting forever.

``open_barrier`` runs inside evaluate's guarded region, so the watchdog watches every wait here.
A rank that cannot reach the store says so once (a ``RuntimeWarning``) and falls back to one
small collective for the schema check; the watchdog's deadline still holds there.

Measured: each store round trip takes about 0.03 ms on our client (TCP_NODELAY), plus the hop
to the store's worker thread. The barrier makes one ``add`` per rank plus polls.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np

from paddle_doctor.errors import StateSchemaError, StoreTimeoutError
from paddle_doctor.runtime.channel.rendezvous import MAX_WORLD, SCHEMA_MESSAGE, Rendezvous
from paddle_doctor.runtime.channel.store import StoreClient

_calls = itertools.count()  # every rank calls evaluate() the same number of times
_warned = {"store": False}


def open_barrier(world: int, rank: int, comm: Any) -> Rendezvous | CollectiveBarrier | None:
    """The barrier for one evaluate() call: None in one process, the store when it answers."""
    if world == 1:
        return None
    prefix = f"paddle_doctor/evaluate/{next(_calls)}"
    if world > MAX_WORLD:
        return CollectiveBarrier(comm)
    try:
        store = StoreClient.shared(world)
    except StoreTimeoutError as exc:
        if not _warned["store"]:
            _warned["store"] = True
            warnings.warn(f"paddle-doctor: rank {rank} cannot use the TCP store ({exc}); evaluate checks the "
                          "ranks' metric states with one collective instead and skips the plan check",
                          RuntimeWarning, stacklevel=3)
        return CollectiveBarrier(comm)
    return Rendezvous(store, prefix, world, rank)


class CollectiveBarrier:
    """Fallback without a store: checks the schema with one small collective, cannot wait long."""

    def __init__(self, comm: Any) -> None:
        self.comm = comm

    def wait_all(self, phase: str, schema: int = 0) -> None:
        both = self.comm.all_reduce(np.array([schema, -schema], np.float64), op="max")
        if both[0] != -both[1]:
            raise StateSchemaError(SCHEMA_MESSAGE)

    def fail(self, exc: BaseException) -> None:
        pass
