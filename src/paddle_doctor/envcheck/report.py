"""``collect_env()``: every probe, the checks, one JSON-able report.

The probes run side by side (``nvidia-smi`` and the host-name lookup may each take a while) and
none imports paddle, so the report takes well under a second here. Facts that only an imported
Paddle knows are listed under ``needs_import``; ``import_paddle=True`` gets them from a separate
``python -c`` child (with a timeout), so a Paddle that crashes on import cannot take env down.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .. import __version__
from .checks import run_checks
from .probes.commands import CommandRunner, run_command
from .probes.gpu import probe_gpus
from .probes.packages import probe_packages
from .probes.paddle_build import probe_libraries, probe_paddle
from .probes.ports import probe_ports
from .probes.processes import CMD_CHARS, describe_pid, probe_processes
from .probes.system import probe_network, probe_system
from .probes.variables import proxy_variables, redact_text, shown_variables

ENV_SCHEMA = "paddle_doctor.env/1"
IMPORT_TIMEOUT_S = 120.0
NEEDS_IMPORT = {
    "gpu_count_paddle": "paddle.device.cuda.device_count(): the GPUs Paddle itself can use",
    "compiled_with_cuda": "paddle.is_compiled_with_cuda() as the loaded library reports it",
    "cuda_init": "whether Paddle's CUDA initialisation succeeds on this driver",
}
_IMPORT_PROBE = """
import gc, json, paddle
gc.freeze()  # paddle's million objects: not walked again by the interpreter's last collection (~0.35 s)
out = {"compiled_with_cuda": bool(paddle.is_compiled_with_cuda()), "gpu_count_paddle": 0, "cuda_init": None}
if out["compiled_with_cuda"]:
    try:
        out["gpu_count_paddle"] = int(paddle.device.cuda.device_count())
        out["cuda_init"] = "ok"
    except Exception as exc:
        out["cuda_init"] = f"{type(exc).__name__}: {exc}"[:300]
print("PADDLE_DOCTOR_IMPORT " + json.dumps(out))
"""


def collect_env(environ: Mapping[str, str] | None = None, *, run: CommandRunner = run_command,
                proc_root: Path = Path("/proc"), import_paddle: bool = False) -> dict[str, Any]:
    """The env report: ``{"schema", "time", "paddle_doctor", facts..., "needs_import", "findings"}``."""
    env = dict(os.environ if environ is None else environ)
    with ThreadPoolExecutor(max_workers=4) as pool:
        gpu = pool.submit(probe_gpus, run, proc_root)
        network = pool.submit(probe_network, run)
        processes = pool.submit(probe_processes, proc_root)
        ports = pool.submit(probe_ports, env, proc_root)
        facts: dict[str, Any] = {
            "system": probe_system(proc_root), "paddle": probe_paddle(), "libraries": probe_libraries(env),
            "packages": probe_packages(), "variables": shown_variables(env), "proxies": proxy_variables(env),
            "gpu": gpu.result(), "network": network.result(), "processes": processes.result(),
            "ports": _describe_holders(ports.result(), proc_root),
        }
    _redact_commands(facts)
    installed = bool(facts["paddle"].get("installed"))
    facts["needs_import"] = dict(NEEDS_IMPORT) if installed and not import_paddle else {}
    if import_paddle and installed:
        facts["paddle_import"] = import_probe()
    findings = run_checks(facts)
    return {"schema": ENV_SCHEMA, "time": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "paddle_doctor": __version__, **facts, "findings": [f.to_dict() for f in findings]}


def import_probe(python: str = sys.executable, timeout: float = IMPORT_TIMEOUT_S) -> dict[str, Any]:
    """The facts of NEEDS_IMPORT, from a child that imports paddle; ``{"error": ...}`` if it fails."""
    try:
        proc = subprocess.run([python, "-c", _IMPORT_PROBE], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return {"error": f"import paddle did not finish within {timeout:g} s"}
    for line in proc.stdout.splitlines():
        if line.startswith("PADDLE_DOCTOR_IMPORT "):
            return json.loads(line.split(" ", 1)[1])
    tail = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
    return {"error": f"import paddle failed: {redact_text(tail)[:300]}"}


def _describe_holders(ports: list[dict[str, Any]], proc_root: Path) -> list[dict[str, Any]]:
    for entry in ports:
        entry["holders"] = [describe_pid(proc_root, pid) or {"pid": pid} for pid in entry["holders"]]
    return ports


def _redact_commands(facts: dict[str, Any]) -> None:
    # Command lines may carry tokens (--api-key X, URL passwords); paths under $HOME become ~.
    home = os.path.expanduser("~")
    for proc in facts["processes"]["paddle"]:
        proc["cmd"] = redact_text(proc["cmd"], home)[:CMD_CHARS]  # redact first, then cut
    for entry in facts["ports"]:
        for holder in entry["holders"]:
            if "cmd" in holder:
                holder["cmd"] = redact_text(holder["cmd"], home)[:CMD_CHARS]
    for app in facts["gpu"]["processes"]:
        app["name"] = redact_text(str(app.get("name")), home)[:CMD_CHARS]
    facts["system"]["python"]["executable"] = redact_text(facts["system"]["python"]["executable"], home)
    if facts["paddle"].get("location"):
        facts["paddle"]["location"] = redact_text(facts["paddle"]["location"], home)
