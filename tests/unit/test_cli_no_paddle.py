"""--help, diagnose and explain never import paddle (they must work where it is not installed)."""

import subprocess
import sys

import pytest

SNIPPET = """
import sys
from paddle_doctor.cli.main import main
main({args!r})
assert "paddle" not in sys.modules, "paddle was imported"
print("NO-PADDLE-OK")
"""


@pytest.mark.parametrize("args", [["--help"], ["diagnose", "{log}"], ["diagnose", "--format", "json", "{log}"],
                                  ["explain", "python_exception"], ["explain", "--list"]])
def test_no_paddle_import(args, tmp_path):
    log = tmp_path / "workerlog.1"
    log.write_text("Traceback (most recent call last):\nValueError: boom\n")
    args = [a.format(log=log) for a in args]
    proc = subprocess.run([sys.executable, "-c", SNIPPET.format(args=args)], capture_output=True, text=True,
                          timeout=60)
    assert "NO-PADDLE-OK" in proc.stdout, proc.stderr
