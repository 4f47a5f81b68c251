"""Issue 31: mistakes of setup across two real hosts, each through the real launcher: a wrong
master port and a mismatched ``--nnodes`` on host B (host A's launcher waits; diagnose of what
host A wrote names the cause), a host name that resolves to a loopback address, the master port
already held on host A, and a /dev/shm too small on host B only. The launches that would wait
forever are bounded, then stopped as Ctrl-C would (SIGTERM, a few seconds for the dumps)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from hostkit.fixtures import NEEDS_NETNS, make_hosts, record_scenario  # noqa: F401 (fixtures)
from hostkit import record
from hostkit.jobs import MASTER_PORT, host_env, host_paths, launcher_cmd, start_job, stop_gently, wait_job
from paddle_doctor.diagnose import diagnose_paths

pytestmark = [pytest.mark.integration, NEEDS_NETNS]
EVAL = ["none", "-", "48"]
WAITS_S = 15.0  # how long the launchers are left waiting before the user gives up
RECORDING = bool(os.environ.get(record.RECORD_VAR))


def _diagnose_host(job, host: int):
    return diagnose_paths(host_paths(job.runs[host])).root_cause


@pytest.mark.timeout(90)
@pytest.mark.parametrize("mistake", ["wrong_master_port", "nnodes_mismatch"])
def test_run_and_diagnose_name_the_nodes_that_never_joined(mistake, make_hosts, tmp_path):
    """Host B given a wrong master port (it never registers), or alone told --nnodes 3: host A's
    launcher (or its rank 0, in the store) waits. The waiting launcher runs under ``paddle-doctor
    run --rendezvous-timeout 5`` (host A, or host B when it alone waits for a third node) and says
    within its deadline which nodes registered; the rest is stopped as Ctrl-C would, and diagnose
    of what host A wrote names config_error."""
    hosts = make_hosts(2)
    a = f"{hosts.addr(0)}:{MASTER_PORT}"
    wrong = {1: launcher_cmd("host_eval.py", EVAL, master=f"{hosts.addr(0)}:{MASTER_PORT + 1}", nnodes=2, nproc=1)}
    waiting = 0 if mistake == "wrong_master_port" else 1
    if mistake == "nnodes_mismatch":
        wrong = {1: launcher_cmd("host_eval.py", EVAL, master=a, nnodes=3, nproc=1)}
    wrong[waiting] = launcher_cmd("host_eval.py", EVAL, master=a, nnodes=len(hosts.hostnames) + (waiting == 1),
                                  nproc=1, run_opts=["--rendezvous-timeout", "5"])
    job = start_job(hosts, tmp_path, "host_eval.py", EVAL, commands=wrong)
    wait_job(job, 30, until=lambda j: j.runs[waiting].proc.poll() is not None)
    said = job.runs[waiting].terminal()
    want = {"wrong_master_port": f"1 of 2 nodes registered with the master at {a} ({hosts.addr(0)}); 1 never did",
            "nnodes_mismatch": f"2 of 3 nodes registered with the master at {a} ({hosts.addr(0)}, {hosts.addr(1)}); "
                               "1 never did"}[mistake]
    assert "rendezvous not complete after 5 s" in said and want in said, said[-3000:]
    assert time.monotonic() - job.started < 25
    assert any(r.proc.poll() is None for r in job.runs), "the other host's launcher should still be waiting"
    stop_gently(job)
    rc = _diagnose_host(job, 0)
    assert rc is not None, job.describe()
    print(mistake, "host A:", rc.cause, rc.confidence, rc.code)
    assert rc.cause == "config_error", (rc.cause, rc.code, rc.message)


@pytest.mark.timeout(120)
def test_a_host_name_resolving_to_loopback_is_wrong_host_ip(make_hosts, tmp_path):
    """Host B's name resolves to 127.0.0.1 in its own /etc/hosts: its launcher advertises
    127.0.0.1 in PADDLE_TRAINER_ENDPOINTS. gloo still connects here (through the store), so only
    the node watchers cannot reach each other: each side must say wrong_host_ip and name host B's
    rank, not call a healthy host frozen."""
    hosts = make_hosts(2)
    hosts.set_hosts_file(1, {hosts.hostnames[1]: "127.0.0.1"})
    job = start_job(hosts, tmp_path, "host_eval.py", ["none", "-", "400"])
    wait_job(job, 70)
    b_ranks = job.ranks_on(1)
    for run in job.runs:
        for rank, text in run.logs().items():
            assert "advertised a loopback address" in text, (rank, job.describe())
    rc = diagnose_paths([str(run.log_dir) for run in job.runs]).root_cause
    assert (rc.cause, list(rc.ranks)) == ("wrong_host_ip", b_ranks), (rc.cause, rc.ranks, rc.message)


@pytest.mark.timeout(90)
@pytest.mark.skipif(not RECORDING, reason="only to record the fixture: diagnose's unit tests hold it (strict xfail)")
@pytest.mark.xfail(strict=False, reason="issue 31: with a listener on the master port, host A's launcher takes it for "
                   "the master and waits at 'Waiting peer start...' printing nothing that names the port, so diagnose "
                   "of its output says config_error; `run` checks the port first (the next test)")
def test_the_master_port_held_on_host_a_is_port_in_use(make_hosts, tmp_path):
    hosts = make_hosts(2)
    holder = ("import socket, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); "
              f"s.bind(('0.0.0.0', {MASTER_PORT})); s.listen(64); time.sleep(300)")
    hosts.start(0, [sys.executable, "-c", holder], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
                out=tmp_path / "holder.txt")
    job = start_job(hosts, tmp_path, "host_eval.py", EVAL, wait_master=False)
    wait_job(job, WAITS_S)
    stop_gently(job)
    rc = _diagnose_host(job, 0)
    assert rc is not None and rc.cause == "port_in_use", (rc and (rc.cause, rc.code), job.describe())


HOLDER = ("import socket, time; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); "
          f"s.bind(('0.0.0.0', {MASTER_PORT})); s.listen(64); print('held', flush=True); time.sleep(300)")


@pytest.mark.timeout(90)
def test_run_on_host_a_names_its_held_master_port_before_launching(make_hosts, tmp_path):
    hosts = make_hosts(2)
    hosts.start(0, [sys.executable, "-c", HOLDER], cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
                out=tmp_path / "holder.txt")
    while "held" not in (tmp_path / "holder.txt").read_text():
        time.sleep(0.1)
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "run", "--",
           *launcher_cmd("host_eval.py", EVAL, master=f"{hosts.addr(0)}:{MASTER_PORT}", nnodes=2, nproc=1)]
    start = time.monotonic()
    proc = subprocess.run(hosts.command(0, cmd), cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env=host_env())
    took = time.monotonic() - start
    assert proc.returncode == 2 and "port_in_use" in proc.stderr, (proc.returncode, proc.stderr[-2000:])
    assert took < 15, took
    print(f"run named the held port in {took:.1f} s: {proc.stderr.strip()[:200]}")


@pytest.mark.timeout(120)
def test_a_small_shm_on_host_b_only_is_named_and_shows_in_env_compare(make_hosts, tmp_path):
    hosts = make_hosts(2)
    job = start_job(hosts, tmp_path, "host_loader.py", [], shm_sizes={1: "2m"})
    wait_job(job, 60)
    rc = diagnose_paths([str(run.log_dir) for run in job.runs]).root_cause
    assert rc.cause == "shm_too_small" and list(rc.ranks) == job.ranks_on(1), (rc.cause, rc.ranks, job.describe())
    reports = []
    for i, size in ((0, None), (1, "2m")):
        out = tmp_path / f"env_{hosts.hostnames[i]}.json"
        env_cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "env", "--format", "json"]
        cmd = hosts.command(i, env_cmd, shm_size=size)
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=host_env())
        out.write_text(proc.stdout)
        reports.append(str(out))
        report = json.loads(proc.stdout)
        shm = report["system"]["shm"]
        assert isinstance(shm, dict) and shm["total_bytes"] > 0, (shm, proc.stderr[-1000:])
    compare = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "env", "--compare", *reports,
                              "--format", "json"], capture_output=True, text=True, timeout=60)
    found = [f for f in json.loads(compare.stdout)["differences"] if f["code"] == "compare.system.shm.total_bytes"]
    assert found and found[0]["cause"] == "shm_too_small", compare.stdout[-2000:]
    assert found[0]["facts"]["values"][hosts.hostnames[1]] == 2 * 1024 * 1024, found[0]["facts"]
