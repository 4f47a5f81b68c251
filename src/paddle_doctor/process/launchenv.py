"""What ``paddle-doctor run`` changes around the user's command: environment and log dir only.

The command runs unchanged. The guards reach every worker through the environment: a folder
holding only our ``sitecustomize.py`` goes in front of PYTHONPATH (it chains to any existing
sitecustomize), and PADDLE_DOCTOR_* variables say what to install. Pure functions, no paddle.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paddle_doctor.contract import (APPLIED_PREFIX, DEBUG_LOGS_ENV, FAULT_PREFIX, GUARDS_ENV, LOG_DIR_ENV, OWNER_ENV, RECORD_PREFIX,
                                    RUN_ID_ENV, SINGLE_ENV, WATCHDOG_TIMEOUT_ENV, is_leftover)

SITE_DIR = Path(__file__).resolve().parents[1] / "runtime" / "launch" / "sitecustomize"  # what the workers import
LAUNCH_MODULES = ("paddle.distributed.launch", "paddle.distributed.fleet.launch")
DEFAULT_LOG_DIR = "log"  # both launchers' default --log_dir
ABORT_MARKER = b"ABORT!!!"  # the old launcher's failure line; some versions still exit 0 after it


def clean_env(environ: MutableMapping[str, str] | None = None, *, keep: tuple[str, ...] = ()) -> dict[str, str]:
    """Remove leftover launcher variables from ``environ`` (default: ``os.environ``), except
    those in ``keep``; returns what was removed (name -> value).

    Guide 001 §3.3: a one-process evaluation started from a shell, notebook or job that still holds
    ``PADDLE_TRAINER_*`` tries to join peers that do not exist. Measured on Paddle 3.3.1: without
    PADDLE_DISTRI_BACKEND it hangs silently in the legacy HTTP store (effectively forever), with it
    the store gives up after 900 s, and two unrelated jobs with the same leftovers silently join
    each other. ``FLAGS_selected_gpus`` left over pins the process to another rank's GPU. A user's
    script calls it at the very top, before anything distributed is created; ``run --single``
    calls it for the command."""
    env = os.environ if environ is None else environ
    removed = {k: env[k] for k in sorted(env) if is_leftover(k) and k not in keep}
    for k in removed:
        del env[k]
    return removed


@dataclass
class RunPlan:
    cmd: list[str]
    env: dict[str, str]
    log_dir: Path
    launcher: bool
    removed: dict[str, str] = field(default_factory=dict)  # leftover variables dropped (--single)
    rendezvous_timeout: float | None = None  # end a launcher whose nodes never all registered (s)


def is_launcher(cmd: Sequence[str]) -> bool:
    return any(a in LAUNCH_MODULES for a in cmd) or any(Path(a).name == "fleetrun" for a in cmd[:2])


def launcher_log_dir(cmd: Sequence[str]) -> str | None:
    """The value of ``--log_dir`` (or ``--log-dir``) in a launcher command line."""
    for i, arg in enumerate(cmd):
        for flag in ("--log_dir", "--log-dir"):
            if arg == flag and i + 1 < len(cmd):
                return cmd[i + 1]
            if arg.startswith(flag + "="):
                return arg.split("=", 1)[1]
    return None


def plan_run(cmd: Sequence[str], *, trace: bool = False, check: bool = False, debug_logs: bool = False,
             single: bool = False, watchdog: bool = True, watchdog_timeout: float | None = None,
             log_dir: str | None = None, environ: Mapping[str, str] | None = None,
             cwd: str | os.PathLike | None = None, rendezvous_timeout: float | None = None) -> RunPlan:
    env = dict(os.environ if environ is None else environ)
    launcher = is_launcher(cmd)
    removed = clean_env(env) if single else {}
    base = Path(cwd or os.getcwd())
    chosen = (launcher_log_dir(cmd) if launcher else None) or log_dir or DEFAULT_LOG_DIR
    directory = (base / chosen).absolute()
    guards = ["record"] + (["watchdog"] if watchdog else []) + (["trace"] if trace or check else []) + \
        (["check"] if check else [])
    env[GUARDS_ENV] = ",".join(guards)
    env[LOG_DIR_ENV] = str(directory)
    env[RUN_ID_ENV] = uuid.uuid4().hex[:12]
    env.pop(OWNER_ENV, None)
    env["PYTHONPATH"] = os.pathsep.join([str(SITE_DIR)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    if not launcher:
        env[SINGLE_ENV] = "1"
    if watchdog_timeout is not None:
        env[WATCHDOG_TIMEOUT_ENV] = str(watchdog_timeout)
    if debug_logs:
        env.update(debug_env(env))
    return RunPlan(list(cmd), env, directory, launcher, removed, rendezvous_timeout if launcher else None)


def debug_env(env: Mapping[str, str]) -> dict[str, str]:
    """Guide 000 §3.1: Paddle's verbose log and NCCL's, the latter in one file per rank (the
    per-rank NCCL_DEBUG_FILE is set by each worker's sitecustomize, which knows its rank)."""
    out = {DEBUG_LOGS_ENV: "1"}
    for key, value in (("GLOG_v", "4"), ("NCCL_DEBUG", "INFO")):
        if key not in env:
            out[key] = value
    return out


def stale_files(log_dir: Path) -> list[Path]:
    """Records, crash dumps and variation counts left in ``log_dir`` by an earlier run (removed
    before a new one, so that a diagnosis never mixes runs)."""
    if not log_dir.is_dir():
        return []
    return sorted(p for p in log_dir.iterdir()
                  if p.name.startswith((RECORD_PREFIX, FAULT_PREFIX, APPLIED_PREFIX)))


def empty_dumps(log_dir: Path) -> list[Path]:
    """Crash dump files nobody wrote to (a rank killed by SIGKILL leaves its empty file)."""
    return [p for p in stale_files(log_dir) if p.name.startswith(FAULT_PREFIX) and p.stat().st_size == 0]


def shell_code(returncode: int) -> int:
    """A signal death (-N from subprocess) as a shell reports it: 128 + N."""
    return 128 - returncode if returncode < 0 else returncode
