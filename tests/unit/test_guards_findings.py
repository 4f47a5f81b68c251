"""What the guards hand over is a Finding, and diagnose names its own cause id from a record of
each guard kind and of each of our exceptions (not ``python_exception``). Records are written by
the runtime's own ``record.write_record`` and the exception hook, into a built log dir; no
processes, no paddle."""

import json
import re

import pytest

from paddle_doctor import errors
from paddle_doctor.contract import GUARD_KINDS, RECORD_SCHEMA
from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.findings import Finding
from paddle_doctor.runtime.guards import hooks
from paddle_doctor.runtime.guards import record as rec
from paddle_doctor.runtime.guards.guardfinding import guard_finding, merged
from paddle_doctor.runtime.guards.guardstate import STATE

QUIET = "I1129 21:49:29.847064 10358 tcp_utils.cc:132] Successfully connected to 127.0.0.1:39144\nstep 1\n"


@pytest.fixture
def rank0(tmp_path, monkeypatch):
    """A log dir of a 2-rank launch, and this process playing rank 0 (which writes the record)."""
    for r in range(2):
        (tmp_path / f"workerlog.{r}").write_text(QUIET)
    monkeypatch.setenv("PADDLE_DOCTOR_LOG_DIR", str(tmp_path))
    monkeypatch.setenv("PADDLE_TRAINER_ID", "0")
    monkeypatch.setenv("PADDLE_TRAINERS_NUM", "2")
    monkeypatch.setattr(rec, "_written", None)
    monkeypatch.setattr(rec, "_path", None)
    monkeypatch.setitem(hooks._state, "disabled", False)
    monkeypatch.setattr(STATE, "fired", False)  # the hook sets it: restored after each test
    return tmp_path


@pytest.mark.parametrize("kind", sorted(GUARD_KINDS))
def test_a_record_of_each_guard_kind_is_diagnosed_as_its_cause(kind, rank0):
    rec.write_record("watchdog", finding=guard_finding(kind, [1], f"rank 1: what the {kind} guard saw"))
    data = json.loads((rank0 / "paddle_doctor_error.0.json").read_text())
    assert data["schema"] == RECORD_SCHEMA
    assert Finding.from_dict(data["finding"]).code == kind
    rc = diagnose_paths([str(rank0)]).root_cause
    assert (rc.cause, rc.ranks) == (GUARD_KINDS[kind], (1,))


OWN = [errors.SampleCountError, errors.StateSchemaError, errors.PreflightError, errors.CollectiveMismatchError,
       errors.StoreTimeoutError]


@pytest.mark.parametrize("cls", OWN, ids=lambda c: c.__name__)
def test_our_own_exception_is_diagnosed_as_its_cause_id(cls, rank0):
    try:
        raise cls("what went wrong\nand a table")
    except cls as exc:
        hooks.on_exception(cls, exc, exc.__traceback__)
    data = json.loads((rank0 / "paddle_doctor_error.0.json").read_text())
    assert (data["finding"]["code"], data["finding"]["cause"]) == (cls.__name__, cls.default_cause)
    assert data["finding"]["message"] == "what went wrong" and data["finding"]["ranks"] == [0]
    rc = diagnose_paths([str(rank0)]).root_cause
    assert (rc.cause, rc.ranks) == (cls.default_cause, (0,))
    assert cls.default_cause != "python_exception"


def test_an_exception_with_a_finding_names_the_finding_s_cause_and_ranks():
    finding = guard_finding("uneven", [2], "rank 2 ran 2 more batches")
    exc = errors.CollectiveMismatchError("collective mismatch", finding=finding)
    assert exc.cause == "uneven_eval_batches" and exc.finding is finding
    assert errors.PreflightError("x").cause == "config_error"
    assert not hasattr(exc, "hint")


def test_guard_findings_check_their_kind_and_merge_by_rank():
    with pytest.raises(ValueError, match="unknown guard kind"):
        guard_finding("verdict", [1], "no such kind")
    both = merged([guard_finding("dead", [2], "rank 2 died"), guard_finding("dead", [1], "rank 1 died")])
    assert (both.code, both.ranks, both.message) == ("dead", (1, 2), "rank 2 died; rank 1 died")


