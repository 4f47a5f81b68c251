"""``paddle-doctor lint`` text output: ``path:line:col: CODE [*] message`` and a summary footer.

The ``[*]`` mark and the footer follow ruff. Colour (ANSI) only when the caller says the output is
a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..findings import Finding, Fixable
from .text import inert

_BOLD, _RED, _CYAN, _RESET = "\x1b[1m", "\x1b[31m", "\x1b[36m", "\x1b[0m"


def render(findings: Iterable[Finding], *, color: bool = False, fixed: int = 0, unsafe_fixes: bool = False) -> str:
    findings = list(findings)
    lines = [_line(f, color, unsafe_fixes) for f in findings]
    lines.append(_footer(findings, fixed, unsafe_fixes))
    return "\n".join(lines) + "\n"


def _line(finding: Finding, color: bool, unsafe_fixes: bool) -> str:
    # Every field is made inert before our own colour codes are added: a file name or a cached
    # finding's message may hold escape codes or a newline (render/text.py).
    loc = finding.location
    place = inert(f"{loc.path}:{loc.line}:{loc.column}:")
    code = inert(finding.code)
    if color:
        place, code = f"{_BOLD}{place}{_RESET}", f"{_RED}{code}{_RESET}"
    mark = " [*]" if _fixable_now(finding, unsafe_fixes) else ""
    return f"{place} {code}{mark} {inert(finding.message)}"


def _fixable_now(finding: Finding, unsafe_fixes: bool) -> bool:
    return bool(finding.edits) and (finding.fixable is Fixable.SAFE or (unsafe_fixes and finding.fixable is not None))


def _footer(findings: list[Finding], fixed: int, unsafe_fixes: bool) -> str:
    parts = []
    if fixed:
        parts.append(f"Fixed {fixed} issue{'s' if fixed != 1 else ''}.")
    if not findings:
        parts.append("All checks passed!" if not fixed else "No issues left.")
        return "\n".join(parts)
    n = len(findings)
    parts.append(f"Found {n} issue{'s' if n != 1 else ''}.")
    safe = sum(_fixable_now(f, unsafe_fixes) for f in findings)
    hidden = sum(bool(f.edits) and f.fixable is Fixable.UNSAFE for f in findings) if not unsafe_fixes else 0
    if safe:
        parts.append(f"[*] {safe} fixable with the `--fix` option.")
    if hidden:
        parts.append(f"{hidden} more fixable with `--fix --unsafe-fixes` (they change behaviour: review them).")
    return "\n".join(parts)
