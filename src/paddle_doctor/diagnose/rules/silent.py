"""Rules for a rank that stopped without saying why: its peer reports the connection closed (it was
killed from outside, or it had already exited cleanly), its SIGTERM crash dump shows it waiting for
a DataLoader batch, or a peer waited the full gloo timeout for it. Each returns the root-cause
Finding (:func:`verdict.make_verdict`) or None."""

from __future__ import annotations

from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..ranks import ENDS_ON_ITS_OWN, LauncherFacts, RankState, finished_cleanly
from ..read.parse import Event
from ..verdict import launcher_lines, make_verdict, peer_of
from .divergence import waited_in

# The collectives a program calls once, to hand a result over or to wait for a rank's work (a checkpoint, an
# evaluation on rank 0), not once per batch: a rank left waiting in one is not one batch ahead of its peers.
ONCE_CALLED = ("barrier", "broadcast_object_list", "scatter_object_list")  # not broadcast: some broadcast each batch


def from_silent_peer(ranks, unranked, facts) -> Finding | None:
    for state in sorted(ranks.values(), key=lambda s: s.rank):
        closed = state.first("peer_closed")
        peer = peer_of(closed, state, ranks, facts)
        if peer is None:
            continue
        peer_state = ranks.get(peer)
        if peer_state is not None and (peer_state.causes() or peer_state.has("terminated")
                                       or peer_state.has("real_timeout") or peer_state.has("peer_closed")):
            continue  # the peer said why it ended: its own error, a SIGTERM, a wait it gave up on, a peer it lost
        waited = waited_in(state)
        if finished_cleanly(peer, facts, peer_state) and waited in ONCE_CALLED:
            return make_verdict(
                "exited_before_a_once_called_collective", CauseId.rank_divergent_collective, state.rank, [closed],
                "medium", f"rank {peer} had already exited cleanly while rank {state.rank} waited in "
                f"{waited}(), a collective a program calls once, not per batch: rank {peer} never called it",
                alternatives=(Alternative(CauseId.uneven_eval_batches, "low", "the call may sit in a loop that ran "
                                          "more often on this rank", "print len(loader) on every rank"),))
        if finished_cleanly(peer, facts, peer_state):
            return make_verdict("peer_exited_cleanly", CauseId.uneven_eval_batches, state.rank, [closed], "medium",
                           f"rank {peer} had already exited cleanly while rank {state.rank} was still in a "
                           "collective: the ranks ran different numbers of collectives",
                           notes=(f"rank {peer} finished its loop and exited; rank {state.rank} called one more "
                                  "collective (more batches on this rank)",))
        if peer_state is None or not peer_state.log:
            continue  # without the peer's log we cannot say it died silently
        return silent_death(peer, peer_state, state.rank, closed, facts, waited)
    return None


def _left_early(waited: str | None) -> tuple[CauseId, CauseId]:
    """(the likelier, the other) way a rank left its peers' collectives early, by the one its peer waits in: a
    once-called one (or none named) the rank never called; a per-batch one, it ran fewer batches."""
    if waited in ONCE_CALLED or waited is None:
        return CauseId.rank_divergent_collective, CauseId.uneven_eval_batches
    return CauseId.uneven_eval_batches, CauseId.rank_divergent_collective


_LEFT_EARLY_WHY = {CauseId.rank_divergent_collective: ("may have ended on its own before a collective only its peer "
                                                       "reaches (its program's end, or an exit() only it calls)",
                                                       "the launcher's exit code for the rank (0: it ended on its own)"),
                   CauseId.uneven_eval_batches: ("may have run out of batches and ended while its peer had one more",
                                                 "print len(loader) on every rank")}


def _left_early_alternative(cause: CauseId, peer: int) -> Alternative:
    why, confirm = _LEFT_EARLY_WHY[cause]
    return Alternative(cause, "low", f"rank {peer} {why}", confirm)


def _ended_by_itself(peer: int, reporter: int, waited: str | None, closed: Event, last) -> Finding:
    cause, near = _left_early(waited)
    return make_verdict(
        "peer_said_it_ends", cause, peer, [closed], "medium",
        f"rank {peer}'s last line says it is ending, with no error, while rank {reporter} was still in a collective "
        f"({waited or 'its traceback names none'}): rank {peer} left the common collectives early",
        title=f"rank {peer} ended on its own while rank {reporter} still waited in a collective",
        last_line=last, alternatives=(_left_early_alternative(near, peer),))


