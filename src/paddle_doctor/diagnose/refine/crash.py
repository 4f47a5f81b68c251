"""A native crash explained by the error its process printed before it. Paddle's crash summary
(``FatalError: `Segmentation fault` ...``, the SIGSEGV line) names no reason of its own; when the
same process (the rank's lines, or the same file of a snippet) printed an error earlier that names a
specific cause, by its signature or by its structure (a cuDNN status, an errno), that error is what
the process died of, and the crash is what it led to."""

from __future__ import annotations

import re

from ...catalog import is_generic
from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..anatomy.blocks import refine
from ..read.parse import Event
from ..verdict import make_verdict

# The causes of a native crash summary: a crash that does not say why.
NATIVE_CRASH = (CauseId.segfault,)
# Reports whose own lines carry the crash (pip's "... did not run successfully." or "Building wheel for X ... error"
# over the subprocess's "exit code: -11"): the report states that the step failed, not why, so it does not explain
# the crash inside it.
_OWN_REPORT = ("pip_build_subprocess_failed", "pip_source_build_failed")
_NOT_A_REASON = (CauseId.unknown, CauseId.python_exception, *NATIVE_CRASH)


def _named_cause(events: list[Event], event: Event) -> str | None:
    """The cause ``event`` names: its signature's, or its structure's when the signature's is generic (None when
    the structure names none)."""
    if not is_generic(event.sig.cause):
        return event.sig.cause
    read = refine(events, event)
    return read.cause if read is not None else None


def _specific(cause: str | None) -> str | None:
    """``cause`` when it is specific (not the fallback, a crash or a generic cause), else None."""
    return None if cause is None or cause in _NOT_A_REASON or is_generic(cause) else cause


def explained_by_earlier_error(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    """A crash summary (``event``) after an error of the same process that names a specific cause:
    the latest such error before it decides, at medium (the crash may still have its own reason). An abort after
    a Python exception is that exception's end (a C++ caller such as Qt or pybind11 aborts on an exception it
    cannot pass on), whatever the exception names. A frame of the crash's own stack whose row names why it crashed
    (role ``crash_frame``) counts as such an error."""
    if event.sig.cause not in NATIVE_CRASH:
        return None
    earlier = [e for e in events if e.file == event.file and e.offset < event.offset and e.sig.name not in _OWN_REPORT
               and e.role in ("cause", "exception") and e.sig.cause not in NATIVE_CRASH]
    # a frame of the crash's own stack (glog's after its summary, Paddle 2.x's C++ traceback before it) that names
    # where it crashed: read after every earlier error (the latest error before the crash still decides first)
    own_stack = [e for e in events if e.file == event.file and e.role == "crash_frame" and
                 0 < abs(e.line - event.line) <= _STACK_LINES]
    for error in reversed(own_stack + earlier):
        named = _named_cause(events, error)
        cause = _specific(named)
        if cause is None and error.role == "exception" and _ABORT.search(event.text) and \
                event.line - error.line <= _ABORT_AFTER_LINES:
            cause = named or error.sig.cause
        if cause is not None:
            aborted = cause == CauseId.python_exception
            title = f"{error.text.strip()[:120]} (then the process aborted)" if aborted else ""
            return make_verdict(
                "crash_after_error", cause, rank, [error, event], "medium",
                f"the process printed an error that names the cause ({cause}) before it crashed; the crash "
                "summary names no reason of its own", title=title, alternatives=(Alternative(
                    CauseId.segfault, "low", "the crash may have a reason of its own",
                    "fix the earlier error and rerun: the crash goes away if it followed from it"),))
    return None


# How far from a crash's summary its own stack's frames stand (role "crash_frame": a frame that names why, such as
# pybind11 creating a type, read only beside a crash).
_STACK_LINES = 40
# An abort that ends an exception follows its traceback within Paddle's crash summary (about 20 lines: its header,
# the C++ traceback's "No stack trace" note, the error summary); an exception logged long before is not what aborted.
_ABORT_AFTER_LINES = 30
# The crash lines that report an abort (Paddle's handler, glog's, the shells', faulthandler's, gdb's).
_ABORT = re.compile(r"SIGABRT|Process abort signal|\bAborted\b|\babort\b|已放弃")
