"""Watchdog: a dead, failed or stuck rank ends every surviving rank, fast and by name.

Paddle on CPU leaves a rank waiting for an absent peer in a gloo collective for a hard-coded
30 s and then says ``TIMEOUT self_rank = none``; with NCCL it waits 30 minutes. The verdict itself is ``liveness.verdict``. A rank blocked in
a C++ collective cannot receive a Python exception, so the watchdog, a thread fed by heartbeats
(``heartbeat.Mesh``), does it all itself: it writes this rank's error record, prints one line
naming the missing rank(s) and what they were doing, and ends the process with ``os._exit``.

When it fires:
- a peer ended with an error, or died (no word before its process vanished: SIGKILL, the OOM
  killer): at once; wherever this rank is when the whole process is guarded (``install()``,
  ``paddle-doctor run``), else only in a guarded region;
- a peer sent no heartbeat for the deadline (default 10 s, ``PADDLE_DOCTOR_WATCHDOG_TIMEOUT``),
  or was never heard from for the deadline since this rank started watching (it froze or died
  before its first beat, or never reached a guarded region): only while this rank is in a
  guarded region (evaluate, pre-flight, a traced collective), since only then is it waiting for
  that peer. A slow rank keeps beating and is never reported, and a rank whose beat thread is
  starved (native code holding its GIL) is seen running by its sidecar: busy, never ended;
- a peer seen stopped (state T) for half the deadline, under the same condition;
- in a traced collective that a peer will never join: the peer finished cleanly, or its
  heartbeat shows it blocked in a different collective for a second (see ``collcheck``).
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import sys
import threading
import time
from contextlib import contextmanager

from paddle_doctor.contract import WATCHDOG_ENV, WATCHDOG_EXIT_CODE
from paddle_doctor.findings import Finding
from paddle_doctor.runtime.guards import heartbeat, hooks
from paddle_doctor.runtime.guards import record as _record
from paddle_doctor.runtime.guards.guardstate import STATE, Region
from paddle_doctor.runtime.guards.liveness import keys, nodes, verdict
from paddle_doctor.runtime.guards.liveness.verdict import judge
from paddle_doctor.runtime.guards.trace import TRACER, describe
from paddle_doctor.runtime.channel import rankenv

__all__ = ["judge", "guarded", "ensure_started", "fire", "peer_finding", "peer_report", "watch_everywhere"]

UNHEARD_WAIT_S = 0.3  # an ending rank's wait for "port unreachable" answers from peers never heard from

_lock = threading.Lock()
_mesh: heartbeat.Mesh | None = None


def mesh() -> heartbeat.Mesh | None:
    return _mesh


def watch_everywhere(on: bool = True) -> None:
    """With ``install()`` (or ``paddle-doctor run``) a dead or failed peer ends this rank at once,
    wherever it is. Without it (``evaluate`` or ``guarded`` alone) only inside guarded regions: a
    library call must not end a process that is not waiting for that peer (a peer may also leave
    with ``os._exit(0)``, which looks like a death)."""
    verdict.EVERYWHERE["on"] = on


def ensure_started() -> heartbeat.Mesh | None:
    """Start this rank's heartbeat thread (once; a no-op in a single process)."""
    global _mesh
    if _mesh is not None or os.environ.get(WATCHDOG_ENV) == "0":
        return _mesh
    me = rankenv.current()
    peers = heartbeat.endpoints()
    if me.rank is None or me.world_size < 2 or len(peers) != me.world_size:
        return None
    with _lock:
        if _mesh is None:
            layout = nodes.layout(peers)
            local = layout.node_of.count(layout.node_of[me.rank])
            key, where = keys.job_key(me.rank, me.world_size, me.log_dir, layout.nodes)
            if key is None:  # a channel anyone could write to must not decide anything
                emit(f"[paddle-doctor] watchdog on rank {me.label}: off, no key for its liveness channel: {where}")
                os.environ[WATCHDOG_ENV] = "0"
                return None
            _mesh = heartbeat.Mesh(me, peers, on_tick, tick=beat_interval(local), key=key,
                                   stats_dir=me.log_dir).start()
            atexit.register(_at_exit)
    _install_record_hooks()
    return _mesh


def beat_interval(ranks_on_node: int) -> float:
    """0.25 s (longer only for a node of more than 64 ranks: a rank beats to the ranks of its own
    node, never to W peers), and at most 1/8 of the deadline so that a few lost datagrams never
    look like silence."""
    return min(max(heartbeat.TICK_S, ranks_on_node / 256), STATE.deadline() / 8)


def _install_record_hooks() -> None:
    """A rank that the watchdog guards also writes records (``evaluate`` alone, without ``run``):
    the launcher SIGTERMs the survivors within a second of a death, sometimes before the watchdog
    fires, and then only the SIGTERM hook can name the dead peer."""
    hooks.use_peers(sys.modules[__name__])
    hooks.install_python_hooks()
    if "paddle" in sys.modules:
        hooks.install_signal_hooks()  # a no-op outside the main thread


