"""The scale shortcuts give the answers of the slow paths: the shape cache of ``match_line`` (a line
with other digits) and line numbers counted on demand (``scan.LineIndex``)."""

import gzip
import io

import pytest

from paddle_doctor.diagnose.read.parse import read_events
from paddle_doctor.diagnose.read.scan import CHUNK_BYTES, MAX_LINE_BYTES, ScanStats, scan_stream
from paddle_doctor.diagnose.signatures import SIGNATURES, match_line
from paddle_doctor.diagnose.read.sources import SourceFile


def _full_search(text):
    for sig in SIGNATURES:
        m = sig.pattern.search(text)
        if m:
            return sig.name, m.span(), m.groupdict()
    return None


def _digit_variants(text):
    shifted = "".join(str((int(c) + 1) % 10) if c.isascii() and c.isdigit() else c for c in text)
    sevens = "".join("7" if c.isascii() and c.isdigit() else c for c in text)
    zeros = "".join("0" if c.isascii() and c.isdigit() else c for c in text)
    return [shifted, sevens, zeros]


LINES_WITH_DIGIT_SENSITIVE_TWINS = [
    "OSError: [Errno 98] Address already in use",  # port_in_use names errno 98; 97 is another error
    "OSError: [Errno 97] Address already in use",
    "RuntimeError: [/paddle/third_party/gloo/gloo/transport/tcp/pair.cc:584] TIMEOUT self_rank = 3 pair_rank = 1",
    "I1129 09:58:11.123456  1037 process_group_nccl.cc:155] ProcessGroupNCCL pg_timeout_ 1800000",
    "step 12 loss 0.25 Error code 2",
]


@pytest.mark.parametrize("example", [s.example for s in SIGNATURES] + LINES_WITH_DIGIT_SENSITIVE_TWINS)
def test_shape_cache_gives_the_full_search_answer(example):
    """The first line of a shape fills the cache; its variants with other digits are answered from
    it, and must get what searching every signature in order gets."""
    for text in [example] + _digit_variants(example):
        got = match_line(text)
        assert (None if got is None else (got[0].name, got[1].span(), got[1].groupdict())) == _full_search(text), text


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return SourceFile(str(path), "worker", rank=0)


def _eager(data):
    stats = ScanStats()
    hits = list(scan_stream(io.BytesIO(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data), stats))
    return [(h.line, h.text) for h in hits], stats.lines


SHAPES = {
    "chunks": b"step 1 loss 0.5\n" * (CHUNK_BYTES // 16 + 7) + b"ValueError: boom\n" + b"x\n" * 5 + b"KeyError: 'k'\n",
    "no_final_newline": b"a\nb\nTraceback (most recent call last):\nRuntimeError: end",
    "over_long_line": b"ok\n" + b"Error " + b"y" * (MAX_LINE_BYTES + 10) + b" Error again\nValueError: after\nlast",
    "over_long_last_line": b"ok\nValueError: v\n" + b"z" * (CHUNK_BYTES + 5) + b" Error",
    "empty_lines_crlf": b"\r\n\r\nRuntimeError: crlf\r\n\r\n",
    "gzip": gzip.compress(b"noise\n" * 1000 + b"ValueError: in gzip\nend\n"),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_line_numbers_on_demand_equal_counted_ones(tmp_path, shape):
    data = SHAPES[shape]
    want_hits, want_lines = _eager(data)
    got = read_events(_write(tmp_path, f"workerlog.{shape}", data), 2026)
    assert got.events
    assert [(e.line, e.text) for e in got.events] == [(n, t) for n, t in want_hits if any(e.text == t for e in got.events)]
    assert got.lines == want_lines
