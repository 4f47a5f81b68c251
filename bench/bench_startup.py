#!/usr/bin/env python3
"""Benchmark: start-up time of the ``paddle-doctor`` console script.

Median wall time over ``--runs`` (default 15) of, each as a fresh subprocess of the console script
(``.venv/bin/paddle-doctor``, next to the running interpreter):

- ``paddle-doctor --help``
- ``paddle-doctor run --help`` (after the supervisor moved to ``runtime/launch/supervisor.py``)
- ``paddle-doctor explain python_exception``
- ``paddle-doctor diagnose --format json FILE`` on a tiny 3-line log (a Python traceback)

Goal: <= 0.15 s each. The runs are interleaved (one of each command per round) so load from other
processes hits all of them alike. A fourth row, ``python -c pass`` with the same interpreter, is the
floor no Python CLI can beat (no goal). A command that exits non-zero is still timed, and reported
as FAILED with its last stderr line (``explain`` fails until the cause catalog lands).

    .venv/bin/python bench/bench_startup.py [--runs 15] [--json OUT]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmachine import machine  # bench/ is sys.path[0] when run as a script

GOAL_S = 0.15
TINY_LOG = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 12, in <module>\n'
    "KeyError: 'image'\n"
)


def find_cli() -> list[str]:
    script = Path(sys.executable).with_name("paddle-doctor")
    if script.exists():
        return [str(script)]
    found = shutil.which("paddle-doctor")
    return [found] if found else [sys.executable, "-m", "paddle_doctor.cli.main"]


def run_once(cmd: list[str], env: dict | None = None) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - t0
    err = proc.stderr.decode(errors="replace").strip().splitlines()
    return wall, proc.returncode, (err[-1] if err else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    ap.add_argument("--json", dest="json_out", help="write the figures to this JSON file")
    args = ap.parse_args()

    cli = find_cli()
    with tempfile.TemporaryDirectory(prefix="paddle-doctor-startup-") as tmp:
        log = Path(tmp, "tiny.log")
        log.write_text(TINY_LOG)
        commands = {
            "paddle-doctor --help": cli + ["--help"],
            "paddle-doctor run --help": cli + ["run", "--help"],
            "paddle-doctor explain python_exception": cli + ["explain", "python_exception"],
            "paddle-doctor diagnose --format json tiny.log": cli + ["diagnose", "--format", "json", str(log)],
            "python -c pass (floor, no goal)": [sys.executable, "-c", "pass"],
        }
        # One untimed run each: disk cache warm, and .pyc files written as a pip install writes them
        # (an editable checkout in a shell with PYTHONDONTWRITEBYTECODE=1 would otherwise compile every
        # module of ours from source on every start, which no installed copy does).
        writing = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for cmd in commands.values():
            run_once(cmd, writing)
        walls: dict[str, list[float]] = {k: [] for k in commands}
        status: dict[str, tuple[int, str]] = {}
        for _ in range(args.runs):
            for name, cmd in commands.items():
                wall, rc, last_err = run_once(cmd)
                walls[name].append(wall)
                if rc != 0 or name not in status:
                    status[name] = (rc, last_err)

    rows = []
    for name, ws in walls.items():
        rc, last_err = status[name]
        med = statistics.median(ws)
        floor = name.startswith("python -c")
        rows.append({
            "command": name,
            "median_s": round(med, 4),
            "min_s": round(min(ws), 4),
            "max_s": round(max(ws), 4),
            "exit": rc,
            "goal_met": None if floor else med <= GOAL_S,
            "error": last_err if rc != 0 else "",
        })

    print(f"start-up, median of {args.runs} runs each (console script {cli[0]})")
    print(f"{'command':48} {'median':>8} {'min':>7} {'max':>7}  result")
    for r in rows:
        if r["exit"] != 0:
            result = f"FAILED (exit {r['exit']}: {r['error'][:90]})"
        elif r["goal_met"] is None:
            result = "-"
        else:
            result = f"goal <= {GOAL_S} s {'met' if r['goal_met'] else 'MISSED'}"
        print(f"{r['command']:48} {r['median_s']:>7.3f}s {r['min_s']:>6.3f}s {r['max_s']:>6.3f}s  {result}")
    res = {"date": dt.date.today().isoformat(), "machine": machine(), "runs": args.runs,
           "console_script": cli[0], "goal_s": GOAL_S, "rows": rows}
    print(f"machine: {res['machine']}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(res, indent=2) + "\n")
        print(f"figures written to {args.json_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
