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

Run as a file with the standard library only (``python -I -S sidecar.py``, its configuration and
the job's key as JSON on stdin, never in argv): it must start fast and import nothing of the
package (but ``seal.py`` beside it) or of paddle. ``start``/``stop`` are the rank's side (the
node's watcher is started the same way, ``spawn``). Nothing here imports paddle.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time

if __package__:
    from paddle_doctor.runtime.guards.liveness.seal import Sealer
else:  # run as a file: seal.py is beside it, the package is not imported
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from seal import Sealer  # noqa: E402

GONE_REPEAT = 3
MAX_CONFIG = 1 << 20


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


def message(cfg: dict, stat: tuple[str, int, int] | None, seq: int) -> dict:
    state = state_of(stat, cfg["st"])
    return {"v": 1, "k": "s", "r": cfg["r"], "pid": cfg["pid"], "st": cfg["st"],
            "hk": cfg.get("hk", ""), "ps": state, "cpu": stat[2] if stat else None, "n": seq}


def run(cfg: dict) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sealer = Sealer(bytes.fromhex(cfg["key"]), cfg.get("rid", ""), f"s{cfg['r']}")
    targets = [tuple(t) for t in cfg["to"]]
    loss = float(cfg.get("loss") or 0.0)
    seq = 0
    while True:
        msg = message(cfg, read_stat(cfg["pid"]), seq)
        gone = msg["ps"] == "gone"
        for _ in range(GONE_REPEAT if gone else 1):
            data = sealer.seal(msg)  # each repeat sealed anew: a repeat is not a replay
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


# -- the rank's side -------------------------------------------------------------------------------


def spawn(script: str, cfg: dict, key: bytes) -> subprocess.Popen | None:
    """``python -I -S script`` with ``cfg`` and the key on its stdin (a pipe: never in argv, where
    ``ps`` shows it to every user, nor in the environment, which Paddle's launcher logs)."""
    data = json.dumps(dict(cfg, key=key.hex())).encode()
    try:
        proc = subprocess.Popen([sys.executable, "-I", "-S", script], stdin=subprocess.PIPE,
                                stdout=subprocess.DEVNULL, close_fds=True)
    except OSError:
        return None
    try:
        proc.stdin.write(data)
        proc.stdin.close()
    except OSError:
        pass
    return proc


def start(mesh) -> subprocess.Popen | None:
    """The sidecar that beats for ``mesh``'s rank from outside it (``PADDLE_DOCTOR_SIDECAR=0``:
    none, and a rank whose beat thread is starved looks frozen again)."""
    from paddle_doctor.contract import SIDECAR_ENV  # in the rank's process only: the file run alone imports none
    from paddle_doctor.runtime.guards.liveness import link

    if os.environ.get(SIDECAR_ENV) == "0" or not os.path.exists(f"/proc/{os.getpid()}/stat"):
        return None
    static = mesh._static  # noqa: SLF001 (what the rank says of itself in every beat)
    cfg = {"r": mesh.me.rank, "rid": mesh.run_id, "pid": os.getpid(), "st": static["st"], "hk": static["hk"],
           "tick": mesh.tick, "loss": mesh.loss,
           "to": link.sidecar_targets(mesh)}
    return spawn(os.path.abspath(__file__), cfg, mesh.key)


def stop(proc: subprocess.Popen | None) -> None:
    """End a sidecar (its rank ends on purpose: no "gone" from it after the rank's own word)."""
    if proc is not None:
        try:
            proc.kill()
            proc.wait(timeout=1.0)
        except (OSError, subprocess.TimeoutExpired):
            pass


def read_config(stream) -> dict:
    return json.loads(stream.read(MAX_CONFIG))


if __name__ == "__main__":
    try:
        run(read_config(sys.stdin.buffer))
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # a broken sidecar must not print a traceback into the rank's log
        os.write(2, f"[paddle-doctor] sidecar stopped: {type(exc).__name__}: {exc}\n".encode())
