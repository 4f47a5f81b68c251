"""Build the smoke launch, run it bounded in time, and turn what the ranks wrote into Findings."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from paddle_doctor.contract import SMOKE_DEVICE_ENV, SMOKE_FAULT_ENV
from paddle_doctor.findings import Diagnosis, Finding
from paddle_doctor.process.after_launch import launch_then_diagnose
from paddle_doctor.process.bounded_run import BoundedRun
from paddle_doctor.process.workers_python import ensure_guards
from paddle_doctor.smoke.results import check_findings, launch_finding, passed

WORKER = Path(__file__).resolve().parents[1] / "runtime" / "smoke_worker.py"  # what each launched rank runs
FAULTS = ("raise", "kill", "exit")


@dataclass(frozen=True)
class SmokeOptions:
    out_dir: Path
    nproc: int = 2
    nnodes: int = 1
    master: str | None = None  # HOST:PORT, needed with nnodes > 1
    device: str = "cpu"
    timeout: float = 180.0
    fault: str | None = None  # "KIND:RANK", see the worker
    python: str = sys.executable


@dataclass(frozen=True)
class SmokeRun:
    options: SmokeOptions
    launch: BoundedRun
    findings: tuple[Finding, ...]  # one per check, in the worker's order
    diagnosis: Diagnosis | None = None  # when the launch failed
    ranks_seen: tuple[int, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return self.launch.returncode == 0 and passed(self.findings)

    @property
    def log_dir(self) -> Path:
        return self.options.out_dir / "log"


def build_command(options: SmokeOptions) -> list[str]:
    cmd = [options.python, "-m", "paddle.distributed.launch", "--nproc_per_node", str(options.nproc),
           "--log_dir", str(options.out_dir / "log")]
    if options.nnodes > 1:
        cmd += ["--nnodes", str(options.nnodes), "--master", str(options.master)]
    if options.device == "gpu":
        cmd += ["--devices", ",".join(str(i) for i in range(options.nproc))]
    return cmd + [str(WORKER), str(options.out_dir / "results")]


def build_env(options: SmokeOptions, cmd: list[str]) -> dict[str, str]:
    """``paddle-doctor run``'s guards (error records, watchdog), plus the worker's own settings."""
    from paddle_doctor.process import launchenv

    env = launchenv.plan_run(cmd, cwd=options.out_dir).env
    env = {k: v for k, v in env.items() if k != SMOKE_FAULT_ENV}
    env[SMOKE_DEVICE_ENV] = options.device
    if options.fault:
        env[SMOKE_FAULT_ENV] = options.fault
    ensure_guards(cmd, env)
    return env


def run_smoke(options: SmokeOptions) -> SmokeRun:
    out = options.out_dir
    out.mkdir(parents=True, exist_ok=True)
    for stale in (out / "results").glob("smoke.*.json"):  # never report an earlier run's checks
        stale.unlink()
    cmd = build_command(options)
    done = launch_then_diagnose(cmd, cwd=out, env=build_env(options, cmd), log_dir=out / "log",
                                output=out / "terminal.out", timeout=options.timeout)
    findings, ranks = check_findings(out / "results", _expected_ranks(options), done.diagnosis)
    launch = launch_finding(done.launch, options.timeout, done.diagnosis) if passed(findings) else None
    return SmokeRun(options, done.launch, findings + ((launch,) if launch else ()), done.diagnosis, ranks)


def _expected_ranks(options: SmokeOptions) -> int | None:
    """How many result files this node should see (its own ranks), or None when unknown."""
    return options.nproc


def parse_master(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"--master must be HOST:PORT, not {value!r}")
    return host, int(port)


def check_fault(value: str) -> str:
    kind, _, rank = value.partition(":")
    if kind not in FAULTS or (rank and not rank.isdigit()):
        raise ValueError(f"--inject-fault must be KIND[:RANK] with KIND one of {', '.join(FAULTS)}, not {value!r}")
    return f"{kind}:{rank or 1}"


def default_out_dir() -> Path:
    return Path(os.getcwd()) / "paddle-doctor-smoke"
