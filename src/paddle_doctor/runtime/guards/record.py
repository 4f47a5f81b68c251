"""Error records: when a rank fails, one JSON file beside the launcher's logs says what and when.

torchelastic's ``@record`` writes an error file per failed worker so that the agent can name the
first failure by time; Paddle has nothing of the kind, and a SIGKILLed or SIGTERMed rank leaves
no Python traceback at all. A record holds rank, local rank, host, pid, time, the exception
(type, message, traceback) or signal, the phase and step, the last collectives (when traced),
the watchdog's view of the peers, and current and peak memory of the process and its device
(guide 000 §3.4 asks people to watch memory by hand).

Files: ``<log dir>/paddle_doctor_error.<rank>.json`` (see ``rankenv``), written atomically; a
process writes one record, later events are merged into it (``later``). The names never end in
``.log``/``.txt``/``.out``/``.err``, so ``diagnose`` does not read them as logs; it reads them as
records (``paddle_doctor.diagnose.records``).

Usage: ``@paddle_doctor.record`` on ``main``, ``with paddle_doctor.record():``, or
``paddle_doctor.install()`` for the whole process (``paddle-doctor run`` does it for you).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import sys
import threading
import time
import traceback
from pathlib import Path

from paddle_doctor.contract import RECORD_SCHEMA
from paddle_doctor.errors import PaddleDoctorError, PeerFailedError
from paddle_doctor.findings import Finding
from paddle_doctor.runtime.guards import procinfo, trace
from paddle_doctor.runtime.guards.guardstate import STATE
from paddle_doctor.runtime.channel import rankenv
MAX_TRACEBACK_CHARS = 20000

_lock = threading.RLock()
_written: dict | None = None
_path: Path | None = None
_fault_file = None


def build(kind: str, *, exc_info=None, signal_name: str | None = None, finding: Finding | None = None,
          peers: dict | None = None, channel: dict | None = None) -> dict:
    """A record of schema 2 (``contract.py``): the finding that names the cause, plus process facts."""
    me = rankenv.current()
    now = time.time()
    cur = STATE.current
    return {
        "schema": RECORD_SCHEMA, "finding": finding.to_dict() if finding is not None else None,
        "kind": kind, "rank": me.rank, "local_rank": me.local_rank,
        "world_size": me.world_size, "host": me.host, "pid": me.pid, "run_id": me.run_id,
        "time": now, "time_iso": dt.datetime.fromtimestamp(now).astimezone().isoformat(timespec="milliseconds"),
        "exception": _exception(exc_info), "signal": signal_name,
        "phase": STATE.phase() or (STATE.unwound or (None,))[0],
        "step": _plain(STATE.current_step() if STATE.regions or not STATE.unwound else STATE.unwound[1]),
        "current_collective": cur.to_dict() if cur is not None else None,
        "last_collective": STATE.last.to_dict() if STATE.last is not None else None,
        "collectives": trace.last_collectives(), "peers": peers or {}, "channel": channel,
        "memory": procinfo.memory(), "argv": list(sys.argv), "paddle_version": _paddle_version(),
        "messages": [],
    }


def write_record(kind: str, **fields) -> Path | None:
    """Write (or complete) this process's record; its path, or None when it cannot be written."""
    global _written, _path
    try:
        with _lock:
            if _written is None:
                _written = build(kind, **fields)
                _path = rankenv.current().record_path()
            else:
                _merge(_written, kind, fields)
            _dump(_path, _written)
            return _path
    except Exception:  # a record must never turn a failure into a different one
        return None


def add_message(line: str) -> None:
    with _lock:
        if _written is not None and _path is not None:
            _written["messages"].append(line)
            try:
                _dump(_path, _written)
            except OSError:
                pass


def written() -> dict | None:
    return _written


