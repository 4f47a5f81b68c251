"""The culprit line (issue 30, "torchrun-grade"): host, global and local rank, pid, failure time and
where it came from, exit code or signal; in text, JSON (``root_cause.culprit``) and HTML. Every
field is read from the recorded logs here, never typed in."""

from __future__ import annotations

import json
import re
from pathlib import Path

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.render.html import render_page
from paddle_doctor.render.json_out import diagnosis_dict
from paddle_doctor.render.text import render_diagnosis

REPO = Path(__file__).resolve().parents[2]
RUN_LOG = REPO / "tests" / "fixtures" / "run_records" / "log"
CASES = REPO / "tests" / "fixtures" / "cases"


def _culprit_text(d) -> str:
    return next(line.text for line in render_diagnosis(d) if line.text.lstrip().startswith("culprit"))


def test_under_run_the_record_gives_host_pid_local_rank_and_time():
    record = json.loads((RUN_LOG / "paddle_doctor_error.1.json").read_text())
    d = diagnose_paths([str(RUN_LOG)])
    culprit = diagnosis_dict(d)["root_cause"]["culprit"]
    assert (culprit["rank"], culprit["local_rank"], culprit["host"], culprit["pid"]) == \
        (record["rank"], record["local_rank"], record["host"], record["pid"])
    assert abs(culprit["time"] - record["time"]) < 1e-6 and culprit["time_source"] == "error record"
    line = _culprit_text(d)
    assert f"rank 1 (local rank 1) on {record['host']}, pid {record['pid']}" in line
    assert "time from its error record" in line
    assert f"pid {record['pid']}" in render_page(d)


def test_a_sigkill_gives_the_launchers_exit_code_and_time():
    d = diagnose_paths([str(CASES / "08_rank1_sigkill_oom")])
    culprit = diagnosis_dict(d)["root_cause"]["culprit"]
    assert culprit["exit_code"] == -9 and culprit["time_source"] == "launcher"
    assert "exit code -9" in _culprit_text(d)


def test_a_native_crash_gives_the_pid_paddle_printed():
    log = (CASES / "10_segfault_rank1" / "log" / "workerlog.1").read_text()
    pid = int(re.search(r"received by PID (\d+)", log).group(1))
    d = diagnose_paths([str(CASES / "10_segfault_rank1")])
    assert diagnosis_dict(d)["root_cause"]["culprit"]["pid"] == pid
    assert f"pid {pid}" in _culprit_text(d) and "Aborted at" in _culprit_text(d)
