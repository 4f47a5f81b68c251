#!/usr/bin/env python3
"""Benchmark (issue 20): evaluate's batch thread against the naive loop, where ``__getitem__``
costs about as much as the forward pass (one process, CPU).

The dataset reads each sample as a val set does: a file per image read from disk, after a
storage latency (``--io-ms`` per sample, ``time.sleep``: the wait of a network file system or a
cold disk, during which the process uses no CPU), then zlib-inflated (``zlib`` releases the GIL
while it inflates, as image decoders do) and transformed. The overlap of the CPU part needs a
free core: on a machine whose cores are all busy (this one is shared by 8 jobs) only the wait
overlaps, so ``--io-ms 0`` shows the CPU-bound case alone. The model is
a small CNN whose forward pass costs about the same per batch (``--channels``). Timed, in
alternating order over ``--rounds`` rounds after one warm-up each:

- naive: ``for i in range(0, N, B)``: read the samples, collate, forward, metric update (nothing
  overlaps: the loop a user writes by hand, and PaddleSeg's own val loop shape);
- dataloader: ``paddle.io.DataLoader(num_workers=0)`` and the same loop (its reader thread
  buffers batches);
- evaluate: ``paddle_doctor.evaluate(model, dataset, Accuracy(), batch_size=B)``, whose thread
  builds the next batches of the rank's shard while the model runs.

The accuracies must agree exactly. Prints one JSON line with medians and ratios.

    OMP_NUM_THREADS=1 .venv/bin/python bench/bench_eval_prefetch.py [--n 512] [--batch 16] [--rounds 7]
        [--channels 6] [--repeat 3] [--io-ms 0.8]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np
import paddle
from paddle.io import DataLoader, Dataset

from paddle_doctor import evaluate

SIZE = 48


class Compressed(Dataset):
    """One zlib-compressed file per sample; ``__getitem__`` waits ``io_ms``, reads, inflates,
    normalises and flips it."""

    def __init__(self, folder: Path, n: int, repeat: int, io_ms: float, level: int = 6):
        rng = np.random.default_rng(0)
        base = rng.integers(0, 4, (3, SIZE, SIZE)).astype("float32")  # compressible, like real images
        self.files = []
        for i in range(n):  # ``repeat`` copies: a bigger file to inflate (a JPEG decode); the image is its start
            path = folder / f"{i}.z"
            path.write_bytes(zlib.compress((base + (i % 7)).tobytes() * repeat, level))
            self.files.append(path)
        self.labels = [np.array([i % 10], "int64") for i in range(n)]
        self.io_s = io_ms / 1000

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        if self.io_s:
            time.sleep(self.io_s)
        raw = np.frombuffer(zlib.decompress(self.files[i].read_bytes()), "float32")[: 3 * SIZE * SIZE]
        img = raw.reshape(3, SIZE, SIZE)
        return ((img - 1.5) / 1.2)[:, :, ::-1].copy(), self.labels[i]


class Cnn(paddle.nn.Layer):
    def __init__(self, channels: int):
        super().__init__()
        paddle.seed(1)
        self.c1 = paddle.nn.Conv2D(3, channels, 3, padding=1)
        self.c2 = paddle.nn.Conv2D(channels, channels, 3, padding=1)
        self.fc = paddle.nn.Linear(channels, 10)

    def forward(self, x):
        h = paddle.nn.functional.relu(self.c1(x))
        h = paddle.nn.functional.relu(self.c2(h))
        return self.fc(h.mean(axis=[2, 3]))


def naive(model, ds, batch):
    from paddle.io.dataloader.collate import default_collate_fn

    metric = paddle.metric.Accuracy()
    with paddle.no_grad():
        for start in range(0, len(ds), batch):
            x, y = default_collate_fn([ds[i] for i in range(start, min(start + batch, len(ds)))])
            metric.update(metric.compute(model(paddle.to_tensor(x)), paddle.to_tensor(y)).numpy())
    return metric.accumulate()


def dataloader(model, ds, batch):
    metric = paddle.metric.Accuracy()
    with paddle.no_grad():
        for x, y in DataLoader(ds, batch_size=batch, num_workers=0):
            metric.update(metric.compute(model(x), y).numpy())
    return metric.accumulate()


def with_evaluate(model, ds, batch):
    return evaluate(model, ds, paddle.metric.Accuracy(), batch_size=batch, progress=False).metrics["acc"]


def cost_split(model, ds, batch, tries: int = 7) -> dict:
    """Median seconds a batch spends in __getitem__ + collate and in the forward pass, apart."""
    from paddle.io.dataloader.collate import default_collate_fn

    data, forward = [], []
    for k in range(tries):
        t0 = time.perf_counter()
        x, _ = default_collate_fn([ds[i] for i in range(k * batch, (k + 1) * batch)])
        t1 = time.perf_counter()
        with paddle.no_grad():
            model(paddle.to_tensor(x))
        data.append(t1 - t0)
        forward.append(time.perf_counter() - t1)
    return {"data_s": round(statistics.median(data), 4), "forward_s": round(statistics.median(forward), 4)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=512)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--channels", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=3, help="copies of the image in each compressed sample")
    ap.add_argument("--io-ms", type=float, default=0.8, help="storage latency per sample (ms)")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    paddle.set_device("cpu")
    with tempfile.TemporaryDirectory(prefix="bench-eval-prefetch-") as tmp:
        run(args, Compressed(Path(tmp), args.n, args.repeat, args.io_ms), Cnn(args.channels))


def run(args, ds, model) -> None:
    model.eval()
    methods = {"naive": naive, "dataloader": dataloader, "evaluate": with_evaluate}
    times = {k: [] for k in methods}
    values = {k: fn(model, ds, args.batch) for k, fn in methods.items()}  # warm-up, and the answers
    split = cost_split(model, ds, args.batch)
    for r in range(args.rounds):
        order = list(methods) if r % 2 == 0 else list(reversed(methods))
        for k in order:
            t = time.perf_counter()
            methods[k](model, ds, args.batch)
            times[k].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in times.items()}
    per_round = [e / n for e, n in zip(times["evaluate"], times["naive"])]
    print(json.dumps({"n": args.n, "batch": args.batch, "rounds": args.rounds, "channels": args.channels,
                      "repeat": args.repeat, "io_ms": args.io_ms, "per_batch": split,
                      "median_s": {k: round(v, 3) for k, v in med.items()},
                      "evaluate_vs_naive": round(med["evaluate"] / med["naive"], 3),
                      "evaluate_vs_naive_per_round_median": round(statistics.median(per_round), 3),
                      "evaluate_vs_dataloader": round(med["evaluate"] / med["dataloader"], 3),
                      "accuracy": values, "agree": len(set(values.values())) == 1}))


if __name__ == "__main__":
    main()
