"""``paddle-doctor run`` diagnoses only what its own launch wrote (issue 30, item 1), under the real
launcher: the log dir already holds a failed launch and a passing rerun (the recorded pair), and the
launcher appends this run's lines to the same ``workerlog.N``."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RERUNS = REPO / "tests" / "fixtures" / "reruns"


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "run", "--", sys.executable, "-m",
           "paddle.distributed.launch", "--nproc_per_node", "2", "--log_dir", "log", "job.py", *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=150,
                          env={k: v for k, v in os.environ.items() if not k.startswith("PADDLE_")})


@pytest.mark.integration
@pytest.mark.timeout(300)
@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="paddlepaddle is not installed")
def test_run_reads_only_the_lines_its_launch_appended(tmp_path):
    shutil.copytree(RERUNS / "log", tmp_path / "log")
    shutil.copy(RERUNS / "job.py", tmp_path / "job.py")
    old_lines = {r: len((tmp_path / "log" / f"workerlog.{r}").read_text().splitlines()) for r in (0, 1)}
    proc = _run(tmp_path, "fail")
    assert proc.returncode != 0
    verdicts = [line for line in proc.stderr.splitlines() if line.startswith("VERDICT")]
    assert verdicts and "rank 1 failed first: ValueError: rank 1: labels have 3 columns" in verdicts[0]
    cited = [line.strip() for line in proc.stderr.splitlines() if "log/workerlog.1:" in line
             and line.strip().split(":")[-1].isdigit()]
    assert cited and all(int(c.rsplit(":", 1)[1]) > old_lines[1] for c in cited), cited  # this launch's lines
    assert "launches in" not in proc.stderr  # run knows its own part; no guessing, no note
