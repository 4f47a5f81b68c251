"""The scanner's two literal finders give the same offsets: Aho-Corasick (small inputs, and where
Hyperscan has no wheel) and Hyperscan (once a few MiB were scanned). Checked on every fixture and
corpus log, and on lines where triggers overlap. And a scan that reads the carried line again
(a seekable stream) finds what a scan that copies it before the next chunk finds."""

import io
import random
from pathlib import Path

import pytest

from conftest import CORPUS
from paddle_doctor.diagnose.read import scan
from paddle_doctor.diagnose.read.literals import finders
from paddle_doctor.diagnose.read.literals.triggers import TRIGGERS, WITH_SELF_RANK
from paddle_doctor.diagnose.read.opener import open_log

hyperscan = pytest.importorskip("hyperscan")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LOGS = sorted(p for p in [*FIXTURES.rglob("*"), *CORPUS.parent.glob("real-dev*/*.log")]
              if p.is_file() and p.suffix not in (".json", ".py", ".md"))
OVERLAPS = b"NCCL error Nccl nccl Errorerror ERROR Timeout timeout TIMEOUT Exception Error\nKilled killed SIG WARNING\n"


def _finders(self_rank):
    patterns = sorted({t.encode() for t in (WITH_SELF_RANK if self_rank else TRIGGERS)})
    fast = finders.hyperscan_finder(patterns)
    small = finders.trigger_finder.__wrapped__(self_rank)  # a fresh one: Aho-Corasick until SMALL_SCAN_BYTES
    return fast, small


@pytest.mark.parametrize("self_rank", [False, True])
def test_aho_corasick_and_hyperscan_give_the_same_offsets(self_rank):
    fast, small = _finders(self_rank)
    assert LOGS
    for path in LOGS:
        with open_log(str(path)) as stream:
            data = stream.read(finders.SMALL_SCAN_BYTES // 2)
        for buf in (data, OVERLAPS):
            assert small(buf, len(buf)) == fast(buf, len(buf)), path
            assert small(buf, len(buf) // 2) == fast(buf, len(buf) // 2), path


def test_a_finder_switches_to_hyperscan_after_small_scan_bytes():
    fast, small = _finders(False)
    big = OVERLAPS * (finders.SMALL_SCAN_BYTES // len(OVERLAPS) + 1)
    assert small(big, len(big)) == fast(big, len(big))
    assert small(OVERLAPS, len(OVERLAPS)) == fast(OVERLAPS, len(OVERLAPS))


class _Unseekable(io.RawIOBase):
    """A stream the scanner cannot seek back in: it then puts the carried line before each chunk."""

    def __init__(self, data: bytes) -> None:
        self.inner = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        return self.inner.read(size)


def _scan_all(stream):
    stats = scan.ScanStats()
    hits = list(scan.scan_stream(stream, stats, count_lines=True))
    return hits, (stats.lines, stats.last_text, stats.trailing, stats.head, stats.tail)


@pytest.mark.parametrize("seed", range(6))
def test_reading_the_carried_line_again_gives_the_same_scan(monkeypatch, seed):
    monkeypatch.setattr(scan, "SNIFF_BYTES", 64)
    monkeypatch.setattr(scan, "CHUNK_BYTES", 512)
    monkeypatch.setattr(scan, "MAX_LINE_BYTES", 2048)
    monkeypatch.setattr(scan, "TAIL_KEEP_BYTES", 700)
    rnd = random.Random(seed)
    words = [b"step 1 loss 0.5", b"RuntimeError: boom", b"NCCL error", b"x" * 3000, b"Traceback", b"", b"y" * 700]
    data = b"\n".join(rnd.choice(words) for _ in range(rnd.randint(20, 200)))
    data += rnd.choice([b"", b"\n", b"Error at the end"])
    assert _scan_all(io.BytesIO(data)) == _scan_all(_Unseekable(data))
