"""``run -- bash train.sh`` / ``run -- ./train.sh`` (issue 30, item 2): the workers' Python is the one
the script calls, found in its text and probed like a plain command's; what the text cannot tell is
said in one plain line, never guessed (the guards under the real launcher through a script:
``tests/integration/test_run_tool_venv.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from paddle_doctor.process.shell_script import pythons_in_script, shell_script
from paddle_doctor.process.workers_python import GuardsUnreachable, ensure_guards


def _exe(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


@pytest.fixture
def job(tmp_path):
    """A folder with a job PATH whose ``python`` and ``python3`` are fakes (never run here)."""
    bin_dir = tmp_path / "jobbin"
    for name in ("python", "python3"):
        _exe(bin_dir / name, "#!/bin/sh\nexit 0\n")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    return tmp_path, bin_dir, env


def _pythons(tmp_path, env, cmd):
    script = shell_script(cmd, env, str(tmp_path))
    assert script is not None, cmd
    return pythons_in_script(script, env, str(tmp_path))


def test_bash_script_its_python_line_is_resolved_on_the_jobs_path(job):
    tmp_path, bin_dir, env = job
    (tmp_path / "train.sh").write_text("#!/bin/bash\nset -e\n# python old.py\nexport FLAGS_x=1\n"
                                       "CUDA_VISIBLE_DEVICES=0,1 python -m paddle.distributed.launch \\\n"
                                       "    --nproc_per_node 2 train.py --epochs 1\n")
    found = _pythons(tmp_path, env, ["bash", "train.sh"])
    assert found.pythons == [str(bin_dir / "python")] and found.unknown == []


def test_an_executable_script_by_its_shebang_with_a_python_path(job):
    tmp_path, _, env = job
    venv_python = _exe(tmp_path / "venv" / "bin" / "python3", "#!/bin/sh\n")
    _exe(tmp_path / "train.sh", f"#!/usr/bin/env bash\nif true; then\n  exec {venv_python} eval.py\nfi\n")
    found = _pythons(tmp_path, env, ["./train.sh"])
    assert found.pythons == [str(venv_python)] and found.unknown == []


def test_a_literal_activate_line_switches_to_that_venv(job):
    tmp_path, _, env = job
    venv_python = _exe(tmp_path / "venv" / "bin" / "python", "#!/bin/sh\n")
    (tmp_path / "run.sh").write_text("source venv/bin/activate\npython train.py\n")
    assert _pythons(tmp_path, env, ["sh", "run.sh"]).pythons == [str(venv_python)]


def test_a_variable_with_a_literal_value_or_default_is_followed(job):
    tmp_path, bin_dir, env = job
    (tmp_path / "a.sh").write_text('PY=python3\n"$PY" -m paddle.distributed.launch train.py\n')
    (tmp_path / "b.sh").write_text("${PYTHON:-python3} train.py\n")
    assert _pythons(tmp_path, env, ["bash", "a.sh"]).pythons == [str(bin_dir / "python3")]
    assert _pythons(tmp_path, env, ["bash", "b.sh"]).pythons == [str(bin_dir / "python3")]
    other = _exe(tmp_path / "other" / "python", "#!/bin/sh\n")
    assert _pythons(tmp_path, {**env, "PYTHON": str(other)}, ["bash", "b.sh"]).pythons == [str(other)]


def test_a_wrapper_that_execs_its_arguments_runs_their_python(job):
    tmp_path, bin_dir, env = job
    (tmp_path / "wrap.sh").write_text('ulimit -n 4096\nexec "$@"\n')
    found = _pythons(tmp_path, env, ["sh", "wrap.sh", "python3", "-m", "paddle.distributed.launch", "t.py"])
    assert found.pythons == [str(bin_dir / "python3")]


def test_a_script_that_calls_a_script_is_followed(job):
    tmp_path, bin_dir, env = job
    (tmp_path / "inner.sh").write_text("python eval.py\n")
    (tmp_path / "outer.sh").write_text("cd .\nbash inner.sh\n")
    assert _pythons(tmp_path, env, ["bash", "outer.sh"]).pythons == [str(bin_dir / "python")]


@pytest.mark.parametrize("text, why", [
    ("$PYTHON -m paddle.distributed.launch train.py\n", "starts Python through $PYTHON"),
    ("conda activate paddle\npython train.py\n", "changes the PATH: conda activate paddle"),
    ("export PATH=/opt/py/bin:$PATH\npython train.py\n", "changes the PATH"),
    ("python3.7 train.py\n", "runs python3.7, which is not there on the job's PATH"),
    ("echo hello\n", "no line of it names a Python"),
])
def test_what_the_text_cannot_tell_is_a_reason_not_a_guess(job, text, why):
    tmp_path, _, env = job
    (tmp_path / "train.sh").write_text(text)
    found = _pythons(tmp_path, env, ["bash", "train.sh"])
    assert found.pythons == [] and len(found.unknown) == 1 and why in found.unknown[0], found


def test_a_binary_or_a_python_command_is_no_shell_script(job):
    tmp_path, _, env = job
    assert shell_script(["ls", "-l"], env, str(tmp_path)) is None
    assert shell_script([sys.executable, "x.py"], {"PATH": os.environ["PATH"]}, str(tmp_path)) is None


def test_ensure_guards_probes_the_scripts_python(job, tmp_path):
    # The script's Python is this very interpreter: it has the guards, so no note.
    work, _, env = job
    (work / "train.sh").write_text(f"{sys.executable} -c pass\n")
    assert ensure_guards(["bash", "train.sh"], dict(env), str(work)) is None


def test_a_scripts_python_that_cannot_load_the_guards_is_said_and_the_launch_goes_on(job):
    # A Python named in a script may be a helper's: what its probe says becomes a note, not a stop.
    work, bin_dir, env = job
    _exe(bin_dir / "python3", "#!/bin/sh\necho 'paddle-doctor-probe failed 3.11 RuntimeError: half-removed install'\n")
    (work / "train.sh").write_text("python3 -m paddle.distributed.launch train.py\n")
    note = ensure_guards(["bash", "train.sh"], dict(env), str(work))
    assert f"the workers' Python {bin_dir / 'python3'} cannot load paddle-doctor's guards" in note
    assert "half-removed install" in note and "they run without the guards" in note
    # triage's variations need the guards: there it stops instead (strict)
    with pytest.raises(GuardsUnreachable, match="half-removed install"):
        ensure_guards(["bash", "train.sh"], dict(env), str(work), strict=True)


def _run(cwd: Path, *cmd: str, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PADDLE_") and k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "run", "--", *cmd], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env={**env, **(env_extra or {})})


def test_run_says_in_one_line_when_it_cannot_tell_the_scripts_python(tmp_path):
    # the interpreter is computed when the script runs: the text cannot name it
    (tmp_path / "train.sh").write_text('MYPY=$(command -v python3)\n"$MYPY" -c "open(\'ran\', \'w\').close()"\n')
    proc = _run(tmp_path, "bash", "train.sh")
    assert proc.returncode == 0, proc.stderr
    notes = [line for line in proc.stderr.splitlines() if "could not tell which Python" in line]
    assert len(notes) == 1, proc.stderr
    assert "train.sh" in notes[0] and "starts Python through $MYPY" in notes[0] and "the guards stay off" in notes[0]
    assert (tmp_path / "ran").exists()  # the command ran all the same


def test_the_same_venv_by_another_name_has_its_own_paddle_doctor(tmp_path):
    # `run -- python3 ...` from a tool whose script says `python`: one venv, its own paddle_doctor;
    # never "has no paddle_doctor of its own" (the probe says whether the package was borrowed).
    other_name = Path(sys.executable).with_name("python3")
    if not other_name.exists() or other_name == Path(sys.executable):
        pytest.skip("this venv has no second name for its Python")
    proc = _run(tmp_path, str(other_name), "-c", "open('ran', 'w').close()")
    assert proc.returncode == 0 and (tmp_path / "ran").exists(), proc.stderr
    assert "paddle_doctor of its own" not in proc.stderr and "note" not in proc.stderr, proc.stderr
