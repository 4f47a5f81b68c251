"""Doubts: what lowers the confidence of the error line a rule chose. Another line naming another specific cause,
a missing file the failing line writes rather than reads, a shell's "Killed" after an error, a process that went
on and died of an error in loading the program: each makes a `high` verdict `medium` (a `medium` one stays so), with
the other reading first among its alternatives (the catalog-wide calibration of near causes is :mod:`.near`, applied last)."""

from __future__ import annotations

import dataclasses
import re

from ...catalog import get_cause, is_generic
from ...catalog.ids import CauseId
from ...findings import Alternative, Confidence, Finding
from ...redact import redact
from ..anatomy.blocks import parts_of
from ..ranks import most_specific_first
from ..read.parse import Event
from ..verdict import TITLE_MSG_CHARS


def doubted(verdict: Finding, events: list[Event], event: Event, rivals: list[Event]) -> Finding:
    """``verdict`` of the chosen line ``event`` (among ``events`` of its process), after every doubt below;
    ``rivals`` are the other lines that could have been chosen."""
    verdict = unless_contested(verdict, competing(rivals, event))
    verdict = unless_written(verdict, events, event)
    verdict = unless_failed_before_kill(verdict, events, event)
    return unless_ended_elsewhere(verdict, ended_elsewhere(events, event))


COMPETES = 80  # a cause line at least this specific elsewhere in the text points elsewhere


def competing(causes: list[Event], chosen: Event) -> Event | None:
    """The most specific cause line of ``causes`` that names another specific cause than ``chosen``
    (a cause the catalog marks ``generic`` says "something failed" without why: it never contests)."""
    others = [e for e in causes if e.sig.cause != chosen.sig.cause and not is_generic(e.sig.cause)
              and e.role == "cause" and e.sig.specificity >= COMPETES]
    return most_specific_first(others)


def unless_contested(verdict: Finding, rival: Event | None) -> Finding:
    """``verdict``, at most medium when another line of the text names another specific cause; that
    cause becomes its first alternative."""
    if rival is None or verdict.confidence == Confidence.LOW or rival.sig.cause == verdict.cause:
        return verdict
    first = Alternative(rival.sig.cause, Confidence.LOW, f"{rival.file}:{rival.line} names it: "
                        f"{redact(rival.text.strip())[:TITLE_MSG_CHARS]}",
                        get_cause(rival.sig.cause).confirm.strip().splitlines()[0])
    return _demoted(verdict, first, f"another line names {rival.sig.cause}")


# The failing line writes the file (open for writing, a save or dump): a missing path there is a folder that does not
# exist, an output the code or its config points at, not an input the run needs.
_WRITES = re.compile(r"""\bopen\([^)]*,\s*(?:mode\s*=\s*)?['"][wax]b?\+?['"]|\.(?:savefig|imwrite|to_csv|write_text|"""
                     r"""write_bytes|save|dump)\(""")


def unless_written(verdict: Finding, events: list[Event], event: Event) -> Finding:
    """``verdict`` (a missing file), at most medium when the failing line writes the file rather than reads it."""
    if verdict.cause != CauseId.file_not_found or verdict.confidence == Confidence.LOW:
        return verdict
    frame = parts_of(events, event).innermost
    if frame is None or not _WRITES.search(frame.source or ""):
        return verdict
    first = Alternative(CauseId.python_exception, Confidence.LOW, f"the failing line writes the file: "
                        f"{redact(frame.source.strip())[:TITLE_MSG_CHARS]}",
                        "does the folder it writes into exist, and is the path built as intended?")
    return _demoted(verdict, first, "the missing path is one being written (its folder does not exist)")


def unless_failed_before_kill(verdict: Finding, events: list[Event], event: Event) -> Finding:
    """``verdict`` (a shell's "Killed"), at most medium when the same text shows an error before it: a runner or
    service that ends its workers after a failure (a serving pipeline whose op failed to start) kills them too,
    so the memory the kill suggests is one reading among two."""
    if verdict.cause != CauseId.host_oom_killed or verdict.confidence == Confidence.LOW or event.sig.name != "shell_killed":
        return verdict
    before = next((e for e in reversed(events) if e.file == event.file and e.offset < event.offset
                   and e.role in ("exception", "error_line")), None)
    if before is None:
        return verdict
    first = Alternative(CauseId.python_exception, Confidence.LOW, f"{before.file}:{before.line} failed before the kill: "
                        f"{redact(before.text.strip())[:TITLE_MSG_CHARS]}",
                        "did the process fail first, and its runner end it? (dmesg shows an OOM kill)")
    return _demoted(verdict, first, "an error came before the kill")


def _demoted(verdict: Finding, first: Alternative, because: str) -> Finding:
    """``verdict`` at medium, ``first`` leading its alternatives, and why appended."""
    rest = tuple(a for a in verdict.alternatives if a.cause != first.cause)
    return dataclasses.replace(verdict, confidence=Confidence.MEDIUM, alternatives=(first, *rest)[:2],
                               why=f"{verdict.why}; {because}")


# Exceptions raised while the program itself is loaded or compiled: no runtime condition a cause line reports
# (a missing data file, memory, a device, a worker) leads to them, where a DataLoader's queue.Empty or a
# chained traceback's last exception follows from the line before it.
_PROGRAM_ERRORS = ("ModuleNotFoundError", "ImportError", "SyntaxError", "IndentationError", "NameError")


def ended_elsewhere(events: list[Event], chosen: Event) -> Event | None:
    """The exception line of a traceback that starts after ``chosen`` in its file, where ``chosen`` is a
    cause line and that exception is an error in loading the program that names no cause: the process
    went on past the line and died of something it does not explain (a ``cd`` that failed in a notebook,
    then an import of a package that is not installed)."""
    if chosen.role != "cause":
        return None
    later = [e for e in events if e.file == chosen.file and e.offset > chosen.offset]
    started = next((e.offset for e in later if e.role == "traceback"), None)
    if started is None:
        return None
    return next((e for e in reversed(later) if e.offset > started and e.role == "exception"
                 and e.sig.cause == CauseId.python_exception
                 and e.groups.get("exc", "").rsplit(".", 1)[-1] in _PROGRAM_ERRORS), None)


def unless_ended_elsewhere(verdict: Finding, last: Event | None) -> Finding:
    """``verdict``, at most medium when the process died later of an exception the chosen line does not name;
    that exception becomes its first alternative."""
    if last is None or verdict.confidence == Confidence.LOW:
        return verdict
    first = Alternative(CauseId.python_exception, Confidence.LOW, f"the process died later of {last.file}:"
                        f"{last.line}: {redact(last.text.strip())[:TITLE_MSG_CHARS]}",
                        "read that traceback: does its failing call use what the chosen line says is missing?")
    return _demoted(verdict, first, "the process went on and died of a later exception")
