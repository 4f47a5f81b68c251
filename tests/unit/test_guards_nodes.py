"""Issue 19: the real guards across nodes. Ranks are grouped by node; a rank beats only to its
node's ranks and to its node's watcher; the watchers (``liveness/watcher.py``, the same
``swim.Detector`` the simulator runs) pass on what they learn of other nodes. Two nodes are faked
on loopback (``PADDLE_DOCTOR_RANKS_PER_NODE=1``): rank 0 here, rank 1 a real subprocess, each
node with its real watcher process. No paddle, no launcher."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from paddle_doctor.errors import CollectiveMismatchError
from paddle_doctor.runtime.guards import collcheck, heartbeat
from paddle_doctor.runtime.guards.guardstate import STATE, Region
from paddle_doctor.runtime.guards.liveness import nodes, seal, verdict
from paddle_doctor.runtime.guards.liveness.swim import Config
from paddle_doctor.runtime.guards.liveness.watcher import NodeWatcher
from paddle_doctor.runtime.guards.trace import Entry
from paddle_doctor.runtime.channel.rankenv import RankInfo
from udpkit import free_ports

SRC = Path(__file__).resolve().parents[2] / "src"


def test_ranks_are_grouped_by_host_or_by_the_override():
    eps = [("10.0.0.1", 6000), ("10.0.0.1", 6001), ("10.0.0.2", 6000), ("10.0.0.2", 6001)]
    lay = nodes.layout(eps, env={})
    assert lay.node_of == (0, 0, 1, 1) and lay.watcher_addrs == (("10.0.0.1", 6000), ("10.0.0.2", 6000))
    assert lay.leader(1) == 2
    lay = nodes.layout([("127.0.0.1", p) for p in (7000, 7001, 7002)], env={"PADDLE_DOCTOR_RANKS_PER_NODE": "1"})
    assert lay.node_of == (0, 1, 2) and lay.nodes == 3


class Net:
    """In-process transport between NodeWatchers (node -> watcher), and what reached the ranks."""

    def __init__(self):
        self.watchers, self.to_ranks, self.now = {}, [], 0.0

    def watcher(self, node, node_of):
        w = NodeWatcher(node, node_of, lambda n, m: self.watchers[n].detector.receive(json.loads(json.dumps(m))),
                        lambda r, m: self.to_ranks.append((r, m)), lambda: self.now, lambda pid, st: "S",
                        Config(), seed=node)
        self.watchers[node] = w
        return w


def test_fingerprints_are_compared_at_the_node_watchers_with_one_datagram_per_rank():
    net = Net()
    node_of = [0, 0, 1, 1]
    a, b = net.watcher(0, node_of), net.watcher(1, node_of)
    fp = {"g": 0, "s": 3, "op": "all_reduce", "sh": [[2]], "dt": ["float32"], "a": {"op": 0}, "site": "e.py:9", "n": 1}
    other = dict(fp, op="broadcast", a={"src": 0})
    for w, rank, f in ((a, 0, fp), (a, 1, fp), (b, 2, fp), (b, 3, other)):
        w.from_rank({"k": "b", "r": rank, "pid": 100 + rank, "st": 1, "c": f})
    for _ in range(3):
        net.now += 0.25
        a.tick(), b.tick()
    got = {r: m for r, m in net.to_ranks if m.get("k") == "F"}
    assert set(got) == {0, 1, 2, 3}  # each rank hears once (twice: UDP may drop one), never W times
    sets = got[0]["sets"]
    assert sorted(r for ranks, _ in sets for r in ranks) == [0, 1, 2, 3]
    fps = {r: f for ranks, f in sets for r in ranks}
    report = collcheck.compare(fps)
    assert report is not None and report.ranks == (3,)


# -- two fake nodes on loopback, with real watcher processes ---------------------------------------

RANK1 = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from paddle_doctor.runtime.guards import heartbeat
    from paddle_doctor.runtime.guards.guardstate import STATE
    from paddle_doctor.runtime.guards.trace import Entry
    from paddle_doctor.runtime.channel.rankenv import RankInfo
    eps = heartbeat.endpoints()
    if sys.argv[1] == "broadcast":
        STATE.current = Entry(3, 0, None, "broadcast", [[2]], ["float32"], {"src": 0}, "e.py:9", "f", 1)
    from paddle_doctor.runtime.guards.liveness import seal
    key = seal.read_key_file(os.environ["PADDLE_DOCTOR_KEY_FILE"])  # the job's key, as `run` hands it over
    m = heartbeat.Mesh(RankInfo(1, 0, 2, "h", 0, Path("."), None), eps, lambda _: None, tick=0.1, key=key).start()
    print("up", flush=True)
    if sys.argv[1] == "busy":  # native code holding the GIL: this rank's own beat thread starves
        import re
        for _ in range(3):
            re.match(r"(a+)+$", "a" * 23 + "b")
    time.sleep(60)
""")


