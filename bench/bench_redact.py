#!/usr/bin/env python3
"""Benchmark: ``paddle_doctor.redact`` on hostile 64 KiB lines (issue 17: no line costs more than
linear time; a regex that backtracks over every split of a long word takes minutes).

Each case is one line built to make a backtracking pattern work hardest (long words around a secret
word, many ``scheme://user:pw`` starts with no ``@``, runs of ``:`` and ``@``, quotes, spaces). Both
``redact`` (diagnose, command lines) and ``redact_value`` (variable values) run on it, ``--reps``
times (default 3) in this process; reported: the median seconds per case, and the largest.

Goal: every case <= 1 s (a 64 KiB line; real lines are far shorter).

    .venv/bin/python bench/bench_redact.py [--reps 3] [--size 65536] [--json OUT]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path

from benchmachine import machine  # bench/ is sys.path[0] when run as a script

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from paddle_doctor.redact import redact, redact_value  # noqa: E402

GOAL_S = 1.0


def cases(n: int) -> dict[str, str]:
    return {
        "long word then key=": "a" * n + " key=1", "scheme then a long run": "https://" + "a" * n + " @",
        "many scheme://a:b": "https://a:b" * (n // 11), "keykeykey": "key" * (n // 3), "key=key=": "key=" * (n // 4),
        "'key':'key':": "'key':" * (n // 6), "--key --key": "--key " * (n // 6), "x:x:x:...@": "x:" * (n // 2) + "@",
        "a@a@a@": "a@" * (n // 2), "ab:cd@ab:cd@": "ab:cd@" * (n // 6), "a.a.a...key": "a." * (n // 2) + "key",
        "Bearer Bearer": "Bearer " * (n // 7), "x:y/x:y/...@h": "x:y/" * (n // 4) + "@h",
        "quotes then key": "'" * n + "key", "key, spaces, =": "key" + " " * n + "=",
        "PEM without END": "-----BEGIN X-----" + "a" * n, "base64 run": "aB3" * (n // 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--size", type=int, default=65536)
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args()
    rows = {}
    for name, line in cases(args.size).items():
        runs = []
        for _ in range(args.reps):
            start = time.perf_counter()
            redact(line)
            redact_value(line)
            runs.append(time.perf_counter() - start)
        rows[name] = statistics.median(runs)
        print(f"{name:<24} {len(line):>6} chars  {rows[name]:.3f} s", file=sys.stderr)
    result = {"date": dt.date.today().isoformat(), "machine": machine(), "size": args.size, "reps": args.reps,
              "seconds": rows, "max_s": max(rows.values()), "goal_met": max(rows.values()) <= GOAL_S}
    print(json.dumps(result, indent=2))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2))
    return 0 if result["goal_met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
