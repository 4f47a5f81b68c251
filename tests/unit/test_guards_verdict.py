"""Issue 19: what "stuck" means to the watchdog's verdict. A peer seen stopped (state T) is stuck
after half the deadline; a peer whose own beats stopped while its process is seen running (its
sidecar says R or S, or same-host /proc does) is busy and never named; nothing heard at all for
the deadline is stuck. No paddle, no launcher; the sidecar itself runs for real at the end."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paddle_doctor.runtime.guards import heartbeat
from paddle_doctor.runtime.guards.guardstate import STATE, Region
from paddle_doctor.runtime.guards.liveness import seal, sidecar, verdict
from paddle_doctor.runtime.channel.rankenv import RankInfo


@pytest.fixture
def mesh():
    m = heartbeat.Mesh(RankInfo(0, 0, 2, "host", 1, Path("/tmp/log"), None), [("127.0.0.1", 0)] * 2, lambda _: None)
    STATE.regions.append(Region("evaluate"))
    yield m
    m.stop()
    STATE.regions.clear()


def silent(peer, ago):
    peer.last_seen = peer.first_seen = time.monotonic() - ago
    peer.info = {"hk": "other-host", "ph": "evaluate"}


def side(peer, state, ago=0.1):
    now = time.monotonic()
    peer.side, peer.side_seen = {"ps": state, "hk": "other-host", "pid": 4242}, now - ago
    peer.note_state(state, now - ago)


def test_a_peer_busy_in_native_code_is_never_named(mesh):
    peer = mesh.peers[1]
    silent(peer, ago=3 * STATE.deadline())  # its beat thread starved for three deadlines
    side(peer, "R")
    assert verdict.judge(mesh, time.monotonic()) is None
    side(peer, "R", ago=STATE.deadline() + 1)  # and then its sidecar went silent too: a frozen host
    finding = verdict.judge(mesh, time.monotonic())
    assert finding is not None and finding.code == "stuck" and "frozen or unreachable" in finding.message


def test_a_stopped_peer_is_named_after_half_the_deadline(mesh):
    peer = mesh.peers[1]
    silent(peer, ago=1.0)
    now = time.monotonic()
    peer.side, peer.side_seen = {"ps": "T"}, now
    peer.note_state("T", now - verdict.stop_after() + 0.5)
    assert verdict.judge(mesh, now) is None  # not yet
    peer.stopped_since = now - verdict.stop_after() - 0.1
    finding = verdict.judge(mesh, now)
    assert finding.code == "stuck" and finding.ranks == (1,) and "state T" in finding.message
    peer.note_state("R", now)  # SIGCONT: it runs again
    assert peer.stopped_since is None


def test_the_sidecar_reports_its_rank_running_stopped_and_gone():
    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink.bind(("127.0.0.1", 0))
    sink.settimeout(10)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    start = sidecar.read_stat(child.pid)[1]
    cfg = {"r": 1, "rid": "job", "pid": child.pid, "st": start, "tick": 0.05, "to": [list(sink.getsockname())]}
    key = seal.new_key()
    side_proc = sidecar.spawn(sidecar.__file__, cfg, key)  # the key on its stdin
    opener = seal.Opener(key, "job", seal.Stats("test"))

    def state():
        sid, msg = opener.open(sink.recv(4096))
        assert sid == "s1"
        return msg["ps"]

    try:
        states = [state()]
        os.kill(child.pid, 19)  # SIGSTOP
        deadline = time.monotonic() + 10
        while states[-1] != "T" and time.monotonic() < deadline:
            states.append(state())
        child.kill()
        child.wait()
        while states[-1] != "gone" and time.monotonic() < deadline:
            states.append(state())
        assert states[0] in ("S", "R") and "T" in states and states[-1] == "gone", states
        assert side_proc.wait(timeout=10) == 0  # it exits once its rank is gone
    finally:
        for p in (child, side_proc):
            if p.poll() is None:
                p.kill()
                p.wait()
        sink.close()


def test_a_node_unreachable_because_it_advertised_loopback_is_wrong_host_ip(mesh, monkeypatch):
    """Issue 31, measured on two real hosts: host B's name resolved to 127.0.0.1, its launcher
    advertised that address, and the node watchers could not reach each other: that is a wrong
    address naming host B's ranks (on either side), not a frozen node."""
    peer = mesh.peers[1]
    peer.remote, peer.node = True, 1
    peer.node_down = {"k": "d", "n": 1, "by": 0, "how": "no ack to direct and 3 indirect probes"}
    mesh.remote_news.add(1)  # as link.from_watcher does
    monkeypatch.setenv("PADDLE_TRAINER_ENDPOINTS", "10.213.0.1:6000,10.213.0.2:6001")
    plain = verdict.judge(mesh, time.monotonic())
    assert plain.cause == "collective_timeout" and "frozen or unreachable" in plain.message
    monkeypatch.setenv("PADDLE_TRAINER_ENDPOINTS", "10.213.0.1:6000,127.0.0.1:6001")
    finding = verdict.judge(mesh, time.monotonic())
    assert (finding.cause, finding.ranks) == ("wrong_host_ip", (1,)), finding
    assert "loopback" in finding.message


def test_only_a_mix_of_loopback_and_real_addresses_counts_as_looped():
    assert verdict.looped_ranks("10.0.0.1:1,127.0.1.1:2,127.0.1.1:3,10.0.0.2:4") == (1, 2)
    assert verdict.looped_ranks("127.0.0.1:1,127.0.0.1:2") == ()  # a one-machine job: nothing wrong
    assert verdict.looped_ranks("") == ()


def test_a_node_found_unreachable_says_so_in_its_facts_for_every_rank_of_it():
    """diagnose pairs both sides' records by this fact (a partition); two ranks of the node merged
    into one finding keep it."""
    m = heartbeat.Mesh(RankInfo(0, 0, 3, "host", 1, Path("/tmp/log"), None), [("127.0.0.1", 0)] * 3, lambda _: None)
    STATE.regions.append(Region("evaluate"))
    try:
        for rank in (1, 2):
            peer = m.peers[rank]
            peer.remote, peer.node = True, 1
            peer.node_down = {"k": "d", "n": 1, "by": 0, "how": "no ack"}
            m.remote_news.add(rank)
        finding = verdict.judge(m, time.monotonic())
        assert finding.ranks == (1, 2) and finding.facts.get("unreachable_node") == 1, finding
    finally:
        m.stop()
        STATE.regions.clear()