@pytest.fixture
def two_nodes(monkeypatch, tmp_path):
    ports = free_ports(2)
    env = {"PADDLE_TRAINER_ENDPOINTS": ",".join(f"127.0.0.1:{p}" for p in ports), "PADDLE_MASTER": "x",
           "PADDLE_DOCTOR_RANKS_PER_NODE": "1", "PADDLE_DOCTOR_WATCHDOG_TIMEOUT": "2"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("PADDLE_DOCTOR_BEAT_LOSS", "0")
    key_file = tmp_path / "key"
    seal.write_key_file(str(key_file), seal.new_key())
    monkeypatch.setenv("PADDLE_DOCTOR_KEY_FILE", str(key_file))
    started = []

    def start(mode="plain", loss="0"):
        os.environ["PADDLE_DOCTOR_BEAT_LOSS"] = loss
        script = tmp_path / "rank1.py"
        script.write_text(RANK1)
        child = subprocess.Popen([sys.executable, str(script), mode], stdout=subprocess.PIPE,
                                 env=dict(os.environ, PYTHONPATH=str(SRC)))
        assert child.stdout.readline().strip() == b"up"
        mesh = heartbeat.Mesh(RankInfo(0, 0, 2, "h", 0, Path("."), None), heartbeat.endpoints(),
                              lambda _: None, tick=0.1, key=seal.read_key_file(str(key_file))).start()
        started.append((child, mesh))
        return child, mesh

    STATE.regions.append(Region("evaluate"))
    yield start
    STATE.regions.clear()
    STATE.current = None
    for child, mesh in started:
        os.kill(child.pid, signal.SIGCONT) if child.poll() is None else None
        child.kill()
        child.wait()
        mesh.send_end({"ok": True})
        mesh.stop()
        if mesh.watcher is not None:
            mesh.watcher.kill()
            mesh.watcher.wait()


def wait_for(mesh, code, within):
    end = time.monotonic() + within
    while time.monotonic() < end:
        mesh._drain()
        found = verdict.judge(mesh, time.monotonic(), guarded=True)
        if found is not None:
            return found
        time.sleep(0.05)
    return None


@pytest.mark.needs_paddle
def test_a_rank_killed_on_another_node_is_named_through_the_watchers(two_nodes):
    child, mesh = two_nodes()
    assert mesh.peers[1].remote and mesh.watcher is not None
    assert wait_for(mesh, None, 2.0) is None  # a healthy remote rank: nothing to say
    t0 = time.monotonic()
    child.kill()
    found = wait_for(mesh, "dead", 5.0)
    assert found is not None and found.code == "dead" and found.ranks == (1,), found
    assert time.monotonic() - t0 < 3.0


@pytest.mark.needs_paddle
def test_a_rank_stopped_on_another_node_is_stuck_after_half_the_deadline(two_nodes):
    child, mesh = two_nodes()
    time.sleep(0.5)
    t0 = time.monotonic()
    os.kill(child.pid, signal.SIGSTOP)
    found = wait_for(mesh, "stuck", 6.0)
    assert found is not None and found.code == "stuck" and found.ranks == (1,), found
    assert "state T" in found.message and 0.9 <= time.monotonic() - t0 < 4.0


@pytest.mark.needs_paddle
def test_check_mode_names_a_divergent_collective_on_another_node(two_nodes):
    child, mesh = two_nodes("broadcast")
    entry = Entry(3, 0, None, "all_reduce", [[2]], ["float32"], {"op": 0}, "e.py:9", "f", 1)
    STATE.current = entry
    raised = []

    def check():
        try:
            collcheck.check(entry, mesh, STATE)
        except CollectiveMismatchError as exc:
            raised.append(exc)

    t = threading.Thread(target=check, daemon=True)  # check() waits for the peers: bounded here
    t.start()
    t.join(10.0)
    assert raised and "broadcast" in str(raised[0]) and raised[0].finding.ranks in ((0,), (1,))


@pytest.mark.needs_paddle
def test_a_busy_rank_on_another_node_and_lost_datagrams_raise_no_alarm(two_nodes):
    child, mesh = two_nodes("busy", loss="0.05")  # 5 % of every beat, sidecar beat and probe dropped
    assert wait_for(mesh, None, 6.0) is None
    assert child.poll() is None and not mesh.remote_news
