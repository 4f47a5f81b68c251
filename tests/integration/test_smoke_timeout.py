"""``paddle-doctor smoke --timeout 2`` (issue 30, item 3): the launch cannot finish in 2 s; smoke
says that it stopped it, and does not claim that the workers' logs were not given. Its
``--junit FILE`` holds the same checks as JUnit XML."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from xml.etree import ElementTree as ET

import pytest


@pytest.mark.integration
@pytest.mark.timeout(120)
@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="paddlepaddle is not installed")
def test_smoke_that_runs_out_of_time_says_so(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PADDLE_")}
    junit = tmp_path / "smoke.xml"
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "smoke", "--timeout", "2", "--out",
                           str(tmp_path / "smoke"), "--junit", str(junit)], capture_output=True, text=True,
                          timeout=110, env=env)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stdout.startswith("paddle-doctor smoke: launching 1 node(s) x 2 process(es), cpu (up to 2 s)")
    verdicts = [line for line in proc.stdout.splitlines() if line.startswith("VERDICT")]
    assert verdicts and "smoke stopped the launch after --timeout 2 s" in verdicts[0], proc.stdout[-2000:]
    assert "timed out after 2 s" in proc.stdout
    assert "was not given" not in proc.stdout and "no failure found" not in proc.stdout
    # smoke --junit: every check a testcase, failed as the report's rows say. How many checks the
    # ranks reach in 2 s depends on the machine's speed at that moment (on a quiet one, all of them:
    # then the failed `launch` row says the run failed): the file must agree with the report, and it
    # must hold a failure.
    rows = [line.split()[:2] for line in proc.stdout.splitlines() if line.startswith(("  PASS ", "  FAIL "))]
    suite = ET.parse(junit).getroot()
    failed = [case.get("name") for case in suite if case.find("failure") is not None]
    assert suite.tag == "testsuite" and int(suite.get("tests")) == len(rows) > 0
    assert failed == [name for status, name in rows if status == "FAIL"] and failed
