"""The last rules of the chain: only the launcher's report says a rank failed (the cause is in a
file that was not given, or every rank's script exited with its own error), or the text shows an
error and no known message names its cause. Never silent on an error: at worst ``unknown`` with the
lines seen and what would settle it."""

from __future__ import annotations

import re

from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..anatomy.components import RAISE_SITES
from ..anatomy.wording import read_logged_python_error, read_type_wording, read_wording
from ..ranks import ENDS_ON_ITS_OWN, LauncherFacts, interrupted
from ..verdict import fatal_signal, launcher_lines, make_verdict, peer_of


def from_launcher_only(ranks, unranked, facts) -> Finding | None:
    # The launcher's "Pod failed" alone (a paste cut to its last lines) says as much as a failed rank's line.
    if not (facts.failed or (facts.exit_code not in (None, 0)) or facts.killed or facts.pod_failed):
        return None
    victims = [s.first("peer_closed") for s in ranks.values() if s.has("peer_closed")]
    peer = next((p for s in ranks.values() if (p := peer_of(s.first("peer_closed"), s, ranks, facts)) is not None),
                None)
    rank = peer if peer is not None else facts.header_rank
    where = facts.header_log or "log/workerlog.N"
    log_dir = where.rsplit("/", 1)[0] if "/" in where else "log"
    target = f"{log_dir}/workerlog.{rank}" if rank is not None else f"{log_dir}/workerlog.*"
    state = ranks.get(rank)
    if state is not None and state.line_index is not None:  # its worker log was read: it holds no error
        code = facts.failed.get(rank, state.exit_code)
        if code is None and not _says_why(state.last_text or ""):
            # The old launcher's ABORT!!! gives no exit code. A Python error prints a traceback and Paddle's handler
            # reports a crash or a SIGTERM; a rank that stops mid-line without a word was killed (SIGKILL: the
            # kernel's OOM killer, most often).
            return make_verdict(
                "aborted_without_a_word", CauseId.host_oom_killed, rank, launcher_lines(facts, rank) or facts.events[:2],
                "medium", f"the launcher reports rank {rank} aborted, gives no exit code, and its log, which was read, "
                "stops without any error: nothing but SIGKILL ends a Paddle process that silently",
                title=f"rank {rank} was killed without a word (SIGKILL); the kernel OOM killer is the usual sender",
                last_line=(state.log, state.lines, state.last_text) if state.lines else None,
                alternatives=(Alternative(CauseId.segfault, "low", "a native crash in a library that bypasses Paddle's "
                                          "handler also ends it silently", "`dmesg -T | grep -i -E 'killed process|"
                                          "segfault'` names which one"),))
        return make_verdict(
            "failed_without_error", "unknown", rank, launcher_lines(facts, rank) or facts.events[:2], "low",
            f"the launcher reports rank {rank} failed ({'no exit code given' if code is None else f'exit code {code}'}), "
            "and its log, which was read, holds no error: the process ended without a word (sys.exit / os._exit with "
            "that code, or a signal)",
            title=f"rank {rank} failed {'(the launcher gives no exit code)' if code is None else f'with exit code {code}'}"
                  f", and its log {state.log} shows no error",
            notes=(f"Look at what rank {rank} runs after the last line of {state.log} (quoted above): an explicit "
                   "sys.exit / os._exit, or a library that exits; PYTHONFAULTHANDLER=1 shows a native crash.",),
            last_line=(state.log, state.lines, state.last_text) if state.lines else None)
    note = (f"The cause is not in what was given: open {target}, or pass the whole log dir: "
            f"paddle-doctor diagnose {log_dir}/. If there is no log dir, rerun with "
            f"`python -m paddle.distributed.launch --log_dir {log_dir} ...`.")
    status = fatal_signal(facts.exit_code) if not victims else None
    if status is not None:  # the new launcher's "Exit code N" is its pod's: the first failed container's
        return make_verdict(
            "pod_exit_status", status.cause, rank, facts.events[:3], "medium",
            f"the launcher's exit code {facts.exit_code} ({status.name}) is that of the container that failed, "
            "and no text given names a cause: the status says how the process ended", notes=(note,),
            title=f"a rank died of {status.name} (the launcher's exit code {facts.exit_code}); {status.note}")
    if every_rank_aborted(facts) and not victims:
        return make_verdict(
            "every_rank_aborted", CauseId.python_exception, rank, facts.events[:2], "low",
            f"the launcher reports that all {facts.world} trainers aborted and no rank shows a peer's failure: the "
            "script stopped with its own error in every rank alike (its message is in the workers' logs)",
            notes=(note,), title=f"every rank's script exited with an error; the message is in {target}",
            alternatives=(Alternative("unknown", "low", "a failure outside the script in every rank at once",
                                      f"{target} ends in a Python traceback or the script's own message"),))
    return make_verdict("cause_not_given", "unknown", rank, [e for e in victims if e] + facts.events[:2], "low",
                   "only the launcher's report and symptoms were given", notes=(note,),
                   title=f"the cause is in {target}, which was not given")


_LOGGED_ERROR = re.compile(r"(?i)\b(?:error|fatal|critical)\b")


def _says_why(last_line: str) -> bool:
    """A last line that says why the process stops (an exit of its own, a logged error): not a silent death."""
    return bool(ENDS_ON_ITS_OWN.search(last_line) or _LOGGED_ERROR.search(last_line))


def every_rank_aborted(facts: LauncherFacts) -> bool:
    """The old launcher lists every aborted rank; all of them at once is the script's own exit."""
    return (facts.kind == "fleet.launch" and (facts.world or 0) >= 2
            and set(facts.failed) == set(range(facts.world or 0)))


