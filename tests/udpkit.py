"""UDP ports for the liveness tests that run watchers and ranks on loopback."""

from __future__ import annotations

import socket


def free_ports(n: int) -> list[int]:
    """n UDP ports free on 127.0.0.1 right now (all bound at once, so they differ, then released)."""
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports
