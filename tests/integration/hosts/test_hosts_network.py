"""Issue 31: a host lost (every process in its namespace SIGKILLed at once) and a partition (its
cable, the bridge port, set down) in the middle of an exact evaluation on two real hosts. The
survivors learn it through the node watchers only (no process of the lost side is visible to
them): each must name a rank of the other host, not one of its own, and end, within 10 s."""

from __future__ import annotations

import pytest

from hostkit.fixtures import NEEDS_NETNS, make_hosts, record_scenario  # noqa: F401 (fixtures)
from hostkit.jobs import FaultWhenEvaluating, start_job, wait_job
from paddle_doctor.diagnose import diagnose_paths

pytestmark = [pytest.mark.integration, NEEDS_NETNS]
NAMED_WITHIN_S = 10.0
SLOW_EVAL = ["slow", "-", "160"]  # 20 batches of 0.3 s per rank: the fault lands mid-evaluation


def _survivors_name_the_other_side(job, survivors: dict[int, int]) -> dict[int, float]:
    """survivors: rank -> its host. Each names a rank of another host, and is gone in time."""
    namings, times = job.namings(), {}
    for rank, host in survivors.items():
        line = namings.get(rank, "")
        named = [r for r in job.logs() if f"rank {r} " in line.split(":", 1)[0] + " "]
        assert named and all(job.host_of(r) != host for r in named), (rank, line, job.describe())
        assert rank in job.exits, (rank, job.describe())
        times[rank] = round(job.exits[rank] - job.fault_at, 2)
    assert all(t <= NAMED_WITHIN_S for t in times.values()), times
    return times


@pytest.mark.timeout(120)
def test_a_lost_host_is_named_by_the_other_within_10_s(make_hosts, tmp_path):
    hosts = make_hosts(2)
    job = start_job(hosts, tmp_path, "host_eval.py", SLOW_EVAL, nproc=1)
    wait_job(job, 70, until=FaultWhenEvaluating(1, lambda: hosts.kill_host(1)))
    assert job.fault_at is not None and not job.timed_out, job.describe()
    print("host lost: named in", _survivors_name_the_other_side(job, {r: 0 for r in job.ranks_on(0)}))
    rc = diagnose_paths([str(run.log_dir) for run in job.runs]).root_cause
    assert set(rc.ranks) <= set(job.ranks_on(1)) and rc.ranks, (rc.cause, rc.ranks, rc.message)


@pytest.mark.timeout(120)
def test_a_partition_is_named_on_both_sides_within_10_s(make_hosts, tmp_path):
    hosts = make_hosts(2)
    job = start_job(hosts, tmp_path, "host_eval.py", SLOW_EVAL, nproc=1)
    wait_job(job, 70, until=FaultWhenEvaluating(1, lambda: hosts.link(1, up=False)))
    assert job.fault_at is not None and not job.timed_out, job.describe()
    survivors = {r: h for h in (0, 1) for r in job.ranks_on(h)}
    print("partition: named in", _survivors_name_the_other_side(job, survivors))
    rc = diagnose_paths([str(run.log_dir) for run in job.runs]).root_cause
    assert (rc.cause, rc.ranks) == ("network_partition", ()), (rc.cause, rc.ranks, rc.message)
