"""A liveness channel between ranks that does not depend on rank 0: UDP heartbeats within a node.

Why not the TCP store: its server lives in rank 0's process, so a frozen or dead rank 0 takes
the channel with it, and each round trip costs about 44 ms. Here every rank binds a UDP socket on
the port of its own trainer endpoint (``PADDLE_TRAINER_ENDPOINTS``: the launcher picked free TCP
ports, and UDP ports are a separate space), so peers know where to send without any exchange.
Each beat says what the rank is doing (phase, step, current collective) and carries the port it
listens on, so a rank that had to bind another port is still found.

What a beat can tell:
- a rank that sends nothing for the deadline, and whose process nobody sees running, is frozen or
  unreachable; a process seen stopped (state ``T``: SIGSTOP) is stuck after half the deadline;
- a rank whose beat thread is starved (native code holding the GIL) still runs: its sidecar
  (``liveness/sidecar.py``, a separate process reading ``/proc/<pid>/stat``) beats for it, and
  same-host peers read its /proc state themselves, so it is reported busy, never stuck;
- a rank whose process is gone is dead: same-host peers are checked in /proc (pid and start time),
  remote ones by the ICMP "port unreachable" that a send to their closed socket brings back;
- a rank that is ending says so first ("end" message: clean exit, or the error and its record).

Whose beats: a rank beats to its node's watcher (``liveness/nodes.py``, ``liveness/watcher.py``;
a one-node job has one too), which relays the node's beats (one digest per rank per tick), watches
the other nodes SWIM-style and passes their verdicts, "end" messages and collective fingerprints on
(``liveness/link.py``): the datagrams a rank sends and reads per tick do not grow with W, nor with
the ranks on its node. Without the watcher's digests it beats its node's peers directly.

Every datagram is sealed with the job's key and opened before it is used (``liveness/seal.py``,
``schema.py``): what fails is dropped and counted, and this thread cannot die of it.
Nothing here imports paddle.
"""

from __future__ import annotations

import os
import random
import select
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

from paddle_doctor.contract import BEAT_LOSS_ENV, channel_name
from paddle_doctor.findings import Finding
from paddle_doctor.runtime.guards import procinfo
from paddle_doctor.runtime.guards.guardstate import STATE
from paddle_doctor.runtime.guards.liveness import keys, link, nodes, schema, seal, sidecar
from paddle_doctor.runtime.guards.liveness.peer import Peer
from paddle_doctor.runtime.guards.liveness.sidecar import state_of
from paddle_doctor.runtime.channel.rankenv import RankInfo

TICK_S = 0.25  # between beats (scaled up with the world size by the watchdog)
PROBE_S = 0.1  # between checks of same-host peers' processes and judgements
END_REPEAT = 3  # an "end" message is sent this many times: UDP may drop one
REFUSALS_FOR_DEAD = 2
RECV_BYTES = 65536  # read whole (a longer datagram is cut by the kernel, then dropped as oversized)
DRAIN_MAX = 512  # datagrams read per drain: a flood must not keep the loop from beating and judging
__all__ = ["Mesh", "Peer", "endpoints"]


def endpoints(env=None) -> list[tuple[str, int]]:
    env = os.environ if env is None else env
    out = []
    for item in env.get("PADDLE_TRAINER_ENDPOINTS", "").split(","):
        host, _, port = item.strip().rpartition(":")
        if host and port.isdigit():
            out.append((host, int(port)))
    return out


