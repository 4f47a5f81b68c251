"""Hangs whose cause is in what the ranks did before they stopped, not in an error line.

- **A lock nobody holds** (``stale_download_lock``): every rank sleeps in a file lock's ``acquire``
  (PaddleNLP 2.4's ``FileLock`` loops on ``os.open(O_CREAT | O_EXCL)`` with no timeout; a run that
  was killed while holding it leaves the file, PaddleNLP#3513). Nothing is printed while it waits;
  the lock's frame shows when the hang is interrupted (``KeyboardInterrupt``), ended (SIGTERM), or
  dumped (``py-spy dump``).
- **Uneven steps per epoch** (``uneven_train_batches``; ``uneven_eval_batches`` when the progress
  lines are an evaluation's): the ranks hang or time out together, and their last progress lines
  show different step totals (``Iter: 1230/1251`` against ``/1240``) or different epochs. The rank
  with fewer steps left the loop first (PaddlePaddle/models#5121, PaddleClas#15).

Both are rules of :func:`rootcause.decide` (its signature) and fire only when no rank shows a
specific cause of its own.
"""

from __future__ import annotations

import dataclasses
import io
import re
from dataclasses import dataclass

from ...catalog.ids import CauseId
from ...findings import Alternative, EvidenceLine, Finding, Location
from ...redact import redact
from ..ranks import RankState, aborted_after_wait
from ..verdict import make_verdict

LOCK_SITES = ("lock_wait_frame",)
# What a rank shows while it waits, or when it is stopped waiting: none of these is a cause of its own.
WAIT_ENDINGS = ("real_timeout", "peer_closed", "terminated")
INTERRUPTED = ("KeyboardInterrupt", "SystemExit")
SPECIFIC = 60  # a cause signature at least this specific is the rank's own failure, not a wait


def from_lock_wait(ranks: dict[int, RankState], unranked, facts) -> Finding | None:
    states = sorted(ranks.values(), key=lambda s: s.rank) + [RankState(-1, events=list(unranked))]
    waiting = [(s, site) for s in states if (site := _lock_site(s)) is not None and not _own_cause(s)]
    if not waiting or any(_own_cause(s) for s in states):
        return None
    # A rank stopped elsewhere (in a download's read, say) holds the lock the others wait for: it is
    # alive and slow, not stale.
    if any(_lock_site(s) is None and any(e.role in WAIT_ENDINGS or _interrupted(e) for e in s.events) for s in states):
        return None
    state, site = waiting[0]
    rank = state.rank if state.rank >= 0 else None
    ended = next((e for e in state.events if e.role in WAIT_ENDINGS or _interrupted(e) or
                  e.sig.cause == CauseId.stale_download_lock and e.role == "cause"), None)
    who = (f"{len(waiting)} ranks" if len(waiting) > 1 else f"rank {rank}" if rank is not None else "the process")
    return make_verdict(
        "waits_in_file_lock", CauseId.stale_download_lock, rank, [site, ended], "high" if ended else "medium",
        f"{who} waited in a file lock's acquire and nothing else failed: the lock is held by no live step of "
        "this run (a lock file, or a process, left by an earlier run)",
        title=f"{'every rank waits' if len(waiting) > 1 else who + ' waits'} for a file lock: a lock file left by an "
              "earlier, killed run")


def _lock_site(state: RankState):
    return next((e for e in state.events if e.sig.name in LOCK_SITES), None)


def _own_cause(state: RankState) -> bool:
    """An error of its own (any exception: a PermissionError on the lock file is not a wait), other
    than the lock's timeout and a wait that was interrupted."""
    return any(e.sig.cause != CauseId.stale_download_lock for e in state.causes() if not _interrupted(e))


def _interrupted(event) -> bool:
    return event.role == "exception" and event.groups.get("exc") in INTERRUPTED


