"""Untrusted text made inert for a terminal: the one place every text renderer passes it through.

Log lines, file names, error-record fields, tensor names and cached findings come from files that
anyone may have written. Raw, an ESC starts a control sequence (colours, a cursor move that
overwrites the verdict, an OSC that sets the window title or writes the clipboard), a CR returns
to the start of the line, and a newline in a file name forges a line of the report (a second
``VERDICT``). Each such character is shown escaped instead (``\\x1b``, ``\\r``, ``\\n``, ``\\u202e``):
C0 controls but the tab, DEL, C1 controls (``\\x9b`` is a CSI on some terminals), the Unicode line
and paragraph separators, and the bidirectional overrides that reorder what is shown.
"""

from __future__ import annotations

_NAMED = {"\n": "\\n", "\r": "\\r"}
_CODES = [*range(0x00, 0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0)]
_UNICODE = [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_TABLE = {c: _NAMED.get(chr(c), f"\\x{c:02x}") for c in _CODES} | {c: f"\\u{c:04x}" for c in _UNICODE}


def inert(text: object) -> str:
    """``text`` as one line with every control character shown escaped."""
    return str(text).translate(_TABLE)


def inert_lines(text: str) -> str:
    """Each line of ``text`` made inert, its own line breaks kept (for a renderer's whole output
    whose fields were made inert already, or that holds no untrusted line breaks)."""
    return "\n".join(inert(line) for line in text.split("\n"))
