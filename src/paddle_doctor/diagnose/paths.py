"""diagnose_paths: from the paths the user gave to a Diagnosis (read, group by rank, decide, report)."""

from __future__ import annotations

from dataclasses import replace

from ..findings import Diagnosis, Finding
from .culprit import with_culprit
from .read.launches import (LAST, LaunchChoice, launch_started, launcher_logs_of_launch, launches_note,
                            written_by)
from .facts.devices import collect_device_facts, with_device_facts
from .read.readall import read_all
from .ranks import LauncherFacts, RankState, collect
from .records import load_records, verdict_from_records, with_log_evidence
from .report import rank_findings, rank_rows
from .rootcause import decide
from .read.sources import DiagnoseInputError, discover, env_by_rank
from ..catalog.ids import CauseId

def diagnose_paths(paths: list[str], stdin: bytes | None = None, launch: LaunchChoice = LAST) -> Diagnosis:
    """Diagnose the logs under ``paths`` (dirs, files, or "-" for ``stdin``); of one launch
    (``launch``: the last by default) where several appended to the same files.

    Raises DiagnoseInputError when nothing usable was given.
    """
    sources, skipped = discover([str(p) for p in paths], stdin)
    sources = launcher_logs_of_launch([s for s in sources if written_by(s.path, launch)], launch)
    files, skipped = read_all(sources, skipped, launch)
    readable = [f for f in files if f.source.role != "env"]
    if not readable:
        reasons = "; ".join(skipped) or "no log files"
        raise DiagnoseInputError(f"nothing could be read ({reasons})")
    ranks, unranked, facts = collect(readable)
    records = load_records([s.path for s in sources if s.role == "record"])
    started = launch_started([f.window for f in readable if f.window is not None])
    records = {r: rec for r, rec in records.items() if started is None or rec.time >= started - 1.0}
    root = _prefer(verdict_from_records(records), decide(ranks, unranked, facts))
    root = with_device_facts(root, collect_device_facts([e for f in readable for e in f.events], env_by_rank(sources),
                                                        {s.path: s.node for s in sources}))
    for rank in records:  # a rank known only from its error record still gets a row
        ranks.setdefault(rank, RankState(rank))
    diagnosis = with_culprit(_build(root, ranks, facts, readable, skipped, records), records, env_by_rank(sources),
                             sources, {r: s.events for r, s in ranks.items()})
    note = launches_note({f.source.path: f.window for f in readable if f.window is not None}, launch)
    return replace(diagnosis, notes=(note,) + diagnosis.notes) if note else diagnosis


# A peer's watchdog only infers how a rank ended (its process vanished: "dead"; a native crash dump:
# "crashed"). When the culprit's own log names a cause (gloo's size check aborting it, a CUDA error
# before the abort), that log says why, and wins.
INFERRED_ENDINGS = ("dead", "crashed")
# Likewise a rank's own "Blocking queue is killed" says only that its DataLoader workers died; the
# workers' lines in its log (a SIGBUS in /dev/shm, the OOM killer's signal) say why.
SYMPTOM_CAUSES = (CauseId.dataloader_worker_crash,)


def _prefer(from_records: Finding | None, from_logs: Finding | None) -> Finding | None:
    if from_records is None or from_logs is None:
        return from_records or from_logs
    if from_records.code in INFERRED_ENDINGS:
        vague = ("unknown", from_records.cause)
    elif from_records.cause in SYMPTOM_CAUSES:
        vague = ("unknown", CauseId.python_exception, from_records.cause)
    else:
        return with_log_evidence(from_records, from_logs)
    if from_logs.ranks == from_records.ranks and from_logs.cause not in vague:
        return from_logs
    return from_records


def _build(root: Finding | None, ranks: dict[int, RankState], facts: LauncherFacts, files: list,
           skipped: list[str], records) -> Diagnosis:
    # A root cause means failure; so does a launcher that reports one even when no cause was found.
    failed = root is not None or bool(facts.failed) or facts.exit_code not in (None, 0) or facts.killed
    notes = tuple(root.fact("notes") or ()) if root is not None else ()
    per_rank = rank_findings(ranks, root, records)
    return Diagnosis("failure" if failed else "no_failure_found", root, per_rank, len(files), tuple(skipped),
                     notes, facts.kind, rows=rank_rows(per_rank, ranks, records, facts, files))
