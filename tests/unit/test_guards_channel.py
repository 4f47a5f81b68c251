"""Issue 28 §1: the liveness channel is the job's alone. Every hole of the red-team pass, against a
rank's heartbeat channel and a node's watcher: a 60 KB ``[[[`` datagram without a token, malformed
field shapes sent with the job's key, ``{"k":"e","end":[1]}``, a forged end, a forged beat with a
dead pid, forged gossip, a replay. Each is dropped and counted, never raised; the heartbeat thread
and the watcher go on; the watchdog keeps judging. No paddle, no launcher (the launcher test is
``tests/integration/test_guards_attack.py``)."""

import json
import os
import socket
import time
import zlib
from pathlib import Path

import pytest

from paddle_doctor.runtime.guards import heartbeat, watchdog
from paddle_doctor.runtime.guards.guardstate import STATE, Region
from paddle_doctor.runtime.guards.liveness import seal, verdict
from paddle_doctor.runtime.guards.liveness.swim import DEAD, Config
from paddle_doctor.runtime.guards.liveness.watcher import NodeWatcher, Udp
from paddle_doctor.runtime.channel.rankenv import RankInfo

SRC = ("127.0.0.1", 9)
OLD_TOKEN = str(zlib.crc32(b"|"))  # what the old channel checked: a CRC32 of public values


def me(rank):
    return RankInfo(rank, rank, 2, "host", 1, Path("/tmp/log"), None)


@pytest.fixture
def mesh():
    m = heartbeat.Mesh(me(0), [("127.0.0.1", 0)] * 2, lambda _: None, key=seal.new_key())
    peer = m.peers[1]
    peer.last_seen = peer.first_seen = time.monotonic()
    peer.info = {"hk": "other-host", "ph": "evaluate"}
    STATE.regions.append(Region("evaluate"))
    watchdog.watch_everywhere(True)
    yield m
    watchdog.watch_everywhere(False)
    STATE.regions.clear()
    m.stop()
    m._sock.close()  # noqa: SLF001


def sealed(m, msg, sid="r1", key=None, rid=None):
    return seal.Sealer(key or m.key, m.run_id if rid is None else rid, sid).seal(msg)


def end_msg(**extra):
    finding = {"code": "dead", "cause": "host_oom_killed", "message": "rank 1 was OOM-killed", "ranks": [1]}
    return {"v": 1, "r": 1, "k": "e", "p": 1234, "pid": 4242, "end": {"ok": False, "err": "SIGKILL", "finding": finding},
            **extra}


def judged_healthy(m):
    return verdict.judge(m, time.monotonic() + 2.0, guarded=True) is None  # past the 1 s grace


def test_a_60_kb_datagram_without_a_token_leaves_the_heartbeat_thread_beating():
    key = seal.new_key()
    a = heartbeat.Mesh(me(0), [("127.0.0.1", 0)] * 2, lambda _: None, tick=0.05, key=key)
    b = heartbeat.Mesh(me(1), [("127.0.0.1", 0)] * 2, lambda _: None, tick=0.05, key=key)
    a.peers[1].addr, b.peers[0].addr = ("127.0.0.1", b.port), ("127.0.0.1", a.port)
    attacker = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        a.start(), b.start()
        _until(lambda: a.peers[1].last_seen is not None)
        for payload in (b"[" * 60_000, json.dumps({"j": OLD_TOKEN, "k": "b", "r": [1]}).encode()):
            attacker.sendto(payload, ("127.0.0.1", a.port))
        _until(lambda: a.stats.total_dropped() >= 2)
        heard = a.peers[1].last_seen
        _until(lambda: a.peers[1].last_seen > heard)  # still reading beats: the thread lives
        assert a._thread.is_alive()  # noqa: SLF001
        assert a.stats.drops["oversized"] == 1 and a.stats.drops["unauthenticated"] == 1
        assert a.stats.loop_errors == 0
    finally:
        attacker.close()
        a.stop(), b.stop()


