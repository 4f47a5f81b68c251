"""Live progress (issue 30): ``triage`` prints its header at once and each variation's row as that
rerun ends, not everything after minutes of silence; ``smoke`` says it is launching at once."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

SLOW_FAILURE = "import sys, time; time.sleep(3); sys.exit(1)"


def _lines_with_times(cmd: list[str], cwd, timeout: float) -> list[tuple[float, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PADDLE_")}
    start = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    got = []
    try:
        for line in proc.stdout:
            got.append((time.monotonic() - start, line.rstrip("\n")))
        proc.wait(timeout=timeout)
    finally:
        proc.kill()
    return got


@pytest.mark.timeout(180)
def test_triage_prints_the_header_at_once_and_each_row_as_it_ends(tmp_path):
    got = _lines_with_times([sys.executable, "-m", "paddle_doctor.cli.main", "triage", "--timeout", "30", "--out",
                             str(tmp_path / "t"), "--", sys.executable, "-c", SLOW_FAILURE], tmp_path, 170)
    header = next(t for t, line in got if line.startswith("paddle-doctor triage:"))
    rows = [t for t, line in got if line.startswith(("  FAIL", "  PASS"))]
    verdict = next(t for t, line in got if line.startswith("VERDICT"))
    assert len(rows) >= 2, got
    assert header < rows[0] - 2.5  # the header came before the first 3-second rerun ended
    assert rows[0] < verdict - 2.5  # the first row came before the last rerun ended
