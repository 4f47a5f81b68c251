"""Toy classifier trained with paddle.distributed.spawn, caching eval features. Fault: rank 1 is killed with SIGKILL during its first evaluation, standing in for the kernel OOM killer (the feature cache outgrew the host's memory): no traceback on rank 1."""
import os
import sys
import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import Dataset, DataLoader, DistributedBatchSampler


class ToyDataset(Dataset):
    def __init__(self, n, dim=16, classes=4, seed=0):
        rng = np.random.RandomState(seed)
        self.x = rng.randn(n, dim).astype("float32")
        w = np.random.RandomState(123).randn(dim, classes).astype("float32")
        self.y = (self.x @ w).argmax(1).astype("int64")

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class MLP(paddle.nn.Layer):
    def __init__(self, dim=16, hidden=32, classes=4):
        super().__init__()
        self.fc1 = paddle.nn.Linear(dim, hidden)
        self.fc2 = paddle.nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))


def evaluate(model, rank):
    ds = ToyDataset(64, seed=1)
    sampler = DistributedBatchSampler(ds, batch_size=8, shuffle=False)
    loader = DataLoader(ds, batch_sampler=sampler)
    model.eval()
    correct = paddle.zeros([], dtype="int64")
    total = paddle.zeros([], dtype="int64")
    with paddle.no_grad():
        for x, y in loader:
            pred = model(x).argmax(-1)
            if rank == 1:
                # the feature cache outgrew the host's memory here: the kernel OOM killer sends SIGKILL
                import signal
                os.kill(os.getpid(), signal.SIGKILL)
            correct += (pred == y).astype("int64").sum()
            total += y.shape[0]
    dist.all_reduce(correct)
    dist.all_reduce(total)
    acc = float(correct) / float(total)
    print(f"[rank {rank}] eval acc {acc:.4f} ({int(correct)}/{int(total)})", flush=True)
    return acc


def main():
    dist.init_parallel_env()
    rank = dist.get_rank()
    paddle.seed(0)
    model = paddle.DataParallel(MLP())
    opt = paddle.optimizer.Adam(learning_rate=1e-2, parameters=model.parameters())
    train_ds = ToyDataset(256)
    sampler = DistributedBatchSampler(train_ds, batch_size=16, shuffle=True, drop_last=True)
    loader = DataLoader(train_ds, batch_sampler=sampler)
    for epoch in range(2):
        sampler.set_epoch(epoch)
        model.train()
        for step, (x, y) in enumerate(loader):
            loss = paddle.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            if step % 4 == 0:
                print(f"[rank {rank}] epoch {epoch} step {step} loss {float(loss):.4f}", flush=True)
        evaluate(model, rank)
    if rank == 0:
        os.makedirs("ckpt", exist_ok=True)
        paddle.save(model.state_dict(), "ckpt/model.pdparams")
        print("[rank 0] saved ckpt/model.pdparams", flush=True)


if __name__ == "__main__":
    dist.spawn(main, nprocs=2)
