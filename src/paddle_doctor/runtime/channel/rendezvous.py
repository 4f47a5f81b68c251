"""One rendezvous counter on the TCP store, shared by evaluate's barrier, its plan check and
``preflight()``.

Why a counter: one ``add`` announces an arrival and one read answers everything. Each phase has
one counter that carries three numbers:

    bits 0-15   arrivals (one per rank)
    bits 16-55  the sum of the ranks' fingerprints (each < 2**FINGERPRINT_BITS; 16 carry bits
                hold the sum of 2**16 ranks): metric-state schemas, or plan digests
    bits 56-62  failures (a rank that raised adds 1 << FAIL_SHIFT to every phase)

The sum equals W times a rank's own fingerprint when every rank has the same one (equal plans,
equal schemas). Arriving and waiting are separate calls, so that a rank can announce itself,
work, and look at the answer later without waiting (evaluate's plan check).

Every store call has a deadline (``store.StoreClient``); a wait has an optional one of its own,
and inside a guarded region the watchdog ends a wait for a rank that froze or died.
"""

from __future__ import annotations

import time
from typing import Any

from paddle_doctor.errors import PeerFailedError, StateSchemaError
from paddle_doctor.runtime.channel.polling import pauses

ARRIVAL_BITS = 16
FINGERPRINT_BITS = 24
FP_SHIFT = ARRIVAL_BITS
FAIL_SHIFT = ARRIVAL_BITS + FINGERPRINT_BITS + ARRIVAL_BITS
MAX_WORLD = (1 << ARRIVAL_BITS) - 1
PHASES = ("preflight", "plan", "sync")
FAST_POLL_S = 0.02  # longest pause in the first seconds (ranks usually end together)
FAST_PHASE_S = 5.0
MAX_POLL_S = 0.5  # then a long rank-0 evaluation costs two store reads per second per waiting rank


def arrival(fingerprint: int) -> int:
    """What one rank adds to a phase's counter."""
    if not 0 <= fingerprint < 1 << FINGERPRINT_BITS:
        raise ValueError(f"a fingerprint must fit in {FINGERPRINT_BITS} bits, got {fingerprint}")
    return 1 + (fingerprint << FP_SHIFT)


def decode(total: int) -> tuple[int, int, bool]:
    """(arrivals, fingerprint sum, whether a rank failed) of a counter's value."""
    arrived = total & ((1 << ARRIVAL_BITS) - 1)
    fingerprint_sum = (total >> FP_SHIFT) & ((1 << (FAIL_SHIFT - FP_SHIFT)) - 1)
    return arrived, fingerprint_sum, (total >> FAIL_SHIFT) != 0


class Rendezvous:
    """The counters of one exchange (``prefix``), one per phase, for ``world`` ranks."""

    def __init__(self, store: Any, prefix: str, world: int, rank: int) -> None:
        self.store, self.prefix, self.world, self.rank = store, prefix, world, rank
        self._arrivals: dict[str, int] = {}

    def wait_all(self, phase: str, schema: int = 0) -> None:
        """Return when every rank has called ``wait_all(phase)``; raise if one failed or if the
        ranks' schema fingerprints differ (the same answer on every rank)."""
        self.arrive(phase, schema)
        if self.fingerprints(phase) != schema * self.world:
            raise StateSchemaError(SCHEMA_MESSAGE)

    def arrive(self, phase: str, fingerprint: int = 0) -> None:
        """Announce this rank at ``phase`` with a fingerprint; never waits."""
        self._arrivals[phase] = self.store.add(self._key(phase), arrival(fingerprint))

    def fingerprints(self, phase: str, *, wait: bool = True, timeout: float | None = None) -> int | None:
        """The sum of every rank's fingerprint at ``phase`` once all have arrived; None while some
        have not after one read (``wait=False``) or after ``timeout`` s. Raises PeerFailedError
        when a rank failed before everyone arrived."""
        total = self._arrivals.pop(phase, None)  # our own arrival's answer saves the first read
        deadline = None if timeout is None else time.monotonic() + timeout
        waits = pauses(FAST_POLL_S, slow_after_s=FAST_PHASE_S, slow_cap_s=MAX_POLL_S)
        while True:
            if total is None:
                total = self.store.add(self._key(phase), 0)
            arrived, fingerprint_sum, failed = decode(total)
            if arrived >= self.world:  # the answer is complete, even if a rank failed since
                return fingerprint_sum
            if failed:
                raise PeerFailedError(f"{self._failure()}; rank {self.rank} stops instead of waiting")
            if not wait or (deadline is not None and time.monotonic() >= deadline):
                return None
            time.sleep(next(waits))
            total = None

    def publish(self, phase: str, text: str) -> None:
        """This rank's text for ``phase``; call it before ``arrive(phase)``, so that once every
        rank has arrived every text exists (a ``get`` of a missing key would block)."""
        self.store.set(self._text_key(phase, self.rank), text)
        self.store.add(self._text_key(phase, self.rank) + "/ready", 1)

    def texts(self, phase: str) -> list[str]:
        """Every rank's published text, after all have arrived."""
        return [bytes(self.store.get(self._text_key(phase, r))).decode(errors="replace") for r in range(self.world)]

    def missing(self, phase: str) -> list[int]:
        """The ranks that have not published their text for ``phase`` (one read per rank)."""
        return [r for r in range(self.world) if int(self.store.add(self._text_key(phase, r) + "/ready", 0)) < 1]

    def fail(self, exc: BaseException) -> None:
        """Tell the other ranks that this one raised ``exc`` (best effort: we re-raise anyway)."""
        try:
            text = f"rank {self.rank} raised {type(exc).__name__}: {exc}"
            self.store.set(f"{self.prefix}/error", text[:2000])
            for phase in PHASES:
                self.store.add(self._key(phase), 1 << FAIL_SHIFT)
        except Exception:  # the store itself may be what broke; the original error matters more
            pass

    def _failure(self) -> str:
        try:
            return bytes(self.store.get(f"{self.prefix}/error")).decode(errors="replace")
        except Exception:
            return "another rank failed during evaluate()"

    def _key(self, phase: str) -> str:
        return f"{self.prefix}/{phase}"

    def _text_key(self, phase: str, rank: int) -> str:
        return f"{self.prefix}/{phase}/text/{rank}"


SCHEMA_MESSAGE = (
    "the ranks hold different metric states (names, shapes or dtypes), so syncing them would "
    "crash gloo or mix unrelated numbers: build the same metrics with the same arguments on "
    "every rank, and create cat states with their final dtype in reset()")
