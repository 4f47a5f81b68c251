"""Start processes and end every one of them, including the workers that left their group.

Why this is its own module: Paddle's launchers put every worker in a new session (`os.setsid`
in `launch/utils/process_context.py` and `fleet/launch_utils.py`), so killing the launcher's
process group does not reach the workers, and a dead launcher leaves them running. Every process
we start therefore carries a unique tag in its environment (``PDOC_LAB_RUN``); the launchers pass
their environment on, so the tag reaches workers and DataLoader workers too. At the end we signal
the launcher's group, then every process group whose members carry our tag, by id. Nothing else
is ever signalled: no name matching, never our own process group.

Used by the lab, ``smoke`` and ``triage`` (through :mod:`.bounded_run`), ``run``'s supervisor
(:func:`start` only: it runs in the foreground) and the tests' launch helpers. Standard library only; never imports paddle.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path

from paddle_doctor.contract import TAG_VAR

POLL_S = 0.05

Sink = Path | int  # a file (created) or subprocess.PIPE


def new_tag() -> str:
    return uuid.uuid4().hex


def tagged_env(env: Mapping[str, str], tag: str) -> dict[str, str]:
    """``env`` plus our tag: what every process of one run is started with."""
    return {**env, TAG_VAR: tag}


def start(cmd: Sequence[str], cwd: Path | None, env: Mapping[str, str], out: Sink,
          err: Sink = subprocess.STDOUT, *, foreground: bool = False) -> subprocess.Popen:
    """Start ``cmd`` in its own session. ``out``: a file for stdout (created) or subprocess.PIPE;
    ``err`` likewise, by default into ``out`` (combined). ``foreground``: in our session instead,
    reading our stdin, as a command typed in a shell (``paddle-doctor run``: Ctrl-C from the
    terminal reaches it)."""
    with ExitStack() as files:
        def sink(target: Sink) -> int | object:
            return files.enter_context(open(target, "wb")) if isinstance(target, Path) else target

        return subprocess.Popen(
            list(cmd), cwd=cwd, env=dict(env), stdout=sink(out), stderr=sink(err),
            stdin=None if foreground else subprocess.DEVNULL, start_new_session=not foreground,
        )


def wait_until(procs: Sequence[subprocess.Popen], deadline: float | None) -> bool:
    """Wait for every process to exit; False when the deadline passed first."""
    while any(p.poll() is None for p in procs):
        if deadline is not None and time.monotonic() >= deadline:
            return False
        time.sleep(POLL_S)
    return True


def tagged_pids(tag: str) -> list[int]:
    """Pids of live processes whose environment carries our tag (only ours can)."""
    needle = f"{TAG_VAR}={tag}".encode()
    pids = []
    # os.listdir and open, not pathlib: the tests' exit watchers scan /proc every 50 ms
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as file:
                environ = file.read()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            pids.append(int(name))
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
    """SIGTERM our groups and tagged stragglers, wait up to ``grace`` s while any is left, then
    SIGKILL what is left; reap. ``grace`` 0: SIGKILL at once (a SIGSTOPped rank never handles a
    SIGTERM, so a test that stops ranks would only wait the grace out)."""
    groups = _leaders(procs)
    if grace > 0:
        tagged = tagged_pids(tag)
        groups |= _groups_of(tagged)
        _signal_groups(groups, signal.SIGTERM)
        _signal_pids(tagged, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and tagged_pids(tag):
            time.sleep(POLL_S)
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
