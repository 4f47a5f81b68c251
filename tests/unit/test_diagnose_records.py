"""diagnose with paddle-doctor's error records in the log dir: the records name the cause when
they can (a guard's Finding, a rank's own exception, first by recorded time), and the log rules
decide otherwise. Schema 1 (a ``hint`` dict) and schema 2 (a serialised Finding) are both read.
Built log dirs, no processes."""

import json

import pytest

from paddle_doctor.contract import RECORD_SCHEMA, record_name
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.records import classify_exception, load_records
from paddle_doctor.errors import CAUSE_BY_NAME
from paddle_doctor.findings import Finding

QUIET = "I1129 21:49:29.847064 10358 tcp_utils.cc:132] Successfully connected to 127.0.0.1:39144\nstep 1\n"


def write_logs(d, world=2, **extra):
    d.mkdir(exist_ok=True)
    for r in range(world):
        (d / f"workerlog.{r}").write_text(QUIET + extra.get(f"log{r}", ""))
    return d


def write_record(d, rank, t, kind="watchdog", hint=None, exc=None, signal=None, run_id="run-b"):
    """A schema-1 record (the runtime wrote these until the record issue)."""
    data = {"schema": "paddle_doctor.error_record/1", "kind": kind, "rank": rank, "time": t, "run_id": run_id,
            "hint": hint, "signal": signal,
            "exception": {"type": exc[0], "message": exc[1], "traceback": "Traceback ..."} if exc else None}
    (d / f"paddle_doctor_error.{rank}.json").write_text(json.dumps(data))


def write_record2(d, rank, t, finding=None, kind="watchdog", exc=None, signal=None, run_id="run-b"):
    """A schema-2 record: a serialised Finding plus process facts (paddle_doctor.contract)."""
    data = {"schema": RECORD_SCHEMA, "finding": finding.to_dict() if finding else None, "kind": kind,
            "rank": rank, "time": t, "run_id": run_id, "signal": signal, "host": "node-a", "pid": 4242,
            "exception": {"type": exc[0], "message": exc[1], "traceback": "Traceback ..."} if exc else None}
    (d / record_name(str(rank))).write_text(json.dumps(data))


DEAD = {"kind": "dead", "category": "host_oom_killed", "ranks": [1],
        "summary": "rank 1 died without a word: its process is gone"}


def test_a_watchdog_hint_names_a_silent_death(tmp_path):
    d = write_logs(tmp_path / "log")
    write_record(d, 0, 1000.0, hint=DEAD)
    diag = diagnose_paths([str(d)])
    rc = diag.root_cause
    assert (rc.cause, rc.ranks, rc.confidence) == ("host_oom_killed", (1,), "high")
    assert rc.evidence[0].path.endswith("paddle_doctor_error.0.json") and "rank 1 died" in rc.evidence[0].text
    assert "error record" in rc.fact("time_source")
    assert diag.files_read == 2  # records are not read as logs


def test_the_first_failure_by_recorded_time_wins(tmp_path):
    d = write_logs(tmp_path / "log", world=3)
    write_record(d, 2, 1000.0, kind="exception", exc=("ValueError", "simulated bug"))
    failed = {"kind": "failed", "category": None, "ranks": [2], "summary": "rank 2 ended with an error"}
    write_record(d, 0, 1000.2, hint=failed)
    write_record(d, 1, 1000.3, kind="exception", exc=("KeyError", "later and unrelated"))
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.cause, rc.ranks) == ("python_exception", (2,))
    assert rc.message == "ValueError: simulated bug"


def test_a_victims_gloo_error_and_a_sigterm_are_not_causes(tmp_path):
    log1 = "Traceback (most recent call last):\nValueError: the real bug\n"
    d = write_logs(tmp_path / "log", log1=log1)
    write_record(d, 0, 1000.0, kind="exception",
                 exc=("RuntimeError", "[/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = 0 "
                                      "pair_rank = 1 peer_str = [127.0.0.1]:52869"))
    write_record(d, 1, 999.0, kind="signal", signal="SIGTERM")
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.cause, rc.ranks) == ("python_exception", (1,))  # from the logs
    assert not rc.evidence[0].path.endswith(".json")


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
    assert (rc.cause, rc.ranks) == ("uneven_eval_batches", (1,))


def test_records_of_an_earlier_run_are_ignored(tmp_path):
    d = write_logs(tmp_path / "log")
    write_record(d, 1, 500.0, kind="exception", exc=("KeyError", "old run"), run_id="run-a")
    write_record(d, 0, 1000.0, hint=DEAD, run_id="run-b")
    (d / "paddle_doctor_fault.1.dump").write_text("")  # a SIGKILLed rank's empty dump file
    assert sorted(load_records(sorted(d.glob("paddle_doctor_*")))) == [0]
    assert diagnose_paths([str(d)]).root_cause.cause == "host_oom_killed"


