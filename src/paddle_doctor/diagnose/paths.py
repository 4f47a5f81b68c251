"""diagnose_paths: from the paths the user gave to a Diagnosis (read, group by rank, decide, report)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..findings import Diagnosis, Finding
from .read.launches import (LAST, LaunchChoice, launch_started, launcher_logs_of_launch, launches_note,
                            written_by)
from .read.readall import read_all
from .read.sources import DiagnoseInputError, discover, env_by_rank

if TYPE_CHECKING:
    from .ranks import LauncherFacts, RankState


def _import_deciders() -> None:
    """The modules that decide from what was read (~45 ms of imports): imported by this process
    while a forked child reads many logs (read_all's ``meanwhile``), else where they are used."""
    from . import culprit, ranks, records, report, rootcause  # noqa: F401
    from .refine import devices  # noqa: F401


def diagnose_paths(paths: list[str], stdin: bytes | None = None, launch: LaunchChoice = LAST) -> Diagnosis:
    """Diagnose the logs under ``paths`` (dirs, files, or "-" for ``stdin``); of one launch
    (``launch``: the last by default) where several appended to the same files.

    Raises DiagnoseInputError when nothing usable was given.
    """
    sources, skipped = discover([str(p) for p in paths], stdin)
    sources = launcher_logs_of_launch([s for s in sources if written_by(s.path, launch)], launch)
    files, skipped = read_all(sources, skipped, launch, meanwhile=_import_deciders)
    from .culprit import with_culprit
    from .ranks import RankState, collect
    from .records import load_records, verdict_from_records
    from .refine.devices import collect_device_facts
    from .rootcause import decide

    readable = [f for f in files if f.source.role != "env"]
    if not readable:
        reasons = "; ".join(skipped) or "no log files"
        raise DiagnoseInputError(f"nothing could be read ({reasons})")
    ranks, unranked, facts = collect(readable)
    records = load_records([s.path for s in sources if s.role == "record"])
    started = launch_started([f.window for f in readable if f.window is not None])
    records = {r: rec for r, rec in records.items() if started is None or rec.time >= started - 1.0}
    devices = collect_device_facts([e for f in readable for e in f.events], env_by_rank(sources),
                                   {s.path: s.node for s in sources})
    root = decide(ranks, unranked, facts, verdict_from_records(records), devices)
    for rank in records:  # a rank known only from its error record still gets a row
        ranks.setdefault(rank, RankState(rank))
    diagnosis = with_culprit(_build(root, ranks, facts, readable, skipped, records), records, env_by_rank(sources),
                             sources, {r: s.events for r, s in ranks.items()})
    note = launches_note({f.source.path: f.window for f in readable if f.window is not None}, launch)
    return replace(diagnosis, notes=(note,) + diagnosis.notes) if note else diagnosis


def _build(root: Finding | None, ranks: dict[int, RankState], facts: LauncherFacts, files: list,
           skipped: list[str], records) -> Diagnosis:
    # A root cause means failure; so does a launcher that reports one even when no cause was found.
    from .report import rank_findings, rank_rows

    failed = root is not None or bool(facts.failed) or facts.exit_code not in (None, 0) or facts.killed
    notes = tuple(root.fact("notes") or ()) if root is not None else ()
    per_rank = rank_findings(ranks, root, records)
    return Diagnosis("failure" if failed else "no_failure_found", root, per_rank, len(files), tuple(skipped),
                     notes, facts.kind, rows=rank_rows(per_rank, ranks, records, facts, files))
