"""A rank's link to its node's watcher: start it, and take in what it passes on.

Every job of two ranks or more has a watcher per node (``watcher.py``), a one-node job included.
Within the node it is a relay: a rank beats to its watcher only, and learns of its node's other
ranks from the watcher's digest (``{"k": "L"}``, one datagram a tick: their last beats and
sidecars' words, with their age), so the datagrams a rank sends and reads per tick do not grow
with the ranks on its node. It beats its node's peers directly (as before the relay) while no
digest came for ``RELAY_QUIET_S`` (the watcher not started yet, dead or starved), to a peer that
asks for it (its beats say ``"dr"``: it hears no digest), and for the few beats that must arrive
at once (the first, entering a checked collective, ending: ``everyone``).

What it knows of ranks on other nodes comes from the watcher, as verdicts with their evidence:

- a remote rank gone (its node's watcher saw its process vanish in /proc): ``peer.gone``, a death;
- a remote rank stopped (state T for the watcher's ``stop_s``): ``peer.stopped_since``, stuck;
- a whole node dead (no ack to direct and indirect probes, suspicion unrefuted): ``peer.node_down``
  on each of its ranks, stuck (frozen or unreachable);
- a remote rank's "end" message: ``peer.end``, as if it had come from the rank itself;
- the fingerprints of a collective on every node (``"F"``): into ``peer.fps``, for check mode.

Nothing here imports paddle.
"""

from __future__ import annotations

import os
import subprocess

from paddle_doctor.runtime.guards.guardstate import STATE
from paddle_doctor.runtime.guards.liveness import sidecar
from paddle_doctor.contract import channel_name

FP_HISTORY = 16  # fingerprints kept per peer, by (group, seq)
RELAY_QUIET_S = 1.0  # no digest from the watcher this long: beat the node's peers directly
SIDECAR_DIRECT_S = 5.0  # never relayed this long after starting: the sidecar too beats to the peers
WATCHER_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "watcher.py")


def start_watcher(mesh, loss: float) -> subprocess.Popen | None:
    """The node's watcher, started by its lowest rank; it outlives that rank (it must be able to
    say that the rank is gone) and ends by itself once its node's ranks have all ended."""
    layout = mesh.layout
    stop_s = STATE.stop_after()
    here = "127.0.0.1" if mesh.host in ("0.0.0.0", "") else mesh.host
    stats = mesh.stats.path and os.path.join(os.path.dirname(mesh.stats.path), channel_name(f"w{mesh.node}"))
    cfg = {"rid": mesh.run_id, "node": mesh.node, "node_of": list(layout.node_of),
           "watchers": [list(a) for a in layout.watcher_addrs], "leader": mesh.me.rank,
           "ranks": {str(mesh.me.rank): [here, mesh.port]}, "loss": loss, "stats": stats,
           "pids": {str(mesh.me.rank): [os.getpid(), mesh.start_time]},  # known before its first beat
           "swim": {"stop_s": stop_s}, "relay": mesh.tick}
    return sidecar.spawn(WATCHER_SCRIPT, cfg, mesh.key)  # the key on its stdin, never in argv


def relayed(mesh, now: float) -> bool:
    """The watcher's digests arrive: this rank's beats need go to the watcher only."""
    return mesh.digest_seen is not None and now - mesh.digest_seen < RELAY_QUIET_S


def direct_peers(mesh, now: float, everyone: bool = False) -> list:
    """The local peers this rank beats to itself (besides its watcher): all of them while the
    relay does not work for this rank, else those that asked (their beats said ``"dr"``) and those
    never heard from (their port's "port unreachable" answer is the evidence of a death before
    a first beat)."""
    relay_works = not everyone and relayed(mesh, now)
    return [p for p in mesh.local_peers() if p.addr != mesh.watcher_addr
            and (not relay_works or p.direct_until > now or p.last_seen is None)]


def sidecar_targets(mesh) -> list:
    """Its watcher only; its node's peers too once the relay failed it (``check_relay``)."""
    if mesh.watcher_addr is not None and not mesh.side_direct:
        return [list(mesh.watcher_addr)]
    return [list(p.addr) for p in mesh.local_peers() if p.addr != mesh.watcher_addr] + (
        [list(mesh.watcher_addr)] if mesh.watcher_addr else [])


