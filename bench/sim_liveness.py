#!/usr/bin/env python3
"""Simulator: the real node watchers (``runtime/guards/liveness/watcher.NodeWatcher``, around
``swim.Detector``: the classes the guards run under the launcher) of a job of W ranks (8 per
node), in one process, on real UDP over loopback, with injected faults.

Each node's watcher has its own UDP socket; one event loop (``selectors``) serves them all. The
ranks of a node are simulated processes whose state the watcher reads as it would read
``/proc/<pid>/stat`` (``R``/``S`` running, ``T`` stopped, ``gone``), and each rank sends its watcher
one real datagram per ``--rank-beat`` s (pid, start time, phase and step, as a rank's beat to its
watcher; liveness never depends on the beat itself, only on the process state behind the pid). Faults, ``--concurrent`` at a time, each on a node or rank not already faulty:

- positive (must be named by every surviving watcher): ``kill`` (a rank's process gone),
  ``stop`` (a rank SIGSTOPped: state T), ``node`` (a whole node gone or frozen: its watcher stops),
  and, in a separate run of ``--partitions`` trials, ``partition`` (two groups of nodes cut apart:
  each side must name a node of the other);
- negative (must be named by nobody): ``slow`` (a rank in a 60 s step: running), ``starved`` (a
  rank whose own beat thread is starved: running, only its sidecar beats), ``lossy`` (10 % loss on one node's links
  for 12 s); plus background loss on every datagram (``--loss``, default 2 %).

A positive fault is healed once every survivor named it (or after 15 s: a miss); a negative one
after 12 s. Figures: time to name on every survivor (p50, p99), precision (verdicts that name a
faulty rank or node / all verdicts) and recall (faults named by every survivor within 15 s /
positive faults), datagrams per rank per second, CPU of the whole process per rank.

    python bench/sim_liveness.py --world 1024 --faults 200 [--seed 1] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import random
import selectors
import socket
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from paddle_doctor.runtime.guards.liveness.swim import Config  # noqa: E402
from paddle_doctor.runtime.guards.liveness.watcher import NodeWatcher  # noqa: E402

RANKS_PER_NODE = 8
NAME_WITHIN_S = 15.0
NEGATIVE_WINDOW_S = 12.0
POSITIVE = ("kill", "stop", "node")
NEGATIVE = ("slow", "starved", "lossy")
TICK_S = 0.1
PID_BASE = 1000


@dataclass
class Fault:
    kind: str
    target: int  # rank, or node
    key: tuple | None  # the verdict key that names it (positives)
    start: float
    named_by: dict = field(default_factory=dict)  # node -> time
    until: int | None = None  # node faults: the incarnation it restarted with (verdicts below name this life)
    watchers: set = field(default_factory=set)  # nodes up at the start and never restarted since
    done: float | None = None


class Sim:
    def __init__(self, world: int, seed: int, loss: float, rank_beat: float):
        self.rng = random.Random(seed)
        self.nodes = world // RANKS_PER_NODE
        self.world = world
        self.loss = loss
        self.rank_beat = rank_beat
        self.sel = selectors.DefaultSelector()
        self.socks, self.addrs = [], []
        for node in range(self.nodes):
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", 0))
            s.setblocking(False)
            self.socks.append(s)
            self.addrs.append(s.getsockname())
            self.sel.register(s, selectors.EVENT_READ, node)
        self.rank_sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.ranks = {r: ["S", 0, True] for r in range(world)}  # state, generation, beats
        self.down = set()  # nodes whose watcher is gone
        self.lossy: set[int] = set()
        self.side: dict[int, int] | None = None  # partition: node -> side
        self.sent = 0
        self.late: list[float] = []  # how late each tick ran: this process's own CPU starvation
        self.faults: list[Fault] = []
        self.false: dict[tuple, dict] = {}
        self.incs = [0] * self.nodes
        self.node_of = [r // RANKS_PER_NODE for r in range(world)]
        self.watchers = [self._watcher(n) for n in range(self.nodes)]

    @property
    def detectors(self):
        return [w.detector for w in self.watchers]

    def _watcher(self, node: int) -> NodeWatcher:
        w = NodeWatcher(node, self.node_of, self._sender(node), self._to_rank, time.monotonic, self._read_state,
                        Config(), seed=self.rng.randrange(1 << 30),
                        on_verdict=lambda key, ev, node=node: self._verdict(node, key, ev))
        w.detector.inc = self.incs[node]
        return w

    def _read_state(self, pid: int, start) -> str:
        """A rank's process as /proc would show it (the simulated pid is PID_BASE + the rank)."""
        state, gen, _ = self.ranks[pid - PID_BASE]
        return "gone" if gen != start else state

    def _to_rank(self, rank: int, msg: dict) -> None:
        self.sent += 1  # a verdict passed on to a local rank: counted, not delivered (no rank process here)

    def _sender(self, node: int):
        def send(target: int, msg: dict) -> None:
            self.sent += 1
            if self._dropped(node, target):
                return
            try:
                self.socks[node].sendto(json.dumps(msg, separators=(",", ":")).encode(), self.addrs[target])
            except OSError:
                pass
        return send

    def _dropped(self, a: int, b: int) -> bool:
        if b in self.down:
            return True
        if self.side is not None and self.side[a] != self.side[b]:
            return True
        loss = 0.10 if (a in self.lossy or b in self.lossy) else self.loss
        return self.rng.random() < loss

    # -- verdicts -------------------------------------------------------------------------------

    def _verdict(self, node: int, key: tuple, ev: dict) -> None:
        now = time.monotonic()
        for f in self.faults:  # an open fault first: a restarted watcher knows only old incarnations
            if f.done is None and (f.key == key or (f.kind == "node" and key[:2] == ("node", f.target))):
                f.named_by.setdefault(node, now)
                return
        for f in self.faults:
            if f.key == key or _same_life(f, key):  # late (it restarted meanwhile) but true
                return
            if f.done is None and f.kind == "partition" and key[0] == "node" and self.side[key[1]] != self.side[node]:
                f.named_by.setdefault(node, now)
                return
        self.false.setdefault(key[:3], {"by": node, "ev": ev, "at": now})

    def survivors(self, f: Fault) -> set[int]:
        alive = f.watchers - self.down
        return alive - {f.target} if f.kind == "node" else alive

    # -- faults -----------------------------------------------------------------------------------

    def busy_targets(self) -> tuple[set[int], set[int]]:
        active = [f for f in self.faults if f.done is None]
        nodes = {f.target for f in active if f.kind in ("node", "lossy")}
        ranks = {f.target for f in active if f.kind not in ("node", "lossy")}
        return nodes, ranks | {r for n in nodes for r in self.node_ranks(n)}

    def node_ranks(self, node: int) -> range:
        return range(node * RANKS_PER_NODE, (node + 1) * RANKS_PER_NODE)

    def inject(self, kind: str, now: float) -> Fault | None:
        bad_nodes, bad_ranks = self.busy_targets()
        if kind in ("node", "lossy"):
            pool = [n for n in range(self.nodes) if n not in bad_nodes and
                    not any(r in bad_ranks for r in self.node_ranks(n))]
            if len(bad_nodes) + 1 > max(1, self.nodes // 16) or not pool:
                return None
            node = self.rng.choice(pool)
            if kind == "node":
                self.down.add(node)
                for other in self.faults:  # a watcher down during a fault is no survivor of it
                    if other.done is None:
                        other.watchers.discard(node)
                return Fault(kind, node, ("node", node, self.incs[node]), now)
            self.lossy.add(node)
            return Fault(kind, node, None, now)
        pool = [r for r in range(self.world) if r not in bad_ranks and r // RANKS_PER_NODE not in self.down]
        rank = self.rng.choice(pool)
        state = self.ranks[rank]
        if kind == "kill":
            state[0] = "gone"
        elif kind == "stop":
            state[0], state[2] = "T", False
        elif kind == "slow":
            state[0] = "R"
        elif kind == "starved":
            state[0], state[2] = "R", False
        return Fault(kind, rank, ("rank", rank, state[1]) if kind in POSITIVE else None, now)

    def heal(self, f: Fault, now: float) -> None:
        f.done = now
        if f.kind == "node":
            self.down.discard(f.target)
            for other in self.faults:  # a watcher that restarted did not hear of faults still open
                if other.done is None:
                    other.watchers.discard(f.target)
            self.incs[f.target] = f.until = (max(d.inc for d in self.detectors) + 1) * 10
            self.watchers[f.target] = self._watcher(f.target)
            self.detectors[f.target].rejoin(self.incs[f.target])
            for r in self.node_ranks(f.target):  # the new watcher hears each rank at once (its sidecar beats)
                if self.ranks[r][0] != "gone":
                    self.beat(r)
        elif f.kind == "lossy":
            self.lossy.discard(f.target)
        elif f.kind != "partition":
            state = self.ranks[f.target]
            state[0], state[2] = "S", True
            if f.kind in POSITIVE:
                state[1] += 1  # a new process for that rank, which beats as it starts (Mesh.start)
                self.beat(f.target)

    # -- the loop ---------------------------------------------------------------------------------

    def step(self, timeout: float) -> None:
        for key, _ in self.sel.select(timeout):
            node = key.data
            while True:
                try:
                    data, _src = key.fileobj.recvfrom(65536)
                except (BlockingIOError, InterruptedError):
                    break
                if node in self.down:
                    continue
                msg = json.loads(data)
                if "r" in msg:
                    self.watchers[node].from_rank(msg)  # a rank's beat to its watcher
                else:
                    self.watchers[node].detector.receive(msg)

    def tick_all(self, observe: bool, beat: bool) -> None:
        for node, watcher in enumerate(self.watchers):
            if node in self.down:
                continue
            if observe:
                watcher.tick()  # /proc of its ranks (their simulated states), then the detector's timers
            else:
                watcher.detector.tick()
            if beat:
                for r in self.node_ranks(node):
                    # A stopped or starved rank's own beats stop, its sidecar's do not (they carry the
                    # same pid and start time): the watcher hears of every rank whose process exists.
                    if self.ranks[r][0] != "gone":
                        self.beat(r)

    def beat(self, r: int) -> None:
        """Rank r's beat to its node's watcher: its pid and start time (its generation here)."""
        self.sent += 1
        if self.rng.random() >= self.loss:
            self.rank_sock.sendto(b'{"k":"b","r":%d,"pid":%d,"st":%d,"ph":"train","sp":1}'
                                  % (r, PID_BASE + r, self.ranks[r][1]), self.addrs[r // RANKS_PER_NODE])


def run(world: int, faults: int, concurrent: int, seed: int, loss: float, rank_beat: float,
        partitions: bool = False, quiet: float = 0.0) -> dict:
    sim = Sim(world, seed, loss, rank_beat)
    kinds = ("partition",) if partitions else POSITIVE + NEGATIVE
    t0 = time.monotonic()
    cpu0 = time.process_time()
    next_tick = next_observe = next_beat = next_inject = t0 + 1.0  # a quiet second first
    injected = 0
    while injected < faults or any(f.done is None for f in sim.faults) or time.monotonic() < t0 + quiet:
        now = time.monotonic()
        if now >= next_tick:
            sim.late.append(now - next_tick)
            sim.step(0.0)  # what arrived while this process could not run is read before any timer
            observe, beat = now >= next_observe, now >= next_beat
            if observe:
                next_observe = now + 0.1
            if beat:
                next_beat = now + rank_beat
            sim.tick_all(observe, beat)
            next_tick = now + TICK_S
            _settle(sim, now)
        if now >= next_inject and injected < faults and sum(f.done is None for f in sim.faults) < concurrent:
            next_inject = now + 0.25
            f = _partition(sim, now) if partitions else sim.inject(sim.rng.choice(kinds), now)
            if f is not None:
                f.watchers = set(range(sim.nodes)) - sim.down - ({f.target} if f.kind == "node" else set())
                sim.faults.append(f)
                injected += 1
        can_inject = injected < faults and sum(f.done is None for f in sim.faults) < concurrent
        wake = min(next_tick, next_inject) if can_inject else next_tick  # never a busy wait
        sim.step(max(0.0, wake - time.monotonic()))
    wall = time.monotonic() - t0
    return _figures(sim, world, wall, time.process_time() - cpu0, partitions)


def _same_life(f: Fault, key: tuple) -> bool:
    """A node verdict names the life of a node that a fault ended: incarnations from the one it
    started that life with (a refutation raises it) to the one it restarted with."""
    return (f.kind == "node" and key[0] == "node" and key[1] == f.target and key[2] >= f.key[2]
            and (f.until is None or key[2] < f.until))


def _partition(sim: Sim, now: float) -> Fault:
    order = list(range(sim.nodes))
    sim.rng.shuffle(order)
    cut = max(1, sim.nodes // 4)
    sim.side = {n: int(i < cut) for i, n in enumerate(order)}
    return Fault("partition", -1, None, now)


def _settle(sim: Sim, now: float) -> None:
    for f in sim.faults:
        if f.done is not None:
            continue
        if f.kind in POSITIVE or f.kind == "partition":
            if set(f.named_by) >= sim.survivors(f) or now - f.start >= NAME_WITHIN_S:
                sim.heal(f, now)
                if f.kind == "partition":
                    _reset_after_partition(sim)
        elif now - f.start >= NEGATIVE_WINDOW_S:
            sim.heal(f, now)


def _reset_after_partition(sim: Sim) -> None:
    """After a partition every watcher has declared the other side dead: start a fresh job."""
    sim.side = None
    base = (max(d.inc for d in sim.detectors) + 1) * 10
    sim.incs = [base] * sim.nodes
    sim.watchers = [sim._watcher(n) for n in range(sim.nodes)]  # noqa: SLF001
    for det in sim.detectors:  # datagrams still in flight speak of the old job: older incarnations
        for view in det.views.values():
            view.inc = base


def _figures(sim: Sim, world: int, wall: float, cpu: float, partitions: bool) -> dict:
    pos = [f for f in sim.faults if f.key is not None or f.kind == "partition"]
    neg = [f for f in sim.faults if f.key is None and f.kind != "partition"]
    named = [f for f in pos if set(f.named_by) >= sim.survivors(f) and
             max(f.named_by.values()) - f.start <= NAME_WITHIN_S]
    times = sorted(max(f.named_by[n] for n in sim.survivors(f)) - f.start for f in named)
    true_verdicts = len([f for f in pos if f.named_by])
    by_kind = {}
    for f in sim.faults:
        by_kind.setdefault(f.kind, [0, 0])[0] += 1
        by_kind[f.kind][1] += f in named
    return {
        "world": world, "nodes": sim.nodes, "faults": len(sim.faults), "positive": len(pos), "negative": len(neg),
        "by_kind": by_kind, "partitions": partitions,
        "p50_s": round(statistics.median(times), 2) if times else None,
        "p99_s": round(_pct(times, 0.99), 2) if times else None, "max_s": round(max(times), 2) if times else None,
        "recall": round(len(named) / len(pos), 4) if pos else None,
        "precision": round(true_verdicts / (true_verdicts + len(sim.false)), 4) if true_verdicts + len(sim.false)
        else None,
        "misses": [f"{f.kind} {f.target}: not by {sorted(sim.survivors(f) - set(f.named_by))}; "
                   f"named by {len(f.named_by)} of {len(sim.survivors(f))} survivors, "
                   f"first after {min(f.named_by.values()) - f.start:.1f} s" if f.named_by else f"{f.kind} {f.target}: "
                   "named by nobody" for f in pos if f not in named][:5],
        "deaf": _deaf(sim, [f for f in pos if f not in named]),
        "false_verdicts": len(sim.false), "false_examples": [str(v) for v in list(sim.false.values())[:3]],
        "msgs_per_rank_s": round(sim.sent / world / wall, 3), "cpu_per_rank_pct": round(100 * cpu / wall / world, 4),
        "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
        "tick_late_p50_s": round(statistics.median(sim.late), 3) if sim.late else None,
        "tick_late_p99_s": round(_pct(sorted(sim.late), 0.99), 3) if sim.late else None,
    }


def _deaf(sim: Sim, missed: list[Fault]) -> dict:
    """The watchers that missed most verdicts, and how they and the others saw each other at the end."""
    count: dict[int, int] = {}
    for f in missed:
        for n in sim.survivors(f) - set(f.named_by):
            count[n] = count.get(n, 0) + 1
    out = {}
    for n, c in sorted(count.items(), key=lambda x: -x[1])[:3]:
        det = sim.detectors[n]
        out[str(n)] = {"missed": c, "it_sees_dead": sum(v.state == "dead" for v in det.views.values()),
                       "seen_dead_by": sum(d.views.get(n) is not None and d.views[n].state == "dead"
                                           for d in sim.detectors), "inc": det.inc, "down": n in sim.down}
    return out


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--world", type=int, default=64)
    ap.add_argument("--faults", type=int, default=200)
    ap.add_argument("--concurrent", type=int, default=0, help="faults at once (default: max(4, nodes // 8))")
    ap.add_argument("--partitions", action="store_true", help="partition trials instead of the fault mix")
    ap.add_argument("--quiet", type=float, default=0.0, help="with --faults 0: run this long without a fault")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loss", type=float, default=0.02)
    ap.add_argument("--rank-beat", type=float, default=1.0)
    ap.add_argument("--json", default=None, help="append the figures as one JSON line here")
    args = ap.parse_args()
    if args.world % RANKS_PER_NODE or args.world < 2 * RANKS_PER_NODE:
        print(f"sim_liveness: --world must be a multiple of {RANKS_PER_NODE}, at least 16", file=sys.stderr)
        return 2
    concurrent = args.concurrent or (1 if args.partitions else max(4, args.world // RANKS_PER_NODE // 8))
    out = run(args.world, args.faults, concurrent, args.seed, args.loss, args.rank_beat, args.partitions,
              args.quiet)
    out.update(date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), seed=args.seed, loss=args.loss,
               concurrent=concurrent)
    print(json.dumps(out))
    if args.json:
        with open(args.json, "a", encoding="utf-8") as f:
            f.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
