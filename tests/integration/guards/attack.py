"""Send a liveness channel every datagram of the issue 28 red-team pass, from another process.

    python attack.py --master HOST:PORT --endpoints H:P,H:P [--key-file PATH] [--json]

Without a key: a 60 KB ``[[[...`` datagram (oversized), the old format's forged "end", forged beat
with a dead pid and forged gossip (a CRC32 "token" of public values: unauthenticated), the same
forged end sealed with a key that is not the job's (bad_mac), ``{"k":"e","end":[1]}``. With the
job's key (``--key-file``, as someone who can read the owner-only file would have it): malformed
field shapes (invalid), a nested body that no parser should recurse into (malformed), a message of
another run (foreign_run) and datagrams sealed long ago (replayed). Target ``i`` of ``--endpoints``
is rank ``i``; messages claim to come from another rank. Prints what it sent per expected drop
reason (JSON with ``--json``). Standard library and the channel's own ``seal.py`` only, so that it
runs from a network namespace of its own too (the multi-host harness), with the project's python.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import socket
import sys
import zlib
from collections import Counter

try:  # with the project's python (.venv/bin/python), from any network namespace
    from paddle_doctor.runtime.guards.liveness import keys, seal
except ImportError:  # a tree from before the sealed channel (to show what these datagrams did there)
    keys = seal = None


def end(rank: int) -> dict:
    finding = {"code": "dead", "cause": "host_oom_killed", "message": f"rank {rank} was OOM-killed \x1b[2J", "ranks": [rank]}
    return {"v": 1, "r": rank, "k": "e", "p": 1, "pid": 4242, "end": {"ok": False, "err": "SIGKILL", "finding": finding}}


def unkeyed(master: str, endpoints: str, other: int) -> list[tuple[str, bytes]]:
    token = str(zlib.crc32(f"{master}|{endpoints}".encode()))
    beat = {"v": 1, "r": other, "j": token, "k": "b", "p": 1, "pid": 1 << 22, "st": 1, "hk": "x"}
    gossip = {"t": "gossip", "f": 1, "i": 0, "j": token, "g": [{"k": "d", "n": 0, "i": 0, "by": 1, "how": "forged"}]}
    out = [("oversized", b"[" * 60_000),
           ("unauthenticated", json.dumps(dict(end(other), j=token)).encode()),
           ("unauthenticated", json.dumps(beat).encode()),
           ("unauthenticated", json.dumps(gossip).encode()),
           ("unauthenticated", json.dumps({"j": token, "k": "e", "end": [1]}).encode())]
    if seal is not None:
        rid = keys.channel_id({"PADDLE_MASTER": master, "PADDLE_TRAINER_ENDPOINTS": endpoints})
        out.append(("bad_mac", seal.Sealer(seal.new_key(), rid, f"r{other}").seal(end(other))))
    return out


def keyed(key: bytes, rid: str, other: int) -> list[tuple[str, bytes]]:
    sealer = seal.Sealer(key, rid, f"r{other}")
    shapes = [{"v": 1, "r": other, "k": "e", "end": [1]}, {"v": 1, "r": other, "k": "b", "c": [1]},
              {"v": 1, "r": str(other), "k": "b"}, {"v": 1, "r": other, "k": "b", "p": "x"},
              {"v": 1, "r": other, "k": "e", "end": {"finding": {"message": 5}}}]
    out = [("invalid", sealer.seal(m)) for m in shapes]
    out.append(("invalid", seal.Sealer(key, rid, f"s{other}").seal({"k": "s", "r": other, "pid": "x", "ps": "gone"})))
    body = b'{"rid":"' + rid.encode() + b'","sid":"r%d","q":%d,"m":' % (other, 2**62) + b"[" * 20_000
    out.append(("malformed", seal.MAGIC + hmac.new(key, seal.MAGIC + body, hashlib.sha256).digest() + body))
    out.append(("foreign_run", seal.Sealer(key, "another-run", f"r{other}").seal(end(other))))
    for _ in range(2):
        old = json.dumps({"rid": rid, "sid": f"r{other}", "q": 1, "m": end(other)}).encode()
        out.append(("replayed", seal.MAGIC + hmac.new(key, seal.MAGIC + old, hashlib.sha256).digest() + old))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--master", default="")
    ap.add_argument("--endpoints", required=True)
    ap.add_argument("--key-file")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    targets = [(h, int(p)) for h, _, p in (e.rpartition(":") for e in args.endpoints.split(","))]
    env = {"PADDLE_MASTER": args.master, "PADDLE_TRAINER_ENDPOINTS": args.endpoints}
    rid = keys.channel_id(env) if keys else ""
    key = seal.read_key_file(args.key_file) if args.key_file and seal else None
    sent: dict[int, Counter] = {}
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for rank, addr in enumerate(targets):
        other = (rank + 1) % len(targets)
        batch = unkeyed(args.master, args.endpoints, other) + (keyed(key, rid, other) if key else [])
        sent[rank] = Counter()
        for reason, data in batch:
            sock.sendto(data, addr)
            sent[rank][reason] += 1
    report = {str(r): dict(c) for r, c in sent.items()}
    print(json.dumps(report) if args.json else "\n".join(f"rank {r}: {c}" for r, c in report.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
