"""diagnose with paddle-doctor's error records in the log dir: the records name the cause when
they can (a guard's hint, a rank's own exception, first by recorded time), and the log rules
decide otherwise. Built log dirs, no processes."""

import json

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.records import classify_exception, load_records

QUIET = "I1129 21:49:29.847064 10358 tcp_utils.cc:132] Successfully connected to 127.0.0.1:39144\nstep 1\n"


def write_logs(d, world=2, **extra):
    d.mkdir(exist_ok=True)
    for r in range(world):
        (d / f"workerlog.{r}").write_text(QUIET + extra.get(f"log{r}", ""))
    return d


def write_record(d, rank, t, kind="watchdog", hint=None, exc=None, signal=None, run_id="run-b"):
    data = {"schema": "paddle_doctor.error_record/1", "kind": kind, "rank": rank, "time": t, "run_id": run_id,
            "hint": hint, "signal": signal,
            "exception": {"type": exc[0], "message": exc[1], "traceback": "Traceback ..."} if exc else None}
    (d / f"paddle_doctor_error.{rank}.json").write_text(json.dumps(data))


DEAD = {"kind": "dead", "category": "host_oom_killed", "ranks": [1],
        "summary": "rank 1 died without a word: its process is gone"}


def test_a_watchdog_hint_names_a_silent_death(tmp_path):
    d = write_logs(tmp_path / "log")
    write_record(d, 0, 1000.0, hint=DEAD)
    diag = diagnose_paths([str(d)])
    rc = diag.root_cause
    assert (rc.category, rc.rank, rc.confidence) == ("host_oom_killed", 1, "high")
    assert rc.evidence[0].file.endswith("paddle_doctor_error.0.json") and "rank 1 died" in rc.evidence[0].text
    assert "error record" in rc.time_source
    assert diag.files_read == 2  # records are not read as logs


def test_the_first_failure_by_recorded_time_wins(tmp_path):
    d = write_logs(tmp_path / "log", world=3)
    write_record(d, 2, 1000.0, kind="exception", exc=("ValueError", "simulated bug"))
    failed = {"kind": "failed", "category": None, "ranks": [2], "summary": "rank 2 ended with an error"}
    write_record(d, 0, 1000.2, hint=failed)
    write_record(d, 1, 1000.3, kind="exception", exc=("KeyError", "later and unrelated"))
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.category, rc.rank) == ("python_exception", 2)
    assert rc.title == "ValueError: simulated bug"


def test_a_victims_gloo_error_and_a_sigterm_are_not_causes(tmp_path):
    log1 = "Traceback (most recent call last):\nValueError: the real bug\n"
    d = write_logs(tmp_path / "log", log1=log1)
    write_record(d, 0, 1000.0, kind="exception",
                 exc=("RuntimeError", "[/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = 0 "
                                      "pair_rank = 1 peer_str = [127.0.0.1]:52869"))
    write_record(d, 1, 999.0, kind="signal", signal="SIGTERM")
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.category, rc.rank) == ("python_exception", 1)  # from the logs
    assert not rc.evidence[0].file.endswith(".json")


def test_a_crash_dump_defers_to_the_logs(tmp_path):
    log1 = ("terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
            "  what():  [enforce fail at /paddle/third_party/gloo/gloo/transport/tcp/pair.cc:495] "
            "op.preamble.length <= op.nbytes. 8 vs 4\n")
    d = write_logs(tmp_path / "log", log1=log1)
    write_record(d, 0, 1000.0, hint=DEAD)
    (d / "paddle_doctor_fault.1.dump").write_text("Fatal Python error: Aborted\n\nThread 0x1 (most recent call first):\n")
    records = load_records(sorted(d.glob("paddle_doctor_*")))
    assert records[1].kind == "crash_dump" and records[1].signal == "SIGABRT"
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.category, rc.rank) == ("uneven_eval_batches", 1)


def test_records_of_an_earlier_run_are_ignored(tmp_path):
    d = write_logs(tmp_path / "log")
    write_record(d, 1, 500.0, kind="exception", exc=("KeyError", "old run"), run_id="run-a")
    write_record(d, 0, 1000.0, hint=DEAD, run_id="run-b")
    (d / "paddle_doctor_fault.1.dump").write_text("")  # a SIGKILLed rank's empty dump file
    assert sorted(load_records(sorted(d.glob("paddle_doctor_*")))) == [0]
    assert diagnose_paths([str(d)]).root_cause.category == "host_oom_killed"


def test_a_guard_hint_with_its_own_cause_id(tmp_path):
    d = write_logs(tmp_path / "log", world=3)
    hint = {"category": "uneven_eval_batches", "ranks": [2], "summary": "ranks ran different numbers of batches"}
    for r in range(3):
        write_record(d, r, 1000.0 + r / 10, kind="exception", exc=("CollectiveMismatchError", "collective mismatch"),
                     hint=hint)
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.category, rc.rank) == ("uneven_eval_batches", 2)


def test_exceptions_are_classified_by_diagnoses_signatures():
    assert classify_exception("ValueError", "The ``path`` (best.pdparams) to load model not exists.") == "file_not_found"
    assert classify_exception("MemoryError", "") == "host_out_of_memory"
    assert classify_exception("KeyError", "'label'") == "python_exception"
    assert classify_exception("RuntimeError", "(Fatal) first line\n[pair.cc:584] TIMEOUT self_rank = 0 pair_rank = 1") is None


def test_a_rank_ended_by_the_watchdog_is_a_victim_not_ok(tmp_path):
    d = write_logs(tmp_path / "log")
    write_record(d, 0, 1000.0, hint=DEAD)
    statuses = {r.rank: (r.status, r.why) for r in diagnose_paths([str(d)]).ranks}
    assert statuses[1][0] == "root_cause"
    assert statuses[0][0] == "victim" and "watchdog" in statuses[0][1]
