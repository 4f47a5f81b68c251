"""One job across the harness's hosts: one ``python -m paddle.distributed.launch`` per host, each in
its own folder (``<tmp>/<hostname>/``: ``terminal.txt`` and ``log/``), every one bounded.

Host 0 holds the master (``--master <host 0's address>:PORT``) and starts first; the others start
once its master port listens (as an operator would), or at once when the scenario says so. A
watcher thread notes, per global rank, when its worker process vanished (polling /proc every
50 ms: the pid namespace is the machine's, only the network, hostname and mounts are the host's).
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from guards.harness import base_env
from hostkit.netns import Hosts
from paddle_doctor.process import tree

HERE = Path(__file__).resolve().parent
MASTER_PORT = 6170  # any port: each host's ports are its own
MASTER_WAIT_S = 40.0
# How a survivor names the culprit: its watchdog's line, or the guard's own error when the rank was
# waiting in evaluate (``PeerFailedError: rank 2 raised ValueError: ...; rank 0 stops instead of waiting``).
NAMING_LINE = re.compile(r"^(?:\[paddle-doctor\] watchdog on rank \d+|paddle_doctor\.errors\.\w+Error): (.*)$",
                         re.MULTILINE)


@dataclass
class HostRun:
    index: int
    hostname: str
    folder: Path
    proc: object = None

    @property
    def log_dir(self) -> Path:
        return self.folder / "log"

    def terminal(self) -> str:
        path = self.folder / "terminal.txt"
        return path.read_text(errors="replace") if path.exists() else ""

    def logs(self) -> dict[int, str]:
        """Global rank -> its workerlog's text (the rank from the log's ``PDOC_RANK`` line)."""
        out = {}
        for path in sorted(self.log_dir.glob("workerlog.*")):
            text = path.read_text(errors="replace")
            found = re.search(r"^PDOC_RANK (\d+) ", text, re.MULTILINE)
            if found:
                out[int(found.group(1))] = text
        return out


@dataclass
class Job:
    hosts: Hosts
    runs: list[HostRun]
    started: float  # monotonic
    exits: dict[int, float] = field(default_factory=dict)  # global rank -> time.time() its worker vanished
    timed_out: bool = False
    fault_at: float | None = None  # time.time() of a fault injected from outside

    def logs(self) -> dict[int, str]:
        return {r: t for run in self.runs for r, t in run.logs().items()}

    def host_of(self, rank: int) -> int | None:
        return next((run.index for run in self.runs if rank in run.logs()), None)

    def ranks_on(self, host: int) -> list[int]:
        return sorted(self.runs[host].logs())

    def results(self) -> dict[int, dict]:
        out = {}
        for rank, text in self.logs().items():
            found = re.search(r"^PDOC_RESULT (.*)$", text, re.MULTILINE)
            if found:
                out[rank] = json.loads(found.group(1))
        return out

    def fault_time(self, marker: str = "PDOC_FAULT_AT") -> float | None:
        times = [float(m) for text in self.logs().values() for m in re.findall(rf"{marker} (\d+\.\d+)", text)]
        return min(times) if times else None

    def namings(self) -> dict[int, str]:
        """Survivor rank -> its watchdog line (the first)."""
        out = {}
        for rank, text in self.logs().items():
            found = NAMING_LINE.search(text)
            if found:
                out[rank] = found.group(1)
        return out

    def describe(self) -> str:
        parts = []
        for run in self.runs:
            parts.append(f"--- {run.hostname} terminal (rc {run.proc.returncode if run.proc else None})\n"
                         f"{run.terminal()[-1500:]}")
            for rank, text in sorted(run.logs().items()):
                parts.append(f"--- {run.hostname} rank {rank}\n{text[-1500:]}")
        return "\n".join(parts)


def host_env(**extra: str) -> dict[str, str]:
    return base_env(PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1", **extra)


def launcher_cmd(script: str, args: list[str], *, master: str, nnodes: int, nproc: int,
                 run_opts: list[str] | None = None) -> list[str]:
    cmd = [sys.executable, "-m", "paddle.distributed.launch", "--master", master, "--nnodes", str(nnodes),
           "--nproc_per_node", str(nproc), "--log_dir", "log", str(HERE / script), *args]
    if run_opts is not None:
        cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "run", *run_opts, "--", *cmd]
    return cmd


def start_job(hosts: Hosts, tmp: Path, script: str, args: list[str], *, nproc: int = 1, env=None,
              commands: dict[int, list[str]] | None = None, shm_sizes: dict[int, str] | None = None,
              wait_master: bool = True, port: int = MASTER_PORT, nodes: int | None = None) -> Job:
    """Start one launcher on each of the first ``nodes`` hosts (default: all); ``commands``
    replaces a host's command (a wrong --master, ...)."""
    env = env or host_env()
    master = f"{hosts.addr(0)}:{port}"
    nodes = nodes or hosts.n
    runs = [HostRun(i, hosts.hostnames[i], tmp / hosts.hostnames[i]) for i in range(nodes)]
    job = Job(hosts, runs, time.monotonic())
    for run in runs:
        run.folder.mkdir(parents=True, exist_ok=True)
        cmd = (commands or {}).get(run.index) or launcher_cmd(script, args, master=master, nnodes=nodes,
                                                              nproc=nproc)
        if run.index == 1 and wait_master:
            wait_listening(hosts, 0, port, job.started + MASTER_WAIT_S)
        run.proc = hosts.start(run.index, cmd, cwd=run.folder, env=env, out=run.folder / "terminal.txt",
                               shm_size=(shm_sizes or {}).get(run.index))
    return job


