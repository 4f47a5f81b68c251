"""Start a real launch (optionally through ``paddle-doctor run``), watch when each worker exits,
and leave no process behind.

The processes are started and ended by ``paddle_doctor.process.tree``, the runner of the lab,
``smoke`` and ``triage``: the launch in its own session with a unique tag in its environment
(the launchers pass it on to the workers, which Paddle puts in sessions of their own), and at the
end every tagged process killed by id; nothing else is ever signalled. A watcher thread polls
/proc every 50 ms and notes, per rank, when its worker disappears (or turns zombie): that is the
exit time the tests measure.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from paddle_doctor.process import tree
from paddle_doctor.process.ports import free_ports, wait_listening
from paddle_doctor.runtime.guards import procinfo
from workers import with_test_packages

HERE = Path(__file__).resolve().parent
FAULT_RE = re.compile(r"PDOC_FAULT_AT (\d+\.\d+)")


@dataclass
class Launch:
    rc: int | None
    wall: float
    out: str
    err: str
    log_dir: Path
    exits: dict[int, float] = field(default_factory=dict)  # rank -> time.time() its worker vanished
    node_logs: dict[int, Path] = field(default_factory=dict)  # rank -> its workerlog (two nodes)

    def log(self, rank: int) -> str:
        path = self.node_logs.get(rank, self.log_dir / f"workerlog.{rank}")
        return path.read_text(errors="replace") if path.exists() else ""

    def fault_time(self) -> float | None:
        times = [float(m) for r in range(8) for m in FAULT_RE.findall(self.log(r))]
        return min(times) if times else None

    def record(self, rank: int) -> dict | None:
        folder = self.node_logs[rank].parent if rank in self.node_logs else self.log_dir
        path = folder / f"paddle_doctor_error.{rank}.json"
        return json.loads(path.read_text()) if path.exists() else None


def base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_selected"))}
    env.update(PYTHONWARNINGS="ignore", **extra)
    return with_test_packages(env)  # a test may launch a script of workers/ (edges_worker.py)


SETTLE_S = 5.0
MASTER_WAIT_S = 30.0  # node 0's launcher up (paddle's import) before node 1 starts


def launch(tmp: Path, world: int, script: str, args: list[str], *, run_opts: list[str] | None = None,
           env: dict[str, str] | None = None, timeout: float = 90, stop_after: list[int] | None = None,
           grace: float = 1.0) -> Launch:
    """``python -m paddle.distributed.launch`` (through ``paddle-doctor run RUN_OPTS --`` when
    ``run_opts`` is a list) in ``tmp`` with ``--log_dir log``. With ``stop_after``: end the whole
    launch ``grace`` s after those ranks' processes are gone (a launcher waits for a SIGSTOPped
    rank until it gives up on it, which only costs time)."""
    cmd = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", str(world), "--log_dir", "log",
           str(HERE / script), *args]
    if run_opts is not None:
        cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "run", *run_opts, "--", *cmd]
    tag = tree.new_tag()
    watcher = _Watcher(tag)
    start = time.monotonic()
    proc = tree.start(cmd, tmp, tree.tagged_env(env or base_env(), tag), subprocess.PIPE, subprocess.PIPE)
    watcher.start()
    try:
        out, err = _communicate(proc, watcher, tag, time.monotonic() + timeout, stop_after, grace)
        watcher.settle(SETTLE_S)  # a worker the launcher left behind may still be on its way out
    finally:
        watcher.stop()
        end_all(proc, tag)
    return Launch(proc.returncode, time.monotonic() - start, out.decode(errors="replace"),
                  err.decode(errors="replace"), tmp / "log", watcher.exits)


def launch_two_nodes(tmp: Path, script: str, args: list[str], *, env: dict[str, str], timeout: float = 90,
                     stop_after: list[int] | None = None, grace: float = 1.0) -> Launch:
    """Two launchers of one rank each, sharing a master on loopback (``--nnodes 2``): node 0
    (global rank 0) in ``tmp/node0``, started first, and node 1 once the master port listens (as
    case 18). Paddle's HTTP master does not pass a failed pod's status on to its peer
    (``HTTPMaster.set_status`` is a no-op, paddle 3.3.1 ``launch/controllers/master.py``), so, as on
    two hosts, node 0's launcher never ends rank 0 because rank 1 died: what rank 0 learns of rank
    1 comes through the node watchers alone. The terminals go to ``tmp/nodeK/terminal.txt``."""
    port = free_ports(1)[0]
    cmd = [sys.executable, "-m", "paddle.distributed.launch", "--master", f"127.0.0.1:{port}", "--nnodes", "2",
           "--nproc_per_node", "1", "--log_dir", "log", str(HERE / script), *args]
    tag, nodes = tree.new_tag(), [tmp / "node0", tmp / "node1"]
    watcher, procs = _Watcher(tag), []
    start = time.monotonic()
    watcher.start()
    try:
        for k, node in enumerate(nodes):
            node.mkdir(parents=True, exist_ok=True)
            if k:
                wait_listening(port, procs[0], start + MASTER_WAIT_S)
            procs.append(tree.start(cmd, node, tree.tagged_env(env, tag), node / "terminal.txt"))
        timed_out = not _wait_both(procs, watcher, start + timeout, stop_after, grace)
        watcher.settle(SETTLE_S)
    finally:
        watcher.stop()
        tree.end_all(procs, tag, grace=0)
    terminals = "".join((n / "terminal.txt").read_text(errors="replace") for n in nodes if (n / "terminal.txt").exists())
    return Launch(None if timed_out else procs[0].returncode, time.monotonic() - start, "", terminals,
                  nodes[0] / "log", watcher.exits, {k: n / "log" / "workerlog.0" for k, n in enumerate(nodes)})


def _wait_both(procs, watcher, deadline: float, stop_after, grace: float) -> bool:
    """Until both launchers exit or the ``stop_after`` ranks are gone (True), or the deadline (False)."""
    stopped = _StopAfter(watcher, stop_after, grace)
    while any(p.poll() is None for p in procs):
        if time.monotonic() >= deadline:
            return False
        if stopped.done():
            return True
        time.sleep(0.1)
    return True


class _StopAfter:
    """True ``grace`` s after the ranks ``ranks`` were all seen gone (never without ranks)."""

    def __init__(self, watcher, ranks, grace: float):
        self.watcher, self.ranks, self.grace, self.since = watcher, ranks, grace, None

    def done(self) -> bool:
        if not self.ranks or not all(r in self.watcher.exits for r in self.ranks):
            return False
        self.since = self.since or time.monotonic()
        return time.monotonic() - self.since >= self.grace


def _communicate(proc, watcher, tag, deadline: float, stop_after, grace: float) -> tuple[bytes, bytes]:
    stopped = _StopAfter(watcher, stop_after, grace)
    while True:
        try:
            return proc.communicate(timeout=0.25)
        except subprocess.TimeoutExpired:
            pass
        if time.monotonic() >= deadline:
            end_all(proc, tag)
            return b"", b"(timed out)"
        if stopped.done():
            end_all(proc, tag)
            return proc.communicate(timeout=10)


def run_cli(args: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60):
    """``paddle-doctor ARGS`` in its own session, cleaned up like a launch."""
    tag = tree.new_tag()
    proc = tree.start([sys.executable, "-m", "paddle_doctor.cli.main", *args], cwd,
                      tree.tagged_env(env or base_env(), tag), subprocess.PIPE, subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        end_all(proc, tag)
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


class _Watcher(threading.Thread):
    """A rank's exit time is when the last of its processes vanished: a worker's short-lived
    children (paddle runs helper commands at import) carry its rank and script name for a moment
    between fork and exec, and must not count as the rank exiting."""

    def __init__(self, tag: str):
        super().__init__(daemon=True)
        self.tag, self.alive, self.gone = tag, {}, {}  # pid -> rank; pid -> (rank, time)
        self._stop_event = threading.Event()

    @property
    def exits(self) -> dict[int, float]:
        out: dict[int, float] = {}
        for rank, when in self.gone.values():
            out[rank] = max(out.get(rank, 0.0), when)
        return {r: t for r, t in out.items() if r not in self.alive.values()}

    def run(self) -> None:
        while not self._stop_event.is_set():
            seen = dict(_workers(self.tag))
            now = time.time()
            for pid, rank in seen.items():
                if pid not in self.gone:
                    self.alive[pid] = rank
            for pid, rank in list(self.alive.items()):
                if pid not in seen or _state(pid) == "Z":
                    self.gone[pid] = (rank, now)
                    del self.alive[pid]
            self._stop_event.wait(0.05)

    def settle(self, timeout: float) -> None:
        """Wait (at most ``timeout`` s) until no worker seen alive is still alive, so that the exit
        of a worker that outlives its launcher by a moment is timed, not cut off by end_all."""
        until = time.monotonic() + timeout
        while self.alive and time.monotonic() < until and self.is_alive():
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=2)


def _environ(pid: int) -> dict[str, str]:
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    return dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item)


def _state(pid: int) -> str | None:
    state = procinfo.process_state(pid)
    return None if state is None else state[0]


def _workers(tag: str):
    """(pid, rank) of the workers: tagged, with a rank, running one of our scripts (not the short
    helper processes paddle starts at import, which inherit the environment too)."""
    for pid in tree.tagged_pids(tag):
        rank = _environ(pid).get("PADDLE_TRAINER_ID")
        if rank is not None and rank.isdigit() and str(HERE) in _cmdline(pid):
            yield pid, int(rank)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def end_all(proc: subprocess.Popen, tag: str) -> None:
    """SIGKILL our process group and every tagged process (stopped ones too) at once; reap. No
    SIGTERM first: a SIGSTOPped rank would only make us wait the grace out."""
    tree.end_all([proc], tag, grace=0)


NAMING_LINE = re.compile(r"^\[paddle-doctor\] watchdog on rank \d+: .*$", re.MULTILINE)


def naming_times(run, victim: int, world: int) -> dict[int, float]:
    """Survivor rank -> seconds from the fault until its process was gone, having named ``victim``."""
    t_fault = run.fault_time()
    out = {}
    for rank in (r for r in range(world) if r != victim):
        lines = NAMING_LINE.findall(run.log(rank))
        if rank in run.exits and t_fault is not None and any(f": rank {victim} " in line for line in lines):
            out[rank] = run.exits[rank] - t_fault
    return out
