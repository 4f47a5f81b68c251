"""The literal finders the scanner runs over each chunk: Aho-Corasick (ahocorasick-rs) for small inputs
and where Hyperscan has no wheel; Hyperscan once a few MiB were scanned, with its database kept compiled
between runs (:mod:`.hsdb`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import ahocorasick_rs

from .triggers import TRIGGERS, WITH_SELF_RANK

# Below this many bytes scanned in one process, Aho-Corasick: importing Hyperscan costs ~10 ms and
# compiling its database ~45 ms where the cache has none (more than a tiny log's whole diagnosis);
# it pays off only after a few MiB.
SMALL_SCAN_BYTES = 2 << 20


@functools.lru_cache(maxsize=2)
def trigger_finder(self_rank: bool = False) -> Callable[[bytes, int], list[int]]:
    """A function (buffer, end) -> sorted offsets of trigger matches, each inside its line.

    Hyperscan (SIMD, about 3 GB/s on one core here, ~6x Aho-Corasick with these literals) where
    its wheel exists (Linux x86-64) and once SMALL_SCAN_BYTES have been scanned; Aho-Corasick
    (ahocorasick-rs) before that and everywhere else. Both give the same list: the offset of the
    last byte of every match, overlapping ones included (Hyperscan reports where a match ends)."""
    patterns = sorted({t.encode() for t in (WITH_SELF_RANK if self_rank else TRIGGERS)})
    automaton = ahocorasick_rs.BytesAhoCorasick(patterns)

    def small(buf: bytes, end: int) -> list[int]:
        view = memoryview(buf)[:end]
        return sorted(stop - 1 for _, _, stop in automaton.find_matches_as_indexes(view, overlapping=True))

    scanned, fast = 0, None

    def find(buf: bytes, end: int) -> list[int]:
        nonlocal scanned, fast
        if fast is None:
            scanned += end
            if scanned < SMALL_SCAN_BYTES:
                return small(buf, end)
            fast = hyperscan_finder(patterns) or small
        return fast(buf, end)

    return find


def hyperscan_finder(patterns: list[bytes]) -> Callable[[bytes, int], list[int]] | None:
    try:
        import hyperscan
    except ImportError:
        return None
    from .hsdb import compiled_database  # its digests and temporary files only once Hyperscan is needed

    db = compiled_database(hyperscan, patterns)

    def find(buf: bytes, end: int) -> list[int]:
        ends: list[int] = []
        # Hyperscan reports where a match ends; end - 1 lies inside the literal, so inside its line.
        db.scan(buf if end == len(buf) else buf[:end],
                match_event_handler=lambda _id, _from, to, _flags, _ctx: ends.append(to - 1))
        ends.sort()
        return ends

    return find
