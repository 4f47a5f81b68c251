"""The literal prefilter of the signature matcher never skips a line that the regex would match:
literals read from tricky patterns, and, for every signature, lines that match (its example, and
the example with each character deleted in turn, and every scanned line of the fixtures) all hold
one of its literals. Lazily compiled patterns behave as compiled ones."""

import io
import re
from pathlib import Path

import pytest

from conftest import CORPUS
from paddle_doctor.diagnose.read.scan import scan_stream
from paddle_doctor.diagnose.signatures import SIGNATURES
from paddle_doctor.diagnose.signatures.literals import required_literals
from paddle_doctor.diagnose.signatures.model import LazyPattern

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize(("pattern", "flags", "expected"), [
    (r"abc", 0, ("abc",)),
    (r"abcd?e", 0, ("abc",)),  # d may be absent: "abc" and "e" apart, "e" too short
    (r"abcd+efg", 0, ("abcd",)),
    (r"abcd*efgh", 0, ("efgh",)),
    (r"abc\.de{0,2}fgh", 0, ("abc.d",)),
    (r"xyz{2}abc", 0, ("xyz",)),
    (r"Out of (?:memory|space) on (?P<dev>\w+)", 0, ("Out of ",)),
    (r"(?:NCCL|Nccl) error", 0, (" error",)),
    (r"(?:NCCL error|Nccl failure)(?:x)?", 0, ("NCCL error", "Nccl failure")),
    (r"foo|bar\d|bazz", 0, ("foo", "bar", "bazz")),
    (r"foo|\d+", 0, None),  # one branch without a literal
    (r"(?:abcd)?efg", 0, ("efg",)),
    (r"(?:abcd)*ef", 0, None),
    (r"[abc]+def[^]x]ghi", 0, ("def",)),
    (r"(?i)abc", 0, None),
    (r"abc", re.IGNORECASE, None),
    (r"abc", re.VERBOSE, None),
    (r"(?i:abcd)efg", 0, ("efg",)),
    (r"(?s)abc.def", 0, ("abc",)),
    (r"(?=lookahead)abc", 0, ("abc",)),
    (r"(?<!xyz)abcd", 0, ("abcd",)),
    (r"\x41BCD", 0, None),  # escapes with letters are not read
    (r"(?P<a>x)(?P=a)yyy", 0, None),
    (r"abc{", 0, None),  # a brace that is a literal in Python's re
    (r"abc+?def", 0, ("abc",)),
    (r"ab", 0, None),  # too short to be worth a test
    (r"ERROR\b|Error:", 0, ("ERROR", "Error:")),
    (r"(?:^|\W)MemoryError\b", 0, ("MemoryError",)),
])
def test_literals_read_from_patterns(pattern, flags, expected):
    assert required_literals(pattern, flags) == expected


def _has_one(text, literals):
    return literals is None or any(lit in text for lit in literals)


@pytest.mark.parametrize("sig", SIGNATURES, ids=lambda s: s.name)
def test_every_line_a_signature_matches_holds_one_of_its_literals(sig):
    literals = required_literals(sig.pattern.pattern, sig.pattern.given_flags)
    probes = [sig.example] + [sig.example[:i] + sig.example[i + 1:] for i in range(len(sig.example))]
    for text in probes:
        if sig.pattern.search(text):
            assert _has_one(text, literals), (sig.name, text, literals)


def _scanned_lines():
    paths = [p for p in [*FIXTURES.rglob("*"), *CORPUS.parent.glob("real-dev*/*.log")]
             if p.is_file() and p.suffix not in (".json", ".py", ".md", ".gz")]
    lines = set()
    for path in paths:
        lines.update(hit.text for hit in scan_stream(io.BytesIO(path.read_bytes()), self_rank=True))
    return sorted(lines)


@pytest.fixture(scope="module")
def full_search():
    """Every scanned fixture line with every signature whose regex matches it, in table order: each
    regex tried on each line once (~9000 lines x ~640 rows, ~11 s), for the two tests below."""
    return [(text, [sig for sig in SIGNATURES if sig.pattern.search(text)]) for text in _scanned_lines()]


def test_no_scanned_fixture_line_is_skipped_wrongly(full_search):
    """No line matches a signature's regex without holding one of its literals."""
    literals = {sig.name: required_literals(sig.pattern.pattern, sig.pattern.given_flags) for sig in SIGNATURES}
    assert len(full_search) > 1000
    for text, matched in full_search:
        for sig in matched:
            assert _has_one(text, literals[sig.name]), (sig.name, text, literals[sig.name])


def test_a_lazy_pattern_acts_as_the_compiled_one():
    lazy, compiled = LazyPattern(r"rank (?P<r>\d+)", re.IGNORECASE), re.compile(r"rank (?P<r>\d+)", re.IGNORECASE)
    assert lazy.groupindex == compiled.groupindex
    assert lazy.search("RANK 7")["r"] == "7"
    assert lazy.flags == compiled.flags and lazy.pattern == compiled.pattern
    assert lazy == LazyPattern(r"rank (?P<r>\d+)", re.IGNORECASE) and hash(lazy) == hash(LazyPattern(lazy.pattern, re.I))


def test_error_part_prefilters_never_skip_a_line_their_pattern_matches():
    from paddle_doctor.diagnose.anatomy import parts as P

    paths = [p for p in [*FIXTURES.rglob("*"), *CORPUS.parent.glob("real-dev*/*.log")]
             if p.is_file() and p.suffix not in (".json", ".py", ".md", ".gz")]
    lines = {line for p in paths for line in p.read_text(errors="replace").splitlines()}
    lines |= {"Cuda Error(700)", "CUDA ERROR ( 2 )", "NCCL Error(3)", "\u017fignal 9", "killed by SIGNAL: 9",
              "[ HINT: Expected x]", "[operator < gen_nccl_id > error]", "at /paddle/x/y.cc:12", "CUBLAS error(7)"}
    checks = [(regex, literal, caseless) for (_, regex), (literal, caseless) in zip(P._CODE_RES, P._CODE_LITERALS)]
    checks += [(P._HINT_RE, "hint", True), (P._OPERATOR_RE, "operator", True)]
    hits = 0
    for line in lines:
        lowered = line.lower() if line.isascii() else None
        for regex, literal, caseless in checks:
            if regex.search(line):
                hits += 1
                assert P._holds(line, lowered, literal, caseless), (regex.pattern, line)
        if P._CLASS_RE.search(line):
            assert any(word in line for word in P._CLASS_WORDS), line
        if P._CPP_RE.search(line):
            assert "." in line and ":" in line, line
    assert hits > 50


def test_the_matcher_gives_the_first_row_a_full_search_gives(full_search):
    """match_line tries only the rows whose literals the line holds (one multi-literal pass), then a shape's
    hint: the answer is the first row of the whole table whose regex matches, on every scanned fixture line."""
    from paddle_doctor.diagnose.signatures import matcher

    matcher.match_line.cache_clear()
    matcher._FIRST_BY_SHAPE.clear()
    for text, matched in full_search:
        full = matched[0] if matched else None
        got = matcher.match_line(text)
        assert (got[0] if got else None) is full, (text, full and full.name, got and got[0].name)
