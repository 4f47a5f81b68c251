#!/usr/bin/env python3
"""Where `make test`'s CPU goes: the suite run as `make test` runs it, each test's CPU recorded.

Why: on 2 cores the suite is CPU-bound (the machine ~92 % busy from start to end), so its wall time is its CPU
time over two; the CPU of a test is what to cut, not its wall time (a test waiting out a timeout costs little).
Each test's CPU is the xdist worker's own plus that of every process it started and waited for (a real launch:
the launcher and its ranks, reaped through the launcher), from ``getrusage`` before and after the test.

    .venv/bin/python bench/suite_cpu.py [--jobs 4] [--top 30] [PYTEST_ARGS...]

Prints the total, the unit and integration parts, and the files that cost most.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("--top", type=int, default=30)
    args, pytest_args = parser.parse_known_args()
    with tempfile.TemporaryDirectory() as tmp:
        plugin_dir = str(REPO / "bench")  # suite_cpu_plugin.py
        env = {**os.environ, "SUITE_CPU_OUT": tmp, "PYTHONPATH": os.pathsep.join(filter(None, [plugin_dir, os.environ.get(
            "PYTHONPATH")]))}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as the Makefile does
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "suite_cpu_plugin",
                               "-n", str(args.jobs), "--dist", "loadgroup", *pytest_args], cwd=REPO, env=env)
        wall = time.monotonic() - start
        rows = [json.loads(line) for f in Path(tmp).glob("*.jsonl") for line in f.read_text().splitlines()]
    by_file = collections.Counter()
    for nodeid, own, children in rows:
        by_file[nodeid.split("::", 1)[0]] += own + children
    total = sum(by_file.values())
    print(f"\n{len(rows)} tests, {total:.0f} s of CPU in the tests, {wall:.0f} s wall (pytest exit {proc.returncode})")
    for part in ("tests/unit/", "tests/integration/"):
        print(f"  {part}: {sum(v for f, v in by_file.items() if f.startswith(part)):.0f} s")
    for path, cpu in by_file.most_common(args.top):
        print(f"  {cpu:7.1f} s  {path}")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
