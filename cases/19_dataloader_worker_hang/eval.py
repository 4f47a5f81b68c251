"""Distributed evaluation that reads samples through a network mount in DataLoader workers.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): one sample's read never returns (a stalled network filesystem; here a
worker that blocks forever on one index). `DataLoader(timeout=10)` looks like a guard, but with
num_workers > 0 Paddle 3.3.1 only uses it as a poll interval, so rank 1 waits for that batch
forever. Rank 0 has finished its shard and waits in all_reduce; gloo gives up after its hard-coded
30 s with an anonymous `unbound_buffer.cc ... TIMEOUT`, and the launcher then SIGTERMs rank 1,
whose crash dump shows it stuck in the DataLoader (`ReadNextList`).
"""

import threading

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

paddle.set_device("cpu")

DIM = 8
STALLED_SAMPLE = 21  # the file whose read hangs; DistributedBatchSampler gives it to rank 1


class MountedEvalSet(Dataset):
    """Each sample is read from the mount on access (here: generated; one read stalls)."""

    def __init__(self, n=32, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, DIM)).astype("float32")
        self.y = (self.x[:, 0] > 0).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        if i == STALLED_SAMPLE:
            threading.Event().wait()  # the read that never returns
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    def __init__(self, dim=DIM, hidden=16, classes=2):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def evaluate(model, loader):
    model.eval()
    stats = paddle.zeros([2], dtype="int64")
    with paddle.no_grad():
        for x, y in loader:
            pred = model(x).argmax(axis=1)
            stats += paddle.to_tensor([(pred == y).sum().item(), len(y)], dtype="int64")
    dist.all_reduce(stats)
    return stats[0].item() / stats[1].item()


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(2024)
    dataset = MountedEvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    loader = DataLoader(dataset, batch_sampler=sampler, num_workers=2, timeout=10)
    acc = evaluate(Net(), loader)
    if rank == 0:
        print(f"accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
