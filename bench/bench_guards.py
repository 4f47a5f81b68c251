#!/usr/bin/env python3
"""Benchmark: what the runtime guards cost, and how fast they name a dead or stuck rank (W=2, CPU).

1. Overhead. The same evaluation (a 3-layer MLP, 64-1024-1024-10, over N synthetic samples, batch B, one
   ``all_reduce`` of running (correct, count) per batch, as people write it: the worst case for
   the collective trace) runs in launches alternating between plain ``paddle.distributed.launch``
   and ``paddle-doctor run --trace`` (error records, excepthook and SIGTERM hooks, a wrapper on
   every collective, heartbeats every 0.25 s). Each launch times ``--rounds`` rounds after a
   warm-up, both ranks starting together; ratio = median(guarded) / median(plain), and the
   median of the per-pair ratios. Launch-to-launch noise on a shared 2-core machine is a few
   per cent, so the guarded launch also alternates rounds with the trace on and off in the same
   processes (the steadier figure for the trace), measures the CPU time of the guards' own
   threads (heartbeats, signal watcher) per second, and times ``preflight()`` calls (the first
   one in a process apart: it opens the store connection). Last,
   ``paddle_doctor.evaluate`` (a small CNN, N=10007) runs alternately with its own guards
   (pre-flight + watchdog region) and with them replaced by a no-op, in the same processes.
2. Time to the error. A rank SIGKILLed (or SIGSTOPped) at step 2 while its peer waits in the next
   ``all_reduce``: plain Paddle vs ``paddle-doctor run --trace``; and a rank SIGSTOPped inside
   ``paddle_doctor.evaluate`` while its peer waits on evaluate's store barrier (no timeout, so
   that slow ranks are fine), with evaluate's watchdog off (PADDLE_DOCTOR_WATCHDOG=0) and on. Seconds from the
   fault to the survivor's exit (its process vanishing, polled every 50 ms) and the survivor's
   first error line.

    .venv/bin/python bench/bench_guards.py [--pairs 3] [--rounds 10] [--n 16384] [--batch 64] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


# --- worker (runs under the launcher) ----------------------------------------------------------

def worker(out: str, n: int, batch: int, rounds: int) -> None:
    import numpy as np
    import paddle
    import paddle.distributed as dist

    paddle.set_device("cpu")
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(7)
    model = paddle.nn.Sequential(paddle.nn.Linear(64, 1024), paddle.nn.ReLU(), paddle.nn.Linear(1024, 1024),
                                 paddle.nn.ReLU(), paddle.nn.Linear(1024, 10))
    model.eval()
    rng = np.random.default_rng(rank)
    xs = rng.standard_normal((n // world, 64)).astype("float32")
    ys = rng.integers(0, 10, n // world).astype("int64")

    def one_round() -> float:
        dist.barrier()
        start = time.perf_counter()
        correct, seen = 0, 0
        with paddle.no_grad():
            for i in range(0, len(xs), batch):
                pred = model(paddle.to_tensor(xs[i:i + batch])).argmax(axis=1).numpy()
                stats = paddle.to_tensor([int((pred == ys[i:i + batch]).sum()), len(pred)], dtype="int64")
                dist.all_reduce(stats)  # running global accuracy for the progress log
                correct, seen = correct + int(stats[0]), seen + int(stats[1])
        return time.perf_counter() - start

    one_round()  # warm-up
    result = {"guarded": "PADDLE_DOCTOR_GUARDS" in os.environ}
    if not result["guarded"]:
        result["times"] = [one_round() for _ in range(rounds)]
    else:
        result.update(_guarded_rounds(one_round, rounds))
        from paddle_doctor import preflight

        calls = []
        for _ in range(6):  # the first call also opens the store connection: reported apart
            dist.barrier()
            start = time.perf_counter()
            preflight({"n": n, "batch": batch}, model=model)
            calls.append(time.perf_counter() - start)
        result["preflight_first_s"], result["preflight_s"] = calls[0], statistics.median(calls[1:])
    if rank == 0:
        Path(out).write_text(json.dumps(result))
    dist.barrier()


def _guarded_rounds(one_round, rounds: int) -> dict:
    """Rounds alternating the trace on and off in the same processes (the wrapper passes straight
    through when off), and the CPU time of the guards' own threads over the timed rounds."""
    import threading

    from paddle_doctor.runtime.guards import trace

    threads = [t for t in threading.enumerate() if t.name.startswith("paddle-doctor")]
    cpu0, wall0 = _threads_cpu(threads), time.perf_counter()
    on, off = [], []
    for k in range(rounds):
        for state in ((True, False) if k % 2 == 0 else (False, True)):
            trace.TRACER.on = state
            (on if state else off).append(one_round())
    trace.TRACER.on = True
    cpu = _threads_cpu(threads) - cpu0
    return {"times": on, "times_trace_off": off, "guard_threads": sorted(t.name for t in threads),
            "guard_threads_cpu_per_s": cpu / (time.perf_counter() - wall0)}


