"""Issue 31, item 4: the liveness channel between hosts is the job's alone. A third host on the
same network (a namespace on the bridge, no launcher) finds every UDP port the job's two hosts
listen on and sends them forged messages carrying the job's public token (an "end" of rank 1
with an error, a watcher's verdict that node 1 is dead, a sidecar's "stopped", a "gone"), each
replayed 20 times, truncated copies and an oversized datagram. The job must finish, with every
rank's result, and no rank named.

Before the channel carried a per-job key with freshness and validation (issue 28), one forged
datagram with the public token (a CRC32 of PADDLE_MASTER and PADDLE_TRAINER_ENDPOINTS) ended a
healthy job; the forger still sends that token, and the keyed channel drops it all."""

from __future__ import annotations

import json
import re
import sys
import zlib

import pytest

from hostkit.fixtures import NEEDS_NETNS, make_hosts, record_scenario  # noqa: F401 (fixtures)
from hostkit.jobs import HERE, FaultWhenEvaluating, start_job, wait_job

pytestmark = [pytest.mark.integration, NEEDS_NETNS]


def _job_token(envlog: str) -> str:
    env = dict(line.split("=", 1) for line in envlog.splitlines() if "=" in line)
    # what heartbeat.job_token computes today, from values any host of the job can read
    return str(zlib.crc32(f"{env.get('PADDLE_MASTER', '')}|{env.get('PADDLE_TRAINER_ENDPOINTS', '')}".encode()))


@pytest.mark.timeout(120)
def test_forged_replayed_truncated_and_oversized_datagrams_from_a_third_host_change_nothing(make_hosts, tmp_path):
    hosts = make_hosts(3)
    job = start_job(hosts, tmp_path, "host_eval.py", ["slow", "-", "160"], nodes=2)
    sent = {}

    def forge():
        token = _job_token((job.runs[0].log_dir / "envlog.0").read_text())
        before = [hosts.counters(i) for i in (0, 1)]
        targets = [[hosts.addr(i), port] for i in (0, 1) for port in hosts.udp_ports(i)]
        cfg = {"targets": targets, "token": token, "victim_rank": job.ranks_on(1)[0], "victim_node": 1}
        out = hosts.run(2, [sys.executable, str(HERE / "forge.py"), json.dumps(cfg)]).stdout
        sent["count"] = int(re.search(r"PDOC_FORGED (\d+)", out).group(1))
        sent["targets"], sent["before"] = targets, before

    wait_job(job, 70, until=FaultWhenEvaluating(1, forge))
    assert sent.get("count"), ("nothing was sent", job.describe())
    after = [hosts.counters(i) for i in (0, 1)]
    arrived = sum(a["udp_in"] + a["udp_in_errors"] - b["udp_in"] - b["udp_in_errors"]
                  for a, b in zip(after, sent["before"]))
    assert arrived >= sent["count"] * 0.9, (arrived, sent["count"])  # they did reach the job's sockets
    assert job.namings() == {}, job.namings()
    assert sorted(job.results()) == sorted(job.logs()) and len(job.results()) == 2, job.describe()
    assert all(run.proc.returncode == 0 for run in job.runs), job.describe()
    for run in job.runs:  # each host's channel counted the drops (docs/guards.md), all from the third host
        counters = [json.loads(p.read_text()) for p in run.log_dir.glob("paddle_doctor_channel.*.json")]
        assert sum(c["dropped_total"] for c in counters) > 0, (run.hostname, counters)
        assert all(c["first_drop"]["from"].startswith(f"{hosts.addr(2)}:") for c in counters if c["dropped_total"])
