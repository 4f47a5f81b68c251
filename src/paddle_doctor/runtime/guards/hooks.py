"""Process-wide hooks that write error records: uncaught exceptions, SIGTERM, native crashes.

- ``sys.excepthook`` (chained): the record, an "ended with an error" message to the peers, and,
  when this rank is only a victim (its collective failed because a peer vanished), the
  watchdog's line naming that peer.
- SIGTERM (what the launcher sends to the survivors when a rank fails, and what ``timeout``
  sends): a Python handler alone would never run while the main thread is blocked in a C++
  collective, so the C-level handler only writes to a wakeup pipe and a small thread does the
  work, then hands the signal to the handler that was there before (Paddle's, which prints its
  C++ stack) by restoring it and raising again.
- SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL: no Python can run, so ``faulthandler`` dumps every
  thread's Python stack into ``paddle_doctor_fault.<rank>.dump`` and chains to Paddle's handler.

These must be installed after ``import paddle``, which installs its own C handlers for the same
signals. Forked children (DataLoader workers) drop all of it: their failures are not the rank's.
"""

from __future__ import annotations

import atexit
import ctypes
import faulthandler
import os
import re
import signal
import sys
import threading
import time

from paddle_doctor.runtime.guards import record as _record
from paddle_doctor.runtime.guards.guardstate import STATE

# A symptom of another rank's failure: gloo's peer-closed and real timeouts, NCCL, and a DataLoader
# worker that the launcher's SIGTERM (sent to the whole process group) ended first.
VICTIM_RE = re.compile(r"pair\.cc:\d+\] TIMEOUT|Connection (?:reset|closed) by peer|unbound_buffer\.cc|"
                       r"\bwritev \S+: Broken pipe|pair\.cc:\d+\] Socket (?:unexpectedly )?closed|"
                       r"[Nn][Cc][Cc][Ll]|EnforceNotMet|preamble|DataLoader .*killed by signal: Terminated")
VICTIM_WAIT_S = 1.0  # how long a failed collective waits for the watchdog to name the vanished peer
TERM_WAIT_S = 0.5
TERM_HANDOFF_S = 2.0  # the main thread's wait for the signal thread to take SIGTERM over
WATCHDOG_FINISH_S = 2.0  # within the 3 s the launcher leaves between its SIGTERM and its SIGKILL

_state = {"excepthook": False, "signals": False, "disabled": False, "term_started": False}
# What the peers' state says (the watchdog: peer_finding, peer_report, mesh, announce_end, fatal_line,
# emit), handed over when it starts (``use_peers``): no import of the watchdog from here.
_peers = {"view": None}
_prev_excepthook = None
_old_term = None  # the C-level sigaction of SIGTERM before ours (Paddle's handler)
_term_lock = threading.Lock()


def on_exception(etype, exc, tb) -> None:
    """Record an exception that ends this rank (once per exception), tell peers, name the culprit."""
    if _state["disabled"] or getattr(exc, "__paddle_doctor_recorded__", False):
        return
    try:
        exc.__paddle_doctor_recorded__ = True
    except Exception:
        pass
    watchdog = _peers["view"]
    own = getattr(exc, "finding", None) or _record.own_error_finding(exc)
    blamed = None
    trouble = ""
    if watchdog is None:
        _record.write_record("exception", exc_info=(etype, exc, tb), finding=own)
        STATE.fired = True
        return
    if own is None:
        victim = bool(VICTIM_RE.search(str(exc)))
        blamed, trouble = _safely(watchdog.peer_finding, VICTIM_WAIT_S if victim else 0.0)
        if not victim and blamed is not None and blamed.code == "failed":
            blamed = None  # a peer that also raised: each error is its own, neither rank is the other's victim
    finding = own or blamed
    path = _record.write_record("exception", exc_info=(etype, exc, tb), finding=finding,
                                peers=watchdog.peer_report(watchdog.mesh()), channel=watchdog.channel_stats())
    if trouble:
        _record.add_message(trouble)
    # The line first: the launcher's SIGTERM follows a peer's end within its 1 s poll, and once
    # fired is set, that SIGTERM ends the rank at once (announcing first lost the line, under load).
    if blamed is not None:
        line = watchdog.fatal_line(blamed, path, "This rank ends with its own error (its exit code is its own)")
        _record.add_message(line)
        watchdog.emit(line)
    STATE.fired = True  # this exception ends the rank: the watchdog must not cut its traceback short
    watchdog.announce_end(False, etype.__name__, finding)


_record.use_exception_handler(on_exception)  # ``record()`` blocks use this hook: no import back


def _safely(judge, wait: float):
    """The watchdog's finding, or (None, what went wrong): a bug of ours must never cost the record."""
    try:
        return judge(wait), ""
    except Exception as exc:  # noqa: BLE001
        return None, f"[paddle-doctor] could not judge the peers: {type(exc).__name__}: {exc}"


def _excepthook(etype, exc, tb) -> None:
    try:
        on_exception(etype, exc, tb)
    finally:
        (_prev_excepthook or sys.__excepthook__)(etype, exc, tb)
        _record.finish()


