"""Distributed evaluation that caches every embedding of its shard before scoring retrieval.

Run: python -m paddle.distributed.launch --nproc_per_node 2 --log_dir log eval.py

What is wrong (on purpose): rank 1 builds an embedding cache far larger than the host's memory,
and the kernel's OOM killer SIGKILLs it (simulated here: rank 1 sends itself SIGKILL, which is
exactly what the OOM killer does; a real allocation would take this machine down with it).
A SIGKILLed process prints nothing: workerlog.1 just stops. Rank 0, waiting in all_reduce,
fails at once with a gloo error that says "TIMEOUT".
"""

import os
import signal

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


class Encoder(paddle.nn.Layer):
    def __init__(self, dim=8, hidden=16):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, hidden)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def build_cache(model, loader, rank):
    cache = []
    with paddle.no_grad():
        for step, (x, _) in enumerate(loader):
            cache.append(model(x))
            if rank == 1 and step == 2:
                print(f"rank {rank}: cache holds {step + 1} batches, growing", flush=True)
                os.kill(os.getpid(), signal.SIGKILL)  # the OOM killer, as the kernel does it
    return paddle.concat(cache)


def evaluate(model, loader, rank):
    model.eval()
    emb = build_cache(model, loader, rank)
    norms = paddle.to_tensor([float(emb.norm(axis=1).sum()), emb.shape[0]])
    dist.all_reduce(norms)
    return norms[0].item() / norms[1].item()


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(2024)
    dataset = EvalSet()
    sampler = DistributedBatchSampler(dataset, batch_size=4, shuffle=False)
    mean_norm = evaluate(Encoder(), DataLoader(dataset, batch_sampler=sampler), rank)
    if rank == 0:
        print(f"mean embedding norm = {mean_norm:.4f}")


if __name__ == "__main__":
    main()