# ---- uneven steps per epoch -------------------------------------------------------------------------
PROGRESS_BYTES = 8192  # read back from where a rank stopped, to its last progress line
MAX_RANKS_READ = 256
EPOCH_RE = re.compile(r"(?i)\bepoch\b\W{0,3}(\d+)(?:\s*/\s*\d+)?")
PAIR_RE = re.compile(r"(?<![\d./:-])(\d+)\s*/\s*(\d+)(?![\d./:-])")
STEP_WORD = re.compile(r"(?i)\b(?:epoch|step|iter(?:ation)?|batch(?:_id)?)\b")
COUNTER_RE = re.compile(r"(?i)(global[ _])?\b(?:step|iter(?:ation)?|batch(?:_id)?)\b\W{0,3}(\d+)")
EVAL_WORD = re.compile(r"(?i)\b(?:eval(?:uat\w*)?|valid(?:ation)?|test(?:ing)?)\b")
HANG_CAUSES = (CauseId.collective_timeout,)


@dataclass(frozen=True)
class Progress:
    rank: int
    epoch: int | None
    step: int | None
    total: int | None
    phase: str  # "train" | "eval"
    line: EvidenceLine


def parse_progress(text: str) -> tuple[int | None, int | None, int | None, str] | None:
    """(epoch, step, steps in the epoch, phase) of a progress line, or None when it is not one."""
    word = STEP_WORD.search(text)
    if word is None:
        return None
    epoch_m = EPOCH_RE.search(text)
    # counts after the first step word: a date before it ("[05/24 11:04:00] ... step 120") is no count
    pairs = [m for m in PAIR_RE.finditer(text, word.start())
             if not (epoch_m and epoch_m.start() <= m.start() < epoch_m.end())]
    step = total = None
    if pairs:
        step, total = int(pairs[-1].group(1)), int(pairs[-1].group(2))
    else:
        # the epoch's own counter (batch, iter) before a global one ("global step 2535, epoch: 3, batch: 610")
        counters = sorted(COUNTER_RE.finditer(text), key=lambda m: m.group(1) is not None)
        step = int(counters[0].group(2)) if counters else None
    epoch = int(epoch_m.group(1)) if epoch_m else None
    if epoch is None and step is None:
        return None
    return epoch, step, total, "eval" if EVAL_WORD.search(text) else "train"


def from_uneven_steps(ranks: dict[int, RankState], unranked, facts) -> Finding | None:
    states = [s for s in sorted(ranks.values(), key=lambda s: s.rank) if s.log and s.line_index is not None]
    if len(states) < 2 or len(states) > MAX_RANKS_READ or not _hung(ranks, facts):
        return None
    if any(_own_failure(s, e) for s in ranks.values() for e in s.causes()):
        return None
    if len({s.log for s in states}) < len(states):
        return None  # a runner's interleaved output: one file, no per-rank tail to read
    by_rank = [_last_progress(s) for s in states]
    # the phase every rank shows (training first: a rank that ran out of training batches may be in its eval)
    phase = next((ph for ph in ("train", "eval") if all(ph in got for got in by_rank)), None)
    if phase is None:
        return None
    seen = [got[phase] for got in by_rank]
    left = _left_first(seen)
    if left is None:
        return None
    first, how = left
    others = [p for p in seen if p.rank != first.rank]
    cause = CauseId.uneven_eval_batches if first.phase == "eval" else CauseId.uneven_train_batches
    finding = make_verdict(
        "uneven_steps_per_epoch", cause, first.rank, [], "high" if how == "totals" else "medium",
        f"the job ended in a wait (a timeout, a peer gone, an interrupt or a kill), and the ranks' last progress "
        f"lines show {HOW[how]}: rank {first.rank} "
        f"ran out of {first.phase} batches first and went on to the next collective while the others were still "
        "in the loop's",
        title=(f"rank {first.rank} has fewer {first.phase} steps per epoch than rank {others[0].rank}" if how == "totals"
               else f"rank {first.rank} is already in epoch {first.epoch} while rank {others[0].rank} is in epoch "
                    f"{others[0].epoch}") + ": the ranks' collectives fall out of step at the epoch's end",
        alternatives=(Alternative(CauseId.rank_divergent_collective, "low", "the ranks may call different "
                                  "collectives for another reason", "print len(loader) on every rank"),),
        extra_facts={"progress": {str(p.rank): [p.epoch, p.step, p.total] for p in seen}})
    lines = (first.line, *(p.line for p in others[:2]))
    return dataclasses.replace(finding, evidence=lines, locations=(Location(path=lines[0].path, line=lines[0].line, rank=first.rank),))


