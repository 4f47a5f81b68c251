"""Which key this rank's liveness channel uses, and the channel's id (see ``seal.py`` for why).

In order:
- across nodes (a layout of several nodes, after ``init_parallel_env``): rank 0 publishes its key
  on the job's TCP store and every other rank reads it there (each call with a deadline), so that
  every node seals with one key even when each node's ``paddle-doctor run`` made its own;
- ``PADDLE_DOCTOR_KEY_FILE``: the PATH of the key file ``paddle-doctor run`` made (0600);
- otherwise ``<log dir>/.paddle_doctor_key.<launch>``, made (0600, exclusively) by the first rank of
  the host that needs it and read by the others; ``<launch>`` digests the master, the endpoints and
  the launcher's pid, so that each launch has a fresh key.

None when no key can be had: the caller then runs without heartbeats and says so once, rather than
listen to a channel that anyone can write to. Nothing here imports paddle (the store client does,
when it is used).
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

from paddle_doctor.contract import KEY_FILE_ENV
from paddle_doctor.runtime.guards.liveness import seal

STORE_WAIT_S = 10.0  # a rank's wait for rank 0's key on the store


def channel_id(env=None) -> str:
    """The same on every rank of one job, on every node (the run id of ``paddle-doctor run`` is not:
    each node's ``run`` makes its own)."""
    env = os.environ if env is None else env
    ident = f"{env.get('PADDLE_MASTER', '')}|{env.get('PADDLE_TRAINER_ENDPOINTS', '')}"
    return hashlib.sha256(ident.encode()).hexdigest()[:16]


def job_key(rank: int, world: int, log_dir: Path, nodes: int, env=None) -> tuple[bytes | None, str]:
    """(the key, where it came from), or (None, why there is none)."""
    env = os.environ if env is None else env
    local, where = local_key(log_dir, env)
    if nodes > 1:
        shared, how = store_key(rank, world, local)
        if shared is not None:
            return shared, how
        where = f"{where} (not shared across nodes: {how})"
    return local, where


def local_key(log_dir: Path, env) -> tuple[bytes | None, str]:
    path = env.get(KEY_FILE_ENV)
    if path:
        key = seal.read_key_file(path)
        return key, f"the key file of paddle-doctor run ({path})" if key else f"unreadable key file {path}"
    launch = hashlib.sha256(f"{channel_id(env)}|{os.getppid()}".encode()).hexdigest()[:16]
    target = log_dir / f"{seal.KEY_FILE_PREFIX}{launch}"
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return None, f"no log dir for a key file ({exc.strerror})"
    key = seal.shared_key_file(str(target))
    return key, f"key file {target}" if key else f"cannot make key file {target}"


def store_key(rank: int, world: int, local: bytes | None) -> tuple[bytes | None, str]:
    """Rank 0's key, through the TCP store of ``init_parallel_env`` (every call with a deadline)."""
    paddle = sys.modules.get("paddle")
    try:
        if paddle is None or not paddle.distributed.is_initialized():
            return None, "the TCP store is not up yet"
        from paddle_doctor.runtime.channel.store import StoreClient

        store = StoreClient.shared(world)
        name = f"paddle_doctor/liveness_key/{channel_id()}"
        if rank == 0:
            if local is None:
                return None, "rank 0 has no key to share"
            store.publish(name, local.hex())
            return local, "rank 0's key, shared on the TCP store"
        deadline = time.monotonic() + STORE_WAIT_S
        while not store.ready(name):
            if time.monotonic() >= deadline:
                return None, f"rank 0 did not share its key within {STORE_WAIT_S:g} s"
            time.sleep(0.05)
        key = bytes.fromhex(store.read(name))
    except Exception as exc:  # noqa: BLE001 (a store that fails: the local key, said once)
        return None, f"the TCP store failed ({type(exc).__name__})"
    return (key, "rank 0's key, from the TCP store") if len(key) == seal.KEY_BYTES else (None, "a bad key on the store")
