"""The first signature that matches a line, with a cache keyed by the line's shape."""

from __future__ import annotations

import functools
import re

import ahocorasick_rs

from .literals import required_literals
from .model import Signature
from .table import SIGNATURES


@functools.lru_cache(maxsize=16384)
def match_line(text: str) -> tuple[Signature, re.Match] | None:
    """The first signature matching ``text``, with its match object. Cached: the ranks of one job
    print the same lines (a victim's traceback, the launcher's banner) hundreds of times, and the
    same line with other numbers (its rank, its time) a thousand times: see :func:`_shape_hint`."""
    if not _NEEDS:
        _build_tables()
    shape = text.translate(_DIGITS_TO_ZERO)
    first = _FIRST_BY_SHAPE.get(shape)
    if first is None:
        found = _first_of(text, _candidates(text))
        if len(_FIRST_BY_SHAPE) >= _SHAPES_KEPT:
            _FIRST_BY_SHAPE.clear()
        _FIRST_BY_SHAPE[shape] = found[0] if found else len(SIGNATURES)
    else:
        hint = _shape_hint(first)
        found = _first_of(text, [i for i in _candidates(text) if i in hint])
    return (SIGNATURES[found[0]], found[1]) if found else None


# A reporter's sentence that quotes the error inline, in Chinese or Japanese prose ("运行时出现AttributeError:
# ...，请问"): the quote runs from the exception's name (right after a CJK character, where no word boundary
# separates them) to the end of its clause. Read as the error line it quotes. (An ASCII name: ``\w`` would run on
# through the CJK text after every capital, a scan per character.)
_QUOTE_START = re.compile(r"(?<=[\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef])"
                          r"(?=(?:[A-Za-z_][A-Za-z0-9_.]*\.)?_?[A-Z][A-Za-z0-9_]*(?:Error|Exception)\s*[:：])")
# The shell's report of a job a signal ended, quoted the same way ("得到如下错误：./run.sh: line 81: 18521 Illegal
# instruction (core dumped) ..."): bash's "<script>: line N: <pid> <signal>", a signal's name with bash's
# "(core dumped)" (full-width brackets as an IME types them), the same in a zh_CN locale ("段错误 (核心已转储)": the
# name is CJK itself, so it is spelt out), or zsh's "zsh: <signal>  <command>", after a CJK character, a colon and
# spaces. Tried only where the sentence quotes no exception (that one is the error; the crash may be an earlier,
# fixed one). The path starts with an ASCII character and stops at CJK text, so a long run of kana or hanzi is not
# scanned once per character.
_SIGNAL_REPORT = (r"[A-Z][a-z]+(?: [a-z]+)* ?[(（]core dumped[)）]|zsh: [a-z]+(?: [a-z]+)* +\S"
                  r"|(?:段错误|非法指令|浮点数例外|已放弃|总线错误) ?[(（]核心已转储[)）]")
_SIGNAL_QUOTE_START = re.compile(r"(?<=[\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]):?[ \t]*"
                                 r"(?=[./~A-Za-z0-9_-][^\s\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]*: line \d+:\s+\d+\s+"
                                 r"[A-Z]|" + _SIGNAL_REPORT + ")")
