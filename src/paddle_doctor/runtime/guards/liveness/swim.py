"""A failure detector whose cost per rank does not grow with the world size (SWIM, with Lifeguard's
suspicion and refutation), run by one watcher per node.

Why: an all-to-all heartbeat costs W-1 sends and decodes per rank per tick, W^2 across the job.
Here the ranks of a node are watched by their node's watcher through /proc (no message at all:
``observe_local``), and the watchers watch each other as SWIM does:

- each period (``period``) a watcher pings one other watcher, round robin over a shuffled list;
- no ack within ``ack_timeout``: it asks ``indirect`` others to ping that watcher for it (a lost
  datagram or one bad link is not a death);
- still no ack at the end of the period: the watcher is *suspected*, and told so once a period
  by each watcher that suspects it (gossip alone may miss it); a suspect that hears of it
  refutes it with a higher incarnation; unrefuted, it is declared dead after ``suspect_s`` (8 s)
  when one watcher suspects it, down to ``suspect_min_s`` (2.5 s) when 3 more confirm it
  (Lifeguard's dynamic suspicion); a watcher that was itself stalled forgives the acks it missed;
- every verdict (a node dead; a rank gone or stopped) carries its evidence (who saw it, how) and
  is spread by piggybacking on pings and acks, and by a few gossip messages per ``gossip_s``
  while there is news (each update is sent about 3 log2(N) times): O(1) messages per watcher per
  period in a quiet job, and every survivor hears of a verdict within O(log N) gossip rounds.

Transport and clock are injected (``send(node, msg)``, ``clock()``), so the same code runs under
the launcher, in the simulator (``bench/sim_liveness.py``: many watchers per process, real UDP)
and in unit tests with a fake clock. Nothing here imports paddle.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

ALIVE, SUSPECT, DEAD = "alive", "suspect", "dead"
# News that is spread like a verdict but judged by the ranks: the key it is known by.
NEWS = {"e": lambda b: ("end", b["r"], b["gen"]), "f": lambda b: ("fp", b["n"], b["g"], b["s"])}


@dataclass
class Config:
    period: float = 0.5  # one probe per watcher per period
    ack_timeout: float = 0.2  # then indirect probes
    indirect: int = 3  # watchers asked to probe for us
    suspect_s: float = 8.0  # a suspicion unrefuted this long is a death, when nobody else confirms it
    suspect_min_s: float = 2.5  # ... with ``confirmations`` independent suspicions (Lifeguard)
    confirmations: int = 3
    gossip_s: float = 0.2  # while there is news: a gossip message to ``fanout`` watchers
    fanout: int = 3
    stop_s: float = 5.0  # a local rank seen stopped (state T) this long is stuck
    max_piggyback: int = 8  # updates per message
    retransmit_mult: int = 3  # each update is sent retransmit_mult * ceil(log2(N + 1)) times


@dataclass
class View:
    state: str = ALIVE
    inc: int = 0
    since: float = 0.0  # when it became suspect
    confirm: set = field(default_factory=set)  # the watchers that suspect it (at this incarnation)


@dataclass
class Probe:
    target: int
    sent: float
    indirect_sent: bool = False


@dataclass
class Update:
    body: dict
    sent: int = 0


@dataclass
class LocalRank:
    gen: int
    stopped_since: float | None = None
    named: bool = False


@dataclass
class Detector:
    """One node's watcher. ``members``: every node id of the job (this one included)."""

    me: int
    members: list[int]
    send: Callable[[int, dict], None]
    clock: Callable[[], float]
    cfg: Config = field(default_factory=Config)
    rng: random.Random = field(default_factory=random.Random)
    inc: int = 0
    on_verdict: Callable[[tuple, dict], None] | None = None
    on_news: Callable[[tuple, dict], None] | None = None
    rank_info: Callable[[int], dict] | None = None  # what a local rank was doing, for its verdict's text

    def __post_init__(self):
        self.views = {m: View() for m in self.members if m != self.me}
        self.verdicts: dict[tuple, dict] = {}
        self.updates: dict[tuple, Update] = {}
        self._seen: set[tuple] = set()  # every update ever learnt: one never circulates twice
        self.local: dict[int, LocalRank] = {}
        self.suspects: set[int] = set()
        self._order: list[int] = []
        self._probes: dict[int, Probe] = {}  # seq -> probe in flight
        self._relays: dict[int, tuple[int, int]] = {}  # our seq -> (asker, its seq)
        self._seq = 0
        now = self.clock()
        self._next_probe = now + self.rng.random() * self.cfg.period  # spread the watchers' periods
        self._next_gossip = now
        self._last_tick = now
        self._limit = self.cfg.retransmit_mult * math.ceil(math.log2(len(self.members) + 1))

    # -- the timer ------------------------------------------------------------------------------

    def tick(self) -> None:
        """Call often (every 50 ms or less): probes, indirect probes, suspicions, gossip."""
        now = self.clock()
        self._forgive_own_stall(now)
        self._check_probes(now)
        self._check_suspects(now)
        if now >= self._next_probe:
            self._next_probe = now + self.cfg.period
            self._probe_next(now)
            for node in list(self.suspects):  # tell it, so that it can refute (the gossip may have missed it)
                self._send(node, {"t": "gossip"})
        if now >= self._next_gossip:
            self._next_gossip = now + self.cfg.gossip_s
            if any(u.sent < self._limit for u in self.updates.values()):
                for node in self._random_alive(self.cfg.fanout):
                    self._send(node, {"t": "gossip"})

    def suspicion_timeout(self, suspecters: int) -> float:
        """Lifeguard's dynamic suspicion: the full timeout for one watcher's word, down to the
        minimum as independent watchers confirm it (a real death is confirmed fast; one lagging
        watcher's false suspicion waits long enough to be refuted)."""
        k = self.cfg.confirmations
        c = min(max(suspecters - 1, 0), k)
        span = self.cfg.suspect_s - self.cfg.suspect_min_s
        return max(self.cfg.suspect_min_s, self.cfg.suspect_s - span * math.log(c + 1) / math.log(k + 1))

    def _forgive_own_stall(self, now: float) -> None:
        """Lifeguard's local health: if this watcher itself could not run for a while (a CPU stall,
        its host busy), the acks it missed meanwhile say nothing of its peers. Timers of probes
        and suspicions are moved on by the stall instead of expiring."""
        gap, self._last_tick = now - self._last_tick, now
        stall = gap - 2 * self.cfg.ack_timeout
        if stall <= 0:
            return
        for probe in self._probes.values():
            probe.sent += stall
        for node in self.suspects:
            self.views[node].since += stall

    def _probe_next(self, now: float) -> None:
        if not self._order:
            self._order = [m for m, v in self.views.items() if v.state != DEAD]
            self.rng.shuffle(self._order)
        while self._order:
            target = self._order.pop()
            if self.views[target].state != DEAD:
                self._seq += 1
                self._probes[self._seq] = Probe(target, now)
                self._send(target, {"t": "ping", "s": self._seq})
                return

    def _check_probes(self, now: float) -> None:
        for seq, probe in list(self._probes.items()):
            waited = now - probe.sent
            if waited >= self.cfg.period:
                del self._probes[seq]
                self._suspect(probe.target, self.views[probe.target].inc, now)
            elif waited >= self.cfg.ack_timeout and not probe.indirect_sent:
                probe.indirect_sent = True
                for node in self._random_alive(self.cfg.indirect, exclude=probe.target):
                    self._send(node, {"t": "preq", "s": seq, "tg": probe.target})

    def _check_suspects(self, now: float) -> None:
        for node in list(self.suspects):
            view = self.views[node]
            if now - view.since >= self.suspicion_timeout(len(view.confirm)):
                evidence = {"by": self.me, "inc": view.inc,
                            "how": f"no ack to direct and {self.cfg.indirect} indirect probes, suspected by "
                                   f"{len(view.confirm)} watcher(s) for {now - view.since:.1f} s without refutation"}
                self._declare_dead(node, view.inc, evidence, now)

    # -- local ranks ------------------------------------------------------------------------------

    def observe_local(self, states: dict[int, tuple[str, int]]) -> None:
        """This node's ranks as /proc shows them: rank -> (state letter or "gone", generation).
        A rank gone is named at once; one stopped (T) for ``stop_s``; one running never."""
        now = self.clock()
        for rank, (state, gen) in states.items():
            seen = self.local.get(rank)
            if seen is None or seen.gen != gen:
                seen = self.local[rank] = LocalRank(gen)
            if seen.named:
                continue
            if state in ("T", "t"):
                seen.stopped_since = seen.stopped_since if seen.stopped_since is not None else now
                if now - seen.stopped_since >= self.cfg.stop_s:
                    self._rank_verdict(rank, gen, "stopped", f"state T for {now - seen.stopped_since:.1f} s", now)
            elif state == "gone":
                self._rank_verdict(rank, gen, "gone", "its process is gone (/proc)", now)
            else:
                seen.stopped_since = None

    def _rank_verdict(self, rank: int, gen: int, what: str, how: str, now: float) -> None:
        self.local[rank].named = True
        body = {"k": "r", "r": rank, "gen": gen, "what": what, "by": self.me, "how": how}
        if self.rank_info is not None:
            body["doing"] = self.rank_info(rank)
        self._learn(body, now)

    # -- receiving ---------------------------------------------------------------------------

    def receive(self, msg: dict) -> None:
        now = self.clock()
        sender = msg.get("f")
        self._heard_from(sender, msg.get("i"), now)
        for body in msg.get("g") or ():
            self._learn(body, now)
        kind = msg.get("t")
        if kind == "ping":
            self._send(sender, {"t": "ack", "s": msg.get("s")})
        elif kind == "ack":
            self._on_ack(msg, now)
        elif kind == "preq":
            self._seq += 1
            self._relays[self._seq] = (sender, msg.get("s"))
            self._send(msg.get("tg"), {"t": "ping", "s": self._seq})

    def _heard_from(self, sender, inc, now: float) -> None:
        """Every message carries its sender's incarnation: one newer than what we know is an alive
        update in itself (a watcher that restarted, or refuted a suspicion we never heard of)."""
        view = self.views.get(sender)
        if view is not None and isinstance(inc, int) and inc > view.inc:
            self._learn({"k": "a", "n": sender, "i": inc}, now)

    def _on_ack(self, msg: dict, now: float) -> None:
        seq = msg.get("s")
        relay = self._relays.pop(seq, None)
        if relay is not None:  # an ack for a probe we made for someone else: pass it on
            self._send(relay[0], {"t": "ack", "s": relay[1]})
            return
        self._probes.pop(seq, None)

    def publish(self, body: dict) -> None:
        """Spread news that is not a verdict with the same gossip budget: a local rank's "end"
        message (``{"k": "e", "r", "gen", "end"}``) or this node's fingerprint digest of a
        collective (``{"k": "f", "n", "g", "s", ...}``); every watcher hands it to ``on_news``."""
        self._learn(body, self.clock())

    def _learn(self, body: dict, now: float) -> None:
        kind = body.get("k")
        if kind in NEWS:
            key = NEWS[kind](body)
            if key not in self._seen:
                self._seen.add(key)
                self.updates[key] = Update(body)
                self._trim()
                if self.on_news is not None:
                    self.on_news(key, body)
            return
        if kind == "r":
            key = ("rank", body["r"], body["gen"])
        elif kind == "s":
            key = ("node", body["n"], body["i"], kind, body.get("by"))  # each confirmation counts
        else:
            key = ("node", body["n"], body["i"], kind)
        if key in self._seen:
            return
        self._seen.add(key)
        if kind == "r":
            self._record(("rank", body["r"], body["gen"]), body, now)
        elif not self._apply_membership(body, now):
            return  # stale: older than what we know
        self.updates[key] = Update(body)
        self._trim()

    def _apply_membership(self, body: dict, now: float) -> bool:
        node, inc, kind = body["n"], body["i"], body["k"]
        if node == self.me:
            if kind in ("s", "d") and inc >= self.inc:
                self.inc = inc + 1  # refute: we are alive, with a newer incarnation
                self._queue({"k": "a", "n": self.me, "i": self.inc})
            return True
        view = self.views.get(node)
        if view is None:
            return False
        if kind == "a" and inc > view.inc:
            view.state, view.inc = ALIVE, inc
            self.suspects.discard(node)
            return True
        if kind == "s" and inc >= view.inc and view.state == ALIVE:
            view.state, view.inc, view.since, view.confirm = SUSPECT, inc, now, {body.get("by")}
            self.suspects.add(node)
            return True
        if kind == "s" and inc == view.inc and view.state == SUSPECT:
            fresh = body.get("by") not in view.confirm and len(view.confirm) <= self.cfg.confirmations
            view.confirm.add(body.get("by"))
            return fresh  # passed on while it still shortens the timeout
        if kind == "d" and inc >= view.inc and view.state != DEAD:
            view.state, view.inc = DEAD, inc
            self.suspects.discard(node)
            self._record(("node", node, inc), body, now)
            return True
        return False

    # -- verdicts and gossip ----------------------------------------------------------------------

    def _suspect(self, node: int, inc: int, now: float) -> None:
        if self.views[node].state != DEAD:  # a first suspicion, or one more confirmation
            self._learn({"k": "s", "n": node, "i": inc, "by": self.me}, now)

    def _declare_dead(self, node: int, inc: int, evidence: dict, now: float) -> None:
        self._learn({"k": "d", "n": node, "i": inc, **evidence}, now)

    def _queue(self, body: dict) -> None:
        key = ("node", body["n"], body["i"], body["k"])
        self._seen.add(key)
        self.updates[key] = Update(body)

    def _record(self, key: tuple, body: dict, now: float) -> None:
        if key not in self.verdicts:
            self.verdicts[key] = dict(body, at=now)
            if self.on_verdict is not None:
                self.on_verdict(key, self.verdicts[key])

    def _trim(self) -> None:
        """Updates sent their share are dropped (a verdict stays in ``verdicts``)."""
        if len(self.updates) > 4 * self.cfg.max_piggyback:
            for key in [k for k, u in self.updates.items()
                        if u.sent >= self._limit and u.body.get("n") not in self.suspects]:
                del self.updates[key]

    def _piggyback(self) -> list[dict]:
        fresh = sorted((u for u in self.updates.values() if u.sent < self._limit), key=lambda u: u.sent)
        chosen = fresh[: self.cfg.max_piggyback]
        for u in chosen:
            u.sent += 1
        return [u.body for u in chosen]

    def _send(self, node: int, msg: dict) -> None:
        msg["f"], msg["i"] = self.me, self.inc
        news = self._piggyback()
        if node in self.suspects:
            news += [u.body for u in self.updates.values()
                     if u.body.get("n") == node and u.body["k"] == "s" and u.body not in news]
        if news:
            msg["g"] = news
        self.send(node, msg)

    def _random_alive(self, n: int, exclude: int | None = None) -> list[int]:
        """``n`` distinct watchers not known dead, drawn by rejection (O(n), not O(N), per call)."""
        out: list[int] = []
        for _ in range(8 * n + 8):
            if len(out) == n:
                return out
            m = self.rng.choice(self.members)
            if m != self.me and m != exclude and m not in out and self.views[m].state != DEAD:
                out.append(m)
        return out

    def rejoin(self, inc: int) -> None:
        """This watcher restarts (its node came back) with a newer incarnation than any before."""
        self.inc = inc
        self._queue({"k": "a", "n": self.me, "i": inc})
