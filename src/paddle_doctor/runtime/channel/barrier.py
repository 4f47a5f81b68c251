"""Wait for every rank on the TCP store, not inside a collective.

Why: gloo collectives time out after 30 s, hard-coded (measured on Paddle 3.3.1). A rank that
reaches the final sync while another still evaluates (a slower node, a heavier shard, or
strategy="rank0" where rank 0 does all the work) must not sit in a collective meanwhile. It polls
a counter on the TCP store that ``init_parallel_env`` created (a CPU side channel that never times
out by itself) and enters the collective only once every rank has arrived. A rank that raises
marks the counter, so the others raise ``PeerFailedError`` naming it instead of waiting forever.

Measured: on Paddle's own store client each round trip takes about 44 ms; on the private client
of ``storeclient.py`` (TCP_NODELAY) about 0.03 ms. The barrier makes one ``add`` per rank plus
polls; evaluate's pre-flight reads its counter after a batch only until every rank has
announced (usually after the first), never for the whole loop.

One counter per phase carries three numbers, so that one ``add`` announces an arrival and one
read answers everything: arrivals (bits 0-15), the sum of the ranks' fingerprints (of their
metric-state schemas, or of their pre-flight plans; bits 16-55) and failures (bits 56 and up).
Arriving and waiting are separate calls, so that a rank can announce itself, work, and look at
the answer later without waiting (evaluate's pre-flight).
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np

from paddle_doctor.errors import PeerFailedError, StateSchemaError
from paddle_doctor.runtime.channel.polling import pauses
from paddle_doctor.runtime.evaluate.states import SCHEMA_BITS
from paddle_doctor.runtime.channel.storeclient import private_store

ARRIVAL_BITS = 16
SCHEMA_SHIFT = ARRIVAL_BITS
FAIL_SHIFT = ARRIVAL_BITS + SCHEMA_BITS + ARRIVAL_BITS  # room for the schema sum of 2**16 ranks
PHASES = ("preflight", "plan", "sync")
FAST_POLL_S = 0.02  # longest pause in the first seconds (ranks usually end together)
FAST_PHASE_S = 5.0
MAX_POLL_S = 0.5  # then a long rank-0 evaluation costs two store reads per second per waiting rank

_calls = itertools.count()  # every rank calls evaluate() the same number of times


def open_barrier(world: int, rank: int, comm: Any) -> StoreBarrier | CollectiveBarrier | None:
    """The barrier for one evaluate() call: None in one process, the store when it exists."""
    if world == 1:
        return None
    if world >= 1 << ARRIVAL_BITS:
        return CollectiveBarrier(comm)
    prefix = f"paddle_doctor/evaluate/{next(_calls)}"
    try:
        store = private_store(world)
    except Exception:  # no store in this launch mode: fall back to a collective schema check
        return CollectiveBarrier(comm)
    return StoreBarrier(store, prefix, world, rank)


class StoreBarrier:
    def __init__(self, store: Any, prefix: str, world: int, rank: int) -> None:
        self.store, self.prefix, self.world, self.rank = store, prefix, world, rank
        self._arrivals: dict[str, int] = {}

    def wait_all(self, phase: str, schema: int = 0) -> None:
        """Return when every rank has called ``wait_all(phase)``; raise if one failed or if the
        ranks' schema fingerprints differ (the same answer on every rank)."""
        self.arrive(phase, schema)
        if self.fingerprints(phase) != schema * self.world:
            raise StateSchemaError(_SCHEMA_MESSAGE)

    def arrive(self, phase: str, fingerprint: int = 0) -> None:
        """Announce this rank at ``phase`` with a fingerprint (< 2**SCHEMA_BITS); never waits."""
        self._arrivals[phase] = self.store.add(f"{self.prefix}/{phase}", 1 + (fingerprint << SCHEMA_SHIFT))

    def fingerprints(self, phase: str, *, wait: bool = True) -> int | None:
        """The sum of every rank's fingerprint at ``phase`` once all have arrived; with
        ``wait=False``, None while some have not (one store read). Raises PeerFailedError when
        a rank failed before everyone arrived."""
        total = self._arrivals.pop(phase, None)  # our own arrival's answer saves the first read
        waits = pauses(FAST_POLL_S, slow_after_s=FAST_PHASE_S, slow_cap_s=MAX_POLL_S)
        while True:
            if total is None:
                total = self.store.add(f"{self.prefix}/{phase}", 0)
            arrived, fingerprint_sum, failed = _decode(total)
            if arrived >= self.world:  # the answer is complete, even if a rank failed since
                return fingerprint_sum
            if failed:
                raise PeerFailedError(f"{self._failure()}; rank {self.rank} stops instead of waiting")
            if not wait:
                return None
            time.sleep(next(waits))
            total = None

    def publish(self, phase: str, text: str) -> None:
        """This rank's text for ``phase``; call it before ``arrive(phase)``, so that once every
        rank has arrived every text exists (a ``get`` of a missing key would block)."""
        self.store.set(f"{self.prefix}/{phase}/text/{self.rank}", text)

    def texts(self, phase: str) -> list[str]:
        """Every rank's published text, after all have arrived."""
        return [bytes(self.store.get(f"{self.prefix}/{phase}/text/{r}")).decode(errors="replace")
                for r in range(self.world)]

    def fail(self, exc: BaseException) -> None:
        """Tell the other ranks that this one raised ``exc`` (best effort: we re-raise anyway)."""
        try:
            text = f"rank {self.rank} raised {type(exc).__name__}: {exc}"
            self.store.set(f"{self.prefix}/error", text[:2000])
            for phase in PHASES:
                self.store.add(f"{self.prefix}/{phase}", 1 << FAIL_SHIFT)
        except Exception:  # the store itself may be what broke; the original error matters more
            pass

    def _failure(self) -> str:
        try:
            return bytes(self.store.get(f"{self.prefix}/error")).decode(errors="replace")
        except Exception:
            return "another rank failed during evaluate()"


class CollectiveBarrier:
    """Fallback without a store: checks the schema with one small collective, cannot wait long."""

    def __init__(self, comm: Any) -> None:
        self.comm = comm

    def wait_all(self, phase: str, schema: int = 0) -> None:
        both = self.comm.all_reduce(np.array([schema, -schema], np.float64), op="max")
        if both[0] != -both[1]:
            raise StateSchemaError(_SCHEMA_MESSAGE)

    def fail(self, exc: BaseException) -> None:
        pass


def _decode(total: int) -> tuple[int, int, bool]:
    arrived = total & ((1 << ARRIVAL_BITS) - 1)
    schema_sum = (total >> SCHEMA_SHIFT) & ((1 << (FAIL_SHIFT - SCHEMA_SHIFT)) - 1)
    return arrived, schema_sum, (total >> FAIL_SHIFT) != 0


_SCHEMA_MESSAGE = (
    "the ranks hold different metric states (names, shapes or dtypes), so syncing them would "
    "crash gloo or mix unrelated numbers: build the same metrics with the same arguments on "
    "every rank, and create cat states with their final dtype in reset()")
