"""The machine: Python, OS, CPU, memory, /dev/shm, the open-file limit, container, host names and
addresses. Read from /proc, /sys, :mod:`os`, :mod:`platform` and :mod:`socket`; nothing is run
except ``ip -o addr`` (bounded by a timeout) for the interface addresses.
"""

from __future__ import annotations

import os
import platform
import shutil
import socket
import sys
from pathlib import Path
from typing import Any

from paddle_doctor.process.bounded_run import call_within
from paddle_doctor.process.forked import affinity_cores

from .commands import CommandRunner

RESOLVE_TIMEOUT_S = 0.5


def probe_system(proc_root: Path = Path("/proc")) -> dict[str, Any]:
    return {
        "python": {"version": platform.python_version(), "executable": sys.executable,
                   "implementation": platform.python_implementation()},
        "os": {"system": platform.system(), "release": platform.release(), "machine": platform.machine(),
               "distro": _os_release(), "container": _container(proc_root), "wsl": "microsoft" in
               platform.release().lower()},
        "cpu": {"count": os.cpu_count(), "usable": affinity_cores(), "model": _cpu_model(proc_root)},
        "memory": _memory(proc_root),
        "shm": disk_usage("/dev/shm"),
        "open_files": _open_file_limit(),
    }


def disk_usage(path: str) -> dict[str, Any] | None:
    try:
        usage = shutil.disk_usage(path)
    except OSError:
        return None
    return {"path": path, "total_bytes": usage.total, "free_bytes": usage.free}


def probe_network(run: CommandRunner) -> dict[str, Any]:
    """Host name, what it resolves to (``gethostbyname(getfqdn(hostname))``: the address Paddle's
    launcher advertises for this node unless ``--host``/``POD_IP`` says otherwise), and the
    interface addresses."""
    hostname = socket.gethostname()
    return {"hostname": hostname, "fqdn_ip": _resolve(hostname), "addresses": _interface_addresses(run)}


def _resolve(hostname: str) -> str | None:
    # gethostbyname can wait for DNS for seconds; env must stay fast, so give it a deadline.
    return call_within(lambda: socket.gethostbyname(socket.getfqdn(hostname)), RESOLVE_TIMEOUT_S, None)


def _interface_addresses(run: CommandRunner) -> list[dict[str, str]]:
    out = run(("ip", "-o", "addr", "show"), 2.0)
    if out is None or not out.ok:
        return []
    addresses = []
    for line in out.stdout.splitlines():
        parts = line.split()
        # "2: eth0    inet 10.0.0.5/24 brd ... scope global eth0"
        if len(parts) >= 4 and parts[2] in ("inet", "inet6"):
            addresses.append({"interface": parts[1].rstrip(":"), "family": parts[2],
                              "address": parts[3].split("/")[0]})
    return addresses


def _os_release() -> str | None:
    try:
        text = Path("/etc/os-release").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip('"')
    return None


def _container(proc_root: Path) -> str | None:
    if Path("/.dockerenv").exists():
        return "docker"
    if os.environ.get("KUBERNETES_SERVICE_HOST"):
        return "kubernetes"
    try:
        cgroup = (proc_root / "1/cgroup").read_text()
    except OSError:
        return None
    for name in ("docker", "kubepods", "containerd", "lxc", "podman"):
        if name in cgroup:
            return name
    return None


def _cpu_model(proc_root: Path) -> str | None:
    try:
        with open(proc_root / "cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def _memory(proc_root: Path) -> dict[str, Any] | None:
    try:
        text = (proc_root / "meminfo").read_text()
    except OSError:
        return None
    values = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name in ("MemTotal", "MemAvailable", "SwapTotal"):
            values[name] = int(rest.split()[0]) * 1024
    return {"total_bytes": values.get("MemTotal"), "available_bytes": values.get("MemAvailable"),
            "swap_total_bytes": values.get("SwapTotal"), "cgroup_limit_bytes": _cgroup_memory_limit()}


def _cgroup_memory_limit() -> int | None:
    # cgroup v2, then v1; "max" or a huge number means no limit
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(path).read_text().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:
            return int(text)
        return None
    return None


def _open_file_limit() -> dict[str, int | None] | None:
    try:
        import resource  # not on Windows
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    unlimited = resource.RLIM_INFINITY
    return {"soft": None if soft == unlimited else soft, "hard": None if hard == unlimited else hard}
