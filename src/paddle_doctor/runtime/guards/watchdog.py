"""Watchdog: a dead, failed or stuck rank ends every surviving rank, fast and by name.

Paddle on CPU leaves a rank waiting for an absent peer in a gloo collective for a hard-coded
30 s and then says ``TIMEOUT self_rank = none``; with NCCL it waits 30 minutes. A rank blocked in
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
  that peer. A slow rank keeps beating and is never reported;
- in a traced collective that a peer will never join: the peer finished cleanly, or its
  heartbeat shows it blocked in a different collective for a second (see ``collcheck``).
"""

from __future__ import annotations

import atexit
import json
import multiprocessing
import os
import sys
import threading
import time
from contextlib import contextmanager

from paddle_doctor.contract import FAULT_PREFIX, GUARD_KINDS, RECORD_PREFIX, WATCHDOG_ENV
from paddle_doctor.findings import Confidence, Finding
from paddle_doctor.runtime.guards import collcheck, heartbeat
from paddle_doctor.runtime.guards import record as _record
from paddle_doctor.runtime.guards.guardfinding import guard_finding, merged
from paddle_doctor.runtime.guards.guardstate import STATE, Region
from paddle_doctor.runtime.guards.trace import TRACER, describe
from paddle_doctor.runtime.launch import rankenv

WATCHDOG_EXIT_CODE = 86
REPORTED_GRACE_S = 1.0  # a peer's named finding, before this rank adopts it
UNHEARD_WAIT_S = 0.3  # an ending rank's wait for "port unreachable" answers from peers never heard from
MISMATCH_PERSIST_S = 1.0  # both sides blocked this long in different collectives: not a transient
# Which finding wins when several things are wrong at once; each group may hold several kinds.
PRIORITY = ("reported", "failed", "dead", "mismatch", "stuck")

_lock = threading.Lock()
_mesh: heartbeat.Mesh | None = None
_everywhere = {"on": False}  # install()/run: a dead or failed peer ends this rank wherever it is
_mismatch_since: dict = {}


def mesh() -> heartbeat.Mesh | None:
    return _mesh


def watch_everywhere(on: bool = True) -> None:
    """With ``install()`` (or ``paddle-doctor run``) a dead or failed peer ends this rank at once,
    wherever it is. Without it (``evaluate`` or ``guarded`` alone) only inside guarded regions: a
    library call must not end a process that is not waiting for that peer (a peer may also leave
    with ``os._exit(0)``, which looks like a death)."""
    _everywhere["on"] = on


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
            _mesh = heartbeat.Mesh(me, peers, on_tick, tick=beat_interval(me.world_size)).start()
            atexit.register(_at_exit)
    _install_record_hooks()
    return _mesh


def beat_interval(world: int) -> float:
    """0.25 s, longer for large jobs (every rank beats to every other one), and at most 1/8 of
    the deadline so that a few lost datagrams never look like silence."""
    return min(max(heartbeat.TICK_S, world / 256), STATE.deadline() / 8)


def _install_record_hooks() -> None:
    """A rank that the watchdog guards also writes records (``evaluate`` alone, without ``run``):
    the launcher SIGTERMs the survivors within a second of a death, sometimes before the watchdog
    fires, and then only the SIGTERM hook can name the dead peer."""
    from paddle_doctor.runtime.guards import hooks

    hooks.install_python_hooks()
    if "paddle" in sys.modules:
        hooks.install_signal_hooks()  # a no-op outside the main thread


