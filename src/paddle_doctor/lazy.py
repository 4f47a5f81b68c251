"""Package exports loaded on first use (PEP 562), for packages that the fast CLI paths reach
only for one table: ``explain`` reads the rule registries (``lint.rules``, ``envcheck.checks``,
``diagnose.signatures``: ``paddle_doctor.links``), and must not pay for the lint engine, the env
probes or the log readers.
Imports nothing of ours.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable


def lazy_exports(package: str, table: dict[str, str]) -> Callable[[str], object]:
    """A module ``__getattr__``: ``name`` -> the module (relative to ``package``) that defines it."""

    def __getattr__(name: str) -> object:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module, package), name)

    return __getattr__


# Regular expressions compiled on first use, for module-level patterns that a run may never try.
class LazyPattern:
    """A compiled pattern's stand-in, compiled on its first use: the signature table's ~110
    patterns cost ~15 ms to compile at start-up, and a run that reads a few lines tries only the
    few whose literals those lines hold (diagnose/signatures/literals.py); redact's and the log
    readers' patterns are mostly for lines a small log does not have. After the first use its
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


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile``, deferred to the first use (see :class:`LazyPattern`)."""
    return LazyPattern(pattern, flags)
