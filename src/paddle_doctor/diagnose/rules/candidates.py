"""The rules for errors the text states: a rank's own cause line (the most specific wins; with a
timestamp on every candidate, the earliest), a signal death the launcher reports for a rank whose
log has no error, and a pasted snippet that names no rank. A refiner (:mod:`..refine`) may explain
the chosen line by a fact elsewhere, and its structure (:func:`verdict.by_structure`) may name a
more specific cause. Each returns the root-cause Finding or None."""

from __future__ import annotations

from ...findings import Finding
from ..ranks import abort_follows_wait, cause_events, interrupted, most_specific_first
from ..refine.context import explained_by_facts
from ..refine.doubts import doubted
from ..verdict import (by_structure, confidence_of, evidence_for, fatal_signal, launcher_lines, make_verdict, own_cause,
                       pick, why_of)


def from_candidates(ranks, unranked, facts) -> Finding | None:
    candidates = [(s.rank, c) for s in ranks.values() if (c := own_cause(s)) is not None]
    signalled = [r for r, s in ranks.items() if fatal_signal(s.exit_code) and s.best_cause() is None]
    if not candidates and not signalled:
        return None
    if signalled and (not candidates or max(e.sig.specificity for _, e in candidates) < 60):
        rank = min(signalled)
        code = ranks[rank].exit_code
        signal = fatal_signal(code)
        state = ranks[rank]
        return make_verdict("signal_exit", signal.cause, rank, launcher_lines(facts, rank), "high",
                       f"the launcher reports exit code {code} ({signal.name}) for rank {rank}, whose log has no error",
                       title=f"rank {rank} died of {signal.name} (exit code {code}); {signal.note}",
                       last_line=(state.log, state.lines, state.last_text) if state.lines else None)
    rank, event = pick(candidates)
    every = [e for st in ranks.values() for e in st.events]
    explained = explained_by_facts(every + unranked, ranks[rank].events, every, event, rank, facts)
    if explained is not None:
        return explained
    verdict = (by_structure(ranks[rank].events, event, rank, evidence_for(ranks[rank], event), candidates)
               or make_verdict(event.sig.name, event.sig.cause, rank, evidence_for(ranks[rank], event),
                               confidence_of(event, candidates), why_of(event, candidates)))
    return doubted(verdict, ranks[rank].events, event, [e for _, e in candidates] + unranked)


def from_unranked(ranks, unranked, facts) -> Finding | None:
    """A pasted snippet with no rank information: judge it as one process (an abort that a failed collective before
    it explains is not a cause of its own, as on a rank: :func:`ranks.aborted_after_wait`)."""
    causes = [e for e in cause_events(unranked) if not abort_follows_wait(unranked, e) and not interrupted(e)]
    if not causes:
        return None
    event = most_specific_first(causes)
    explained = explained_by_facts(unranked, unranked, unranked, event, None, facts)
    if explained is not None:
        return explained
    # spawn's parent names the child that died ("Process 1 terminated with signal SIGKILL"): that is its rank. Not a
    # rank for the text around it: the children's lines, interleaved in one terminal, are not that child's alone.
    rank = int(event.groups["proc"]) if event.groups.get("proc", "").isdigit() else None
    verdict = (by_structure(unranked, event, rank, [event], [(None, event)])
               or make_verdict(event.sig.name, event.sig.cause, rank, [event], confidence_of(event, [(None, event)]),
                               "a cause signature in the given text" + ("" if rank is not None else ", which names no rank")))
    return doubted(verdict, unranked, event, causes)
