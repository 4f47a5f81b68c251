"""Distributed evaluation that decodes samples in DataLoader worker processes.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): decoding one sample of rank 1's shard blows up the memory of the
DataLoader worker that handles it, and the kernel's OOM killer SIGKILLs that worker (simulated
here: the worker sends itself SIGKILL, which is all the OOM killer does). Nothing is printed by
the worker; rank 1's main process notices the dead worker only at its next 5 s status poll and
raises; rank 0 is left waiting in all_reduce.
"""

import os
import signal

import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

paddle.set_device("cpu")

HUGE_SAMPLE = 21  # stands for the one image whose decode needs far more memory than the rest


class ImageLikeEvalSet(Dataset):
    def __init__(self, n=32, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.x = rng.standard_normal((n, dim)).astype("float32")
        self.y = (self.x[:, 0] + self.x[:, 1] > 0).astype("int64")

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        if i == HUGE_SAMPLE:
            os.kill(os.getpid(), signal.SIGKILL)  # what the OOM killer does to the worker
        return self.x[i], self.y[i]


class Net(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16, classes=2):
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
    dataset = ImageLikeEvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    loader = DataLoader(dataset, batch_sampler=sampler, num_workers=2)
    acc = evaluate(Net(), loader)
    if rank == 0:
        print(f"accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
