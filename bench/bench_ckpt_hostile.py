#!/usr/bin/env python3
"""Benchmark: what crafted checkpoints of at most 1 KiB cost ``paddle-doctor ckpt`` (issue 17).

The files are the ones the tests build (``tests/unit/ckpt/crafted.py``): a 381-byte "billion
laughs" of memo references, the same within the depth limit, containers nested 200 deep, a
22-byte BYTEARRAY8 declaring 6.3 GB, a FRAME / LONG4 / BINSTRING / BINBYTES8 declaring up to
1 TiB, a fan-out of shared lists, and an 82-byte ``_reconstruct`` of a 600 MB array. Each is
written to a temp dir and given, as a fresh subprocess, ``--reps`` times (default 3), to
``paddle-doctor ckpt inspect --format json FILE`` and to ``ckpt strip FILE -o OUT --prefix m``
(the path that reads real arrays). Reported per file and command: exit code (2 expected: refused),
median wall time and the child's peak RSS (``ru_maxrss`` from ``os.wait4``), and the bytes
``strip`` wrote (0 expected).

Goal: every ``inspect`` <= 100 MB peak RSS and <= 1 s; ``strip`` writes nothing.

    .venv/bin/python bench/bench_ckpt_hostile.py [--reps 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmachine import machine  # bench/ is sys.path[0] when run as a script

GOAL_RSS_MB, GOAL_S = 100, 1.0
HERE = Path(__file__).resolve().parent


def crafted():
    spec = importlib.util.spec_from_file_location("crafted", HERE.parent / "tests" / "unit" / "ckpt" / "crafted.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CRAFTED


def timed(cmd: list[str]) -> tuple[float, int, int, str]:
    """(wall seconds, exit code, peak RSS in KiB, last stderr line) of one child."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    return wall, os.waitstatus_to_exitcode(status), usage.ru_maxrss, (err.strip().splitlines() or [""])[-1]


def measure(cli: list[str], path: Path, reps: int) -> dict:
    row = {"bytes": path.stat().st_size}
    out = path.with_name(path.name + ".out")
    for name, args in (("inspect", ["ckpt", "inspect", "--format", "json", str(path)]),
                       ("strip", ["ckpt", "strip", str(path), "-o", str(out), "--prefix", "m"])):
        runs = [timed([*cli, *args]) for _ in range(reps)]
        row[name] = {"exit": sorted({r[1] for r in runs}), "wall_s": statistics.median(r[0] for r in runs),
                     "peak_rss_mb": max(r[2] for r in runs) / 1024, "message": runs[-1][3][:160]}
    row["strip"]["written_bytes"] = out.stat().st_size if out.exists() else 0
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args()
    cli = [str(Path(sys.executable).with_name("paddle-doctor"))]
    rows = {}
    with tempfile.TemporaryDirectory(prefix="pd-hostile-") as tmp:
        for name, make in crafted().items():
            path = Path(tmp) / f"{name}.pdparams"
            path.write_bytes(make())
            rows[name] = measure(cli, path, args.reps)
            print(f"{name:<20} {rows[name]['bytes']:>5} B  inspect exit {rows[name]['inspect']['exit']} "
                  f"{rows[name]['inspect']['wall_s']:.2f} s {rows[name]['inspect']['peak_rss_mb']:.0f} MB  "
                  f"strip exit {rows[name]['strip']['exit']} {rows[name]['strip']['wall_s']:.2f} s "
                  f"{rows[name]['strip']['peak_rss_mb']:.0f} MB wrote {rows[name]['strip']['written_bytes']} B",
                  file=sys.stderr)
    met = all(r["bytes"] <= 1024 and r["inspect"]["peak_rss_mb"] <= GOAL_RSS_MB and r["inspect"]["wall_s"] <= GOAL_S
              and r["strip"]["written_bytes"] == 0 for r in rows.values())
    result = {"date": dt.date.today().isoformat(), "machine": machine(), "reps": args.reps, "files": rows,
              "inspect_max_wall_s": max(r["inspect"]["wall_s"] for r in rows.values()),
              "inspect_max_rss_mb": max(r["inspect"]["peak_rss_mb"] for r in rows.values()), "goal_met": met}
    print(json.dumps(result, indent=2))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2))
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
