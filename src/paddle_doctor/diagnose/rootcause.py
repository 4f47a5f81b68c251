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
"""

from __future__ import annotations

from ..findings import Alternative, Finding
from .read.parse import Event
from .ranks import LauncherFacts, RankState, aborted_after_wait, finished_cleanly, most_specific_first
from .verdict import make_verdict
from .errors.blocks import refine
from .facts import setup
from .facts.platform import explained_by_loopback, explained_by_windows
from .facts.versions import explained_by_nccl_versions
from .facts.divergence import from_divergent_waits
from .facts.ports import explained_by_port_race
from .facts.stalls import from_lock_wait, from_uneven_steps
from ..catalog.codes import NumberedCode, signal_of
from ..catalog.ids import CauseId


def _fatal_signal(exit_code: int | None) -> NumberedCode | None:
    """A launcher exit code -N means the rank died of signal N. With no text in its log, the signal
    is the clue: the catalog's signal table (codes.toml) says which cause it points to, if any."""
    if exit_code is None or exit_code >= 0:
        return None
    signal = signal_of(-exit_code)
    return signal if signal is not None and signal.cause is not None else None


def decide(ranks: dict[int, RankState], unranked: list[Event], facts: LauncherFacts) -> Finding | None:
    for rule in (from_lock_wait, from_uneven_steps, _from_candidates, from_divergent_waits, _from_silent_peer,
                 _from_stuck_in_dataloader, _from_real_timeout, setup.from_contradicting_launch_cmds, setup.from_unreached_endpoints,
                 setup.from_peers_never_joined, setup.from_hang_dump, _from_unranked, setup.from_spawn_child,
                 _from_launcher_only, setup.from_lone_timeout, _from_any_error):
        verdict = rule(ranks, unranked, facts)
        if verdict is not None:
            return verdict
    return None


def _from_candidates(ranks, unranked, facts) -> Finding | None:
    candidates = [(s.rank, c) for s in ranks.values() if (c := _own_cause(s)) is not None]
    signalled = [r for r, s in ranks.items() if _fatal_signal(s.exit_code) and s.best_cause() is None]
    if not candidates and not signalled:
        return None
    if signalled and (not candidates or max(e.sig.specificity for _, e in candidates) < 60):
        rank = min(signalled)
        code = ranks[rank].exit_code
        signal = _fatal_signal(code)
        state = ranks[rank]
        return make_verdict("signal_exit", signal.cause, rank, _launcher_lines(facts, rank), "high",
                       f"the launcher reports exit code {code} ({signal.name}) for rank {rank}, whose log has no error",
                       title=f"rank {rank} died of {signal.name} (exit code {code}); {signal.note}",
                       last_line=(state.log, state.lines, state.last_text) if state.lines else None)
    rank, event = _pick(candidates)
    every = [e for st in ranks.values() for e in st.events]
    explained = _explained_by_facts(every + unranked, ranks[rank].events, every, event, rank, facts)
    if explained is not None:
        return explained
    return (_by_structure(ranks[rank].events, event, rank, _evidence_for(ranks[rank], event), candidates)
            or make_verdict(event.sig.name, event.sig.cause, rank, _evidence_for(ranks[rank], event),
                            _confidence(event, candidates), _why(event, candidates)))


def _own_cause(state: RankState) -> Event | None:
    """The rank's most specific cause, leaving out an abort that a wait before it explains."""
    return most_specific_first([e for e in state.causes() if not aborted_after_wait(state, e)])


# Errors that say "something failed" without saying why: an earlier warning that names a cause
# (a version mismatch) explains them.
GENERIC_CAUSES = (CauseId.python_exception, CauseId.cuda_error_other, CauseId.nccl_error, CauseId.segfault,
                  CauseId.dataloader_worker_crash, CauseId.launcher_bug)


# A machine with no GPU driver (or a build without GPU support) also explains the device errors CUDA
# reports for it: "driver version is insufficient" (no driver at all, Paddle#14625), "no CUDA-capable device".
EXPLAINS_ALSO = {CauseId.device_not_found: (CauseId.cuda_cudnn_mismatch, CauseId.cuda_visible_devices_misconfig)}


