"""Issue 31: an exact evaluation and a failing rank across real hosts (network namespaces, one
launcher per host, ``--master <host 0>:PORT --nnodes N``): the guards between hosts go through the
node watchers on each host's own address, and ``diagnose`` reads several hosts' log dirs."""

from __future__ import annotations

import pytest

from hostkit.fixtures import NEEDS_NETNS, make_hosts, record_scenario  # noqa: F401 (fixtures)
from hostkit.jobs import reference_result, start_job, wait_job
from paddle_doctor.diagnose import diagnose_paths

pytestmark = [pytest.mark.integration, NEEDS_NETNS]
NAMED_WITHIN_S = 10.0


@pytest.mark.timeout(150)
def test_an_exact_evaluate_across_three_hosts_equals_one_process(make_hosts, tmp_path):
    hosts = make_hosts(3)
    job = start_job(hosts, tmp_path, "host_eval.py", ["none", "-", "60"], nproc=1)
    assert wait_job(job, 90), job.describe()
    results = job.results()
    assert sorted(results) == [0, 1, 2], job.describe()
    assert {job.host_of(r) for r in results} == {0, 1, 2}
    want = reference_result(tmp_path, ["none", "-", "60"])
    assert want["num_samples"] == 60
    assert all(r == want for r in results.values()), (results, want)


@pytest.mark.timeout(150)
def test_a_rank_raising_on_host_b_is_named_on_every_survivor_and_by_diagnose(make_hosts, tmp_path):
    hosts = make_hosts(2)
    job = start_job(hosts, tmp_path, "host_eval.py", ["raise", hosts.hostnames[1], "96"], nproc=2)
    wait_job(job, 60)
    t_fault = job.fault_time()
    assert t_fault is not None, job.describe()
    culprit = next(r for r, text in job.logs().items() if "PDOC_FAULT_AT" in text)
    assert job.host_of(culprit) == 1
    survivors = [r for r in job.logs() if r != culprit]
    namings = job.namings()
    for rank in survivors:
        assert f"rank {culprit} " in namings.get(rank, ""), (rank, namings, job.describe())
        assert job.exits[rank] - t_fault <= NAMED_WITHIN_S, (rank, job.exits[rank] - t_fault)
    print("named within", {r: round(job.exits[r] - t_fault, 2) for r in survivors})
    d = diagnose_paths([str(run.log_dir) for run in job.runs])
    rc = d.root_cause
    assert (rc.cause, rc.ranks) == ("python_exception", (culprit,)), (rc.cause, rc.ranks, rc.message)
    assert any(hosts.hostnames[1] in (e.path or "") for e in rc.evidence), rc.evidence
