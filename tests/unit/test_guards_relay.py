"""Issue 31 §3: within a node, ranks report to their node's watcher, not to each other. A rank's
periodic beat goes to one address (its watcher) once the watcher's digests reach it; the watcher
sends each local rank one digest a tick with the node's other ranks; so the datagrams a rank
receives per tick do not grow with the ranks on its node (counted with the channel's own
``accepted`` counters, real watcher and sidecar processes on loopback). Without digests (no
watcher, a dead one) a rank beats its node's peers directly, as before. No paddle, no launcher."""

import os
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from paddle_doctor.runtime.guards import heartbeat
from paddle_doctor.runtime.guards.liveness import link, schema, seal
from paddle_doctor.runtime.guards.liveness.swim import Config
from paddle_doctor.runtime.guards.liveness.watcher import NodeWatcher
from paddle_doctor.runtime.channel.rankenv import RankInfo
from udpkit import free_ports

TICK = 0.1


def beat(rank, **extra):
    return {"v": 1, "r": rank, "k": "b", "p": 7000 + rank, "pid": 100 + rank, "st": 5, "hk": "h", "t": 1.0,
            "ph": "evaluate", "sp": 3, **extra}


# -- the watcher's side, in process ------------------------------------------------------------------


def test_the_watcher_sends_each_local_rank_one_digest_a_tick_with_the_other_ranks():
    sent, clock = [], [0.0]
    w = NodeWatcher(0, [0, 0, 0, 0], lambda *_: None, lambda r, m: sent.append((r, m)), lambda: clock[0],
                    lambda pid, st: "S", Config(), seed=1, relay_s=0.25)
    for rank in range(4):
        w.from_rank(beat(rank, c={"g": 0, "s": 2, "op": "all_reduce"}))
        w.from_rank({"v": 1, "k": "s", "r": rank, "pid": 100 + rank, "st": 5, "hk": "h", "ps": "S", "cpu": 9, "n": 1})
    clock[0] = 0.1
    w.tick()
    assert sorted(r for r, _ in sent) == [0, 1, 2, 3]  # one datagram per rank, not one per peer
    assert all(msg["k"] == "L" for _, msg in sent)  # no "F": every member is on this node
    for rank, msg in sent:
        assert schema.valid("w0", msg), msg
        entries = {e["r"]: e for e in msg["rs"]}
        assert sorted(entries) == sorted(set(range(4)) - {rank})
        assert all(e["b"]["pid"] == 100 + r and e["b"]["c"]["s"] == 2 for r, e in entries.items())
        assert all(e["s"]["ps"] == "S" and e["a"] == pytest.approx(0.1) for e in entries.values())
    sent.clear()
    clock[0] = 0.2
    w.tick()
    assert sent == []  # not before the next rank tick
    w.from_rank(dict(beat(3), k="e", end={"ok": True}))
    clock[0] = 0.4
    w.tick()
    assert sorted(r for r, _ in sent) == [0, 1, 2]  # an ended rank gets no more digests


def test_a_rank_alone_on_its_node_gets_no_digest():
    sent = []
    w = NodeWatcher(1, [0, 1], lambda *_: None, lambda r, m: sent.append(r), lambda: 1.0, lambda pid, st: "S",
                    Config(), seed=1, relay_s=0.25)
    w.from_rank(beat(1))
    w.tick()
    assert sent == []


# -- the rank's side: where its beats go -------------------------------------------------------------


def me(rank, world):
    return RankInfo(rank, rank, world, "host", 1, Path("/tmp/log"), None)


