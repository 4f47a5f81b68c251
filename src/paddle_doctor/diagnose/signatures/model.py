"""The signature record: a pattern over one log line, its role, its cause id, how specific it is.

A :class:`Signature` is a rule of the shared protocol (:mod:`paddle_doctor.rules`): ``code`` is its
name, ``check`` its pattern, ``message`` its title, ``docs`` its source and example. The rows keep
their own fields (``sig(...)`` in the modules of ``rows``); the protocol's names
are properties over them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...catalog import get_cause
from ...rules import Docs
from ...lazy import LazyPattern


@dataclass(frozen=True)
class Signature:
    name: str
    pattern: re.Pattern | LazyPattern
    role: str
    cause: str | None = None
    specificity: int = 0  # higher wins when one rank shows several causes
    example: str = ""  # a line built from the emitting code's template (tests check every example)
    title: str = ""  # short human label; may use named groups, e.g. "{exc}"
    source: str = ""  # where the message is emitted: "package version, file" (tests require it)
    # The surest the line alone can make a verdict: "medium" for a message its emitter prints for several
    # different failed checks (one line, more than one cause), however specific its wording looks.
    most: str = "high"
    # For a warning (role "context"): the errors it can explain, when it is about an optional part that only some runs
    # use ("Ignore this if TensorRT is not needed"); empty: any error its cause explains.
    explains_only: str = ""
    # What to check and do when this row decides the verdict, where the cause's own advice (the catalog's confirm and
    # fix) would mislead: a missing shared library is file_not_found, yet "use absolute paths" does not install it.
    confirm: str = ""
    fix: str = ""
    # Its one line is printed by a near cause too (refine/near.py's NEAR names it and the check that tells the two
    # apart): a verdict that rests on this row's line alone gets that cause as its first alternative.
    near: bool = False

    # --- the rule protocol (paddle_doctor.rules.Rule) ---
    @property
    def code(self) -> str:
        return self.name

    @property
    def message(self) -> str:
        """The title, or the cause's own title for a row that has none."""
        if self.title:
            return self.title
        return get_cause(self.cause).title if self.cause else self.role

    @property
    def docs(self) -> Docs:
        return Docs(source=self.source, example=self.example)

    @property
    def check(self) -> re.Pattern:
        return self.pattern

    @property
    def points_at_cause(self) -> bool:
        """True for a row that is evidence of its cause (not a victim's line or context)."""
        return bool(self.cause) and self.role in ("cause", "exception")


# What a survivor prints when another rank failed: never a cause by itself.
VICTIM_ROLES = ("peer_closed", "real_timeout", "terminated")


def sig(name, pattern, role, cause=None, specificity=0, example="", title="", flags=0, source="", most="high",
        explains_only="", confirm="", fix="", near=False):
    return Signature(name, LazyPattern(pattern, flags), role, cause, specificity, example, title, source, most,
                     explains_only, confirm, fix, near)
