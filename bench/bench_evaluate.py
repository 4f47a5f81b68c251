#!/usr/bin/env python3
"""Benchmark: ``paddle_doctor.evaluate`` against the usual distributed eval loops (W=2, CPU).

One launcher run (2 processes, gloo, OMP_NUM_THREADS=1 each) evaluates the same model on the same
synthetic 28x28 data (N=10007, B=64 by default: N is not a multiple of W*B) with each method, in
alternating order over ``--rounds`` rounds after one warm-up call each (timed apart: it includes
kernel set-up and evaluate's one-time store connection); both ranks start each timing together.
Models: ``mlp3`` (default; 784-W-W-10, W=256 or ``BENCH_MLP3_WIDTH``: compute about equal to data
loading, hapi about 3x the naive loop, the regime of the issue's own measurement), ``cnn`` (conv 8
and 16 channels: compute dominates, hapi only ~1.5x naive), ``mlp`` (784-32-10: data loading
dominates, per-batch gathers weigh most).

- naive: DataLoader + DistributedBatchSampler(drop_last=False), local paddle.metric.Accuracy,
  then one all_reduce of (correct, count) (the usual "fixed" loop: counts the padding twice);
- naive_drop_last: the same with drop_last=True (drops real samples);
- evaluate: ``paddle_doctor.evaluate(model, dataset, Accuracy(), batch_size=B)``;
- evaluate_loader: ``evaluate`` on the naive loop's DataLoader (skips its padded duplicates);
- hapi: ``paddle.Model(net).evaluate(dataset, batch_size=B)``, which all-gathers every output and
  label every batch (bytes counted by wrapping ``paddle.hapi.model._all_gather``).

Bytes = what the collectives deliver to one rank (all_reduce/broadcast: the buffer; all_gather:
W x the buffer). The exact accuracy comes from a plain one-process loop over all N samples.

Each ratio is reported three ways: the median of per-round ratios, the ratio of the medians and
the ratio of the best times.

    .venv/bin/python bench/bench_evaluate.py [--model cnn|mlp|mlp3] [--n 10007] [--batch 64] [--rounds 7] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

METHODS = ("naive", "naive_drop_last", "evaluate", "evaluate_loader", "hapi")


# --- worker (runs under the launcher) ----------------------------------------------------------

def build(n: int, model: str = "mlp3"):
    import numpy as np
    import paddle

    class Images(paddle.io.Dataset):
        def __init__(self):
            rng = np.random.default_rng(0)
            self.x = rng.standard_normal((n, 1, 28, 28), dtype=np.float32)
            self.y = ((self.x[:, 0, 10:18, 10:18].mean(axis=(1, 2)) > 0) * 5
                      + rng.integers(0, 5, n)).astype("int64")[:, None]

        def __len__(self):
            return n

        def __getitem__(self, i):
            return self.x[i], self.y[i]

    paddle.seed(1)
    if model == "cnn":
        net = paddle.nn.Sequential(
            paddle.nn.Conv2D(1, 8, 3), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
            paddle.nn.Conv2D(8, 16, 3), paddle.nn.ReLU(), paddle.nn.MaxPool2D(2),
            paddle.nn.Flatten(), paddle.nn.Linear(16 * 5 * 5, 10))
    elif model == "mlp":  # little compute per batch: the per-batch cost of gathering weighs most
        net = paddle.nn.Sequential(paddle.nn.Flatten(), paddle.nn.Linear(784, 32), paddle.nn.ReLU(),
                                   paddle.nn.Linear(32, 10))
    else:  # "mlp3": between the two, compute about as large as the data loading
        width = int(os.environ.get("BENCH_MLP3_WIDTH", "256"))
        net = paddle.nn.Sequential(paddle.nn.Flatten(), paddle.nn.Linear(784, width), paddle.nn.ReLU(),
                                   paddle.nn.Linear(width, width), paddle.nn.ReLU(), paddle.nn.Linear(width, 10))
    net.eval()
    return Images(), net


def naive(net, ds, batch, drop_last):
    """The usual loop: DistributedBatchSampler, local metric, one all_reduce at the end."""
    import paddle
    import paddle.distributed as dist

    sampler = paddle.io.DistributedBatchSampler(ds, batch_size=batch, drop_last=drop_last)
    acc = paddle.metric.Accuracy()
    with paddle.no_grad():
        for x, y in paddle.io.DataLoader(ds, batch_sampler=sampler):
            acc.update(acc.compute(net(x), y))
    totals = paddle.to_tensor([float(acc.total[0]), float(acc.count[0])], dtype="float64")
    dist.all_reduce(totals)
    correct, count = totals.numpy().tolist()
    acc = correct / count if count else float("nan")  # drop_last on a tiny set drops everything
    return {"acc": acc, "samples": int(count), "bytes": totals.numpy().nbytes, "collectives": 1}


def run_evaluate(net, ds, batch, loader):
    import paddle

    from paddle_doctor import evaluate

    data = ds
    if loader:
        data = paddle.io.DataLoader(ds, batch_sampler=paddle.io.DistributedBatchSampler(ds, batch_size=batch))
    r = evaluate(net, data, paddle.metric.Accuracy(), batch_size=None if loader else batch, progress=False)
    return {"acc": r.metrics["acc"], "samples": r.num_samples, "bytes": r.bytes_exchanged,
            "collectives": r.collectives}


def hapi(net, ds, batch):
    import paddle
    import paddle.distributed as dist
    import paddle.hapi.model as hm

    counter = {"bytes": 0, "calls": 0}
    original = hm._all_gather

    def counting(x):
        counter["bytes"] += int(x.numel()) * x.element_size() * dist.get_world_size()
        counter["calls"] += 1
        return original(x)

    hm._all_gather = counting
    try:
        model = paddle.Model(net)
        model.prepare(metrics=paddle.metric.Accuracy())
        result = model.evaluate(ds, batch_size=batch, verbose=0)
    finally:
        hm._all_gather = original
    acc = result["acc"]
    return {"acc": float(acc[0] if isinstance(acc, (list, tuple)) else acc), "samples": len(ds),
            "bytes": counter["bytes"], "collectives": counter["calls"]}


def exact_accuracy(net, ds, batch):
    import paddle

    acc = paddle.metric.Accuracy()
    with paddle.no_grad():
        for x, y in paddle.io.DataLoader(ds, batch_size=batch):
            acc.update(acc.compute(net(x), y))
    return acc.accumulate()


def worker(out: str, n: int, batch: int, rounds: int, model: str) -> None:
    import paddle
    import paddle.distributed as dist

    paddle.set_device("cpu")
    dist.init_parallel_env()
    ds, net = build(n, model)
    calls = {"naive": lambda: naive(net, ds, batch, False), "naive_drop_last": lambda: naive(net, ds, batch, True),
             "evaluate": lambda: run_evaluate(net, ds, batch, False),
             "evaluate_loader": lambda: run_evaluate(net, ds, batch, True), "hapi": lambda: hapi(net, ds, batch)}
    times, last, first = {m: [] for m in METHODS}, {}, {}
    for m in METHODS:  # warm-up, timed apart: kernels, and evaluate's one-time store connection
        dist.barrier()
        t0 = time.perf_counter()
        calls[m]()
        first[m] = time.perf_counter() - t0
    for r in range(rounds):
        order = METHODS if r % 2 == 0 else tuple(reversed(METHODS))
        for m in order:
            dist.barrier()
            t0 = time.perf_counter()
            last[m] = calls[m]()
            times[m].append(time.perf_counter() - t0)
    if dist.get_rank() == 0:
        exact = exact_accuracy(net, ds, batch)
        Path(out).write_text(json.dumps({"times": times, "first_call": first, "results": last, "exact_acc": exact, "n": n, "model": model,
                                         "batch": batch, "world": dist.get_world_size()}, indent=1))


# --- driver ------------------------------------------------------------------------------------

def launch(n: int, batch: int, rounds: int, model: str, timeout: float) -> dict:
    from paddle_doctor.process.bounded_run import run_bounded

    with tempfile.TemporaryDirectory(prefix="bench-evaluate-") as tmp:
        work = Path(tmp)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PADDLE_", "FLAGS_"))}
        env["OMP_NUM_THREADS"] = "1"
        cmd = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", "2", "--log_dir",
               str(work / "log"), str(Path(__file__).resolve()),  # positional: the launcher's own
               "worker", str(work / "out.json"), str(n), str(batch), str(rounds), model]  # argparse eats --n
        run = run_bounded(cmd, cwd=work, env=env, output=work / "terminal.out", timeout=timeout)
        if run.returncode != 0 or not (work / "out.json").exists():
            tail = (work / "log" / "workerlog.0").read_text(errors="replace")[-3000:] if (work / "log").exists() else ""
            raise SystemExit(f"launcher failed (rc {run.returncode}, timed out {run.timed_out}):\n{tail}")
        return json.loads((work / "out.json").read_text())


def ratios(times: dict, a: str, b: str) -> tuple[float, float, float]:
    """a / b three ways: median of the per-round ratios (both ran in the same round), ratio of
    the medians, ratio of the best times (timeit's rule: the least disturbed run). On this
    shared 2-core VM single calls swing by 2x; the three agree when the noise is symmetric."""
    paired = statistics.median(x / y for x, y in zip(times[a], times[b]))
    return paired, statistics.median(times[a]) / statistics.median(times[b]), min(times[a]) / min(times[b])


RATIOS = (("evaluate", "naive", "goal <= 1.05"), ("evaluate_loader", "naive", ""),
          ("evaluate", "hapi", "goal <= 0.5"), ("hapi", "naive", ""))


def report(data: dict) -> str:
    t, res, exact = data["times"], data["results"], data["exact_acc"]
    med = {m: statistics.median(v) for m, v in t.items()}
    lines = [f"model={data['model']} N={data['n']} B={data['batch']} W={data['world']}, exact accuracy {exact:.6f}", "",
             "| method | median s | runs s | samples counted | accuracy | error vs exact | collectives | bytes/rank |",
             "|---|---|---|---|---|---|---|---|"]
    for m in METHODS:
        r = res[m]
        runs = ", ".join(f"{x:.3f}" for x in t[m])
        lines.append(f"| {m} | {med[m]:.3f} | {runs} | {r['samples']} | {r['acc']:.6f} | "
                     f"{r['acc'] - exact:+.2e} | {r['collectives']} | {r['bytes']} |")
    lines += ["", "first (warm-up) call s: " + ", ".join(f"{m} {data['first_call'][m]:.3f}" for m in METHODS),
              "ratios: median of paired ratios / ratio of medians / ratio of best times"]
    for a, b, goal in RATIOS:
        paired, medians, best = ratios(t, a, b)
        lines.append(f"{a} / {b}: {paired:.3f} / {medians:.3f} / {best:.3f}" + (f" ({goal})" if goal else ""))
    return "\n".join(lines)


def main() -> None:
    if sys.argv[1:2] == ["worker"]:
        out, n, batch, rounds = sys.argv[2], *map(int, sys.argv[3:6])
        worker(out, n, batch, rounds, sys.argv[6])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10007)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--model", choices=("cnn", "mlp", "mlp3"), default="mlp3")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    data = launch(args.n, args.batch, args.rounds, args.model, args.timeout)
    print(report(data))
    if args.json:
        args.json.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
