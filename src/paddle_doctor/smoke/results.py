"""What the smoke ranks wrote (``results/smoke.<rank>.json``) as one Finding per check.

A check passes when every expected rank ran it and found the right value. Each check names the
catalog cause its failure points to; a check that raised on the rank diagnose blames takes the
diagnosed cause instead (the diagnosis knows more than the check's name).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from paddle_doctor.findings import Diagnosis, Finding, Outcome
from ..catalog.ids import CauseId
from ..rules import Docs


@dataclass(frozen=True)
class SmokeCheck:
    """One check the smoke ranks run, declared as a rule of the shared protocol
    (:mod:`paddle_doctor.rules`). It runs inside the launched workers, under paddle, so ``check`` is
    where it lives (``runtime/smoke_worker.py``), not the function itself."""

    code: str  # the check's name in the rank files (its Finding's code is ``smoke.<code>``)
    message: str  # what it proves
    cause: CauseId  # the cause its failure points to when diagnose knows no better
    check: str  # "paddle_doctor.runtime.smoke_worker:<function>"
    example: str  # what a rank writes when the check fails (its detail, or the exception it raised)

    @property
    def docs(self) -> Docs:
        return Docs(source=self.check, example=self.example)


_WORKER = "paddle_doctor.runtime.smoke_worker:"
SMOKE_CHECKS: tuple[SmokeCheck, ...] = (
    SmokeCheck("all_reduce", "all_reduce sums one value per rank", CauseId.nccl_error, _WORKER + "_all_reduce",
               "sum [3.0, 1.0] (want [3.0, 2.0])"),
    SmokeCheck("all_gather", "all_gather collects one value per rank, in rank order", CauseId.nccl_error,
               _WORKER + "_all_gather", "gathered [10, 0]"),
    SmokeCheck("broadcast", "broadcast copies rank 0's value to every rank", CauseId.nccl_error,
               _WORKER + "_broadcast", "rank 0's value -1 (want 42)"),
    SmokeCheck("reduce", "reduce sums onto rank 0", CauseId.nccl_error, _WORKER + "_reduce",
               "sum on rank 0 1 (want 3)"),
    SmokeCheck("scatter", "scatter hands rank r its piece", CauseId.nccl_error, _WORKER + "_scatter",
               "piece 100 (want 101)"),
    SmokeCheck("barrier", "barrier: every rank arrives", CauseId.collective_timeout, _WORKER + "_barrier",
               "RuntimeError: the barrier timed out waiting for rank 1"),
    SmokeCheck("train_step", "one DataParallel step leaves identical weights on every rank",
               CauseId.rank_divergent_collective, _WORKER + "_train_step",
               "loss 1.0986; weight checksum per rank [41.2031, 40.9875]"),
    SmokeCheck("dataloader_workers", "DataLoader worker processes feed a DistributedBatchSampler",
               CauseId.dataloader_worker_crash, _WORKER + "_dataloader",
               "SystemError: DataLoader worker (pid 4242) is killed by signal: Bus error"),
    SmokeCheck("save_load", "save_clean / load_clean round trip restores every tensor",
               CauseId.state_dict_prefix_mismatch, _WORKER + "_save_load",
               "4 tensors round-tripped with save_clean/load_clean; ['missing keys: 0.weight']"),
    SmokeCheck("evaluate_parity", "paddle_doctor.evaluate on all ranks equals one process", CauseId.rank_local_metric,
               _WORKER + "_evaluate_parity", "acc 0.324324 on 40 samples; one process 0.324324 on 37"),
)
# name -> its declaration, in the order the ranks run them
CHECKS: dict[str, SmokeCheck] = {c.code: c for c in SMOKE_CHECKS}


def read_rank_files(results: Path) -> dict[int, dict]:
    out = {}
    for path in sorted(results.glob("smoke.*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            out[int(data["rank"])] = data
        except (OSError, ValueError, KeyError, TypeError):
            continue  # a torn file counts as a rank that reported nothing
    return out


def check_findings(results: Path, expected: int | None,
                   diagnosis: Diagnosis | None) -> tuple[tuple[Finding, ...], tuple[int, ...]]:
    per_rank = read_rank_files(results)
    ranks = tuple(sorted(per_rank))
    n_expected = max(expected or 0, len(ranks))
    findings = tuple(_finding(name, per_rank, n_expected, diagnosis) for name in CHECKS)
    return findings, ranks


def _finding(name: str, per_rank: dict[int, dict], expected: int, diagnosis: Diagnosis | None) -> Finding:
    proves, cause = CHECKS[name].message, CHECKS[name].cause
    outcomes = {r: next((c for c in d.get("checks", ()) if c.get("name") == name), None)
                for r, d in per_rank.items()}
    failed = sorted(r for r, c in outcomes.items() if c is not None and not c.get("ok"))
    missing = sorted(r for r, c in outcomes.items() if c is None)
    silent = expected - len(per_rank)  # ranks (of this node) that wrote nothing at all
    ok = not failed and not missing and silent <= 0
    root = diagnosis.root_cause if diagnosis else None
    if root is not None and not ok:
        cause = root.cause  # in a failed launch, what stopped or broke the check is the diagnosed cause
    details = {str(r): c.get("detail", "") for r, c in sorted(outcomes.items()) if c is not None}
    return Finding(
        code=f"smoke.{name}", cause=cause, severity="info" if ok else "error",
        message=_message(name, proves, ok, failed, missing, silent, details, root.ranks if root else ()),
        ranks=tuple(failed or missing), confidence="high" if ok or failed else "medium",
        outcome=Outcome.PASS if ok else Outcome.FAIL,
        facts={"check": name, "proves": proves, "passed": ok, "failed_ranks": failed, "not_run_ranks": missing,
               "details": details,
               "seconds": max((c.get("seconds", 0.0) for c in outcomes.values() if c), default=0.0)})


def _message(name, proves, ok, failed, missing, silent, details, root_ranks) -> str:
    if ok:
        first = details.get("0") or next(iter(details.values()), "")
        return f"{name}: {first or proves}"
    parts = []
    if failed:  # quote the diagnosed rank's error first: a victim's gloo error is only a symptom
        lead = next((r for r in failed if r in root_ranks), failed[0])
        parts.append(f"failed on rank{'s' if len(failed) > 1 else ''} {', '.join(map(str, failed))}; "
                     f"rank {lead}: {details.get(str(lead), '')}")
    if missing:
        parts.append(f"not reached on rank{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}")
    if silent > 0:
        parts.append(f"{silent} rank(s) reported nothing")
    return f"{name}: " + "; ".join(parts)


def how_it_ended(launch, timeout: float) -> str:
    """A failed launch's end in words: stopped at --timeout, or the launcher's exit status."""
    return f"timed out after {timeout:g} s" if launch.timed_out else f"launcher exit {launch.returncode}"


def launch_finding(launch, timeout: float, diagnosis: Diagnosis | None) -> Finding | None:
    """The launch's own outcome (a ``BoundedRun``) as one more check, when it failed although every check passed (smoke
    stopped it at --timeout while the ranks were ending, or the launcher exited non-zero after them): without it, a
    failed run's table and JUnit file would hold no failure. None otherwise (the failed checks already say so)."""
    if not launch.timed_out and launch.returncode == 0:
        return None
    root, how = diagnosis.root_cause if diagnosis else None, how_it_ended(launch, timeout)
    return Finding(code="smoke.launch", cause=root.cause if root is not None else CauseId.unknown, severity="error",
                   message=f"launch: every check passed, but the launch did not end cleanly ({how})",
                   confidence="medium", outcome=Outcome.FAIL,
                   facts={"check": "launch", "passed": False, "timed_out": launch.timed_out,
                          "returncode": launch.returncode})


def passed(findings) -> bool:
    return bool(findings) and all(f.outcome is Outcome.PASS for f in findings)
