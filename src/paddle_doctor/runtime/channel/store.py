"""The one client of Paddle's TCP store that paddle-doctor uses, with a deadline on every call.

Measured on Paddle 3.3.1: ``get`` of a missing key blocks until the key appears, ``add(key, 0)``
reads a counter without blocking, and the server lives in rank 0's process: if rank 0 stops or
dies, calls hang or fail. So this client:

- opens its own connection to the server, once per process (Paddle's global client is used by
  Paddle from the main thread; one socket must not carry two conversations), with TCP_NODELAY
  (``nodelay.py``: 0.03 ms a round trip instead of 44 ms);
- runs every call, the connection too, in a worker thread with a deadline, and raises
  ``StoreTimeoutError`` on expiry. A call that timed out leaves its request on the socket, so the
  client is then broken for good: later calls fail at once with the first error (said once, never
  a wait without end);
- reads a published value only after its ready counter says it exists (``publish``/``ready``).

Evaluate's barrier, its plan check and ``preflight()`` all use it through ``rendezvous.py``; the
heartbeats do not (UDP, ``guards/heartbeat.py``), so that a frozen rank 0 is still named.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from paddle_doctor.errors import StoreTimeoutError
from paddle_doctor.runtime.channel.nodelay import nodelay_on_new_sockets, socket_inodes
from paddle_doctor.runtime.channel.polling import pauses
from paddle_doctor.runtime.channel.bounded import Worker

# Longer than the watchdog's default deadline (10 s): inside a guarded region the watchdog names a
# frozen rank 0 first; this deadline is for waits that nothing else watches.
CALL_TIMEOUT_S = 30.0
MAX_POLL_S = 0.2  # longest pause between counter reads (see polling.py)
_shared: dict[tuple[str, int], StoreClient] = {}


def store_endpoint(env: Any = None) -> tuple[str, int] | None:
    """Where the store server listens, read as ``init_parallel_env`` reads it (Paddle 3.3.1)."""
    env = os.environ if env is None else env
    if env.get("MASTER_ADDR") and env.get("MASTER_PORT"):
        endpoint = f"{env['MASTER_ADDR']}:{env['MASTER_PORT']}"
    else:
        endpoint = env.get("PADDLE_MASTER") or env.get("PADDLE_TRAINER_ENDPOINTS", "").split(",")[0]
    host, _, port = endpoint.rpartition(":")
    return (host, int(port)) if host and port.isdigit() else None


class StoreClient:
    def __init__(self, client: Any, call_timeout: float = CALL_TIMEOUT_S, where: str = "the TCP store"):
        self._client = client
        self._timeout = call_timeout
        self._where = where
        self._worker = Worker("paddle-doctor-store")
        self.broken: StoreTimeoutError | None = None

    @classmethod
    def connect(cls, world_size: int, timeout: float = CALL_TIMEOUT_S) -> StoreClient:
        """A new client of the job's store server (after ``init_parallel_env``)."""
        endpoint = store_endpoint()
        if endpoint is None:
            raise StoreTimeoutError("no TCP store endpoint in the environment (PADDLE_MASTER, MASTER_ADDR)")
        from paddle.base import core

        where = f"the TCP store at {endpoint[0]}:{endpoint[1]}"
        before = socket_inodes()
        try:
            client = Worker("paddle-doctor-store-connect").call(
                core.TCPStore, endpoint[0], endpoint[1], False, world_size, int(timeout) + 1, timeout=timeout)
        except TimeoutError as exc:
            raise StoreTimeoutError(f"cannot connect to {where} within {timeout:g} s (is rank 0 alive?)") from exc
        except Exception as exc:  # Paddle raises RuntimeError/OSError subclasses of its own
            raise StoreTimeoutError(f"cannot connect to {where}: {type(exc).__name__}: {exc}") from exc
        nodelay_on_new_sockets(before, endpoint[1])
        return cls(client, timeout, where)

    @classmethod
    def shared(cls, world_size: int) -> StoreClient:
        """This process's one client, opened on first use (raises StoreTimeoutError if it cannot)."""
        endpoint = store_endpoint()
        if endpoint not in _shared:
            _shared[endpoint] = cls.connect(world_size)
        return _shared[endpoint]

    def _call(self, name: str, *args: Any) -> Any:
        if self.broken is not None:
            raise self.broken
        try:
            return self._worker.call(getattr(self._client, name), *args, timeout=self._timeout)
        except TimeoutError as exc:
            self.broken = StoreTimeoutError(f"{self._where} did not answer {name}({args[0]!r}) within "
                                            f"{self._timeout:g} s (is rank 0, which hosts it, alive?)")
            raise self.broken from exc

    def set(self, key: str, value: str) -> None:
        self._call("set", key, value)

    def get(self, key: str) -> bytes:
        """The value of a key known to exist (``get`` blocks on a missing key)."""
        value = self._call("get", key)
        return bytes(value) if not isinstance(value, str) else value.encode()

    def add(self, key: str, amount: int) -> int:
        return int(self._call("add", key, amount))

    def publish(self, key: str, value: str) -> None:
        """Set ``key`` and mark it ready (readers never block on a missing key)."""
        self.set(key, value)
        self.add(key + "/ready", 1)

    def ready(self, key: str) -> bool:
        return self.add(key + "/ready", 0) > 0

    def read(self, key: str) -> str:
        return self.get(key).decode("utf-8", "replace")

    def wait_counter(self, key: str, done: Callable[[int], bool], timeout: float) -> int:
        """Poll counter ``key`` until ``done(value)`` or ``timeout`` passes; returns the last value read."""
        deadline, waits = time.monotonic() + timeout, pauses(MAX_POLL_S)
        while True:
            value = self.add(key, 0)
            if done(value) or time.monotonic() >= deadline:
                return value
            time.sleep(next(waits))
