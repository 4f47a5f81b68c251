"""Small data-parallel training job: MLP classifier on a toy tabular set, eval + checkpoint."""
import os, sys, argparse
import numpy as np
import paddle
import paddle.distributed as dist
from paddle.io import Dataset, DataLoader, DistributedBatchSampler


class TabularSet(Dataset):
    def __init__(self, n, seed=0):
        rng = np.random.RandomState(seed)
        self.x = rng.randn(n, 8).astype("float32")
        self.y = (self.x[:, :4].sum(1) > 0).astype("int64")
    def __getitem__(self, i):
        return self.x[i], self.y[i]
    def __len__(self):
        return len(self.x)

class MLP(paddle.nn.Layer):
    def __init__(self, num_classes=2, hidden=16):
        super().__init__()
        self.fc1 = paddle.nn.Linear(8, hidden)
        self.fc2 = paddle.nn.Linear(hidden, num_classes)
    def forward(self, x):
        return self.fc2(paddle.nn.functional.relu(self.fc1(x)))

def evaluate(model, loader, rank):
    model.eval()
    correct = paddle.zeros([1], "float32"); total = paddle.zeros([1], "float32")
    with paddle.no_grad():
        for x, y in loader:
            pred = model(x).argmax(-1)
            correct += (pred == y).astype("float32").sum()
            total += float(len(y))
    dist.all_reduce(correct); dist.all_reduce(total)
    model.train()
    return (correct / total).item()

def main():
    dist.init_parallel_env()
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"[rank {rank}/{world}] started, pid {os.getpid()}", flush=True)
    train_set, eval_set = TabularSet(96, seed=0), TabularSet(32, seed=1)
    train_loader = DataLoader(train_set, batch_sampler=DistributedBatchSampler(train_set, batch_size=8, shuffle=True, drop_last=True), num_workers=0)
    eval_loader = DataLoader(eval_set, batch_sampler=DistributedBatchSampler(eval_set, batch_size=8), num_workers=0)
    net = MLP()
    net.set_state_dict(paddle.load('ckpt/last.pdparams'))
    model = paddle.DataParallel(net)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    loss_fn = paddle.nn.CrossEntropyLoss()
    for epoch in range(2):
        for step, (x, y) in enumerate(train_loader):
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step(); opt.clear_grad()
            if step % 2 == 0:
                print(f"[rank {rank}] epoch {epoch} step {step}/{len(train_loader)} loss {loss.item():.4f}", flush=True)
        acc = evaluate(model, eval_loader, rank)
        if rank == 0:
            print(f"epoch {epoch} eval acc {acc:.4f}", flush=True)
    if rank == 0:
        os.makedirs("ckpt", exist_ok=True)
        paddle.save(net.state_dict(), "ckpt/final.pdparams")
    print(f"[rank {rank}] done", flush=True)

if __name__ == "__main__":
    main()

