"""Launcher worker for tests/integration/test_evaluate_uneven.py.

    python -m paddle.distributed.launch --nproc_per_node 3 --log_dir DIR uneven_worker.py OUT fast
    python -m paddle.distributed.launch --nproc_per_node 2 --log_dir DIR uneven_worker.py OUT slow

fast: a rank with 10 batches next to ranks with 1 and 0; a dataset of 1 sample on 3 ranks; a rank
that raises (the others must name it at once, not time out); ranks whose metrics disagree; a
checkpoint loaded on rank 0 only (rank 1's weights differ: the pre-flight stops every rank).
slow: strategy="rank0" where rank 0 works for longer than gloo's 30 s collective timeout.
Writes OUT/rank<R>.json: scenario -> {"result": ...} or {"error": ..., "seconds": ...}.
"""

import json
import os
import sys
import time

import paddle
import paddle.distributed as dist
from paddle.io import DataLoader

from paddle_doctor import evaluate

from workers.evalkit import Net, RankAuc, ToyData, reference

paddle.set_device("cpu")


class FixedBatches(paddle.io.BatchSampler):
    """A user batch sampler that gives each rank its own, very unequal, list of batches."""

    def __init__(self, batches):
        self.batches = batches

    def __iter__(self):
        return iter(self.batches)

    def __len__(self):
        return len(self.batches)


class SlowNet(Net):
    def forward(self, x):
        time.sleep(0.5)
        return super().forward(x)


class RaisingNet(Net):
    def forward(self, x):
        if dist.get_rank() == 1:
            raise ValueError("simulated bug on rank 1")
        return super().forward(x)


def metrics():
    return [paddle.metric.Accuracy(), RankAuc()]


def imbalanced(rank):
    # 44 samples: rank 0 has 10 batches, rank 1 one batch, rank 2 none.
    plan = {0: [list(range(4 * i, 4 * i + 4)) for i in range(10)], 1: [[40, 41, 42, 43]]}.get(rank, [])
    ds = ToyData(44)
    return evaluate(Net("prob"), DataLoader(ds, batch_sampler=FixedBatches(plan)), metrics(), progress=False)


def schema_mismatch(rank):
    auc = paddle.metric.Auc(num_thresholds=4095 if rank == 0 else 255)
    return evaluate(Net("prob2"), ToyData(10, binary=True), [auc], batch_size=4)


class CountingNet(Net):
    """Counts its batches; 50 ms each, so that 20 batches clearly outlast the pre-flight."""

    calls = 0

    def forward(self, x):
        CountingNet.calls += 1
        time.sleep(0.05)
        return super().forward(x)


def weights_differ(rank):
    """A checkpoint loaded on rank 0 only: rank 1 has other weights. 20 batches per rank."""
    try:
        return evaluate(CountingNet("prob", seed=8 if rank == 1 else 7), ToyData(120), [paddle.metric.Accuracy()],
                        batch_size=2)
    finally:
        print(f"weights_differ: stopped after {CountingNet.calls} of 20 batches", flush=True)
        if CountingNet.calls > 10:
            raise AssertionError(f"the pre-flight let {CountingNet.calls} of 20 batches run")


def scenarios(rank, mode):
    if mode == "slow":
        return {"rank0_slow": lambda: evaluate(SlowNet("prob"), ToyData(64), metrics(), batch_size=1,
                                               strategy="rank0")}
    return {
        "imbalanced": lambda: imbalanced(rank),
        "one_sample": lambda: evaluate(Net("prob"), ToyData(1), metrics(), batch_size=4),
        "peer_raises": lambda: evaluate(RaisingNet(), ToyData(30), [paddle.metric.Accuracy()], batch_size=2),
        "schema_mismatch": lambda: schema_mismatch(rank),
        "weights_differ": lambda: weights_differ(rank),
        "after_errors": lambda: evaluate(Net("prob"), ToyData(17), metrics(), batch_size=4),
    }


def main():
    out_dir, mode = sys.argv[1], sys.argv[2]
    dist.init_parallel_env()
    rank = dist.get_rank()
    results = {}
    for name, thunk in scenarios(rank, mode).items():
        start = time.monotonic()
        try:
            r = thunk()
            results[name] = {"metrics": {k: float(v) for k, v in r.metrics.items()},
                             "num_samples": r.num_samples, "local_samples": r.local_samples}
        except Exception as exc:
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
        results[name]["seconds"] = time.monotonic() - start
    if rank == 0:  # ground truth for the test, computed the plain way
        for name, n in (("imbalanced", 44), ("one_sample", 1), ("after_errors", 17), ("rank0_slow", 64)):
            results[f"reference/{name}"] = reference(Net("prob"), ToyData(n), metrics())
    with open(os.path.join(out_dir, f"rank{rank}.json"), "w") as fh:
        json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
