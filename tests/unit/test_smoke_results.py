"""smoke's reading of what the ranks wrote: one Finding per check, and what a failure points to."""

from __future__ import annotations

import json
from pathlib import Path
import subprocess
import sys

from paddle_doctor.findings import Diagnosis, Finding
from paddle_doctor.smoke.launch import SmokeOptions, build_command, check_fault, parse_master
from paddle_doctor.smoke.results import CHECKS, check_findings, launch_finding, passed

import pytest


def _write(results, rank, checks):
    results.mkdir(exist_ok=True)
    payload = {"rank": rank, "world_size": 2, "checks": [{"name": n, "ok": ok, "detail": d, "seconds": 0.1}
                                                         for n, ok, d in checks]}
    (results / f"smoke.{rank}.json").write_text(json.dumps(payload))


def test_all_checks_passing(tmp_path):
    for r in (0, 1):
        _write(tmp_path, r, [(n, True, f"fine on {r}") for n in CHECKS])
    findings, ranks = check_findings(tmp_path, 2, None)
    assert ranks == (0, 1) and passed(findings)
    assert [f.code for f in findings] == [f"smoke.{n}" for n in CHECKS]
    assert findings[0].message == "all_reduce: fine on 0" and findings[0].severity.value == "info"


def test_a_wrong_value_fails_its_check_with_its_cause(tmp_path):
    _write(tmp_path, 0, [(n, True, "") for n in CHECKS])
    _write(tmp_path, 1, [(n, n != "evaluate_parity", "acc 0.5 vs 0.4") for n in CHECKS])
    findings, _ = check_findings(tmp_path, 2, None)
    bad = [f for f in findings if not f.fact("passed")]
    assert [f.code for f in bad] == ["smoke.evaluate_parity"]
    assert bad[0].cause == "rank_local_metric" and bad[0].ranks == (1,) and "rank 1: acc 0.5" in bad[0].message
    assert not passed(findings)


def test_a_crash_takes_the_diagnosed_cause(tmp_path):
    _write(tmp_path, 0, [("all_reduce", False, "RuntimeError: pair.cc:584 TIMEOUT")])
    _write(tmp_path, 1, [])
    root = Finding("diagnose", "host_oom_killed", "rank 1 died of SIGKILL", ranks=(1,))
    findings, _ = check_findings(tmp_path, 2, Diagnosis("failure", root, (), 3))
    assert all(f.cause == "host_oom_killed" for f in findings)
    assert "not reached on rank 1" in findings[0].message
    assert "failed on rank 0; rank 0: RuntimeError: pair.cc:584" in findings[0].message
    assert findings[1].fact("not_run_ranks") == [0, 1]


def test_a_silent_rank_fails_everything(tmp_path):
    _write(tmp_path, 0, [(n, True, "") for n in CHECKS])
    findings, _ = check_findings(tmp_path, 2, None)
    assert not any(f.fact("passed") for f in findings) and "1 rank(s) reported nothing" in findings[0].message


def _ended(timed_out, returncode):
    from paddle_doctor.process.bounded_run import BoundedRun
    return BoundedRun(("python",), returncode, timed_out, 2.0, Path("/nonexistent"))


@pytest.mark.parametrize("timed_out,returncode,said", [(True, None, "timed out after 2 s"),
                                                       (False, 1, "launcher exit 1")])
def test_a_launch_that_failed_after_every_check_passed_is_a_failed_check(timed_out, returncode, said):
    """Smoke stopped at --timeout while the ranks were ending (every check done): the run fails, so its table and
    JUnit file must hold a failure too (a flaky CI run showed a green JUnit file for a failed smoke)."""
    launch = launch_finding(_ended(timed_out, returncode), 2.0, None)
    assert launch.code == "smoke.launch" and launch.outcome.value == "fail" and said in launch.message
    assert not passed((launch,))
    from paddle_doctor.render.ci.junit import junit_xml
    assert 'failures="1"' in junit_xml([launch], "paddle-doctor smoke", 2.0)


def test_a_clean_launch_adds_no_check():
    assert launch_finding(_ended(False, 0), 2.0, None) is None


def test_options():
    assert parse_master("127.0.0.1:6170") == ("127.0.0.1", 6170)
    with pytest.raises(ValueError):
        parse_master("127.0.0.1")
    assert check_fault("raise") == "raise:1" and check_fault("kill:0") == "kill:0"
    with pytest.raises(ValueError):
        check_fault("melt:1")
    cmd = build_command(SmokeOptions(out_dir=__import__("pathlib").Path("/o"), nproc=1, nnodes=2, master="h:1"))
    assert cmd[1:9] == ["-m", "paddle.distributed.launch", "--nproc_per_node", "1", "--log_dir", "/o/log",
                        "--nnodes", "2"] and cmd[-1] == "/o/results"


def test_diagnose_html_writes_a_page_without_paddle(tmp_path):
    log = tmp_path / "workerlog.1"
    log.write_text("Traceback (most recent call last):\nValueError: boom\n")
    page = tmp_path / "r.html"
    snippet = ("import sys\nfrom paddle_doctor.cli.main import main\n"
               f"code = main(['diagnose', '--html', {str(page)!r}, {str(log)!r}])\n"
               "assert 'paddle' not in sys.modules\nprint('OK', code)\n")
    proc = subprocess.run([sys.executable, "-c", snippet], capture_output=True, text=True, timeout=60)
    assert "OK 0" in proc.stdout, proc.stderr
    assert "ValueError: boom" in page.read_text() and 'id="root-cause-lane"' in page.read_text()
    bad = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "diagnose", "--html",
                          str(log / "x.html"), str(log)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
