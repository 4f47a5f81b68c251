"""Distributed evaluation that scores predictions with a native (C) metric library.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): the native metric helper is handed a NULL buffer on rank 1 (its
shard's last batch is empty after filtering) and dereferences it: a segmentation fault. The
native library is stood in for by ctypes.string_at(0), the same invalid read. Paddle's signal
handler prints a FatalError block into workerlog.1; rank 0, waiting in all_reduce, fails at once.
"""

import ctypes

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

paddle.set_device("cpu")


class EvalSet(Dataset):
    def __init__(self, n=32, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, dim)).astype("float32")
        self.y = (self.x[:, 0] + self.x[:, 1] > 0).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16, classes=2):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def native_score(probs, labels, keep):
    """Stand-in for a C metric kernel that reads the kept rows through a raw pointer."""
    rows = probs[keep]
    address = rows.ctypes.data if len(rows) else 0  # an empty selection gives a NULL buffer
    ctypes.string_at(address)  # the C side reads it unconditionally
    return float((rows.argmax(axis=1) == labels[keep]).sum()) if len(rows) else 0.0


def evaluate(model, loader, rank):
    model.eval()
    stats = paddle.zeros([2])
    with paddle.no_grad():
        for step, (x, y) in enumerate(loader):
            probs = paddle.nn.functional.softmax(model(x)).numpy()
            keep = probs.max(axis=1) > (1.1 if rank == 1 and step == 3 else 0.0)  # confident rows
            stats += paddle.to_tensor([native_score(probs, y.numpy(), keep), float(keep.sum())])
    dist.all_reduce(stats)
    return stats[0].item() / max(1.0, stats[1].item())


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(2024)
    dataset = EvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    acc = evaluate(Net(), DataLoader(dataset, batch_sampler=sampler), rank)
    if rank == 0:
        print(f"accuracy on confident rows = {acc:.4f}")


if __name__ == "__main__":
    main()
