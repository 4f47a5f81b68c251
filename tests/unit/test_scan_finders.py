"""The scanner's two literal finders give the same offsets: Aho-Corasick (small inputs, and where
Hyperscan has no wheel) and Hyperscan (once a few MiB were scanned). Checked on every fixture and
corpus log, and on lines where triggers overlap."""

from pathlib import Path

import pytest

from conftest import CORPUS
from paddle_doctor.diagnose.read import scan
from paddle_doctor.diagnose.read.opener import open_log

hyperscan = pytest.importorskip("hyperscan")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LOGS = sorted(p for p in [*FIXTURES.rglob("*"), *CORPUS.parent.glob("real-dev*/*.log")]
              if p.is_file() and p.suffix not in (".json", ".py", ".md"))
OVERLAPS = b"NCCL error Nccl nccl Errorerror ERROR Timeout timeout TIMEOUT Exception Error\nKilled killed SIG WARNING\n"


def _finders(self_rank):
    patterns = sorted({t.encode() for t in (scan.WITH_SELF_RANK if self_rank else scan.TRIGGERS)})
    fast = scan._hyperscan_finder(patterns)
    small = scan._finder.__wrapped__(self_rank)  # a fresh one: Aho-Corasick until SMALL_SCAN_BYTES
    return fast, small


@pytest.mark.parametrize("self_rank", [False, True])
def test_aho_corasick_and_hyperscan_give_the_same_offsets(self_rank):
    fast, small = _finders(self_rank)
    assert LOGS
    for path in LOGS:
        with open_log(str(path)) as stream:
            data = stream.read(scan.SMALL_SCAN_BYTES // 2)
        for buf in (data, OVERLAPS):
            assert small(buf, len(buf)) == fast(buf, len(buf)), path
            assert small(buf, len(buf) // 2) == fast(buf, len(buf) // 2), path


def test_a_finder_switches_to_hyperscan_after_small_scan_bytes():
    fast, small = _finders(False)
    big = OVERLAPS * (scan.SMALL_SCAN_BYTES // len(OVERLAPS) + 1)
    assert small(big, len(big)) == fast(big, len(big))
    assert small(OVERLAPS, len(OVERLAPS)) == fast(OVERLAPS, len(OVERLAPS))