@contextmanager
def guarded(name: str, *, step_fn=None, deadline: float | None = None, hold: float = 0.0, hint: str = ""):
    """A region where a missing peer is fatal: ``with guarded("evaluate", step_fn=lambda: i):``.

    ``step_fn`` is called from the heartbeat thread to report this rank's progress; ``deadline``
    (seconds without a heartbeat from a peer) overrides the default for this region; ``hold``
    (seconds) leaves a failed or never-heard peer to the region's own catchable error first (evaluate
    raises ``PeerFailedError``), and ``hint`` is added to "rank R has not been heard from".
    """
    ensure_started()
    region = Region(name, step_fn, deadline, hold=hold, hint=hint)
    STATE.regions.append(region)
    try:
        yield region
    except BaseException:
        STATE.unwound = (name, STATE.current_step())  # for the record, written after unwinding
        raise
    finally:
        STATE.regions.remove(region)


def end_info(ok: bool | None, err: str | None = None, finding: Finding | None = None) -> dict:
    last = STATE.last.fingerprint(history=False) if STATE.last is not None else None
    return {"ok": ok, "err": err, "finding": finding.to_dict() if finding is not None else None,
            "hist": TRACER.history(), "last": last}


def announce_end(ok: bool | None, err: str | None = None, finding: Finding | None = None) -> None:
    if _mesh is not None:
        _mesh.send_end(end_info(ok, err, finding))


def _at_exit() -> None:
    announce_end(True)  # a no-op when an error end was sent already


# -- judging ----------------------------------------------------------------------------------


def on_tick(m: heartbeat.Mesh) -> None:
    if STATE.fired:
        return
    finding = judge(m, time.monotonic())
    if finding is not None:
        fire(finding, m)


def peer_finding(wait: float = 0.0) -> Finding | None:
    """For the exception and signal hooks: what the peers' state says, waiting up to ``wait`` s
    for something more telling than silence."""
    m = _mesh
    if m is None:
        return None
    if any(p.last_seen is None for p in m.local_peers()) or m.layout.nodes > 1:
        wait = max(wait, UNHEARD_WAIT_S)
    deadline = time.monotonic() + wait
    while True:
        # this rank is ending anyway: no grace, and a never-heard peer that refuses counts as dead
        finding = judge(m, time.monotonic(), guarded=True, grace=0.0, ending=True)
        if finding is not None and finding.code not in ("stuck", "missing") or time.monotonic() >= deadline:
            return finding
        m.send_now()  # a peer never heard from: its "port unreachable" answers come sooner than the next beat
        m.probe_remote()
        time.sleep(0.05)


# -- firing -----------------------------------------------------------------------------------


ENDING = f"Ending this rank (exit code {WATCHDOG_EXIT_CODE})"


def fatal_line(finding: Finding, record_path, ending: str = ENDING) -> str:
    """The watchdog's one line; ``ending`` says how this rank ends, and only the watchdog's own end
    names its exit code (a rank that ends on its own error exits with that error's code)."""
    me = rankenv.current()
    doing = f" This rank was in {describe(STATE.current.fingerprint())}." if STATE.current is not None else ""
    where = f"; record: {record_path}" if record_path else ""
    return f"[paddle-doctor] watchdog on rank {me.label}: {finding.message}.{doing} {ending}{where}"


def inert(text: str) -> str:
    """``text`` on one line with no control character left raw (a peer's message is data: an escape
    sequence in it must not reach a terminal)."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
                   for c in text)


def emit(line: str) -> None:
    """The library's one printed line: the watchdog's fatal message, on stderr, unbuffered, inert."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    try:
        os.write(2, (inert(line) + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def fire(finding: Finding, m: heartbeat.Mesh | None = None) -> None:
    """Record, tell the peers, print the line and end this process (never returns)."""
    with _lock:
        if STATE.fired:
            return
        STATE.fired = True
        STATE.watchdog_ending = True
    path = _record.write_record("watchdog", finding=finding, peers=peer_report(m or _mesh), channel=channel_stats())
    line = fatal_line(finding, path)
    _record.add_message(line)
    announce_end(False, "watchdog", finding)
    emit(line)
    _record.finish()
    _end_children()
    os._exit(WATCHDOG_EXIT_CODE)


def _end_children() -> None:
    """DataLoader workers outlive an ``os._exit`` of their rank (they only poll for it now and
    then): the rank ends with them, as a rank killed by the launcher does."""
    try:
        for child in multiprocessing.active_children():
            child.kill()
    except Exception:  # ending this rank matters more than its workers
        pass


def channel_stats() -> dict | None:
    """What the liveness channel accepted and dropped (by reason), for the record."""
    return None if _mesh is None else _mesh.stats.to_dict()


def peer_report(m: heartbeat.Mesh | None) -> dict:
    if m is None:
        return {}
    now = time.monotonic()
    out = {}
    for peer in m.peers.values():
        silence = peer.silence(now)
        out[str(peer.rank)] = {
            "heard": peer.last_seen is not None, "silent_s": None if silence is None else round(silence, 2),
            "gone": peer.gone, "proc_state": peer.proc_state or peer.side.get("ps"), "ended": peer.end,
            "busy": silence is not None and silence >= m.tick * 4 and peer.runs(now, STATE.deadline()),
            "phase": peer.info.get("ph"), "step": peer.info.get("sp"),
            "collective": peer.info.get("c") or peer.info.get("l"),
        }
    return out
