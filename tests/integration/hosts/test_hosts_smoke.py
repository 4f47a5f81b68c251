"""Issue 31, item 5: ``paddle-doctor smoke`` across two real hosts, as a user runs it on their own
nodes (docs/smoke.md, "Several nodes"): the same command on each host, the master's first."""

from __future__ import annotations

import sys
import time

import pytest

from hostkit.fixtures import NEEDS_NETNS, make_hosts, record_scenario  # noqa: F401 (fixtures)
from hostkit.jobs import MASTER_PORT, host_env, wait_listening

pytestmark = [pytest.mark.integration, NEEDS_NETNS]


def _smoke_on_each_host(hosts, tmp_path, extra: list[str]) -> tuple[list, list[str], float]:
    """The same smoke command on each host, the master's first (the next once the master listens)."""
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "smoke", "--nproc", "1", "--timeout", "100", *extra]
    start, procs = time.monotonic(), []
    for i, name in enumerate(hosts.hostnames):
        (tmp_path / name).mkdir()
        if i:
            wait_listening(hosts, 0, MASTER_PORT, start + 40)
        procs.append(hosts.start(i, cmd, cwd=tmp_path / name, env=host_env(), out=tmp_path / name / "out.txt"))
    for proc in procs:
        proc.wait(timeout=120)
    outs = [(tmp_path / name / "out.txt").read_text() for name in hosts.hostnames]
    return procs, outs, time.monotonic() - start


@pytest.mark.timeout(150)
def test_smoke_passes_across_two_hosts(make_hosts, tmp_path):
    hosts = make_hosts(2)
    procs, outs, took = _smoke_on_each_host(hosts, tmp_path, ["--nnodes", "2", "--master",
                                                             f"{hosts.addr(0)}:{MASTER_PORT}"])
    assert [p.returncode for p in procs] == [0, 0], "\n\n".join(f"--- node {i} ---\n{out}" for i, out in enumerate(outs))
    for rank, out in enumerate(outs):
        assert f"ranks reporting here: {rank}" in out and "SMOKE PASSED" in out, out
    print(f"smoke across two hosts: passed in {took:.1f} s")


@pytest.mark.timeout(150)
def test_smoke_with_the_host_list_passes_and_each_node_knows_which_it_is(make_hosts, tmp_path):
    hosts = make_hosts(2)
    procs, outs, _ = _smoke_on_each_host(hosts, tmp_path, ["--hosts", f"{hosts.addr(0)}:{MASTER_PORT},{hosts.addr(1)}"])
    # each node's whole output as text (a list's repr is cut short in pytest's report): what a node that failed said
    assert [p.returncode for p in procs] == [0, 0], "\n\n".join(f"--- node {i} ---\n{out}" for i, out in enumerate(outs))
    assert f"this machine is {hosts.addr(0)}, the master" in outs[0], outs[0]
    assert f"this machine is {hosts.addr(1)}, node 1" in outs[1], outs[1]
    for rank, out in enumerate(outs):
        assert f"ranks reporting here: {rank}" in out and "SMOKE PASSED" in out, out


@pytest.mark.timeout(90)
def test_smoke_with_the_host_list_stops_a_node_that_would_advertise_loopback(make_hosts, tmp_path):
    """Host B's name resolves to 127.0.0.1 in its own /etc/hosts (the wrong_host_ip scenario): with
    --hosts, B says so and exits 2 before launching anything, instead of a job that hangs or fails."""
    hosts = make_hosts(2)
    hosts.set_hosts_file(1, {hosts.hostnames[1]: "127.0.0.1"})
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "smoke", "--nproc", "1", "--timeout", "30",
           "--hosts", f"{hosts.addr(0)}:{MASTER_PORT},{hosts.addr(1)}"]
    proc = hosts.start(1, cmd, cwd=tmp_path, env=host_env(), out=tmp_path / "out.txt")
    proc.wait(timeout=60)
    out = (tmp_path / "out.txt").read_text()
    assert proc.returncode == 2 and "wrong_host_ip" in out and "127.0.0.1" in out, out
    assert "launching" not in out and not (tmp_path / "paddle-doctor-smoke").exists(), out
