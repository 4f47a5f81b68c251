"""The watchdog's verdict on its peers: which one is dead, failed, stuck or in another collective.

Split from ``watchdog`` (which fires): this module only reads a ``heartbeat.Mesh`` and returns a
``Finding`` or None, so it is tested without ending anything. What "stuck" means here:

- a peer whose process cannot run: seen stopped (state ``T``, SIGSTOP or a debugger) in its
  /proc (same host) or by its sidecar for half the deadline (``stop_after``);
- a peer of which nothing is heard for the deadline, neither its beats nor its sidecar's: a
  frozen host, or a network that no longer reaches it;
- not a peer whose own beats stop while its process is seen running (``R``/``S``/``D``): native
  code holds its GIL, or it is just slow. That rank is busy, never ended.

Nothing here imports paddle.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.contract import FAULT_PREFIX, GUARD_KINDS, RECORD_PREFIX
from paddle_doctor.findings import Confidence, Finding
from paddle_doctor.runtime.guards import collcheck, heartbeat, procinfo
from paddle_doctor.runtime.guards.guardfinding import guard_finding, merged
from paddle_doctor.runtime.guards.guardstate import STATE, State
from paddle_doctor.runtime.guards.liveness.peer import Peer
from paddle_doctor.runtime.guards.trace import describe
from paddle_doctor.runtime.channel import rankenv

REPORTED_GRACE_S = 1.0  # a peer's named finding, before this rank adopts it
SCAN_EVERY_S = 0.25  # a never-heard peer's process is searched for in /proc at most this often
MISMATCH_PERSIST_S = 1.0  # both sides blocked this long in different collectives: not a transient
# Which finding wins when several things are wrong at once; each group may hold several kinds.
PRIORITY = ("reported", "failed", "dead", "mismatch", "stuck")

EVERYWHERE = {"on": False}  # install()/run: a dead or failed peer ends this rank wherever it is
_mismatch_since: dict = {}


def stop_after() -> float:
    return STATE.stop_after()


@dataclass(frozen=True)
class Watch:
    """What this rank's state says for one judgement, read once: the helpers below read no
    shared state, only this."""

    now: float
    guarded: bool
    grace: float
    ending: bool
    hold: float  # s a failed or missing peer is left to the region's own error
    deadline: float
    stop_after: float
    hint: str  # the innermost region's fix for a missing peer
    looped: tuple[int, ...] = ()  # ranks that advertised a loopback address in a job of real addresses

    @classmethod
    def of(cls, state: State, now: float, guarded: bool | None, grace: float, ending: bool) -> Watch:
        return cls(now, state.guarded() if guarded is None else guarded, grace, ending,
                   0.0 if ending else state.hold(), state.deadline(), state.stop_after(),
                   state.regions[-1].hint if state.regions else "",
                   looped_ranks(os.environ.get("PADDLE_TRAINER_ENDPOINTS", "")))


@functools.lru_cache(maxsize=4)
def looped_ranks(endpoints: str) -> tuple[int, ...]:
    """Ranks whose endpoint host is a loopback address while other ranks have real ones: their host
    name resolves to itself (``127.0.1.1`` or ``127.0.0.1`` in /etc/hosts), so the launcher
    advertised an address no other host can reach (measured on two network namespaces, issue 31)."""
    hosts = [item.strip().rpartition(":")[0] for item in endpoints.split(",") if item.strip()]
    looped = tuple(r for r, h in enumerate(hosts) if h.startswith("127.") or h == "localhost")
    return looped if len(looped) < len(hosts) else ()


def judge(m: heartbeat.Mesh, now: float, guarded: bool | None = None, grace: float = REPORTED_GRACE_S,
          ending: bool = False, state: State = STATE) -> Finding | None:
    """The most serious thing wrong with the peers, as a Finding, or None.

    Several dead, failed or stuck peers make one finding naming them all; a reported finding
    (a peer's own watchdog or guard named the culprit) is adopted as it is, so that every
    survivor names the same ranks. ``ending``: this rank is ending anyway (SIGTERM, an
    exception), so a peer never heard from whose heartbeat port refuses counts as dead at once.
    """
    watch = Watch.of(state, now, guarded, grace, ending)
    found: list[tuple[str, Finding]] = []
    for peer in sorted(m.watched(), key=lambda p: p.rank):
        found.extend(_peer_findings(peer, watch, m.started))
    mismatch = _collective_mismatch(m, now, state)
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


def _peer_findings(peer: Peer, w: Watch, started: float):
    end = peer.end
    if not (w.guarded or EVERYWHERE["on"]):
        return
    if end is not None and not end.get("ok"):
        yield from _ended_badly(peer, w)
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
    if end is None and w.guarded and peer.remote:
        yield from _remote_silent(peer, w)
    elif end is None and w.guarded:
        yield from _silent(peer, w, started + w.hold)


def _remote_silent(peer: Peer, w: Watch):
    """A rank on another node: stopped, or its whole node gone, as its watchers found it. Nothing
    listening on the port of a remote rank never heard of is no evidence of death (it may not have
    left ``init_parallel_env`` yet, and no /proc of its host can be read from here): no verdict."""
    now = w.now
    if peer.stopped_since is not None and now - peer.stopped_since >= w.stop_after:
        yield "stuck", guard_finding("stuck", [peer.rank], f"rank {peer.rank} has been stopped for "
                                     f"{now - peer.stopped_since:.1f} s: its process is in state T (SIGSTOP or a "
                                     f"debugger) and cannot run (its node's watcher: {peer.remote_how}){_doing(peer)}")
    elif peer.node_down is not None and w.looped:
        yield "stuck", _unreachable_loopback(peer, w.looped)
    elif peer.node_down is not None:
        how = peer.node_down.get("how") or "no answer to probes"
        yield "stuck", guard_finding("stuck", [peer.rank], f"rank {peer.rank} is on node {peer.node}, which is "
                                     f"frozen or unreachable: watcher of node {peer.node_down.get('by')}: {how}",
                                     facts={"unreachable_node": peer.node})  # diagnose pairs both sides' records


def _unreachable_loopback(peer: heartbeat.Peer, looped: tuple[int, ...]) -> Finding:
    """The watchers cannot reach a node whose advertised address is a loopback one: not a frozen
    host, a wrong address (the ranks that advertised it are the culprits, on either side)."""
    shown = ", ".join(f"rank {r}" for r in looped[:4]) + (" ..." if len(looped) > 4 else "")
    return guard_finding(
        "stuck", looped, f"node {peer.node} (rank {peer.rank}) cannot be reached across hosts: {shown} advertised a "
        "loopback address in PADDLE_TRAINER_ENDPOINTS (their host name resolves to 127.x, e.g. in /etc/hosts), "
        "which no other host can reach; give that host's name its real address, or pass --host to its launcher",
        cause=CauseId.wrong_host_ip,
        why="the job's endpoints mix loopback and real addresses, and the node watchers could not reach each other")


def _ended_badly(peer: Peer, w: Watch):
    now = w.now
    reported = peer.end.get("finding")
    if reported and reported.get("message"):
        # A guard's error (pre-flight, check mode) is raised on every rank at once: let this
        # rank's own exception, with its table, end it; adopt the peer's finding only if not.
        if now - peer.end_seen >= w.grace:
            f = Finding.from_dict(reported)
            yield "reported", guard_finding(f.code if f.code else "failed", f.ranks or [peer.rank],
                                            f"{f.message} (reported by rank {peer.rank})", cause=f.cause)
        return
    if now - peer.end_seen >= w.hold:
        yield "failed", guard_finding("failed", [peer.rank], f"rank {peer.rank} ended with an error "
                                      f"({_where_recorded(peer.rank)}){_doing(peer)}")


def _silent(peer: Peer, w: Watch, started: float):
    """A peer stopped, or that stopped beating, or never beat at all (it froze or died before its
    first beat) and that nobody sees running."""
    now, deadline, ending = w.now, w.deadline, w.ending
    if peer.stopped_since is not None and now - peer.stopped_since >= w.stop_after:
        yield "stuck", guard_finding("stuck", [peer.rank], f"rank {peer.rank} has been stopped for "
                                     f"{now - peer.stopped_since:.1f} s: its process is in state T (SIGSTOP or a "
                                     f"debugger) and cannot run{_doing(peer)}")
        return
    if peer.runs(now, deadline):
        return  # busy (its beat thread starved by native code holding the GIL) or slow: alive
    silence = peer.silence(now)
    if silence is not None:
        if silence >= deadline:
            why = "its process is stopped (state T: SIGSTOP or a debugger)" if peer.proc_state in ("T", "t") \
                else "its process is frozen or unreachable (nor does its sidecar say it runs)"
            yield "stuck", guard_finding("stuck", [peer.rank], f"rank {peer.rank} has sent no heartbeat for "
                                         f"{silence:.1f} s: {why}{_doing(peer)}")
        return
    waited = now - started
    if not ending and waited < deadline:
        return
    recorded = _peer_record(peer.rank)
    if recorded is not None:  # it ended before we listened (we joined late): its record says why
        yield from recorded
    elif ending and peer.refused >= heartbeat.REFUSALS_FOR_DEAD and _gone_from_host(peer, w):
        yield "dead", guard_finding(
            "dead", [peer.rank], f"rank {peer.rank} was never heard from, nothing listens on its heartbeat port, and no "
            f"process of this job has its rank on this host: it died before its first heartbeat (e.g. SIGKILL from the OOM killer)",
            confidence=Confidence.MEDIUM, why="no process with its rank in /proc, and the kernel refuses datagrams "
            "to its heartbeat port")
    elif waited >= deadline:  # silence before a first beat is no death: ranks start at different times
        yield "stuck", guard_finding(
            "missing", [peer.rank], f"rank {peer.rank} has not been heard from in {waited:.1f} s (no heartbeat "
            f"since this rank started watching): it froze or died before its first heartbeat, or never reached "
            f"a guarded region{w.hint}", confidence=Confidence.MEDIUM,
            why="every other rank beats; this one never did within the deadline")


def _gone_from_host(peer: Peer, w: Watch) -> bool:
    """Evidence of death for a peer never heard from: it is on this host and no process of the job
    has its rank. Silence alone is none (a rank may still be in ``init_parallel_env``)."""
    if not peer.same_host:
        return False
    if peer.scanned is None or w.now - peer.scanned[0] >= SCAN_EVERY_S:  # a search reads all of /proc
        peer.scanned = (w.now, procinfo.rank_runs_here(peer.rank))
    return not peer.scanned[1]


def _peer_record(rank: int):
    """A never-heard peer's error record of this run (same host or shared log dir), as findings.
    Read by diagnose's one record reader (validated field by field, schema 1 and 2); imported here,
    not at the top, because only a peer never heard from needs it."""
    from paddle_doctor.diagnose.records import load_records

    me = rankenv.current()
    record = load_records([me.log_dir / f"{RECORD_PREFIX}{rank}.json"]).get(rank)
    if record is None or record.run_id != me.run_id:
        return None  # none, not ours, or an earlier run's leftover
    f = record.finding
    if f is not None and f.message and f.ranks:
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


def _doing(peer: Peer) -> str:
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


def _collective_mismatch(m: heartbeat.Mesh, now: float, state: State) -> Finding | None:
    """In a traced collective (check mode off): a peer that will never join it."""
    cur = state.current
    if cur is None or cur.p2p or state.checking:
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
