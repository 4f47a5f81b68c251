"""Distributed evaluation of a small classifier, started with fixed ports.

Run: python -m paddle.distributed.launch --ips 127.0.0.1 --start_port 6170 \
         --nproc_per_node 2 --log_dir log eval.py
(the lab substitutes a free port for 6170 and keeps it busy with hold_port.py)

What is wrong (on purpose): nothing in the script. The job's fixed start port is still held by
a leftover process of an earlier job; rank 0 creates the TCPStore server on it and cannot bind.
Paddle 3.3.1's libuv store never says "Address already in use": it dies on an assertion.
"""

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
    dataset = EvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    acc = evaluate(Net(), DataLoader(dataset, batch_sampler=sampler))
    if rank == 0:
        print(f"accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
