"""Issue 28 §9: what ``paddle-doctor run`` and its guards say is true. A program that exits 1 under
``run`` exits 1 every time, whatever the launcher saw first (its watchdog's 86 on another rank, or
a SIGTERM), and ``run`` says which: the program's own error, and the watchdog after it. Nobody is
called dead without evidence of death. Each launch is bounded (60 s)."""

from __future__ import annotations

import re

import pytest

from guards.harness import base_env, launch

pytestmark = pytest.mark.integration
REPEATS = 3


@pytest.mark.timeout(60 * REPEATS + 30)
def test_a_program_that_exits_1_under_run_exits_1_every_time(tmp_path):
    launcher_codes = []
    for i in range(REPEATS):
        (tmp_path / str(i)).mkdir()
        run = launch(tmp_path / str(i), 2, "eval_exit1.py", [], run_opts=[], env=base_env(), timeout=60)
        context = f"repeat {i}: rc {run.rc}, wall {run.wall:.1f} s\n{run.err[-2500:]}"
        codes = re.findall(r"LAUNCH INFO .* Exit code (-?\d+)", run.out + run.err)
        launcher_codes.append(codes[-1] if codes else None)
        assert run.rc == 1, context
        assert "the program's own error on rank(s) 1" in run.err, context
        everything = run.err + run.log(0) + run.log(1)
        assert "died before its first heartbeat" not in everything and "exit code 86" not in run.log(1), context
    print(f"launcher exit codes: {launcher_codes}; run exited 1 each time")
