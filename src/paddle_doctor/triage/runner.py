"""Run the baseline and each variation, bounded in time, and diagnose what each left behind."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from typing import ContextManager
from dataclasses import dataclass
from pathlib import Path

from paddle_doctor.findings import Diagnosis, Finding
from paddle_doctor.process.after_launch import error_records, launch_then_diagnose
from paddle_doctor.process.bounded_run import BoundedRun
from paddle_doctor.process.workers_python import ensure_guards
from paddle_doctor.triage.conclude import conclude, skipped_finding, variation_finding
from paddle_doctor.contract import APPLIED_PREFIX, VARIATIONS_ENV
from paddle_doctor.triage.plan import (Variation, accelerator_present, plan_variations, rewrite_command,
                                       skip_reason, variation_env)


@dataclass(frozen=True)
class Outcome:
    """One rerun: its variation, the process result, and the diagnosis of its logs (None: passed
    or nothing readable)."""

    variation: Variation
    launch: BoundedRun
    log_dir: Path
    diagnosis: Diagnosis | None

    @property
    def passed(self) -> bool:
        return self.launch.returncode == 0 and not error_records(self.log_dir)

    @property
    def changed(self) -> int | None:
        """How many things the variation changed in the workers (DataLoaders that asked for workers,
        non-CPU devices, checkpoint loads), from their ``paddle_doctor_applied.<rank>.json``; None
        for a variation of the command itself (baseline, single) or when no worker wrote a count."""
        if not self.variation.runtime:
            return None
        counts = [_read_count(p, self.variation.runtime) for p in sorted(self.log_dir.glob(f"{APPLIED_PREFIX}*.json"))]
        found = [c for c in counts if c is not None]
        return sum(found) if found else None

    def finding(self) -> Finding:
        return variation_finding(self.variation, self.passed, self.launch, self.diagnosis, self.log_dir, self.changed)


def _read_count(path: Path, name: str) -> int | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8")).get(name)
    except (OSError, ValueError, AttributeError):
        return None
    return value if type(value) is int and value >= 0 else None


@dataclass(frozen=True)
class TriageResult:
    findings: tuple[Finding, ...]  # one per variation that ran, baseline first
    conclusion: Finding
    outcomes: tuple[Outcome, ...]
    skipped: tuple[Finding, ...] = ()  # variations that need not run here, and why


def triage(cmd: Sequence[str], *, out_dir: str | os.PathLike, timeout: float = 120.0, checkpoint: bool = False,
           cwd: str | os.PathLike | None = None, environ: dict[str, str] | None = None,
           accelerator: bool | None = None, on_row: Callable[[Finding], None] | None = None,
           running: Callable[[str], ContextManager] | None = None) -> TriageResult:
    """Rerun ``cmd`` as is and under each variation; each run gets ``timeout`` seconds and its
    own folder ``out_dir/<variation>/`` (terminal.out, log/). ``accelerator``: whether this machine
    has a GPU (or another accelerator); default: read from /dev. ``out_dir`` and ``cwd``: a str or
    a path (a relative ``out_dir`` is relative to this process's working directory).
    ``on_row`` gets each variation's Finding as soon as it is known (live output), and
    ``running(name)`` wraps each rerun (a spinner on a terminal)."""
    out_dir, cwd = Path(out_dir), Path(cwd or os.getcwd())
    outcomes, skipped = [], []
    accelerator = accelerator_present() if accelerator is None else accelerator
    for variation in plan_variations(cmd, checkpoint=checkpoint):
        why = skip_reason(variation, _cause(outcomes[0].diagnosis) if outcomes else None, accelerator)
        if why:
            skipped.append(skipped_finding(variation, why))
            _tell(on_row, skipped[-1])
            continue
        with (running or _quietly)(variation.name):
            outcomes.append(_run_one(cmd, variation, out_dir / variation.name, timeout, cwd, environ))
        _tell(on_row, outcomes[-1].finding())
        if variation.name == "baseline" and outcomes[0].passed:
            break  # nothing to bisect: it did not fail
    findings = tuple(o.finding() for o in outcomes)
    return TriageResult(findings, conclude(findings, [o.diagnosis for o in outcomes]), tuple(outcomes),
                        tuple(skipped))


def _tell(on_row: Callable[[Finding], None] | None, finding: Finding) -> None:
    if on_row is not None:
        on_row(finding)


@contextlib.contextmanager
def _quietly(_name: str) -> Iterator[None]:
    yield


def _cause(diagnosis: Diagnosis | None) -> str | None:
    return diagnosis.root_cause.cause if diagnosis is not None and diagnosis.root_cause is not None else None


def _run_one(cmd: Sequence[str], variation: Variation, folder: Path, timeout: float, cwd: Path,
             environ: dict[str, str] | None) -> Outcome:
    from paddle_doctor.process import launchenv

    log_dir = (folder / "log").absolute()
    for stale in launchenv.stale_files(log_dir):
        stale.unlink()
    command = rewrite_command(cmd, variation, str(log_dir))
    env = launchenv.plan_run(command, log_dir=str(log_dir), environ=environ, cwd=cwd).env
    env.pop(VARIATIONS_ENV, None)
    env.update(variation_env(variation, command))
    ensure_guards(command, env, str(cwd), strict=True)  # the variations are applied by the guards: without them, stop
    done = launch_then_diagnose(command, cwd=cwd, env=env, log_dir=log_dir, output=folder / "terminal.out",
                                timeout=timeout)
    return Outcome(variation, done.launch, log_dir, done.diagnosis)