# The same report in an English sentence ("after a few steps it crashes with Aborted (core dumped)", "it dies with
# zsh: killed  python train.py"): read where a verb that reports an error, or a crash's own verb, comes just before
# it (see ``_reported``).
_PROSE_SIGNAL_START = re.compile(r"(?<=[a-z,:] )(?=[A-Z][a-z]+(?: [a-z]+)* ?\(core dumped\)|zsh: [a-z]+(?: [a-z]+)* +\S)")
# The same quote in an English sentence ("Running it gives ModuleNotFoundError: No module named 'x'"): the
# exception's name after a word of prose (a lowercase letter, a comma or a colon, and a space), read only where a
# verb that reports an error comes just before it (get, gives, threw, shows, ...) and the line is no log record of
# a quiet level: a warning or an INFO line that names an exception it handled ("skipped: ValueError: ..."), a
# victim's "failed with RuntimeError: ..." or a Java chain's "Caused by: ..." is no error the reporter quotes.
_PROSE_QUOTE_START = re.compile(r"(?<=[a-z,:] )(?=(?:[A-Za-z_][A-Za-z0-9_.]*\.)?_?[A-Z][A-Za-z0-9_]*(?:Error|Exception): )")
_REPORTED_BY = re.compile(r"(?i:\b(?:get|gets|got|getting|give|gives|gave|giving|throw|throws|threw|thrown|raise|raises|"
                          r"raised|show|shows|showed|shown|see|sees|saw|seeing|encounter|encounters|encountered|hit|report|"
                          r"reports|reported|print|prints|printed|produce|produces|produced))\b(?: +(?:an?|the|this|that|"
                          r"following|same|error|errors|exception|exceptions|[\w:]+,))* *:? *$"
                          r"|(?i:\b(?:crash|crashes|crashed|die|dies|died|abort|aborts|aborted) +with *:? *$)")
_NEGATED = re.compile(r"(?i)\b(?:no longer|not|never|no more|used to|fixed|solved|resolved)\b|n't\b")
_QUIET_LEVEL = re.compile(r"^[IW]\d{4} |(?:^|[\s\[|:-])(?:INFO|WARN|WARNING|DEBUG)\b")
_AFTER_CORE_DUMPED = re.compile(r"((?:core dumped|核心已转储)[)）])[ \t].*$")  # the sentence going on after the report
_CLAUSE_END = re.compile(r"\s*[，。；！？][\s\u3000]*[\u3040-\u30ff\u4e00-\u9fff].*$")
_FULL_WIDTH_COLON = re.compile(r"^([\w.]+?)\s*：\s*")  # "ValueError：..." as a retyped quote writes it
_QUOTED_ROLES = ("cause", "exception")


def match_quoted(text: str) -> tuple[Signature, re.Match, str] | None:
    """The cause or exception row matching an error quoted inside a sentence of ``text``, its match, and
    the quote; None where the line quotes none (see ``_QUOTE_START``, ``_SIGNAL_QUOTE_START``,
    ``_PROSE_QUOTE_START`` and ``_PROSE_SIGNAL_START``, tried in that order)."""
    for quote_start in (_QUOTE_START, _SIGNAL_QUOTE_START, _PROSE_QUOTE_START, _PROSE_SIGNAL_START):
        start = quote_start.search(text)
        prose = quote_start is _PROSE_QUOTE_START or quote_start is _PROSE_SIGNAL_START
        if start is None or (prose and not _reported(text, start.start())):
            continue
        quote = _CLAUSE_END.sub("", text[start.end():])
        if quote_start is _SIGNAL_QUOTE_START or quote_start is _PROSE_SIGNAL_START:
            quote = _AFTER_CORE_DUMPED.sub(r"\1", quote, count=1)
        quote = _FULL_WIDTH_COLON.sub(r"\1: ", quote, count=1)
        found = match_line(quote)
        if found is not None and found[0].role in _QUOTED_ROLES:
            return found[0], found[1], quote
    return None


def _reported(text: str, at: int) -> bool:
    """Whether the error named at ``at`` is one the sentence reports (see ``_PROSE_QUOTE_START``): a reporting verb
    just before it, no quiet log level, and no negation in the clause ("no longer dies with ...": a fixed crash)."""
    return (_REPORTED_BY.search(text, max(0, at - 80), at) is not None and _QUIET_LEVEL.search(text) is None
            and _NEGATED.search(text, max(0, at - 80), at) is None)


def _first_of(text: str, rows: list[int]) -> tuple[int, re.Match] | None:
    """The first of ``rows`` (each holding one of its literals, in table order) whose regex matches."""
    for i in rows:
        m = SIGNATURES[i].pattern.search(text)
        if m:
            return i, m
    return None