class Mesh:
    """The heartbeat thread of this rank and its view of every peer."""

    def __init__(self, me: RankInfo, peers: list[tuple[str, int]], on_tick: Callable[[Mesh], None],
                 tick: float = TICK_S, key: bytes | None = None, stats_dir: Path | None = None,
                 run_id: str | None = None):
        """``key``: the job's secret (``seal``, ``keys.job_key``; a fresh one, shared with nobody,
        when None); ``stats_dir``: where the drop counters go (``paddle_doctor_channel.<rank>.json``)."""
        self.me = me
        self.tick = tick
        self.on_tick = on_tick
        self.key = key or seal.new_key()
        self.run_id = keys.channel_id() if run_id is None else run_id
        stats_path = None if stats_dir is None else str(stats_dir / channel_name(me.label))
        self.stats = seal.Stats(f"rank {me.label}", stats_path)
        self.sealer = seal.Sealer(self.key, self.run_id, f"r{me.rank}")
        self.opener = seal.Opener(self.key, self.run_id, self.stats)
        self.changed = threading.Condition()
        self.layout = nodes.layout(peers)
        known = me.rank is not None and me.rank < len(peers)
        self.node = self.layout.node_of[me.rank] if known else 0
        here = peers[me.rank][0] if known else None
        self.peers = {r: Peer(r, addr, node=self.layout.node_of[r], remote=self.layout.node_of[r] != self.node,
                              same_host=addr[0] == here) for r, addr in enumerate(peers) if r != me.rank}
        self.remote_news: set[int] = set()  # remote ranks the watcher said something of
        home = self.layout.watcher_addrs[self.node] if known else None
        self.watcher_addr = home if home and home[1] else None  # port 0: nobody could find it (unit tests)
        self.leads = self.watcher_addr is not None and self.layout.leader(self.node) == me.rank  # it starts it
        self.digest_seen: float | None = None  # monotonic: the watcher's last digest of the node's ranks
        self.side_direct = False  # the sidecar beats to the node's peers too (the relay failed this rank)
        host = peers[me.rank][0] if known else "0.0.0.0"
        self._sock = _bind(host, peers[me.rank][1] if known and not self.leads else 0)
        self.host, self.port = self._sock.getsockname()[:2]
        self._static = {"v": 1, "r": me.rank, "p": self.port,
                        "pid": os.getpid(), "st": (procinfo.process_state(os.getpid()) or ("", 0))[1],
                        "hk": procinfo.host_key()}
        self._ended = False
        self.loss = _loss()
        self.sidecar: subprocess.Popen | None = None
        self.watcher: subprocess.Popen | None = None
        self.started = time.monotonic()  # a peer never heard from is silent since then
        self._thread = threading.Thread(target=self._run, name="paddle-doctor-heartbeat", daemon=True)

    @property
    def start_time(self) -> int:
        return self._static["st"]

    @property
    def ending(self) -> bool:
        return self._ended

    def start(self) -> Mesh:
        """Beat once from the caller (so a rank that freezes right after has said who it is: its
        pid lets same-host peers see it stopped or gone), start the sidecar that beats for this
        process from outside it, then keep beating from a thread."""
        self.started = time.monotonic()
        if self.leads:
            self.watcher = link.start_watcher(self, self.loss)
        self._send_all(self.payload(), everyone=True)
        self.sidecar = sidecar.start(self)
        self._thread.start()
        return self

    # -- sending ------------------------------------------------------------------------------

    def payload(self, kind: str = "b", end: dict | None = None) -> dict:
        msg = dict(self._static, k=kind, t=time.time(), ph=_text(STATE.phase()), sp=_jsonable(STATE.current_step()))
        cur = STATE.current
        msg["c"] = cur.fingerprint() if cur is not None else None
        if cur is not None and cur.members:
            msg["mb"] = list(cur.members)  # its node's watcher waits for these ranks' fingerprints
        if cur is None and STATE.last is not None:
            msg["l"] = STATE.last.fingerprint(history=False)
        if end is not None:
            msg["end"] = end
        via_watcher = [p.rank for p in self.local_peers() if p.addr == self.watcher_addr]
        if via_watcher:
            msg["fw"] = via_watcher  # the watcher passes this beat on to them (and only then)
        if self.watcher_addr is not None and not link.relayed(self, time.monotonic()):
            msg["dr"] = True  # no digest reaches this rank: its node's peers beat to it directly
        return msg

    def send_now(self) -> None:
        """Beat at once, to every peer of the node (the main thread, entering a checked collective;
        an ending rank): the relay would add up to a tick."""
        self._send_all(self.payload(), everyone=True)

    def probe_remote(self) -> None:
        """This rank is ending anyway (SIGTERM, an exception): one datagram to the port of every
        remote rank its watcher said nothing of. Something listens there while that rank, or its
        node's watcher, lives; the kernel's "port unreachable" answer means neither does (it died
        before it started either). Only on the way out: O(W) once, never per beat."""
        quiet = [p for p in self.peers.values() if p.remote and p.rank not in self.remote_news]
        self._send_to(quiet, self.sealer.seal({"k": "p"}))

    def send_end(self, end: dict) -> None:
        """Tell every peer that this rank is ending, and why (``{"ok", "err", "finding", ...}``)."""
        if self._ended:
            return
        self._ended = True
        msg = self.payload("e", end)
        for _ in range(END_REPEAT):
            self._send_all(msg, everyone=True)  # sealed each time: a repeat is not a replay
        self._stop_sidecar()
        self.stats.flush(force=True)  # the drop counters, readable after the job  # this rank ends on purpose: no "gone" from its sidecar after its word

    def local_peers(self) -> list[Peer]:
        return [p for p in self.peers.values() if not p.remote]

    def watched(self) -> list[Peer]:
        """The peers the verdict looks at: this node's, and remote ones the watcher named (or
        whose port refused this ending rank's probe)."""
        return [p for p in self.peers.values() if not p.remote or p.rank in self.remote_news or p.refused]

    def _send_all(self, msg: dict, everyone: bool = False) -> None:
        """To the node's watcher, and to the local peers ``link.direct_peers`` names."""
        data = self.sealer.seal(msg)
        if self.watcher_addr is not None and not (self.loss and random.random() < self.loss):
            try:
                self._sock.sendto(data, self.watcher_addr)
            except OSError:
                pass
        self._send_to(link.direct_peers(self, time.monotonic(), everyone), data)

    def _send_to(self, peers: list[Peer], data: bytes) -> None:
        """(A local peer at its watcher's address is the node's lowest rank before its first beat:
        the watcher passes ours on.)"""
        for peer in peers:
            if self.loss and random.random() < self.loss:
                continue  # injected loss (tests, the simulator): as if the network dropped it
            try:
                if peer.sock is None:
                    peer.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                    peer.sock.connect(peer.addr)
                peer.sock.send(data)
            except ConnectionRefusedError:
                # The ICMP answer to an earlier beat: nothing listens there. Before we ever heard
                # from the peer this may only mean it has not bound its socket yet (the watchdog
                # decides what it means).
                peer.refused += 1
            except OSError:
                pass

    # -- receiving ----------------------------------------------------------------------------

    def _run(self) -> None:
        """The heartbeat loop. It cannot die: an exception anywhere in one turn is counted and
        said once, and the next turn goes on (the watchdog keeps judging)."""
        self._next_beat = self._next_probe = 0.0
        while not self._ended:
            try:
                self._turn()
            except Exception as exc:  # noqa: BLE001 (the guard thread must outlive any bug of ours)
                self.stats.loop_error("its heartbeat loop", exc)
                time.sleep(min(self.tick, PROBE_S))

    def _turn(self) -> None:
        now = time.monotonic()
        if now >= self._next_beat:
            self._next_beat = now + self.tick
            self._send_all(self.payload())
        if now >= self._next_probe:
            # Same-host peers are checked in /proc more often than we beat: a dead rank
            # must be named before the launcher's 1 s poll SIGTERMs everyone.
            self._next_probe = now + PROBE_S
            self._drain()
            self._probe_local()
            link.check_relay(self, now)
            self.on_tick(self)
            self.stats.note_drops()
        wait = max(0.0, min(self._next_beat, self._next_probe) - time.monotonic())
        ready, _, _ = select.select([self._sock], [], [], wait)
        if ready:
            self._drain()

    def _drain(self) -> None:
        for _ in range(DRAIN_MAX):
            try:
                data, src = self._sock.recvfrom(RECV_BYTES)
            except OSError:  # nothing more (BlockingIOError), or the socket closed
                break
            try:
                self._receive(data, src)
            except Exception as exc:  # noqa: BLE001 (one datagram must never stop the others being read)
                self.stats.drop("invalid", src)
                self.stats.loop_error("handling a datagram", exc)
        with self.changed:
            self.changed.notify_all()

    def _receive(self, data: bytes, src: tuple[str, int]) -> None:
        """Authenticated (``seal``), then checked (``schema``), then used; anything else is dropped
        and counted."""
        opened = self.opener.open(data, src, self._acceptable)
        if opened is None:
            return
        sid, msg = opened
        role, ident = schema.sender(sid)
        now = time.monotonic()
        if role == "w":
            link.from_watcher(self, msg, now)
            return
        peer = self.peers.get(ident)
        if peer is None or peer.remote or msg.get("k") == "p":
            return
        if role == "s":
            self._receive_sidecar(peer, msg, now)
            return
        peer.first_seen = peer.first_seen or now
        peer.last_seen, peer.refused = now, 0
        if msg.get("dr"):
            peer.direct_until = now + link.RELAY_QUIET_S  # it hears no digest: beat to it directly
        if msg.get("k") != "e":  # an end message is sent while unwinding: keep what it was doing
            peer.info = msg
        addr = (src[0], int(msg.get("p") or src[1]))
        if addr != peer.addr:
            peer.addr, peer.sock = addr, None  # it listens elsewhere: reconnect
        for fp in (msg.get("c"), msg.get("l")):
            if fp:
                link.remember(peer, fp)
        if msg.get("k") == "e" and peer.end is None:
            peer.end = msg.get("end") or {}
            peer.end_seen = now

    def _acceptable(self, sid: str, msg: dict) -> bool:
        """Its shape, its finding, and a watcher's word only from this node's watcher."""
        return schema.valid(sid, msg) and _findings_ok(msg) and (sid[0] != "w" or sid == f"w{self.node}")

    def _receive_sidecar(self, peer: Peer, msg: dict, now: float) -> None:
        """What the kernel says of the peer's process, from its sidecar."""
        peer.side, peer.side_seen = msg, now
        if msg.get("ps") == "gone":
            if not peer.gone and not peer.local:  # same-host peers are read in /proc directly
                self._drain()  # its own "end" message, sent before it exited, comes first
                peer.gone = True
            return
        if not peer.local:
            peer.note_state(msg.get("ps"), now)

    def _probe_local(self) -> None:
        vanished = []
        now = time.monotonic()
        for peer in self.local_peers():
            pid = peer.pid
            start = peer.info.get("st") or peer.side.get("st")
            if not pid or not peer.local:
                if peer.refused >= REFUSALS_FOR_DEAD and peer.first_seen is not None and not peer.gone:
                    vanished.append(peer)
                continue
            state = state_of(procinfo.process_state(int(pid)), start)
            if state == "gone":
                peer.proc_state = None
                if not peer.gone:
                    vanished.append(peer)
            else:
                peer.proc_state = state
                peer.note_state(state, now)
        if vanished:
            # A rank that ends on purpose sends its "end" message just before it exits: read what
            # arrived since the last drain before calling it gone, so that a peer's watchdog exit
            # (which names the culprit) is never taken for a death without a word.
            self._drain()
            for peer in vanished:
                peer.gone = True

    def stop(self) -> None:
        self._ended = True
        self._stop_sidecar()

    def _stop_sidecar(self) -> None:
        if self._static["pid"] == os.getpid():  # not in a forked child (DataLoader worker): it is its rank's
            self.sidecar = sidecar.stop(self.sidecar)


