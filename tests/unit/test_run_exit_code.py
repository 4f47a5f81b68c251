"""``paddle-doctor run``'s exit code and "who ended the job", from the launcher's code and the
workers' error records (process/supervisor.exit_code). The records are read by diagnose's one
reader (diagnose/records.py), so ``run`` and ``diagnose`` see the same records. Built record
files, no processes."""

import json

from paddle_doctor.contract import RECORD_SCHEMA, WATCHDOG_EXIT_CODE, record_name
from paddle_doctor.process.supervisor import exit_code

SIGTERMED = 128 + 15


def _record(d, rank, kind, code=None, ranks=(), message="", schema=RECORD_SCHEMA, **extra):
    finding = {"code": code, "cause": "unknown", "message": message, "ranks": list(ranks)} if code else None
    data = {"schema": schema, "kind": kind, "rank": rank, "time": 1000.0 + rank, "run_id": "r", "finding": finding,
            **extra}
    path = d / record_name(str(rank))
    path.write_text(json.dumps(data))
    return path


def test_no_record_leaves_the_launchers_code():
    assert exit_code(3, []) == (3, "")


def test_the_programs_own_error_wins_over_the_watchdogs_code_after_it(tmp_path):
    own = _record(tmp_path, 1, "exception", "failed", (1,), "ValueError: bad label")
    victim = _record(tmp_path, 0, "watchdog", "failed", (1,), "rank 1 ended with an error")
    assert exit_code(WATCHDOG_EXIT_CODE, [own, victim]) == (
        1, "the program's own error on rank(s) 1; the watchdog ended rank(s) 0 after it")
    assert exit_code(SIGTERMED, [own])[0] == 1  # the launcher's SIGTERM to the survivors came after it too


def test_a_code_of_the_programs_own_is_kept(tmp_path):
    own = _record(tmp_path, 1, "exception", "ValueError", (1,), "ValueError: bad label")
    assert exit_code(3, [own]) == (3, "the program's own error on rank(s) 1")


def test_the_watchdog_alone_ended_the_job(tmp_path):
    fired = _record(tmp_path, 0, "watchdog", "dead", (1,), "rank 1 died without a word")
    assert exit_code(WATCHDOG_EXIT_CODE, [fired]) == (
        WATCHDOG_EXIT_CODE, "the watchdog ended the job (rank 0: rank 1 died without a word)")


def test_an_exception_a_guard_found_is_the_guards_not_the_programs(tmp_path):
    """A CollectiveMismatchError is raised by the check mode's finding: the guards ended the job."""
    found = _record(tmp_path, 0, "exception", "mismatch", (0, 1), "rank 0 called all_reduce, rank 1 barrier")
    assert exit_code(1, [found]) == (1, "the watchdog ended the job (rank 0: rank 0 called all_reduce, rank 1 barrier)")


def test_a_broken_record_counts_for_nothing(tmp_path):
    broken = tmp_path / record_name("0")
    broken.write_text("{not json")
    wrong = _record(tmp_path, 1, "exception", "failed", (1,), "m", exception={"type": 7})
    assert exit_code(WATCHDOG_EXIT_CODE, [broken, wrong]) == (WATCHDOG_EXIT_CODE, "")


def test_a_schema_1_record_is_read_as_diagnose_reads_it(tmp_path):
    """One reader: a record with a ``hint`` (schema 1) names the watchdog's end in ``run`` too, as
    it does in ``diagnose`` (the supervisor's own reader saw only schema 2's ``finding``)."""
    hint = {"kind": "dead", "category": "host_oom_killed", "ranks": [1], "summary": "rank 1 died"}
    old = _record(tmp_path, 0, "watchdog", schema="paddle_doctor.error_record/1", hint=hint)
    assert exit_code(WATCHDOG_EXIT_CODE, [old]) == (
        WATCHDOG_EXIT_CODE, "the watchdog ended the job (rank 0: rank 1 died)")