@contextmanager
def guarded(name: str, *, step_fn=None, deadline: float | None = None, hold: float = 0.0, hint: str = ""):
    """A region where a missing peer is fatal: ``with guarded("evaluate", step_fn=lambda: i):``.

    ``step_fn`` is called from the heartbeat thread to report this rank's progress; ``deadline``
    (seconds without a heartbeat from a peer) overrides the default for this region.
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


def judge(m: heartbeat.Mesh, now: float, guarded: bool | None = None, grace: float = REPORTED_GRACE_S,
          ending: bool = False) -> Finding | None:
    """The most serious thing wrong with the peers, as a Finding, or None.

    Several dead, failed or stuck peers make one finding naming them all; a reported finding
    (a peer's own watchdog or guard named the culprit) is adopted as it is, so that every
    survivor names the same ranks. ``ending``: this rank is ending anyway (SIGTERM, an
    exception), so a peer never heard from whose heartbeat port refuses counts as dead at once.
    """
    guarded = STATE.guarded() if guarded is None else guarded
    found: list[tuple[str, Finding]] = []
    for peer in sorted(m.peers.values(), key=lambda p: p.rank):
        found.extend(_peer_findings(peer, now, guarded, grace, m.started, ending))
    mismatch = _collective_mismatch(m, now)
    if mismatch is not None:
        found.append(("mismatch", mismatch))
    for group in PRIORITY:
        same = [f for g, f in found if g == group]
        if same and group in ("reported", "mismatch"):
            return same[0]
        if same:
            by_kind = [f for f in same if f.code == same[0].code]
            return merged(by_kind)
    return None


def _peer_findings(peer: heartbeat.Peer, now: float, guarded: bool, grace: float, started: float,
                   ending: bool):
    end = peer.end
    if not (guarded or _everywhere["on"]):
        return
    hold = 0.0 if ending else STATE.hold()  # the region raises a catchable error itself first
    if end is not None and not end.get("ok"):
        yield from _ended_badly(peer, now, grace, hold)
        return
    if end is None and peer.gone:
        crash = _crash_dump(peer.rank)
        if crash:
            yield "dead", guard_finding("crashed", [peer.rank],
                                        f"rank {peer.rank} crashed in native code ({crash}){_doing(peer)}")
        else:
            yield "dead", guard_finding(
                "dead", [peer.rank], f"rank {peer.rank} died without a word: its process is gone (killed by a "
                f"signal, e.g. SIGKILL from the kernel's OOM killer or kill -9){_doing(peer)}")
        return
    if end is None and guarded:
        yield from _silent(peer, now, started + hold, ending)


def _ended_badly(peer: heartbeat.Peer, now: float, grace: float, hold: float = 0.0):
    reported = peer.end.get("finding")
    if reported and reported.get("message"):
        # A guard's error (pre-flight, check mode) is raised on every rank at once: let this
        # rank's own exception, with its table, end it; adopt the peer's finding only if not.
        if now - peer.end_seen >= grace:
            f = Finding.from_dict(reported)
            yield "reported", guard_finding(f.code if f.code else "failed", f.ranks or [peer.rank],
                                            f"{f.message} (reported by rank {peer.rank})", cause=f.cause)
        return
    if now - peer.end_seen >= hold:
        yield "failed", guard_finding("failed", [peer.rank], f"rank {peer.rank} ended with an error "
                                      f"({_where_recorded(peer.rank)}){_doing(peer)}")


def _silent(peer: heartbeat.Peer, now: float, started: float, ending: bool):
    """A peer that stopped beating, or never beat at all (it froze or died before its first beat)."""
    silence = peer.silence(now)
    if silence is not None:
        if silence >= STATE.deadline():
            why = "its process is stopped (state T: SIGSTOP or a debugger)" if peer.proc_state in ("T", "t") \
                else "its process is frozen or unreachable"
            yield "stuck", guard_finding("stuck", [peer.rank], f"rank {peer.rank} has sent no heartbeat for "
                                         f"{silence:.1f} s: {why}{_doing(peer)}")
        return
    waited = now - started
    if not ending and waited < STATE.deadline():
        return
    recorded = _peer_record(peer.rank)
    if recorded is not None:  # it ended before we listened (we joined late): its record says why
        yield from recorded
    elif ending and peer.refused >= heartbeat.REFUSALS_FOR_DEAD:
        yield "dead", guard_finding(
            "dead", [peer.rank], f"rank {peer.rank} was never heard from in {waited:.1f} s and nothing listens on "
            f"its heartbeat port: it died before its first heartbeat (e.g. SIGKILL from the OOM killer) or "
            f"never reached a guarded region", confidence=Confidence.MEDIUM,
            why="no heartbeat ever arrived, and the kernel refuses datagrams to its port")
    elif waited >= STATE.deadline():
        yield "stuck", guard_finding(
            "missing", [peer.rank], f"rank {peer.rank} has not been heard from in {waited:.1f} s (no heartbeat "
            f"since this rank started watching): it froze or died before its first heartbeat, or never reached "
            f"a guarded region{STATE.regions[-1].hint if STATE.regions else ''}", confidence=Confidence.MEDIUM,
            why="every other rank beats; this one never did within the deadline")


def _peer_record(rank: int):
    """A never-heard peer's error record of this run (same host or shared log dir), as findings."""
    me = rankenv.current()
    try:
        data = json.loads((me.log_dir / f"{RECORD_PREFIX}{rank}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("run_id") != me.run_id:
        return None  # an earlier run's leftover
    reported = data.get("finding") or {}
    if reported.get("message") and reported.get("ranks"):
        f = Finding.from_dict(reported)
        return [("reported", guard_finding(f.code if f.code in GUARD_KINDS else "failed", f.ranks,
                                           f"{f.message} (recorded by rank {rank})", cause=f.cause))]
    return [("failed", guard_finding("failed", [rank], f"rank {rank} ended with an error ({_where_recorded(rank)})"))]


def _crash_dump(rank: int) -> str:
    """The first line of a same-host peer's faulthandler dump ("Fatal Python error: Aborted")."""
    path = rankenv.current().log_dir / f"{FAULT_PREFIX}{rank}.dump"
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            first = f.readline().strip()
    except OSError:
        return ""
    return f"{first}; see {path.parent.name}/{path.name}" if first else ""


def _where_recorded(rank: int) -> str:
    me = rankenv.current()
    return f"see its log and {me.log_dir.name}/{RECORD_PREFIX}{rank}.json"


def _doing(peer: heartbeat.Peer) -> str:
    info = peer.info
    parts = []
    if info.get("ph"):
        step = info.get("sp")
        parts.append(f"in {info['ph']}" + ("" if step is None else f" step {step}" if isinstance(step, int)
                                            else f" ({step})"))
    if info.get("c"):
        parts.append(f"inside {describe(info['c'])}")
    elif info.get("l"):
        parts.append(f"after {describe(info['l'])}")
    return f"; last seen {', '.join(parts)}" if parts else ""


def _collective_mismatch(m: heartbeat.Mesh, now: float) -> Finding | None:
    """In a traced collective (check mode off): a peer that will never join it."""
    cur = STATE.current
    if cur is None or cur.p2p or STATE.checking:
        _mismatch_since.clear()
        return None
    mine = cur.fingerprint()
    members = [r for r in (cur.members or m.peers) if r in m.peers]
    ended = {r: m.peers[r].end for r in members if (m.peers[r].end or {}).get("ok")}
    ended = {r: e for r, e in ended.items() if _seq_of(e.get("last"), cur.group) < cur.seq}
    if ended:
        return collcheck.compare({m.me.rank: mine}, ended)
    return _blocked_elsewhere(m, members, mine, now)


def _seq_of(fp: dict | None, group: int) -> int:
    return int(fp["s"]) if fp and fp.get("g") == group else -1


def _blocked_elsewhere(m, members, mine: dict, now: float) -> Finding | None:
    fps = {r: m.peers[r].info.get("c") for r in members}
    fps = {r: fp for r, fp in fps.items() if fp and fp.get("g") == mine["g"]}
    same = {r: fp for r, fp in fps.items() if fp.get("s") == mine["s"]}
    report = collcheck.compare({m.me.rank: mine, **same}) if same else None
    if report is None and any(fp.get("s") != mine["s"] for fp in fps.values()):
        others = "; ".join(f"rank {r} is in {describe(fp)}" for r, fp in sorted(fps.items()))
        report = guard_finding("mismatch", set(fps) | {m.me.rank}, f"ranks are blocked in different "
                               f"collectives: rank {m.me.rank} is in {describe(mine)}; {others}")
    if report is None:
        _mismatch_since.clear()
        return None
    first = _mismatch_since.setdefault(report.message, now)
    if now - first < MISMATCH_PERSIST_S:
        return None
    return report


def peer_finding(wait: float = 0.0) -> Finding | None:
    """For the exception and signal hooks: what the peers' state says, waiting up to ``wait`` s
    for something more telling than silence."""
    m = _mesh
    if m is None:
        return None
    if any(p.last_seen is None for p in m.peers.values()):
        wait = max(wait, UNHEARD_WAIT_S)
    deadline = time.monotonic() + wait
    while True:
        # this rank is ending anyway: no grace, and a never-heard peer that refuses counts as dead
        finding = judge(m, time.monotonic(), guarded=True, grace=0.0, ending=True)
        if finding is not None and finding.code not in ("stuck", "missing") or time.monotonic() >= deadline:
            return finding
        m.send_now()  # a peer never heard from: its "port unreachable" answers come sooner than the next beat
        time.sleep(0.05)


# -- firing -----------------------------------------------------------------------------------


def fatal_line(finding: Finding, record_path) -> str:
    me = rankenv.current()
    doing = f" This rank was in {describe(STATE.current.fingerprint())}." if STATE.current is not None else ""
    where = f"; record: {record_path}" if record_path else ""
    return (f"[paddle-doctor] watchdog on rank {me.label}: {finding.message}.{doing} "
            f"Ending this rank (exit code {WATCHDOG_EXIT_CODE}){where}")


def emit(line: str) -> None:
    """The library's one printed line: the watchdog's fatal message, on stderr, unbuffered."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    try:
        os.write(2, (line.replace("\n", " ") + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


def fire(finding: Finding, m: heartbeat.Mesh | None = None) -> None:
    """Record, tell the peers, print the line and end this process (never returns)."""
    with _lock:
        if STATE.fired:
            return
        STATE.fired = True
    path = _record.write_record("watchdog", finding=finding, peers=peer_report(m or _mesh))
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


def peer_report(m: heartbeat.Mesh | None) -> dict:
    if m is None:
        return {}
    now = time.monotonic()
    out = {}
    for peer in m.peers.values():
        silence = peer.silence(now)
        out[str(peer.rank)] = {
            "heard": peer.last_seen is not None, "silent_s": None if silence is None else round(silence, 2),
            "gone": peer.gone, "proc_state": peer.proc_state, "ended": peer.end,
            "phase": peer.info.get("ph"), "step": peer.info.get("sp"),
            "collective": peer.info.get("c") or peer.info.get("l"),
        }
    return out
