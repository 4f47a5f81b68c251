"""Paddle's TCP store, with a deadline on every call (a CPU side channel between ranks).

Measured on Paddle 3.3.1: ``get`` of a missing key blocks until the key appears, ``add(key, 0)``
reads a counter without blocking, every round trip takes about 44 ms (without TCP_NODELAY,
which ``connect`` sets on its own socket), and the server lives in
rank 0's process (if rank 0 stops or dies, calls hang or fail). So this wrapper:

- opens its own client connection to the server (the global store's client is used by Paddle and
  by ``evaluate`` from the main thread; one socket must not be shared between threads),
- runs every call in a worker thread with a deadline (StoreTimeoutError on expiry),
- reads a published value only after its ready counter says it exists, so no call waits on a
  missing key.

It is for one-off exchanges (heartbeat endpoints, pre-flight plans), not for per-step traffic.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from paddle_doctor.runtime.guards.bounded import Worker
from paddle_doctor.errors import StoreTimeoutError
from paddle_doctor.runtime.channel.polling import pauses
from paddle_doctor.runtime.channel.storeclient import nodelay_on_new_sockets, socket_inodes, store_endpoint

CALL_TIMEOUT_S = 10.0
MAX_POLL_S = 0.2  # longest pause between counter reads (see polling.py)
_shared = None


class BoundedStore:
    def __init__(self, client: Any, call_timeout: float = CALL_TIMEOUT_S):
        self._client = client
        self._timeout = call_timeout
        self._worker = Worker("paddle-doctor-store")

    @classmethod
    def connect(cls, world_size: int, timeout: float = CALL_TIMEOUT_S) -> BoundedStore:
        """A new client of the job's store server (after ``init_parallel_env``)."""
        endpoint = store_endpoint()
        if endpoint is None:
            raise StoreTimeoutError("no store endpoint in the environment (PADDLE_MASTER)")
        from paddle.base import core

        worker = Worker("paddle-doctor-store-connect")
        before = socket_inodes()
        try:
            client = worker.call(core.TCPStore, endpoint[0], endpoint[1], False, world_size,
                                 int(timeout) + 1, timeout=timeout)
        except TimeoutError as exc:
            raise StoreTimeoutError(f"cannot connect to the store at {endpoint[0]}:{endpoint[1]}") from exc
        nodelay_on_new_sockets(before, endpoint[1])
        return cls(client, timeout)

    @classmethod
    def shared(cls, world_size: int) -> BoundedStore:
        """One client per process, opened on first use."""
        global _shared
        if _shared is None:
            _shared = cls.connect(world_size)
        return _shared

    def _call(self, name: str, *args: Any, timeout: float | None = None) -> Any:
        try:
            return self._worker.call(getattr(self._client, name), *args, timeout=timeout or self._timeout)
        except TimeoutError as exc:
            raise StoreTimeoutError(f"store {name}({args[0]!r}) got no answer within "
                                    f"{timeout or self._timeout:g} s (is rank 0 alive?)") from exc

    def publish(self, key: str, value: str) -> None:
        """Set ``key`` and mark it ready (readers never block on a missing key)."""
        self._call("set", key, value)
        self._call("add", key + "/ready", 1)

    def ready(self, key: str) -> bool:
        return int(self._call("add", key + "/ready", 0)) > 0

    def read(self, key: str) -> str:
        """The value of a key known to be ready (``get`` blocks on a missing key)."""
        value = self._call("get", key)
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)

    def add(self, key: str, amount: int) -> int:
        return int(self._call("add", key, amount))

    def wait_counter(self, key: str, done: Callable[[int], bool], timeout: float) -> int:
        """Poll counter ``key`` until ``done(value)`` or ``timeout`` passes; returns the last value read."""
        deadline, waits = time.monotonic() + timeout, pauses(MAX_POLL_S)
        while True:
            value = self.add(key, 0)
            if done(value) or time.monotonic() >= deadline:
                return value
            time.sleep(next(waits))