def test_a_sigterm_while_the_watchdog_ends_the_rank_waits_for_it(rank0, monkeypatch):
    """The watchdog writes its record and line, then ends the process itself: the launcher's SIGTERM,
    arriving meanwhile, must not write a record of its own nor hand the process on to Paddle at once."""
    waits = []
    monkeypatch.setattr(hooks.time, "sleep", waits.append)
    monkeypatch.setattr(STATE, "watchdog_ending", True)
    monkeypatch.setattr(STATE, "fired", True)
    hooks._record_term()
    assert waits == [hooks.WATCHDOG_FINISH_S] and not list(rank0.glob("paddle_doctor_error.*"))
    assert hooks.WATCHDOG_FINISH_S < 3.0  # the launcher's SIGKILL follows its SIGTERM after 3 s


@pytest.mark.parametrize("text, victim", [
    ("RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:383] writev [127.0.0.1]:50839: Broken pipe",
     True),
    ("RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:605] Socket closed [127.0.0.1]:50839", True),
    ("RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:576] Read error [127.0.0.1]:24502: "
     "Connection reset by peer", True),
    ("BrokenPipeError: [Errno 32] Broken pipe", False),
])
def test_gloo_s_words_for_a_lost_peer_make_an_exception_a_victim_s(text, victim):
    assert bool(hooks.VICTIM_RE.search(text)) is victim


def test_a_victim_s_exception_names_the_culprit_before_it_tells_the_peers(rank0, monkeypatch):
    """A SIGTERM can end the rank as soon as it is marked as ending: the naming line comes first."""
    calls = []
    culprit = Finding(code="uneven", cause="uneven_eval_batches", message="rank 1 ran one batch more", ranks=(1,))

    class View:
        def peer_finding(self, wait):
            return culprit

        def peer_report(self, mesh):
            return {}

        def mesh(self):
            return None

        def fatal_line(self, finding, path, ending="Ending this rank"):
            return f"[paddle-doctor] watchdog on rank 0: {finding.message}. {ending}"

        def channel_stats(self):
            return None

        def emit(self, line):
            calls.append(("emit", STATE.fired, line))

        def announce_end(self, ok, why, finding):
            calls.append(("announce", STATE.fired, why))

    monkeypatch.setitem(hooks._peers, "view", View())
    exc = RuntimeError("[/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:383] writev [127.0.0.1]:5: Broken pipe")
    hooks.on_exception(RuntimeError, exc, None)
    assert [c[:2] for c in calls] == [("emit", False), ("announce", True)]
    assert "This rank ends" in calls[0][2] and "rank 1 ran one batch more" in calls[0][2]


class RealLines:
    """The watchdog's own line and record functions around a peer view the test decides."""

    def __init__(self, culprit):
        self.culprit, self.emitted = culprit, []

    def peer_finding(self, wait):
        return self.culprit

    def peer_report(self, mesh):
        return {}

    def mesh(self):
        return None

    def channel_stats(self):
        return None

    def fatal_line(self, finding, path, *args):
        from paddle_doctor.runtime.guards import watchdog

        return watchdog.fatal_line(finding, path, *args)

    def emit(self, line):
        self.emitted.append(line)

    def announce_end(self, ok, why, finding):
        pass


def test_a_rank_ending_on_its_own_error_never_says_exit_code_86(rank0, monkeypatch):
    """Issue 28 §9: the victim's line said "exit code 86" while the rank exits with its own error (1)."""
    view = RealLines(Finding(code="dead", cause="host_oom_killed", message="rank 1 died without a word", ranks=(1,)))
    monkeypatch.setitem(hooks._peers, "view", view)
    exc = RuntimeError("[/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = 0 pair_rank = 1")
    hooks.on_exception(RuntimeError, exc, None)
    assert len(view.emitted) == 1 and "rank 1 died without a word" in view.emitted[0]
    words = re.sub(r"\S*/\S*", "PATH", view.emitted[0])  # the record's tmp path may hold any digits
    assert not re.search(r"\b86\b", words) and "its own error" in view.emitted[0]


def test_a_rank_that_raises_its_own_error_does_not_blame_a_peer_that_also_raised(rank0, monkeypatch):
    """Issue 28 §9: both ranks raised the same error at once; the second's record said "rank 0 ended
    with an error" as if it were its culprit. Its own exception is its own story."""
    view = RealLines(Finding(code="failed", cause="python_exception", message="rank 1 ended with an error", ranks=(1,)))
    monkeypatch.setitem(hooks._peers, "view", view)
    hooks.on_exception(ValueError, ValueError("the same bug on every rank"), None)
    assert view.emitted == []
    assert rec.written()["finding"] is None and rec.written()["exception"]["type"] == "ValueError"
