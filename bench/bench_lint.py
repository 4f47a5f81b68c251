#!/usr/bin/env python3
"""Benchmark: wall time of ``paddle-doctor lint`` vs ``flake8 --select F`` and ``ruff check --select F``.

The same Python files, side by side in one run, alternating the order each round (the machine is
shared and noisy): ``paddle-doctor lint --no-cache --format json TREE...`` (the console script next to the
running interpreter), ``flake8 --select F TREE...`` and ``ruff check --no-cache --select F TREE...``
(from a scratch venv, not project dependencies). Each tool is run with its defaults for
parallelism (flake8 and paddle-doctor use processes, ruff threads). Exit codes 0/1 both count as
a run (findings are expected); anything else fails the benchmark.

Goal: paddle-doctor <= 0.25x flake8's time (median of the per-round ratios); ruff is for reference.

``--ruff`` (issue 32): paddle-doctor against ruff alone, cold and warm, paired in each round:
cold is ``paddle-doctor lint --no-cache`` vs ``ruff check --no-cache --select F``; warm is both with
their caches (primed once before the rounds; paddle-doctor's in a scratch copy's
``.paddle_doctor_cache``, ruff's in a scratch ``--cache-dir``). Goals: cold <= 5x, warm <= 1.5x
(median of the per-round ratios). ``--venv`` is any folder whose ``bin/`` holds ``ruff``. The report
also gives the CPU-time ratio (user + sys of each command): on a machine shared by other jobs the
wall-time ratio of one round swings by 5x, the CPU-time ratio much less. paddle-doctor runs as
installed: its untimed first run writes the .pyc files even under PYTHONDONTWRITEBYTECODE=1.

    PYTHONPATH=src .venv/bin/python bench/bench_lint.py --ruff --venv .venv --reps 5 /work/wt/suites/heads/PaddleSeg

Set-up (scratch, outside the repo; trees: PaddleDetection, PaddleClas, PaddleNLP from PyPI):

    for p in paddledet paddleclas paddlenlp; do
        pip install --no-deps --target /tmp/lint-scratch/$p $p; done
    python3 -m venv /tmp/lint-scratch/venv && /tmp/lint-scratch/venv/bin/pip install flake8 ruff
    .venv/bin/python bench/bench_lint.py [--reps 3] [--json OUT] [TREE ...]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmachine import machine  # bench/ is sys.path[0] when run as a script

GOAL = 0.25
SCRATCH = Path("/tmp/lint-scratch")
DEFAULT_TREES = [SCRATCH / "paddledet" / "ppdet", SCRATCH / "paddleclas" / "paddleclas",
                 SCRATCH / "paddlenlp" / "paddlenlp"]


# The untimed first run of each command writes paddle_doctor's .pyc files, as a pip install does: an
# editable checkout in a shell with PYTHONDONTWRITEBYTECODE=1 (this machine's) would otherwise compile
# every module of ours from source on every run (~0.06 s of CPU), which no installed copy does (as
# bench_startup.py). The timed runs keep the caller's environment (they only read the .pyc files).
WRITING_BYTECODE = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], env: dict | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=1800, env=env)
    wall = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[0]} exited {proc.returncode}: {proc.stderr.decode()[-300:]}")
    return wall


def timed_cpu(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its children): on a shared machine the CPU time
    hardly depends on the load, the wall time does."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(cmd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def count_py(trees: list[Path]) -> tuple[int, int]:
    files = [p for t in trees for p in t.rglob("*.py")]
    return len(files), sum(p.stat().st_size for p in files)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trees", nargs="*", type=Path, default=DEFAULT_TREES)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--venv", type=Path, default=SCRATCH / "venv", help="scratch venv with flake8 and ruff")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--ruff", action="store_true", help="cold and warm against ruff only (issue 32)")
    parser.add_argument("--doctor-arg", action="append", default=[], metavar="ARG",
                        help="an extra argument for paddle-doctor lint (repeatable), e.g. --doctor-arg=--ignore=PDL900")
    args = parser.parse_args()
    if args.ruff:
        return against_ruff(args)
    missing = [str(t) for t in args.trees if not t.is_dir()]
    if missing:
        print(f"bench_lint: missing trees (see the docstring for the set-up): {missing}", file=sys.stderr)
        return 2
    trees = [str(t) for t in args.trees]
    tools = {
        "paddle-doctor": [str(Path(sys.executable).with_name("paddle-doctor")), "lint", "--no-cache", "--format", "json", *trees],
        "flake8": [str(args.venv / "bin" / "flake8"), "--select", "F", *trees],
        "ruff": [str(args.venv / "bin" / "ruff"), "check", "--no-cache", "--select", "F", *trees],
    }
    version = {name: subprocess.run([cmd[0], "--version"], capture_output=True, text=True).stdout.split("\n")[0]
               for name, cmd in tools.items()}
    for cmd in tools.values():  # warm the page cache and the interpreters once, write our .pyc files
        timed(cmd, WRITING_BYTECODE)
    times: dict[str, list[float]] = {name: [] for name in tools}
    for rep in range(args.reps):
        order = list(tools) if rep % 2 == 0 else list(reversed(tools))
        for name in order:
            times[name].append(timed(tools[name]))
    ratios = [p / f for p, f in zip(times["paddle-doctor"], times["flake8"])]
    ruff_ratios = [p / r for p, r in zip(times["paddle-doctor"], times["ruff"])]
    n_files, n_bytes = count_py(args.trees)
    report = {
        "date": dt.date.today().isoformat(), "machine": machine(), "cpus": os.cpu_count(), "trees": trees,
        "files": n_files, "megabytes": round(n_bytes / 1e6, 1), "versions": version, "reps": args.reps,
        "seconds": {k: [round(v, 2) for v in vs] for k, vs in times.items()},
        "median_s": {k: round(statistics.median(vs), 2) for k, vs in times.items()},
        "ratio_vs_flake8": round(statistics.median(ratios), 3), "ratio_vs_ruff": round(statistics.median(ruff_ratios), 1),
        "goal_vs_flake8": GOAL,
    }
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if report["ratio_vs_flake8"] <= GOAL else 1


RUFF_GOALS = {"cold": 5.0, "warm": 1.5}


def against_ruff(args) -> int:
    import tempfile

    trees = [str(t) for t in args.trees]
    doctor = str(Path(sys.executable).with_name("paddle-doctor"))
    ruff = str(args.venv / "bin" / "ruff")
    scratch = Path(tempfile.mkdtemp(prefix="bench-lint-"))
    tools = {
        "cold": {"paddle-doctor": [doctor, "lint", "--no-cache", "--format", "json", *args.doctor_arg, *trees],
                 "ruff": [ruff, "check", "--no-cache", "--select", "F", *trees]},
        "warm": {"paddle-doctor": [doctor, "lint", "--format", "json", *args.doctor_arg, *trees],
                 "ruff": [ruff, "check", "--cache-dir", str(scratch / "ruff"), "--select", "F", *trees]},
    }
    for pair in tools.values():  # warm the page cache, prime both caches, write our .pyc files
        for cmd in pair.values():
            timed(cmd, WRITING_BYTECODE)
    times = {mode: {name: [] for name in pair} for mode, pair in tools.items()}
    cpu = {mode: {name: [] for name in pair} for mode, pair in tools.items()}
    for rep in range(args.reps):
        for mode, pair in tools.items():
            order = list(pair) if rep % 2 == 0 else list(reversed(pair))
            for name in order:
                wall, used = timed_cpu(pair[name])
                times[mode][name].append(wall)
                cpu[mode][name].append(used)
    n_files, n_bytes = count_py(args.trees)
    ratios = {mode: round(statistics.median(p / r for p, r in zip(t["paddle-doctor"], t["ruff"])), 2)
              for mode, t in times.items()}
    report = {"date": dt.date.today().isoformat(), "machine": machine(), "cpus": os.cpu_count(),
              "load": os.getloadavg()[0], "trees": trees, "files": n_files, "megabytes": round(n_bytes / 1e6, 1),
              "ruff": subprocess.run([ruff, "--version"], capture_output=True, text=True).stdout.strip(),
              "reps": args.reps, "doctor_args": args.doctor_arg, "bytecode": "cached (as installed)",
              "seconds": {m: {k: [round(v, 2) for v in vs] for k, vs in t.items()} for m, t in times.items()},
              "cpu_seconds": {m: {k: [round(v, 2) for v in vs] for k, vs in t.items()} for m, t in cpu.items()},
              "ratio_vs_ruff": ratios, "goals": RUFF_GOALS,
              # the same ratio in CPU time (user + sys, children included): the load hardly moves it
              "cpu_ratio_vs_ruff": {mode: round(statistics.median(p / r for p, r in zip(t["paddle-doctor"], t["ruff"])), 2)
                                    for mode, t in cpu.items()},
              "load_after": os.getloadavg()[0]}
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0 if all(ratios[m] <= RUFF_GOALS[m] for m in ratios) else 1


if __name__ == "__main__":
    raise SystemExit(main())
