"""``ckpt check`` prints its report without Paddle's import-time ``No ccache found`` warning in front
(issue 30, "the rest"): the warning is for C++ extension builders, and ckpt check builds none."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest


@pytest.mark.timeout(180)
@pytest.mark.skipif(importlib.util.find_spec("paddle") is None, reason="paddlepaddle is not installed")
def test_ckpt_check_output_has_no_ccache_warning(tmp_path):
    (tmp_path / "tiny.py").write_text("import paddle\n\ndef make():\n    return paddle.nn.Linear(2, 3)\n")
    save = ("import paddle, tiny; "  # python -c puts the current folder first on sys.path
            "paddle.save(tiny.make().state_dict(), 'tiny.pdparams')")
    subprocess.run([sys.executable, "-c", save], cwd=tmp_path, check=True, capture_output=True, timeout=120)
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "ckpt", "check", "tiny.pdparams",
                           "--model", "tiny.py:make"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ccache" not in proc.stderr and "UserWarning" not in proc.stderr, proc.stderr
