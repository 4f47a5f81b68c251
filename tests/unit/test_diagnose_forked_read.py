"""Many big logs are read in two processes (diagnose/read/readall.py): the diagnosis is the one a
single process gives, whichever process read which file, and whatever goes wrong on the child's side."""

import os
import threading
import time

import pytest

from paddle_doctor.diagnose import diagnose_paths
from paddle_doctor.diagnose.read import readall
from paddle_doctor.process import forked as forked_proc
from paddle_doctor.diagnose.read.runners import RUNNER_SIGNATURES
from paddle_doctor.diagnose.read.sources import discover
from paddle_doctor.diagnose.signatures import SIGNATURES
from paddle_doctor.render import json_out

WORLD = 24
CULPRIT = 13
START = ("I1129 21:40:56.031740  4601 tcp_utils.cc:132] Successfully connected to 127.0.0.1:46196\n"
         "[2025/11/29 10:00:{s:02d}] ppocr INFO: epoch: [1/500], global_step: 10, lr: 0.001, loss: 1.2\n")
VICTIM = ("Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
          "    paddle.distributed.all_reduce(t)\n"
          "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = {r} "
          f"pair_rank = {CULPRIT} peer_str = [10.0.0.7]:6170\n")
CULPRIT_TAIL = ("Traceback (most recent call last):\n  File \"train.py\", line 40, in <module>\n"
                "    batch = next(it)\nKeyError: 'image_path'\n")
# Between the first lines and the tail: lines to scan, with now and then a trigger word.
FILLER = "[2025/11/29 10:01:{s:02d}] ppocr INFO: global_step: {n}, loss: 0.{n:04d}, eta: 0:10:00\n"


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("forked") / "log"
    d.mkdir()
    for r in range(WORLD):
        body = "".join(FILLER.format(s=n % 60, n=n) for n in range(200 + 37 * r))
        if r % 5 == 0:
            body += "UserWarning: an Error now and then\n" + body[:2000]
        tail = CULPRIT_TAIL if r == CULPRIT else VICTIM.format(r=r)
        (d / f"workerlog.{r}").write_text(START.format(s=r) + body + tail)
    (d / "workerlog.99").write_bytes(b"\x00" * 4096)  # binary: skipped, with its reason
    return d


@pytest.fixture
def forked(monkeypatch):
    """Fork on any input of 2 files or more, after the first ~64 KiB (a few files) read before it;
    record what each read_all call did."""
    monkeypatch.setattr(readall, "FORK_MIN_FILES", 2)
    monkeypatch.setattr(readall, "FORK_MIN_BYTES", 0)
    monkeypatch.setattr(readall, "SMALL_SCAN_BYTES", 64 << 10)
    monkeypatch.setattr(forked_proc, "idle_core", lambda: True)  # whatever else runs beside the tests
    seen = {"forks": 0, "from_child": 0}
    real_read, real_unpack = readall._read_in_two, readall._Inbox._unpack

    def read_in_two(*args):
        outcomes = real_read(*args)
        seen["forks"] += outcomes is not None
        return outcomes

    def unpack(self, frames, outcomes):
        before = len(outcomes)
        real_unpack(self, frames, outcomes)
        seen["from_child"] += len(outcomes) - before

    monkeypatch.setattr(readall, "_read_in_two", read_in_two)
    monkeypatch.setattr(readall._Inbox, "_unpack", unpack)
    return seen


@pytest.fixture
def slow_parent(monkeypatch):
    """This process takes a while over each file it reads itself, so the child, however late the scheduler starts
    it on a loaded machine, finds files left to take (the tests that check it read some)."""
    parent, real_outcome = os.getpid(), readall._outcome

    def outcome(source, year, choice):
        if os.getpid() == parent and threading.current_thread() is threading.main_thread():
            time.sleep(0.05)
        return real_outcome(source, year, choice)

    monkeypatch.setattr(readall, "_outcome", outcome)


def _json(paths):
    return json_out.dumps(json_out.diagnosis_dict(diagnose_paths(paths)))


def _serial_json(monkeypatch, paths):
    with monkeypatch.context() as m:
        m.setattr(readall, "FORK_MIN_FILES", 10**9)
        return _json(paths)


def test_two_processes_give_the_one_process_diagnosis(log_dir, forked, slow_parent, monkeypatch):
    serial = _serial_json(monkeypatch, [str(log_dir)])
    assert forked["forks"] == 0
    assert _json([str(log_dir)]) == serial
    assert forked["forks"] == 1 and forked["from_child"] > 0  # the child did read some of the files
    assert forked["from_child"] <= WORLD + 1 - 4  # not the first ones, read before the fork
    assert '"category": "python_exception"' in serial and "workerlog.99: skipped, binary" in serial


