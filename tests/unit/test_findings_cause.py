"""A Finding carries a CauseId member, however it was built (a lens, a table's string, read back
from JSON or from a record), and an id from a newer writer is kept without breaking the reader
(issue 33)."""

import json
import subprocess
import sys

from paddle_doctor.catalog.ids import CauseId
from paddle_doctor.contract import RECORD_SCHEMA, record_name
from paddle_doctor.diagnose.paths import diagnose_paths
from paddle_doctor.diagnose.records import load_records
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


def test_a_finding_built_with_a_string_id_holds_its_member():
    """Lenses that take an id from a table (a string) hand over the same member a literal would."""
    built = Finding("x", "gpu_oom", "m")
    assert built.cause is CauseId.gpu_oom and WRITTEN_CAUSE not in built.facts
    assert Finding("x", CauseId.gpu_oom, "m") == built


def test_a_finding_built_with_an_id_the_catalog_lacks_is_unknown_and_keeps_it():
    built = Finding("x", "quantum_decoherence", "m", facts={"pid": 7})
    assert built.cause is CauseId.unknown
    assert dict(built.facts) == {"pid": 7, WRITTEN_CAUSE: "quantum_decoherence"}


def _record(d, rank, **fields):
    data = {"schema": RECORD_SCHEMA, "kind": "exception", "rank": rank, "time": 1000.0 + rank, "run_id": "r",
            "exception": {"type": "ValueError", "message": "The ``path`` (best.pdparams) to load model not exists.",
                          "traceback": "Traceback ..."}, **fields}
    (d / record_name(str(rank))).write_text(json.dumps(data))


def test_every_guard_finding_diagnose_reads_holds_a_member(tmp_path):
    """Schema 2 (a serialised Finding, its cause empty or from a newer writer) and schema 1 (a hint
    whose category is the id): each record's Finding carries a CauseId member."""
    _record(tmp_path, 0, finding={"code": "exception", "cause": "", "message": "m", "ranks": [0]})
    _record(tmp_path, 1, finding={"code": "dead", "cause": "a_cause_from_the_future", "message": "m", "ranks": [1]})
    _record(tmp_path, 2, schema="paddle_doctor.error_record/1",
            hint={"kind": "dead", "category": "host_oom_killed", "ranks": [2], "summary": "rank 2 died"})
    _record(tmp_path, 3, schema="paddle_doctor.error_record/1", hint={"kind": "dead", "ranks": [3], "summary": "s"})
    records = load_records(sorted(tmp_path.glob("paddle_doctor_*")))
    causes = {rank: rec.finding.cause for rank, rec in records.items()}
    assert all(isinstance(c, CauseId) for c in causes.values()), causes
    assert causes == {0: CauseId.unknown, 1: CauseId.unknown, 2: CauseId.host_oom_killed, 3: CauseId.unknown}


def test_a_guard_finding_with_an_empty_cause_leaves_the_cause_to_the_exception(tmp_path):
    """An empty cause reads as ``unknown``: a guard that named no cause, so the rank's own
    exception decides (diagnose/records.py, CAUSES_LEFT_TO_THE_EXCEPTION)."""
    _record(tmp_path, 1, finding={"code": "exception", "cause": "", "message": "ValueError: ...", "ranks": [1]})
    (tmp_path / "workerlog.0").write_text("step 1\n")
    (tmp_path / "workerlog.1").write_text("step 1\n")
    root = diagnose_paths([str(tmp_path)]).root_cause
    assert (root.cause, root.ranks) == (CauseId.file_not_found, (1,))
