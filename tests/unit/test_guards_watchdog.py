"""The watchdog's judgement on its peers' heartbeats, and the heartbeat channel itself (two meshes
in this process, on loopback). No paddle, no launcher."""

import time
from pathlib import Path

import pytest

from paddle_doctor.diagnose.signatures import match_line
from paddle_doctor.runtime.guards import heartbeat, watchdog
from paddle_doctor.runtime.guards.guardfinding import guard_finding
from paddle_doctor.runtime.guards.guardstate import STATE, Region
from paddle_doctor.runtime.guards.liveness import seal
from paddle_doctor.runtime.channel.rankenv import RankInfo
from paddle_doctor.runtime.guards.trace import Entry


def me(rank=0, world=2):
    return RankInfo(rank, rank, world, "host", 1, Path("/tmp/log"), None)


@pytest.fixture
def mesh():
    m = heartbeat.Mesh(me(0, 3), [("127.0.0.1", 0)] * 3, lambda _: None)
    yield m
    m.stop()
    STATE.regions.clear()
    STATE.current = STATE.last = None


def beat(peer, ago=0.0, **info):
    peer.last_seen = peer.first_seen = time.monotonic() - ago
    peer.info = {"hk": "other-host", **info}


def entry(seq=5, op="all_reduce", site="eval.py:60", n=3):
    return Entry(seq, 0, None, op, [[2]], ["float32"], {"op": 0}, site, "evaluate", n, hist={site: n})


def test_healthy_and_slow_peers_raise_no_alarm(mesh):
    beat(mesh.peers[1], ago=0.1, ph="evaluate", sp=3)
    beat(mesh.peers[2], ago=0.2)
    STATE.regions.append(Region("evaluate"))
    assert watchdog.judge(mesh, time.monotonic()) is None


def test_a_dead_peer_is_named_at_once_even_outside_a_guarded_region_when_installed(mesh):
    beat(mesh.peers[1], ph="evaluate", sp=2, l={"g": 0, "s": 1, "op": "all_reduce", "site": "eval.py:60"})
    beat(mesh.peers[2])
    mesh.peers[1].gone = True
    assert watchdog.judge(mesh, time.monotonic()) is None  # evaluate() alone: not waiting for it now
    watchdog.watch_everywhere(True)
    try:
        v = watchdog.judge(mesh, time.monotonic())
    finally:
        watchdog.watch_everywhere(False)
    assert (v.code, v.ranks, v.cause) == ("dead", (1,), "host_oom_killed")
    assert "rank 1 died without a word" in v.message and "in evaluate step 2, after all_reduce #1" in v.message


def test_a_silent_peer_is_stuck_only_inside_a_guarded_region(mesh):
    beat(mesh.peers[1])
    beat(mesh.peers[2], ago=11.0, c={"g": 0, "s": 4, "op": "all_reduce", "site": "eval.py:60"})
    mesh.peers[2].proc_state = "T"
    assert watchdog.judge(mesh, time.monotonic()) is None  # not waiting for anyone
    STATE.current = entry()
    v = watchdog.judge(mesh, time.monotonic())
    assert (v.code, v.ranks, v.cause) == ("stuck", (2,), "collective_timeout")
    assert "no heartbeat for 11.0 s" in v.message and "stopped (state T" in v.message
    assert "inside all_reduce #4" in v.message


def test_the_deadline_comes_from_the_region(mesh):
    beat(mesh.peers[1], ago=3.0)
    beat(mesh.peers[2])
    STATE.regions.append(Region("evaluate", deadline=2.0))
    assert watchdog.judge(mesh, time.monotonic()).ranks == (1,)


def test_a_failed_peer_and_a_reported_verdict(mesh):
    beat(mesh.peers[1])
    beat(mesh.peers[2])
    mesh.peers[2].end = {"ok": False, "err": "ValueError"}
    STATE.regions.append(Region("evaluate"))
    v = watchdog.judge(mesh, time.monotonic())
    assert (v.code, v.ranks) == ("failed", (2,)) and "paddle_doctor_error.2.json" in v.message
    reported = guard_finding("stuck", [2], "rank 2 has sent no heartbeat")
    mesh.peers[1].end = {"ok": False, "err": "watchdog", "finding": reported.to_dict()}
    v = watchdog.judge(mesh, time.monotonic())  # a reported finding names the same culprit on every rank
    assert (v.code, v.ranks, v.cause) == ("stuck", (2,), "collective_timeout")
    assert v.message.endswith("(reported by rank 1)")


def test_dead_comes_before_stuck(mesh):
    beat(mesh.peers[1], ago=20)
    beat(mesh.peers[2])
    mesh.peers[2].gone = True
    STATE.regions.append(Region("evaluate"))
    assert watchdog.judge(mesh, time.monotonic()).code == "dead"


