"""A rank's link to its node's watcher (multi-node jobs): start it, and take in what it passes on.

A rank beats only to the ranks of its own node and to its node's watcher (``watcher.py``); what it
knows of ranks on other nodes comes from the watcher, as verdicts with their evidence:

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
           "swim": {"stop_s": stop_s}}
    return sidecar.spawn(WATCHER_SCRIPT, cfg, mesh.key)  # the key on its stdin, never in argv


def from_watcher(mesh, msg: dict, now: float) -> None:
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


def _fingerprints(mesh, msg: dict) -> None:
    for ranks, fp in msg.get("sets") or ():
        for rank in ranks:
            peer = mesh.peers.get(rank)
            if peer is not None and peer.remote:
                remember(peer, fp)
