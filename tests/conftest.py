import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# The shared corpus lies beside the checkout (as in CI); PADDLE_DOCTOR_CORPUS points elsewhere.
# A worktree lies one level deeper (/work/wt/NAME): look beside its parent too.
_SHARED = next((d for d in (REPO.parent / "shared", REPO.parent.parent / "shared") if d.is_dir()),
               REPO.parent / "shared")
CORPUS = Path(os.environ.get("PADDLE_DOCTOR_CORPUS", _SHARED / "corpus" / "real-dev"))
CORPORA = [CORPUS, CORPUS.parent / "real-dev2"]


@pytest.fixture
def run_cli():
    """Run the console script in a subprocess, as a user would."""
    import subprocess

    def run(*args, stdin: bytes | None = None, timeout: float = 60):
        cmd = [sys.executable, "-m", "paddle_doctor.cli.main", *map(str, args)]
        return subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout,
                              env={**os.environ, "PYTHONWARNINGS": "ignore"})

    return run
