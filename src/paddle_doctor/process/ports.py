"""Free TCP ports for a launch, and waiting until a launcher listens on one.

Standard library only. The test suite gives each parallel worker its own range of ports
(``PDOC_LAB_PORTS``, set in tests/conftest.py), so that two launches never pick the same port in
the seconds before their workers bind it.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import time

from paddle_doctor.contract import PORTS_VAR  # "FIRST:LAST": pick ports only there; unset, the kernel picks


def free_ports(count: int) -> list[int]:
    """Distinct free TCP ports on loopback (all held open until all are picked); from the range in
    ``PDOC_LAB_PORTS`` when it is set, else the kernel's choice."""
    span = os.environ.get(PORTS_VAR, "")
    if span:
        first, last = (int(x) for x in span.split(":"))
        return _free_ports_in(count, first, last)
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _free_ports_in(count: int, first: int, last: int) -> list[int]:
    """Ports of first..last that bind now on every address, walking from a random one (a port
    just used, maybe in TIME_WAIT, is then rarely the next pick)."""
    width = last - first + 1
    offset = random.randrange(width)
    picked: list[int] = []
    for step in range(width):
        if len(picked) == count:
            break
        port = first + (offset + step) % width
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("", port))
            except OSError:
                continue
        picked.append(port)
    if len(picked) < count:
        raise OSError(f"{PORTS_VAR}={first}:{last}: fewer than {count} free ports")
    return picked


def wait_listening(port: int, proc: subprocess.Popen, deadline: float) -> bool:
    """Wait until something accepts connections on 127.0.0.1:port (False: proc died or deadline)."""
    while time.monotonic() < deadline and proc.poll() is None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.1)
    return False
