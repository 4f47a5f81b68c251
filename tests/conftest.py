import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# The shared corpus lies beside the checkout (as in CI); PADDLE_DOCTOR_CORPUS points elsewhere.
CORPUS = Path(os.environ.get("PADDLE_DOCTOR_CORPUS", REPO.parent / "shared" / "corpus" / "real-dev"))


@pytest.fixture
def run_cli():
    """Run the console script in a subprocess, as a user would."""
    import subprocess

    def run(*args, stdin: bytes | None = None, timeout: float = 60):
        cmd = [sys.executable, "-m", "paddle_doctor.cli.main", *map(str, args)]
        return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout,
                              env={**os.environ, "PYTHONWARNINGS": "ignore"})

    return run
