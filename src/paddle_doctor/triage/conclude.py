"""From the reruns to Findings: one per variation, and the conclusion that points into the catalog.

The reasoning of guide 001 §4.1: a variation that makes the failure go away names the part of
the job it needs (worker processes, several ranks, the GPU, the checkpoint); the diagnosis of the
failing run says which cause of that family it is. When nothing helps, the fault is in the code
or the data itself, and the clearest rerun (no workers, one process) shows its real traceback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from paddle_doctor.catalog import get_cause
from paddle_doctor.findings import Diagnosis, EvidenceLine, Finding, Outcome
from paddle_doctor.process.bounded_run import BoundedRun
from paddle_doctor.triage.plan import ORDER, VARIATIONS, Variation
from ..catalog.ids import CauseId


def variation_finding(variation: Variation, passed: bool, launch: BoundedRun, diagnosis: Diagnosis | None,
                      log_dir: Path, changed: int | None = None) -> Finding:
    """One rerun as a Finding. ``changed``: how many things the variation changed in the workers
    (None: a variation of the command itself, or not known); 0 is said in the message."""
    root = diagnosis.root_cause if diagnosis else None
    failed_with = root.cause if root else ("timeout" if launch.timed_out else "unknown")
    how = ("passes" if passed else
           f"times out after {launch.wall_s:.0f} s" if launch.timed_out else
           f"fails (exit {launch.returncode}): {failed_with}" + (f": {root.message}" if root else ""))
    if changed == 0:
        how += f" (it changed nothing: {variation.unchanged})"
    facts = {"variation": variation.name, "description": variation.description, "passed": passed,
             "exit_code": launch.returncode, "timed_out": launch.timed_out, "seconds": launch.wall_s,
             "diagnosed_cause": root.cause if root else None, "diagnosed_title": root.message if root else None, "diagnosed_rank": _rank(root),
             "log_dir": str(log_dir), "output": str(launch.output), "cmd": list(launch.cmd), "changed": changed}
    return Finding(
        code=f"triage.{variation.name}", cause=failed_with if root else "unknown",
        message=f"{variation.name}: {how} [{variation.description}]",
        severity="info" if passed else "warning", evidence=root.evidence[:4] if root else (),
        ranks=root.ranks if root else (), confidence=root.confidence if root else "low", facts=facts,
        outcome=Outcome.PASS if passed else Outcome.FAIL)


def skipped_finding(variation: Variation, why: str) -> Finding:
    return Finding(code=f"triage.{variation.name}", cause=CauseId.unknown, severity="info",
                   message=f"{variation.name}: skipped: {why} [{variation.description}]",
                   facts={"variation": variation.name, "description": variation.description, "skipped": True,
                          "passed": None, "why": why}, outcome=Outcome.SKIP)


def _rank(root: Finding | None) -> int | None:
    return root.ranks[0] if root is not None and root.ranks else None


def conclude(findings: Sequence[Finding], diagnoses: Sequence[Diagnosis | None]) -> Finding:
    baseline, rest = findings[0], list(findings[1:])
    base_root = diagnoses[0].root_cause if diagnoses and diagnoses[0] else None
    if baseline.outcome is Outcome.PASS:
        return Finding(code="triage", cause=CauseId.unknown, severity="info", confidence="high",
                       message="the command passed unchanged: nothing to triage (is the failure intermittent?)",
                       facts={"passing": ["baseline"], "failing": []})
    # a pass under a variation that changed nothing is the command passing unchanged: no evidence
    unchanged = [f.fact("variation") for f in rest if f.outcome is Outcome.PASS and f.fact("changed") == 0]
    passing = [f.fact("variation") for f in rest if f.outcome is Outcome.PASS and f.fact("variation") not in unchanged]
    failing = [f.fact("variation") for f in rest if f.outcome is not Outcome.PASS]
    facts = {"passing": passing, "failing": failing, "passed_unchanged": unchanged,
             "baseline_cause": base_root.cause if base_root else None}
    if passing:
        found = _points_to(next(v for v in ORDER if v in passing), passing, base_root, facts)
        return _but_intermittent(found, unchanged) if unchanged else found
    if unchanged:
        return _intermittent(unchanged, base_root, facts)
    return _nothing_helps(baseline, rest, diagnoses, base_root, facts)


def _unchanged_passes(unchanged: list[str]) -> str:
    return "; ".join(f"{name} passed though it changed nothing ({VARIATIONS[name].unchanged})" for name in unchanged)


def _intermittent(unchanged: list[str], base_root: Finding | None, facts: dict) -> Finding:
    """Only reruns that changed nothing passed: the same command failed once and passed once."""
    cause = base_root.cause if base_root else CauseId.unknown
    return Finding(
        code="triage", cause=cause, severity="error", confidence="low",
        message=f"intermittent: the failure did not come back in a rerun that changed nothing ({', '.join(unchanged)}); "
                f"no variation points anywhere (the failing run: {cause})",
        why=f"{_unchanged_passes(unchanged)}: the command passes and fails as it is, so a pass under a "
            "variation is no evidence; look for what differs between runs (data order, timing, a shared "
            "resource, another job on the machine)",
        fix=get_cause(cause).fix.strip(), evidence=base_root.evidence[:4] if base_root else (),
        ranks=base_root.ranks if base_root else (), facts={**facts, "intermittent": True})


def _but_intermittent(found: Finding, unchanged: list[str]) -> Finding:
    """A variation that changed something passed, and so did one that changed nothing: the pass
    may be chance."""
    return replace(found, confidence="low", why=f"{found.why}; but {_unchanged_passes(unchanged)}: the failure "
                   "is intermittent, so this pass may be chance", facts={**found.facts, "intermittent": True})


# Diagnoses that say how the failing run ended, not why: a pass then names the family's usual cause.
SYMPTOMS = (CauseId.unknown, CauseId.collective_timeout)


def _points_to(name: str, passing: list[str], base_root: Finding | None, facts: dict) -> Finding:
    """One variation passes. A concrete cause diagnosed in the failing run stays the cause, and the
    variation says where it comes from; only a symptom (a timeout, unknown, no diagnosis at all)
    gives way to the family's usual cause."""
    variation = VARIATIONS[name]
    cause, kept, what, verdict = _reading(variation, base_root)
    others = [p for p in passing if p != name]
    why = (f"it fails as run, and passes with {variation.description}: {what}"
           + (f" (also passes: {', '.join(others)})" if others else "") + f"; {verdict}")
    title = get_cause(cause).title
    message = (f"passes only with {', '.join(passing)}: "
               + (f"{cause}{_on(base_root)} stays the cause ({title})" if kept and cause not in variation.family
                  else f"points to {cause} ({title})"))
    return Finding(
        code="triage", cause=cause, message=message, severity="error",
        confidence="high" if kept else "medium", why=why, fix=get_cause(cause).fix.strip(),
        evidence=base_root.evidence[:4] if base_root else (), ranks=base_root.ranks if base_root else (),
        facts={**facts, "explained_by": name, "kept_baseline_cause": kept})


