"""The lint run's worker processes (files.Runner, issue 32's cold run): forked per call, chunk numbers
through one pipe, results back in order; a failure in a worker is the caller's, never a hang."""

from __future__ import annotations

import gc
import os
import time

import pytest

from paddle_doctor.lint.files import PARALLEL_MIN_FILES, Runner

pytestmark = pytest.mark.timeout(60)  # a runner that loses a worker must fail, not wait forever


def _square_and_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else set()


def _slow_square_and_pid(n: int) -> tuple[int, int]:
    time.sleep(0.002)  # long enough for both workers to take chunks
    return _square_and_pid(n)


def test_results_come_back_in_order_from_more_than_one_worker():
    todo = list(range(200))
    assert gc.isenabled()
    fds = _open_fds()
    with Runner(2, len(todo)) as run:
        out = run(_slow_square_and_pid, todo)
        assert not gc.isenabled()
    assert gc.isenabled() and _open_fds() == fds  # its pipes closed, its workers waited for
    assert [square for square, _ in out] == [n * n for n in todo]
    pids = {pid for _, pid in out}
    assert os.getpid() not in pids and len(pids) == 2


def test_results_larger_than_a_pipe_buffer_arrive_whole():
    todo = list(range(PARALLEL_MIN_FILES))
    with Runner(2, len(todo)) as run:
        out = run(lambda n: bytes([n % 256]) * 300_000, todo)  # a closure: nothing is pickled on the way in
    assert [len(b) for b in out] == [300_000] * len(todo) and [b[0] for b in out] == [n % 256 for n in todo]


def test_an_exception_in_a_worker_is_raised_in_the_caller():
    def fails_on_7(n: int) -> int:
        if n == 7:
            raise ValueError("seven")
        return n

    with Runner(2, 100) as run, pytest.raises(ValueError, match="seven"):
        run(fails_on_7, list(range(100)))


def test_a_worker_that_dies_is_an_error_not_a_hang():
    def dies_on_30(n: int) -> int:
        if n == 30:
            os._exit(3)
        return n

    with Runner(2, 100) as run, pytest.raises(RuntimeError, match="ended before"):
        run(dies_on_30, list(range(100)))


def test_few_files_or_one_worker_run_here():
    with Runner(2, PARALLEL_MIN_FILES - 1) as run:
        assert {pid for _, pid in run(_square_and_pid, list(range(10)))} == {os.getpid()}
    with Runner(1, 1000) as run:
        assert {pid for _, pid in run(_square_and_pid, list(range(100)))} == {os.getpid()}


def test_each_result_is_seen_here_as_it_comes_in():
    """The main process reads a deferred file's bytes while the workers lint the next ones (engine)."""
    seen = []

    def each(result):
        seen.append((os.getpid(), result[0]))
        return result[0]

    todo = list(range(200))
    for workers in (2, 1):
        seen.clear()
        with Runner(workers, len(todo)) as run:
            assert run(_slow_square_and_pid, todo, each) == [n * n for n in todo]
        assert sorted(square for _, square in seen) == [n * n for n in todo]
        assert {pid for pid, _ in seen} == {os.getpid()}


def test_a_process_with_other_threads_runs_the_files_itself():
    # fork copies only the calling thread (a lock another thread holds would never be released there)
    import threading

    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    try:
        with Runner(2, 1000) as run:
            assert {pid for _, pid in run(_square_and_pid, list(range(100)))} == {os.getpid()}
    finally:
        stop.set()
        other.join()
