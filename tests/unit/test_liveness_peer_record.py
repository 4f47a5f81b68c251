"""A peer never heard from whose error record is already there: the watchdog reads it with
diagnose's record reader (validated, this run's only) and says what it recorded."""

import json

import pytest

from paddle_doctor.contract import RECORD_SCHEMA, RUN_ID_ENV, LOG_DIR_ENV, record_name
from paddle_doctor.findings import Finding
from paddle_doctor.runtime.guards.liveness.verdict import _peer_record


@pytest.fixture
def rank0(tmp_path, monkeypatch):
    for name, value in {LOG_DIR_ENV: str(tmp_path), RUN_ID_ENV: "run-b", "PADDLE_GLOBAL_RANK": "0",
                        "PADDLE_GLOBAL_SIZE": "2"}.items():
        monkeypatch.setenv(name, value)
    return tmp_path


def _write(log_dir, rank, **fields):
    record = {"schema": RECORD_SCHEMA, "rank": rank, "kind": "exception", "time": 1.0, "run_id": "run-b",
              "exception": {"type": "ValueError", "message": "bad shape", "traceback": "..."}} | fields
    (log_dir / record_name(str(rank))).write_text(json.dumps(record), encoding="utf-8")


def test_a_peers_own_exception_reads_as_failed(rank0):
    _write(rank0, 1)
    [(kind, finding)] = _peer_record(1)
    assert kind == "failed" and finding.ranks == (1,) and "rank 1 ended with an error" in finding.message


def test_a_peers_guard_finding_is_adopted_with_its_cause(rank0):
    named = Finding(code="dead", cause="host_oom_killed", message="rank 3 died", ranks=(3,))
    _write(rank0, 1, finding=named.to_dict())
    [(kind, finding)] = _peer_record(1)
    assert kind == "reported" and finding.ranks == (3,) and finding.cause == named.cause
    assert "recorded by rank 1" in finding.message


def test_an_earlier_runs_record_is_no_answer(rank0):
    _write(rank0, 1, run_id="run-a")
    assert _peer_record(1) is None


def test_a_record_with_a_wrong_field_is_no_answer_instead_of_an_error(rank0):
    # a finding that is not an object once ended the watchdog's check with an AttributeError
    _write(rank0, 1, finding="rank 3 died")
    assert _peer_record(1) is None


def test_no_record_is_no_answer(rank0):
    assert _peer_record(1) is None
