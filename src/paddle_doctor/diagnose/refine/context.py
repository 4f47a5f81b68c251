"""Refiners that read the rest of the text around a chosen error: an earlier warning that names the
cause, leftover launcher variables in a process that had no launcher; and :func:`explained_by_facts`,
which asks every refiner in turn. Each takes the events, the chosen cause line and its rank, and
returns the root-cause Finding that the fact explains, or None (the error stands as it is)."""

from __future__ import annotations

import re

from ...catalog import explains_also, is_generic
from ...catalog.ids import CauseId
from ...findings import Alternative, Finding
from ..ranks import LauncherFacts
from ..read.parse import Event
from ..verdict import format_title, make_verdict
from .crash import NATIVE_CRASH, explained_by_earlier_error
from .peers import (explained_by_child_rerun, explained_by_empty_share, explained_by_oom_kill,
                    explained_by_peers_in_backward)
from .platform import explained_by_loopback, explained_by_windows
from .ports import explained_by_port_race
from .versions import explained_by_lite_versions, explained_by_nccl_versions


def explained_by_context(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    """An earlier warning that names a cause explains a later generic error (the catalog's ``generic =
    true``: it says "something failed" without saying why), or a device error its cause also produces
    (its ``explains = [...]``: no GPU driver also gives "driver version is insufficient", Paddle#14625).
    A warning less specific than such an error only reports what the error explains (Paddle's
    "Compiled with WITH_GPU, but no GPU found in runtime" follows any failed device count, a driver
    too old for the runtime included: Paddle#28360): it does not explain it."""
    context = [e for e in events if e.role == "context" and (e.file, e.line, e.offset) < (event.file, event.line, event.offset)
               and _explains(e, event)]
    if not context or _details_follow(events, event):
        return None
    warning = context[-1]
    if event.sig.cause in NATIVE_CRASH:
        return _crash_after_warning(warning, event, rank)
    return make_verdict(
        warning.sig.name, warning.sig.cause, rank, [warning, event], warning.sig.most,
        f"an earlier warning names the cause ({warning.sig.cause}); the later error ({event.sig.cause}) is what "
        "it leads to",
        title=format_title(warning), alternatives=(Alternative(
            event.sig.cause, "low", "the later error may have its own reason",
            "fix the mismatch the warning names and rerun: the error goes away if it was the cause"),))


def _crash_after_warning(warning: Event, crash: Event, rank: int | None) -> Finding:
    """A native crash after a warning that names a cause: a crash has many possible reasons and the warning only
    the likeliest, so the crash stands, at medium at most (a crash known only by a weak sign stays low), with the
    warning's cause as its first alternative."""
    return make_verdict(
        crash.sig.name, crash.sig.cause, rank, [crash, warning], "low" if crash.sig.specificity < 50 else "medium",
        f"the process crashed; an earlier warning names a likely reason ({warning.sig.cause})", title=format_title(crash),
        alternatives=(Alternative(warning.sig.cause, "medium", f"the earlier warning: {format_title(warning)}",
                                  "fix what the warning names and rerun: the crash goes away if it was the reason"),))


# CPython's import errors (Python/import.c, Python/ceval.c import_from): the import of a name or a module failed,
# which no warning (printed while the same import initialised Paddle) can explain: it is about what is installed.
_IMPORT_FAILED = re.compile(r"^\s*(?:ImportError: cannot import name|ModuleNotFoundError: No module named)")
# Python's own errors of a program's logic (a wrong type, a missing attribute or key, an index past the end, a value a
# check refused) that carry no error class of Paddle's enforce ("(InvalidArgument) ..."): Python code raised them, not
# a device or a library of the wrong version; only a warning whose row names them (``explains_only``) explains them.
_PROGRAM_ERROR = re.compile(r"^\s*(?:TypeError|AttributeError|KeyError|IndexError|NameError|UnboundLocalError|"
                            r"ZeroDivisionError|SyntaxError|RecursionError|ValueError): (?!\(\w+\) )")


# Paddle 1.x wraps every operator's error as "EnforceNotMet: Invoke operator X error." and prints the check that
# failed below it (its C++ callstack, "Enforce failed. Expected ... but received ..."): that check is what failed.
_OP_WRAPPER = re.compile(r"Invoke operator \w+ error\.?\s*$")
_CHECK_DETAIL = re.compile(r"Enforce failed|Expected .{1,200} but received")


def _details_follow(events: list[Event], error: Event) -> bool:
    """Whether ``error`` is 1.x's operator wrapper and the failed check's details follow it in the same text."""
    return bool(_OP_WRAPPER.search(error.text)) and any(
        e.file == error.file and 0 < e.line - error.line <= 60 and _CHECK_DETAIL.search(e.text) for e in events)


def _explains(warning: Event, error: Event) -> bool:
    """Whether an earlier warning can explain a later error. A Python error its row names (``explains_only``: a
    failed image read, then ``'NoneType' object has no attribute 'shape'``) is explained by it. A CUDA status the
    catalog reads as generic (cuda_error_other: 999 unknown, 3 initialisation, ...) still says more than a warning
    that only reports the failed call it comes from (init.cc's "no GPU found in runtime" is printed in the catch of
    the device query whose status follows): like a specific error, it stands against a less specific warning."""
    if _IMPORT_FAILED.search(error.text):
        return False
    if warning.sig.explains_only:  # a warning about one thing (TensorRT, an image read) explains only its errors
        if re.search(warning.sig.explains_only, error.text) is None:
            return False
    elif _PROGRAM_ERROR.search(error.text):
        return False
    ranked = error.sig.cause in explains_also(warning.sig.cause) or error.sig.cause == CauseId.cuda_error_other
    if ranked:
        return warning.sig.specificity >= error.sig.specificity
    return is_generic(error.sig.cause)


def leftover_env(events: list[Event], event: Event, rank: int | None, facts: LauncherFacts) -> Finding | None:
    """A process with no launcher that waited for peers (or found no parallel environment) while
    the text shows PADDLE_TRAINER* variables: they were left over, not missing."""
    if event.sig.cause != CauseId.missing_dist_env or facts.kind:
        return None
    env = [e for e in events if e.sig.name == "paddle_env_var"]
    if not env:
        return None
    return make_verdict(
        "leftover_paddle_env", CauseId.residual_dist_env, rank, [env[0], event], "medium",
        "no launcher ran, yet the environment holds the launcher's PADDLE_* variables: the process "
        "waited for peers those leftovers describe", title="leftover PADDLE_* variables made a single "
        "process wait for peers that do not exist",
        alternatives=(Alternative(CauseId.missing_dist_env, "low", "the variables may be incomplete rather than stale",
                                  "`env | grep -E '^(PADDLE_|FLAGS_selected)'` in the shell that ran it"),))


# A PADDLE_* variable the pasted text sets for this run: a script's or a shell trace's export (`+ export PADDLE_X=...`,
# bash -x), or a command that sets it for itself (`PADDLE_TRAINER_ID=$SLURM_PROCID python train.py`, a scheduler's
# line). `env` / `printenv` output, or a script printing several of them on one line, is neither: it shows what is set.
_SETS_PADDLE_ENV = re.compile(r"^\s*\+*\s*(?:export|set|declare -x)\s+PADDLE_|\bPADDLE_\w+=\S*(?:\s+\w+=\S*)*\s+"
                              r"(?:python[\d.]*|\S*/python\S*|bash|sh|srun|mpirun|exec)\b")


def sets_paddle_env(text: str) -> bool:
    """Whether a ``paddle_env_var`` line sets the variable for this run (see ``_SETS_PADDLE_ENV``)."""
    return _SETS_PADDLE_ENV.search(text) is not None


def set_for_this_run(events: list[Event], event: Event, rank: int | None) -> Finding | None:
    """A distributed set-up that lacks a variable (``residual_dist_env``'s row: the world size came from leftovers)
    where the text shows the run's own command setting PADDLE_* variables: they are this run's, set by hand and
    incomplete, not leftovers (a job started by srun or mpirun instead of Paddle's launcher)."""
    if event.sig.cause != CauseId.residual_dist_env or event.role != "cause":
        return None
    own = next((e for e in events if e.sig.name == "paddle_env_var" and sets_paddle_env(e.text)), None)
    if own is None:
        return None
    return make_verdict(
        "env_set_by_hand", CauseId.missing_dist_env, rank, [own, event], "medium",
        "the run's own command sets the launcher's PADDLE_* variables, and Paddle found one it needs unset: they are "
        "set by hand and incomplete, not left over", title="the job sets the launcher's variables by hand and misses "
        f"one Paddle needs ({event.groups.get('var', 'a variable')}): start it with paddle.distributed.launch",
        alternatives=(Alternative(CauseId.residual_dist_env, "low", "variables left in the shell by an earlier run may "
                                  "be mixed in", "`env | grep -E '^(PADDLE_|FLAGS_selected)'` before the command"),))


def explained_by_facts(everything, own, ranked, event, rank, facts) -> Finding | None:
    """A fact elsewhere in the text (``own``: the rank's lines) that explains the error ``event``."""
    return (explained_by_child_rerun(own, event, rank) or explained_by_peers_in_backward(everything, event, rank)
            or explained_by_oom_kill(everything, event, rank) or explained_by_empty_share(everything, event, rank)
            or explained_by_port_race(everything + facts.ports, event, rank) or explained_by_earlier_error(own, event, rank)
            or explained_by_context(own, event, rank)
            or explained_by_nccl_versions(everything, event, rank) or explained_by_lite_versions(own, event, rank)
            or leftover_env(ranked, event, rank, facts) or set_for_this_run(everything, event, rank)
            or explained_by_windows(own, event, rank) or explained_by_loopback(everything, event, rank))