def test_a_peer_that_finished_while_we_wait_in_a_collective(mesh):
    beat(mesh.peers[1])
    beat(mesh.peers[2])
    mesh.peers[2].end = {"ok": True, "hist": {"eval.py:60": 2}, "last": {"g": 0, "s": 4, "op": "all_reduce"}}
    assert watchdog.judge(mesh, time.monotonic()) is None  # not in a collective: nobody waits for it
    STATE.current = entry(seq=5, site="eval.py:60", n=3)
    v = watchdog.judge(mesh, time.monotonic())
    assert (v.code, v.cause, v.ranks) == ("uneven", "uneven_eval_batches", (0,))


def test_a_peer_never_heard_from_is_missing_once_the_deadline_has_passed(mesh):
    """A rank that froze or died before its first heartbeat (the hang of issue 8)."""
    beat(mesh.peers[1])
    STATE.regions.append(Region("evaluate", deadline=2.0))
    mesh.started = time.monotonic() - 1.0
    assert watchdog.judge(mesh, time.monotonic()) is None  # it may still be on its way
    mesh.started = time.monotonic() - 2.5
    v = watchdog.judge(mesh, time.monotonic())
    assert (v.code, v.cause, v.ranks, v.confidence.value) == ("missing", "collective_timeout", (2,), "medium")
    assert "rank 2 has not been heard from in 2.5 s" in v.message
    STATE.regions.clear()
    assert watchdog.judge(mesh, time.monotonic()) is None  # nobody waits for it outside a region


def test_a_never_heard_peer_that_refuses_is_dead_when_this_rank_ends_anyway(mesh):
    beat(mesh.peers[1])
    mesh.peers[2].refused = heartbeat.REFUSALS_FOR_DEAD
    assert watchdog.judge(mesh, time.monotonic(), guarded=True) is None  # maybe not bound yet: no alarm
    v = watchdog.judge(mesh, time.monotonic(), guarded=True, ending=True)  # SIGTERM from the launcher
    assert (v.code, v.cause, v.ranks) == ("dead", "host_oom_killed", (2,))
    assert "never heard from" in v.message and "nothing listens on its heartbeat port" in v.message


def test_fatal_lines_are_not_mistaken_for_causes_by_diagnose():
    for v in (guard_finding("dead", [1], "rank 1 died without a word: its process is gone "
                            "(killed by a signal, e.g. SIGKILL from the kernel's OOM killer or kill -9)"),
              guard_finding("stuck", [1], "rank 1 has sent no heartbeat for 10.2 s: its "
                            "process is stopped (state T: SIGSTOP or a debugger)"),
              guard_finding("missing", [1], "rank 1 has not been heard from in 10.1 s (no heartbeat since this "
                            "rank started watching): it froze or died before its first heartbeat"),
              guard_finding("crashed", [1], "rank 1 crashed in native code (Fatal Python error: Aborted)")):
        line = watchdog.fatal_line(v, "log/paddle_doctor_error.0.json")
        assert line.startswith("[paddle-doctor] watchdog on rank") and "\n" not in line
        assert match_line(line) is None, line


def test_two_meshes_see_each_other_and_carry_fingerprints_and_ends():
    key = seal.new_key()  # the job's key, shared by its ranks
    a = heartbeat.Mesh(me(0), [("127.0.0.1", 0), ("127.0.0.1", 0)], lambda _: None, tick=0.05, key=key)
    b = heartbeat.Mesh(me(1), [("127.0.0.1", 0), ("127.0.0.1", 0)], lambda _: None, tick=0.05, key=key)
    a.peers[1].addr = ("127.0.0.1", b._static["p"])  # noqa: SLF001 (ports chosen by the OS here)
    b.peers[0].addr = ("127.0.0.1", a._static["p"])  # noqa: SLF001
    try:
        a.start(), b.start()
        STATE.current = entry(seq=7)
        _until(lambda: (0, 7) in b.peers[0].fps)
        assert b.peers[0].fps[(0, 7)]["op"] == "all_reduce"
        STATE.current = None
        a.send_end({"ok": False, "err": "ValueError"})
        _until(lambda: b.peers[0].end is not None)
        assert b.peers[0].end["err"] == "ValueError"
        b.peers[0].info["hk"] = "elsewhere"  # judge it as a remote peer: by ICMP refusals, not /proc
        a.stop()
        a._sock.close()  # noqa: SLF001 (its process "died")
        _until(lambda: b.peers[0].gone)
    finally:
        a.stop(), b.stop()
        STATE.current = None


