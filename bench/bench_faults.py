#!/usr/bin/env python3
"""Benchmark: time to name a rank lost before its first word, every scenario of issue 8, N times.

Scenarios (through the real launcher, ``paddle_doctor.evaluate`` with its own guards, no `run`;
``tests/integration/guards/eval_first_sample.py``):

- rank 1 frozen (SIGSTOP) or killed (SIGKILL) at its very first sample, before it has announced
  its plan and usually before its first heartbeat: W in {2, 3} x data in {dataset, loader0,
  loader2} (a map-style Dataset; a DataLoader with num_workers 0 and 2);
- rank 0, which hosts the TCP store, frozen in its 3rd batch: W in {2, 3} x the same data.

Each scenario runs ``--reps`` times (default 10). A run passes when every survivor's log names
the lost rank in the watchdog's line and its process is gone within 15 s of the fault (the
fault's own timestamp to the moment the process vanished, polled every 50 ms). Printed per
scenario: passes, how many runs were named by every survivor within the goal of issue 19 (10 s),
and the slowest and median time over survivors and repetitions. Each run is
also appended to ``--jsonl`` as it ends, so a run in the background can be read while it goes
(and a killed one still leaves its figures).

The watchdog's deadline is the default (10 s) unless ``--deadline`` is given: a frozen rank is
named after the deadline, a killed one at once. Run it when the machine is quiet (it starts 2-3
Paddle processes at a time):

    nohup .venv/bin/python bench/bench_faults.py [--reps 10] [--deadline S] [--jsonl OUT] &
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import shutil
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "integration"))  # the tests' helper packages
from benchmachine import machine  # noqa: E402  (bench/ is sys.path[0] when run as a script)
from guards.harness import base_env, launch  # noqa: E402
from test_guards_first_sample import NAMED_WITHIN_S, naming_times  # noqa: E402

DATA = ("dataset", "loader0", "loader2")
GOAL_S = 10.0  # issue 19: a stopped rank named within 10 s in every run


def scenarios() -> list[tuple[str, str, int, int, str]]:
    out = []
    for fault in ("sigstop", "sigkill"):
        for world in (2, 3):
            out.extend((f"{fault}-first-sample-w{world}-{d}", fault, 1, world, d) for d in DATA)
    for world in (2, 3):
        out.extend((f"rank0-sigstop-mid-w{world}-{d}", "sigstop-mid", 0, world, d) for d in DATA)
    return out


def one_run(fault: str, victim: int, world: int, data: str, deadline: str | None,
            keep: Path | None = None) -> dict:
    env = base_env(**({"PADDLE_DOCTOR_WATCHDOG_TIMEOUT": deadline} if deadline else {}))
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        run = launch(Path(tmp), world, "eval_first_sample.py", [fault, str(victim), data], env=env, timeout=90,
                     stop_after=[r for r in range(world) if r != victim])
        times = naming_times(run, victim, world)
        survivors = [r for r in range(world) if r != victim]
        named = all(r in times for r in survivors)
        slowest = max(times.values()) if named and times else None
        ok = named and slowest is not None and slowest <= NAMED_WITHIN_S
        if keep is not None and not ok:  # a miss is only worth something with its logs
            shutil.copytree(tmp, keep / f"{fault}-{victim}-w{world}-{data}-{int(time.time())}")
    return {"times": {str(r): round(t, 3) for r, t in times.items()}, "named_by_all": named,
            "slowest_s": None if slowest is None else round(slowest, 3),
            "ok": ok, "rc": run.rc,
            "wall_s": round(run.wall, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--deadline", default=None, help="PADDLE_DOCTOR_WATCHDOG_TIMEOUT (default: the library's 10 s)")
    ap.add_argument("--only", default="", help="run only scenarios whose name contains this")
    ap.add_argument("--jsonl", default=None, help="append one JSON line per run here")
    ap.add_argument("--keep-misses", type=Path, default=None, help="copy the logs of every missed run under DIR")
    args = ap.parse_args()
    print(f"# {dt.datetime.now(dt.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}; deadline "
          f"{args.deadline or 'default (10 s)'}; {args.reps} reps", flush=True)
    rows = []
    if args.keep_misses:
        args.keep_misses.mkdir(parents=True, exist_ok=True)
    for name, fault, victim, world, data in scenarios():
        if args.only not in name:
            continue
        runs = []
        for rep in range(args.reps):
            result = dict(one_run(fault, victim, world, data, args.deadline, args.keep_misses), scenario=name, rep=rep, time=time.time())
            runs.append(result)
            if args.jsonl:
                with open(args.jsonl, "a", encoding="utf-8") as f:
                    f.write(json.dumps(result) + "\n")
        all_times = [t for r in runs for t in r["times"].values()]
        passed = sum(r["ok"] for r in runs)
        slowest = max(all_times) if all_times else float("nan")
        median = statistics.median(all_times) if all_times else float("nan")
        in_goal = sum(r["ok"] and r["slowest_s"] is not None and r["slowest_s"] <= GOAL_S for r in runs)
        rows.append((name, passed, len(runs), slowest, median))
        print(f"{name:34s} {passed:2d}/{len(runs)} named within {NAMED_WITHIN_S:g} s, {in_goal:2d} within {GOAL_S:g} s; "
              f"slowest {slowest:5.2f} s, median {median:5.2f} s  ({machine().split(', ')[-1]})", flush=True)
    failed = [r for r in rows if r[1] < r[2]]
    print(f"# {len(rows) - len(failed)}/{len(rows)} scenarios passed every repetition", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
