"""What sealing the liveness channel costs, and how fast a flood of forged datagrams is dropped.

    .venv/bin/python bench/bench_channel.py [--n 20000]

Side by side in one run (the machine is noisy): a rank's beat as the old channel made and read it
(JSON, a CRC32 "token" compared after parsing) and as the sealed channel does (JSON, HMAC-SHA256,
then on receipt HMAC first, parse, run id, sequence, schema); and the receiver's cost per dropped
datagram for each kind of forgery of issue 28 (a 60 KB ``[[[`` datagram, the old format's forged
end, a key that is not the job's, a replay, a malformed shape under the job's key). No paddle, no
sockets: the functions the heartbeat thread calls, timed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from paddle_doctor.runtime.guards.liveness import schema, seal  # noqa: E402

BEAT = {"v": 1, "r": 1, "k": "b", "p": 41234, "pid": 4242, "st": 123456, "hk": "host-a", "t": 1.7e9,
        "ph": "evaluate", "sp": 12, "c": {"g": 0, "s": 7, "op": "all_reduce", "sh": [[2]], "dt": ["float32"],
                                           "a": {"op": 0}, "site": "eval.py:60", "n": 7, "ms": True,
                                           "h": {"eval.py:60": 7}}}


def per_call_us(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=20000)
    n = ap.parse_args().n
    key, rid = seal.new_key(), "job"
    token = str(zlib.crc32(b"master|endpoints"))
    old_bytes = json.dumps(dict(BEAT, j=token), separators=(",", ":")).encode()

    def old_send():
        json.dumps(dict(BEAT, j=token), separators=(",", ":")).encode()

    def old_receive():
        msg = json.loads(old_bytes)
        return msg.get("j") == token

    sealer = seal.Sealer(key, rid, "r1")
    fresh = [sealer.seal(BEAT) for _ in range(n)]
    opener = seal.Opener(key, rid, seal.Stats("bench"))
    it = iter(fresh)

    def new_receive():
        return opener.open(next(it), None, schema.valid)

    rows = [("send a beat: old (JSON + token)", per_call_us(old_send, n)),
            ("send a beat: sealed (JSON + HMAC-SHA256)", per_call_us(lambda: sealer.seal(BEAT), n)),
            ("receive a beat: old (parse, compare token)", per_call_us(old_receive, n)),
            ("receive a beat: sealed (HMAC, parse, run id, sequence, schema)", per_call_us(new_receive, n))]
    forged = {
        "60 KB [[[ without a MAC (oversized)": b"[" * 60_000,
        "old-format forged end (unauthenticated)": json.dumps(dict(BEAT, k="e", j=token)).encode(),
        "sealed with another key (bad_mac)": seal.Sealer(seal.new_key(), rid, "r1").seal(BEAT),
        "replay of an accepted beat (replayed)": fresh[0],
        "job's key, malformed shape (invalid)": seal.Sealer(key, rid, "r1").seal({"v": 1, "r": 1, "k": "e", "end": [1]}),
    }
    drops = []
    for name, data in forged.items():
        stats = seal.Stats("bench")
        victim = seal.Opener(key, rid, stats)
        victim._last["r1"] = 2**62 if "replay" in name else -1  # noqa: SLF001 (the sender was heard)
        us = per_call_us(lambda d=data, v=victim: v.open(d, ("10.0.0.9", 1), schema.valid), n)
        drops.append((name, us, stats.total_dropped()))
    print(f"bench_channel: n = {n} per row, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print("| what | µs per datagram |\n|---|---|")
    for name, us in rows:
        print(f"| {name} | {us:.1f} |")
    print("\n| forged datagram | µs to drop | dropped of sent | drops per second per core |\n|---|---|---|---|")
    for name, us, count in drops:
        print(f"| {name} | {us:.1f} | {count}/{n} | {1e6 / us:,.0f} |")


if __name__ == "__main__":
    main()