def check_relay(mesh, now: float) -> None:
    """A rank that has local peers and heard no digest for a while (its watcher never started,
    died, or never reaches it) has its sidecar beat to the peers too, as before the relay: once,
    for the rest of the job (a sidecar beating both ways costs datagrams, never a verdict)."""
    if mesh.side_direct or mesh.sidecar is None or mesh.ending or relayed(mesh, now) or not mesh.local_peers():
        return  # (an ending rank stops its sidecar from the main thread: never start one behind it)
    quiet = now - (mesh.digest_seen if mesh.digest_seen is not None else mesh.started)
    if quiet >= (RELAY_QUIET_S if mesh.digest_seen is not None else SIDECAR_DIRECT_S):
        mesh.side_direct = True
        sidecar.stop(mesh.sidecar)
        mesh.sidecar = sidecar.start(mesh)


def from_watcher(mesh, msg: dict, now: float) -> None:
    if msg.get("k") == "L":
        _relayed(mesh, msg, now)
        return
    if msg.get("k") == "F":
        _fingerprints(mesh, msg)
        return
    body = msg.get("v") or {}
    kind = body.get("k")
    if kind == "d":
        for peer in mesh.peers.values():
            if peer.remote and peer.node == body.get("n") and peer.node_down is None:
                peer.node_down = body
                mesh.remote_news.add(peer.rank)
        return
    peer = mesh.peers.get(body.get("r"))
    if peer is None or not peer.remote:
        return  # this node's ranks are seen in /proc, better than any word
    if body.get("doing") and not peer.info:
        peer.info = body["doing"]
    if kind == "e" and peer.end is None:
        peer.end, peer.end_seen = body.get("end") or {}, now
    elif kind == "r" and body.get("what") == "gone":
        peer.gone = True
    elif kind == "r" and body.get("what") == "stopped" and peer.stopped_since is None:
        peer.stopped_since = now - STATE.stop_after()  # it has been stopped that long already
        peer.proc_state = "T"
    else:
        return
    peer.remote_how = body.get("how")
    mesh.remote_news.add(peer.rank)


def remember(peer, fp: dict) -> None:
    """A peer's fingerprint, by (group, seq); the last ``FP_HISTORY`` kept."""
    peer.fps[(fp.get("g"), fp.get("s"))] = fp
    while len(peer.fps) > FP_HISTORY:
        peer.fps.pop(next(iter(peer.fps)))


def _relayed(mesh, msg: dict, now: float) -> None:
    """The watcher's digest of this node's other ranks: each as if its beat (and its sidecar's)
    had come directly, as old as the watcher says; never older news over newer."""
    mesh.digest_seen = now
    for entry in msg.get("rs") or ():
        peer = mesh.peers.get(entry["r"])
        if peer is None or peer.remote:
            continue
        beat, seen = entry.get("b"), now - (entry.get("a") or 0.0)
        if beat and (peer.last_seen is None or seen > peer.last_seen):
            peer.first_seen = peer.first_seen or seen
            peer.last_seen, peer.refused = seen, 0
            if peer.end is None:  # an ending peer's last beat stays what it was doing
                peer.info = dict(beat)
            if beat.get("p") and beat["p"] != peer.addr[1]:
                peer.addr, peer.sock = (peer.addr[0], int(beat["p"])), None
            for fp in (beat.get("c"), beat.get("l")):
                if fp:
                    remember(peer, fp)
        side, side_seen = entry.get("s"), now - (entry.get("sa") or 0.0)
        if side and (peer.side_seen is None or side_seen > peer.side_seen):
            peer.side, peer.side_seen = side, side_seen
            if side.get("ps") == "gone" and not peer.local:  # same-host peers are read in /proc
                peer.gone = True
            elif not peer.local:
                peer.note_state(side.get("ps"), side_seen)


def _fingerprints(mesh, msg: dict) -> None:
    for ranks, fp in msg.get("sets") or ():
        for rank in ranks:
            peer = mesh.peers.get(rank)
            if peer is not None and peer.remote:
                remember(peer, fp)
