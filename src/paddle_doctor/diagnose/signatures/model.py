"""The signature record: a pattern over one log line, its role, its cause id, how specific it is."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .sources import SOURCES


class LazyPattern:
    """A compiled pattern's stand-in, compiled on its first use: the table's ~110 patterns cost
    ~15 ms to compile at start-up, and a run that reads a few lines tries only the few whose
    literals those lines hold (see :mod:`.literals` and the matcher). After the first use its
    methods are the compiled pattern's own, as plain attributes (no call through this class)."""

    _COPIED = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner",
               "flags", "groups", "groupindex")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.given_flags = flags

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("pattern", "given_flags"):
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self.given_flags)
        for attr in self._COPIED:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LazyPattern) and (self.pattern, self.given_flags) == (other.pattern, other.given_flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self.given_flags))

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self.given_flags})"


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