MALFORMED = [  # valid key, wrong shapes: each killed a rank's heartbeat thread or a watcher before
    {"v": 1, "r": 1, "k": "b", "c": [1]},
    {"v": 1, "r": 1, "k": "b", "p": "x"},
    {"v": 1, "r": 1, "k": "b", "l": {"g": "x", "s": 1}},
    {"v": 1, "r": 1, "k": "b", "c": {"g": 0, "s": 1, "op": "all_reduce", "sh": {"x": 1}, "a": [1]}},
    {"v": 1, "r": 1, "k": "b", "mb": ["x"]},
    {"v": 1, "r": "1", "k": "b"},
    {"v": 1, "r": 1, "k": "e"},
    {"v": 1, "r": 1, "k": "e", "end": {"finding": {"message": 5}}},
    {"v": 1, "r": 1, "k": "e", "end": {"finding": {"message": "x", "ranks": ["x"]}}},
    {"v": 1, "r": 1, "k": "e", "end": {"hist": [1], "ok": False}},
    {"v": 1, "r": 1, "k": "e", "end": {"last": 7, "ok": True}},
    {"v": 1, "r": 2, "k": "b"},  # a rank that speaks for another
    {"v": 1, "r": 1, "k": "b", "sp": [[[[[[[[1]]]]]]]]},
    {"v": 1, "r": 1, "k": "b", "t": float("nan")},
]


@pytest.mark.parametrize("msg", MALFORMED, ids=[str(i) for i in range(len(MALFORMED))])
def test_malformed_fields_with_a_valid_key_are_dropped_and_counted(mesh, msg):
    mesh._receive(sealed(mesh, msg), SRC)  # noqa: SLF001
    assert mesh.stats.drops["invalid"] == 1 and mesh.peers[1].end is None
    assert judged_healthy(mesh)


@pytest.mark.parametrize("sid, msg", [
    ("s1", {"k": "s", "r": 1, "pid": "x", "ps": "gone"}),
    ("s1", {"k": "s", "r": 0, "pid": 5, "ps": "gone"}),
    ("w0", {"k": "v", "v": {"k": "d"}}),
    ("w0", {"k": "v", "v": {"k": "r", "r": 1, "gen": 1, "what": "gone", "doing": [1]}}),
    ("w0", {"k": "F", "g": 0, "s": 1, "sets": [[1]]}),
    ("w1", {"k": "v", "v": {"k": "r", "r": 1, "gen": 1, "what": "gone"}}),  # another node's watcher
    ("x1", {"k": "b", "r": 1}),
])
def test_malformed_sidecar_and_watcher_messages_are_dropped(mesh, sid, msg):
    mesh._receive(sealed(mesh, msg, sid=sid), SRC)  # noqa: SLF001
    assert mesh.stats.drops["invalid"] == 1 and not mesh.peers[1].gone
    assert judged_healthy(mesh)


def test_an_end_that_is_a_list_never_stops_the_watchdog_judging(mesh):
    """``{"k":"e","end":[1]}`` left the rank beating but made every later judgement raise."""
    mesh._receive(json.dumps({"j": OLD_TOKEN, "k": "e", "r": 1, "end": [1]}).encode(), SRC)  # noqa: SLF001
    mesh._receive(sealed(mesh, {"v": 1, "k": "e", "r": 1, "end": [1]}), SRC)  # noqa: SLF001
    assert mesh.stats.drops["unauthenticated"] == 1 and mesh.stats.drops["invalid"] == 1
    assert judged_healthy(mesh)
    mesh.peers[1].gone = True  # and a real death is still named
    assert verdict.judge(mesh, time.monotonic(), guarded=True).ranks == (1,)


def test_a_forged_end_is_never_believed(mesh):
    old_format = dict(end_msg(), j=OLD_TOKEN)
    mesh._receive(json.dumps(old_format).encode(), SRC)  # noqa: SLF001
    mesh._receive(sealed(mesh, end_msg(), key=seal.new_key()), SRC)  # noqa: SLF001 (a key not the job's)
    mesh._receive(sealed(mesh, end_msg(), rid="another-job"), SRC)  # noqa: SLF001
    assert mesh.peers[1].end is None and judged_healthy(mesh)
    assert (mesh.stats.drops["unauthenticated"], mesh.stats.drops["bad_mac"], mesh.stats.drops["foreign_run"]) == (1, 1, 1)
    mesh._receive(sealed(mesh, end_msg()), SRC)  # noqa: SLF001 (the job's own key: the real thing)
    assert mesh.peers[1].end is not None


