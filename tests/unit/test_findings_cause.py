"""A Finding read back from JSON carries a CauseId member, and an id from a newer writer is kept
without breaking the reader (issue 33)."""

import json
import subprocess
import sys

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.findings import WRITTEN_CAUSE, Finding


def test_the_cause_comes_back_as_its_member():
    finding = Finding("dead", CauseId.host_oom_killed, "rank 1 vanished", facts={"pid": 7})
    again = Finding.from_dict(json.loads(json.dumps(finding.to_dict())))
    assert again.cause is CauseId.host_oom_killed
    assert again == finding


def test_an_id_this_version_does_not_know_reads_as_unknown_and_is_kept():
    data = {"code": "failed", "cause": "quantum_decoherence", "message": "m", "facts": {"pid": 7}}
    finding = Finding.from_dict(data)
    assert finding.cause is CauseId.unknown
    assert finding.fact(WRITTEN_CAUSE) == "quantum_decoherence" and finding.fact("pid") == 7
    assert finding.to_dict()["cause"] == "unknown"  # what this version can stand behind


def test_a_missing_cause_is_unknown_without_a_note():
    finding = Finding.from_dict({"code": "x", "message": "m"})
    assert finding.cause is CauseId.unknown and WRITTEN_CAUSE not in finding.facts


def test_diagnose_reads_a_newer_writers_record_without_failing(tmp_path):
    record = {"schema": "paddle_doctor.error_record/2", "kind": "exception", "rank": 1, "world_size": 2,
              "pid": 9, "time": 1.0, "exception": {"type": "RuntimeError", "message": "boom", "traceback": ""},
              "finding": {"code": "RuntimeError", "cause": "a_cause_from_the_future", "message": "boom",
                          "ranks": [1]}}
    (tmp_path / "paddle_doctor_error.1.json").write_text(json.dumps(record))
    (tmp_path / "workerlog.1").write_text("Traceback (most recent call last):\n  File \"eval.py\", line 3\nRuntimeError: boom\n")
    run = subprocess.run([sys.executable, "-m", "paddle_doctor.cli.main", "diagnose", "--format", "json",
                          str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["root_cause"]["category"] in {c.value for c in CauseId}