def use_peers(view) -> None:
    """The watchdog hands itself over when it starts, so that a record names a vanished peer."""
    _peers["view"] = view


def install_python_hooks() -> None:
    global _prev_excepthook
    if _state["excepthook"]:
        return
    _state["excepthook"] = True
    _prev_excepthook = sys.excepthook
    sys.excepthook = _excepthook
    os.register_at_fork(after_in_child=_in_child)
    atexit.register(_record.finish)  # an unused crash dump file is removed at a normal end


def install_signal_hooks() -> None:
    """faulthandler and SIGTERM; call after ``import paddle`` (again after it re-installs its own)."""
    if _state["signals"] or _state["disabled"] or threading.current_thread() is not threading.main_thread():
        return
    _state["signals"] = True
    try:
        faulthandler.enable(file=_record.open_fault_file(), all_threads=True)
    except (OSError, RuntimeError, ValueError):
        pass
    _install_term()


# -- SIGTERM ------------------------------------------------------------------------------------


class _Sigaction(ctypes.Structure):
    # glibc's struct sigaction on Linux (x86_64 and aarch64): handler, 1024-bit mask, flags, restorer
    _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_ulong * 16), ("flags", ctypes.c_int),
                ("restorer", ctypes.c_void_p)]


def _sigaction(signum: int, new: _Sigaction | None) -> _Sigaction | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        old = _Sigaction()
        if libc.sigaction(signum, ctypes.byref(new) if new is not None else None, ctypes.byref(old)) != 0:
            return None
        return old
    except (OSError, AttributeError):
        return None


def _install_term() -> None:
    global _old_term
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    try:
        previous_fd = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
    except (ValueError, OSError):
        return
    if previous_fd != -1:  # someone else (asyncio) owns the wakeup fd: leave SIGTERM alone
        signal.set_wakeup_fd(previous_fd)
        return
    _old_term = _sigaction(signal.SIGTERM, None)
    if _old_term is not None and _old_term.handler == 1:  # SIG_IGN: this process ignores SIGTERM
        signal.set_wakeup_fd(-1)
        return
    signal.signal(signal.SIGTERM, _py_term_handler)
    threading.Thread(target=_watch_signals, args=(read_fd,), name="paddle-doctor-signals", daemon=True).start()


def _watch_signals(read_fd: int) -> None:
    while True:
        try:
            data = os.read(read_fd, 64)
        except InterruptedError:
            continue
        except OSError:
            return
        if not data:
            return
        if signal.SIGTERM in data:
            _on_term()


def _py_term_handler(signum, frame) -> None:
    """The main thread was running Python. The signal thread (woken through the wakeup fd) does the
    work: here other Python signal handlers would interrupt it (Paddle's SIGCHLD handler raises
    when the launcher's SIGTERM has already ended a DataLoader worker). The main thread only parks;
    it does the work itself only if the signal thread never starts."""
    started = time.monotonic()
    while True:
        try:
            if not _state["term_started"] and time.monotonic() - started > TERM_HANDOFF_S:
                _on_term()
            threading.Event().wait(0.1)  # the process ends from the signal thread
        except BaseException:  # another handler's exception must not unwind the main thread now
            continue


def _on_term() -> None:
    with _term_lock:
        if _state["term_started"]:
            return
        _state["term_started"] = True
    try:
        _record_term()
    finally:
        _record.finish()
        _reraise_term()


def _record_term() -> None:
    if STATE.watchdog_ending:
        # The launcher's SIGTERM came while the watchdog writes its record and line: it ends the
        # process itself in a moment (under load, handing SIGTERM on at once lost both, once).
        time.sleep(WATCHDOG_FINISH_S)
        return
    if _state["disabled"] or STATE.fired:
        return
    watchdog = _peers["view"]
    if watchdog is None:
        _record.write_record("signal", signal_name="SIGTERM")
        return
    finding, trouble = _safely(watchdog.peer_finding, TERM_WAIT_S)
    path = _record.write_record("signal", signal_name="SIGTERM", finding=finding,
                                peers=watchdog.peer_report(watchdog.mesh()), channel=watchdog.channel_stats())
    if trouble:
        _record.add_message(trouble)
    watchdog.announce_end(False, "SIGTERM", finding)
    if finding is not None:
        line = watchdog.fatal_line(finding, path, "This rank was terminated (SIGTERM)")
        _record.add_message(line)
        watchdog.emit(line)


def _reraise_term() -> None:
    """Give SIGTERM to the handler that was there before ours (Paddle's), or the default."""
    if _old_term is None or _sigaction(signal.SIGTERM, _old_term) is None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _in_child() -> None:
    """A forked child (DataLoader worker) is not the rank: no records, no shared pipe or dump file."""
    _state["disabled"] = True
    try:
        faulthandler.disable()
        signal.set_wakeup_fd(-1)
        if _old_term is None or _sigaction(signal.SIGTERM, _old_term) is None:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except (ValueError, OSError):
        pass
