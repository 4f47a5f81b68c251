"""``run --rendezvous-timeout S``: a multi-node launch whose nodes never all registered, named.

Why (measured on real hosts, issue 31): ``paddle.distributed.launch --master IP:PORT --nnodes N``
prints ``Waiting peer start...`` and waits, without a deadline, until N nodes have registered with
the master (its KV store, ``/<job_id>/info/...``); a node given another ``--master`` or ``--nnodes``
never registers and nothing says so. Here: when the launcher's output shows that wait and no pod
started (``Run Pod``) within S seconds, ask the master which nodes registered (their addresses,
from the ``candidate`` of each entry), end the launcher (SIGTERM, as Ctrl-C would) and say it.
Only the master named by ``--master`` is asked. Standard library only, no paddle.
"""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence

from paddle_doctor.process.masterport import master_endpoint

WAITING = b"Waiting peer start"
STARTED = (b"Run Pod", b"Watching Pod")
ASK_TIMEOUT_S = 3.0


def option(cmd: Sequence[str], name: str, default: str) -> str:
    for i, arg in enumerate(cmd):
        if arg == name and i + 1 < len(cmd):
            return cmd[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return default


def registered(cmd: Sequence[str]) -> str:
    """One sentence: who registered with the master, out of how many, and what that means."""
    endpoint = master_endpoint(cmd)
    nnodes = option(cmd, "--nnodes", "1").split(":")[0]
    if endpoint is None:
        return f"the launcher waited for {nnodes} nodes to register"
    master = f"{endpoint[0]}:{endpoint[1]}"
    entries = _ask(master, f"/{option(cmd, '--job_id', 'default')}/info")
    if entries is None:
        return (f"the master at {master} did not answer: this node could not register (a wrong --master address "
                "or port, or the master node's launcher is not running)")
    hosts = sorted({_host_of(v) for v in entries.values()} - {""})
    missing = int(nnodes) - len(entries) if nnodes.isdigit() else None
    return (f"{len(entries)} of {nnodes} nodes registered with the master at {master} ({', '.join(hosts) or 'none'})"
            + (f"; {missing} never did: start the same command, with the same --master and --nnodes, on every node"
               if missing and missing > 0 else "; this node expects a different --nnodes than the others"))


def _ask(master: str, prefix: str) -> dict | None:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # the master itself, no proxy
    try:
        with opener.open(f"http://{master}{prefix}", timeout=ASK_TIMEOUT_S) as reply:
            body = json.loads(reply.read(1 << 20) or b"{}")
    except urllib.error.HTTPError as exc:
        return {} if exc.code == 404 else None  # 404: the master runs, nobody registered
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) else None


def _host_of(value: str) -> str:
    try:
        return str(json.loads(value).get("candidate", "")).rpartition(":")[0]
    except (ValueError, AttributeError):
        return ""


class RendezvousWatch(threading.Thread):
    """Reads the output the supervisor keeps (``tail()``); ``report`` is set when it gave up."""

    def __init__(self, proc: subprocess.Popen, tail, cmd: Sequence[str], timeout: float):
        super().__init__(daemon=True)
        self.proc, self.tail, self.cmd, self.timeout = proc, tail, list(cmd), timeout
        self.report: str | None = None

    def run(self) -> None:
        since = None
        while self.proc.poll() is None:
            text = self.tail()
            if any(marker in text for marker in STARTED):
                return
            if since is None and WAITING in text:
                since = time.monotonic()
            if since is not None and time.monotonic() - since >= self.timeout:
                self.report = f"rendezvous not complete after {self.timeout:g} s: {registered(self.cmd)}"
                self.proc.send_signal(signal.SIGTERM)
                return
            time.sleep(0.5)