def test_the_child_sends_back_the_parents_own_signatures_and_sources(log_dir, forked, slow_parent):
    sources, skipped = discover([str(log_dir)], None)
    files, _ = readall.read_all(sources, skipped)
    assert forked["from_child"] > 0
    shared = {id(s) for s in (*SIGNATURES, *RUNNER_SIGNATURES)}
    assert all(id(e.sig) in shared for f in files for e in f.events)
    assert all(any(f.source is s for s in sources) for f in files)
    line_numbers = [e.line for f in files for e in f.events]  # each file reopened for its line numbers
    assert line_numbers and all(n >= 1 for n in line_numbers)


def test_a_child_that_fails_leaves_its_files_to_the_parent(log_dir, forked, monkeypatch):
    serial = _serial_json(monkeypatch, [str(log_dir)])
    parent, real_outcome = os.getpid(), readall._outcome

    def outcome(source, year, choice):
        if os.getpid() != parent:
            raise MemoryError("the child ran out")  # the child stops at its first file and exits 1
        return real_outcome(source, year, choice)

    monkeypatch.setattr(readall, "_outcome", outcome)
    assert _json([str(log_dir)]) == serial
    assert forked["forks"] == 1 and forked["from_child"] == 0


def test_an_error_on_a_file_is_raised_as_in_one_process_and_the_child_is_reaped(log_dir, forked, monkeypatch):
    real_outcome = readall._outcome

    def outcome(source, year, choice):
        if source.path.endswith("workerlog.7"):
            raise RuntimeError("a bug of ours")
        return real_outcome(source, year, choice)

    monkeypatch.setattr(readall, "_outcome", outcome)
    with pytest.raises(RuntimeError, match="a bug of ours"):
        diagnose_paths([str(log_dir)])
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # no child left behind


def test_small_inputs_and_threaded_callers_read_in_one_process(log_dir, monkeypatch):
    def no_fork():
        raise AssertionError("forked")

    monkeypatch.setattr(os, "fork", no_fork)
    diagnose_paths([str(log_dir)])  # 25 files of a few KiB: under FORK_MIN_BYTES
    monkeypatch.setattr(readall, "FORK_MIN_FILES", 2)
    monkeypatch.setattr(readall, "FORK_MIN_BYTES", 0)
    monkeypatch.setattr(readall, "SMALL_SCAN_BYTES", 64 << 10)  # else the first 2 MiB (all) are read before a fork
    monkeypatch.setattr(forked_proc, "idle_core", lambda: True)
    with monkeypatch.context() as m:
        m.setattr(readall.sys, "platform", "darwin")  # fork without exec is unsafe there
        diagnose_paths([str(log_dir)])
    with monkeypatch.context() as m:
        m.setattr(forked_proc, "usable_cores", lambda: 1)
        diagnose_paths([str(log_dir)])
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        diagnose_paths([str(log_dir)])  # fork would copy only this thread
    finally:
        stop.set()
        worker.join()


def test_the_callers_work_meanwhile_runs_only_beside_a_child(log_dir, monkeypatch):
    sources, skipped = discover([str(log_dir)], None)
    calls = []
    readall.read_all(sources, list(skipped), meanwhile=lambda: calls.append(os.getpid()))
    assert calls == []  # one process: the caller does that work where it needs it
    monkeypatch.setattr(readall, "FORK_MIN_FILES", 2)
    monkeypatch.setattr(readall, "FORK_MIN_BYTES", 0)
    readall.read_all(sources, list(skipped), meanwhile=lambda: calls.append(os.getpid()))
    assert calls == []  # all read before a fork (the first 2 MiB are): no child
    monkeypatch.setattr(readall, "SMALL_SCAN_BYTES", 64 << 10)
    monkeypatch.setattr(forked_proc, "idle_core", lambda: True)
    readall.read_all(sources, list(skipped), meanwhile=lambda: calls.append(os.getpid()))
    assert calls == [os.getpid()]  # in this process, once


def test_the_child_does_not_run_the_parents_signal_handlers(log_dir, forked, monkeypatch, tmp_path):
    import signal

    marks = tmp_path / "marks"
    parent, real_outcome = os.getpid(), readall._outcome

    def handler(signum, frame):
        marks.open("a").write(f"{os.getpid()}\n")  # a handler that would forward SIGTERM to a launch

    def outcome(source, year, choice):
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGTERM)  # the child is stopped: it ends, and runs no handler
        return real_outcome(source, year, choice)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        serial = _serial_json(monkeypatch, [str(log_dir)])
        monkeypatch.setattr(readall, "_outcome", outcome)
        assert _json([str(log_dir)]) == serial  # the parent read the child's files
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert not marks.exists()
    assert forked["forks"] == 1 and forked["from_child"] == 0


def test_a_busy_machine_reads_in_one_process(log_dir, forked, monkeypatch):
    monkeypatch.setattr(forked_proc, "idle_core", lambda: False)
    diagnose_paths([str(log_dir)])
    assert forked["forks"] == 0
