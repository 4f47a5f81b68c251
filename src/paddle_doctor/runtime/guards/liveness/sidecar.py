"""A rank's sidecar: a tiny process that beats for the rank from outside it, so that liveness
does not depend on the rank's GIL.

Why: a rank whose main thread runs native code holding the GIL (a long regex, a big
``pickle.load``) starves its own heartbeat thread; to its peers it looks exactly like a frozen
rank, and the watchdog used to end a healthy job after the deadline. The sidecar reads the rank's
``/proc/<pid>/stat`` every tick and sends what the kernel says: ``T``/``t`` (stopped: SIGSTOP, a
debugger) is a rank that cannot run; ``R``/``S``/``D`` with its CPU time is a rank that runs
(busy or waiting); when the process is gone (or its pid was reused) the sidecar says "gone" a few
times and exits, which names a SIGKILLed remote rank at once. A frozen host freezes the sidecar
too: its silence, with the rank's, is what the deadline is for.

Run as a file with the standard library only (``python -I -S sidecar.py CONFIG_JSON``): it must
start fast and import nothing of the package or of paddle. Nothing here imports paddle.
"""

from __future__ import annotations

import json
import os
import random
import socket
import sys
import time

GONE_REPEAT = 3


def read_stat(pid: int) -> tuple[str, int, int] | None:
    """(state letter, start time, utime+stime) in clock ticks; None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    try:
        return fields[0], int(fields[19]), int(fields[11]) + int(fields[12])
    except (IndexError, ValueError):
        return None


def state_of(stat: tuple | None, start: int | None) -> str:
    """The state letter of ``read_stat``'s answer, or "gone": no process, a zombie, or another
    process that got the pid later (its start time is not ``start``; 0 or None: not checked)."""
    return "gone" if stat is None or stat[0] in ("Z", "X") or (start and stat[1] != start) else stat[0]


def message(cfg: dict, stat: tuple[str, int, int] | None, seq: int) -> bytes:
    state = state_of(stat, cfg["st"])
    msg = {"v": 1, "k": "s", "r": cfg["r"], "j": cfg["j"], "pid": cfg["pid"], "st": cfg["st"],
           "hk": cfg.get("hk", ""), "ps": state, "cpu": stat[2] if stat else None, "n": seq}
    return json.dumps(msg, separators=(",", ":")).encode()


def run(cfg: dict) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    targets = [tuple(t) for t in cfg["to"]]
    loss = float(cfg.get("loss") or 0.0)
    seq = 0
    while True:
        stat = read_stat(cfg["pid"])
        data = message(cfg, stat, seq)
        gone = b'"ps":"gone"' in data
        for _ in range(GONE_REPEAT if gone else 1):
            for target in targets:
                if loss and random.random() < loss:
                    continue
                try:
                    sock.sendto(data, target)
                except OSError:
                    pass
        if gone:
            return
        seq += 1
        time.sleep(cfg["tick"])


if __name__ == "__main__":
    try:
        run(json.loads(sys.argv[1]))
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # a broken sidecar must not print a traceback into the rank's log
        os.write(2, f"[paddle-doctor] sidecar stopped: {type(exc).__name__}: {exc}\n".encode())
