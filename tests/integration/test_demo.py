"""``paddle-doctor demo`` as a new user runs it (issue 22): the failing 2-process case, its
diagnosis, then the fixed evaluation, with ``--keep`` given a relative folder."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="paddlepaddle is not installed")]
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(240)
def test_demo_with_a_relative_keep_dir(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "demo", "--keep", "keep"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=220, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "VERDICT  rank 1 failed first: ValueError" in out, out
    assert "the fixed run did not finish" not in out, out
    # the fixed run's results land in keep/fixed/, not in keep/fixed/keep/fixed/
    fixed = tmp_path / "keep" / "fixed"
    assert not (fixed / "keep").exists()
    dist, single = json.loads((fixed / "rank0.json").read_text()), json.loads((fixed / "single.json").read_text())
    assert dist["num_samples"] == dist["dataset_len"] == single["num_samples"] == 10
    assert dist["world_size"] == 2 and dist["metrics"] == pytest.approx(single["metrics"], abs=1e-6)
    # what the one-process figure is, said the same way by the demo and the README
    assert "2 processes (evaluate)" in out and "1 process (plain loop)" in out, out
    assert "distributed and single-process results are equal." in out, out
    readme = (REPO / "README.md").read_text()
    assert "and with a plain Paddle loop in one process (no paddle_doctor" in readme

