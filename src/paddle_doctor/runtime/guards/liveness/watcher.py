"""A node's watcher: the one process per node of a multi-node job that watches the other nodes.

Why a process of its own: the ranks of a node beat to each other (a handful, whatever the world
size) and read each other's /proc, but no rank beats to a rank on another node. Instead each
node's watcher (started by the node's lowest rank, see ``nodes.py``) hears its local ranks' beats
and their "end" messages, reads their /proc, and runs ``swim.Detector`` with the other nodes'
watchers: one probe per period, indirect probes through 3 others, suspicion before death, and
verdicts and news spread by gossip piggybacked on the probes. So a rank sends O(ranks per node)
datagrams per beat and a watcher O(1) per period, at any W. Being outside the ranks, it never
waits on their GIL.

What it passes on to its local ranks (``{"k": "v", "v": body}``, sent a few times: UDP may drop
one): every verdict (a remote rank gone or stopped, with what it was doing; a node dead, with its
evidence) and every remote rank's "end" message. Fingerprints (``{"k": "F"}``): once every local
member of a collective has beaten its fingerprint (or ended), the node's digest (the distinct
fingerprints, each with its ranks) is gossiped; once the digests of every node with members are
in, the local members get them all in one datagram, so that check mode compares across nodes
with two datagrams per rank per collective.

The relay (every node with two ranks or more, a one-node job included): a rank beats to its
node's watcher only, and its sidecar too; every rank tick the watcher sends each local rank one
datagram (``{"k": "L"}``) with what it last heard of the node's other ranks (their beat: pid, port,
phase, step, collective fingerprints; their sidecar's word; how old each is). So a rank sends one
beat and reads one digest per tick whatever the number of ranks on its node, instead of one per
peer. A rank that hears no digest for a second beats its node's peers directly again
(``link.py``): a dead or starved watcher costs datagrams, never a verdict.

``NodeWatcher`` takes its transport, clock and /proc reader as arguments (the simulator and the
unit tests drive it in-process); ``main`` runs it on UDP: ``python -I -S watcher.py`` with its
configuration and the job's key as JSON on stdin. Every datagram is sealed and opened as the
ranks' are (``seal.py``: HMAC first, then parsing, run id, sequence; then ``schema.py``); what
fails is dropped and counted in ``paddle_doctor_channel.w<node>.json``, and the loop cannot die.
Standard library only, and nothing of the package but its siblings: it must start fast.
"""

from __future__ import annotations

import json
import os
import random
import select
import socket
import sys
import time

if __package__:
    from paddle_doctor.runtime.guards.liveness import schema
    from paddle_doctor.runtime.guards.liveness.seal import Opener, Sealer, Stats
    from paddle_doctor.runtime.guards.liveness.sidecar import read_config, read_stat, state_of
    from paddle_doctor.runtime.guards.liveness.swim import DEAD, Config, Detector
else:  # run as a file (``python -I -S watcher.py``): swim.py is beside it, the package is not imported
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import schema  # noqa: E402
    from seal import Opener, Sealer, Stats  # noqa: E402
    from sidecar import read_config, read_stat, state_of  # noqa: E402
    from swim import DEAD, Config, Detector  # noqa: E402

TICK_S = 0.05
DRAIN_MAX = 512
FORWARD_REPEAT = 3
FP_KEYS_KEPT = 64
LINGER_S = 3.0  # after its last local rank is gone: time for the verdicts and ends to spread
LINGER_ALONE_S = 0.3  # the same, for the only node of a job: nobody else to tell
RELAY_CHUNK = 32  # ranks per relay datagram (a node of more ranks gets several: still O(1) per tick)
UNHEARD_S = 30.0  # a local rank never heard from this long after the others ended: it never comes
IDLE_EXIT_S = 120.0  # no local rank ever heard: nothing to watch