def _threads_cpu(threads) -> float:
    """User + system CPU seconds of the given threads (/proc/self/task/<tid>/stat)."""
    total = 0
    for t in threads:
        try:
            fields = Path(f"/proc/self/task/{t.native_id}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def eval_worker(out: str, n: int, rounds: int) -> None:
    """``paddle_doctor.evaluate`` with its guards (pre-flight, watchdog region) and with them
    replaced by a no-op, alternating in the same processes (a small CNN, as bench_evaluate.py)."""
    import contextlib

    import numpy as np
    import paddle
    import paddle.distributed as dist

    import paddle_doctor
    from paddle_doctor.runtime.evaluate.api import api as ev
    from paddle_doctor.runtime.evaluate.evalguard import PlanCheck

    paddle.set_device("cpu")
    dist.init_parallel_env()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, 1, 28, 28), dtype=np.float32)
    y = rng.integers(0, 10, (n, 1)).astype("int64")
    data = [(x[i], y[i]) for i in range(n)]
    paddle.seed(1)
    net = paddle.nn.Sequential(paddle.nn.Conv2D(1, 8, 3), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
                               paddle.nn.Conv2D(8, 16, 3), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
                               paddle.nn.Flatten(), paddle.nn.Linear(16 * 5 * 5, 10))
    guard = ev.evaluation_guard

    @contextlib.contextmanager
    def no_guard(**_):
        yield PlanCheck(None, {})  # a pre-flight with nothing to compare: announce/check/wait do nothing

    def once() -> float:
        dist.barrier()
        start = time.perf_counter()
        paddle_doctor.evaluate(net, _ListData(data), paddle.metric.Accuracy(), batch_size=64, progress=False)
        return time.perf_counter() - start

    once()
    times: dict[str, list[float]] = {"guarded": [], "unguarded": []}
    for k in range(rounds):
        for mode in (("guarded", "unguarded") if k % 2 == 0 else ("unguarded", "guarded")):
            ev.evaluation_guard = guard if mode == "guarded" else no_guard
            times[mode].append(once())
    ev.evaluation_guard = guard
    if dist.get_rank() == 0:
        Path(out).write_text(json.dumps(times))
    dist.barrier()


class _ListData:
    """A map-style dataset over a list (paddle.io.Dataset is not needed by evaluate's checks)."""

    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


def evaluate_overhead(rounds: int, n: int = 10007) -> dict:
    h = _harness()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "eval.json"
        run = _launch_self(h, Path(tmp), ["--eval-worker", str(out), str(n), str(rounds)], None,
                           h.base_env(OMP_NUM_THREADS="1"))
        if run.rc != 0 or not out.exists():
            raise SystemExit(f"evaluate launch failed (rc {run.rc}):\n{run.err[-3000:]}")
        times = json.loads(out.read_text())
    ratios = [a / b for a, b in zip(times["guarded"], times["unguarded"])]
    return {"guarded_median_s": statistics.median(times["guarded"]),
            "unguarded_median_s": statistics.median(times["unguarded"]),
            "median_pair_ratio": statistics.median(ratios), "ratios": ratios}


# --- driver ----------------------------------------------------------------------------------------

def _harness():
    sys.path.insert(0, str(REPO / "tests" / "integration"))  # the tests' helper packages
    from guards import harness

    return harness