def wait_listening(hosts: Hosts, i: int, port: int, deadline: float) -> None:
    while time.monotonic() < deadline and not hosts.listening(i, port):
        time.sleep(0.2)


def wait_job(job: Job, deadline_s: float, *, until=None) -> bool:
    """Until every launcher exits, or ``until(job)`` is true (True), or ``deadline_s`` from the
    start (False: timed out; the caller closes the hosts, which kills what is left)."""
    watcher = ExitWatcher(job)
    watcher.start()
    try:
        end = job.started + deadline_s
        while any(r.proc.poll() is None for r in job.runs):
            if until is not None and until(job):
                break
            if time.monotonic() >= end:
                job.timed_out = True
                break
            time.sleep(0.1)
        watcher.settle(3.0)
    finally:
        watcher.stop()
    return not job.timed_out


class ExitWatcher(threading.Thread):
    """Global rank -> when its worker process vanished (or turned zombie)."""

    def __init__(self, job: Job):
        super().__init__(daemon=True)
        self.job, self.alive = job, {}
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            seen = dict(workers(self.job.hosts.proc_tag))
            now = time.time()
            for pid, rank in seen.items():
                self.alive.setdefault(pid, rank)
            for pid, rank in list(self.alive.items()):
                if pid not in seen or _state(pid) == "Z":
                    self.job.exits[rank] = max(self.job.exits.get(rank, 0.0), now)
                    del self.alive[pid]
            self._stop_event.wait(0.05)

    def settle(self, timeout: float) -> None:
        until = time.monotonic() + timeout
        while self.alive and time.monotonic() < until:
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=2)
        for rank in set(self.alive.values()):
            self.job.exits.pop(rank, None)  # still alive: no exit time


def workers(tag: str):
    """(pid, global rank) of each of the job's tagged worker processes (their environment, a script of hostkit)."""
    for pid in tree.tagged_pids(tag):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        rank = next((e[len(b"PADDLE_TRAINER_ID="):] for e in environ if e.startswith(b"PADDLE_TRAINER_ID=")), None)
        if rank is not None and rank.isdigit() and str(HERE).encode() in cmdline:
            yield pid, int(rank)


def _state(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[-1].split()[0]


class FaultWhenEvaluating:
    """An ``until`` for :func:`wait_job`: once a rank of host ``host`` has printed ``PDOC_IN_EVAL``,
    wait ``delay`` s, run ``action()`` (kill the host, cut its link) and note the time in
    ``job.fault_at``; never stops the wait itself."""

    def __init__(self, host: int, action, delay: float = 1.0):
        self.host, self.action, self.delay, self.done = host, action, delay, False

    def __call__(self, job: Job) -> bool:
        if self.done or not any("PDOC_IN_EVAL" in text for text in job.runs[self.host].logs().values()):
            return False
        time.sleep(self.delay)
        job.fault_at = time.time()
        self.action()
        self.done = True
        return False


def stop_gently(job: Job, wait_s: float = 6.0) -> None:
    """What Ctrl-C or ``timeout`` does to a launcher that waits forever: SIGTERM to each host's
    launcher, then ``wait_s`` for its workers' dumps (evidence) before the hosts are closed."""
    tree.terminate_gently([r.proc for r in job.runs if r.proc is not None], wait_s)


def host_paths(run: HostRun) -> list[str]:
    """What a user of that host has: its terminal and, once the launcher started a pod, its log dir."""
    return [str(p) for p in (run.folder / "terminal.txt", run.log_dir) if p.exists()]


def reference_result(tmp: Path, args: list[str], timeout: float = 60) -> dict:
    """The same evaluation in one plain process (no launcher, no namespace)."""
    import subprocess

    proc = subprocess.run([sys.executable, str(HERE / "host_eval.py"), *args], cwd=tmp, env=host_env(),
                          capture_output=True, text=True, timeout=timeout)
    found = re.search(r"^PDOC_RESULT (.*)$", proc.stdout, re.MULTILINE)
    assert found, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(found.group(1))
