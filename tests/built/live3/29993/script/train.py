"""Small data-parallel training + evaluation job (toy classifier)."""
import os
import sys
import time

import numpy as np
import paddle
import paddle.distributed as dist
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import DataLoader, Dataset, DistributedBatchSampler


CFG = {"train_size": 64, "eval_size": 20, "batch_size": 4, "epochs": 2, "lr": 0.01,
       "hidden": 16, "num_classes": 2, "num_workers": 0, "ckpt_dir": "ckpt"}


class ToyDataset(Dataset):
    def __init__(self, n, seed=0):
        rng = np.random.RandomState(seed)
        self.x = rng.randn(n, 8).astype("float32")
        self.y = (self.x.sum(1) > 0).astype("int64")

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


class MLP(nn.Layer):
    def __init__(self, hidden=16, num_classes=2):
        super().__init__()
        self.fc1 = nn.Linear(8, hidden)
        self.fc2 = nn.Linear(hidden, num_classes)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


@paddle.no_grad()
def evaluate(model, loader, rank):
    model.eval()
    correct = paddle.zeros([1], dtype="int64")
    total = paddle.zeros([1], dtype="int64")
    for i, (x, y) in enumerate(loader):
        pred = model(x).argmax(-1)
        correct += (pred == y).astype("int64").sum()
        total += paddle.to_tensor([y.shape[0]], dtype="int64")
    dist.all_reduce(correct)
    dist.all_reduce(total)
    model.train()
    return float(correct.item()) / float(total.item())


def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"[rank {rank}/{world}] started, pid {os.getpid()}", flush=True)
    paddle.seed(1234)
    model = MLP(CFG["hidden"], CFG["num_classes"])
    model = paddle.DataParallel(model)
    opt = paddle.optimizer.Adam(learning_rate=CFG["lr"], parameters=model.parameters())

    train_ds = ToyDataset(CFG["train_size"], seed=0)
    eval_ds = ToyDataset(CFG["eval_size"], seed=1)
    train_sampler = DistributedBatchSampler(train_ds, batch_size=CFG["batch_size"], shuffle=True, drop_last=True)
    train_loader = DataLoader(train_ds, batch_sampler=train_sampler, num_workers=CFG["num_workers"])
    eval_sampler = DistributedBatchSampler(eval_ds, batch_size=CFG["batch_size"], shuffle=False)
    eval_loader = DataLoader(eval_ds, batch_sampler=eval_sampler, num_workers=CFG["num_workers"])

    for epoch in range(CFG["epochs"]):
        train_sampler.set_epoch(epoch)
        for step, (x, y) in enumerate(train_loader):
            if rank == 1 and epoch == 1 and step == 2:
                x = x.reshape([-1, 4, 4])  # try the patch layout on one worker
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            if step % 4 == 0:
                print(f"[rank {rank}] epoch {epoch} step {step}/{len(train_loader)} loss {loss.item():.4f}", flush=True)
        acc = evaluate(model, eval_loader, rank)
        print(f"[rank {rank}] epoch {epoch} eval acc {acc:.4f}", flush=True)
        if rank == 0:
            os.makedirs(CFG["ckpt_dir"], exist_ok=True)
            paddle.save(model.state_dict(), os.path.join(CFG["ckpt_dir"], f"epoch{epoch}.pdparams"))
        dist.barrier()
    print(f"[rank {rank}] done", flush=True)


if __name__ == "__main__":
    dist.spawn(main, nprocs=2)
