"""A liveness channel between ranks that does not depend on rank 0: UDP heartbeats, all to all.

Why not the TCP store: its server lives in rank 0's process, so a frozen or dead rank 0 takes
the channel with it, and each round trip costs about 44 ms. Here every rank binds a UDP socket on
the port of its own trainer endpoint (``PADDLE_TRAINER_ENDPOINTS``: the launcher picked free TCP
ports, and UDP ports are a separate space), so peers know where to send without any exchange.
Each beat says what the rank is doing (phase, step, current collective) and carries the port it
listens on, so a rank that had to bind another port is still found.

What a beat can tell:
- a rank that sends nothing for the deadline is stopped or frozen (SIGSTOP freezes every thread);
  a slow rank's beat thread keeps beating, so it is never mistaken for a stuck one;
- a rank whose process is gone is dead: same-host peers are checked in /proc (pid and start time),
  remote ones by the ICMP "port unreachable" that a send to their closed socket brings back;
- a rank that is ending says so first ("end" message: clean exit, or the error and its record).

Nothing here imports paddle.
"""

from __future__ import annotations

import json
import os
import select
import socket
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from paddle_doctor.runtime.guards import procinfo
from paddle_doctor.runtime.guards.guardstate import STATE
from paddle_doctor.runtime.launch.rankenv import RankInfo

TICK_S = 0.25  # between beats (scaled up with the world size by the watchdog)
PROBE_S = 0.1  # between checks of same-host peers' processes and judgements
FP_HISTORY = 16  # fingerprints kept per peer, by (group, seq)
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

    def silence(self, now: float) -> float | None:
        return None if self.last_seen is None else now - self.last_seen

    @property
    def local(self) -> bool:
        return bool(self.info.get("hk")) and self.info.get("hk") == procinfo.host_key()


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
        self.peers = {r: Peer(r, addr) for r, addr in enumerate(peers) if r != me.rank}
        self._sock = _bind(peers[me.rank][1] if me.rank is not None and me.rank < len(peers) else 0)
        self._static = {"v": 1, "r": me.rank, "j": self.token, "p": self._sock.getsockname()[1],
                        "pid": os.getpid(), "st": (procinfo.process_state(os.getpid()) or ("", 0))[1],
                        "hk": procinfo.host_key()}
        self._ended = False
        self.started = time.monotonic()  # a peer never heard from is silent since then
        self._thread = threading.Thread(target=self._run, name="paddle-doctor-heartbeat", daemon=True)

    def start(self) -> Mesh:
        """Beat once from the caller (so a rank that freezes right after has said who it is: its
        pid lets same-host peers see it stopped or gone), then keep beating from a thread."""
        self.started = time.monotonic()
        self._send_all(self.payload())
        self._thread.start()
        return self

    # -- sending ------------------------------------------------------------------------------

    def payload(self, kind: str = "b", end: dict | None = None) -> bytes:
        msg = dict(self._static, k=kind, t=time.time(), ph=STATE.phase(), sp=_jsonable(STATE.current_step()))
        cur = STATE.current
        msg["c"] = cur.fingerprint() if cur is not None else None
        if cur is None and STATE.last is not None:
            msg["l"] = STATE.last.fingerprint(history=False)
        if end is not None:
            msg["end"] = end
        return json.dumps(msg, separators=(",", ":"), default=str).encode()

    def send_now(self) -> None:
        """Beat at once (the main thread, entering a checked collective)."""
        self._send_all(self.payload())

    def send_end(self, end: dict) -> None:
        """Tell every peer that this rank is ending, and why (``{"ok", "err", "finding", ...}``)."""
        if self._ended:
            return
        self._ended = True
        data = self.payload("e", end)
        for _ in range(END_REPEAT):
            self._send_all(data)

    def _send_all(self, data: bytes) -> None:
        for peer in list(self.peers.values()):
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
        peer = self.peers.get(msg.get("r")) if isinstance(msg, dict) and msg.get("j") == self.token else None
        if peer is None:
            return
        now = time.monotonic()
        peer.first_seen = peer.first_seen or now
        peer.last_seen, peer.refused = now, 0
        if msg.get("k") != "e":  # an end message is sent while unwinding: keep what it was doing
            peer.info = msg
        addr = (src[0], int(msg.get("p") or src[1]))
        if addr != peer.addr:
            peer.addr, peer.sock = addr, None  # it listens elsewhere: reconnect
        for fp in (msg.get("c"), msg.get("l")):
            if fp:
                _remember(peer, fp)
        if msg.get("k") == "e" and peer.end is None:
            peer.end = msg.get("end") or {}
            peer.end_seen = now

    def _probe_local(self) -> None:
        vanished = []
        for peer in self.peers.values():
            pid = peer.info.get("pid")
            if not pid or not peer.local:
                if peer.refused >= REFUSALS_FOR_DEAD and peer.first_seen is not None and not peer.gone:
                    vanished.append(peer)
                continue
            state = procinfo.process_state(int(pid))
            if state is None or state[0] in ("Z", "X") or (peer.info.get("st") and state[1] != peer.info["st"]):
                peer.proc_state = None
                if not peer.gone:
                    vanished.append(peer)
            else:
                peer.proc_state = state[0]
        if vanished:
            # A rank that ends on purpose sends its "end" message just before it exits: read what
            # arrived since the last drain before calling it gone, so that a peer's watchdog exit
            # (which names the culprit) is never taken for a death without a word.
            self._drain()
            for peer in vanished:
                peer.gone = True

    def stop(self) -> None:
        self._ended = True


def _remember(peer: Peer, fp: dict) -> None:
    peer.fps[(fp.get("g"), fp.get("s"))] = fp
    while len(peer.fps) > FP_HISTORY:
        peer.fps.pop(next(iter(peer.fps)))


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