def overhead(pairs: int, rounds: int, n: int, batch: int) -> dict:
    h = _harness()
    env = h.base_env(OMP_NUM_THREADS="1")
    runs: dict[str, list[float]] = {"plain": [], "guarded": [], "trace_off": []}
    pair_ratios, preflight_s, preflight_first_s, trace_ratios, thread_cpu = [], [], [], [], []
    for k in range(pairs):
        medians = {}
        for mode in (("plain", "guarded") if k % 2 == 0 else ("guarded", "plain")):
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "times.json"
                args = ["--worker", str(out), str(n), str(batch), str(rounds)]
                run = _launch_self(h, Path(tmp), args, ["--trace"] if mode == "guarded" else None, env)
                if run.rc != 0 or not out.exists():
                    raise SystemExit(f"{mode} launch failed (rc {run.rc}):\n{run.err[-3000:]}")
                data = json.loads(out.read_text())
            runs[mode] += data["times"]
            medians[mode] = statistics.median(data["times"])
            if data["guarded"]:
                preflight_s.append(data["preflight_s"])
                preflight_first_s.append(data["preflight_first_s"])
                runs["trace_off"] += data["times_trace_off"]
                trace_ratios += [a / b for a, b in zip(data["times"], data["times_trace_off"])]
                thread_cpu.append(data["guard_threads_cpu_per_s"])
        pair_ratios.append(medians["guarded"] / medians["plain"])
        print(f"pair {k + 1}: plain {medians['plain']:.3f} s, guarded {medians['guarded']:.3f} s, "
              f"ratio {pair_ratios[-1]:.3f}", flush=True)
    return {"plain_median_s": statistics.median(runs["plain"]), "guarded_median_s": statistics.median(runs["guarded"]),
            "ratio_of_medians": statistics.median(runs["guarded"]) / statistics.median(runs["plain"]),
            "ratio_of_best": min(runs["guarded"]) / min(runs["plain"]),
            "median_pair_ratio": statistics.median(pair_ratios), "pair_ratios": pair_ratios,
            "trace_ratio_in_process": statistics.median(trace_ratios), "trace_ratios": trace_ratios,
            "guard_threads_cpu_per_s": max(thread_cpu), "steps_per_round": -(-(n // 2) // batch),
            "preflight_s": preflight_s, "preflight_first_s": preflight_first_s, "runs": runs}


def _launch_self(h, tmp: Path, args: list[str], run_opts, env):
    """The launcher on this file in worker mode (the harness launches scripts from its own dir)."""
    import shutil

    shutil.copy(__file__, h.HERE / "_bench_guards_worker.py")
    try:
        return h.launch(tmp, 2, "_bench_guards_worker.py", args, run_opts=run_opts, env=env, timeout=300)
    finally:
        (h.HERE / "_bench_guards_worker.py").unlink(missing_ok=True)


def time_to_error(fault: str, script: str = "eval_fault.py", cap: float = 120) -> dict:
    """Plain Paddle (for evaluate(): its watchdog switched off) vs paddle-doctor's guards."""
    h = _harness()
    out = {}
    modes = (("paddle", None, {"PADDLE_DOCTOR_WATCHDOG": "0"}), ("paddle-doctor", ["--trace"], {}))
    for mode, opts, extra in modes:
        if script == "eval_evaluate.py":
            opts = None  # evaluate() guards itself; `run` adds nothing to this case
        with tempfile.TemporaryDirectory() as tmp:
            run = h.launch(Path(tmp), 2, script, [fault, "1"], run_opts=opts, env=h.base_env(**extra), timeout=cap)
            t_fault = run.fault_time()
            took = run.exits[0] - t_fault if t_fault and 0 in run.exits else None
            out[mode] = {"seconds": None if took is None else round(took, 2), "rc": run.rc,
                         "wall_s": round(run.wall, 1), "survivor_says": _first_error(run.log(0))}
        seconds = out[mode]["seconds"]
        print(f"{script} {fault}: {mode}: survivor " + (f"exited {seconds} s after the fault" if seconds is not None
              else f"still waiting when killed at {cap:.0f} s") + f"; says: {out[mode]['survivor_says']}", flush=True)
    return out


def _first_error(log: str) -> str:
    lines = [ln.strip() for ln in log.splitlines()
             if re.search(r"\[paddle-doctor\]|\w+(?:Error|Exception): |TIMEOUT|FatalError: ", ln) and "ccache" not in ln]
    return lines[0][:240] if lines else "(nothing)"


def wrapper_cost_us(calls: int = 20000) -> float:
    """Microseconds the trace wrapper adds to one collective call (an all_reduce-like no-op)."""
    import timeit

    from paddle_doctor.runtime.guards import trace

    class Tensor:
        shape, dtype = [2], "paddle.int64"

    def all_reduce(tensor, op=0, group=None, sync_op=True):
        return None

    wrapped = trace._wrap("all_reduce", all_reduce, trace.SPECS["all_reduce"])
    trace.TRACER.on, t = True, Tensor()
    try:
        cost = timeit.timeit(lambda: wrapped(t), number=calls) - timeit.timeit(lambda: all_reduce(t), number=calls)
    finally:
        trace.TRACER.on = False
    return cost / calls * 1e6


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--eval-worker":
        eval_worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--n", type=int, default=16384)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--skip-faults", action="store_true")
    ap.add_argument("--json")
    args = ap.parse_args()
    result = {"overhead": overhead(args.pairs, args.rounds, args.n, args.batch), "wrapper_us": wrapper_cost_us()}
    o = result["overhead"]
    print(f"trace wrapper: {result['wrapper_us']:.1f} us per collective call (timeit, no-op collective)", flush=True)
    print(f"overhead, launches alternating plain / run --trace: ratio of medians {o['ratio_of_medians']:.3f}, "
          f"median pair ratio {o['median_pair_ratio']:.3f}, ratio of best rounds {o['ratio_of_best']:.3f} "
          f"({o['steps_per_round']} traced all_reduce per rank per round)", flush=True)
    print(f"overhead, same processes, trace on / off alternating: median ratio {o['trace_ratio_in_process']:.3f}; "
          f"guard threads use {o['guard_threads_cpu_per_s'] * 1000:.1f} ms CPU per second (max over launches); "
          f"preflight() median of 5 calls {', '.join(f'{s * 1000:.1f} ms' for s in o['preflight_s'])} per launch "
          f"(first call, with the store connection: {', '.join(f'{s * 1000:.0f} ms' for s in o['preflight_first_s'])})",
          flush=True)
    e = result["evaluate"] = evaluate_overhead(args.rounds)
    print(f"evaluate() with its guards / with a no-op instead, same processes: median ratio "
          f"{e['median_pair_ratio']:.3f} ({e['guarded_median_s']:.3f} s vs {e['unguarded_median_s']:.3f} s)", flush=True)
    if not args.skip_faults:
        result["sigkill"] = time_to_error("sigkill")
        result["sigstop"] = time_to_error("sigstop")
        result["sigstop_in_evaluate"] = time_to_error("sigstop", "eval_evaluate.py", cap=45)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