class NodeWatcher:
    def __init__(self, node: int, node_of: list[int], send_watcher, send_rank, clock, read_state,
                 cfg: Config | None = None, seed: int | None = None, on_verdict=None,
                 relay_s: float | None = None):
        """``relay_s``: how often each local rank gets the digest of the others (None: never)."""
        self.node = node
        self.relay_s = relay_s
        self._next_relay = 0.0
        self.node_of = node_of
        self.local = [r for r, n in enumerate(node_of) if n == node]
        self.send_rank = send_rank
        self.read_state = read_state  # (pid, start) -> state letter or "gone"
        self.clock = clock
        self.ranks: dict[int, dict] = {}  # local rank -> {"pid", "st", "info", "ended", "beat", "side", ...}
        self.fps: dict[tuple, dict] = {}  # (g, s) -> {rank: fingerprint} of local ranks
        self.digests: dict[tuple, dict] = {}  # (g, s) -> {node: digest}
        self.members: dict[tuple, list | None] = {}
        self.sent_fp: set = set()
        self.on_verdict = on_verdict  # also told of every verdict (the simulator scores them)
        self.detector = Detector(node, sorted(set(node_of)), send_watcher, clock, cfg or Config(),
                                 random.Random(seed), on_verdict=self._forward, on_news=self._news,
                                 rank_info=self._doing)

    # -- from local ranks ------------------------------------------------------------------------

    def from_rank(self, msg: dict) -> None:
        rank = msg.get("r")
        if rank not in self.local:
            return
        seen = self.ranks.setdefault(rank, {"info": {}, "ended": False})
        if msg.get("pid"):
            seen["pid"], seen["st"] = msg["pid"], msg.get("st")
        if msg.get("k") == "b":
            seen["info"] = {k: msg.get(k) for k in ("ph", "sp", "c", "l") if msg.get(k) is not None}
            seen["beat"], seen["beat_at"] = _kept(msg, RELAYED_BEAT), self.clock()
            if msg.get("c"):
                self._note_fp(rank, msg["c"], msg.get("mb"))
        elif msg.get("k") == "s" and msg.get("ps"):  # its sidecar's word (not the starter's pid note)
            seen["side"], seen["side_at"] = _kept(msg, RELAYED_SIDE), self.clock()
        elif msg.get("k") == "e" and not seen["ended"]:
            seen["ended"] = True
            self.detector.publish({"k": "e", "r": rank, "gen": seen.get("st") or 0, "end": msg.get("end") or {}})
            self._check_digests()

    def _doing(self, rank: int) -> dict:
        return dict(self.ranks.get(rank, {}).get("info") or {})

    # -- the timer -------------------------------------------------------------------------------

    def tick(self) -> None:
        states = {}
        for rank, seen in self.ranks.items():
            if seen.get("pid") and not seen["ended"]:
                states[rank] = (self.read_state(seen["pid"], seen.get("st")), seen.get("st") or 0)
        if states:
            self.detector.observe_local(states)
        self.detector.tick()
        self._relay()

    def _relay(self) -> None:
        """Every ``relay_s``: each live local rank gets what the watcher last heard of the node's
        other ranks, in one datagram (``RELAY_CHUNK`` ranks each)."""
        now = self.clock()
        if self.relay_s is None or now < self._next_relay:
            return
        self._next_relay = now + self.relay_s
        entries = {rank: self._entry(rank, seen, now) for rank, seen in self.ranks.items()
                   if seen.get("beat") or seen.get("side")}
        for rank, seen in self.ranks.items():
            gone = self.detector.local.get(rank) is not None and self.detector.local[rank].named
            others = [e for r, e in sorted(entries.items()) if r != rank]
            if seen["ended"] or gone or not others:
                continue
            for at in range(0, len(others), RELAY_CHUNK):
                self.send_rank(rank, {"k": "L", "rs": others[at:at + RELAY_CHUNK]})

    @staticmethod
    def _entry(rank: int, seen: dict, now: float) -> dict:
        entry = {"r": rank}
        if seen.get("beat"):
            entry["b"], entry["a"] = seen["beat"], round(max(now - seen["beat_at"], 0.0), 3)
        if seen.get("side"):
            entry["s"], entry["sa"] = seen["side"], round(max(now - seen["side_at"], 0.0), 3)
        return entry

    def finished(self) -> bool:
        """Every local rank it heard of has ended or is gone."""
        return bool(self.ranks) and all(s["ended"] or self.detector.local.get(r) is not None
                                        and self.detector.local[r].named for r, s in self.ranks.items())

    def heard_all(self) -> bool:
        return len(self.ranks) == len(self.local)

    # -- to local ranks ----------------------------------------------------------------------------

    def _forward(self, key: tuple, body: dict) -> None:
        if self.on_verdict is not None:
            self.on_verdict(key, body)
        if body.get("k") == "r" and body.get("r") in self.local:
            return  # the node's own ranks see each other in /proc
        self._to_locals({"k": "v", "v": body}, FORWARD_REPEAT)

    def _news(self, key: tuple, body: dict) -> None:
        if key[0] == "end" and body.get("r") not in self.local:
            self._to_locals({"k": "v", "v": body}, FORWARD_REPEAT)
        elif key[0] == "fp":
            self.digests.setdefault((body["g"], body["s"]), {})[body["n"]] = body
            self._check_digests()

    def _to_locals(self, msg: dict, repeat: int = 1, only=None) -> None:
        for rank in self.local:
            if only is None or rank in only:
                for _ in range(repeat):
                    self.send_rank(rank, msg)

    # -- fingerprints ------------------------------------------------------------------------------

    def _note_fp(self, rank: int, fp: dict, members) -> None:
        key = (fp.get("g"), fp.get("s"))
        if key in self.sent_fp:
            return
        self.fps.setdefault(key, {})[rank] = fp
        self.members[key] = members
        while len(self.fps) > FP_KEYS_KEPT:
            old = next(iter(self.fps))
            self.fps.pop(old)
            self.members.pop(old, None)
        self._check_digests()

    def _member_ranks(self, key: tuple) -> list[int]:
        members = self.members.get(key)
        return list(range(len(self.node_of))) if not members else [int(r) for r in members]

    def _check_digests(self) -> None:
        for key in list(self.fps):
            if key in self.sent_fp:
                continue
            mine = [r for r in self._member_ranks(key) if r in self.local]
            got = self.fps[key]
            if all(r in got or self.ranks.get(r, {}).get("ended") for r in mine):
                self.sent_fp.add(key)
                self.detector.publish({"k": "f", "n": self.node, "g": key[0], "s": key[1],
                                       "sets": _distinct(got), "mb": self.members.get(key)})
        for key, by_node in list(self.digests.items()):
            members = self._member_ranks(key) if key in self.members else [
                int(r) for r in (next(iter(by_node.values())).get("mb") or range(len(self.node_of)))]
            nodes = {self.node_of[r] for r in members if r < len(self.node_of)}
            live = {n for n in nodes if n == self.node or self.detector.views[n].state != DEAD}
            if live <= set(by_node):
                sets = [s for d in by_node.values() for s in d["sets"]]
                if nodes - {self.node}:  # the local ranks' own fingerprints reach them in the relay
                    self._to_locals({"k": "F", "g": key[0], "s": key[1], "sets": sets}, 2,
                                    only=set(members))
                del self.digests[key]


