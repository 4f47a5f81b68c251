"""The ports Paddle's launchers would use, and whether they are free.

Defaults read from Paddle 3.3.1's sources: ``paddle.distributed.launch --start_port`` is 6070
(``launch/context/args_envs.py``), ``fleet.launch`` numbers its trainers from 6070 on several nodes
and its parameter servers from 6170 (``fleet/launch.py``). Ports named in the environment
(``PADDLE_MASTER``, ``FLAGS_START_PORT``, ``PADDLE_START_PORT``, ``PADDLE_PORT``, ``MASTER_PORT``) are
checked too: those the next launch will really use.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .processes import holders_of, listening_ports

DEFAULT_PORTS = {6070: "the launchers' default start port", 6170: "fleet.launch's default server port"}
PORT_VARIABLES = ("PADDLE_MASTER", "FLAGS_START_PORT", "PADDLE_START_PORT", "PADDLE_PORT", "MASTER_PORT")


def ports_to_check(environ: Mapping[str, str]) -> dict[int, str]:
    """port -> why it matters (the variable that names it, or the launcher default)."""
    ports = dict(DEFAULT_PORTS)
    for name in PORT_VARIABLES:
        value = environ.get(name, "")
        text = value.rsplit(":", 1)[-1] if name == "PADDLE_MASTER" else value
        if text.strip().isdigit() and 0 < int(text) < 65536:
            ports[int(text)] = f"${name}"
    return ports


def probe_ports(environ: Mapping[str, str], proc_root: Path = Path("/proc")) -> list[dict[str, Any]]:
    """One entry per port: ``{"port", "why", "free", "holders": [pid...]}``."""
    listeners = None
    results = []
    for port, why in sorted(ports_to_check(environ).items()):
        free = is_free(port)
        holders: list[int] = []
        if not free:
            listeners = listening_ports(proc_root) if listeners is None else listeners
            if port in listeners:
                holders = holders_of(proc_root, listeners[port])
        results.append({"port": port, "why": why, "free": free, "holders": holders})
    return results


def is_free(port: int) -> bool:
    """Can a server bind ``port`` now? With SO_REUSEADDR (libuv, behind Paddle's TCP store, sets
    it), so sockets in TIME_WAIT do not count as busy; a listener or a bound socket does."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("0.0.0.0", port))
        except OSError as exc:
            return exc.errno not in (errno.EADDRINUSE, errno.EACCES)
    return True