def test_a_guard_hint_with_its_own_cause_id(tmp_path):
    d = write_logs(tmp_path / "log", world=3)
    hint = {"category": "uneven_eval_batches", "ranks": [2], "summary": "ranks ran different numbers of batches"}
    for r in range(3):
        write_record(d, r, 1000.0 + r / 10, kind="exception", exc=("CollectiveMismatchError", "collective mismatch"),
                     hint=hint)
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.cause, rc.ranks) == ("uneven_eval_batches", (2,))


def test_exceptions_are_classified_by_diagnoses_signatures():
    assert classify_exception("ValueError", "The ``path`` (best.pdparams) to load model not exists.") == "file_not_found"
    assert classify_exception("MemoryError", "") == "host_out_of_memory"
    assert classify_exception("KeyError", "'label'") == "python_exception"
    assert classify_exception("RuntimeError", "(Fatal) first line\n[pair.cc:584] TIMEOUT self_rank = 0 pair_rank = 1") is None


def test_a_rank_ended_by_the_watchdog_is_a_victim_not_ok(tmp_path):
    d = write_logs(tmp_path / "log")
    write_record(d, 0, 1000.0, hint=DEAD)
    statuses = {r.ranks[0]: (r.status, r.why) for r in diagnose_paths([str(d)]).ranks}
    assert statuses[1][0] == "root_cause"
    assert statuses[0][0] == "victim" and "watchdog" in statuses[0][1]


# -- schema 2: a serialised Finding ---------------------------------------------------------------


def test_schema2_watchdog_finding_names_the_silent_rank(tmp_path):
    d = write_logs(tmp_path / "log")
    dead = Finding(code="dead", cause="host_oom_killed", message="rank 1 died without a word: its process is gone",
                   ranks=(1,), why="no heartbeat for 10 s and its pid is gone")
    write_record2(d, 0, 1000.0, finding=dead)
    diag = diagnose_paths([str(d)])
    rc = diag.root_cause
    assert (rc.code, rc.cause, rc.ranks) == ("dead", "host_oom_killed", (1,))
    assert rc.evidence[0].path.endswith(record_name("0")) and "rank 1 died" in rc.evidence[0].text
    statuses = {r.ranks[0]: r.status.value for r in diag.ranks}
    assert statuses == {0: "victim", 1: "root_cause"}


def test_schema2_record_is_read_with_from_dict(tmp_path):
    d = tmp_path / "log"
    d.mkdir()
    mismatch = Finding(code="collective_mismatch", cause="rank_divergent_collective",
                       message="rank 0 called all_reduce, rank 1 called barrier", ranks=(1, 0))
    write_record2(d, 0, 1000.0, finding=mismatch, kind="exception",
                  exc=("CollectiveMismatchError", "rank 0 called all_reduce, rank 1 called barrier"))
    records = load_records(sorted(d.glob("paddle_doctor_*")))
    assert records[0].finding == mismatch and records[0].schema == RECORD_SCHEMA


def test_schema2_plain_exception_is_classified_by_its_own_text(tmp_path):
    """A runtime that marks every exception python_exception still gets the specific cause."""
    d = write_logs(tmp_path / "log")
    generic = Finding(code="exception", cause="python_exception", message="ValueError: ...", ranks=(1,))
    write_record2(d, 1, 1000.0, finding=generic, kind="exception",
                  exc=("ValueError", "The ``path`` (best.pdparams) to load model not exists."))
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.cause, rc.ranks) == ("file_not_found", (1,))


def test_schema2_victims_exception_is_not_the_cause(tmp_path):
    d = write_logs(tmp_path / "log", log1="Traceback (most recent call last):\nKeyError: 'label'\n")
    generic = Finding(code="exception", cause="python_exception", message="RuntimeError: ...", ranks=(0,))
    write_record2(d, 0, 1000.0, finding=generic, kind="exception",
                  exc=("RuntimeError", "[/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT "
                                       "self_rank = 0 pair_rank = 1 peer_str = [127.0.0.1]:52869"))
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.cause, rc.ranks) == ("python_exception", (1,))


# -- our own exceptions name their cause id --------------------------------------------------------


OUR_EXCEPTIONS = sorted(n for n in CAUSE_BY_NAME if n not in ("PaddleDoctorError", "EvalError", "GuardError"))