RELAYED_BEAT = ("p", "pid", "st", "hk", "ph", "sp", "c", "l")  # what a peer reads of a beat (schema.RELAYED)
RELAYED_SIDE = ("pid", "st", "hk", "ps", "cpu")


def _kept(msg: dict, keys: tuple) -> dict:
    return {k: msg[k] for k in keys if msg.get(k) is not None}


def _distinct(fps: dict[int, dict]) -> list:
    """[[ranks, fingerprint], ...]: ranks with the same fingerprint share one entry."""
    out: dict[str, list] = {}
    for rank, fp in sorted(fps.items()):
        out.setdefault(json.dumps(fp, sort_keys=True), [[], fp])[0].append(rank)
    return list(out.values())


# -- the process ----------------------------------------------------------------------------------


def read_state(pid: int, start) -> str:
    return state_of(read_stat(pid), start)


class Udp:
    """The watcher's socket: watchers by node id, local ranks by the port their beats name."""

    def __init__(self, cfg: dict, key: bytes):
        self.cfg = cfg
        self.node = cfg["node"]
        self.loss = float(cfg.get("loss") or 0.0)
        self.watchers = [tuple(a) for a in cfg["watchers"]]
        self.rank_addrs: dict[int, tuple] = {int(r): tuple(a) for r, a in (cfg.get("ranks") or {}).items()}
        self.stats = Stats(f"watcher of node {self.node}", cfg.get("stats"))
        self.sealer = Sealer(key, cfg.get("rid", ""), f"w{self.node}")
        self.opener = Opener(key, cfg.get("rid", ""), self.stats)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        host, port = self.watchers[self.node]
        try:
            self.sock.bind((host, port))  # the node's own address, not every interface
        except OSError:
            self.sock.bind(("0.0.0.0", port))
        self.sock.setblocking(False)

    def send(self, addr, msg: dict) -> None:
        if self.loss and random.random() < self.loss:
            return
        try:
            self.sock.sendto(self.sealer.seal(msg), addr)
        except OSError:
            pass

    def send_watcher(self, node: int, msg: dict) -> None:
        self.send(self.watchers[node], msg)

    def send_rank(self, rank: int, msg: dict) -> None:
        if rank in self.rank_addrs:
            self.send(self.rank_addrs[rank], msg)

    def drain(self, watcher: NodeWatcher) -> None:
        for _ in range(DRAIN_MAX):  # a flood must not keep the timers from running
            try:
                data, src = self.sock.recvfrom(65536)
            except OSError:
                return
            try:
                self._receive(watcher, data, src)
            except Exception as exc:  # noqa: BLE001 (one datagram must never stop the watcher)
                self.stats.drop("invalid", src)
                self.stats.loop_error("handling a datagram", exc)

    def _receive(self, watcher: NodeWatcher, data: bytes, src) -> None:
        opened = self.opener.open(data, src, _acceptable)
        if opened is None:
            return
        sid, msg = opened
        if sid[0] == "w":
            watcher.detector.receive(msg)
        elif msg.get("k") != "p":
            self._from_rank(watcher, msg, data, src)

    def _from_rank(self, watcher: NodeWatcher, msg: dict, data: bytes, src) -> None:
        rank = msg.get("r")
        if msg.get("p"):
            self.rank_addrs[rank] = (src[0], int(msg["p"]))
        leader = self.cfg.get("leader")
        if leader in (msg.get("fw") or ()) and leader in self.rank_addrs:
            try:  # this socket has the port its node's lowest rank would have had: pass its beats on
                self.sock.sendto(data, self.rank_addrs[leader])
            except OSError:
                pass
        watcher.from_rank(msg)