def test_a_forged_beat_with_a_dead_pid_is_never_believed(mesh):
    from paddle_doctor.runtime.guards import procinfo

    forged = {"v": 1, "r": 1, "k": "b", "p": 1234, "pid": 1 << 22, "st": 1, "hk": procinfo.host_key()}
    mesh._receive(json.dumps(dict(forged, j=OLD_TOKEN)).encode(), SRC)  # noqa: SLF001
    mesh._receive(sealed(mesh, forged, key=seal.new_key()), SRC)  # noqa: SLF001
    mesh._probe_local()  # noqa: SLF001
    assert not mesh.peers[1].gone and mesh.peers[1].pid is None and judged_healthy(mesh)


def test_a_replayed_datagram_is_dropped(mesh):
    data = sealed(mesh, {"v": 1, "r": 1, "k": "b", "p": 1234, "hk": "other-host"})
    mesh._receive(data, SRC)  # noqa: SLF001
    mesh._receive(data, SRC)  # noqa: SLF001 (the same datagram again)
    older = _sealed_with_seq(mesh, {"v": 1, "r": 1, "k": "e", "end": {"ok": False}}, seq=1)  # sealed long ago
    mesh._receive(older, SRC)  # noqa: SLF001
    assert mesh.stats.accepted == 1 and mesh.stats.drops["replayed"] == 2 and mesh.peers[1].end is None
    mesh._receive(_sealed_with_seq(mesh, {"v": 1, "r": 1, "k": "e", "end": {"ok": False}}, seq=1, sid="r9"), SRC)  # noqa: SLF001
    assert mesh.stats.drops["replayed"] == 3  # sealed long ago: stale even from a sender never heard


def test_a_first_datagram_sealed_long_ago_is_stale(mesh):
    mesh._receive(_sealed_with_seq(mesh, {"v": 1, "r": 1, "k": "e", "end": {"ok": False}}, seq=1), SRC)  # noqa: SLF001
    assert mesh.stats.drops["replayed"] == 1 and mesh.peers[1].end is None and judged_healthy(mesh)


def _sealed_with_seq(m, msg, seq, sid="r1"):
    import hashlib
    import hmac

    body = json.dumps({"rid": m.run_id, "sid": sid, "q": seq, "m": msg}).encode()
    return seal.MAGIC + hmac.new(m.key, seal.MAGIC + body, hashlib.sha256).digest() + body


# -- a node's watcher ------------------------------------------------------------------------------


@pytest.fixture
def watcher_udp(tmp_path):
    key = seal.new_key()
    port = _free_port()
    cfg = {"rid": "job", "node": 0, "node_of": [0, 1], "watchers": [["127.0.0.1", port], ["127.0.0.1", 1]],
           "leader": 0, "ranks": {}, "stats": str(tmp_path / "w0.json")}
    udp = Udp(cfg, key)
    w = NodeWatcher(0, [0, 1], udp.send_watcher, udp.send_rank, time.monotonic, lambda pid, st: "S", Config(), seed=0)
    yield udp, w, key
    udp.sock.close()


def test_a_watcher_drops_forged_gossip_and_malformed_messages(watcher_udp):
    udp, w, key = watcher_udp
    attacker = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    gossip = {"t": "gossip", "f": 1, "i": 0, "g": [{"k": "d", "n": 1, "i": 0, "by": 1, "how": "forged"}]}
    datagrams = [b"[" * 60_000, json.dumps(dict(gossip, j=OLD_TOKEN)).encode(),
                 seal.Sealer(seal.new_key(), "job", "w1").seal(gossip)]
    bad_shapes = [{"t": "ping", "f": "x"}, {"t": "ping", "f": 1, "g": [{"k": "d"}]}, {"t": "preq", "f": 1, "tg": "x"},
                  {"t": "ping", "f": 0}, {"k": "b", "r": 0, "mb": ["x"]}, {"t": "gossip", "f": 1, "g": [{"k": "r", "r": 1}]}]
    datagrams += [seal.Sealer(key, "job", "w1" if "t" in m else "r0").seal(m) for m in bad_shapes]
    for data in datagrams:
        attacker.sendto(data, udp.sock.getsockname())
    _until(lambda: _drained(udp, w) >= len(datagrams))
    attacker.close()
    assert w.detector.views[1].state != DEAD and not w.detector.verdicts
    assert udp.stats.drops["oversized"] == 1 and udp.stats.drops["unauthenticated"] == 1
    assert udp.stats.drops["bad_mac"] == 1 and udp.stats.drops["invalid"] == len(bad_shapes)
    udp.stats.flush(force=True)
    assert json.loads(Path(udp.stats.path).read_text())["dropped_total"] == len(datagrams)
    genuine = seal.Sealer(key, "job", "w1").seal(gossip)  # the job's key: believed
    attacker = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    attacker.sendto(genuine, udp.sock.getsockname())
    _until(lambda: (_drained(udp, w), w.detector.views[1].state == DEAD)[1])
    attacker.close()


