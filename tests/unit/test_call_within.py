"""``call_within``: the one deadline for blocking lookups (smoke's host check and env's address)."""

import threading
import time

from paddle_doctor.process.bounded_run import call_within


def test_the_result_of_a_call_that_returns_in_time():
    assert call_within(lambda: {"10.0.0.1"}, 1.0, set()) == {"10.0.0.1"}


def test_a_call_past_its_deadline_gives_the_default_without_waiting_for_it():
    release = threading.Event()
    started = time.monotonic()
    assert call_within(lambda: release.wait(5) or "late", 0.1, None) is None
    assert time.monotonic() - started < 2.0
    release.set()


def test_a_lookup_error_gives_the_default():
    def refuse():
        raise OSError("Name or service not known")

    assert call_within(refuse, 1.0, "none") == "none"


def test_a_bug_in_the_call_is_not_taken_for_a_failed_lookup(monkeypatch):
    # only OSError/UnicodeError mean "no answer"; anything else reaches threading's excepthook
    # (reported, never swallowed), and the default is returned.
    seen = []
    monkeypatch.setattr(threading, "excepthook", lambda args: seen.append(args.exc_type))
    assert call_within(lambda: 1 / 0, 1.0, "default") == "default"
    assert seen == [ZeroDivisionError]
