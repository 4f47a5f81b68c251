"""Paddle processes on this machine, read from /proc: launchers and their workers, with their state,
age, rank, listening ports and whether they are this command's own ancestors.

A worker is recognised by its command line (the launchers' module names) or, for processes of
the same user, by ``PADDLE_TRAINER_ID`` in ``/proc/PID/environ``. Only names are read from the
environment, never values other than the rank.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

LAUNCH_MODULES = frozenset({"paddle.distributed.launch", "paddle.distributed.fleet.launch"})
PYTHON_OPTIONS_WITH_VALUE = frozenset({"-W", "-X", "-Q"})
WORKER_MARKERS = (b"PADDLE_TRAINER_ID=", b"PADDLE_CURRENT_ENDPOINT=")
CMD_CHARS = 200  # shown; the report cuts to this after redacting (a cut first can split a password)
CMD_READ = 1 << 16  # read: enough for any command line whose secrets redaction must see whole


def probe_processes(proc_root: Path = Path("/proc"), self_pid: int | None = None) -> dict[str, Any]:
    """``{"paddle": [process...], "under_launcher": bool}``: Paddle launchers and workers other
    than this process, and whether this command itself runs inside a launcher."""
    self_pid = os.getpid() if self_pid is None else self_pid
    table = {pid: info for pid in _pids(proc_root) if (info := _stat(proc_root, pid))}
    ancestors = _ancestors(table, self_pid)
    uptime = _uptime(proc_root)
    paddle = []
    for pid, info in sorted(table.items()):
        if pid == self_pid:
            continue
        argv = _argv(proc_root, pid)
        cmd = " ".join(argv)
        rank = _worker_rank(proc_root, pid)
        is_launcher = launcher_argv(argv)
        if not is_launcher and rank is None:
            continue
        paddle.append({"pid": pid, "ppid": info["ppid"], "state": info["state"], "role":
                       "launcher" if is_launcher else "worker", "rank": rank, "cmd": cmd[:CMD_READ],
                       "age_s": _age(info, uptime), "ancestor": pid in ancestors,
                       "orphan": info["ppid"] == 1, "ports": sorted(socket_ports(proc_root, pid))})
    under = any(p["ancestor"] and p["role"] == "launcher" for p in paddle)
    return {"paddle": paddle, "under_launcher": under}


def describe_pid(proc_root: Path, pid: int) -> dict[str, Any] | None:
    info = _stat(proc_root, pid)
    if info is None:
        return None
    return {"pid": pid, "ppid": info["ppid"], "state": info["state"], "cmd": _cmdline(proc_root, pid)[:CMD_READ],
            "age_s": _age(info, _uptime(proc_root))}


def listening_ports(proc_root: Path = Path("/proc")) -> dict[int, int]:
    """TCP port -> socket inode of every listening socket (IPv4 and IPv6)."""
    ports: dict[int, int] = {}
    for name in ("tcp", "tcp6"):
        try:
            lines = (proc_root / "net" / name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 9 and cols[3] == "0A":  # 0A = TCP_LISTEN
                ports.setdefault(int(cols[1].rsplit(":", 1)[1], 16), int(cols[9]))
    return ports


def socket_ports(proc_root: Path, pid: int, listeners: dict[int, int] | None = None) -> set[int]:
    """The listening ports whose socket ``pid`` holds (readable for our own processes only)."""
    listeners = listening_ports(proc_root) if listeners is None else listeners
    by_inode = {inode: port for port, inode in listeners.items()}
    return {by_inode[inode] for inode in _socket_inodes(proc_root, pid) if inode in by_inode}


def holders_of(proc_root: Path, inode: int) -> list[int]:
    """PIDs (that we may read) holding the socket ``inode``."""
    return [pid for pid in _pids(proc_root) if inode in _socket_inodes(proc_root, pid)]


def _socket_inodes(proc_root: Path, pid: int) -> set[int]:
    inodes = set()
    try:
        fds = os.scandir(proc_root / str(pid) / "fd")
    except OSError:
        return inodes
    with fds:
        for fd in fds:
            try:
                target = os.readlink(fd.path)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(int(target[8:-1]))
    return inodes


def _pids(proc_root: Path) -> list[int]:
    try:
        return [int(name) for name in os.listdir(proc_root) if name.isdigit()]
    except OSError:
        return []


def _stat(proc_root: Path, pid: int) -> dict[str, Any] | None:
    try:
        text = (proc_root / str(pid) / "stat").read_text()
    except OSError:
        return None
    # "pid (comm) state ppid ..." - comm may hold spaces and parentheses: split after the last ")"
    rest = text[text.rfind(")") + 2:].split()
    return {"state": rest[0], "ppid": int(rest[1]), "start_ticks": int(rest[19])}


def _cmdline(proc_root: Path, pid: int) -> str:
    return " ".join(_argv(proc_root, pid))


def _argv(proc_root: Path, pid: int) -> list[str]:
    try:
        raw = (proc_root / str(pid) / "cmdline").read_bytes()
    except OSError:
        return []
    return raw.rstrip(b"\0").decode(errors="replace").split("\0") if raw.strip(b"\0") else []


def launcher_argv(argv: list[str]) -> bool:
    """Whether the program itself is a Paddle launcher: ``python -m paddle.distributed.launch``,
    ``fleetrun`` or ``paddle-doctor run``. A shell, ``timeout`` or ``nohup`` that runs one is not
    (its ``-c`` string or arguments name the launcher, but it is not one: the docs walk counted a
    ``bash -c "paddle-doctor run ..."`` as a Paddle process of another run)."""
    words = list(argv)
    if words and Path(words[0]).name.startswith("python"):
        words = words[1:]
        while words and words[0].startswith("-") and words[0] not in ("-m", "-c", "-"):
            words = words[2:] if words[0] in PYTHON_OPTIONS_WITH_VALUE else words[1:]
        if words[:1] == ["-m"]:
            return words[1:2] != [] and words[1] in LAUNCH_MODULES
    if not words or words[0].startswith("-"):
        return False
    name = Path(words[0]).name
    return name == "fleetrun" or (name == "paddle-doctor" and words[1:2] == ["run"])


def _worker_rank(proc_root: Path, pid: int) -> int | None:
    try:
        raw = (proc_root / str(pid) / "environ").read_bytes()
    except OSError:
        return None
    for item in raw.split(b"\0"):
        if item.startswith(WORKER_MARKERS[0]):
            value = item[len(WORKER_MARKERS[0]):]
            return int(value) if value.isdigit() else -1
    return -1 if WORKER_MARKERS[1] in raw else None


def _ancestors(table: dict[int, dict[str, Any]], pid: int) -> set[int]:
    seen = set()
    while pid in table and pid not in seen and pid > 1:
        seen.add(pid)
        pid = table[pid]["ppid"]
    return seen


def _uptime(proc_root: Path) -> float | None:
    try:
        return float((proc_root / "uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _age(info: dict[str, Any], uptime: float | None) -> int | None:
    if uptime is None:
        return None
    return max(0, int(uptime - info["start_ticks"] / os.sysconf("SC_CLK_TCK")))
