"""What a pasted issue wraps a log line in: terminal colours kept by a copy from a terminal, the Markdown bold,
italics or inline code a reporter puts around the error line, pytest's failure marker. Taken off before the line is
matched. And what it takes out: the line breaks between glog's records, run together on one line."""

from __future__ import annotations

import re

from ...lazy import lazy_compile

# Colour codes (Paddle's glog and the launcher colour some lines on a TTY; pastes keep them).
ANSI_RE = lazy_compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def plain(line: str) -> str:
    """The line without terminal colours, and without the Markdown bold, italics or inline code a pasted issue wraps
    an error line in (``**AssertionError: ...**``: PaddleOCR#7166, #7710; ``_KeyError: 'x'_``; a line quoted in
    backticks, Serving#982)."""
    line = ANSI_RE.sub("", line) if "\x1b" in line else line
    return unwrapped(line)


def unwrapped(text: str) -> str:
    """The line without the Markdown emphasis or inline code around the whole of it (a prefix already taken off)."""
    if text.lstrip().startswith("_") and text.rstrip().endswith("_"):
        text = _ITALIC_RE.sub(r"\1\2", text)  # ``_KeyError: 'x'_``: Markdown italics around a whole line
    if "**" in text:
        # bold (and bold italics) around words inside the line: "**_onnx_** 1.13.0 requires **_protobuf<4_**, ..."
        # (PaddleX#1656); Python's **kwargs and a glob's **/ open no span that closes. Then around the whole line.
        text = _INLINE_BOLD_RE.sub(r"\1", text)
        text = _BOLD_RE.sub(r"\1\2", text.rstrip()) if "**" in text else text
    if text.lstrip().startswith("`") and text.rstrip().endswith("`"):
        # `NameError: name 'np' is not defined`: a whole line as inline code; a lone exception class (`RuntimeError`)
        # is a name in prose, a lone word that is the error itself (`Killed`) is read
        text = _CODE_SPAN_RE.sub(r"\1\2", text)
    elif text.rstrip().endswith("`") and text.count("`") == 1 and text.rstrip()[-2:-1].isspace():
        # "ImportError: No module named v2 `": the close of an inline code span a reporter opened lines above (a
        # lone backtick after a space ends no code of the message itself)
        text = text.rstrip()[:-1].rstrip()
    if text.startswith(("E  ", "FAILED ", "ERROR ")):
        text = _PYTEST_FAILURE.sub("", text)
    return text


# applied to the line without its trailing spaces: a lazy span followed by "\s*$" backtracks quadratically on them
_BOLD_RE = re.compile(r"^(\s*)\*\*(?=[^\s*])(.*?)(?:\*\*)?$")
_CODE_SPAN_RE = re.compile(r"^(\s*)`(?!`|[\w.]*(?:Error|Exception|Warning|Exit|Interrupt)`)([^`\n]+)`\s*$")
# pytest marks the exception's lines of a failed test "E" and indents them (_pytest/_code/code.py FormattedExcinfo
# fail_marker = "E": "E       RuntimeError: ..."), and its short summary names the test before the exception
# (_pytest/terminal.py: "FAILED tests/t.py::test_x - RuntimeError: ..."): the rest of the line is the exception's.
_PYTEST_FAILURE = re.compile(r"^(?:E {3,}(?=\S)|(?:FAILED|ERROR) \S+(?:::[^\n]+?)? - (?=[\w.]*(?:Error|Exception|Exit|"
                             r"Interrupt|NotMet)\b))")
_ITALIC_RE = re.compile(r"^(\s*)_(?=[A-Z])(.*[^\s_])_\s*$")
# not after a word, a star or a closing bracket (``(a)**2``), not a path (``**/build/**``), not before "(" (``**(0.5)``)
_INLINE_BOLD_RE = re.compile(r"(?<![\w*)\]])\*\*_?(?=[^\s*_/])([^*\n]{1,200}?[^\s*_/])_?\*\*(?![\w*(])")


# glog's record header (severity and date, time, thread, file:line]) or Python's traceback header (not Paddle's "C++
# Traceback", which opens its C++ stack): a paste that lost its line breaks (a web form, a copy from a rendered page)
# runs such records together on one line, and one line can be read only once, as its first match (a warning, where
# an error follows it on the same line). Shared with the scanner, which starts a window of an over-long line there.
RECORD_START = r"[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [\w.-]+:\d+\] |(?<!C\+\+ )Traceback \(most recent call last\):"
_RECORD_START = re.compile(rf"(?<=\S)\s+(?={RECORD_START})")
_RUN_TOGETHER_MIN = 200  # two records on one line are longer than this (a window of an over-long line is 600-700)


def records(line: str) -> list[tuple[int, str]]:
    """The records a run-together line holds, each with where it starts in the line (the line itself when it is one)."""
    if len(line) < _RUN_TOGETHER_MIN:
        return [(0, line)]
    starts = [0, *(m.end() for m in _RECORD_START.finditer(line))]
    if len(starts) == 1:
        return [(0, line)]
    return [(start, line[start:end].rstrip()) for start, end in zip(starts, [*starts[1:], len(line)])]