def _reading(variation: Variation, base_root: Finding | None) -> tuple[str, bool, str, str]:
    """(cause, whether it is the failing run's, what the pass says, how the cause was chosen)."""
    base = base_root.cause if base_root else None
    if base in variation.family:
        return base, True, variation.meaning, f"the failing run's diagnosis, {base}, is of that family"
    if base is not None and base not in SYMPTOMS:
        return (base, True, variation.explains.format(where=_where(base_root)),
                f"the failing run's diagnosis, {base}{_on(base_root)}, is concrete, so it stays the cause "
                "and the variation says where it comes from")
    chosen = (f"the failing run was diagnosed only as {base}, a symptom" if base else
              "the failing run left no diagnosis")
    return variation.family[0], False, variation.meaning, f"{chosen}, so the family's usual cause is named"


def _where(root: Finding) -> str:
    return f"rank {root.ranks[0]}" if len(root.ranks) == 1 else "a rank"


def _on(root: Finding) -> str:
    return f" on rank {root.ranks[0]}" if len(root.ranks) == 1 else ""


def _nothing_helps(baseline: Finding, rest: list[Finding], diagnoses, base_root: Finding | None,
                   facts: dict) -> Finding:
    """Every variation fails too: the fault is in the code or the data. The clearest rerun (no
    workers, else one process) often shows the real error where the baseline showed a symptom."""
    clearest = next((f for name in ("workers0", "single") for f in rest if f.fact("variation") == name
                     and f.fact("diagnosed_cause")), None)
    cause = base_root.cause if base_root else (clearest.cause if clearest else "unknown")
    evidence: tuple[EvidenceLine, ...] = base_root.evidence[:4] if base_root else ()
    seen = ""
    if clearest is not None and clearest.evidence:
        evidence = evidence + tuple(clearest.evidence[-2:])
        seen = f"; with {VARIATIONS[clearest.fact('variation')].description} it fails as {clearest.cause}: " \
               f"{clearest.fact('diagnosed_title')}"
    why = (f"it still fails under every variation ({', '.join(f.fact('variation') for f in rest)}): "
           "the fault is in the code or the data itself, not in DataLoader workers, the number of "
           f"processes, the device or the checkpoint{seen}")
    return Finding(
        code="triage", cause=cause, message=f"fails under every variation: points to {cause} "
        f"({get_cause(cause).title}) in the code or the data", severity="error",
        # "every variation fails" is certain; the cause is only as sure as the failing run's diagnosis
        confidence="high" if base_root and cause != CauseId.unknown else "low", why=why,
        fix=get_cause(cause).fix.strip(), evidence=evidence, ranks=base_root.ranks if base_root else (), facts=facts)