@pytest.mark.parametrize("name", OUR_EXCEPTIONS)
def test_our_exception_in_a_log_names_its_cause(name, tmp_path):
    log = tmp_path / "workerlog.0"
    log.write_text("Traceback (most recent call last):\n  File \"eval.py\", line 3, in <module>\n"
                   f"paddle_doctor.errors.{name}: something the guard measured\n")
    rc = diagnose_paths([str(log)]).root_cause
    assert rc.cause == CAUSE_BY_NAME[name]
    assert name in rc.message


@pytest.mark.parametrize("name", OUR_EXCEPTIONS)
def test_our_exception_in_a_record_names_its_cause(name, tmp_path):
    d = write_logs(tmp_path / "log")
    write_record2(d, 1, 1000.0, kind="exception", exc=(f"paddle_doctor.errors.{name}", "measured"))
    rc = diagnose_paths([str(d)]).root_cause
    assert (rc.cause, rc.ranks) == (CAUSE_BY_NAME[name], (1,))


# -- a lone process waiting for peers: leftover variables or missing ones ------------------------------

STORE_TIMEOUT = ("SystemError: (Fatal) _timeout:900 elapsed:901 (elapsed > _timeout)=1 (at /paddle/paddle/phi/"
                 "core/distributed/store/tcp_store.cc:433)\n")


def test_lone_store_timeout_without_leftovers_is_missing_env(tmp_path):
    f = tmp_path / "train.log"
    f.write_text("Traceback (most recent call last):\n" + STORE_TIMEOUT)
    assert diagnose_paths([str(f)]).root_cause.cause == "missing_dist_env"


def test_lone_store_timeout_with_leftover_paddle_vars_is_residual_env(tmp_path):
    f = tmp_path / "train.log"
    f.write_text("$ env | grep PADDLE\nPADDLE_TRAINERS_NUM=2\nPADDLE_TRAINER_ENDPOINTS=10.0.0.1:6170,10.0.0.2:6170\n"
                 "$ python train.py\nTraceback (most recent call last):\n" + STORE_TIMEOUT)
    rc = diagnose_paths([str(f)]).root_cause
    assert rc.cause == "residual_dist_env" and rc.alternatives[0].cause == "missing_dist_env"


def test_a_watchdogs_inferred_ending_yields_to_the_culprits_own_log():
    """A survivor's "rank 2 crashed" is how it ended; rank 2's own log (gloo's size check) says why."""
    from paddle_doctor.diagnose.rootcause import prefer as _prefer
    from paddle_doctor.findings import Finding

    crashed = Finding("crashed", "segfault", "rank 2 crashed in native code", ranks=(2,))
    logged = Finding("gloo_size_mismatch", "uneven_eval_batches", "sizes differ", ranks=(2,))
    other_rank = Finding("gloo_size_mismatch", "uneven_eval_batches", "sizes differ", ranks=(1,))
    guard = Finding("mismatch", "rank_divergent_collective", "rank 0 all_reduce, rank 1 barrier", ranks=(1,))
    assert _prefer(crashed, logged) is logged
    assert _prefer(crashed, other_rank) is crashed
    assert _prefer(crashed, Finding("x", "unknown", "?", ranks=(2,))) is crashed
    assert _prefer(guard, other_rank) is guard  # a guard that saw the cause itself wins
    assert _prefer(None, logged) is logged and _prefer(crashed, None) is crashed


def test_ranks_that_raise_the_same_error_at_once_failed_together(tmp_path):
    """Issue 28 §9: both ranks raised the same error 50 ms apart; "rank 1 failed first [high]" picked
    one arbitrarily. They failed together, and both are the root cause; far apart, the first wins."""
    from paddle_doctor.render.text import render_diagnosis

    d = write_logs(tmp_path / "log")
    write_record2(d, 1, 1000.00, kind="exception", exc=("ValueError", "the same bug on every rank"))
    write_record2(d, 0, 1000.05, kind="exception", exc=("ValueError", "the same bug on every rank"))
    diag = diagnose_paths([str(d)])
    rc = diag.root_cause
    assert (rc.cause, rc.ranks) == ("python_exception", (0, 1))
    assert rc.message.startswith("ranks 0 and 1 failed together") and "no rank failed first" in rc.why
    assert [f.status.value for f in diag.ranks] == ["root_cause", "root_cause"]
    verdict = [line.text for line in render_diagnosis(diag) if "VERDICT" in line.text]
    assert verdict and all("ranks 0 and 1 failed together" in v and "failed first" not in v for v in verdict)
    write_record2(d, 0, 1003.0, kind="exception", exc=("ValueError", "the same bug on every rank"))
    rc = diagnose_paths([str(d)]).root_cause
    assert rc.ranks == (1,) and "together" not in rc.message
    write_record2(d, 0, 1000.05, kind="exception", exc=("ValueError", "another bug"))
    assert diagnose_paths([str(d)]).root_cause.ranks == (1,)
