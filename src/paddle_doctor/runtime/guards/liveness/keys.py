"""Which key this rank's liveness channel uses, and the channel's id (see ``seal.py`` for why).

- on one host: ``PADDLE_DOCTOR_KEY_FILE``, the PATH of the key file ``paddle-doctor run`` made
  (0600); otherwise ``.paddle_doctor_key.<job>`` in this user's private folder
  (``$XDG_RUNTIME_DIR/paddle-doctor`` or ``/tmp/paddle-doctor-<uid>``, used only when it is ours
  and 0700; else the log dir), made (0600, exclusively) by the first rank of the host that needs
  it and read by the others, so that ranks under two launchers with their own log dirs share it;
  ``<job>`` is the channel id (master and endpoints);
- across nodes (a layout of several nodes, after ``init_parallel_env``): rank 0 publishes its key
  on the job's TCP store and every other rank reads it there (each call with a deadline), so that
  every node seals with one key even when each node's ``paddle-doctor run`` made its own; the
  local key when the store fails.

None when no key can be had: the caller then runs without heartbeats and says so once, rather than
listen to a channel that anyone can write to. Nothing here imports paddle (the store client does,
when it is used).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
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
    """(the key, where it came from), or (None, why there is none). The ranks of one host share
    the local key; across nodes (``nodes`` > 1) rank 0's is read from the store."""
    env = os.environ if env is None else env
    local, where = local_key(log_dir, env)
    if nodes < 2:
        return local, where
    shared, how = store_key(rank, world, local)
    if shared is not None:
        return shared, how
    return local, f"{where} (not shared across nodes: {how})"


def local_key(log_dir: Path, env) -> tuple[bytes | None, str]:
    path = env.get(KEY_FILE_ENV)
    if path:
        key = seal.read_key_file(path)
        return key, f"the key file of paddle-doctor run ({path})" if key else f"unreadable key file {path}"
    folder = private_dir(env) or log_dir
    target = folder / f"{seal.KEY_FILE_PREFIX}{channel_id(env)}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return None, f"no folder for a key file ({exc.strerror})"
    key = seal.shared_key_file(str(target))
    return key, f"key file {target}" if key else f"cannot make key file {target}"


def private_dir(env) -> Path | None:
    """This user's own folder for key files: ``$XDG_RUNTIME_DIR`` or ``/tmp/paddle-doctor-<uid>``,
    used only if it is ours and nobody else may enter it (0700)."""
    base = env.get("XDG_RUNTIME_DIR")
    folder = Path(base) / "paddle-doctor" if base else Path(tempfile.gettempdir()) / f"paddle-doctor-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, parents=bool(base), exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None  # a planted or shared folder: not where a key goes
    return folder


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
