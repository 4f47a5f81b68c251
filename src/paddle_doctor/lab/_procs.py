"""Start and end the lab's process trees without leaking a single process.

Why this is its own module: Paddle's launchers put every worker in a new session (`os.setsid`
in `launch/utils/process_context.py` and `fleet/launch_utils.py`), so killing the launcher's
process group does not reach the workers, and a dead launcher leaves them running. Every process
the lab starts therefore carries a unique tag in its environment (`PDOC_LAB_RUN`); the
launchers pass their environment on, so the tag reaches workers and DataLoader workers too. At the
end we signal the launcher's group, then every process group whose members carry our tag, by id.
Nothing else is ever signalled: no name matching, never our own process group.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

TAG_VAR = "PDOC_LAB_RUN"  # deliberately not PADDLE_*: recorded fixtures keep PADDLE_* keys
# "FIRST:LAST": pick ports only there. The test suite gives each parallel worker its own range, so
# that two launches never pick the same port in the seconds before their workers bind it.
PORTS_VAR = "PDOC_LAB_PORTS"


def new_tag() -> str:
    return uuid.uuid4().hex


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


def start(cmd: Sequence[str], cwd: Path, env: Mapping[str, str], out: Path) -> subprocess.Popen:
    """Start `cmd` in its own session with stdout+stderr combined into `out`."""
    with open(out, "wb") as fh:
        return subprocess.Popen(
            list(cmd), cwd=cwd, env=dict(env), stdout=fh, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )


def wait_until(procs: Sequence[subprocess.Popen], deadline: float | None) -> bool:
    """Wait for every process to exit; False when the deadline passed first."""
    while any(p.poll() is None for p in procs):
        if deadline is not None and time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def wait_listening(port: int, proc: subprocess.Popen, deadline: float) -> bool:
    """Wait until something accepts connections on 127.0.0.1:port (False: proc died or deadline)."""
    while time.monotonic() < deadline and proc.poll() is None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.1)
    return False


def tagged_pids(tag: str) -> list[int]:
    """Pids of live processes whose environment carries our tag (only ours can)."""
    needle = f"{TAG_VAR}={tag}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            pids.append(int(entry.name))
    return pids


def _groups_of(pids: Iterable[int]) -> set[int]:
    own = os.getpgrp()
    groups = set()
    for pid in pids:
        try:
            pgid = os.getpgid(pid)
        except ProcessLookupError:
            continue
        if pgid != own:
            groups.add(pgid)
    return groups


def _signal_groups(groups: Iterable[int], sig: int) -> None:
    for pgid in groups:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _signal_pids(pids: Iterable[int], sig: int) -> None:
    me = os.getpid()
    for pid in pids:
        if pid == me:
            continue
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _leaders(procs: Sequence[subprocess.Popen]) -> set[int]:
    """The process groups we created (start_new_session: pgid == pid)."""
    return {p.pid for p in procs} - {os.getpgrp()}


def end_all(procs: Sequence[subprocess.Popen], tag: str, grace: float = 1.0) -> None:
    """SIGTERM our groups and tagged stragglers, wait `grace`, then SIGKILL what is left; reap."""
    tagged = tagged_pids(tag)
    groups = _leaders(procs) | _groups_of(tagged)
    _signal_groups(groups, signal.SIGTERM)
    _signal_pids(tagged, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and tagged_pids(tag):
        time.sleep(0.05)
    tagged = tagged_pids(tag)
    _signal_groups(groups | _groups_of(tagged), signal.SIGKILL)
    _signal_pids(tagged, signal.SIGKILL)
    for p in procs:
        try:
            p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass


def terminate_gently(procs: Sequence[subprocess.Popen], wait_s: float) -> None:
    """What Ctrl-C / `timeout` does: SIGTERM to the launchers' groups, then let them clean up.

    Paddle's signal handler prints a crash dump with the C++ stack of where each rank was stuck;
    that dump is evidence, so we give it `wait_s` to appear before anything is killed.
    """
    _signal_groups(_leaders([p for p in procs if p.poll() is None]), signal.SIGTERM)
    wait_until(procs, time.monotonic() + wait_s)