def _explained_by_context(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    context = [e for e in events if e.role == "context" and (e.file, e.line) < (event.file, event.line)
               and (event.sig.cause in GENERIC_CAUSES or event.sig.cause in EXPLAINS_ALSO.get(e.sig.cause, ()))]
    if not context:
        return None
    warning = context[-1]
    return make_verdict(
        warning.sig.name, warning.sig.cause, rank, [warning, event], "high",
        f"an earlier warning names the cause ({warning.sig.cause}); the later error ({event.sig.cause}) is what "
        "it leads to",
        title=_format(warning), alternatives=(Alternative(
            event.sig.cause, "low", "the later error may have its own reason",
            "fix the mismatch the warning names and rerun: the error goes away if it was the cause"),))


def _leftover_env(events: list[Event], event: Event, rank: int | None, facts: LauncherFacts) -> Finding | None:
    """A process with no launcher that waited for peers (or found no parallel environment) while
    the text shows PADDLE_TRAINER* variables: they were left over, not missing."""
    if event.sig.cause != CauseId.missing_dist_env or facts.kind:
        return None
    env = [e for e in events if e.sig.name == "paddle_env_var"]
    if not env:
        return None
    return make_verdict(
        "leftover_paddle_env", CauseId.residual_dist_env, rank, [env[0], event], "medium",
        "no launcher ran, yet the environment holds the launcher's PADDLE_* variables: the process "
        "waited for peers those leftovers describe", title="leftover PADDLE_* variables made a single "
        "process wait for peers that do not exist",
        alternatives=(Alternative(CauseId.missing_dist_env, "low", "the variables may be incomplete rather than stale",
                                  "`env | grep -E '^(PADDLE_|FLAGS_selected)'` in the shell that ran it"),))


def _format(event: Event) -> str:
    groups = {k: v for k, v in event.groups.items() if v is not None}
    try:
        return event.sig.title.format(**groups)
    except (KeyError, IndexError):
        return event.sig.title


def _pick(candidates: list[tuple[int, Event]]) -> tuple[int, Event]:
    if len(candidates) > 1 and all(e.time is not None for _, e in candidates):
        return min(candidates, key=lambda c: (c[1].time, c[0]))
    return min(candidates, key=lambda c: (-c[1].sig.specificity, c[0]))


SYMPTOM_SIGNATURES = ("dl_blocking_queue", "dl_reader_thread")


def _confidence(event: Event, candidates) -> str:
    """Specific signatures are high; a generic exception is high only when it stands alone; a
    symptom that says the real error is elsewhere (the DataLoader's "reader raised") is at most medium."""
    if event.sig.name in SYMPTOM_SIGNATURES:
        return "medium"
    if event.sig.specificity >= 80 or (event.sig.specificity >= 50 and len(candidates) == 1):
        return "high"
    return "medium" if event.sig.specificity >= 50 else "low"


def _why(event: Event, candidates) -> str:
    if event.sig.specificity >= 80:
        kind = "a specific error signature"
    elif event.sig.specificity >= 50:
        kind = "an uncaught error"
    else:
        kind = "a warning that means the results are wrong"
    if len({e.sig.cause for _, e in candidates}) == 1 and len(candidates) > 1:
        return f"{kind}, shown by every failing rank alike; the lowest rank is named"
    if len(candidates) == 1:
        return f"{kind} on one rank only; the other ranks show only the symptoms of a dead peer"
    if all(e.time is not None for _, e in candidates):
        return f"{kind}; several ranks failed and this one has the earliest timestamp"
    return f"{kind}; several ranks show errors and this one is the most specific"


def _from_silent_peer(ranks, unranked, facts) -> Finding | None:
    for state in sorted(ranks.values(), key=lambda s: s.rank):
        closed = state.first("peer_closed")
        peer = _peer_of(closed, state, ranks, facts)
        if peer is None:
            continue
        peer_state = ranks.get(peer)
        if peer_state is not None and (peer_state.causes() or peer_state.has("terminated")):
            continue
        if finished_cleanly(peer, facts, peer_state):
            return make_verdict("peer_exited_cleanly", CauseId.uneven_eval_batches, state.rank, [closed], "medium",
                           f"rank {peer} had already exited cleanly while rank {state.rank} was still in a "
                           "collective: the ranks ran different numbers of collectives",
                           notes=(f"rank {peer} finished its loop and exited; rank {state.rank} called one more "
                                  "collective (more batches on this rank)",))
        if peer_state is None or not peer_state.log:
            continue  # without the peer's log we cannot say it died silently
        return _silent_death(peer, peer_state, state.rank, closed, facts)
    return None


def _peer_of(closed: Event | None, state: RankState, ranks: dict[int, RankState],
             facts: LauncherFacts) -> int | None:
    """The rank that closed the connection: named by gloo's pair.cc TIMEOUT line; for a bare
    "Connection reset by peer", the only other rank that shows no error (or, with no other log at
    hand, the only other rank of the job)."""
    if closed is None:
        return None
    if "peer" in closed.groups and int(closed.groups["peer"]) != state.rank:
        return int(closed.groups["peer"])
    # gloo sometimes names the rank itself as its peer ("self_rank = 0 pair_rank = 0"): not usable.
    quiet = [r for r, s in ranks.items()
             if r != state.rank and not s.causes() and not s.has("terminated") and not s.has("peer_closed")]
    if not quiet and facts.world:
        quiet = [r for r in range(facts.world) if r != state.rank and r not in ranks]
    return quiet[0] if len(quiet) == 1 else None


def _silent_death(peer: int, peer_state: RankState | None, reporter: int, closed: Event,
                  facts: LauncherFacts) -> Finding:
    code = peer_state.exit_code if peer_state else None
    how = "by SIGKILL (exit code -9)" if code == -9 else "from outside, leaving no error text (SIGKILL)"
    last = None
    if peer_state is not None and peer_state.log:
        last = (peer_state.log, peer_state.lines, peer_state.last_text) if peer_state.lines else None
    return make_verdict("silent_death", CauseId.host_oom_killed, peer, _launcher_lines(facts, peer) + [closed],
                        "high" if code == -9 else "medium",
                   f"rank {peer}'s log stops without any error while rank {reporter} reports that it closed the "
                   "connection: it was killed from outside (SIGKILL leaves no text)",
                   title=f"rank {peer} was killed {how}; the kernel OOM killer is the usual sender",
                   last_line=last)


def _from_stuck_in_dataloader(ranks, unranked, facts) -> Finding | None:
    """A rank stopped by SIGTERM whose crash dump shows it waiting for a DataLoader batch
    (``ReadNextList``) was stuck there: a worker never returned. Its peers' 30 s gloo timeout, or
    the launcher's SIGTERM to all, are the consequence. ``DataLoader(timeout=N)`` does not help
    when ``num_workers > 0`` (measured on 3.3.1)."""
    stuck = [s for s in sorted(ranks.values(), key=lambda s: s.rank)
             if s.has("terminated") and any(e.sig.name == "hang_dataloader" for e in s.events)]
    if not stuck:
        return None
    state = stuck[0]
    site = next(e for e in state.events if e.sig.name == "hang_dataloader")
    waiting = [s.rank for s in ranks.values() if s.has("real_timeout")]
    why = (f"rank {state.rank}'s SIGTERM crash dump shows it waiting for a DataLoader batch"
           + (f" while rank(s) {', '.join(map(str, sorted(waiting)))} timed out waiting for it" if waiting else ""))
    return make_verdict("stuck_in_dataloader", CauseId.dataloader_worker_crash, state.rank, [site, state.first("terminated")],
                   "high" if waiting else "medium", why,
                   title=f"rank {state.rank} was stuck in the DataLoader: a worker never returned a batch")


def _from_real_timeout(ranks, unranked, facts) -> Finding | None:
    timed_out = [s for s in ranks.values() if s.has("real_timeout")]
    if not timed_out:
        return None
    state = min(timed_out, key=lambda s: s.rank)
    world = range(facts.world) if facts.world else sorted(ranks)
    unseen = [r for r in world if r != state.rank and not (r in ranks and ranks[r].log)]
    others = sorted(r for r in ranks if r != state.rank)
    if unseen:
        # Without the peers' logs, "alive and elsewhere" and "stuck" (a hung DataLoader, I/O) look
        # the same from here: no cause is named, only the file that settles it, and what it may show.
        files = ", ".join(f"workerlog.{r}" for r in unseen)
        suspect = unseen[0] if len(unseen) == 1 else None
        return make_verdict(
            "real_timeout_peers_unseen", "unknown", suspect, [state.first("real_timeout")], "low",
            f"rank {state.rank} waited the full gloo timeout in a collective; the other ranks' logs were not "
            "given, so a peer in another collective and a stuck peer look the same from here",
            title=f"rank {state.rank} timed out waiting for its peers; the cause is in {files}, which was not given",
            notes=(f"Open {files} (or pass the whole log dir): a peer stuck in the DataLoader or in "
                   "I/O shows it in its SIGTERM crash dump; a peer in another collective does not.",),
            alternatives=(
                Alternative(CauseId.rank_divergent_collective, "low",
                            "the peers were alive but called a different collective (or one more)",
                            f"{files} ends in a different collective, or exits cleanly"),
                Alternative(CauseId.dataloader_worker_crash, "low",
                            "a peer was stuck waiting for a DataLoader batch (a hung worker)",
                            f"{files} holds a SIGTERM crash dump with ReadNextList / BlockingQueue")))
    return make_verdict("real_timeout", CauseId.rank_divergent_collective, state.rank, [state.first("real_timeout")],
                        "medium",
                   f"rank {state.rank} waited the full gloo timeout in a collective while rank(s) "
                   f"{', '.join(map(str, others)) or '?'} were alive and elsewhere")


def _explained_by_facts(everything, own, ranked, event, rank, facts) -> Finding | None:
    """A fact elsewhere in the text (``own``: the rank's lines) that explains the error ``event``."""
    return (explained_by_port_race(everything + facts.ports, event, rank) or _explained_by_context(own, event, rank)
            or explained_by_nccl_versions(everything, event, rank) or _leftover_env(ranked, event, rank, facts)
            or explained_by_windows(own, event, rank) or explained_by_loopback(everything, event, rank))


def _from_unranked(ranks, unranked, facts) -> Finding | None:
    """A pasted snippet with no rank information: judge it as one process."""
    causes = [e for e in unranked if e.role in ("cause", "exception")]
    if not causes:
        return None
    event = most_specific_first(causes)
    explained = _explained_by_facts(unranked, unranked, unranked, event, None, facts)
    if explained is not None:
        return explained
    return (_by_structure(unranked, event, None, [event], [(None, event)])
            or make_verdict(event.sig.name, event.sig.cause, None, [event], _confidence(event, [(None, event)]),
                            "a cause signature in the given text, which names no rank"))


def _by_structure(events: list[Event], event: Event, rank: int | None, evidence: list[Event],
                  candidates) -> Finding | None:
    """A generic error line read again by its parts (errors/): its code, operator, C++ file, module."""
    verdict = refine(events, event)
    if verdict is None:
        return None
    if verdict.cause == event.sig.cause:  # same cause: only the why says more (where it was raised)
        return make_verdict(event.sig.name, event.sig.cause, rank, evidence, _confidence(event, candidates),
                            f"{_why(event, candidates)}; {verdict.why}")
    confidence = "high" if verdict.specificity >= 90 else "medium"
    return make_verdict(f"structure_{verdict.part}", verdict.cause, rank, evidence, confidence,
                        f"the error's structure names it: {verdict.why}",
                        alternatives=(Alternative(event.sig.cause, "low", f"the line read alone: {event.sig.name}",
                                                  "the parts above do not apply"),))


def _from_launcher_only(ranks, unranked, facts) -> Finding | None:
    if not (facts.failed or (facts.exit_code not in (None, 0)) or facts.killed):
        return None
    victims = [s.first("peer_closed") for s in ranks.values() if s.has("peer_closed")]
    peer = next((p for s in ranks.values() if (p := _peer_of(s.first("peer_closed"), s, ranks, facts)) is not None),
                None)
    rank = peer if peer is not None else facts.header_rank
    where = facts.header_log or "log/workerlog.N"
    log_dir = where.rsplit("/", 1)[0] if "/" in where else "log"
    target = f"{log_dir}/workerlog.{rank}" if rank is not None else f"{log_dir}/workerlog.*"
    state = ranks.get(rank)
    if state is not None and state.line_index is not None:  # its worker log was read: it holds no error
        code = facts.failed.get(rank, state.exit_code)
        return make_verdict(
            "failed_without_error", "unknown", rank, _launcher_lines(facts, rank) or facts.events[:2], "low",
            f"the launcher reports rank {rank} failed (exit code {code}), and its log, which was read, holds no "
            "error: the process ended without a word (sys.exit / os._exit with that code, or a signal)",
            title=f"rank {rank} failed with exit code {code}, and its log {state.log} shows no error",
            notes=(f"Look at what rank {rank} runs after the last line of {state.log} (quoted above): an explicit "
                   "sys.exit / os._exit, or a library that exits; PYTHONFAULTHANDLER=1 shows a native crash.",),
            last_line=(state.log, state.lines, state.last_text) if state.lines else None)
    note = (f"The cause is not in what was given: open {target}, or pass the whole log dir: "
            f"paddle-doctor diagnose {log_dir}/. If there is no log dir, rerun with "
            f"`python -m paddle.distributed.launch --log_dir {log_dir} ...`.")
    if _every_rank_aborted(facts) and not victims:
        return make_verdict(
            "every_rank_aborted", CauseId.python_exception, rank, facts.events[:2], "low",
            f"the launcher reports that all {facts.world} trainers aborted and no rank shows a peer's failure: the "
            "script stopped with its own error in every rank alike (its message is in the workers' logs)",
            notes=(note,), title=f"every rank's script exited with an error; the message is in {target}",
            alternatives=(Alternative("unknown", "low", "a failure outside the script in every rank at once",
                                      f"{target} ends in a Python traceback or the script's own message"),))
    return make_verdict("cause_not_given", "unknown", rank, [e for e in victims if e] + facts.events[:2], "low",
                   "only the launcher's report and symptoms were given", notes=(note,),
                   title=f"the cause is in {target}, which was not given")


def _every_rank_aborted(facts: LauncherFacts) -> bool:
    """The old launcher lists every aborted rank; all of them at once is the script's own exit."""
    return (facts.kind == "fleet.launch" and (facts.world or 0) >= 2
            and set(facts.failed) == set(range(facts.world or 0)))


def _launcher_lines(facts: LauncherFacts, rank: int) -> list[Event]:
    return [e for e in facts.events if e.sig.name in ("launch_container_failed", "elastic_rank_failed")
            and e.groups.get("rank") == str(rank) or e.sig.name == "fleet_abort"][:1]


def _evidence_for(state: RankState, event: Event) -> list[Event]:
    """The cause line, preceded by the innermost user frame of its traceback when there is one."""
    frames = [e for e in state.events if e.role == "frame" and e.line < event.line and event.line - e.line < 60]
    user = [f for f in frames if "site-packages" not in f.groups.get("path", "") and "/paddle/" not in f.groups.get("path", "")]
    lines = ([user[-1]] if user else []) + [event]
    return lines


# Lines that say an error happened, even when no signature explains them.
ERROR_ROLES = ("traceback", "frame", "exception", "cause", "peer_closed", "real_timeout", "terminated",
               "error_line", "context", "spawn_child")


def _from_any_error(ranks, unranked, facts) -> Finding | None:
    """Never silent on an error: a text that shows one gets a verdict, at worst ``unknown`` with the
    lines seen and what would settle it."""
    events = sorted((e for s in ranks.values() for e in s.events), key=lambda e: (e.file, e.offset)) + unranked
    errors = [e for e in events if e.role in ERROR_ROLES]
    if not errors:
        return None
    tracebacks = [e for e in errors if e.role in ("traceback", "frame")]
    ranked = [s.rank for s in ranks.values() if any(e.role in ERROR_ROLES for e in s.events)]
    rank = min(ranked) if ranked else None
    if tracebacks:
        return make_verdict("traceback_without_exception", CauseId.python_exception, rank, tracebacks[-1:], "low",
                            "a Python traceback whose exception line is not in the text (the log is cut)",
                            title="an uncaught Python exception (its last line is not in the given text)",
                            notes=("The traceback's last line names the exception: pass the whole log, or the "
                                   "workerlog of the failing rank.",))
    return make_verdict("error_without_cause", "unknown", rank, errors[:2], "low",
                        "the text shows an error, but no known message that names its cause",
                        title="an error with no known cause in the given text",
                        notes=("Pass the whole log dir (paddle-doctor diagnose log/), or rerun with "
                               "GLOG_v=3 NCCL_DEBUG=INFO to get the failing rank's full error.",))

