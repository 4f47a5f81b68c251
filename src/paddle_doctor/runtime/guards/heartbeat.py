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

Whose beats: a rank beats to the ranks of its own node only (a handful at any W). In a job of
several nodes (``liveness/nodes.py``) it also beats to its node's watcher (``liveness/watcher.py``),
which watches the other nodes SWIM-style and passes their verdicts, "end" messages and collective
fingerprints on (``liveness/link.py``): the datagrams a rank sends and reads do not grow with W.

Nothing here imports paddle.
"""

from __future__ import annotations

import json
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from paddle_doctor.contract import BEAT_LOSS_ENV, SIDECAR_ENV
from paddle_doctor.runtime.guards import procinfo
from paddle_doctor.runtime.guards.guardstate import STATE
from paddle_doctor.runtime.guards.liveness import link, nodes
from paddle_doctor.runtime.guards.liveness.sidecar import state_of
from paddle_doctor.runtime.channel.rankenv import RankInfo

TICK_S = 0.25  # between beats (scaled up with the world size by the watchdog)
PROBE_S = 0.1  # between checks of same-host peers' processes and judgements
END_REPEAT = 3  # an "end" message is sent this many times: UDP may drop one
REFUSALS_FOR_DEAD = 2


@dataclass
class Peer:
    rank: int
    addr: tuple[str, int]
    sock: socket.socket | None = None
    first_seen: float | None = None  # monotonic
    last_seen: float | None = None
    info: dict = field(default_factory=dict)  # the last beat
    end: dict | None = None  # what it said when ending
    end_seen: float = 0.0  # monotonic time its end message arrived
    refused: int = 0  # "port unreachable" answers in a row (before its first beat too)
    gone: bool = False  # its process no longer exists
    proc_state: str | None = None  # /proc state letter, same-host peers only
    fps: dict = field(default_factory=dict)  # (group, seq) -> fingerprint
    side: dict = field(default_factory=dict)  # the last beat of its sidecar (its process as the kernel sees it)
    side_seen: float | None = None  # monotonic
    stopped_since: float | None = None  # first seen in state T (its /proc or its sidecar), None once it runs
    node: int = 0
    remote: bool = False  # on another node: known only through the node watchers' verdicts
    node_down: dict | None = None  # its node was declared dead, with the evidence
    remote_how: str | None = None  # a remote verdict's evidence

    def silence(self, now: float) -> float | None:
        return None if self.last_seen is None else now - self.last_seen

    @property
    def pid(self) -> int | None:
        return self.info.get("pid") or self.side.get("pid")

    @property
    def local(self) -> bool:
        hk = self.info.get("hk") or self.side.get("hk")
        return bool(hk) and hk == procinfo.host_key()

    def runs(self, now: float, within: float) -> bool:
        """Its process is seen running (busy or waiting, not stopped) by /proc or, within
        ``within`` seconds, by its sidecar: alive whatever its own beat thread does."""
        if self.gone:
            return False
        if self.local and self.proc_state is not None:
            return self.proc_state not in ("T", "t")
        fresh = self.side_seen is not None and now - self.side_seen < within
        return fresh and self.side.get("ps") not in (None, "T", "t", "gone")

    def note_state(self, state: str | None, now: float) -> None:
        if state in ("T", "t"):
            self.stopped_since = self.stopped_since or now
        elif state is not None:
            self.stopped_since = None


def job_token(env=None) -> str:
    """Equal on every rank of one job, so that a stray beat from another job is ignored."""
    env = os.environ if env is None else env
    return str(zlib.crc32(f"{env.get('PADDLE_MASTER', '')}|{env.get('PADDLE_TRAINER_ENDPOINTS', '')}".encode()))


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
                 tick: float = TICK_S):
        self.me = me
        self.tick = tick
        self.on_tick = on_tick
        self.token = job_token()
        self.changed = threading.Condition()
        self.layout = nodes.layout(peers)
        known = me.rank is not None and me.rank < len(peers)
        self.node = self.layout.node_of[me.rank] if known else 0
        self.peers = {r: Peer(r, addr, node=self.layout.node_of[r], remote=self.layout.node_of[r] != self.node)
                      for r, addr in enumerate(peers) if r != me.rank}
        self.remote_news: set[int] = set()  # remote ranks the watcher said something of
        multi = known and self.layout.nodes > 1
        self.watcher_addr = self.layout.watcher_addrs[self.node] if multi else None
        self.leads = multi and self.layout.leader(self.node) == me.rank  # it starts the node's watcher
        self._sock = _bind(peers[me.rank][1] if known and not self.leads else 0)
        self.port = self._sock.getsockname()[1]
        self._static = {"v": 1, "r": me.rank, "j": self.token, "p": self.port,
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

    def start(self) -> Mesh:
        """Beat once from the caller (so a rank that freezes right after has said who it is: its
        pid lets same-host peers see it stopped or gone), start the sidecar that beats for this
        process from outside it, then keep beating from a thread."""
        self.started = time.monotonic()
        if self.leads:
            self.watcher = link.start_watcher(self, self.loss)
        self._send_all(self.payload())
        self.sidecar = start_sidecar(self)
        self._thread.start()
        return self

    # -- sending ------------------------------------------------------------------------------

    def payload(self, kind: str = "b", end: dict | None = None) -> bytes:
        msg = dict(self._static, k=kind, t=time.time(), ph=STATE.phase(), sp=_jsonable(STATE.current_step()))
        cur = STATE.current
        msg["c"] = cur.fingerprint() if cur is not None else None
        if cur is not None and cur.members:
            msg["mb"] = list(cur.members)  # its node's watcher waits for these ranks' fingerprints
        if cur is None and STATE.last is not None:
            msg["l"] = STATE.last.fingerprint(history=False)
        if end is not None:
            msg["end"] = end
        return json.dumps(msg, separators=(",", ":"), default=str).encode()

    def send_now(self) -> None:
        """Beat at once (the main thread, entering a checked collective)."""
        self._send_all(self.payload())

    def probe_remote(self) -> None:
        """This rank is ending anyway (SIGTERM, an exception): one datagram to the port of every
        remote rank its watcher said nothing of. Something listens there while that rank, or its
        node's watcher, lives; the kernel's "port unreachable" answer means neither does (it died
        before it started either). Only on the way out: O(W) once, never per beat."""
        quiet = [p for p in self.peers.values() if p.remote and p.rank not in self.remote_news]
        self._send_to(quiet, b'{"k":"p"}')

    def send_end(self, end: dict) -> None:
        """Tell every peer that this rank is ending, and why (``{"ok", "err", "finding", ...}``)."""
        if self._ended:
            return
        self._ended = True
        data = self.payload("e", end)
        for _ in range(END_REPEAT):
            self._send_all(data)
        self._stop_sidecar()  # this rank ends on purpose: no "gone" from its sidecar after its word

    def local_peers(self) -> list[Peer]:
        return [p for p in self.peers.values() if not p.remote]

    def watched(self) -> list[Peer]:
        """The peers the verdict looks at: this node's, and remote ones the watcher named (or
        whose port refused this ending rank's probe)."""
        return [p for p in self.peers.values() if not p.remote or p.rank in self.remote_news or p.refused]

    def _send_all(self, data: bytes) -> None:
        if self.watcher_addr is not None and not (self.loss and random.random() < self.loss):
            try:
                self._sock.sendto(data, self.watcher_addr)
            except OSError:
                pass
        self._send_to([p for p in self.local_peers() if p.addr != self.watcher_addr], data)

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
        next_beat = next_probe = 0.0
        while not self._ended:
            now = time.monotonic()
            try:
                if now >= next_beat:
                    next_beat = now + self.tick
                    self._send_all(self.payload())
                if now >= next_probe:
                    # Same-host peers are checked in /proc more often than we beat: a dead rank
                    # must be named before the launcher's 1 s poll SIGTERMs everyone.
                    next_probe = now + PROBE_S
                    self._drain()
                    self._probe_local()
                    self.on_tick(self)
            except Exception:  # the guard thread must outlive any bug of ours
                pass
            wait = max(0.0, min(next_beat, next_probe) - time.monotonic())
            ready, _, _ = select.select([self._sock], [], [], wait)
            if ready:
                self._drain()

    def _drain(self) -> None:
        while True:
            try:
                data, src = self._sock.recvfrom(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                break
            self._receive(data, src)
        with self.changed:
            self.changed.notify_all()

    def _receive(self, data: bytes, src: tuple[str, int]) -> None:
        try:
            msg = json.loads(data)
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("j") != self.token:
            return
        now = time.monotonic()
        if msg.get("k") in ("v", "F"):
            link.from_watcher(self, msg, now)
            return
        peer = self.peers.get(msg.get("r"))
        if peer is None or peer.remote:
            return
        if msg.get("k") == "s":
            self._receive_sidecar(peer, msg, now)
            return
        peer.first_seen = peer.first_seen or now
        peer.last_seen, peer.refused = now, 0
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
        if self._static["pid"] != os.getpid():
            return  # a forked child (DataLoader worker): the sidecar is its rank's
        side, self.sidecar = self.sidecar, None
        if side is not None:
            try:
                side.kill()
                side.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):
                pass


