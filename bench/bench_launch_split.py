#!/usr/bin/env python3
"""Benchmark: what splitting appended launches (``diagnose/read/launches.py``) costs diagnose.

The split needs three more literals in the scanner (``Modified FLAGS detected``, ``No ccache
found``, ``Successfully connected to``) and a look at every hit. In one process, alternating, this
times ``diagnose_paths`` on the bench_diagnose log dir (8 worker logs, Paddle 3.3.1's start-up
lines, a GPU OOM on rank 5) with the split, and with the scanner's literals and the splitter put
back as they were before it; prints the medians and the ratio. Then the same on a dir where every
worker log holds two appended launches (the second run is read: its part is read again).

    .venv/bin/python bench/bench_launch_split.py [--size-mb 16] [--reps 5]
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))

from paddle_doctor.diagnose import diagnose_paths  # noqa: E402
from paddle_doctor.diagnose.read import launches, parse
from paddle_doctor.diagnose.read.literals import finders  # noqa: E402


def _bench_diagnose():
    spec = importlib.util.spec_from_file_location("bench_diagnose", HERE / "bench_diagnose.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _NoSplit:
    def __init__(self, *args, **kwargs):
        pass

    def feed(self, *args):
        pass

    def windows(self):
        return [launches.Window(0, None, None, 1, 1)]


def _without_split():
    """Patch the scanner and the reader back to before the split; returns the undo."""
    saved = (finders.TRIGGERS, finders.WITH_SELF_RANK, parse.LaunchSplitter)
    finders.TRIGGERS = tuple(t for t in finders.TRIGGERS if t not in launches.TRIGGERS)
    finders.WITH_SELF_RANK = tuple(t for t in finders.WITH_SELF_RANK if t not in launches.TRIGGERS)
    parse.LaunchSplitter = _NoSplit
    finders.trigger_finder.cache_clear()

    def undo():
        finders.TRIGGERS, finders.WITH_SELF_RANK, parse.LaunchSplitter = saved
        finders.trigger_finder.cache_clear()
    return undo


def _time(directory: Path) -> float:
    start = time.perf_counter()
    diagnose_paths([str(directory)])
    return time.perf_counter() - start


def _compare(directory: Path, reps: int) -> tuple[float, float]:
    with_split, without = [], []
    for i in range(reps):
        for first in ((True, False) if i % 2 == 0 else (False, True)):
            # one untimed run after each switch: the matcher is built (and Hyperscan compiled) anew
            if first:
                _time(directory)
                with_split.append(_time(directory))
            else:
                undo = _without_split()
                try:
                    _time(directory)
                    without.append(_time(directory))
                finally:
                    undo()
    return statistics.median(with_split), statistics.median(without)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="/tmp/paddle-doctor-bench-split")
    ap.add_argument("--size-mb", type=float, default=16)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    bd = _bench_diagnose()
    one, _ = bd.generate(Path(args.dir) / "one", args.size_mb)
    two = Path(args.dir) / "two"
    if not two.is_dir():
        shutil.copytree(one, two)
        for log in sorted(two.glob("workerlog.*")):  # a rerun appended: the same launch once more
            with open(log, "ab") as out, open(one / log.name, "rb") as again:
                shutil.copyfileobj(again, out)
    bd.warm(sorted(one.glob("*")) + sorted(two.glob("*")))
    for name, directory in (("one launch per log", one), ("two appended launches", two)):
        w, wo = _compare(directory, args.reps)
        print(f"{name:<22} with split {w:.3f} s, without {wo:.3f} s: ratio {w / wo:.2f} "
              f"(median of {args.reps}, {args.size_mb:g} MiB x 8 logs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
