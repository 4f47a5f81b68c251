"""The paths that must work where paddle is not installed never import it: --help, diagnose, explain
(causes and lint codes), lint, ckpt inspect, env, and the help of the commands that launch."""

import subprocess
import sys

import pickle

import numpy as np
import pytest

SNIPPET = """
import sys
from paddle_doctor.cli.main import main
main({args!r})
assert "paddle" not in sys.modules, "paddle was imported"
print("NO-PADDLE-OK")
"""


@pytest.mark.parametrize("args", [["--help"], ["diagnose", "{log}"], ["diagnose", "--format", "json", "{log}"],
                                  ["explain", "python_exception"], ["explain", "--list"], ["explain", "PDL101"],
                                  ["lint", "{script}"], ["ckpt", "inspect", "{ckpt}"], ["env"],
                                  ["run", "--help"], ["smoke", "--help"], ["triage", "--help"]])
def test_no_paddle_import(args, tmp_path):
    log = tmp_path / "workerlog.1"
    log.write_text("Traceback (most recent call last):\nValueError: boom\n")
    script = tmp_path / "eval.py"
    script.write_text("import paddle.distributed as dist\nif dist.get_rank() == 0:\n    dist.barrier()\n")
    ckpt = tmp_path / "model.pdparams"
    ckpt.write_bytes(pickle.dumps({"fc.weight": np.zeros((2, 3), "float32")}, protocol=4))
    args = [a.format(log=log, script=script, ckpt=ckpt) for a in args]
    proc = subprocess.run([sys.executable, "-c", SNIPPET.format(args=args)], capture_output=True, text=True,
                          timeout=60)
    assert "NO-PADDLE-OK" in proc.stdout, proc.stderr


EXPLAIN_SNIPPET = """
import sys
from paddle_doctor.cli.main import main
try:
    main(["explain", "python_exception"])
except SystemExit:
    pass
heavy = sorted(m for m in sys.modules if m in {heavy!r})
print("LOADED", heavy)
"""


def test_explain_reads_the_lenses_tables_without_loading_their_machinery():
    """explain shows each cause's back-links (lint rules, env checks, signatures, smoke checks): it
    must load those tables only, not the lint engine, the env probes, the log readers or the smoke
    launcher (its start-up goal is 0.15 s, bench/bench_startup.py)."""
    heavy = ["paddle_doctor.lint.engine", "paddle_doctor.envcheck.report", "paddle_doctor.diagnose.paths",
             "paddle_doctor.diagnose.read.parse", "paddle_doctor.smoke.launch"]
    proc = subprocess.run([sys.executable, "-c", EXPLAIN_SNIPPET.format(heavy=heavy)], capture_output=True,
                          text=True, timeout=60)
    assert "LOADED []" in proc.stdout, proc.stdout + proc.stderr