# Lines that say an error happened, even when no signature explains them.
ERROR_ROLES = ("traceback", "frame", "exception", "cause", "peer_closed", "real_timeout", "terminated",
               "error_line", "context", "spawn_child")


def from_any_error(ranks, unranked, facts) -> Finding | None:
    """Never silent on an error: a text that shows one gets a verdict, at worst ``unknown`` with the
    lines seen and what would settle it."""
    events = sorted((e for s in ranks.values() for e in s.events), key=lambda e: (e.file, e.offset)) + unranked
    errors = [e for e in events if e.role in ERROR_ROLES]
    if not errors:
        return None
    tracebacks = [e for e in errors if e.role in ("traceback", "frame")]
    ranked = [s.rank for s in ranks.values() if any(e.role in ERROR_ROLES for e in s.events)]
    rank = min(ranked) if ranked else None
    site = raise_site([e for e in tracebacks if e.role == "frame"])
    if site is not None:  # cut at a raise statement that raises one message only: it names the cause
        return make_verdict("traceback_cut_at_raise_site", site[0], rank, tracebacks[-1:], "medium",
                            f"a Python traceback cut before its exception line, whose innermost frame is {site[1]}",
                            notes=("The traceback's last line names the exception: pass the whole log to see "
                                   "its message.",))
    interrupt = next((e for e in errors if interrupted(e)), None)
    if interrupt is not None:  # no rule read a hang's cause, and no error came before the interrupt
        return make_verdict("interrupted_by_hand", "unknown", interrupt.rank, [*tracebacks[-2:], interrupt], "low",
                            "the run was stopped by hand (KeyboardInterrupt) and shows no error before it: if it "
                            "hung, the frames above the interrupt show where it was",
                            title="the run was stopped by hand (Ctrl-C) with no error before it; if it hung, the "
                                  "cause of the wait is not in the given text",
                            notes=("Pass every rank's log (the rank that did not reach the wait holds the cause), "
                                   "or dump the stacks of a hung run with `py-spy dump --pid PID`.",))
    if tracebacks:
        return _cut_traceback(tracebacks, rank)
    # the line itself, or the one right after it (a native library's reason often follows on its own line)
    worded = next(((e, w) for e in errors if (w := read_wording("", f"{e.text}\n{e.next_text or ''}")) is not None),
                  None) or next(((e, w) for e in errors if (w := read_logged_python_error(e.text)) is not None), None)
    if worded is not None:  # a line no signature knows, whose words say what kind of failure it is
        line, wording = worded
        return make_verdict("error_worded", wording.cause, rank, [line], "low" if wording.specificity < 65 else
                            "medium", f"an error line no signature knows, whose words say {wording.means}")
    return make_verdict("error_without_cause", "unknown", rank, errors[:2], "low",
                        "the text shows an error, but no known message that names its cause",
                        title="an error with no known cause in the given text",
                        notes=("Pass the whole log dir (paddle-doctor diagnose log/), or rerun with "
                               "GLOG_v=3 NCCL_DEBUG=INFO to get the failing rank's full error.",))


# IPython's (Jupyter's, AI Studio's) traceback header: the type first, then CPython's words, on one line.
_NOTEBOOK_HEADER = re.compile(r"^\s*(?P<type>[A-Za-z_][\w.]*)\s+Traceback \(most recent call last\)")


def _cut_traceback(tracebacks: list, rank: int | None) -> Finding:
    """A traceback cut before its exception line: python_exception, or the cause the class a notebook's
    header names says (an archive's ReadError), at low either way."""
    named = _notebook_type(tracebacks)
    what, wording = f"{named or 'Python exception'} ", read_type_wording(named or "")
    code, cause = (("traceback_type_worded", wording.cause) if wording
                   else ("traceback_without_exception", CauseId.python_exception))
    return make_verdict(code, cause, rank, tracebacks[-1:], "low",
                        "a Python traceback whose exception line is not in the text (the log is cut)"
                        + (f"; the class its header names says {wording.means}" if wording else ""),
                        title=f"an uncaught {what}(its last line is not in the given text)",
                        notes=("The traceback's last line names the exception: pass the whole log, or the "
                               "workerlog of the failing rank.",))


def _notebook_type(tracebacks: list) -> str | None:
    """The type a notebook's traceback header names (IPython prints it before CPython's words; CPython's own
    header names none), for a traceback cut before its exception line."""
    header = next((e for e in reversed(tracebacks) if e.role == "traceback" and _NOTEBOOK_HEADER.match(e.text)), None)
    return _NOTEBOOK_HEADER.match(header.text)["type"] if header is not None else None


def raise_site(frames: list) -> tuple[CauseId, str] | None:
    """(cause, what the statement checks) for a cut traceback's innermost raise statement (RAISE_SITES),
    or None. ``frames`` are its frame events in order: CPython's (the statement is the frame's next
    line) or IPython's (the statement is its own "--> N raise ..." line, after its frame's header)."""
    if not frames:
        return None
    last = frames[-1]
    code = (last.groups.get("code") or last.next_text or "").strip()
    where = last if last.groups.get("path") else next((f for f in reversed(frames[:-1]) if f.groups.get("path")), None)
    if where is None or not code.startswith("raise"):
        return None
    path, func = where.groups["path"].replace("\\", "/"), where.groups.get("func") or ""
    for module_re, func_re, code_re, cause, why, _ in RAISE_SITES:
        if re.search(module_re, path) and re.fullmatch(func_re, func) and re.match(code_re, code):
            return cause, why
    return None
