"""Before ``run`` starts a launcher: is the ``--master`` port on this host already held by something
that is not a launcher's master?

Why (measured on real hosts, issue 31): ``paddle.distributed.launch --master IP:PORT`` on the host
whose address is IP first checks whether something accepts connections on PORT; if so it takes it
for the job's master (another node's launcher started first) and talks HTTP to it. A leftover
process holding that port never answers, and every launcher waits at ``Waiting peer start...``
forever, printing nothing that names the port: its logs cannot tell. Here, before the launch: if
PORT cannot be bound on IP (``EADDRINUSE``) and what holds it does not answer a master's
``GET /healthy`` with ``ok``, the port is in use by something else. An IP that is not this host's
(``EADDRNOTAVAIL``) is another host's master: nothing to check. Binding sends no traffic; the
health check goes only to this host's own address. Standard library only, no paddle.
"""

from __future__ import annotations

import errno
import json
import socket
import urllib.request
from collections.abc import Sequence

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.findings import Confidence, Finding

HEALTH_TIMEOUT_S = 3.0


def master_endpoint(cmd: Sequence[str]) -> tuple[str, int] | None:
    """``--master IP:PORT`` (or ``--master=IP:PORT``) of a launcher command; None for etcd or none."""
    for i, arg in enumerate(cmd):
        value = cmd[i + 1] if arg == "--master" and i + 1 < len(cmd) else \
            arg.split("=", 1)[1] if arg.startswith("--master=") else None
        if value is None or "://" in value:
            continue
        host, _, port = value.rpartition(":")
        if host and port.isdigit():
            return host, int(port)
    return None


def held_master_port(cmd: Sequence[str]) -> Finding | None:
    """A ``port_in_use`` Finding when ``--master`` names this host and its port is held by a process
    that is not a launcher's master; None otherwise."""
    endpoint = master_endpoint(cmd)
    if endpoint is None:
        return None
    host, port = endpoint
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the launcher's KV server
        try:
            sock.bind((host, port))
            return None  # free: this launcher will be the master
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                return None  # not this host's address (or not an address): another host's master
    if _answers_as_master(host, port):
        return None  # another launcher of the job on this host holds it, as it should
    return Finding(
        code="master_port_held", cause=CauseId.port_in_use, confidence=Confidence.HIGH,
        message=f"--master {host}:{port}: port {port} on this host is held by a process that is not a launcher's "
                "master; the launcher would take it for the master and wait at 'Waiting peer start...' forever",
        why=f"binding {host}:{port} failed with EADDRINUSE and GET /healthy there got no 'ok' in "
            f"{HEALTH_TIMEOUT_S:.0f} s",
        fix=f"find the holder with `ss -ltnp | grep :{port}` and stop it, or give every node another --master port")


def _answers_as_master(host: str, port: int) -> bool:
    """Paddle's KV master answers ``GET /healthy`` with ``{"/healthy": "ok"}`` (launch/utils/kv_server.py).
    No proxy: the request must go to this host's own address, nowhere else."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"http://{host}:{port}/healthy", timeout=HEALTH_TIMEOUT_S) as reply:
            body = json.loads(reply.read(4096) or b"{}")
    except (OSError, ValueError):
        return False
    return isinstance(body, dict) and body.get("/healthy") == "ok"
