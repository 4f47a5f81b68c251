"""Facts about this process for error records: memory now and at peak, of the host and device.

Guide 000 §3.4 asks people to watch memory by hand (``nvidia-smi``, ``max_memory_allocated``);
a record keeps the numbers of the moment a rank failed. Never imports paddle: the device side is
read only when paddle is already imported, and with a deadline (a stuck device can block it).
"""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from paddle_doctor.runtime.channel.bounded import call_with_deadline
from paddle_doctor.runtime.guards.liveness.sidecar import read_stat

DEVICE_QUERY_S = 1.0


def host_memory() -> dict:
    """Resident set size now and at peak (VmRSS, VmHWM), in bytes; {} where /proc is absent."""
    out = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out["rss" if key == "VmRSS" else "peak_rss"] = int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return out


def _device_memory() -> dict | None:
    paddle = sys.modules.get("paddle")
    if paddle is None or not paddle.is_compiled_with_cuda():
        return None
    cuda = paddle.device.cuda
    if cuda.device_count() == 0:
        return None
    device = paddle.get_device()
    return {"device": device, "allocated": int(cuda.memory_allocated()),
            "peak_allocated": int(cuda.max_memory_allocated()),
            "reserved": int(cuda.memory_reserved()), "peak_reserved": int(cuda.max_memory_reserved())}


def device_memory(timeout: float = DEVICE_QUERY_S) -> dict | None:
    """Allocated and reserved bytes (now and peak) on this rank's GPU; None on CPU."""
    return call_with_deadline(_device_memory, timeout=timeout)


def memory(timeout: float = DEVICE_QUERY_S) -> dict:
    return {"host": host_memory(), "device": device_memory(timeout)}


def process_state(pid: int) -> tuple[str, int] | None:
    """(state letter, start time in clock ticks) of a local process; None when it is gone.

    The state tells a stopped rank (``T``: SIGSTOP, Ctrl-Z) from a busy one, and the start time
    tells a rank from an unrelated process that got its pid later.
    """
    stat = read_stat(pid)
    return None if stat is None else stat[:2]


@functools.lru_cache(maxsize=1)
def host_key() -> str:
    """Equal for two processes that can see each other's /proc: same boot and pid namespace."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        return f"{boot}|{os.readlink('/proc/self/ns/pid')}"
    except OSError:
        return ""


def rank_runs_here(rank: int, env=None) -> bool:
    """Whether a process of this job (same ``PADDLE_TRAINER_ENDPOINTS``) with rank ``rank`` runs on
    this host, by its environment in /proc: the evidence that a peer never heard from is alive (it
    may just not have left ``init_parallel_env`` yet) or, when there is none, that it is gone.
    Only the rank's own process counts, not its children (DataLoader workers carry its environment
    and outlive a SIGKILLed rank for a while): a process whose parent has the same rank, or that
    was orphaned to pid 1, is skipped. Only this user's processes can be read, which is all a
    job's ranks are."""
    env = os.environ if env is None else env
    want = {b"PADDLE_TRAINER_ID=" + str(rank).encode(),
            b"PADDLE_TRAINER_ENDPOINTS=" + env.get("PADDLE_TRAINER_ENDPOINTS", "").encode()}
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return True  # no /proc: no evidence either way, so no death
    for pid in pids:
        if want <= _environ_items(pid) and _alive_top(pid, want):
            return True
    return False


def _environ_items(pid: int) -> set:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return set(f.read(1 << 20).split(b"\0"))
    except OSError:
        return set()


def _alive_top(pid: int, want: set) -> bool:
    """Running (not a zombie), and the rank's top process: started by this rank's launcher, or by
    anything but pid 1 that is not itself a process of that rank."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            text = f.read()
        state, ppid = text[text.rfind(")") + 2:].split()[:2]
        ppid = int(ppid)
    except (OSError, ValueError):
        return False
    if state in ("Z", "X"):
        return False
    return ppid == os.getppid() or (ppid != 1 and not want <= _environ_items(ppid))
