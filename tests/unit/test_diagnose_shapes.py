"""Input shapes, each on a real recorded log (case 01's workerlog.1, rank 1's ValueError): the same
verdict whether the text comes with ANSI colours, as UTF-16 with a BOM (Windows PowerShell's ``>``),
with CRLF line ends, gzip-compressed, or cut in the middle of a line."""

import codecs
import gzip
import re
from pathlib import Path

import pytest

from paddle_doctor.diagnose import diagnose_paths

REPO = Path(__file__).resolve().parents[2]
LOG = REPO / "tests" / "fixtures" / "cases" / "01_exception_rank1" / "log" / "workerlog.1"
ERROR_LINE = re.compile(rb"^(?:\w+\.)*\w+(?:Error|Exception)\b.*$|^Traceback.*$|^\s*File .*$", re.M)


def _verdict(path: Path):
    rc = diagnose_paths([str(path)]).root_cause
    assert rc is not None
    return rc.cause, rc.message, [e.line for e in rc.evidence]


@pytest.fixture(scope="module")
def plain():
    return _verdict(LOG)


def _colour(data: bytes) -> bytes:
    """Red error lines and bold traceback frames, as a terminal with colour shows them."""
    return ERROR_LINE.sub(lambda m: b"\x1b[1;31m" + m.group(0) + b"\x1b[0m", data)


def test_plain_is_the_real_exception(plain):
    assert plain[0] == "python_exception" and plain[1].startswith("ValueError:")


def test_ansi_colours_around_error_lines(tmp_path, plain):
    f = tmp_path / "workerlog.1"
    f.write_bytes(_colour(LOG.read_bytes()))
    assert b"\x1b[1;31mValueError" in f.read_bytes()
    assert _verdict(f) == plain
    assert "\x1b" not in diagnose_paths([str(f)]).root_cause.evidence[-1].text


@pytest.mark.parametrize("bom,codec", [(codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")])
def test_utf16_with_bom(tmp_path, plain, bom, codec):
    f = tmp_path / "workerlog.1"
    f.write_bytes(bom + LOG.read_text(encoding="utf-8").replace("\n", "\r\n").encode(codec))
    assert _verdict(f) == plain


def test_crlf_line_ends(tmp_path, plain):
    f = tmp_path / "workerlog.1"
    f.write_bytes(LOG.read_bytes().replace(b"\n", b"\r\n"))
    rc = diagnose_paths([str(f)]).root_cause
    assert (rc.cause, rc.message, [e.line for e in rc.evidence]) == plain
    assert not any(e.text.endswith("\r") for e in rc.evidence)


def test_gzip_log_file_and_in_a_dir(tmp_path, plain):
    d = tmp_path / "log"
    d.mkdir()
    f = d / "workerlog.1.gz"
    f.write_bytes(gzip.compress(LOG.read_bytes()))
    assert _verdict(f) == plain
    diag = diagnose_paths([str(d)])
    assert diag.root_cause.ranks == (1,) and diag.root_cause.cause == plain[0]


def test_log_cut_mid_line(tmp_path):
    data = LOG.read_bytes()
    at = data.index(b"ValueError")
    f = tmp_path / "paste.txt"
    f.write_bytes(data[: at + len(b"ValueError: (InvalidArg")])  # no newline at the end
    rc = diagnose_paths([str(f)]).root_cause
    assert rc.cause == "python_exception" and rc.message.startswith("ValueError: (InvalidArg")


def test_utf8_bom(tmp_path, plain):
    f = tmp_path / "workerlog.1"
    f.write_bytes(codecs.BOM_UTF8 + LOG.read_bytes())
    assert _verdict(f) == plain
