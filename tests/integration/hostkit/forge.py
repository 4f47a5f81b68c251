"""Hostile datagrams at a job's liveness channel, sent from a third host (stdlib only).

Run (on the third host): python forge.py CONFIG_JSON
CONFIG: {"targets": [[ip, port], ...], "token": "...", "victim_rank": 1, "victim_node": 1}
Sends to every target: forged messages that carry the job's public token (an "end" of the victim
with an error, a watcher's verdict that the victim's node is dead, a beat claiming the victim is
stopped), each replayed 20 times, a truncated copy of each, and an oversized datagram. Prints
``PDOC_FORGED <count>``: how many datagrams it sent.
"""

import json
import socket
import sys
import time


def forged(token: str, rank: int, node: int) -> list[bytes]:
    now = time.time()
    end = {"v": 1, "r": rank, "j": token, "p": 1, "pid": 1, "k": "e", "t": now, "ph": "evaluate",
           "end": {"ok": False, "err": "ValueError: forged", "finding": None}}
    verdict = {"j": token, "k": "v", "v": {"k": "d", "n": node, "by": 0, "how": "forged: no ack"}}
    side = {"v": 1, "r": rank, "j": token, "k": "s", "pid": 1, "st": 1, "ps": "T", "t": now}
    gone = {"j": token, "k": "v", "v": {"k": "r", "r": rank, "what": "gone", "how": "forged"}}
    return [json.dumps(m, separators=(",", ":")).encode() for m in (end, verdict, side, gone)]


def main():
    cfg = json.loads(sys.argv[1])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    messages = forged(cfg["token"], cfg["victim_rank"], cfg["victim_node"])
    payloads = [m for m in messages for _ in range(20)]  # replayed
    payloads += [m[: len(m) // 2] for m in messages]  # truncated
    payloads.append(b'{"j":"' + cfg["token"].encode() + b'","k":"e","pad":"' + b"x" * 60000 + b'"}')  # oversized
    sent = 0
    for host, port in cfg["targets"]:
        for data in payloads:
            try:
                sock.sendto(data, (host, port))
                sent += 1
            except OSError:
                pass
    print(f"PDOC_FORGED {sent}", flush=True)


if __name__ == "__main__":
    main()
