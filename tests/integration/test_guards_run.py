"""``paddle-doctor run``: output unchanged but for one summary line, exit codes kept (and made
non-zero after an old launcher's ABORT), the user's sitecustomize still runs, ``--single`` drops
leftover launcher variables, ``--debug-logs`` sets the guide's variables, a one-process failure
is recorded and diagnosed. Failing launches are covered in test_guards_faults.py."""

from __future__ import annotations

import json
import re
import sys

import pytest

from guards.harness import base_env, launch, run_cli


PY = sys.executable
SUMMARY = re.compile(r"^paddle-doctor run: exit 0 in \d+\.\d s")


def _normal(text: str) -> list[str]:
    """Lines with what differs between two runs masked (times, ports, pids, the pod's name)."""
    text = re.sub(r"(Pod: |default\.)[a-z]{6}", r"\1POD", text)
    # glog pads the thread id to a width: a pid with fewer digits adds a space
    return sorted(re.sub(r" +", " ", re.sub(r"\d+", "N", line)) for line in text.splitlines())


@pytest.mark.integration
@pytest.mark.timeout(120)
def test_passing_launch_output_is_unchanged_but_for_the_summary(tmp_path):
    (tmp_path / "plain").mkdir()
    (tmp_path / "run").mkdir()
    plain = launch(tmp_path / "plain", 2, "eval_fault.py", ["none"], timeout=60)
    via = launch(tmp_path / "run", 2, "eval_fault.py", ["none"], run_opts=["--trace"], timeout=60)
    assert plain.rc == via.rc == 0, via.err[-2000:]
    *err_lines, summary = via.err.rstrip("\n").split("\n")
    assert SUMMARY.match(summary), summary
    assert _normal(via.out) == _normal(plain.out)
    assert _normal("\n".join(err_lines)) == _normal(plain.err)
    assert not list(via.log_dir.glob("paddle_doctor_*"))


def test_old_launcher_abort_with_exit_0_becomes_a_failure(tmp_path):
    fake = tmp_path / "old_launch.py"
    fake.write_text("print('ABORT!!! Out of all 2 trainers, the trainer process with rank=[1] was aborted. "
                    "Please check its log.', flush=True)\nprint('terminate all the procs')\n")
    rc, out, err = run_cli(["run", "--", PY, str(fake)], cwd=tmp_path)
    assert rc == 1, err
    assert "ABORT!!!" in out  # passed through
    assert "the launcher printed ABORT!!! but exited 0" in err


@pytest.mark.parametrize("code, expected", [("import sys; sys.exit(3)", 3),
                                            ("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", 137)])
def test_exit_code_is_the_commands(tmp_path, code, expected):
    rc, _, err = run_cli(["run", "--", PY, "-c", code], cwd=tmp_path)
    assert rc == expected, err
    assert f"exit code {expected}. Diagnosis:" in err


def test_existing_sitecustomize_still_runs(tmp_path):
    user_site = tmp_path / "usersite"
    user_site.mkdir()
    marker = tmp_path / "marker"
    (user_site / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nVALUE = 42\n")
    env = base_env(PYTHONPATH=str(user_site))
    code = "import os, sitecustomize; print(os.environ.get('PADDLE_DOCTOR_OWNER', 'none'), sitecustomize.VALUE)"
    rc, out, err = run_cli(["run", "--", PY, "-c", code], cwd=tmp_path, env=env)
    assert rc == 0, err
    assert marker.read_text() == "ran"
    owner, value = out.split()
    assert owner != "none" and value == "42"  # ours installed, theirs ran and is the module
    assert SUMMARY.match(err.strip().splitlines()[-1])


def test_single_drops_leftover_launcher_variables(tmp_path):
    env = base_env(PADDLE_TRAINER_ID="1", PADDLE_TRAINERS_NUM="2", FLAGS_selected_gpus="3",
                   PADDLE_TRAINER_ENDPOINTS="127.0.0.1:6170,127.0.0.1:6171", PADDLE_PG_TIMEOUT="5000")
    code = "import os; print(sorted(k for k in os.environ if k.startswith(('PADDLE_T', 'FLAGS_sel', 'PADDLE_PG'))))"
    rc, out, err = run_cli(["run", "--single", "--", PY, "-c", code], cwd=tmp_path, env=env)
    assert rc == 0, err
    assert out.strip() == "['PADDLE_PG_TIMEOUT']"
    assert "removed leftover FLAGS_selected_gpus, PADDLE_TRAINERS_NUM, PADDLE_TRAINER_ENDPOINTS, " \
           "PADDLE_TRAINER_ID" in err


@pytest.mark.integration
def test_single_gives_paddle_a_one_process_world(tmp_path):
    env = base_env(PADDLE_TRAINER_ID="1", PADDLE_TRAINERS_NUM="2", PADDLE_TRAINER_ENDPOINTS="127.0.0.1:6170,127.0.0.1:6171")
    code = "import paddle.distributed as d; print(d.get_world_size(), d.get_rank())"
    rc, out, err = run_cli(["run", "--single", "--", PY, "-c", code], cwd=tmp_path, env=env)
    assert rc == 0, err
    assert out.split()[-2:] == ["1", "0"]


def test_single_refuses_a_launcher(tmp_path):
    rc, _, err = run_cli(["run", "--single", "--", PY, "-m", "paddle.distributed.launch", "x.py"], cwd=tmp_path)
    assert rc == 2 and "--single is for one-process commands" in err


def test_debug_logs_sets_the_guides_variables(tmp_path):
    code = "import os; print(os.environ['GLOG_v'], os.environ['NCCL_DEBUG'], os.environ['NCCL_DEBUG_FILE'])"
    rc, out, err = run_cli(["run", "--debug-logs", "--", PY, "-c", code], cwd=tmp_path)
    assert rc == 0, err
    glog, nccl, nccl_file = out.split()
    assert (glog, nccl) == ("4", "INFO")
    assert nccl_file.startswith(str(tmp_path / "log" / "nccl_debug.main."))


def test_one_process_failure_is_recorded_and_diagnosed(tmp_path):
    script = tmp_path / "boom.py"
    script.write_text("def main():\n    raise KeyError('missing_column')\n\nmain()\n")
    rc, _, err = run_cli(["run", "--", PY, str(script)], cwd=tmp_path)
    assert rc == 1, err
    record = json.loads((tmp_path / "log" / "paddle_doctor_error.main.json").read_text())
    assert record["exception"]["type"] == "KeyError" and "missing_column" in record["exception"]["message"]
    assert record["memory"]["host"]["peak_rss"] > 0
    assert "python_exception" in err and "KeyError" in err
