"""Error records: content, one file per process with later events merged, the decorator and the
context manager, the excepthook (in a child process), no paddle."""

import json
import subprocess

from paddle_doctor.contract import RECORD_SCHEMA
from paddle_doctor.findings import Finding
from paddle_doctor.runtime.guards.guardfinding import guard_finding
import sys
import textwrap

import pytest

from paddle_doctor.runtime.guards import record as rec
from paddle_doctor.errors import CollectiveMismatchError
from paddle_doctor.runtime.guards.guardstate import STATE


@pytest.fixture
def log_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PADDLE_DOCTOR_LOG_DIR", str(tmp_path))
    monkeypatch.setenv("PADDLE_TRAINER_ID", "3")
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "4")
    monkeypatch.setenv("PADDLE_DOCTOR_RUN_ID", "run-a")
    monkeypatch.setattr(rec, "_written", None)
    monkeypatch.setattr(rec, "_path", None)
    STATE.unwound = None
    yield tmp_path
    STATE.unwound = None


def test_record_holds_who_when_what_and_memory(log_dir):
    try:
        raise ValueError("bad batch")
    except ValueError as exc:
        path = rec.write_record("exception", exc_info=(ValueError, exc, exc.__traceback__))
    assert path == log_dir / "paddle_doctor_error.3.json"
    data = json.loads(path.read_text())
    assert data["schema"] == RECORD_SCHEMA and data["kind"] == "exception"
    assert (data["rank"], data["world_size"], data["run_id"]) == (3, 4, "run-a")
    assert data["exception"]["type"] == "ValueError" and data["exception"]["message"] == "bad batch"
    assert "raise ValueError" in data["exception"]["traceback"]
    assert data["memory"]["host"]["rss"] > 0 and data["memory"]["host"]["peak_rss"] >= data["memory"]["host"]["rss"]
    assert data["memory"]["device"] is None
    assert data["time"] > 0 and data["pid"] > 0 and data["host"]


def test_a_later_event_is_merged_into_the_first_record(log_dir):
    rec.write_record("exception", exc_info=(KeyError, KeyError("k"), None))
    finding = guard_finding("dead", [1], "rank 1 died")
    rec.write_record("watchdog", finding=finding)
    rec.add_message("[paddle-doctor] watchdog on rank 3: rank 1 died")
    data = json.loads((log_dir / "paddle_doctor_error.3.json").read_text())
    assert data["schema"] == RECORD_SCHEMA and data["kind"] == "exception"
    assert Finding.from_dict(data["finding"]) == finding
    assert "hint" not in data  # schema 2 carries the Finding only
    assert data["later"][0]["kind"] == "watchdog" and data["messages"] == ["[paddle-doctor] watchdog on rank 3: rank 1 died"]


def test_decorator_and_context_manager_record_and_reraise(log_dir):
    @rec.record
    def main():
        raise CollectiveMismatchError("mismatch", finding=guard_finding("mismatch", [0], "rank 0 differs"))

    with pytest.raises(CollectiveMismatchError) as info:
        main()
    assert info.value.__paddle_doctor_recorded__
    data = json.loads((log_dir / "paddle_doctor_error.3.json").read_text())
    assert data["exception"]["type"] == "CollectiveMismatchError"
    assert (data["finding"]["code"], data["finding"]["cause"]) == ("mismatch", "rank_divergent_collective")


def test_a_clean_exit_is_not_a_failure(log_dir):
    with pytest.raises(SystemExit):
        with rec.record():
            raise SystemExit(0)
    assert not list(log_dir.iterdir())
    with pytest.raises(TypeError):
        rec.record(42)


def test_uncaught_exception_in_an_installed_process(tmp_path):
    code = textwrap.dedent("""
        import paddle_doctor, sys
        paddle_doctor.install()
        assert 'paddle' not in sys.modules
        def load():
            raise FileNotFoundError('eval.jsonl')
        load()
    """)
    env = {"PATH": "/usr/bin:/bin", "PADDLE_DOCTOR_LOG_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "FileNotFoundError: eval.jsonl" in proc.stderr  # the usual traceback still prints
    data = json.loads((tmp_path / "paddle_doctor_error.main.json").read_text())
    assert data["rank"] is None and data["exception"]["type"] == "FileNotFoundError"
    assert "in load" in data["exception"]["traceback"]
