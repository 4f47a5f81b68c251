"""The node watchers' failure detector (``liveness/swim.py``) on a fake clock and an in-memory
network: who is named, when, and what it costs. No sockets, no paddle."""

import random

from paddle_doctor.runtime.guards.liveness.swim import DEAD, Config, Detector


class Net:
    """N watchers, messages delivered 1 ms later unless dropped, a clock that the test advances."""

    def __init__(self, n, loss=0.0, seed=0):
        self.now = 0.0
        self.rng = random.Random(seed)
        self.loss = loss
        self.queue = []
        self.down = set()
        self.cut = set()  # (a, b) pairs that cannot talk
        self.sent = 0
        self.named = {}  # (watcher, key) -> time
        self.dets = [Detector(i, list(range(n)), self._sender(i), lambda: self.now, Config(),
                              rng=random.Random(seed * 1000 + i),
                              on_verdict=lambda key, ev, i=i: self.named.setdefault((i, key), self.now))
                     for i in range(n)]

    def _sender(self, src):
        def send(dst, msg):
            self.sent += 1
            if dst in self.down or (src, dst) in self.cut or (dst, src) in self.cut or self.rng.random() < self.loss:
                return
            self.queue.append((self.now + 0.001, dst, msg))
        return send

    def run(self, seconds, step=0.05):
        end = self.now + seconds
        while self.now < end:
            self.now = round(self.now + step, 6)
            due, self.queue = [m for m in self.queue if m[0] <= self.now], [m for m in self.queue if m[0] > self.now]
            for _, dst, msg in due:
                if dst not in self.down:
                    self.dets[dst].receive(msg)
            for i, d in enumerate(self.dets):
                if i not in self.down:
                    d.tick()

    def verdicts(self):
        return {key for (_, key) in self.named}


def test_a_healthy_cluster_with_five_percent_loss_names_nobody():
    net = Net(16, loss=0.05, seed=1)
    net.run(60)
    assert net.verdicts() == set()


def test_a_gone_node_is_named_by_every_survivor_within_ten_seconds_with_its_evidence():
    net = Net(16, loss=0.02, seed=2)
    net.run(2)
    net.down.add(5)
    t0 = net.now
    net.run(10)
    key = ("node", 5, 0)
    survivors = [i for i in range(16) if i != 5]
    assert all((i, key) in net.named for i in survivors), net.named
    assert max(net.named[(i, key)] for i in survivors) - t0 <= 10.0
    assert "indirect probes" in net.dets[0].verdicts[key]["how"]
    assert all(net.dets[i].views[5].state == DEAD for i in survivors)


def test_a_short_silence_is_refuted_not_named():
    net = Net(8, seed=3)
    net.run(2)
    net.cut = {(3, j) for j in range(8) if j != 3}  # node 3 unreachable for 2 s, less than the suspicion
    net.run(2)
    net.cut = set()
    net.run(10)
    assert net.verdicts() == set()
    assert net.dets[3].inc >= 1  # it heard it was suspected and refuted it


def test_local_ranks_gone_at_once_stopped_after_stop_s_running_never():
    net = Net(4, seed=4)
    det = net.dets[0]
    det.observe_local({0: ("S", 0), 1: ("R", 0), 2: ("T", 0), 3: ("S", 0)})
    net.run(1)
    det.observe_local({0: ("gone", 0), 1: ("R", 0), 2: ("T", 0), 3: ("S", 0)})
    assert ("rank", 0, 0) in det.verdicts and ("rank", 2, 0) not in det.verdicts
    net.run(4.5)
    det.observe_local({0: ("gone", 0), 1: ("R", 0), 2: ("T", 0), 3: ("S", 0)})
    assert ("rank", 2, 0) in det.verdicts and det.verdicts[("rank", 2, 0)]["what"] == "stopped"
    assert ("rank", 1, 0) not in det.verdicts  # busy: running, whatever its beats do
    net.run(3)  # spread to every other watcher
    assert all(("rank", 2, 0) in d.verdicts for d in net.dets)


def test_messages_per_watcher_do_not_grow_with_the_job():
    rates = []
    for n in (8, 64):
        net = Net(n, seed=5)
        net.run(20)
        rates.append(net.sent / n / 20)
    assert rates[1] <= rates[0] * 1.5, rates  # about 4 a second (a ping, an ack) at any size
    assert rates[1] < 10
