"""UDP ports for the liveness tests that run watchers and ranks on loopback."""

from __future__ import annotations

import random
import socket
from pathlib import Path

# The kernel hands out ephemeral ports (bind to port 0, a client's source port) from ip_local_port_range. A port picked
# that way and released is free for anyone's next bind(0): under the parallel suite another worker's socket took one
# between its release here and the watcher's bind ("Address already in use"). Ports below that range are never handed
# out by the kernel, so only a test that names the same port can take it.
_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_LOWEST = 10000
_PICK = random.SystemRandom()  # not the module's generator: a test that seeds it would make every worker pick alike


def _below_ephemeral() -> range | None:
    try:
        low = int(_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return range(_LOWEST, low) if low - _LOWEST >= 1000 else None


def free_ports(n: int) -> list[int]:
    """n distinct UDP ports free on 127.0.0.1 right now, below the kernel's ephemeral range where it has one (so no
    other socket's bind(0) takes them after they are released here)."""
    pool = _below_ephemeral()
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(n)]
    try:
        for s in socks:
            _bind_one(s, pool)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _bind_one(sock: socket.socket, pool: range | None) -> None:
    for _ in range(200 if pool else 0):
        try:
            sock.bind(("127.0.0.1", _PICK.choice(pool)))
            return
        except OSError:
            continue  # taken: another try
    sock.bind(("127.0.0.1", 0))