def _acceptable(sid: str, msg: dict) -> bool:
    """From a watcher only its SWIM messages; from ranks and sidecars their beats, ends, probes."""
    return schema.valid(sid, msg) and (sid[0] != "w" or "t" in msg)


def main(cfg: dict) -> None:
    udp = Udp(cfg, bytes.fromhex(cfg.pop("key")))
    try:
        _watch(cfg, udp)
    finally:
        udp.stats.flush(force=True)  # the drop counters, readable after the job


def _watch(cfg: dict, udp: Udp) -> None:
    det = cfg.get("swim") or {}
    watcher = NodeWatcher(cfg["node"], cfg["node_of"], udp.send_watcher, udp.send_rank, time.monotonic,
                          read_state, Config(**det), relay_s=cfg.get("relay"))
    alone = len(set(cfg["node_of"])) == 1  # the only node of its job: no news to spread
    for rank, (pid, start) in (cfg.get("pids") or {}).items():
        watcher.from_rank({"k": "s", "r": int(rank), "pid": pid, "st": start})
    started = time.monotonic()
    finished_at = None
    next_tick = 0.0
    while True:
        try:
            ready, _, _ = select.select([udp.sock], [], [], max(0.0, next_tick - time.monotonic()))
            if ready:
                udp.drain(watcher)
            now = time.monotonic()
            if now < next_tick:
                continue  # the timers run every TICK_S, however many datagrams arrive
            next_tick = now + TICK_S
            watcher.tick()
            udp.stats.note_drops()
        except Exception as exc:  # noqa: BLE001 (the watcher must outlive any bug of ours)
            udp.stats.loop_error("its loop", exc)
            time.sleep(TICK_S)
            continue
        if watcher.finished():  # linger while the news spreads; longer if a local rank never beat
            finished_at = finished_at or now
            linger = LINGER_ALONE_S if alone else LINGER_S if watcher.heard_all() else UNHEARD_S
            if now - finished_at >= linger:
                return
        else:
            finished_at = None
        if not watcher.ranks and now - started > IDLE_EXIT_S:
            return


if __name__ == "__main__":
    try:
        main(read_config(sys.stdin.buffer))
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # a broken watcher must not print a traceback into the rank's log
        os.write(2, f"[paddle-doctor] node watcher stopped: {type(exc).__name__}: {exc}\n".encode())
