"""The fork protocol lint's workers and diagnose's reader share (process/forked.py): tokens from one
pipe, frames back, a child that exits 0 only when its work returned, an idle core asked of the kernel."""

from __future__ import annotations

import os

import pytest

from paddle_doctor.process import forked

pytestmark = pytest.mark.timeout(60)


def test_tokens_are_taken_whole_until_none_is_left():
    fd = forked.token_pipe(5)
    try:
        assert [forked.take_token(fd) for _ in range(6)] == [0, 1, 2, 3, 4, None]
    finally:
        os.close(fd)


def test_more_tokens_than_a_pipe_is_sure_to_hold_is_an_oserror():
    with pytest.raises(OSError):
        forked.token_pipe(forked.MAX_TOKENS + 1)


def test_frames_come_back_whole_however_the_bytes_are_cut():
    receive, send = os.pipe()
    messages = [b"", b"x", b"\x00" * 70_000, b"tail"]
    pid = forked.fork_child(lambda: [forked.send_frame(send, m) for m in messages], close=(receive,))
    os.close(send)
    data = b""
    while chunk := os.read(receive, 1 << 20):
        data += chunk
    os.close(receive)
    forked.reap(pid)
    frames, got = forked.Frames(), []
    for i in range(0, len(data), 7):  # fed in pieces that cut lengths and payloads alike
        got += frames.feed(data[i:i + 7])
    assert got == messages and not frames.pending


@pytest.mark.parametrize("body, code", [(lambda: None, 0), (lambda: 1 / 0, 1), (lambda: os.kill(os.getpid(), 15), -15)])
def test_a_child_exits_0_only_when_its_work_returned(body, code):
    pid = forked.fork_child(body)
    _, status = os.waitpid(pid, 0)
    assert (os.waitstatus_to_exitcode(status)) == code  # SIGTERM: the default action, no parent handler


def test_reap_ends_a_child_that_would_not_stop():
    pid = forked.fork_child(lambda: os.read(os.pipe()[0], 1))  # blocks for ever
    forked.reap(pid, kill=True)
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


@pytest.mark.parametrize("line, cores, idle", [
    (b"0.50 0.60 0.70 1/120 4242\n", 2, True),  # only this process runs
    (b"2.10 2.00 1.90 2/131 4242\n", 2, False),  # another task holds the other core
    (b"3.00 3.00 3.00 3/131 4242\n", 4, True),
    (b"garbled", 2, True),  # unreadable: as before, idle
])
def test_a_core_is_idle_when_fewer_tasks_run_than_cores(tmp_path, monkeypatch, line, cores, idle):
    loadavg = tmp_path / "loadavg"
    loadavg.write_bytes(line)
    monkeypatch.setattr(forked, "LOADAVG", str(loadavg))
    monkeypatch.setattr(forked, "usable_cores", lambda: cores)
    assert forked.idle_core() is idle


def test_no_fork_beside_another_thread():
    import threading

    if threading.active_count() == 1:  # the test runner may hold threads of its own (a timeout's, xdist's)
        assert forked.can_fork()
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert not forked.can_fork()
    finally:
        stop.set()
        worker.join()