SIDECAR_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "liveness", "sidecar.py")


def start_sidecar(mesh: Mesh) -> subprocess.Popen | None:
    """The sidecar process that beats for this rank from outside it (``PADDLE_DOCTOR_SIDECAR=0``:
    none, and a rank whose beat thread is starved looks frozen again)."""
    if os.environ.get(SIDECAR_ENV) == "0" or not os.path.exists(f"/proc/{os.getpid()}/stat"):
        return None
    cfg = {"r": mesh.me.rank, "j": mesh.token, "pid": os.getpid(), "st": mesh._static["st"],
           "hk": mesh._static["hk"], "tick": mesh.tick, "loss": mesh.loss,
           "to": [list(p.addr) for p in mesh.local_peers() if p.addr != mesh.watcher_addr]
           + ([list(mesh.watcher_addr)] if mesh.watcher_addr else [])}
    try:
        return subprocess.Popen([sys.executable, "-I", "-S", SIDECAR_SCRIPT, json.dumps(cfg)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, close_fds=True)
    except OSError:
        return None


def _loss() -> float:
    try:
        return min(max(float(os.environ.get(BEAT_LOSS_ENV, "0") or 0), 0.0), 1.0)
    except ValueError:
        return 0.0


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.bind(("0.0.0.0", port))
    except OSError:
        sock.bind(("0.0.0.0", 0))  # peers learn this port from our beats
    sock.setblocking(False)
    return sock


def _jsonable(value):
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return str(value)[:80]
