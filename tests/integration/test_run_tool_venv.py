"""paddle-doctor installed outside the job's Python (pipx, a tool venv; issue 30, item 2).

The job's venv here has paddle and no paddle_doctor; the tool is this test's interpreter. ``run``
must give the workers the guards anyway (from the tool's own package), or stop before launching
with one line that names the workers' interpreter and the command that fixes it; ``triage`` must
never report a variation that was not applied."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
JOB = REPO / "tests" / "fixtures" / "reruns" / "job.py"
HAS_PADDLE = importlib.util.find_spec("paddle") is not None


def _site_with(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    return Path(next(iter(spec.submodule_search_locations))).parent


def job_venv(root: Path, extra_package: str | None = None) -> Path:
    """A venv whose packages are paddle's site-packages without paddle_doctor (symlinks, no copy):
    what a user's training env looks like when the tool lives in pipx. ``extra_package``: the
    source of a ``paddle_doctor/__init__.py`` to put there instead (a broken install)."""
    venv.EnvBuilder(with_pip=False, symlinks=True).create(root / "job")
    farm = root / "job-packages"
    farm.mkdir()
    for entry in _site_with("paddle").iterdir():
        if not entry.name.startswith(("paddle_doctor", "_editable_impl", "__editable__")) and entry.suffix != ".pth":
            (farm / entry.name).symlink_to(entry)
    if extra_package is not None:
        (farm / "paddle_doctor").mkdir()
        (farm / "paddle_doctor" / "__init__.py").write_text(extra_package)
    python = root / "job" / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "job-packages.pth").write_text(f"{farm}\n")
    return python


def _tool(*args: str, cwd: Path, timeout: float = 150) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PADDLE_") and k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env=env)


@pytest.mark.skipif(not HAS_PADDLE, reason="paddlepaddle is not installed")
def test_the_job_venv_has_paddle_and_no_paddle_doctor(tmp_path):
    python = job_venv(tmp_path)
    probe = "import importlib.util as u; print(u.find_spec('paddle') is not None, u.find_spec('paddle_doctor'))"
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "None"]


@pytest.mark.integration
@pytest.mark.timeout(300)
@pytest.mark.skipif(not HAS_PADDLE, reason="paddlepaddle is not installed")
def test_run_from_a_tool_venv_still_gives_the_workers_error_records_and_the_watchdog(tmp_path):
    python = job_venv(tmp_path)
    shutil.copy(JOB, tmp_path / "job.py")
    proc = _tool("run", "--", str(python), "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
                 "--log_dir", "log", "job.py", "fail", cwd=tmp_path)
    assert f"the workers' Python {python} has no paddle_doctor of its own" in proc.stderr, proc.stderr[-3000:]
    records = sorted(p.name for p in (tmp_path / "log").glob("paddle_doctor_error.*.json"))
    assert "paddle_doctor_error.1.json" in records, proc.stderr[-3000:]
    # the watchdog (the guards from the tool's own package) ended rank 0; run passes on the program's code
    assert "the watchdog ended rank(s) 0" in proc.stderr, proc.stderr[-2000:]
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "ValueError: rank 1: labels have 3 columns" in proc.stderr


@pytest.mark.integration
@pytest.mark.timeout(300)
@pytest.mark.skipif(not HAS_PADDLE, reason="paddlepaddle is not installed")
def test_run_of_a_shell_script_probes_the_python_the_script_runs(tmp_path):
    """``run -- bash train.sh``: the workers' Python is the one the script's launch line runs (here
    after ``source job/bin/activate``), so the guards reach them from the tool's own package."""
    python = job_venv(tmp_path)
    shutil.copy(JOB, tmp_path / "job.py")
    (tmp_path / "train.sh").write_text("#!/bin/bash\nset -e\nsource job/bin/activate\n"
                                       "python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log \\\n"
                                       "    job.py fail\n")
    proc = _tool("run", "--", "bash", "train.sh", cwd=tmp_path)
    assert f"the workers' Python {python} has no paddle_doctor of its own" in proc.stderr, proc.stderr[-3000:]
    assert (tmp_path / "log" / "paddle_doctor_error.1.json").is_file(), proc.stderr[-3000:]
    assert "the watchdog ended rank(s) 0" in proc.stderr, proc.stderr[-2000:]
    assert "ValueError: rank 1: labels have 3 columns" in proc.stderr


@pytest.mark.skipif(not HAS_PADDLE, reason="paddlepaddle is not installed")
def test_run_stops_before_launching_when_the_workers_python_cannot_load_the_guards(tmp_path):
    python = job_venv(tmp_path, extra_package="raise RuntimeError('half-removed install')\n")
    proc = _tool("run", "--", str(python), "-c", "open('ran', 'w').close()", cwd=tmp_path, timeout=60)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"the workers' Python {python} cannot load" in lines[0] and "half-removed install" in lines[0]
    assert f"{python} -m pip install " in lines[0]
    assert not (tmp_path / "ran").exists()  # nothing was launched


@pytest.mark.skipif(not HAS_PADDLE, reason="paddlepaddle is not installed")
def test_triage_stops_instead_of_reporting_variations_it_could_not_apply(tmp_path):
    python = job_venv(tmp_path, extra_package="raise RuntimeError('half-removed install')\n")
    proc = _tool("triage", "--out", str(tmp_path / "t"), "--", str(python), "-c", "raise SystemExit(1)",
                 cwd=tmp_path, timeout=60)
    assert proc.returncode == 2 and "VERDICT" not in proc.stdout
    assert "cannot load paddle-doctor's guards" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.integration
@pytest.mark.timeout(300)
@pytest.mark.skipif(not HAS_PADDLE, reason="paddlepaddle is not installed")
def test_triage_from_a_tool_venv_applies_workers0_on_case_17(tmp_path):
    """The newcomer's row 3: from pipx, ``FAIL workers0`` and "not in DataLoader workers [high]"."""
    python = job_venv(tmp_path)
    shutil.copy(REPO / "cases" / "17_main_guard_missing_spawn" / "eval.py", tmp_path / "eval.py")
    proc = _tool("triage", "--timeout", "60", "--out", str(tmp_path / "t"), "--", str(python), "eval.py",
                 cwd=tmp_path, timeout=280)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = {line.split()[1]: line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")
            and line.split()[0] in ("PASS", "FAIL", "SKIP")}
    assert rows.get("workers0") == "PASS", proc.stdout
    assert "main_guard_missing" in next(line for line in proc.stdout.splitlines() if line.startswith("VERDICT"))
