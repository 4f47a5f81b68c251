"""Refiners that read what the other processes were doing when a rank's error happened.

- **Peers in their backward pass** (``uneven_train_batches``): gloo's size check (``op.preamble.length <=
  op.nbytes``) says two ranks met in one collective with tensors of different sizes. When the ranks that did not
  fail were in their backward pass at that moment (Paddle's ``backward.cc`` warns that a gradient node raised the
  collective's exception: DataParallel all-reduces gradients there) and the failing rank was not, the failing rank
  had left the training loop for its next collective while its peers still trained: it ran fewer steps (measured on
  3.3.1, live1 29726: 5 files split ``[rank::3]``). An uneven evaluation leaves no rank in a backward pass.
- **The rendezvous port bound by a DataLoader worker** (``main_guard_missing``): a bind failure whose crash report
  (``received by PID N``) names a process the rank's DataLoader later lists among its dead workers. A worker binds
  no port unless it ran the script's top level: a worker started by ``spawn`` (or ``forkserver``) imports the main
  module, and without ``if __name__ == "__main__":`` it runs the training again, whose store cannot bind the port
  the rank holds (libuv's ``uv__finish_close`` assertion on 3.x). Measured on 3.3.1, live1 29729.
- **A DataLoader worker the kernel's OOM killer killed** (``host_oom_killed``): the DataLoader says its workers
  died (``workers exit unexpectedly, pids: N``) and the kernel's report, pasted beside it (``dmesg``), killed that
  very pid: the host ran out of memory, the worker only died of it.
"""

from __future__ import annotations

import re

from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..read.parse import Event
from ..verdict import make_verdict

_SIGNAL_PID = re.compile(r"received by PID (\d+)")  # Paddle's crash report: [SignalInfo: *** SIGABRT ... received by PID N
_OOM_KILLED = re.compile(r"Kill(?:ed)? process (\d+)")  # Linux mm/oom_kill.c
CRASH_REPORT_SPAN = 30  # lines from the failed call to its crash report's SignalInfo (a C++ traceback between)
_WORKER_PIDS = re.compile(r"workers exit unexpectedly, pids: ([\d, ]+)")


def _worker_pids(events: list[Event]) -> dict[str, Event]:
    """pid -> the DataLoader's line that lists it among its dead workers (``workers exit unexpectedly, pids: ...``)."""
    return {pid: e for e in events if (m := _WORKER_PIDS.search(e.text)) for pid in re.findall(r"\d+", m.group(1))}


def explained_by_peers_in_backward(everything: list[Event], event: Event, rank: int | None) -> Finding | None:
    """``event`` is gloo's size check on ``rank``; the verdict when its peers were in their backward pass."""
    if event.sig.name != "gloo_size_mismatch" or rank is None:
        return None
    backward = [e for e in everything if e.role == "in_backward"]
    if not backward or any(e.rank == rank for e in backward) or not any(e.rank is not None for e in backward):
        return None
    peers = sorted({e.rank for e in backward if e.rank is not None})
    return make_verdict(
        "peers_in_backward", CauseId.uneven_train_batches, rank, [event, backward[0]], "medium",
        f"rank {rank}'s collective met tensors of another size while rank(s) {', '.join(map(str, peers))} were in "
        f"their backward pass (all-reducing gradients): rank {rank} had left the training loop, its peers had steps "
        "left",
        title=f"rank {rank} ran fewer training steps than its peers and called its next collective while they still "
              "all-reduced gradients",
        alternatives=(Alternative(CauseId.rank_divergent_collective, "low", "the rank may have skipped one step's "
                                  "backward (a `continue` on a bad batch) rather than run out of batches",
                                  "print len(loader) and the steps run on every rank"),))


