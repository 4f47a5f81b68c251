"""Suppression comments, with ruff's and flake8's meaning.

- ``# noqa`` on a line: every code on that line; ``# noqa: PDL101, PDL3`` only those codes (a
  prefix matches, as in flake8).
- ``# paddle-doctor: noqa`` on a line of its own: the whole file; ``# paddle-doctor: noqa: PDL1``
  only those codes, in the whole file.

A finding is suppressed by a noqa on its first or its last line (a call spread over lines can be
marked on either). Comments are found with a regex on lines that contain ``noqa``: a ``# noqa``
inside a string literal also counts, which is what flake8 does as well.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ALL = frozenset({"*"})
_LINE = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]*(?:[\s,]+[A-Z]+[0-9]*)*))?", re.IGNORECASE)
_FILE = re.compile(r"^\s*#\s*paddle-doctor:\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]*(?:[\s,]+[A-Z]+[0-9]*)*))?\s*$",
                   re.IGNORECASE)


@dataclass
class Suppressions:
    lines: dict[int, frozenset[str]] = field(default_factory=dict)
    file: frozenset[str] = frozenset()

    def suppresses(self, code: str, *line_numbers: int) -> bool:
        if _matches(self.file, code):
            return True
        return any(_matches(self.lines.get(n, frozenset()), code) for n in line_numbers)


def _matches(codes: frozenset[str], code: str) -> bool:
    return codes is ALL or any(code.startswith(c) for c in codes)


def _codes(match: re.Match) -> frozenset[str]:
    text = match.group("codes")
    return ALL if not text else frozenset(c.upper() for c in re.split(r"[\s,]+", text.strip()) if c)


def parse(text: str) -> Suppressions:
    out = Suppressions()
    if "noqa" not in text and "NOQA" not in text.upper():
        return out
    for number, line in enumerate(text.splitlines(), start=1):
        if "noqa" not in line.lower():
            continue
        whole = _FILE.match(line)
        if whole:
            codes = _codes(whole)
            out.file = ALL if codes is ALL or out.file is ALL else out.file | codes
            continue
        match = _LINE.search(line)
        if match:
            out.lines[number] = _codes(match)
    return out