def _until(cond, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def test_a_peer_that_says_why_it_ends_and_exits_is_never_taken_for_a_silent_death():
    """The race of bench_faults (W3): rank 0's watchdog fires (naming the frozen rank 1), sends its
    end message and exits between two of rank 2's drains. Rank 2 must read that message before it
    calls rank 0 gone, or it names rank 0 "died without a word" instead of the culprit."""
    import subprocess
    import sys

    from paddle_doctor.runtime.guards import procinfo

    b = heartbeat.Mesh(me(2, 3), [("127.0.0.1", 0)] * 3, lambda _: None)  # not started: no drain of its own
    try:
        end = {"ok": False, "err": "watchdog", "finding": {"code": "missing", "message": "rank 1 has not been heard from", "ranks": [1]}}
        msg = seal.Sealer(b.key, b.run_id, "r0").seal({"v": 1, "r": 0, "k": "e", "end": end})
        sender = subprocess.run(
            [sys.executable, "-c", "import socket, sys; socket.socket(socket.AF_INET, socket.SOCK_DGRAM)"
             f".sendto(sys.stdin.buffer.read(), ('127.0.0.1', {b._static['p']}))"],  # noqa: SLF001
            input=msg, check=True, timeout=30)
        assert sender.returncode == 0
        peer = b.peers[0]
        beat(peer, ago=0.05, pid=1 << 22, hk=procinfo.host_key(), ph="evaluate")  # a pid that no longer exists
        b._probe_local()  # noqa: SLF001
        assert peer.gone
        assert peer.end is not None and peer.end["finding"]["ranks"] == [1]
        finding = watchdog.judge(b, time.monotonic(), guarded=True, grace=0.0)
        assert finding is not None and finding.ranks == (1,) and "reported by rank 0" in finding.message
    finally:
        b.stop()


def test_evaluate_raises_a_peers_failure_itself_before_the_watchdog_ends_the_rank(mesh):
    """Issue 20: in a region with ``hold`` (evaluate's), a failed or never-seen peer is left to the
    region's own catchable PeerFailedError for ``hold`` seconds, then the watchdog names it (with the
    region's hint); a rank that is ending anyway judges at once."""
    beat(mesh.peers[1])
    mesh.peers[2].end, mesh.peers[2].end_seen = {"ok": False, "err": "ValueError"}, time.monotonic()
    STATE.regions.append(Region("evaluate", hold=2.0, hint=" (call evaluate on every rank)"))
    assert watchdog.judge(mesh, time.monotonic()) is None
    assert watchdog.judge(mesh, time.monotonic(), ending=True, grace=0.0).code == "failed"
    assert watchdog.judge(mesh, time.monotonic() + 2.1).code == "failed"
    mesh.peers[2].end, mesh.peers[2].last_seen = None, None  # never heard from
    mesh.started = time.monotonic() - 11.0  # past the 10 s deadline, within the hold
    assert watchdog.judge(mesh, time.monotonic()) is None
    mesh.started = time.monotonic() - 12.5
    v = watchdog.judge(mesh, time.monotonic())
    assert v.code == "missing" and v.message.endswith("(call evaluate on every rank)"), v.message


def test_a_never_heard_peer_that_is_alive_on_this_host_is_never_called_dead(mesh, monkeypatch):
    """Issue 28 §9: ranks leave init_parallel_env at different times. A peer that has not beaten yet
    and whose port refuses, but whose process runs (found in /proc by its rank and job), is no death:
    an ending rank's record names nobody rather than "rank 2 died before its first heartbeat"."""
    import subprocess
    import sys

    endpoints = "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3"
    monkeypatch.setenv("PADDLE_TRAINER_ENDPOINTS", endpoints)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                             env={"PADDLE_TRAINER_ID": "2", "PADDLE_TRAINER_ENDPOINTS": endpoints})
    try:
        beat(mesh.peers[1])
        mesh.peers[2].refused = heartbeat.REFUSALS_FOR_DEAD
        mesh.started = time.monotonic() - 0.1  # a rank that is ending 0.1 s after it started watching
        deadline = time.monotonic() + 10
        while not procinfo_runs(2) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert watchdog.judge(mesh, time.monotonic(), guarded=True, ending=True, grace=0.0) is None
    finally:
        child.kill()
        child.wait()
    v = watchdog.judge(mesh, time.monotonic() + 1.0, guarded=True, ending=True, grace=0.0)  # now it is gone
    assert (v.code, v.ranks) == ("dead", (2,))


def procinfo_runs(rank):
    from paddle_doctor.runtime.guards import procinfo

    return procinfo.rank_runs_here(rank)


def test_a_remote_peer_never_heard_of_whose_port_refuses_is_not_called_dead(monkeypatch):
    """Issue 28 §9: across nodes there is no /proc to read; a refused port before a first beat is a
    rank that may still be in init_parallel_env, not a death."""
    monkeypatch.setenv("PADDLE_DOCTOR_RANKS_PER_NODE", "1")
    m = heartbeat.Mesh(me(0, 2), [("127.0.0.1", 0)] * 2, lambda _: None)
    try:
        peer = m.peers[1]
        assert peer.remote
        peer.refused = heartbeat.REFUSALS_FOR_DEAD
        assert watchdog.judge(m, time.monotonic(), guarded=True, ending=True, grace=0.0) is None
        m.remote_news.add(1)
        peer.gone = True  # its node's watcher saw its process vanish: that is a death
        assert watchdog.judge(m, time.monotonic(), guarded=True, ending=True, grace=0.0).ranks == (1,)
    finally:
        m.stop()
