#!/usr/bin/env python3
"""Benchmark: ``paddle-doctor diagnose`` on the hostile inputs of issue 28 item 2, at their sizes.

Each input is made in a temp dir (outside the repo) and given to a fresh
``paddle-doctor diagnose --format json DIR`` subprocess; reported per input: exit code, wall time,
the child's peak RSS (``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` before and after, so each
child is run alone in a fresh helper process), and the bound it must meet. Exit 1 when a bound is
missed.

Inputs (sizes as the issue states them):
- ``long_line``: one 8 MiB line of ``Error `` with no newline (main: 130 s, quadratic)  <= 2 s
- ``error_lines``: 48 MiB of ``RuntimeError: x`` lines (main: 2.4 GB)                  <= 300 MB, <= 90 s
- ``dashes``: a 2.4 MB log of endpoint lines full of ``-`` and a bind error (main: 54 s) <= 5 s
- ``gzip_bomb``: a 2 MB ``.gz`` holding 1 GiB of error lines (main: hours)              <= 300 MB, <= 120 s
- ``nccl_underscores``: 2.4 MB of ``NCCL version ____...`` lines (main: 65 s)          <= 10 s
- ``fifo``: a FIFO ``workerlog.1`` beside a real log (main: hangs)                      <= 5 s
- ``devices``: ``/dev/urandom`` as ``workerlog.1``, ``/dev/zero`` as ``envlog.0`` and as a docker
  ``config.v2.json`` (main: endless, out of memory)                                     <= 5 s, <= 300 MB

    .venv/bin/python bench/bench_hostile.py [--only NAME ...] [--cli "paddle-doctor"] [--timeout 300]

``--cli`` runs another install (e.g. a checkout of main) for a before/after figure; an input that
runs past ``--timeout`` is reported as such.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from benchmachine import machine  # bench/ is sys.path[0] when run as a script

CAUSE = b"Traceback (most recent call last):\n  File \"eval.py\", line 3, in <module>\nValueError: the real cause\n"
MiB = 1 << 20


def long_line(d: Path) -> None:
    (d / "workerlog.0").write_bytes(b"Error " * (8 * MiB // 6))


def error_lines(d: Path) -> None:
    line = b"RuntimeError: x\n"
    (d / "workerlog.0").write_bytes(line * (48 * MiB // len(line)))


def dashes(d: Path) -> None:
    """Endpoint lines (two ephemeral ports: the fleet launcher's free-port pick) and bind errors,
    each with a run of 1100 "-": what facts/ports.py's two regexes search."""
    row = b"PADDLE_TRAINER_ENDPOINTS=10.0.0.1:40001,10.0.0.1:52013," + b"-" * 1100 + b"\n"
    bind = b"OSError: [Errno 98] Address already in use " + b"-" * 1100 + b"\n"
    (d / "workerlog.0").write_bytes((row + bind) * (2_400_000 // (len(row) + len(bind))))


def nccl_underscores(d: Path) -> None:
    """Lines that hold the NCCL banner's literal and a run of 1100 "_" (its host group was tried at
    every character of the run)."""
    rows = (b"NCCL version " + b"_" * 1100 + _letters(i) + b"\n" for i in range(2_400_000 // 1118))
    (d / "workerlog.0").write_bytes(CAUSE + b"".join(rows))  # lines differ (in letters): no cache answers


def worded_slashes(d: Path) -> None:
    """Error lines no signature knows, each a cue and a run of 1100 path separators (the wordings of
    anatomy/wording.py search a path after the cue: issue 29, fifth session)."""
    rows = (b"[ERROR] cannot open " + b"a/" * 550 + _letters(i) + b" failed\n" for i in range(2_400_000 // 1130))
    (d / "workerlog.0").write_bytes(b"".join(rows))  # lines differ (in letters): no cache answers


def section_dashes(d: Path) -> None:
    """A paste (its name gives no rank) whose lines are runs of 2000 decorations before a worker log's name
    and a word that ends the heading (read/parse.py's SECTION_RE: issue 29, sixth session)."""
    rows = (b"-" * 2000 + b" cat workerlog.1 " + _letters(i) + b"\n" for i in range(2_400_000 // 2025))
    (d / "train.log").write_bytes(b"".join(rows))


def _letters(n: int) -> bytes:
    return bytes(97 + (n // 26 ** k) % 26 for k in range(4))


def gzip_bomb(d: Path) -> None:
    """1 GiB of error lines, compressed once as a 1 MiB block and written 1024 times (a gzip file
    may hold several members: it decompresses to their concatenation)."""
    line = b"RuntimeError: x\n"
    member = gzip.compress(line * (MiB // len(line)), compresslevel=9)
    with open(d / "workerlog.0.gz", "wb") as out:
        for _ in range(1024):
            out.write(member)


def fifo(d: Path) -> None:
    (d / "workerlog.0").write_bytes(CAUSE)
    os.mkfifo(d / "workerlog.1")


def devices(d: Path) -> None:
    (d / "workerlog.0").write_bytes(CAUSE)
    os.symlink("/dev/urandom", d / "workerlog.1")
    os.symlink("/dev/zero", d / "envlog.0")
    cid = "0123456789ab" * 2
    (d / f"{cid}-json.log").write_text(json.dumps({"log": "ValueError: x\n", "time": "t"}) + "\n")
    os.symlink("/dev/zero", d / "config.v2.json")


# name: (maker, seconds bound, MB bound)
INPUTS = {"long_line": (long_line, 2.0, 300), "error_lines": (error_lines, 90.0, 300),
          "dashes": (dashes, 5.0, 300), "gzip_bomb": (gzip_bomb, 120.0, 300), "fifo": (fifo, 5.0, 300),
          "devices": (devices, 5.0, 300), "nccl_underscores": (nccl_underscores, 10.0, 300),
          "worded_slashes": (worded_slashes, 10.0, 300), "section_dashes": (section_dashes, 10.0, 300)}

CHILD = """
import resource, subprocess, sys, time, json
start = time.perf_counter()
try:
    proc = subprocess.run(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=float(sys.argv[1]))
    rc, out = proc.returncode, proc.stdout
except subprocess.TimeoutExpired:
    rc, out = "timeout", b""
wall = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
try:
    report = json.loads(out)
    verdict, skipped = (report.get("root_cause") or {}).get("category"), len(report.get("skipped", []))
except ValueError:
    verdict, skipped = None, 0
print(json.dumps({"rc": rc, "wall": wall, "rss_kb": rss, "verdict": verdict, "skipped": skipped}))
"""


def measure(cli: list[str], d: Path, timeout: float) -> dict:
    """One fresh helper process runs diagnose once: its RUSAGE_CHILDREN peak is diagnose's alone."""
    out = subprocess.run([sys.executable, "-c", CHILD, str(timeout), *cli, "diagnose", "--format", "json", str(d)],
                         capture_output=True, text=True, timeout=timeout + 60)
    return json.loads(out.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(INPUTS))
    ap.add_argument("--cli", default=str(Path(sys.executable).with_name("paddle-doctor")))
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    cli = shlex.split(args.cli)
    print(f"# {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC, {machine()}")
    print(f"# {args.cli}")
    print(f"{'input':<12} {'bytes':>12} {'rc':>7} {'wall s':>8} {'bound s':>8} {'peak MB':>8} {'bound MB':>8}  verdict")
    missed = 0
    for name in args.only or INPUTS:
        make, bound_s, bound_mb = INPUTS[name]
        with tempfile.TemporaryDirectory(prefix=f"hostile-{name}-") as tmp:
            d = Path(tmp)
            make(d)
            size = sum(p.lstat().st_size for p in d.iterdir() if p.is_file() and not p.is_symlink())
            row = measure(cli, d, args.timeout)
        mb = row["rss_kb"] / 1024
        ok = row["rc"] == 0 and row["wall"] <= bound_s and mb <= bound_mb
        missed += not ok
        print(f"{name:<12} {size:>12} {row['rc']!s:>7} {row['wall']:>8.2f} {bound_s:>8.1f} {mb:>8.0f} {bound_mb:>8}  "
              f"{row['verdict']} ({row['skipped']} skipped/cut){'' if ok else '  MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
