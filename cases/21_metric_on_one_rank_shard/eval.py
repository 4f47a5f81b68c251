"""Distributed evaluation of a binary classifier: precision and recall, averaged over 3 ranks.

Run: python -m paddle.distributed.launch --nproc_per_node 3 --log_dir log eval.py

What is wrong (on purpose): the eval export is grouped by label (its 20 positive rows first, then
28 negatives), each rank takes a contiguous chunk of 16 rows, and each rank computes its own
recall (tp / positives) before the ranks average the figures. Rank 0 gets 16 positives, rank 1
4 positives and 12 negatives, rank 2 only negatives: its recall divides by zero
(ZeroDivisionError on rank 2 only), while ranks 0 and 1 wait for it in all_reduce. In one
process the whole set, with its 20 positives, is one chunk and the same code passes.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, Subset

paddle.set_device("cpu")


class ExportedEvalSet(Dataset):
    """(features, label) rows as the export wrote them: every positive first, then the negatives."""

    def __init__(self, positives=20, negatives=28, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.y = np.array([1] * positives + [0] * negatives, "int64")
        self.x = (rng.standard_normal((len(self.y), dim)) + self.y[:, None]).astype("float32")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Classifier(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, 2)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def shard(dataset, rank, world):
    per_rank = (len(dataset) + world - 1) // world
    return Subset(dataset, list(range(rank * per_rank, min(len(dataset), (rank + 1) * per_rank))))


def precision_recall(model, loader):
    tp = predicted = positives = 0
    with paddle.no_grad():
        for x, y in loader:
            pred = model(x).argmax(axis=1)
            tp += int(((pred == 1) & (y == 1)).sum())
            predicted += int((pred == 1).sum())
            positives += int((y == 1).sum())
    return tp / max(1, predicted), tp / positives  # BUG: a chunk without positives divides by zero


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(2024)
    model = Classifier()
    model.eval()
    data = shard(ExportedEvalSet(), rank, world)
    print(f"rank {rank}: evaluating {len(data)} rows", flush=True)
    precision, recall = precision_recall(model, DataLoader(data, batch_size=8, shuffle=False))
    figures = paddle.to_tensor([precision, recall], dtype="float32")
    if world > 1:  # in one process Paddle 3.3.1 creates no global group: all_reduce would raise
        dist.all_reduce(figures)
    if rank == 0:
        p, r = (figures / world).tolist()
        print(f"precision = {p:.4f} recall = {r:.4f}")


if __name__ == "__main__":
    main()
