"""The literal text a regular expression cannot match without: one plain substring test per
signature before its regex runs, and no regex compiled for a line that lacks it.

:func:`required_literals` reads a pattern's source (no ``re`` parse: that costs half a compile, and
start-up is what this saves) and returns strings of which every match contains at least one, or
None when it cannot tell. It is conservative: anything it does not fully understand (case-blind or
verbose patterns, escapes such as ``\\x41``, unusual braces) gives None, and a signature with None
is always searched. Only whole runs of plain characters count; a part that may be absent (``?``,
``*``, ``{0,n}``) is dropped; a group counts only when each of its branches has a literal.
"""

from __future__ import annotations

import re

MIN_LITERAL = 3  # a shorter literal is in too many lines to save a search
_CLASS_ESCAPES = frozenset("dDsSwW")
_ZERO_WIDTH_ESCAPES = frozenset("bBAZ")
_QUANTIFIER = re.compile(r"\{(\d*)(?:,(\d*))?\}")
_PLAIN = re.compile(r"[^\\\[()|.^$*+?{]+")  # characters that stand for themselves outside a class


class _Unsure(Exception):
    """A construct this reader does not follow: no literal is claimed for the pattern."""


def required_literals(pattern: str, flags: int = 0) -> tuple[str, ...] | None:
    """Strings of which any match of ``pattern`` contains one, or None (see the module doc)."""
    if flags & (re.IGNORECASE | re.VERBOSE):
        return None
    try:
        found, end = _Reader(pattern).alternatives(0)
    except (_Unsure, IndexError):
        return None
    return found if end == len(pattern) else None


class _Reader:
    def __init__(self, pattern: str) -> None:
        self.s = pattern

    def alternatives(self, i: int) -> tuple[tuple[str, ...] | None, int]:
        """Branches from ``i`` to the closing ``)`` or the end: the literals of all of them (None
        when one branch has none), and where the reading stopped."""
        found: list[str] = []
        complete = True
        while True:
            best, i = self.sequence(i)
            if best is None:
                complete = False
            else:
                found.extend(best)
            if i < len(self.s) and self.s[i] == "|":
                i += 1
                continue
            return (tuple(dict.fromkeys(found)) if complete else None), i

    def sequence(self, i: int) -> tuple[tuple[str, ...] | None, int]:
        """One branch: the best of its required parts (the longest shortest literal)."""
        s, run, parts = self.s, [], []

        def flush() -> None:
            if run:
                parts.append(("".join(run),))
                run.clear()

        while i < len(s) and s[i] not in "|)":
            c = s[i]
            if c == "(":
                group, i = self._group(i)
                flush()
                i, how = self._quantifier(i)
                if group is not None and how != "optional":
                    parts.append(group)
                continue
            plain = _PLAIN.match(s, i)
            if plain is not None:
                i, literal = plain.end(), plain[0]
            elif c == "\\":
                i, literal = self._escape(i)
            elif c == "[":
                i, literal = self._skip_class(i), None
            elif c in ".^$":
                i, literal = i + 1, None
            else:
                raise _Unsure("a quantifier with nothing before it")
            i, how = self._quantifier(i)
            if literal is None:
                flush()
            elif how == "optional":  # only the last character may be absent
                run.append(literal[:-1])
                flush()
            else:
                run.append(literal)
                if how == "repeated":
                    flush()  # what follows need not be next to it
        flush()
        good = [p for p in parts if min(map(len, p)) >= MIN_LITERAL]
        return (max(good, key=lambda p: min(map(len, p))) if good else None), i

    def _escape(self, i: int) -> tuple[int, str | None]:
        c = self.s[i + 1]
        if c in _CLASS_ESCAPES or c in _ZERO_WIDTH_ESCAPES:
            return i + 2, None
        if c.isalnum():
            raise _Unsure(f"escape \\{c}")  # \x41, \n, \1 ...: not read here
        return i + 2, c

    def _skip_class(self, i: int) -> int:
        i += 1
        if self.s[i] == "^":
            i += 1
        if self.s[i] == "]":
            i += 1
        while self.s[i] != "]":
            i += 2 if self.s[i] == "\\" else 1
        return i + 1

    def _group(self, i: int) -> tuple[tuple[str, ...] | None, int]:
        """A group from its ``(``: its literals (None for a look-around, a back-reference or a
        case-blind part) and the index after its ``)``."""
        s, counts = self.s, True
        i += 1
        if s[i] == "?":
            kind = s[i + 1]
            if kind == ":":
                i += 2
            elif kind == "P" and s[i + 2] == "<":
                i = s.index(">", i) + 1
            elif kind in "=!" or (kind == "<" and s[i + 2] in "=!"):
                i, counts = i + (2 if kind in "=!" else 3), False
            else:
                m = re.compile(r"\?([aiLmsux]*)(?:-([imsx]*))?([:)])").match(s, i)
                if m is None:
                    raise _Unsure("group kind")  # (?P=name), (?#...), (?(1)...)
                letters = m[1] + (m[2] or "")
                if m[3] == ")":  # global flags at the start
                    if "i" in letters or "x" in letters:
                        raise _Unsure("case-blind or verbose")
                    return None, m.end()
                i, counts = m.end(), "i" not in letters and "x" not in letters
        found, i = self.alternatives(i)
        if i >= len(s) or s[i] != ")":
            raise _Unsure("unclosed group")
        return (found if counts else None), i + 1

    def _quantifier(self, i: int) -> tuple[int, str]:
        """After an atom: the index past its quantifier, and "" (none), "optional" (may be absent)
        or "repeated" (present, maybe more than once)."""
        s = self.s
        if i >= len(s) or s[i] not in "*+?{":
            return i, ""
        if s[i] == "{":
            m = _QUANTIFIER.match(s, i)
            if m is None or (m[1] == "" and m[2] is None):
                raise _Unsure("a brace that may be literal")
            optional, i = m[1].strip("0") == "", m.end()
        else:
            optional, i = s[i] != "+", i + 1
        if i < len(s) and s[i] in "?+":
            i += 1  # lazy or possessive
        return i, "optional" if optional else "repeated"
