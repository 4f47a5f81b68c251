"""Issue 31, item 5: ``paddle-doctor smoke`` across two real hosts, as a user runs it on their own
nodes (docs/smoke.md, "Several nodes"): the same command on each host, the master's first."""

from __future__ import annotations

import sys
import time

import pytest

from hostkit.fixtures import NEEDS_NETNS, make_hosts, record_scenario  # noqa: F401 (fixtures)
from hostkit.jobs import MASTER_PORT, host_env, wait_listening

pytestmark = [pytest.mark.integration, NEEDS_NETNS]


@pytest.mark.timeout(150)
def test_smoke_passes_across_two_hosts(make_hosts, tmp_path):
    hosts = make_hosts(2)
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "smoke", "--nproc", "1", "--nnodes", "2",
           "--master", f"{hosts.addr(0)}:{MASTER_PORT}", "--timeout", "100"]
    start, procs = time.monotonic(), []
    for i, name in enumerate(hosts.hostnames):
        (tmp_path / name).mkdir()
        if i:
            wait_listening(hosts, 0, MASTER_PORT, start + 40)
        procs.append(hosts.start(i, cmd, cwd=tmp_path / name, env=host_env(), out=tmp_path / name / "out.txt"))
    for proc in procs:
        proc.wait(timeout=120)
    outs = [(tmp_path / name / "out.txt").read_text() for name in hosts.hostnames]
    assert [p.returncode for p in procs] == [0, 0], outs
    for rank, out in enumerate(outs):
        assert f"ranks reporting here: {rank}" in out and "SMOKE PASSED" in out, out
    print(f"smoke across two hosts: passed in {time.monotonic() - start:.1f} s")
