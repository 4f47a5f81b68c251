"""Suppression comments, with ruff's meaning.

- ``# noqa`` on a line: every code on that line; ``# noqa: PDL101, PDL3`` only those codes (a
  prefix matches, as in flake8).
- ``# paddle-doctor: noqa`` in a comment on a line of its own: the whole file;
  ``# paddle-doctor: noqa: PDL1`` only those codes, in the whole file.

A finding is suppressed by a noqa on its first or its last line (a call spread over lines can be
marked on either). Only real comments count (found with :mod:`tokenize`, as ruff reads comment
ranges): a ``# noqa`` inside a string or a docstring suppresses nothing. Codes are validated as
ruff does: a code must be letters then digits (``PDL501``); a malformed one (``PDL-501``, ``noqa:``
with nothing after) makes the comment invalid: it is reported as a warning and suppresses nothing.
Text after the codes (``# noqa: PDL101 rank 0 only``) is a reason and is ignored. A well-formed
``PDL`` code that names no rule (``PDL999``) is warned about too (other tools' codes are not).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from .rules import BY_CODE

ALL = frozenset({"*"})
_DIRECTIVE = re.compile(r"#\s*(?P<file>paddle-doctor:\s*)?noqa(?P<rest>.*)$", re.IGNORECASE)
_CODE = re.compile(r"[A-Z]+[0-9]+$")


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


def parse_directive(comment: str) -> tuple[bool, frozenset[str] | None, str | None] | None:
    """(whole file?, codes or ALL, None) for a noqa comment; (…, None, why) when malformed; None if no noqa."""
    match = _DIRECTIVE.search(comment)
    if match is None:
        return None
    whole, rest = bool(match.group("file")), match.group("rest")
    if not rest.strip():
        return whole, ALL, None
    if not rest.startswith(":") and not rest.lstrip().startswith(":"):
        # `# noqa because ...`: a blanket noqa with a reason (ruff), unless the word is glued on (`noqaX`)
        return (whole, ALL, None) if rest[0].isspace() else None
    items = [item for item in re.split(r"[\s,]+", rest.lstrip()[1:].strip()) if item]
    if not items:
        return whole, None, "`noqa:` names no code"
    codes = []
    for item in items:
        if _CODE.match(item.upper()) and item[:1].isalpha():
            codes.append(item.upper())
        elif not codes:
            return whole, None, f"`{item}` is not a rule code (letters then digits, e.g. PDL501)"
        else:
            break  # the rest is a reason
    return whole, frozenset(codes), None


def parse(text: str, warnings: list[str] | None = None) -> Suppressions:
    out = Suppressions()
    if "noqa" not in text.lower():
        return out
    for number, start_col, line, comment in _comments(text):
        parsed = parse_directive(comment)
        if parsed is None:
            continue
        whole, codes, why = parsed
        if codes is None:
            if warnings is not None:
                warnings.append(f"{number}: invalid noqa comment `{comment.strip()}`: {why}; it suppresses nothing")
            continue
        if warnings is not None and codes is not ALL:
            warnings.extend(f"{number}: `# noqa` names an unknown rule code `{c}`" for c in sorted(codes)
                            if c.startswith("PDL") and not any(code.startswith(c) for code in BY_CODE))
        if whole:
            if line[:start_col].strip():
                continue  # `x = 1  # paddle-doctor: noqa` is not a file-level directive
            out.file = ALL if codes is ALL or out.file is ALL else out.file | codes
        else:
            before = out.lines.get(number)
            out.lines[number] = ALL if codes is ALL or before is ALL else (before or frozenset()) | codes
    return out


def _comments(text: str):
    """(line, column, the line's text, comment) for every real comment that mentions noqa."""
    lines = text.splitlines()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT and "noqa" in tok.string.lower():
                number, col = tok.start
                yield number, col, lines[number - 1] if number <= len(lines) else "", tok.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return  # the file parsed with ast, so this is a tokenizer corner case: suppress nothing more
