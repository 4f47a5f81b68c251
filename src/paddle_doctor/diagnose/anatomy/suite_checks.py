"""The suites' own checks, read by what they test (``suite_checks.json``, made by
bench/extract_suite_checks.py from the suites' sources: each row cites its file and line).

A suite (PaddleOCR, PaddleDetection, PaddleSeg, PaddleNLP, ...) checks its configuration and data
before Paddle runs and raises with a message of its own. The check's *test* names the cause: a path
that must exist (``file_not_found``), a configured value that must be one of the choices the code
handles (``config_error``). The message, with its formatted values as wildcards, finds the check back.

The same reading applies at run time to the asserts a traceback shows: a bare assert of named choices (its source
line, when it has no message), an installed package's assert that a name is in its table of names.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ...catalog.ids import CauseId
from .calls import INSTALLED_PACKAGE
from .parts import ErrorParts, Verdict

TABLE = Path(__file__).with_name("suite_checks.json")
SAME_FILE = 85  # the innermost frame is the check's own file
WORDS_ALONE = 5  # literal words a message needs to name its check without that frame
MESSAGE_ALONE = 75


@dataclass(frozen=True)
class SuiteCheck:
    exc_type: str
    message: str  # a pattern of the message's first line, compiled only for a message that holds ``key``
    key: str  # the message's longest literal run: a message without it is not matched
    words: int
    cause: CauseId
    test: str
    suite: str
    path: str
    line: int


@functools.lru_cache(maxsize=1)
def suite_checks() -> tuple[SuiteCheck, ...]:
    """The table, read on the first exception no Paddle table named (a few ms)."""
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return tuple(_check(row) for row in data["checks"])


def _check(row: dict) -> SuiteCheck:
    suite, where = row["source"].split(" ", 1)
    path, line = where.rsplit(":", 1)
    return SuiteCheck(row["type"], row["message"], row["key"], row["words"], CauseId(row["cause"]), row["test"],
                      suite, path, int(line))


def find_check(exc_type: str, message: str, innermost_path: str | None) -> tuple[SuiteCheck, int] | None:
    """The suite check that raised ``exc_type: message`` and its specificity, or None. With the
    innermost frame's file, a check of that very file is taken first; without it, only a message of
    at least WORDS_ALONE literal words names its check."""
    message = message.strip()
    if len(message) > 1 and message[0] == message[-1] and message[0] in "'\"":  # a KeyError prints its repr
        message = message[1:-1]
    path = (innermost_path or "").replace("\\", "/")
    found = None
    for check in suite_checks():
        if check.exc_type != exc_type or check.key not in message or not re.fullmatch(check.message, message, re.S):
            continue
        if path and path.endswith("/" + check.path.split("/", 1)[-1]):
            return check, SAME_FILE
        if found is None and check.words >= WORDS_ALONE:
            found = check, MESSAGE_ALONE
    return found


# The same reading at run time for a check the table cannot hold, a bare ``assert`` (no message): a source line that
# compares a value with string literals (``assert metric == 'COCO'``, ``assert dataset in ['pascalvoc', 'coco2017']``)
# tests that a chosen value is one the code handles. A string literal on the right makes it a choice by name, not a
# shape or a count; a version, a platform or a dtype compared with a name is no setting. Only in a suite's or an
# installed package's code: the user's own assert tests their own values.
_CHOICE = r"""(?:'[\w .:/-]{1,40}'|"[\w .:/-]{1,40}")"""
_CHOICE_ASSERT = re.compile(r"^assert\s+(?![\w.]*(?:__version__|platform|dtype|os\.name)\b)[\w.\[\]'\"]{1,80}\s+"
                            r"(?:==|in)\s+(?:" + _CHOICE + r"|[\[(]\s*" + _CHOICE +
                            r"(?:\s*,\s*" + _CHOICE + r"){0,15}\s*,?\s*[\])])\s*$")


def from_choice_assert(parts: ErrorParts) -> Verdict | None:
    """A bare AssertionError whose failing line checks a value against named choices: a value outside them."""
    frame = parts.innermost
    if parts.exc_type != "AssertionError" or parts.message.strip() or frame is None:
        return None
    if not frame.in_package_code:
        return None  # the user's own assert: their test of their own values
    source = (frame.source or "").strip()
    if not _CHOICE_ASSERT.match(source):
        return None
    return Verdict(CauseId.config_error, 60, f"a bare assert checks that a value is one of the choices the code handles "
                   f"({source}) and it is not: a configured value outside them", "frame", sure=False)


# An installed Paddle package asserting that the name it was given is one of its table's (PaddleNLP's Taskflow: ``assert
# self.model in set(TASKS[task][tag].keys())``): the table is the release's, so a name it lacks is, in the reports
# gathered, one a later (or earlier) release has more often than a typo. CPython shows a statement's first line only
# (before 3.11): an assert split after "in set(" shows no table, and then the message has to say the name is not in it.
_ASSERT_IN_TABLE = re.compile(r"\bassert\s+[\w.\[\]'\"]{1,80}\s+in\s+(?:(?P<cut>set\(\s*$)|(?:set\()?(?P<table>\w{1,40}(?:\.(?!"
                              r"keys\b)\w{1,40}){0,4})(?:\[[^\]\n]{0,40}\]){0,3}(?P<keys>\.keys\()?)")


# a table of the names the package takes (TASKS, MODEL_REGISTRY, self.models), not any dict (a state dict, a sample)
_TABLE_OF_NAMES = re.compile(r"[A-Z]{3}|registry|support|map|models?$|tasks?$|names$|choices|modules$")


def from_membership_assert(parts: ErrorParts) -> Verdict | None:
    """An AssertionError of an installed Paddle package's check that a given name is in its table of names."""
    frame = parts.innermost
    if parts.exc_type != "AssertionError" or frame is None:
        return None
    package = INSTALLED_PACKAGE.search(frame.path)
    if package is None:
        return None
    m = _ASSERT_IN_TABLE.search(frame.source or "")
    if m is None:
        return None
    if m["cut"] and re.search(r"\bnot\b", parts.message):
        table = "(a set of its names)"
    elif m["table"] and _TABLE_OF_NAMES.search(m["table"]):
        table = m["table"]
    else:
        return None
    pkg = package["pkg"]
    return Verdict(CauseId.paddle_api_mismatch, 65, f"the installed {pkg} checks that the name it was given is in its "
                   f"table {table}, and it is not: a name of another release of {pkg} (or misspelt)", "frame", sure=False)