def _merge(rec: dict, kind: str, fields: dict) -> None:
    """A later event of the same process: keep the first as the record, note the rest."""
    if fields.get("finding") is not None and not rec.get("finding"):
        rec["finding"] = fields["finding"].to_dict()
    for name in ("peers", "channel"):
        if fields.get(name):
            rec[name] = fields[name]
    later = {"kind": kind, "time": time.time(), "signal": fields.get("signal_name"),
             "exception": _exception(fields.get("exc_info"))}
    rec.setdefault("later", []).append(later)


def _dump(path: Path, rec: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(rec, indent=1, default=str), encoding="utf-8")
    os.replace(tmp, path)


def _exception(exc_info) -> dict | None:
    if not exc_info or exc_info[1] is None:
        return None
    etype, exc, tb = exc_info
    text = "".join(traceback.format_exception(etype, exc, tb))
    return {"type": etype.__name__, "module": etype.__module__, "message": str(exc)[:4000],
            "traceback": text[-MAX_TRACEBACK_CHARS:]}


def _plain(value):
    return value if value is None or isinstance(value, (int, float, str, bool)) else str(value)


def _paddle_version() -> str | None:
    paddle = sys.modules.get("paddle")
    return getattr(paddle, "__version__", None) if paddle is not None else None


# -- faulthandler dump file -------------------------------------------------------------------


def open_fault_file():
    """The file that ``faulthandler`` writes to on a native crash (SIGSEGV, SIGABRT, ...).

    It must be open before the crash (no Python runs in a signal handler); an empty one is
    removed at a normal end (``finish``).
    """
    global _fault_file
    if _fault_file is None:
        path = rankenv.current().fault_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        _fault_file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (kept open on purpose)
    return _fault_file


def finish() -> None:
    """At the end of the process: drop the crash dump file if nothing was written to it."""
    global _fault_file
    f, _fault_file = _fault_file, None
    if f is None:
        return
    try:
        empty = os.fstat(f.fileno()).st_size == 0
        f.close()
        if empty:
            os.unlink(f.name)
    except OSError:
        pass


# -- the public decorator / context manager ---------------------------------------------------


def own_error_finding(exc: BaseException) -> Finding | None:
    """One of our exceptions raised without a finding names this rank and its class's cause id
    (``SampleCountError``: eval_samples_dropped); a ``PeerFailedError`` blames another rank, whose
    finding comes from the watchdog instead."""
    if not isinstance(exc, PaddleDoctorError) or isinstance(exc, PeerFailedError):
        return None
    me = rankenv.current().rank
    first = (str(exc).splitlines() or [type(exc).__name__])[0]
    return Finding(code=type(exc).__name__, cause=exc.cause, message=first, ranks=() if me is None else (me,))


def _record_only(etype, exc, tb) -> None:
    """Without the process hooks (nothing watches the peers): the record alone."""
    if not getattr(exc, "__paddle_doctor_recorded__", False):
        write_record("exception", exc_info=(etype, exc, tb), finding=getattr(exc, "finding", None) or own_error_finding(exc))
        STATE.fired = True


# Who records an exception that leaves ``record()``: ``hooks.on_exception`` once the hooks are
# imported (they hand it over: ``use_exception_handler``), so this module never imports them.
_on_exception = {"handler": _record_only}


def use_exception_handler(handler) -> None:
    _on_exception["handler"] = handler


class _Recording:
    """``with record():`` writes a record for an exception that leaves the block, then re-raises."""

    def __enter__(self):
        return self

    def __exit__(self, etype, exc, tb):
        if exc is not None and not (isinstance(exc, SystemExit) and exc.code in (0, None)):
            _on_exception["handler"](etype, exc, tb)
        return False


def record(fn=None):
    """Decorator (``@record``) or context manager (``with record():``) that writes this rank's
    error record when an exception escapes; the exception still propagates."""
    if fn is None:
        return _Recording()
    if not callable(fn):
        raise TypeError("record() takes a function, or nothing (as a context manager)")

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _Recording():
            return fn(*args, **kwargs)

    return wrapper