def test_a_relayed_rank_beats_to_one_address_and_learns_its_peers_from_the_digest():
    eps = [("127.0.0.1", p) for p in free_ports(4)]
    m = heartbeat.Mesh(me(2, 4), eps, lambda _: None, key=seal.new_key())
    try:
        now = time.monotonic()
        for peer in m.local_peers():
            peer.last_seen = now - 0.5  # heard (its first beat came directly)
        assert m.watcher_addr == eps[0] and not m.leads
        assert len(link.direct_peers(m, now)) == 2  # no digest yet: rank 0 is the watcher's port, ranks 1, 3 direct
        assert m.payload().get("dr") is True
        entry = {"r": 1, "a": 0.05, "b": {"p": eps[1][1], "pid": os.getpid(), "st": m.start_time, "hk": "h",
                                          "ph": "evaluate", "sp": 7, "c": {"g": 0, "s": 4, "op": "all_reduce"}}}
        link.from_watcher(m, {"k": "L", "rs": [entry]}, now)
        assert link.direct_peers(m, now) == []  # relayed: the watcher only
        assert "dr" not in m.payload()
        peer = m.peers[1]
        assert peer.info["sp"] == 7 and peer.last_seen == pytest.approx(now - 0.05) and (0, 4) in peer.fps
        assert len(link.direct_peers(m, now, everyone=True)) == 2  # the first beat, check mode, "end"
        m.peers[3].direct_until = now + 1.0  # rank 3 said it hears no digest
        assert [p.rank for p in link.direct_peers(m, now)] == [3]
        later = now + link.RELAY_QUIET_S + 0.1
        assert len(link.direct_peers(m, later)) == 2  # the digests stopped: direct again
    finally:
        m.stop()
        m._sock.close()  # noqa: SLF001


def test_a_digest_never_puts_older_news_over_newer():
    eps = [("127.0.0.1", p) for p in free_ports(3)]
    m = heartbeat.Mesh(me(1, 3), eps, lambda _: None, key=seal.new_key())
    try:
        now = time.monotonic()
        peer = m.peers[2]
        peer.last_seen, peer.info = now, {"sp": 9}
        link.from_watcher(m, {"k": "L", "rs": [{"r": 2, "a": 0.5, "b": {"sp": 8}}]}, now)
        assert peer.info == {"sp": 9} and peer.last_seen == now
    finally:
        m.stop()
        m._sock.close()  # noqa: SLF001


# -- real processes on loopback: datagrams per rank per tick, at two and four ranks -------------------


@contextmanager
def one_node(world):
    """``world`` meshes in this process (one node), with the real watcher of the lowest and real
    sidecars, once every one hears the watcher's digests and the start's direct beats ("dr")
    have expired."""
    key = seal.new_key()
    eps = [("127.0.0.1", p) for p in free_ports(world)]
    meshes = [heartbeat.Mesh(me(r, world), eps, lambda _: None, tick=TICK, key=key) for r in range(world)]
    try:
        for m in meshes:
            m.start()
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline and not all(link.relayed(m, time.monotonic()) for m in meshes):
            time.sleep(0.05)
        time.sleep(link.RELAY_QUIET_S + 0.2)
        yield meshes
    finally:
        for m in meshes:
            m.send_end({"ok": True})
        for m in meshes:
            m.stop()
            m._sock.close()  # noqa: SLF001
            if m.watcher is not None:
                m.watcher.kill()
                m.watcher.wait()


def received_per_tick(world):
    """Datagrams each rank's channel accepted per tick, over 2 s."""
    with one_node(world) as meshes:
        before, t0 = [m.stats.accepted for m in meshes], time.monotonic()
        time.sleep(2.0)
        ticks = (time.monotonic() - t0) / TICK
        assert all(m.peers[r].last_seen is not None for m in meshes for r in m.peers)
        return max((m.stats.accepted - b) / ticks for m, b in zip(meshes, before))


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="the sidecars read /proc")
def test_datagrams_a_rank_receives_per_tick_do_not_grow_with_the_ranks_on_its_node():
    two, four = received_per_tick(2), received_per_tick(4)
    # Relayed: one digest a tick at any size (before the relay: 2 per peer, so 2 at W=2, 6 at W=4).
    assert four <= 1.5 * max(two, 1.0), (two, four)
    assert four <= 1.6, four


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="the sidecars read /proc")
def test_with_its_watcher_killed_a_node_s_ranks_beat_each_other_directly_again():
    with one_node(3) as meshes:
        leader = meshes[0]
        assert all(link.relayed(m, time.monotonic()) for m in meshes) and leader.watcher is not None
        leader.watcher.kill()
        leader.watcher.wait()
        time.sleep(link.RELAY_QUIET_S + 1.0)
        now = time.monotonic()
        for m in meshes:
            assert not link.relayed(m, now)
            assert all(now - p.last_seen < 0.5 for p in m.peers.values()), [p.silence(now) for p in m.peers.values()]
            assert m.side_direct  # and its sidecar beats to the peers again
            assert all(now - p.side_seen < 0.5 for p in m.peers.values())
