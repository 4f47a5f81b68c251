"""Separate the root cause from its victims.

Order of reasoning:
1. A rank that printed evidence of a cause (an exception, an OOM, a segfault, ...) is a candidate.
   Among candidates the most specific wins; when every candidate has its own timestamp, the
   earliest wins (that is the first failure); ties go to the lowest rank.
2. With no candidate, reason about what is missing: a rank whose log just stops while a peer
   reports that it closed the connection was killed from outside (SIGKILL leaves no text; the
   kernel OOM killer is the usual sender) unless the launcher shows it exited cleanly, in which
   case the peer was left alone in a collective (uneven batches). A real gloo timeout while the
   peers live means ranks called different collectives. A rank stopped by SIGTERM while stuck in
   rendezvous means the processes never met (leftover ``PADDLE_*`` variables in a one-process run,
   or a wrong host address).
3. The whole text: an earlier warning that names a cause explains a later generic error; launch
   commands with contradicting ``--ips``; fleet endpoints that never answer; a spawned child that
   failed in ``spawn_main``.
4. Failing all that, say where the cause must be (the file to open) instead of guessing; and never
   stay silent on a text that shows an error (at worst ``unknown`` with what would settle it).

Every rule returns the root-cause Finding (:func:`verdict.make_verdict`), alternatives included.
The rules are declared in :mod:`.rules` (in chain order) and the refiners in :mod:`.refine`; this
module weighs what they conclude against paddle-doctor's own error records, and adds the launch's
device facts: :func:`decide` is the one place a verdict is chosen.
"""

from __future__ import annotations

from ..catalog import is_symptom
from ..catalog.ids import CauseId
from ..findings import Finding
from .read.parse import Event
from .ranks import LauncherFacts, RankState
from .records import with_log_evidence
from .refine.devices import DeviceFacts, with_device_facts
from .refine.near import calibrated
from .refine.versions import explained_by_old_driver
from .rules import CHAIN, rule_of


def decide(ranks: dict[int, RankState], unranked: list[Event], facts: LauncherFacts,
           from_records: Finding | None = None, devices: DeviceFacts | None = None) -> Finding | None:
    """The root cause: the logs' verdict (the first rule of the chain that returns one), weighed
    against the error records' (``from_records``), amended by the launch's device facts, and given
    the confidence it can promise (:func:`refine.near.calibrated`)."""
    logs = from_logs(ranks, unranked, facts)
    root = prefer(from_records, logs)
    took_records = root is not None and root is from_records
    root = with_device_facts(root, devices) if devices is not None else root
    root = explained_by_old_driver(root, [e for s in ranks.values() for e in s.events] + unranked)
    rule = rule_of(root)
    root = calibrated(root, rule.code if rule is not None and root is not from_records else None)
    # A record's verdict that the logs reach too quotes the logs' lines (the user's frame).
    return with_log_evidence(root, logs) if took_records and root is not None else root


def from_logs(ranks: dict[int, RankState], unranked: list[Event], facts: LauncherFacts) -> Finding | None:
    for rule in CHAIN:
        verdict = rule(ranks, unranked, facts)
        if verdict is not None:
            return verdict
    return None


# A peer's watchdog only infers how a rank ended (its process vanished: "dead"; a native crash dump:
# "crashed"). When the culprit's own log names a cause (gloo's size check aborting it, a CUDA error
# before the abort), that log says why, and wins.
INFERRED_ENDINGS = ("dead", "crashed")
# Likewise a cause the catalog marks ``symptom = true`` (a rank's own "Blocking queue is killed" says
# only that its DataLoader workers died): the workers' lines in its log (a SIGBUS in /dev/shm, the OOM
# killer's signal) say why.


def prefer(from_records: Finding | None, from_logs: Finding | None) -> Finding | None:
    """The error records' verdict wins, unless it only infers how the culprit ended (or names a
    symptom) and the logs name a cause for the same rank."""
    if from_records is None or from_logs is None:
        return from_records or from_logs
    if from_records.code in INFERRED_ENDINGS:
        vague = ("unknown", from_records.cause)
    elif is_symptom(from_records.cause):
        vague = ("unknown", CauseId.python_exception, from_records.cause)
    else:
        return from_records
    if from_logs.ranks == from_records.ranks and from_logs.cause not in vague:
        return from_logs
    return from_records
