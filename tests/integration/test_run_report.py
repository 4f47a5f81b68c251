"""``paddle-doctor run``: when the launch fails, the timeline page lands beside the logs; when the
next launch passes, that page is set aside (kept, renamed), since the logs it describes are gone."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paddle_doctor.render.html import REPORT_NAME

CASE = Path(__file__).resolve().parents[2] / "cases" / "01_exception_rank1"


@pytest.mark.integration
@pytest.mark.timeout(300)
@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="paddlepaddle is not installed")
def test_failed_launch_leaves_the_page_beside_the_logs_and_a_passing_one_sets_it_aside(tmp_path):
    shutil.copy(CASE / "eval.py", tmp_path / "eval.py")
    proc = _run(tmp_path, "eval.py")
    assert proc.returncode != 0
    page = tmp_path / "log" / REPORT_NAME
    assert f"timeline page {page}" in proc.stderr, proc.stderr[-3000:]
    html = page.read_text()
    assert 'id="root-cause-lane"' in html and 'data-ranks="1"' in html and "ReshapeOp" in html

    shutil.copy(CASE / "eval_fixed.py", tmp_path / "eval_fixed.py")
    (tmp_path / "fixed-out").mkdir()
    proc = _run(tmp_path, "eval_fixed.py", str(tmp_path / "fixed-out"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    earlier = page.with_name("paddle_doctor_report.earlier.html")
    assert not page.exists() and earlier.read_text() == html
    assert f"moved to {earlier}" in proc.stderr


def _run(cwd: Path, *script: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "paddle_doctor.cli.main", "run", "--", sys.executable, "-m",
           "paddle.distributed.launch", "--nproc_per_node", "2", "--log_dir", "log", *script]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=150,
                          env={k: v for k, v in os.environ.items() if not k.startswith("PADDLE_")})
