#!/usr/bin/env python3
"""Benchmark: ``paddle-doctor ckpt inspect`` of a 1 GiB ``.pdparams`` (peak RSS, wall time vs cat).

The file is a real model's state dict saved by ``paddle.save`` with protocol 4: a stack of
``--layers`` (default 64) ``paddle.nn.Linear(2048, 2048)`` layers, 1.0 GiB, generated once into
``bench/data/`` (git-ignored) by a child process and reused while its size matches.

Each round runs, alternately and as fresh subprocesses, ``paddle-doctor ckpt inspect --format json
FILE`` and ``cat FILE > /dev/null`` (both from a warm page cache: ``cat`` once first), ``--reps``
times (default 3). Reported: median wall of each, the median of the per-round ratios, and the
inspect child's peak RSS (``ru_maxrss`` from ``os.wait4``). The output is checked (number of
tensors and parameters); a wrong answer exits 1. ``--paddle-load`` adds one timed
``paddle.load(FILE)`` in a child, for scale (it reads every byte into arrays).

Goal: peak RSS < 300 MB.

    .venv/bin/python bench/bench_ckpt.py [--reps 3] [--layers 64] [--paddle-load] [--json OUT]
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

GOAL_RSS_MB = 300
HERE = Path(__file__).resolve().parent
WIDTH = 2048
MAKE = """
import sys, paddle
paddle.seed(0)
net = paddle.nn.Sequential(*[paddle.nn.Linear({w}, {w}) for _ in range({n})])
paddle.save(net.state_dict(), sys.argv[1], protocol=4)
"""


def expected(layers: int) -> tuple[int, int]:
    return 2 * layers, layers * (WIDTH * WIDTH + WIDTH)


def make_file(path: Path, layers: int) -> None:
    size = expected(layers)[1] * 4
    if path.exists() and size < path.stat().st_size < size + 1_000_000:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    subprocess.run([sys.executable, "-c", MAKE.format(w=WIDTH, n=layers), str(tmp)], check=True, timeout=600)
    tmp.replace(path)


def timed(cmd: list[str], stdout) -> tuple[float, int, int]:
    """(wall seconds, exit code, peak RSS in KiB) of one child."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, proc.returncode, usage.ru_maxrss


def inspect_once(cli: list[str], path: Path, layers: int) -> tuple[float, int]:
    out = path.with_name("inspect.json")
    with open(out, "wb") as sink:
        wall, code, rss = timed([*cli, "ckpt", "inspect", "--format", "json", str(path)], sink)
    data = json.loads(out.read_text())
    if code != 0 or (data["num_tensors"], data["num_parameters"]) != expected(layers):
        sys.exit(f"wrong answer: exit {code}, {data.get('num_tensors')} tensors, {data.get('num_parameters')} params")
    return wall, rss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--layers", type=int, default=64)
    parser.add_argument("--paddle-load", action="store_true")
    parser.add_argument("--json", dest="json_out")
    args = parser.parse_args()
    path = HERE / "data" / f"linear{args.layers}x{WIDTH}.pdparams"
    make_file(path, args.layers)
    cli = [str(Path(sys.executable).with_name("paddle-doctor"))]
    cat = ["cat", str(path)]
    timed(cat, subprocess.DEVNULL)  # warm the page cache
    rows = []
    for _ in range(args.reps):
        inspect_s, rss = inspect_once(cli, path, args.layers)
        cat_s = timed(cat, subprocess.DEVNULL)[0]
        rows.append({"inspect_s": inspect_s, "cat_s": cat_s, "ratio": inspect_s / cat_s, "rss_kb": rss})
    result = {
        "date": dt.date.today().isoformat(), "machine": machine(), "file": str(path),
        "file_bytes": path.stat().st_size, "rounds": rows,
        "inspect_median_s": statistics.median(r["inspect_s"] for r in rows),
        "cat_median_s": statistics.median(r["cat_s"] for r in rows),
        "ratio_median": statistics.median(r["ratio"] for r in rows),
        "peak_rss_mb": max(r["rss_kb"] for r in rows) / 1024,
    }
    if args.paddle_load:
        code = f"import paddle; sd = paddle.load({str(path)!r}); print(len(sd))"
        wall, _, rss = timed([sys.executable, "-c", code], subprocess.DEVNULL)
        result["paddle_load"] = {"wall_s": wall, "peak_rss_mb": rss / 1024}
    print(json.dumps(result, indent=2))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(result, indent=2))
    return 0 if result["peak_rss_mb"] < GOAL_RSS_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())
