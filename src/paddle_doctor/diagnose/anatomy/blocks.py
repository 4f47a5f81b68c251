"""From the events of one rank to the error block around its chosen cause line, and from the
block's parts to a cause (:func:`refine`): what the signatures matched as a generic error
(``python_exception``, a CUDA or NCCL error with no cause of its own) is read again by its structure.
"""

from __future__ import annotations

from ...catalog.ids import CauseId
from .classify import Verdict, classify, from_installation
from .parts import ErrorParts, parse_block

# Signatures whose cause is generic: the structure may name a more specific one.
REFINABLE = ("exception", "glog_check_failed", "cuda_other", "cuda_init_error", CauseId.nccl_error, "error_line", "launcher_frame",
             "enforce_hint", "glog_cuda_call_failed", "enforce_legacy_summary", "ort_status_error",
             # a directory that exists: the makedirs call in the frames tells a file in its place from a race
             "makedirs_exists_race")
# Signatures of a name a package lacks, or a DLL it cannot load: the traceback may show the package is not the
# installed one, or which library's wheel it is.
SHADOWABLE = ("paddle_api_missing", "paddle_fluid_removed", "package_not_whole", "extension_dll_unloadable")
GENERIC = (CauseId.python_exception, CauseId.cuda_error_other, CauseId.nccl_error)
BLOCK_BYTES = 6000  # how far before the cause line its traceback frames may start
AFTER_BYTES = 1500  # how far after it the hint, operator and C++ position may follow
# Paddle 2.x prints the C++ traceback between the exception line and its summary (pp 2.0-2.6 enforce.h
# GetTraceBackString: "Error Message Summary:" after the frames); 60 frames of long C++ names fit here.
SUMMARY_HEADER, SUMMARY_BYTES = "Error Message Summary", 16000


def block_of(events: list, event) -> list:
    """The events of ``event``'s error block, in file order: the frames and lines shortly before it
    in the same file (from the last traceback header on), itself, and the lines just after it."""
    same = [e for e in events if e.file == event.file and event.offset - BLOCK_BYTES <= e.offset
            <= event.offset + AFTER_BYTES]
    before = [e for e in same if e.offset < event.offset]
    starts = [i for i, e in enumerate(before) if e.role == "traceback"]
    before = before[starts[-1]:] if starts else before
    after = [e for e in same if e.offset > event.offset and e.role not in ("traceback", "frame")]
    return before + [event] + (_summary_after(events, event) or after[:4]) + _reprinted_frames(same, before, event)


def _summary_after(events: list, event) -> list:
    """Paddle 2.x's ``Error Message Summary`` of ``event``'s exception, its header and the lines that follow it,
    however far a long C++ traceback (tens of frames, no event among them) puts it; [] when none follows."""
    later = [e for e in events if e.file == event.file and event.offset < e.offset <= event.offset + SUMMARY_BYTES
             and e.role not in ("traceback", "frame")]  # the C++ traceback's own header is one
    return later[:4] if later and SUMMARY_HEADER in later[0].text else []


def _reprinted_frames(same: list, before: list, event) -> list:
    """The frames of a traceback printed right after an exception line that has none of its own: a
    thread's exception is printed again by CPython's threading module (``Exception in thread T:``
    and its traceback) after the code that caught it printed it, and a paste may keep only the first
    one's last line. Only frames, up to the next line that says what was raised."""
    if any(e.role == "frame" for e in before):
        return []
    later = [e for e in same if e.offset > event.offset]
    if not later or later[0].role != "traceback":
        return []
    frames = []
    for e in later[1:]:
        if e.role != "frame":
            break
        frames.append(e)
    return frames


def parts_of(events: list, event) -> ErrorParts:
    lines: list[str] = []
    for e in block_of(events, event):
        lines.append(e.text)
        if e.next_text:
            lines.extend(e.next_text.split("\n"))  # a double-spaced paste's blank line, then the source
    return parse_block(lines)


def refine(events: list, event) -> Verdict | None:
    """A specific cause read from the structure of ``event``'s block, or None (keep the signature's)."""
    if event.sig.name in SHADOWABLE:
        return from_installation(parts_of(events, event))
    if event.sig.name not in REFINABLE:
        return None
    verdict = classify(parts_of(events, event))
    if verdict is not None and verdict.part == "wording" and event.sig.cause not in (None, CauseId.python_exception):
        return None  # plain words never overrule a line that names its library (a CUDA or NCCL error)
    if verdict is None or verdict.cause not in GENERIC:
        return verdict
    # A generic answer never replaces a more specific line; it may only say more about the same one,
    # name the library behind a bare exception (a CUDA or NCCL code, the NCCL call that failed), or come
    # from a component row (the component and what it was doing decided it).
    if verdict.cause == event.sig.cause or verdict.part == "component" or (
            event.sig.cause == CauseId.python_exception and verdict.part in ("code", "call")):
        return verdict
    return None