def _loss() -> float:
    try:
        return min(max(float(os.environ.get(BEAT_LOSS_ENV, "0") or 0), 0.0), 1.0)
    except ValueError:
        return 0.0


def _bind(host: str, port: int) -> socket.socket:
    """A socket on this rank's own address (its endpoint's host), not on every interface; on
    another port if that one is taken (peers learn it from our beats), and on every interface
    only if the endpoint's host is not an address of this machine."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for addr in ((host, port), (host, 0), ("0.0.0.0", port), ("0.0.0.0", 0)):
        try:
            sock.bind(addr)
            break
        except (OSError, UnicodeError):
            continue
    sock.setblocking(False)
    return sock


def _findings_ok(msg: dict) -> bool:
    """A finding carried in an "end" (from the rank, or passed on by its watcher) reads back."""
    end = msg.get("end") if msg.get("k") == "e" else (msg.get("v") or {}).get("end") if msg.get("k") == "v" else None
    finding = (end or {}).get("finding")
    if not finding:
        return True
    try:
        Finding.from_dict(finding)
    except Exception:  # noqa: BLE001 (whatever from_dict raises, the message is not used)
        return False
    return True


def _text(value) -> str | None:
    return None if value is None else str(value)[:200]


def _jsonable(value):
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return str(value)[:80]
