"""Distributed evaluation of the per-rank EMA weights saved by training.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py
(save_checkpoints.py, run first, writes what the training job left: output/ema/rank0/ only.)

What is wrong (on purpose): each rank loads output/ema/rank{N}/model.pdparams, but training
saved only rank 0's file. Rank 1's paddle.load raises ValueError ("... to load model not
exists.", not FileNotFoundError) before any collective; rank 0 is left waiting in all_reduce.
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
    model = Net()
    model.set_state_dict(paddle.load(f"output/ema/rank{rank}/model.pdparams"))
    dataset = EvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    acc = evaluate(model, DataLoader(dataset, batch_sampler=sampler))
    if rank == 0:
        print(f"EMA accuracy = {acc:.4f}")


if __name__ == "__main__":
    main()
