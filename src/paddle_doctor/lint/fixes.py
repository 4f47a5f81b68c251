"""Apply a file's fix edits: non-overlapping, last first, and only if the result still parses."""

from __future__ import annotations

import ast

from ..findings import Edit, Finding, Fixable


def applicable(finding: Finding, unsafe: bool) -> bool:
    if not finding.edits or finding.fixable is None:
        return False
    return finding.fixable is Fixable.SAFE or unsafe


def apply_edits(text: str, edits: list[Edit]) -> tuple[str, int] | None:
    """The new text and the number of edits applied; None when the result would not parse."""
    starts = _line_starts(text)
    spans = []
    for edit in edits:
        try:
            start = starts[edit.line - 1] + edit.column
            end = starts[edit.end_line - 1] + edit.end_column
        except IndexError:
            continue
        spans.append((start, end, edit.replacement))
    spans.sort(key=lambda s: s[0], reverse=True)
    applied, limit, out = 0, len(text) + 1, text
    for start, end, replacement in spans:
        if end > limit:  # overlaps an edit already applied: leave it for the next run
            continue
        out = out[:start] + replacement + out[end:]
        limit, applied = start, applied + 1
    try:
        ast.parse(out)
    except (SyntaxError, ValueError):
        return None
    return out, applied


def _line_starts(text: str) -> list[int]:
    starts, offset = [], 0
    for line in text.splitlines(keepends=True):
        starts.append(offset)
        offset += len(line)
    starts.append(offset)
    return starts