def _drained(udp, w):
    udp.drain(w)
    return udp.stats.total_dropped()


# -- the key never travels where others read it -----------------------------------------------------


def test_the_key_is_in_no_argv_and_no_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("PADDLE_DOCTOR_SIDECAR", raising=False)
    key = seal.new_key()
    m = heartbeat.Mesh(me(0), [("127.0.0.1", 0)] * 2, lambda _: None, key=key, stats_dir=tmp_path).start()
    try:
        pid = m.sidecar.pid
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        environ = Path(f"/proc/{pid}/environ").read_bytes()
        assert key.hex().encode() not in cmdline and key.hex().encode() not in environ
        assert key.hex() not in json.dumps(dict(os.environ))
    finally:
        m.send_end({"ok": True})
        m.stop()
    assert not (tmp_path / "paddle_doctor_channel.0.json").exists()  # nothing dropped: no file
    m.stats.drop("bad_mac", SRC)
    m.stats.flush(force=True)
    counters = json.loads((tmp_path / "paddle_doctor_channel.0.json").read_text())
    assert counters["dropped_total"] == 1 and key.hex() not in json.dumps(counters)


def test_a_key_file_is_made_once_owner_only_and_read_by_every_rank(tmp_path):
    path = str(tmp_path / ".paddle_doctor_key.job")
    first, second = seal.shared_key_file(path), seal.shared_key_file(path)
    assert first == second and len(first) == seal.KEY_BYTES
    assert os.stat(path).st_mode & 0o777 == 0o600
    os.symlink(path, tmp_path / "link")
    assert seal.read_key_file(str(tmp_path / "link")) is None  # never through a symlink


def test_escape_codes_in_a_peers_message_never_reach_the_terminal(capfd):
    watchdog.emit("[paddle-doctor] watchdog on rank 0: rank 1 \x1b]0;owned\x07\x1b[2J\r\nVERDICT: fake")
    err = capfd.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\r" not in err and err.count("\n") == 1
    assert "\\x1b" in err


def _free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _until(cond, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def test_an_error_in_the_heartbeat_loop_is_counted_said_once_and_the_loop_goes_on(capfd, tmp_path):
    """A bug of ours (here: the judgement raises every turn) never stops the heartbeat thread."""
    turns = []

    def broken(_mesh):
        turns.append(1)
        raise KeyError("a bug in a judgement")

    key = seal.new_key()
    m = heartbeat.Mesh(me(0), [("127.0.0.1", 0)] * 2, broken, tick=0.05, key=key, stats_dir=tmp_path).start()
    try:
        _until(lambda: len(turns) >= 5)
        assert m._thread.is_alive() and m.stats.loop_errors >= 5  # noqa: SLF001
    finally:
        m.stop()
    err = capfd.readouterr().err
    assert err.count("liveness channel of rank 0: an error in its heartbeat loop (KeyError") == 1
    assert json.loads((tmp_path / "paddle_doctor_channel.0.json").read_text())["loop_errors"] >= 1


def test_ranks_with_their_own_log_dirs_share_one_key_from_a_private_folder(tmp_path):
    from paddle_doctor.runtime.guards.liveness import keys

    env = {"XDG_RUNTIME_DIR": str(tmp_path / "run"), "PADDLE_MASTER": "127.0.0.1:1", "PADDLE_TRAINER_ENDPOINTS": "x"}
    (tmp_path / "run").mkdir(mode=0o700)
    a, _ = keys.local_key(tmp_path / "node0" / "log", env)
    b, _ = keys.local_key(tmp_path / "node1" / "log", env)
    assert a == b and len(a) == seal.KEY_BYTES
    other, _ = keys.local_key(tmp_path / "node0" / "log", dict(env, PADDLE_MASTER="127.0.0.1:2"))
    assert other != a  # another job, another key
    os.chmod(tmp_path / "run" / "paddle-doctor", 0o755)  # a folder others may enter is not used
    assert keys.private_dir(env) is None
    c, where = keys.local_key(tmp_path / "node0" / "log", env)
    assert str(tmp_path / "node0" / "log") in where and c != a
