#!/usr/bin/env python3
"""Benchmark: wall time of ``paddle-doctor env`` (goal < 1 s), and what importing paddle would cost.

Median wall time over ``--runs`` (default 15) fresh runs, interleaved in rounds so the load of
other processes hits all rows alike:

- ``paddle-doctor env`` (the text report) and ``paddle-doctor env --format json``
- ``python -c "import paddle; paddle.version.cuda()"``: the import that env avoids by reading
  paddle's files (no goal; it shows why facts that need the import are opt-in)
- ``python -c pass`` with the same interpreter: the floor (no goal)

``--import-paddle`` runs are timed separately (``--import-runs``, default 3). Each env run's
report is checked (JSON parses, schema ``paddle_doctor.env/1``); a run that fails is reported.

    .venv/bin/python bench/bench_env.py [--runs 15] [--import-runs 3] [--json OUT]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench_startup import find_cli  # bench/ is sys.path[0] when run as a script
from benchmachine import machine

GOAL_S = 1.0


def timed(cmd: list[str]) -> tuple[float, int, bytes]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, timeout=300)
    return time.perf_counter() - t0, proc.returncode, proc.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--import-runs", type=int, default=3)
    ap.add_argument("--json", dest="json_out")
    args = ap.parse_args()
    cli = find_cli()
    commands = {
        "paddle-doctor env": (cli + ["env"], GOAL_S),
        "paddle-doctor env --format json": (cli + ["env", "--format", "json"], GOAL_S),
        "python -c 'import paddle' (what env avoids)": ([sys.executable, "-c", "import paddle; paddle.version.cuda()"], None),
        "python -c pass (floor)": ([sys.executable, "-c", "pass"], None),
    }
    slow = {"paddle-doctor env --import-paddle": (cli + ["env", "--format", "json", "--import-paddle"], None)}
    for cmd, _ in list(commands.values()) + list(slow.values()):
        timed(cmd)  # warm .pyc files and the page cache
    walls: dict[str, list[float]] = {name: [] for name in [*commands, *slow]}
    failures: dict[str, str] = {}
    for round_no in range(max(args.runs, args.import_runs)):
        todo = {**(commands if round_no < args.runs else {}), **(slow if round_no < args.import_runs else {})}
        for name, (cmd, _) in todo.items():
            wall, rc, out = timed(cmd)
            walls[name].append(wall)
            if rc not in (0, 1):  # env exits 1 when it has an error finding; that is a valid run
                failures[name] = f"exit {rc}"
            elif "--format" in cmd and json.loads(out).get("schema") != "paddle_doctor.env/1":
                failures[name] = "bad report"
    goals = {**{k: g for k, (_, g) in commands.items()}, **{k: g for k, (_, g) in slow.items()}}
    rows = [{"command": name, "runs": len(ws), "median_s": round(statistics.median(ws), 4),
             "min_s": round(min(ws), 4), "max_s": round(max(ws), 4), "goal_s": goals[name],
             "goal_met": None if goals[name] is None else statistics.median(ws) < goals[name],
             "failed": failures.get(name, "")} for name, ws in walls.items()]
    print(f"{'command':46} {'runs':>4} {'median':>8} {'min':>7} {'max':>7}  result")
    for r in rows:
        result = f"FAILED ({r['failed']})" if r["failed"] else "-" if r["goal_met"] is None else \
            f"goal < {r['goal_s']} s {'met' if r['goal_met'] else 'MISSED'}"
        print(f"{r['command']:46} {r['runs']:>4} {r['median_s']:>7.3f}s {r['min_s']:>6.3f}s {r['max_s']:>6.3f}s  {result}")
    res = {"date": dt.date.today().isoformat(), "machine": machine(), "console_script": cli[0], "rows": rows}
    print(f"machine: {res['machine']}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(res, indent=2) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
