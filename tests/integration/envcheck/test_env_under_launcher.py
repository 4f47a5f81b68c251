"""`paddle-doctor env` inside a worker of the real launcher: the launcher's variables are expected
there (info, not an error), the launcher is recognised as an ancestor, and its worker port is seen."""

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration

WORKER = """
import subprocess, sys
out = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "env", "--format", "json"],
                     capture_output=True, text=True, timeout=60).stdout
open(sys.argv[1], "w").write(out)
"""


def test_env_inside_a_launcher_worker(tmp_path):
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    out = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "1",
                           "--log_dir", str(tmp_path / "log"), str(script), str(out)],
                          capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    report = json.loads(out.read_text())
    assert report["processes"]["under_launcher"] is True
    launchers = [p for p in report["processes"]["paddle"] if p["role"] == "launcher" and p["ancestor"]]
    assert len(launchers) == 1 and "paddle.distributed.launch" in launchers[0]["cmd"]
    residual = [f for f in report["findings"] if f["cause"] == "residual_dist_env"]
    assert [f["severity"] for f in residual] == ["info"]
    assert "PADDLE_TRAINER_ID" in report["variables"] and "PADDLE_CURRENT_ENDPOINT" in report["variables"]
