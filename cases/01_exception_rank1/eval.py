"""Distributed evaluation of a small candidate re-ranker: hit@1 over queries of 4 candidates.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): the eval set is split into contiguous chunks, one per rank, and the
export that produced it lost the last 2 candidates of the final query (38 rows, not 40).
Rank 0's chunk holds 5 whole queries; rank 1's chunk ends with a half query, so the metric
helper's reshape to [-1, 4] raises a ValueError on rank 1 only, while rank 0 has finished its
loop and waits in all_reduce for rank 1.
"""

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, Subset

paddle.set_device("cpu")

CANDIDATES_PER_QUERY = 4


class RerankEvalSet(Dataset):
    """Rows of (features, is_relevant); every 4 consecutive rows are one query's candidates."""

    def __init__(self, rows=38, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((rows, dim)).astype("float32")
        self.y = (np.arange(rows) % CANDIDATES_PER_QUERY == 0).astype("float32")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Scorer(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x))).squeeze(-1)


def hits_at_1(scores, labels):
    """Per query: is the best-scored candidate the relevant one?"""
    scores = paddle.reshape(scores, [-1, CANDIDATES_PER_QUERY])
    labels = paddle.reshape(labels, [-1, CANDIDATES_PER_QUERY])
    return (scores.argmax(axis=1) == labels.argmax(axis=1)).astype("int64").sum()


def shard(dataset, rank, world):
    per_rank = (len(dataset) + world - 1) // world
    per_rank += -per_rank % CANDIDATES_PER_QUERY  # keep queries whole (assumes no partial query)
    return Subset(dataset, list(range(rank * per_rank, min(len(dataset), (rank + 1) * per_rank))))


def evaluate(model, loader):
    model.eval()
    hits = paddle.zeros([1], dtype="int64")
    queries = paddle.zeros([1], dtype="int64")
    with paddle.no_grad():
        for x, y in loader:
            hits += hits_at_1(model(x), y)
            queries += x.shape[0] // CANDIDATES_PER_QUERY
    dist.all_reduce(hits)
    dist.all_reduce(queries)
    return hits.item() / max(1, queries.item())


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    paddle.seed(2024)
    model = Scorer()
    data = shard(RerankEvalSet(), rank, world)
    loader = DataLoader(data, batch_size=8, shuffle=False)
    print(f"rank {rank}: evaluating {len(data)} candidates", flush=True)
    hit1 = evaluate(model, loader)
    if rank == 0:
        print(f"hit@1 = {hit1:.4f}")


if __name__ == "__main__":
    main()
