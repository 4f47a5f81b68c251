"""The lab runner, with trivial non-paddle scripts: process groups end, timeouts work, placeholders
are substituted, and nothing of a case's documentation reaches the user's working copy."""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import pytest

from paddle_doctor.lab import LabError, exit_matches, load_case, missing_markers, run_case
from paddle_doctor.lab.runner import build_command, pick_ports, substitute


def make_case(root: Path, scripts: dict[str, str], name: str = "99_demo", **expected) -> Path:
    case = root / name
    case.mkdir(parents=True)
    spec = {"cause": "python_exception", "rank": None, "launcher": "none", "nproc": 1,
            "script": "main.py", "timeout_s": 20, "expect_exit": "zero", "markers": []}
    spec.update(expected)
    (case / "expected.json").write_text(json.dumps(spec))
    (case / "README.md").write_text("# demo: ValueError on rank 1\n")
    for fname, body in scripts.items():
        (case / fname).write_text(textwrap.dedent(body))
    return case


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_dead(pids: list[int], within: float = 5.0) -> list[int]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


ECHO = """
    import os, sys
    print("args", sys.argv[1:])
    print("env", os.environ.get("PORT_A"), os.environ.get("PADDLE_TRAINER_ID"))
"""


def test_placeholders_substituted_in_args_env_and_distinct(tmp_path):
    case_dir = make_case(tmp_path / "cases", {"main.py": ECHO}, args=["--port", "{free_port}", "{free_port2}"],
                         env={"PORT_A": "127.0.0.1:{free_port}"})
    run = run_case(case_dir, tmp_path / "work")
    out = run.terminal.read_text()
    a, b = run.ports["free_port"], run.ports["free_port2"]
    assert a != b
    assert f"args ['--port', '{a}', '{b}']" in out
    assert f"env 127.0.0.1:{a} None" in out
    assert run.returncode == 0 and not run.timed_out and exit_matches(run)
    assert run.log_dirs == [] and run.terminals == [run.terminal]


def test_inherited_paddle_variables_are_dropped(tmp_path):
    case_dir = make_case(tmp_path / "cases", {"main.py": ECHO})
    run = run_case(case_dir, tmp_path / "work", base_env={"PADDLE_TRAINER_ID": "3", "PATH": "/usr/bin:/bin"})
    assert "env None None" in run.terminal.read_text()


def test_case_docs_are_not_copied_and_shared_script_is(tmp_path):
    cases = tmp_path / "cases"
    make_case(cases, {"main.py": "print('shared script ran')\n"}, name="01_base")
    case_dir = make_case(cases, {}, name="02_variant", script="../01_base/main.py")
    run = run_case(case_dir, tmp_path / "work")
    copy = run.work_dir / "case"
    assert sorted(p.name for p in copy.iterdir()) == ["main.py"]
    assert "shared script ran" in run.terminal.read_text()


def test_timeout_sends_sigterm_first_then_reports(tmp_path):
    script = """
        import signal, sys, time
        def bye(*_):
            print("got SIGTERM: crash dump here", flush=True)
            sys.exit(3)
        signal.signal(signal.SIGTERM, bye)
        print("hanging", flush=True)
        time.sleep(60)
    """
    case_dir = make_case(tmp_path / "cases", {"main.py": script}, expect_exit="timeout",
                         markers=["hanging", "got SIGTERM"])
    t0 = time.monotonic()
    run = run_case(case_dir, tmp_path / "work", timeout=1.5)
    assert time.monotonic() - t0 < 10
    assert run.timed_out and exit_matches(run)
    assert run.returncode == 3
    assert missing_markers(run) == []


def test_sigterm_ignoring_process_is_killed(tmp_path):
    script = """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)
    """
    case_dir = make_case(tmp_path / "cases", {"main.py": script}, expect_exit="timeout")
    t0 = time.monotonic()
    run = run_case(case_dir, tmp_path / "work", timeout=1)
    assert time.monotonic() - t0 < 15
    assert run.timed_out and run.returncode == -9


SPAWNS_CHILDREN = """
    import os, subprocess, sys, time
    same_group = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    # like Paddle's launchers, which put every worker in a new session (os.setsid)
    own_session = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                                   start_new_session=True)
    with open("pids.txt", "w") as f:
        f.write(f"{same_group.pid} {own_session.pid}")
    print("children started", flush=True)
"""


def test_process_groups_are_ended_after_success(tmp_path):
    case_dir = make_case(tmp_path / "cases", {"main.py": SPAWNS_CHILDREN}, markers=["children started"])
    run = run_case(case_dir, tmp_path / "work")
    assert run.returncode == 0 and missing_markers(run) == []
    pids = [int(p) for p in (run.work_dir / "case" / "pids.txt").read_text().split()]
    assert wait_dead(pids) == []


def test_holder_runs_during_the_command_and_is_ended(tmp_path):
    holder = """
        import os, sys, time
        open("holder.pid", "w").write(str(os.getpid()))
        print("holding", sys.argv[1], "ready", flush=True)
        time.sleep(60)
    """
    main = """
        import os
        print("holder alive:", os.path.exists("holder.pid"))
    """
    case_dir = make_case(tmp_path / "cases", {"main.py": main, "hold.py": holder},
                         holder="hold.py", holder_args=["{free_port}"], markers=["holder alive: True"])
    run = run_case(case_dir, tmp_path / "work")
    assert missing_markers(run) == []
    assert wait_dead([int((run.work_dir / "case" / "holder.pid").read_text())]) == []
    assert str(run.ports["free_port"]) in (run.work_dir / ".lab" / "holder.out").read_text()