def explained_by_child_rerun(own: list[Event], event: Event, rank: int | None) -> Finding | None:
    """``event`` is a bind failure (``port_in_use``) in ``rank``'s log; the verdict when the process that failed to
    bind (the pid of the crash report that follows it) was one of the rank's DataLoader workers."""
    if event.sig.cause != CauseId.port_in_use:
        return None
    workers = _worker_pids(own)
    report = next((e for e in own if e.file == event.file and 0 < e.line - event.line <= CRASH_REPORT_SPAN
                   and _SIGNAL_PID.search(e.text)), None)
    pid = _SIGNAL_PID.search(report.text).group(1) if report is not None else None
    if pid is None or pid not in workers:
        return None
    return make_verdict(
        "child_reran_the_script", CauseId.main_guard_missing, rank, [event, report, workers[pid]], "high",
        f"process {pid}, one of rank {rank}'s DataLoader workers, tried to bind the rendezvous store's port and "
        "crashed: the worker ran the script's top level (a spawned worker imports the main module)",
        title="the DataLoader's workers re-ran the training script: it has no `if __name__ == \"__main__\":` guard",
        alternatives=(Alternative(CauseId.port_in_use, "low", "another process may hold the port as well",
                                  "`ss -ltnp | grep :PORT` while the job starts"),))


def explained_by_oom_kill(everything: list[Event], event: Event, rank: int | None) -> Finding | None:
    """``event`` is a DataLoader's report that its workers died; the verdict when the kernel killed one of them."""
    if event.sig.cause != CauseId.dataloader_worker_crash:
        return None
    workers = _worker_pids([e for e in everything if e.rank == event.rank] + [event])
    kill = next((e for e in everything if e.sig.name == "kernel_oom_killer" and (m := _OOM_KILLED.search(e.text))
                 and m.group(1) in workers), None)
    if kill is None:
        return None
    pid = _OOM_KILLED.search(kill.text).group(1)
    return make_verdict(
        "oom_killed_a_worker", CauseId.host_oom_killed, rank, [kill, event], "high",
        f"the kernel's OOM killer killed process {pid}, which rank {rank}'s DataLoader lists among its dead workers: "
        "the host ran out of memory",
        title=f"the kernel's OOM killer killed a DataLoader worker of rank {rank} (process {pid}): host memory ran out",
        alternatives=(Alternative(CauseId.shm_too_small, "low", "the workers' shared memory counts against the same "
                                  "limit in a container", "`df -h /dev/shm` and the container's memory limit"),))


_BY_A_LENGTH = re.compile(r"/\s*\(?\s*(?:float\(\s*)?len\(")  # `x / len(items)`, `x / float(len(items))`


def explained_by_empty_share(everything: list[Event], event: Event, rank: int | None) -> Finding | None:
    """``event`` is a ZeroDivisionError on ``rank``; the verdict when its line divides by a length and another rank went
    on to a collective without it: the rank's own share of the data was empty (more ranks than samples, a hand
    split)."""
    if rank is None or not event.text.lstrip().startswith("ZeroDivisionError"):
        return None
    frame = max((e for e in everything if e.rank == rank and e.role == "frame" and e.file == event.file
                 and e.offset < event.offset), key=lambda e: e.offset, default=None)
    if frame is None or not _BY_A_LENGTH.search(frame.next_text or ""):
        return None
    divided = {e.rank for e in everything if e.text.lstrip().startswith("ZeroDivisionError")}
    # another rank went on to a collective (and saw this one gone) without dividing by zero; a rank the launcher only
    # killed may never have reached the line, and the data may be empty everywhere
    went_on = {e.rank for e in everything if e.role in ("peer_closed", "real_timeout") and e.rank is not None} - divided
    if not went_on:
        return None
    return make_verdict(
        "empty_share_on_one_rank", CauseId.sampler_too_few_samples, rank, [frame, event], "medium",
        f"rank {rank} divided by the length of a collection that was empty (`{(frame.next_text or '').strip()[:60]}`) "
        f"while rank(s) {', '.join(map(str, sorted(went_on)))} went on to a collective: its share of the data was empty",
        title=f"rank {rank} got no samples: fewer samples than ranks, or a split that leaves one rank nothing",
        alternatives=(Alternative(CauseId.python_exception, "low", "the collection may be empty for a reason of its "
                                  "own on that rank", "print the collection's length on every rank"),))