def _candidates(text: str) -> list[int]:
    """The rows ``text`` holds a literal of (and those that need none), in table order: one multi-literal pass over
    the line instead of a substring test per row (the table has some 360 rows)."""
    rows = set(_ALWAYS)
    for literal, _, _ in _AUTOMATON.find_matches_as_indexes(text, overlapping=True):
        rows.update(_ROWS_OF[literal])
    return sorted(rows)


# Two lines with the same shape (equal but for which ASCII digits they hold) match the same
# signatures, except signatures whose pattern tells digits apart: a literal digit ("pair.cc:584",
# "Errno 98", "[1-9]") or a back-reference. Every other construct (\d, \w, \S, ., [^x]) treats all
# digits alike. So once a shape's first matching signature is known, a new line of that shape can
# only match earlier at a digit-sensitive signature; those are tried, then the known one (and, if
# that one tells digits apart and fails, everything after it). The answer is the one a full search
# would give; it costs ~10 searches instead of ~70 for the 1023 ranks' variants of one line.
_DIGITS_TO_ZERO = str.maketrans("123456789", "000000000")
_SHAPES_KEPT = 65536
_FIRST_BY_SHAPE: dict[str, int] = {}  # shape -> index of the first signature that matched it (len: none)


def _tells_digits_apart(pattern: str) -> bool:
    bare = re.sub(r"\{\d+(?:,\d*)?\}", "", pattern)  # quantifiers' digits count repeats, not text
    return "(?P=" in bare or any(map(str.isdigit, bare))


def _flags(pattern) -> int:
    return pattern.given_flags if hasattr(pattern, "given_flags") else pattern.flags


# Per signature, literals of which every match holds one (None: always searched). Built on the first
# match (``explain`` imports the table and matches nothing).
_NEEDS: tuple[tuple[str, ...] | None, ...] = ()
_ROWS_OF: tuple[tuple[int, ...], ...] = ()  # per literal of _AUTOMATON, the rows that need it
_ALWAYS: tuple[int, ...] = ()  # rows that need no literal
_AUTOMATON = None


def _build_tables() -> None:
    global _NEEDS, _ROWS_OF, _ALWAYS, _AUTOMATON
    _NEEDS = tuple(required_literals(sig.pattern.pattern, _flags(sig.pattern)) for sig in SIGNATURES)
    literals = sorted({lit for needs in _NEEDS if needs for lit in needs})
    index = {lit: n for n, lit in enumerate(literals)}
    rows_of: list[list[int]] = [[] for _ in literals]
    for i, needs in enumerate(_NEEDS):
        for lit in needs or ():
            rows_of[index[lit]].append(i)
    _ROWS_OF = tuple(map(tuple, rows_of))
    _ALWAYS = tuple(i for i, needs in enumerate(_NEEDS) if needs is None)
    _AUTOMATON = ahocorasick_rs.AhoCorasick(literals)


@functools.lru_cache(maxsize=1)
def _digit_sensitive() -> tuple[int, ...]:
    """Built on the first line whose shape was seen before (a small log has none)."""
    return tuple(i for i, sig in enumerate(SIGNATURES) if _tells_digits_apart(sig.pattern.pattern))


@functools.lru_cache(maxsize=None)
def _shape_hint(first: int) -> frozenset[int]:
    """The signatures that can match a line whose shape first matched ``SIGNATURES[first]``: the digit-sensitive
    ones before it, it, and (when it tells digits apart) every one after it. A set: the line's own candidates (one
    pass of the automaton over it, in table order) are kept where they are in it; testing each hinted row's literals
    in turn took ~17 us a line where no row matched (116 digit-sensitive rows), the pass ~2 us."""
    sensitive = _digit_sensitive()
    hint = {i for i in sensitive if i < first}
    if first < len(SIGNATURES):
        hint.add(first)
        if first in sensitive:
            hint.update(range(first + 1, len(SIGNATURES)))
    return frozenset(hint)
