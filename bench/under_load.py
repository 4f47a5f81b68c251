#!/usr/bin/env python3
"""Run some tests again and again while CPU hogs hold every core (issue 33: a suite that holds
under load).

Why: a test that passes on a quiet machine can still lean on timing (a deadline, a race between
threads). Here ``--hogs`` busy-loop processes (default: one per core) run beside pytest, each
started and ended by its own PID (never by name), and the chosen tests run ``--runs`` times in a
row; each run's outcome and wall time are printed, and the load average seen at its end.

    .venv/bin/python bench/under_load.py [--runs 5] [--hogs N] [--json OUT] TEST_ID...

Exit 0 when every run passed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HOG = "while True: pass"


def start_hogs(count: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(count)]


def end_hogs(hogs: list[subprocess.Popen]) -> None:
    for hog in hogs:
        if hog.poll() is None:
            os.kill(hog.pid, signal.SIGKILL)  # by PID: only the processes started here
        hog.wait()


def run_once(tests: list[str]) -> dict:
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
                          cwd=REPO, capture_output=True, text=True)
    last = (proc.stdout.strip().splitlines() or [""])[-1]
    return {"passed": proc.returncode == 0, "rc": proc.returncode, "seconds": round(time.monotonic() - start, 1),
            "load1": round(os.getloadavg()[0], 1), "summary": last,
            "tail": "" if proc.returncode == 0 else proc.stdout[-3000:]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tests", nargs="+")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # kill PID ends the hogs too (finally below)
    hogs = start_hogs(args.hogs)
    results = []
    try:
        for k in range(args.runs):
            result = run_once(args.tests)
            results.append(result)
            print(f"run {k + 1}: {'pass' if result['passed'] else 'FAIL'} {result['seconds']} s, "
                  f"load {result['load1']}: {result['summary']}", flush=True)
            if result["tail"]:
                print(result["tail"], flush=True)
    finally:
        end_hogs(hogs)
    if args.json:
        args.json.write_text(json.dumps({"hogs": args.hogs, "tests": args.tests, "runs": results}, indent=1))
    return 0 if all(r["passed"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