def silent_death(peer: int, peer_state: RankState | None, reporter: int, closed: Event,
                 facts: LauncherFacts, waited: str | None = None) -> Finding:
    code = peer_state.exit_code if peer_state else None
    how = "by SIGKILL (exit code -9)" if code == -9 else "from outside, leaving no error text (SIGKILL)"
    last = None
    if peer_state is not None and peer_state.log:
        last = (peer_state.log, peer_state.lines, peer_state.last_text) if peer_state.lines else None
    # With no exit code for the peer (the new launcher names only the lowest failed rank; fleet's none), a rank that
    # ended on its own (its program's end, an exit() of its own) before a collective its peers reached stops the
    # same way (measured on 3.3.1: live1 29710, rank 1's os._exit(0) after training while rank 0 evaluated).
    if code is None and last is not None and ENDS_ON_ITS_OWN.search(last[2] or ""):
        # its own last line says it is ending ("exiting", "done", "stopping"): no SIGKILL
        return _ended_by_itself(peer, reporter, waited, closed, last)
    # one alternative of the two, so that the catalog's own near cause (a native crash) stays in view
    ended = () if code is not None else (_left_early_alternative(_left_early(waited)[0], peer),)
    return make_verdict("silent_death", CauseId.host_oom_killed, peer, launcher_lines(facts, peer) + [closed],
                        "high" if code == -9 else "medium",
                   f"rank {peer}'s log stops without any error while rank {reporter} reports that it closed the "
                   "connection: it was killed from outside (SIGKILL leaves no text)",
                   title=f"rank {peer} was killed {how}; the kernel OOM killer is the usual sender",
                   last_line=last, alternatives=ended)


def from_stuck_in_dataloader(ranks, unranked, facts) -> Finding | None:
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


def from_real_timeout(ranks, unranked, facts) -> Finding | None:
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
    collective = waited_in(state)
    busy = _busy_peers(ranks, timed_out)
    if busy and all(waited_in(s) in ONCE_CALLED for s in timed_out):
        # A barrier (or a broadcast of rank 0's result) is where ranks wait for one rank's work: the ranks killed at
        # the end with no collective in their crash dumps were still busy with it (longer than gloo's fixed 30 s).
        named = busy[0]  # the (lowest) rank the others waited for
        who = ", ".join(map(str, busy))
        return make_verdict(
            "timed_out_waiting_for_busy_peer", CauseId.collective_timeout, named, [state.first("real_timeout")],
            "medium", f"rank {state.rank} waited the full gloo timeout in {collective}() while rank(s) {who} were "
            "alive and in no collective: busy with work of their own",
            title=f"rank {state.rank} gave up waiting in {collective}() after gloo's fixed 30 s while rank(s) {who} "
                  "were still busy elsewhere (work only they do, longer than the timeout)",
            alternatives=(Alternative(CauseId.rank_divergent_collective, "low", "the peers may never call that "
                                      f"{collective}() at all", "does every rank reach the call? print before it"),))
    return make_verdict("real_timeout", CauseId.rank_divergent_collective, state.rank, [state.first("real_timeout")],
                        "medium",
                   f"rank {state.rank} waited the full gloo timeout in a collective while rank(s) "
                   f"{', '.join(map(str, others)) or '?'} were alive and elsewhere",
                   alternatives=(Alternative(CauseId.collective_timeout, "low", "the peers may be busy with work "
                                             "longer than gloo's fixed 30 s before the same call",
                                             "time the work between the last common collective and this one on "
                                             "every rank"),))


def _busy_peers(ranks: dict[int, RankState], waiting: list[RankState]) -> list[int]:
    """The ranks that did not wait: each stopped by the launcher (SIGTERM) with no wait and no error of its own; empty
    unless every rank with a log either waited or is such a rank."""
    waiters = {s.rank for s in waiting}
    peers = [s for r, s in sorted(ranks.items()) if r not in waiters and s.log]
    if not peers or not all(s.has("terminated") and not s.has("real_timeout") and not s.has("peer_closed")
                            and not s.causes() for s in peers):
        return []
    return [s.rank for s in peers]
