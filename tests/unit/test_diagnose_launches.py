"""Reruns in one log dir (issue 30, item 1): Paddle's launcher appends to ``workerlog.N``, so a
failed launch and a passing rerun share the files. ``diagnose`` reads the last launch and says how
many it found; ``--launch K`` picks another; ``run`` diagnoses only what its own launch wrote.

The fixture is a real recording: ``tests/fixtures/reruns/record.py`` ran the launcher twice in one
folder (``job.py fail``, then ``job.py``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from paddle_doctor.cli.main import cli
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.read.launches import LaunchChoice, LaunchSplitter

REPO = Path(__file__).resolve().parents[2]
RERUNS = REPO / "tests" / "fixtures" / "reruns"
GLOG_TIME = re.compile(r"^I\d{4} (\d\d:\d\d:\d\d)\.")


def _first_time_of_last_launch(log: Path) -> str:
    """The HH:MM:SS of the first glog line after the file's last Paddle start banner (read here
    from the file, as a person would)."""
    lines = log.read_text().splitlines()
    last_banner = max(i for i, line in enumerate(lines) if "Modified FLAGS detected" in line)
    return next(m.group(1) for line in lines[last_banner:] if (m := GLOG_TIME.match(line)))


def test_a_passing_rerun_is_what_diagnose_reports_and_it_says_there_were_two_launches():
    d = diagnose_paths([str(RERUNS / "log")])
    assert d.verdict == "no_failure_found" and d.root_cause is None
    started = min(_first_time_of_last_launch(RERUNS / "log" / f"workerlog.{r}") for r in (0, 1))
    assert any(n.startswith("2 launches in these logs") and f"diagnosing the last, started {started}" in n
               for n in d.notes), d.notes


def test_launch_1_is_the_failed_one_with_line_numbers_of_the_whole_file():
    d = diagnose_paths([str(RERUNS / "log")], launch=LaunchChoice(index=1))
    rc = d.root_cause
    assert rc is not None and rc.cause == "python_exception" and rc.ranks == (1,)
    lines = (RERUNS / "log" / "workerlog.1").read_text().splitlines()
    for ev in rc.evidence:
        assert lines[ev.line - 1].strip() == ev.text.strip()
    assert any("diagnosing launch 1" in n for n in d.notes)


def test_the_cli_takes_launch_k_and_refuses_a_launch_that_is_not_there():
    runner = CliRunner()
    first = runner.invoke(cli, ["diagnose", "--launch", "1", str(RERUNS / "log")])
    assert first.exit_code == 0 and "ValueError: rank 1: labels have 3 columns" in first.output
    last = runner.invoke(cli, ["diagnose", str(RERUNS / "log")])
    assert last.exit_code == 0 and "no failure found" in last.output and "2 launches" in last.output
    missing = runner.invoke(cli, ["diagnose", "--launch", "3", str(RERUNS / "log")])
    assert missing.exit_code == 2 and "no launch 3" in missing.output and "Traceback" not in missing.output


def test_a_terminal_output_appended_twice_is_split_at_the_launchers_start():
    d = diagnose_paths([str(RERUNS / "terminal.out")])
    assert d.verdict == "no_failure_found"
    assert any(n.startswith("2 launches in this log") for n in d.notes)
    first = diagnose_paths([str(RERUNS / "terminal.out")], launch=LaunchChoice(index=1))
    assert first.verdict == "failure"


def test_one_launch_is_not_split_and_gets_no_note():
    d = diagnose_paths([str(REPO / "tests" / "fixtures" / "cases" / "01_exception_rank1")])
    assert d.root_cause is not None and d.root_cause.ranks == (1,)
    assert not any("launches" in n for n in d.notes)


def _feed(splitter: LaunchSplitter, lines: list[str]) -> list[int]:
    offset = 0
    for line in lines:
        m = GLOG_TIME.match(line)
        when = None if m is None else sum(int(x) * k for x, k in zip(m.group(1).split(":"), (3600, 60, 1)))
        splitter.feed(offset, line, when)
        offset += len(line) + 1
    return [w.start for w in splitter.windows()]


BANNER = ["UserWarning: No ccache found.", "======= Modified FLAGS detected ======="]


def test_a_spawned_child_that_prints_paddles_banner_is_no_new_launch():
    # multiprocessing's spawn imports paddle again in the child (a DataLoader worker, case 17):
    # the banner comes again, but the child does not join the job's store.
    lines = BANNER + ["I1204 10:00:00.1 1 tcp_utils.cc:132] Successfully connected to 127.0.0.1:1",
                      "step 1"] + BANNER + ["child: loading", "Traceback (most recent call last):"]
    assert _feed(LaunchSplitter(), lines) == [0]


def test_a_clock_that_goes_back_starts_a_launch_even_without_banners():
    lines = ["I1204 10:05:00.1 1 a.cc:1] Error one", "I1204 10:00:00.1 1 a.cc:1] Error two"]
    starts = _feed(LaunchSplitter(), lines)
    assert len(starts) == 2 and starts[1] == len(lines[0]) + 1


def test_run_diagnoses_nothing_old_when_its_command_wrote_nothing(tmp_path):
    """``paddle-doctor run -- python -c "import sys; sys.exit(3)"`` beside an old failed launch:
    no old verdict, and the old page is kept (set aside), not overwritten."""
    shutil.copytree(RERUNS / "log", tmp_path / "log")
    page = tmp_path / "log" / "paddle_doctor_report.html"
    page.write_text("<p>an earlier failure</p>")
    proc = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "run", "--", sys.executable, "-c",
                           "import sys; sys.exit(3)"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3
    assert "VERDICT" not in proc.stderr and "ValueError" not in proc.stderr
    assert "printed nothing and wrote nothing" in proc.stderr
    assert not page.exists() and page.with_name("paddle_doctor_report.earlier.html").read_text() == \
        "<p>an earlier failure</p>"


def _rerun_after(log: Path, when: float) -> str:
    """The passing launch of the recorded pair (its last banner to the end), its glog times moved
    to ``when`` (after an earlier launch in another recording)."""
    import datetime as dt

    lines = log.read_text().splitlines(keepends=True)
    start = max(i for i, line in enumerate(lines) if "No ccache found" in line)
    stamp = dt.datetime.fromtimestamp(when).strftime("I%m%d %H:%M:%S")
    return "".join(re.sub(r"^I\d{4} \d\d:\d\d:\d\d", stamp, line) for line in lines[start:])


def test_error_records_of_an_earlier_launch_do_not_decide_the_last_one(tmp_path):
    """A failed `paddle-doctor run` left records; the user then reran with the plain launcher, which
    passed and appended to the same logs: the records are the earlier launch's."""
    import json

    run_log = REPO / "tests" / "fixtures" / "run_records" / "log"
    shutil.copytree(run_log, tmp_path / "log")
    failed_at = json.loads((run_log / "paddle_doctor_error.1.json").read_text())["time"]
    for rank in (0, 1):
        with open(tmp_path / "log" / f"workerlog.{rank}", "a") as log:
            log.write(_rerun_after(RERUNS / "log" / f"workerlog.{rank}", failed_at + 60))
    d = diagnose_paths([str(tmp_path / "log")])
    assert d.verdict == "no_failure_found", d.root_cause
    first = diagnose_paths([str(tmp_path / "log")], launch=LaunchChoice(index=1))
    assert first.root_cause is not None and first.root_cause.ranks == (1,)


def test_one_launcher_log_per_launch_is_read(tmp_path):
    """The new launcher writes a new <job>.<pod>.log per launch into the same dir."""
    import os

    shutil.copytree(RERUNS / "log", tmp_path / "log")
    for i, name in enumerate(("default.aaaaaa.log", "default.bbbbbb.log")):
        path = tmp_path / "log" / name
        path.write_text("[{'name': 'x', 'rank': -1, 'replicas': 2}]\n")
        os.utime(path, (1_000_000 + i, 1_000_000 + i))
    assert diagnose_paths([str(tmp_path / "log")]).files_read == 3  # two worker logs and the last pod log


def test_a_second_env_dump_in_a_worker_log_starts_a_launch():
    lines = ["PADDLE_TRAINER_ID=1", "PADDLE_TRAINERS_NUM=2", "step 1", "Traceback (most recent call last):",
             "PADDLE_TRAINER_ID=1", "PADDLE_TRAINERS_NUM=2", "step 1"]
    starts = _feed(LaunchSplitter(), lines)
    assert len(starts) == 2 and starts[1] == sum(len(line) + 1 for line in lines[:4])
    assert len(_feed(LaunchSplitter(worker_log=False), lines)) == 1  # a terminal interleaves ranks' dumps