HOW = {"totals": "different numbers of steps per epoch", "epochs": "the ranks in different epochs"}


def _own_failure(state: RankState, event) -> bool:
    """A specific cause of the rank's own. Not one: an interrupt, a hang's timeout, and the abort that
    follows a wait in the same log (:func:`ranks.aborted_after_wait`)."""
    if _interrupted(event) or event.sig.specificity < SPECIFIC or event.sig.cause in HANG_CAUSES:
        return False
    return not aborted_after_wait(state, event)


def _hung(ranks: dict[int, RankState], facts) -> bool:
    """The job ended in a wait: a timeout, a closed peer, SIGTERM, an interrupt, or the launcher's kill."""
    return facts.killed or facts.interrupted or any(e.role in WAIT_ENDINGS or _interrupted(e) or e.sig.cause in HANG_CAUSES
                               for s in ranks.values() for e in s.events)


def _left_first(seen: list[Progress]) -> tuple[Progress, str] | None:
    """The rank that left the loop first: the one with the fewest steps per epoch, or the one
    already in a later epoch; None when the lines agree (a stuck rank, not an uneven split)."""
    totals = {p.total for p in seen if p.total is not None}
    if len(totals) >= 2 and all(p.total is not None for p in seen) and _same_epoch(seen):
        least = min(totals)
        return min((p for p in seen if p.total == least), key=lambda p: p.rank), "totals"
    epochs = {p.epoch for p in seen if p.epoch is not None}
    if len(epochs) >= 2 and all(p.epoch is not None for p in seen):
        latest = max(epochs)
        ahead = [p for p in seen if p.epoch == latest]
        # Steps already run in the new epoch paired with the others' extra steps; at its step 0 the rank
        # may only be waiting for a peer busy with epoch-end work of its own (a rank-0-only save).
        if len(ahead) != 1 or (ahead[0].step is not None and ahead[0].step < 1):
            return None
        return ahead[0], "epochs"
    return None


def _same_epoch(seen: list[Progress]) -> bool:
    return len({p.epoch for p in seen}) == 1


def _last_progress(state: RankState) -> dict[str, Progress]:
    """The rank's last progress line of each phase before it stopped (its first traceback, timeout
    or dump; the end of its log when it shows none), read back from its own file."""
    stop_event = next((e for e in state.events if e.role in STOP_ROLES), None)
    text = _text_before(state, stop_event.offset if stop_event is not None else None)
    found: dict[str, Progress] = {}
    # the number of the line that starts at ``stop``: the stop event's, or one past the last line
    base = None
    for back, line in enumerate(reversed(text.split("\n"))):
        parsed = parse_progress(line) if line.strip() and not line[:1].isspace() else None
        if parsed is None or parsed[3] in found:
            continue
        if base is None:
            base = stop_event.line if stop_event is not None else state.lines + (1 if text.endswith("\n") else 0)
        epoch, step, total, phase = parsed
        found[phase] = Progress(state.rank, epoch, step, total, phase,
                                EvidenceLine(state.log, max(1, base - back), redact(line.strip())))
    return found


def _text_before(state: RankState, stop: int | None) -> str:
    """The last PROGRESS_BYTES of the rank's log before ``stop`` (its end when None). A stream that
    cannot seek (a compressed log, docker's json-file lines decoded) is read through once."""
    with state.line_index.reopen() as stream:
        try:
            end = stream.seek(0, 2) if stop is None else stop
            start = max(0, end - PROGRESS_BYTES)
            stream.seek(start)
            data = stream.read(end - start)
        except (OSError, io.UnsupportedOperation):
            data, pos = b"", 0
            while (stop is None or pos < stop) and (chunk := stream.read(1 << 20)):
                chunk = chunk if stop is None else chunk[: stop - pos]
                pos += len(chunk)
                data = (data + chunk)[-PROGRESS_BYTES:]
    return data.decode("utf-8", errors="replace")


STOP_ROLES = ("traceback", "real_timeout", "peer_closed", "terminated", "cause", "exception", "hang_site")
