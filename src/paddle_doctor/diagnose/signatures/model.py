"""The signature record: a pattern over one log line, its role, its cause id, how specific it is."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .sources import SOURCES
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


# What a survivor prints when another rank failed: never a cause by itself.
VICTIM_ROLES = ("peer_closed", "real_timeout", "terminated")


def sig(name, pattern, role, cause=None, specificity=0, example="", title="", flags=0, source=""):
    return Signature(name, LazyPattern(pattern, flags), role, cause, specificity, example, title,
                     source or SOURCES.get(name, ""))

