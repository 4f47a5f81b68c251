"""`paddle-doctor env` as a user runs it: here (no GPU), without paddle importable, and with
--import-paddle."""

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

SRC = Path(__file__).resolve().parents[3] / "src"

NO_IMPORT = """
import sys
from paddle_doctor.cli.main import main
code = main(["env", "--format", "json"])
assert "paddle" not in sys.modules, "paddle was imported"
print("EXIT", code)
"""


@pytest.mark.needs_paddle
def test_json_report_of_this_machine(run_cli):
    proc = run_cli("env", "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["schema"] == "paddle_doctor.env/1"
    assert report["paddle"]["installed"] is True and report["paddle"]["build"] == "cpu"
    assert report["gpu"]["gpus"] == []
    assert report["system"]["shm"]["total_bytes"] > 0 and report["system"]["open_files"]["soft"] > 0
    assert set(report["needs_import"]) == {"gpu_count_paddle", "compiled_with_cuda", "cuda_init"}
    assert proc.returncode == (1 if any(f["severity"] == "error" for f in report["findings"]) else 0)
    assert "\x1b[" not in proc.stdout.decode()


@pytest.mark.needs_paddle
def test_text_report_is_markdown_facts_then_findings(run_cli):
    env_leftover = {**os.environ, "PADDLE_TRAINER_ENDPOINTS": "10.0.0.1:6170", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "env"], capture_output=True, text=True,
                          timeout=60, env=env_leftover)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    for row in ("- **Python**:", "- **Paddle**: ", "- **Compiled with**:", "- **Running with**:", "- **GPUs**: none",
                "- **/dev/shm**:", "- **Open files**:", "- **Launcher ports**:", "PADDLE_TRAINER_ENDPOINTS=10.0.0.1:6170"):
        assert row in out, row
    assert out.index("- **Python**:") < out.index("### Findings") < out.index("`residual_dist_env`")
    assert "paddle-doctor explain residual_dist_env" in out and "--import-paddle" in out


def test_env_does_not_import_paddle():
    proc = subprocess.run([sys.executable, "-c", NO_IMPORT], capture_output=True, text=True, timeout=60)
    assert "EXIT" in proc.stdout, proc.stderr


def test_works_where_paddle_is_not_installed(tmp_path):
    # A Python that sees only our sources and click: no site-packages, so no paddle at all.
    (tmp_path / "click").symlink_to(Path(click.__file__).parent)
    code = (f"import sys; sys.path[:0] = [{str(SRC)!r}, {str(tmp_path)!r}]\n"
            "from paddle_doctor.cli.main import main\nsys.exit(main(sys.argv[1:]))")
    for fmt in ("json", "text"):
        proc = subprocess.run([sys.executable, "-S", "-c", code, "env", "--format", fmt], capture_output=True,
                              text=True, timeout=60)
        assert proc.returncode in (0, 1), proc.stderr
        if fmt == "json":
            report = json.loads(proc.stdout)
            assert report["paddle"] == {"installed": False} and report["needs_import"] == {}
        else:
            assert "- **Paddle**: not installed" in proc.stdout


@pytest.mark.needs_paddle
def test_import_paddle_gets_what_the_files_cannot_say(run_cli):
    proc = run_cli("env", "--format", "json", "--import-paddle", timeout=180)
    report = json.loads(proc.stdout)
    assert report["needs_import"] == {}
    assert report["paddle_import"] == {"compiled_with_cuda": False, "gpu_count_paddle": 0, "cuda_init": None}


def test_report_files_without_compare_is_a_usage_error(run_cli, tmp_path):
    proc = run_cli("env", tmp_path / "a.json")
    assert proc.returncode == 2 and proc.stderr.startswith(b"paddle-doctor env: error:")