def test_holder_that_never_gets_ready_is_an_error_and_is_ended(tmp_path, monkeypatch):
    monkeypatch.setattr("paddle_doctor.lab.runner.HOLDER_READY_S", 1.0)
    holder = "import os, time\nopen('holder.pid', 'w').write(str(os.getpid()))\ntime.sleep(60)\n"
    case_dir = make_case(tmp_path / "cases", {"main.py": ECHO, "hold.py": holder}, holder="hold.py")
    with pytest.raises(LabError, match="ready"):
        run_case(case_dir, tmp_path / "work")
    assert wait_dead([int((tmp_path / "work" / "case" / "holder.pid").read_text())]) == []


def test_setup_runs_first_and_its_failure_is_an_error(tmp_path):
    setup = "open('made_by_setup.txt', 'w').write('x')\n"
    main = "import os; print('setup file:', os.path.exists('made_by_setup.txt'))\n"
    ok = make_case(tmp_path / "cases", {"main.py": main, "setup.py": setup}, setup="setup.py")
    assert "setup file: True" in run_case(ok, tmp_path / "w1").terminal.read_text()
    bad = make_case(tmp_path / "cases", {"main.py": main, "setup.py": "raise SystemExit(4)\n"},
                    name="98_bad", setup="setup.py")
    with pytest.raises(LabError, match="setup"):
        run_case(bad, tmp_path / "w2")


def test_markers_accept_alternatives(tmp_path):
    case_dir = make_case(tmp_path / "cases", {"main.py": "print('second wording')\n"},
                         markers=[["first wording", "second wording"], "never printed"])
    run = run_case(case_dir, tmp_path / "work")
    assert missing_markers(run) == ["never printed"]


def test_work_dir_with_a_previous_run_is_refused(tmp_path):
    case_dir = make_case(tmp_path / "cases", {"main.py": ECHO})
    run_case(case_dir, tmp_path / "work")
    with pytest.raises(LabError, match="already holds a run"):
        run_case(case_dir, tmp_path / "work")


def test_load_case_rejects_unknown_launcher(tmp_path):
    case_dir = make_case(tmp_path / "cases", {"main.py": ECHO}, launcher="mpirun")
    with pytest.raises(LabError, match="launcher"):
        load_case(case_dir)


@pytest.mark.parametrize(
    ("launcher", "expected"),
    [
        ("none", ["PY", "main.py", "a"]),
        ("launch", ["PY", "-m", "paddle.distributed.launch", "--nproc_per_node", "2",
                    "--log_dir", "log", "--start_port", "PORT", "main.py", "a"]),
        ("fleet", ["PY", "-m", "paddle.distributed.fleet.launch", "--nproc_per_node", "2",
                   "--log_dir", "log", "--start_port", "PORT", "main.py", "a"]),
        ("launch-2nodes", ["PY", "-m", "paddle.distributed.launch", "--master", "127.0.0.1:9",
                           "--nnodes", "2", "--nproc_per_node", "1", "--log_dir", "log",
                           "--start_port", "PORT", "main.py", "a"]),
    ],
)
def test_build_command(tmp_path, launcher, expected):
    extra = [] if launcher == "none" else ["--start_port", "{free_port}"]
    case = load_case(make_case(tmp_path, {"main.py": ""}, launcher=launcher, nproc=2, args=["a"],
                               launcher_args=extra))
    ports = pick_ports(case)
    cmd = build_command(case, "PY", ports, "127.0.0.1:9")
    assert cmd == [substitute(x, ports) if x != "PORT" else str(ports["free_port"]) for x in expected]


def test_a_wrapper_runs_the_command_as_the_users_environment_would(tmp_path):
    """expected.json's ``wrapper`` prefixes the command, run from the case copy (a real run: the
    wrapper sets a variable the script prints)."""
    case_dir = make_case(tmp_path / "cases", {"main.py": "import os; print('wrapped', os.environ['WRAPPED'])\n",
                                              "wrap.sh": 'WRAPPED=yes exec "$@"\n'},
                         wrapper=["sh", "wrap.sh"], markers=["wrapped yes"])
    assert build_command(load_case(case_dir), "PY", {})[:3] == ["sh", "wrap.sh", "PY"]
    run = run_case(case_dir, tmp_path / "work")
    assert run.returncode == 0 and missing_markers(run) == []


def test_cli_prints_where_outputs_are(tmp_path, capsys):
    from paddle_doctor.lab.__main__ import main

    case_dir = make_case(tmp_path / "cases", {"main.py": "print('hi')\n"}, markers=["hi"])
    assert main([str(case_dir), "--work", str(tmp_path / "work")]) == 0
    out = capsys.readouterr().out
    assert str(tmp_path / "work" / "terminal.out") in out and "all found" in out


def test_runner_does_not_import_paddle():
    import subprocess

    code = "import sys, paddle_doctor.lab; print('paddle' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")})
    assert out.stdout.strip() == "False", out.stderr


CASES_DIR = Path(__file__).resolve().parents[2] / "cases"


@pytest.mark.parametrize("case_dir", sorted(p.parent for p in CASES_DIR.glob("*/expected.json")),
                         ids=lambda p: p.name)
def test_case_folder_is_well_formed(case_dir):
    from paddle_doctor.catalog import cause_ids

    case = load_case(case_dir)
    assert case.cause in cause_ids()
    assert case.markers, "markers prove the case failed the way its README says"
    assert (case.rank is None) == (case.launcher == "none")
    readme = (case_dir / "README.md").read_text(encoding="utf-8")
    assert "Guide:" in readme and "Measured" in readme
    assert case.name[:2].isdigit() and case.name[2] == "_"
